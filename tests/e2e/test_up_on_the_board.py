"""Up refereed from the simulated board, end to end: the demo's whole round (the face-up cards
tapped as dealt, plays tapped through the simulated RFID field, 'last card' on the board's
button, keys at the host) with a fallen tower, a disposal card, face-down cards, a forgotten
'last card' and the turn it costs, a refused card put back, the count and the evening's winner;
and its log replayed to the very verdicts the table saw."""

from __future__ import annotations

import re

import pytest
from demo_run import DemoRun, play_demo
from german_check import check_german
from spoken_check import check_spoken
from upref.registry import find_game, referee_for
from upref.store.replay import load_log, replay
from upref.store.tags import TagBook

UP = find_game("up")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    return play_demo(UP, tmp_path_factory.mktemp("up"), UP.demo.seed, rounds=None)  # type: ignore[union-attr]


def test_the_page_followed_the_whole_game(played: DemoRun) -> None:
    """The page in a browser followed it all, showed no secret, and seat 0's page its own hand."""
    played.check_page()


def test_a_whole_round_on_the_board_with_every_kind_of_play(played: DemoRun) -> None:
    rc, out, tmp_path = played.rc, played.out, played.folder
    assert rc == 0, out
    assert "the tower falls" in out  # a collapse
    assert "Disposal: the tower is out of the game" in out  # a disposal card on a tower
    assert "turns a face-down card" in out  # a blind play
    forgot = re.search(r"\[turn U-11\] (\w+) did not call 'last card'", out)
    assert forgot, out
    assert f"{forgot.group(1)}'s turn is skipped (U-11)" in out  # ... and the skipped turn
    assert "[illegal U-12]" in out and "put the card back face up" in out
    assert "calls 'last card' (U-6)" in out  # the button, in time
    assert "wins the evening with" in out and "the evening is over" in out
    assert out.count("face-up card") >= 12  # the deal tapped
    # the log replays to exactly the verdicts the table saw
    info, entries = load_log(tmp_path / "games.sqlite")
    tag_book = TagBook(tmp_path / "tags.sqlite")
    verdicts = [
        v.text for r in replay(info, entries, lambda i: referee_for(i, tag_book)) for v in r.reply.public
    ]
    assert len(verdicts) > 80
    for text in verdicts:
        assert text in out
    assert any("wins the evening" in v for v in verdicts)


def test_the_demo_was_heard(played: DemoRun) -> None:
    """With --speak-to, every refusal, every turn that passed and the winner were said, each a
    valid WAV of plausible length beside its text; the verdicts above are the same as without."""
    check_spoken(played)


def test_the_demo_said_in_german(played: DemoRun) -> None:
    check_german(played)
