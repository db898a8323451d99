"""Up And Down refereed from the simulated board, end to end: a whole scripted game (the demo's
script), and `upref play` killed mid-turn and resumed with nothing lost."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from demo_run import DemoRun, play_demo
from german_check import check_german
from harness import Host, truth
from spoken_check import check_spoken
from upref.board.codes import EMPTY, CodeTable
from upref.commands import demo
from upref.games.updown.referee import UpDownReferee
from upref.games.updown.variant import Variant
from upref.link.connection import Link
from upref.referee.inputs import EndGame, NextGame, StartGame
from upref.registry import find_game, referee_for, titles
from upref.sim.board import SimBoard
from upref.store.gamelog import GameLog, GameLogError
from upref.store.replay import load_log, replay
from upref.store.tags import TagBook
from upref.table import Table
from upref.views.frame import Frame
from upref.web.live import LivePage

UPDOWN = find_game("updown")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    return play_demo(UPDOWN, tmp_path_factory.mktemp("updown"), 7, short=2)  # type: ignore[union-attr]


def test_the_page_followed_the_whole_game(played: DemoRun) -> None:
    """The page in a browser followed it all, showed no secret, and seat 0's page its task card."""
    played.check_page()


def test_a_whole_three_player_game_with_a_wrong_hole_corrected_and_cards_solved(played: DemoRun) -> None:
    rc, out, tmp_path = played.rc, played.out, played.folder
    assert rc == 0, out
    assert "[illegal M-2]" in out and "put it back in hole" in out
    assert out.count("[solved]") >= 2
    assert "Buddel King" in out
    # the log replays to exactly the verdicts the table saw
    info, entries = load_log(tmp_path / "games.sqlite")
    tag_book = TagBook(tmp_path / "tags.sqlite")
    verdicts = [
        v.text
        for r in replay(info, entries, lambda i: referee_for(i, tag_book))
        for v in r.reply.public
    ]
    for text in verdicts:
        assert text in out
    assert any("Buddel King" in v for v in verdicts)


def _state(db: Path, tag_book: TagBook) -> UpDownReferee | None:
    """What the game log says now: a read-only replay of everything appended so far."""
    if not db.exists():
        return None
    try:
        info, entries = load_log(db)
    except GameLogError:
        return None
    ref = referee_for(info, tag_book)
    for e in entries:
        ref.handle(ref.decode(e.input_dict()))
    assert isinstance(ref, UpDownReferee)
    return ref


def _wait(cond: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Poll `cond` until it holds; fail naming `what` after `timeout` seconds."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.05)


def _card_left(db: Path, uid: str) -> bool:
    """Whether the game log's last card observation is `uid` leaving the reader."""
    try:
        entries = load_log(db)[1]
    except GameLogError:
        return False
    cards = [e.payload for e in entries if e.kind == "card"]
    return bool(cards) and cards[-1]["uid"] == uid and not cards[-1]["arrived"]


def _play(port: str, db: Path, reg: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "upref", "play", "updown", *extra, "--port", port, "--db", str(db),
         "--registry", str(reg), "--plain", "--settle", "0.5"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ),
    )


def test_play_killed_mid_turn_resumes_exactly_where_it_was(make_board, tmp_path: Path) -> None:
    board: SimBoard = make_board(seed=5)
    db, reg_path = tmp_path / "games.sqlite", tmp_path / "tags.sqlite"
    tag_book = TagBook(reg_path)
    uid_of = demo.enrol_all(UPDOWN, tag_book)

    def turned() -> int:
        ref = _state(db, tag_book)
        view = ref.view(None) if ref else None
        return len(view.turned) if view and view.phase == "turn" else -1

    def logged_code(hole: int) -> int | None:
        """The code the referee, from the game log, believes `hole` reads."""
        ref = _state(db, tag_book)
        return ref.picture[hole - 1] if ref is not None else None

    def flip(hole: int, code_seen: Callable[[int], int | None]) -> None:
        """Pull the pair, and put it back turned over once the board has reported it out."""
        st = board.state()["holes"][hole - 1]
        board.pull(hole)
        _wait(lambda: code_seen(hole) == EMPTY, f"hole {hole} to be reported empty")
        board.insert(hole, st["pair"], st["up"])

    host = _play(board.port, db, reg_path, "Ann", "Bob", "--seed", "3")
    try:
        _wait(lambda: (r := _state(db, tag_book)) is not None and r.has_engine, "the game to start")
        for _ in range(2):  # Ann and Bob draw their cards
            ref = _state(db, tag_book)
            assert ref is not None and ref.has_engine
            uid = uid_of[ref.engine.stack[0]]
            board.tap(uid)
            drawn = len(ref.engine.stack)
            _wait(lambda d=drawn: (r := _state(db, tag_book)) is not None and len(r.engine.stack) == d - 1,
                  f"card {uid} to be drawn")
            board.remove()
            _wait(lambda u=uid: _card_left(db, u), f"card {uid} to be logged leaving the reader")
        ref = _state(db, tag_book)
        assert ref is not None and ref.has_engine
        holes = list(ref.engine.hint() or ())
        assert len(holes) == 3
        flip(holes[0], logged_code)
        _wait(lambda: turned() == 1, "the first flip to count")
    finally:
        host.send_signal(signal.SIGKILL)  # the host dies mid-turn
        host.wait(timeout=10)
    entries_before = len(load_log(db)[1])

    # while the host is down, the game goes on at the table; a bare link watches the board report
    # it, so that the flip is complete on the board before the host comes back
    watcher = Host(board.port)
    try:
        assert watcher.pump(lambda: watcher.model.online and bool(watcher.of_type("Resynced")), 5), \
            "the board sent no snapshot to a bare link"

        def reported(hole: int) -> int:
            watcher.pump(timeout=0.05)
            return watcher.model.holes[hole].code

        flip(holes[1], reported)
        assert watcher.pump(lambda: watcher.codes() == truth(board), 10), "the flip was never reported"
    finally:
        watcher.close()

    host = _play(board.port, db, reg_path, "--resume")
    try:
        _wait(lambda: turned() == 2, "the flip made while the host was down to be taken up")
        flip(holes[2], logged_code)
        _wait(lambda: (r := _state(db, tag_book)) is not None and r.view(None).to_move == 1,
              "the turn to pass to Bob", 15)
    finally:
        host.terminate()
        _, err = host.communicate(timeout=10)
    info, entries = load_log(db)
    assert len(entries) > entries_before, "the resumed game appended to the same log"
    ref = _state(db, tag_book)
    assert ref is not None and ref.has_engine
    view = ref.view(None)
    assert view is not None and view.turn == 2 and view.to_move == 1, err.decode()
    assert info.players == ("Ann", "Bob")


