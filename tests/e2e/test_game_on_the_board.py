"""Up And Down refereed from the simulated board, end to end: a whole scripted game (the demo's
script), and `upref play` killed mid-turn and resumed with nothing lost."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from upref.commands import demo
from upref.link.connection import Link
from upref.referee.updown import UpDownReferee
from upref.sim.server import SimBoard
from upref.store.gamelog import GameLogError
from upref.store.replay import load_log, referee_for, replay
from upref.store.tags import TagRegistry


def test_a_whole_three_player_game_with_a_wrong_hole_corrected_and_cards_solved(
    make_board, tmp_path: Path, capsys
) -> None:
    board = make_board(seed=7)
    link = Link(board.port)
    try:
        args = argparse.Namespace(cards=2, seed=7)
        rc = demo._game(board, link, tmp_path, args, Console(file=open(os.devnull, "w")), live_view=False)
    finally:
        link.close()
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "[illegal M-2]" in out and "put it back in hole" in out
    assert out.count("[solved]") >= 2
    assert "Buddel King" in out
    # the log replays to exactly the verdicts the table saw
    info, entries = load_log(tmp_path / "games.sqlite")
    verdicts = [v.text for r in replay(info, entries, TagRegistry(tmp_path / "registry.sqlite")) for v in r.reply.public]
    for text in verdicts:
        assert text in out
    assert any("Buddel King" in v for v in verdicts)


def _state(db: Path, registry: TagRegistry) -> UpDownReferee | None:
    """What the game log says now: a read-only replay of everything appended so far."""
    if not db.exists():
        return None
    try:
        info, entries = load_log(db)
    except GameLogError:
        return None
    ref = referee_for(info, registry)
    for e in entries:
        ref.handle(e.input(ref.codes))
    return ref


def _wait(cond, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.1)
    raise AssertionError("timed out waiting for the game log")


def _play(port: str, db: Path, reg: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "upref", "play", "updown", *extra, "--port", port, "--db", str(db),
         "--registry", str(reg), "--plain", "--settle", "0.5"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ),
    )


def test_play_killed_mid_turn_resumes_exactly_where_it_was(make_board, tmp_path: Path) -> None:
    board: SimBoard = make_board(seed=5)
    db, reg_path = tmp_path / "games.sqlite", tmp_path / "registry.sqlite"
    registry = TagRegistry(reg_path)
    uid_of = demo.enrol_all(registry)

    def turned() -> int:
        ref = _state(db, registry)
        view = ref.view(None) if ref else None
        return view["turned"]["done"] if view and view["phase"] == "turn" else -1

    def flip(hole: int) -> None:
        st = board.state()["holes"][hole - 1]
        board.pull(hole)
        time.sleep(0.2)
        board.insert(hole, st["pair"], st["up"])

    host = _play(board.port, db, reg_path, "Ann", "Bob", "--seed", "3")
    try:
        _wait(lambda: (r := _state(db, registry)) is not None and r.engine is not None)
        for _ in range(2):  # Ann and Bob draw their cards
            ref = _state(db, registry)
            assert ref is not None and ref.engine is not None
            board.tap(uid_of[ref.engine.stack[0]])
            drawn = len(ref.engine.stack)
            _wait(lambda d=drawn: (r := _state(db, registry)) is not None and len(r.engine.stack) == d - 1)
            board.remove()
            time.sleep(0.3)
        ref = _state(db, registry)
        assert ref is not None and ref.engine is not None
        holes = list(ref.engine.hint() or ())
        assert len(holes) == 3
        flip(holes[0])
        _wait(lambda: turned() == 1)
    finally:
        host.send_signal(signal.SIGKILL)  # the host dies mid-turn
        host.wait(timeout=10)
    entries_before = len(load_log(db)[1])

    flip(holes[1])  # while the host is down, the game goes on at the table
    time.sleep(0.3)

    host = _play(board.port, db, reg_path, "--resume")
    try:
        _wait(lambda: turned() == 2)  # the flip made while it was down was taken up
        flip(holes[2])
        _wait(lambda: (r := _state(db, registry)) is not None and r.view(None)["to_move"] == 1, 15)
    finally:
        host.terminate()
        _, err = host.communicate(timeout=10)
    info, entries = load_log(db)
    assert len(entries) > entries_before, "the resumed game appended to the same log"
    ref = _state(db, registry)
    assert ref is not None and ref.engine is not None
    view = ref.view(None)
    assert view is not None and view["turn"] == 2 and view["to_move"] == 1, err.decode()
    assert info.players == ("Ann", "Bob")
