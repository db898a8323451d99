"""Opening the link on a board whose line damages 1 byte in 100 (issue 32): `upref play --resume`
opens 20 times in 20, however many of the board's answers come damaged: through its own path
(the log read, the link opened with the log's boot id and sequence number) in this process, and
end to end as whole processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from upref.commands import demo, play
from upref.link.connection import Link, LinkError
from upref.registry import find_game
from upref.sim.board import SimBoard
from upref.store.gamelog import GameLogError
from upref.store.replay import load_log
from upref.store.tags import TagBook

NOISE = 1e-2
OPENS = 20
"""Opens through `play --resume`'s own path, in this process: cheap, so there can be 20."""
RESUMES = 5
"""Whole `upref play --resume` processes on the noisy line, end to end."""


def _open_as_play_resumes(port: str, db: Path, reg: Path) -> tuple[bool, int]:
    """What `upref play updown --resume` does up to its table: the log read and its game
    rebuilt, then the link opened with the log's boot id and sequence number. Whether it
    opened, and how many damaged frames it met."""
    game, args = play.parse(["updown", "--resume", "--port", port, "--db", str(db), "--tags", str(reg)])
    with TagBook(reg, read_only=True) as tags:
        resuming = play._log_first(game, args, tags)
        assert resuming is not None
        try:
            with play._open_link(args, Link, resuming) as link:
                c = link.counters
                return link.connected and link.snapshot is not None, c.crc + c.shape + c.args
        finally:
            resuming[0].close()


def _play(port: str, db: Path, reg: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "upref", "play", "updown", *extra, "--port", port, "--db", str(db),
         "--registry", str(reg), "--plain", "--settle", "0.5"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        env=dict(os.environ),
    )


def _started(db: Path) -> bool:
    try:
        return bool(db.exists() and load_log(db)[1] is not None)
    except GameLogError:
        return False


def _opened(proc: subprocess.Popen[bytes], timeout: float) -> tuple[bool, str]:
    """Read what the host says (its standard output and error, in one pipe, so that a failure
    shows all of it) until it says its game is saved (the link is open and the
    table set) or it ends; then stop it."""
    assert proc.stdout is not None
    os.set_blocking(proc.stdout.fileno(), False)
    said = b""
    end = time.monotonic() + timeout
    while b"saved as log" not in said and proc.poll() is None and time.monotonic() < end:
        chunk = proc.stdout.read() or b""
        said += chunk
        if not chunk:
            time.sleep(0.05)
    said += proc.stdout.read() or b""
    ok = b"saved as log" in said
    status = proc.poll()
    if status is None:
        proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=10)
    how = "still running" if status is None else f"exit status {status}"
    return ok, f"{how}, after {timeout - (end - time.monotonic()):.1f} s: {said.decode(errors='replace')}"


def test_play_resume_opens_every_time_under_line_noise(
    make_board: Callable[..., SimBoard], tmp_path: Path
) -> None:
    board = make_board(seed=5)
    db, reg = tmp_path / "games.sqlite", tmp_path / "tags.sqlite"
    demo.enrol_all(find_game("updown"), TagBook(reg))  # type: ignore[arg-type]
    first = _play(board.port, db, reg, "Ann", "Bob", "--seed", "3")
    ok, said = _opened(first, 30)
    assert ok and _started(db), said
    board.noise(NOISE)
    failures: list[str] = []
    damaged = 0
    for i in range(OPENS):
        try:
            opened, bad = _open_as_play_resumes(board.port, db, reg)
        except LinkError as e:  # every failure is collected and shown
            failures.append(f"open {i + 1}: {e}")
            continue
        damaged += bad
        if not opened:
            failures.append(f"open {i + 1}: the link says it is not connected")
    for i in range(RESUMES):
        ok, said = _opened(_play(board.port, db, reg, "--resume"), 45)
        if not ok:
            failures.append(f"resume {i + 1}: {said.strip()}")
    assert not failures, f"{len(failures)} of {OPENS + RESUMES} failed:\n" + "\n".join(failures)
    assert damaged > 0, "the noise damaged nothing: the test proved nothing"
