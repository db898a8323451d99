"""What's Up refereed from the simulated board, end to end: the demo's whole game (30 cards laid
and tapped through the simulated RFID field, flips, the figurine key at the host), with a
reservation, a refused flip of the reserved card, a card taken and one left; its log replayed to
the very verdicts the table saw."""

from __future__ import annotations

import re

import pytest
from demo_run import DemoRun, play_demo
from german_check import check_german
from spoken_check import check_spoken
from upref.registry import find_game, referee_for
from upref.store.replay import load_log, replay
from upref.store.tags import TagBook

WHATSUP = find_game("whatsup")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    return play_demo(WHATSUP, tmp_path_factory.mktemp("whatsup"), WHATSUP.demo.seed)  # type: ignore[union-attr]


def test_the_page_followed_the_whole_game(played: DemoRun) -> None:
    """The page in a browser followed it all, showed no secret, and seat 0's page its own."""
    played.check_page()


def test_a_whole_game_with_a_reservation_a_refused_flip_a_card_taken_and_one_left(played: DemoRun) -> None:
    rc, out, tmp_path = played.rc, played.out, played.folder
    assert rc == 0, out
    # the set-up scan: every card tapped and laid, then the first turn
    assert out.count("[ok] Card ") == 29 and "[turn] Card 30 of 30:" in out
    assert "All 30 cards are laid: Ann begins." in out
    # the figurine placed with the key, then the next tap marks the card
    assert "[info] Bob: put your figurine on a card and tap that card." in out
    reserved = re.search(r"\[ok\] Bob's figurine now stands on the card showing (\d \w+)", out)
    assert reserved is not None
    # another player's flip of it refused, with its correction
    assert "[illegal A-1] That card carries Bob's figurine: only Bob may flip it." in out
    assert f"Turn it back so that {reserved.group(1)} is up again" in out
    # a card that fits taken, one that does not left on the table
    assert re.search(r"\[solved\] \w+ flipped a card \(row \d, column \d\): \d \w+ up\. It (starts|fits)", out)
    assert re.search(r"\[turn\] \w+ flipped a card .*It does not fit: .*It stays on the table", out)
    assert "Bob's figurine goes back into the box." in out
    # the end names the winner
    end = re.search(r"\[end\] (.*)", out)
    assert end is not None and re.search(r"(\w+ wins with \d+ birds?|share the win)", end.group(1))
    assert "(A-3)" in end.group(1) or "(A-2)" in end.group(1) or "complete rows" in end.group(1)
    # the log replays to exactly the verdicts the table saw
    info, entries = load_log(tmp_path / "games.sqlite")
    assert info.game == "whatsup" and info.status == "finished"
    tag_book = TagBook(tmp_path / "tags.sqlite")
    said = [
        f"[{v.kind}{' ' + v.rule if v.rule else ''}] {v.text}"
        for r in replay(info, entries, lambda i: referee_for(i, tag_book))
        for v in r.reply.public
    ]
    lines = [ln.strip() for ln in out.splitlines() if ln.startswith("   [")]
    assert [ln.split("  -> ")[0] for ln in lines] == said
    tag_book.close()


def test_the_demo_was_heard(played: DemoRun) -> None:
    """With --speak-to, every refusal, every turn that passed and the winner were said, each a
    valid WAV of plausible length beside its text; the verdicts above are the same as without."""
    check_spoken(played)


def test_the_demo_said_in_german(played: DemoRun) -> None:
    """The demo's game, replayed and drawn in German (every verdict, spoken line, the public
    scoreboard and each seat's own), holds no English sentence and misses no German entry."""
    check_german(played)
