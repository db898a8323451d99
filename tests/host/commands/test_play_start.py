"""What `upref play` says before a game can start (issue 30): a player count outside the
game's range, and no board to play on. Each is one clear message, said before the board, the
tag book or the game log is touched."""

from __future__ import annotations

from pathlib import Path

import pytest
from upref.commands import play
from upref.link.errors import LinkError
from upref.registry import games

NAMES = ("Ann", "Bob", "Cy", "Dee", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu")


def _no_finder() -> str:
    raise AssertionError("the board was looked for")


def _no_opener(_port: object, *_rest: object) -> object:
    raise AssertionError("the board was opened")


def _run(tmp_path: Path, *argv: str, finder=_no_finder) -> int:  # noqa: ANN001
    return play.main(
        [*argv, "--db", str(tmp_path / "g.sqlite"), "--tags", str(tmp_path / "t.sqlite")],
        opener=_no_opener,  # type: ignore[arg-type]
        finder=finder,
    )


# each rulebook's range (docs/games/<game>.md); Up And Down's box says 2 to 6
RANGES = {"updown": (2, 6), "upturn": (2, 4), "flipabird": (3, 6), "whatsup": (2, 4), "up": (2, 10)}


def test_each_game_declares_its_rulebook_s_range() -> None:
    assert {g.name: g.players for g in games() if g.name in RANGES} == RANGES
    for g in games():  # and each demo seats as many players as its game is for
        if g.demo is not None:
            assert g.players[0] <= len(g.demo.players) <= g.players[1], g.name


@pytest.mark.parametrize("name", sorted(RANGES))
def test_too_few_or_too_many_players_are_refused_in_one_line_naming_the_range(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fewest, most = RANGES[name]
    for n in (fewest - 1, most + 1):
        assert _run(tmp_path, name, *NAMES[:n]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1, err
        assert f"is for {fewest} to {most} players, not {n}" in err, err
    assert not (tmp_path / "g.sqlite").exists() and not (tmp_path / "t.sqlite").exists()


def test_without_a_board_play_says_so_and_how_to_start_a_simulated_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def nothing() -> str:
        raise LinkError("no upref board found.\nports seen:\n  (no serial ports at all)")

    assert _run(tmp_path, "updown", "Ann", "Bob", finder=nothing) == 1
    err = capsys.readouterr().err
    assert err.startswith("upref play: no upref board found."), err
    assert "upref sim" in err and "upref enroll updown --simulated" in err, err
    assert "play on" not in err and "unfinished" not in err, err  # no notice that the game goes on
    assert not (tmp_path / "g.sqlite").exists() and not (tmp_path / "t.sqlite").exists()


def test_without_a_board_play_says_so_in_german_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The finder's own words (no board, the ports seen, what to do), in German, and the
    simulated board's way out too: nothing of it English."""
    import sys

    from upref.link import discovery

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
    from still_english import still_english

    monkeypatch.setattr(discovery, "_usb_candidates", lambda: [])
    monkeypatch.setattr(discovery, "_sim_candidates", lambda: [])
    assert _run(tmp_path, "updown", "Ann", "Bob", "--lang", "de", finder=discovery.find_board) == 1
    err = capsys.readouterr().err
    assert err.startswith("upref play: kein upref-Brett gefunden."), err
    assert "upref enroll updown --simulated" in err and "(überhaupt keine seriellen Ports)" in err
    assert not still_english(err.splitlines()), err
