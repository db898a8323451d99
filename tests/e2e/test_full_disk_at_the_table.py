"""A disk that fills while a game is played at the table (issue 32): the game stops at once, in
one line that says which log, why and what to do, and nothing loops; the move the log could not
take is not lost: the board keeps its events, and the resumed game is given it again.

How the disk fills: for `upref play`, the real command in a child process under `RLIMIT_FSIZE`
(SIGXFSZ ignored: a write past the limit fails with EFBIG, as the file system refuses it, and
SQLite says "disk I/O error"), which needs no root; for the demo, played here, SQLite's own
`PRAGMA max_page_count` on its log's connection, which fails the very INSERT a full disk fails,
with the same error (`database or disk is full`, SQLITE_FULL).
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from itertools import groupby
from pathlib import Path
from typing import Any

from rich.console import Console
from upref.board.codes import CodeTable
from upref.commands import demo
from upref.link.connection import Link
from upref.registry import find_game, titles
from upref.sim.board import SimBoard
from upref.store.gamelog import GameLog, GameLogError
from upref.store.replay import load_log

LIMIT = 64 * 1024
"""Bytes a file of the limited host may hold: its log's write-ahead file fills after a dozen
entries or so (each is a 4 KB page), well into the game; SQLite's 32 KB shared-memory file
fits."""


def _limited() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def _play(port: str, db: Path, *extra: str, limit: bool = False) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "upref", "play", "updown", *extra, "--port", port, "--db", str(db),
         "--tags", str(db.with_name("tags.sqlite")), "--plain"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ), preexec_fn=_limited if limit else None,
    )


def _holes(db: Path) -> list[dict[str, Any]]:
    """The hole entries the log holds now (none while it cannot be read)."""
    try:
        return [e.payload for e in load_log(db)[1] if e.kind == "hole"]
    except GameLogError:
        return []


def _until(done: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def _moves_until_stopped(board: SimBoard, db: Path, host: subprocess.Popen[str]) -> list[tuple[int, int]]:
    """A pair pulled out of its hole and put back, hole after hole, each change waited for in
    the log, as long as the host plays; every change made (hole, new code), the last one
    while the host stopped. (Holes, not cards: a replayed event tells a hole's new code
    whatever the resumed host knew before.)"""
    made: list[tuple[int, int]] = []
    while host.poll() is None and len(made) < 80:
        hole = len(made) // 2 % 10 + 1
        was = board.state()["holes"][hole - 1]
        board.pull(hole)
        made.append((hole, 0))
        _logged_or_stopped(db, host, len(made))
        board.insert(hole, was["pair"], was["down"])
        made.append((hole, int(was["code"])))
        _logged_or_stopped(db, host, len(made))
    return made


def _logged_or_stopped(db: Path, host: subprocess.Popen[str], changes: int) -> None:
    assert _until(lambda: len(_holes(db)) >= changes or host.poll() is not None, 60), (
        f"the host neither logged the change nor stopped: {_holes(db)}"
    )


def test_play_stops_in_one_line_when_its_log_fills_and_the_resumed_game_gets_the_last_move_from_the_board(
    make_board: Callable[..., SimBoard], tmp_path: Path
) -> None:
    board = make_board(seed=6)
    db = tmp_path / "games.sqlite"
    host = _play(board.port, db, "Ann", "Bob", "--seed", "3", limit=True)
    assert _until(lambda: _started(db) or host.poll() is not None, 60), "the game never started"
    made = _moves_until_stopped(board, db, host)
    out, err = host.communicate(timeout=60)  # it stops at once: no loop, no waiting
    assert host.returncode == 1, out + err
    assert "Traceback" not in err, err
    told = [ln for ln in err.splitlines() if "cannot be written" in ln]
    assert told == [err.strip().splitlines()[-1]], err  # one line, the last
    assert told[0].startswith(f"upref play: the game log {db} cannot be written (")
    assert told[0].endswith(f"then go on with `upref play updown --resume --db {db}`")
    assert len(_holes(db)) < len(made), "the log never filled up: the test proved nothing"
    # space is freed (no limit): the resumed game asks the board for what it kept
    again = _play(board.port, db, "--resume")
    try:
        _until(lambda: len(_holes(db)) >= len(made) or again.poll() is not None, 60)
    finally:
        again.send_signal(signal.SIGTERM)
        out, err = again.communicate(timeout=30)
    holes = _holes(db)
    assert [(h["hole"], h["new"]) for h in holes] == made, out + err  # each once, in order
    seqs = [h["board_seq"] for h in holes]
    assert seqs == sorted(set(seqs)), seqs


def _started(db: Path) -> bool:
    try:
        return any(e.kind == "start" for e in load_log(db)[1])
    except GameLogError:
        return False


def test_a_demo_whose_log_fills_stops_at_once_in_one_line_without_looping(
    make_board: Callable[..., SimBoard], tmp_path: Path, capsys: Any
) -> None:
    game = find_game("updown")
    assert game.demo is not None
    board = make_board(seed=game.demo.seed)
    db = tmp_path / "demo.sqlite"
    referee = game.referee(CodeTable.load(), None, titles=titles(), **game.demo.settings)
    log = GameLog.create(db, game="updown", players=game.demo.players,
                         seed=game.demo.seed, config=referee.config())
    pages = log._conn.execute("PRAGMA page_count").fetchone()[0]
    log._conn.execute(f"PRAGMA max_page_count = {pages}")  # room for what its pages still hold
    link = Link(board.port)
    try:
        quiet = Console(file=open(os.devnull, "w"))  # noqa: SIM115
        settings = demo.DemoSettings(tmp_path, argparse.Namespace(web=None), quiet, log=log)
        rc = demo.run_game(game, board, link, settings)
    finally:
        link.close()
    said = capsys.readouterr()
    assert rc == 1, said.out + said.err
    assert "Traceback" not in said.err
    line = said.err.strip().splitlines()
    assert len(line) == 1, said.err
    assert line[0].startswith(f"upref demo: the game log {db} cannot be written (database or disk is full)")
    assert line[0].endswith("then run `upref demo updown` again")
    # the players stopped with the game: no action said over and over
    acts = [ln for ln in said.out.splitlines() if ln and not ln.startswith(" ")]
    assert max(len(list(run)) for _, run in groupby(acts)) <= 2, said.out
    info, entries = load_log(db)
    assert info.status == "playing" and any(e.kind == "start" for e in entries)  # stopped mid-game
