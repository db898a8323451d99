"""Upturn refereed from the simulated board, end to end: the demo's whole game (every tile
tapped through the simulated RFID field, the call through its button, the draw and the gifts as
keys at the host), with a draw, a Twin run with its gift, a Joker with an extra tile, a missed
"one tile left" call and its penalty, and a tile against the direction refused and taken back;
then its log replayed to the very same verdicts."""

from __future__ import annotations

import pytest
from demo_run import DemoRun, play_demo
from german_check import check_german
from spoken_check import check_spoken
from upref.games.upturn.referee import UpturnReferee
from upref.registry import find_game, referee_for
from upref.store.replay import load_log, replay
from upref.store.tags import TagBook

UPTURN = find_game("upturn")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    return play_demo(UPTURN, tmp_path_factory.mktemp("upturn"), UPTURN.demo.seed)  # type: ignore[union-attr]


def test_the_page_followed_the_whole_game(played: DemoRun) -> None:
    """The page in a browser followed it all, showed no secret, and seat 0's page its own rack."""
    played.check_page()


def test_a_whole_game_on_the_simulated_board_and_its_log_replayed(played: DemoRun) -> None:
    rc, out, tmp_path = played.rc, played.out, played.folder
    assert rc == 0, out
    lines = [ln.strip() for ln in out.splitlines()]
    said = [ln for ln in lines if ln.startswith("[")]
    # a tile against the direction, refused and put right
    assert (
        "[illegal direction] The direction is up, so the next number must be higher than 52; "
        "31 is not.  -> Take 31 back."
    ) in said
    assert any(ln.startswith("[illegal T-1] The Starting tile must be a numbered tile") for ln in said)
    # a draw, kept
    assert any(ln.startswith("[ok T-4] Cy draws a tile") for ln in said)
    assert "[turn] Cy keeps all tiles. Ann's turn: higher than 63." in said
    # a Joker and its extra tile
    assert any(ln.startswith("[ok T-6] Ann lays a Joker: the direction is reversed, now down") for ln in said)
    assert "[turn] Ann lays 58 as the Joker's extra tile. Cy's turn: lower than 58." in said
    # a Twin run and its gift
    assert "[ok T-7] Cy adds 56 to the Twin run, between 58 and 33: 2 tiles laid so far." in said
    assert "[turn T-11] Cy gives 3 tiles to Bob from the pool. Bob's turn: lower than 33." in said
    # the call: one in time, one missed with its penalty
    assert "[ok T-13] Ann calls 'one tile left' in time (T-13)." in said
    assert (
        "[ok T-13] Cy did not call 'one tile left' before this tile: Cy takes 3 tiles from the "
        "pool as the penalty (T-13)."
    ) in said
    # the end names the winner, and the scoreboard shows it
    assert said[-1] == "[end] Ann lays 2. Ann's rack is empty: Ann wins!"
    assert "*** Ann wins: the rack is empty ***" in out
    assert [ln.split("]")[0] for ln in said if ln.startswith("[illegal")] == [
        "[illegal T-1",
        "[illegal direction",
    ]
    # the log replays to exactly the verdicts the table saw, in order
    info, entries = load_log(tmp_path / "games.sqlite")
    tag_book = TagBook(tmp_path / "tags.sqlite")
    replayed = [r.reply for r in replay(info, entries, lambda i: referee_for(i, tag_book))]
    again = [
        f"[{v.kind}{' ' + v.rule if v.rule else ''}] {v.text}" for r in replayed for v in r.public
    ]
    assert [ln.split("  -> ")[0] for ln in said] == again
    ref = referee_for(info, tag_book)
    for e in entries:
        ref.handle(ref.decode(e.input_dict()))
    assert isinstance(ref, UpturnReferee) and ref.has_engine
    assert ref.engine.counts() == (0, 5, 4) and ref.engine.outcome() is not None


def test_the_demo_was_heard(played: DemoRun) -> None:
    """With --speak-to, every refusal, every turn that passed and the winner were said, each a
    valid WAV of plausible length beside its text; the verdicts above are the same as without."""
    check_spoken(played)


def test_the_demo_said_in_german(played: DemoRun) -> None:
    """The same game, replayed from its log, shown and said in German: every verdict, spoken
    line, the public scoreboard and each seat's own, with no English sentence left."""
    check_german(played)
