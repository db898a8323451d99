"""`upref enroll GAME --simulated`: the simulated board's tags of every piece of the game, enrolled
in one step without a board or a tap; a piece that already has a real deck's tag keeps it unless
--replace, and the command says so and what to type."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from upref.board.simtags import sim_uid
from upref.commands import enroll
from upref.registry import find_game, games
from upref.store.tags import TagBook


def no_board(_port: str | None) -> enroll.BoardLink:
    raise AssertionError("--simulated needs no board")


@pytest.fixture
def reg(tmp_path: Path) -> Iterator[TagBook]:
    with TagBook(tmp_path / "tags.sqlite") as r:
        yield r


def run(reg: TagBook, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = enroll.main(list(argv), opener=no_board, out=out, err=err, tag_book=reg)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", [g.name for g in games()])
def test_every_piece_of_the_game_gets_its_simulated_tag(reg: TagBook, name: str) -> None:
    game = find_game(name)
    status, out, err = run(reg, name, "--simulated")
    assert (status, err) == (0, "")
    items = [item for item, _ in game.items()]
    assert reg.items(name) == {item: sim_uid(name, item) for item in items}
    assert out.splitlines() == [
        f"{game.title}: the simulated board's {len(items)} {game.piece}s are enrolled "
        f"({len(items)} added, 0 already enrolled).",
        f"Tap them on the simulated board by their ids: `upref simctl tap {items[0]}`.",
    ]


def test_enrolling_again_changes_nothing(reg: TagBook) -> None:
    assert run(reg, "updown", "--simulated")[0] == 0
    status, out, _ = run(reg, "--simulated", "updown")
    assert status == 0
    assert out.startswith(
        "Up And Down: the simulated board's 30 cards are enrolled (0 added, 30 already enrolled)."
    )


def test_other_games_tags_stay(reg: TagBook) -> None:
    reg.enroll("04A1B2C3D4E5F6", "whatsup", "W01")
    assert run(reg, "updown", "--simulated")[0] == 0
    assert reg.items("whatsup") == {"W01": "04A1B2C3D4E5F6"}


def test_a_real_decks_tag_is_kept_unless_replace(reg: TagBook) -> None:
    reg.enroll("04A1B2C3D4E5F6", "updown", "T02")
    status, out, err = run(reg, "updown", "--simulated")
    assert status == 1
    assert out.startswith("Up And Down: 29 of the simulated board's 30 cards are enrolled "
                          "(29 added, 0 already enrolled).")
    assert err == (
        "1 cards already have another tag (a real deck's) and keep it, so their simulated tags "
        "mean nothing to upref: T02. To play them on the simulated board: "
        "`upref enroll updown --simulated --replace` (their other tags are then forgotten).\n"
    )
    assert reg.tag_of("updown", "T02").uid == "04A1B2C3D4E5F6"  # type: ignore[union-attr]

    status, out, err = run(reg, "updown", "--simulated", "--replace")
    assert (status, err) == (0, "")
    assert "1 cards had another tag, now forgotten: T02" in out
    assert reg.tag_of("updown", "T02").uid == sim_uid("updown", "T02")  # type: ignore[union-attr]
    assert reg.lookup("04A1B2C3D4E5F6") is None


def test_simulated_is_one_of_the_things_enroll_does(reg: TagBook) -> None:
    with pytest.raises(SystemExit):
        run(reg, "updown", "--simulated", "--list")
    status, out, _ = run(reg, "updown", "--list")
    assert "Missing (30)" in out
    run(reg, "updown", "--simulated")
    status, out, _ = run(reg, "updown", "--list")
    assert f"  {sim_uid('updown', 'T05')}" in out and "Nothing missing." in out
