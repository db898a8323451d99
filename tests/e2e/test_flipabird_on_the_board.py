"""Flip a Bird refereed from the simulated board, end to end (unchanged firmware, pty, link, board
model, referee): the demo's whole scripted game — the pile scanned, a claim where red is right,
one where green is right, a row removed by the all-face-up rule, a double draw refused — with its
log replayed to the same verdicts; and a game resumed from its log after the host went away."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from demo_run import DemoRun, play_demo
from german_check import check_german
from spoken_check import check_spoken
from upref.board.codes import CodeTable
from upref.commands import demo
from upref.commands.play import open_table
from upref.games.flipabird.engine import FlipABirdState
from upref.games.flipabird.position import deal
from upref.games.flipabird.variant import Variant
from upref.link.connection import Link
from upref.referee.inputs import StartGame
from upref.registry import find_game, referee_for, titles
from upref.sim.board import SimBoard
from upref.store.gamelog import GameLog
from upref.store.replay import load_log, replay
from upref.store.tags import TagBook
from upref.table import Table
from upref.views.screen import verdict_line

FLIP = find_game("flipabird")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    return play_demo(FLIP, tmp_path_factory.mktemp("flipabird"), FLIP.demo.seed)  # type: ignore[union-attr]


def test_the_page_followed_the_whole_game(played: DemoRun) -> None:
    """The page in a browser followed it all, showed no secret, and seat 0's page its own hand."""
    played.check_page()


def test_a_whole_game_with_both_claim_outcomes_the_all_face_up_rule_and_a_refusal(played: DemoRun) -> None:
    rc, out, tmp_path = played.rc, played.out, played.folder
    assert rc == 0, out
    assert "[ok setup] Pile scan complete: 15 of 15, the draw pile is known." in out
    assert "[illegal hand] By the set-up scan that card lay in the draw pile" in out
    assert "Put that card back on top of the draw pile" in out
    assert "more than the limit, red is right (F-10)" in out
    assert "not more than the limit, green is right (F-10)" in out
    assert "[ok F-9]" in out and "starts a new row (F-9)" in out
    assert "[end] That was the final phase's claim: the game ends. Ann wins with" in out
    assert "*** Winner: Ann with" in out
    # the log replays to exactly the verdicts the table saw
    info, entries = load_log(tmp_path / "games.sqlite")
    tag_book = TagBook(tmp_path / "tags.sqlite")
    verdicts = [
        v for r in replay(info, entries, lambda i: referee_for(i, tag_book)) for v in r.reply.public
    ]
    printed = [ln.strip() for ln in out.splitlines() if ln.startswith("   [")]
    assert [verdict_line(v) for v in verdicts] == printed
    assert info.status == "finished" and info.outcome is not None
    assert info.outcome["winners"] == ["Ann"]


def _wait(cond: Callable[[], bool], what: str, table: Table, timeout: float = 10.0) -> None:
    """Pump the table until `cond` holds; fail naming `what` after `timeout` seconds."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        table.pump(0.05)


def _tap(board: SimBoard, table: Table, uid: str) -> None:
    n = len(table.replies)
    board.tap(uid)
    _wait(lambda: len(table.replies) > n, f"the tap of {uid}", table)
    board.remove()
    _wait(lambda: len(table.replies) > n + 1, f"{uid} leaving the reader", table)


def test_a_game_resumes_from_its_log_where_it_was(make_board: Callable[..., SimBoard], tmp_path: Path) -> None:
    board = make_board(seed=3)
    db, reg_path = tmp_path / "games.sqlite", tmp_path / "tags.sqlite"
    tag_book = TagBook(reg_path)
    uid_of = demo.enrol_all(FLIP, tag_book)
    codes = CodeTable.load()
    players = ("Ann", "Bob", "Cy")
    variant = Variant(pile=8)
    pile, hands, _ = deal(3, 21, variant)
    ref = FLIP.referee(codes, tag_book, titles=titles())
    log = GameLog.create(db, game=FLIP.name, players=players, variant=variant.to_dict(), seed=5, config=ref.config())
    ref.attach(log)
    link = Link(board.port)
    table = Table(link, ref, codes)
    try:
        table.wait_for_picture()
        table.send(StartGame(players, variant, 5, table.clock()))
        for card in reversed(pile):
            _tap(board, table, uid_of[card])
        eng = ref.engine
        assert isinstance(eng, FlipABirdState) and eng.pile == pile
        _tap(board, table, uid_of[hands[0][0]])  # Ann draws and plays a dealt card
        assert len(eng.row) == 1 and eng.current_player() == 1
    finally:
        table.close()
        link.close()
        log.close()

    # the host comes back: `upref play flipabird --resume`
    args = argparse.Namespace(
        resume=True, game_id=None, db=db, players=[], seed=None, settle=1.0, hints=False
    )
    link = Link(board.port)
    table, log = open_table(FLIP, args, link, codes, tag_book)
    try:
        eng = table.referee.engine
        assert isinstance(eng, FlipABirdState) and eng.pile == pile[1:] and len(eng.row) == 1
        assert eng.current_player() == 1
        _tap(board, table, uid_of[hands[1][0]])  # Bob plays on
        assert len(eng.row) == 2 and eng.current_player() == 2
    finally:
        table.close()
        link.close()
    info, entries = load_log(db)
    assert info.players == players and sum(1 for e in entries if e.kind == "start") == 1


def test_the_demo_was_heard(played: DemoRun) -> None:
    """With --speak-to, every refusal, every turn that passed and the winner were said, each a
    valid WAV of plausible length beside its text; the verdicts above are the same as without."""
    check_spoken(played)


def test_the_demo_said_in_german(played: DemoRun) -> None:
    """The demo's game, replayed and drawn in German (every verdict, spoken line, the public
    scoreboard and each seat's own), holds no English sentence and misses no German entry."""
    check_german(played)