def test_after_n_and_a_remix_the_next_game_begins_without_a_tap(make_board, tmp_path: Path) -> None:
    """Issue 30: after `n`, all ten pairs pulled and put back mixed, the host's own loop begins
    game 2 once the board has been still: the log holds it and the screens and the page are
    told, with no card tapped, no button and no key."""
    board: SimBoard = make_board(seed=5)
    db, tag_book = tmp_path / "games.sqlite", TagBook(tmp_path / "tags.sqlite")
    demo.enrol_all(UPDOWN, tag_book)
    codes = CodeTable.load()
    referee = UpDownReferee(codes, tag_book, titles=titles(), settle_s=0.5)
    referee.attach(GameLog.create(db, game="updown", players=("Ann", "Bob"), seed=3, config=referee.config()))
    frames: list[Frame] = []
    page = LivePage(UPDOWN.panel, None, ("Ann", "Bob"), "1")  # its editions, not served

    def show(frame: Frame) -> None:
        frames.append(frame)
        page.update(frame)

    with Link(board.port) as link:
        table = Table(link, referee, codes, on_frame=show)
        try:
            table.wait_for_picture()
            table.send(StartGame(("Ann", "Bob"), Variant(), 3, table.clock()))
            assert referee.phase == "play", referee.status()
            table.send(EndGame(table.clock()))  # e
            table.send(NextGame(table.clock()))  # n
            holes = board.state()["holes"]
            for h in range(1, 11):
                board.pull(h)
            _pump_until(table, lambda: table.picture() == (EMPTY,) * 10, "every hole to be reported empty")
            rng = random.Random(4)
            pairs = [(h["pair"], rng.choice([h["down"], h["up"]])) for h in holes]
            rng.shuffle(pairs)
            for h, (pair, down) in enumerate(pairs, start=1):
                board.insert(h, pair, down)
            _pump_until(table, lambda: _game_in_log(db, tag_book) == (2, "play"), "the log to hold game 2", 20)
        finally:
            table.close()
    entries = load_log(db)[1]
    after_n = [e.kind for e in entries[[e.kind for e in entries].index("next") :]]
    assert "card" not in after_n and "button" not in after_n and "key" not in after_n, after_n
    assert after_n[-1] == "tick", after_n  # time passing began it
    said = [v.text for f in frames for v in f.verdicts]
    assert any(t.startswith("Game 2 ") for t in said), said[-5:]
    assert frames[-1].number == 2 and "draw a task card" in (frames[-1].status.waiting_for or "")
    edition = page.hub.latest
    assert edition is not None and edition.version.startswith("1:2:"), edition
    assert "Game 2 (basic game)" in edition.public and "draw a task card" in edition.public


def _pump_until(table: Table, cond: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Run the host's loop until `cond` holds; fail naming `what` after `timeout` seconds."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}: {table.frame.status}")
        table.pump(0.05)


def _game_in_log(db: Path, tag_book: TagBook) -> tuple[int, str]:
    """The game number and phase a replay of the game log reaches now."""
    ref = _state(db, tag_book)
    if ref is None or not ref.has_engine:
        return 0, "idle"
    return ref.engine.game_number, ref.phase


def test_the_demo_was_heard(played: DemoRun) -> None:
    """With --speak-to, every refusal, every turn that passed and the winner were said, each a
    valid WAV of plausible length beside its text; the verdicts above are the same as without."""
    check_spoken(played)


def test_the_demo_said_in_german(played: DemoRun) -> None:
    """The same game, replayed from its log, shown and said in German: every verdict, spoken
    line, the public scoreboard and each seat's own, with no English sentence left."""
    check_german(played)
