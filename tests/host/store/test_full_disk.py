"""A disk that fills up: before a game (`upref demo` cannot create its log) and during one (an
input that cannot be logged stops the game at once). Each is told in one line, nothing is acted
on unlogged, and nothing is left half-written.

How the disk fills, and why so:
- during a game, SQLite's own limit `PRAGMA max_page_count` on the log's connection: SQLite
  then fails the very INSERT it would fail on a full disk, with the same error
  (`database or disk is full`, SQLITE_FULL), and a connection opened afresh (the resume) has
  room again: "space freed";
- for `upref demo`, the whole command in a subprocess under `RLIMIT_FSIZE` (SIGXFSZ ignored, so
  a write past the limit fails with EFBIG as the file system refuses it), which needs no root;
  and, where this process may mount (root, as in CI), a real 256 KB tmpfs filled up.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from updown_table import PLAYERS, Table, enrolled_tags
from upref.board.codes import CodeTable
from upref.games.updown.referee import UpDownReferee
from upref.games.updown.variant import Variant
from upref.referee.inputs import Input, StartGame
from upref.referee.status import Verdict
from upref.registry import referee_for
from upref.store.gamelog import GameLog, LogStopped
from upref.store.replay import load_log, replay, resume

CODES = CodeTable.load()
HOLES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


def _started(db: Path) -> tuple[Table, GameLog]:
    ref = UpDownReferee(CODES, enrolled_tags(path=db.with_name("tags.sqlite")))
    log = GameLog.create(db, game="updown", players=PLAYERS, seed=4, config=ref.config())
    ref.attach(log)
    tb = Table(ref, seed=4)
    tb.feed(StartGame(PLAYERS, Variant(), 4, tb.at()))
    tb.draw_all()
    return tb, log


def _fill(log: GameLog) -> None:
    """No page more for the log: the next INSERT that needs one fails as on a full disk."""
    pages = log._conn.execute("PRAGMA page_count").fetchone()[0]
    log._conn.execute(f"PRAGMA max_page_count = {pages}")


def _said(verdicts: list[Verdict]) -> list[tuple[str, str, str | None]]:
    return [(v.kind, v.text, v.rule) for v in verdicts if v.rule != "log"]


def test_an_input_the_full_disk_refuses_is_not_acted_on_and_stops_the_game_until_resumed(
    tmp_path: Path,
) -> None:
    tb, log = _started(tmp_path / "games.sqlite")
    handed: list[Input] = []  # every input handed to the referee, the refused one included
    handle, before = tb.ref.handle, len(tb.replies)
    tb.ref.handle = lambda inp: (handed.append(inp), handle(inp))[1]  # type: ignore[method-assign]
    _fill(log)
    stopped: LogStopped | None = None
    for n in range(400):  # turn pairs until the log has no room left for one
        plays, verdicts, entries = tb.ref.plays, len(tb.replies), len(log)
        try:
            tb.flip(HOLES[n % len(HOLES)])
        except LogStopped as exc:
            stopped = exc
            break
    assert stopped is not None, "the log never filled up"
    line = str(stopped)
    assert "\n" not in line and str(log.path) in line and "database or disk is full" in line
    assert line.endswith(f"`upref play updown --resume --db {log.path}`")
    # what the log could not take was not judged: nothing was said or played past the log
    assert len(tb.replies) <= verdicts + 1 and tb.ref.plays <= plays + 1 and len(log) <= entries + 1
    refused = handed[-1]
    assert before + len(handed) == len(tb.replies) + 1  # it was never answered
    said = _said([v for _, r in tb.replies for v in r.verdicts])
    log.close()
    # space is freed and the game resumed: the board gives the refused move again (SINCE),
    # and the game goes on from it as if the disk had never filled
    again = resume(GameLog.open(tmp_path / "games.sqlite", log.game_id), referee_for)
    assert isinstance(again, UpDownReferee)
    assert _said([v for r in replay(*load_log(log.path), referee_for) for v in r.reply.verdicts]) == said
    then = [v for v in again.handle(refused).verdicts]
    clean = _clean_run(before + len(handed), tmp_path)
    assert _said(then) == _said(clean)
    assert again.log is not None
    again.log.close()


def _clean_run(inputs: int, tmp_path: Path) -> list[Verdict]:
    """The verdicts of the `inputs`-th input of the same game on a disk that never fills."""
    tb, log = _started(tmp_path / "clean.sqlite")
    n = 0
    while len(tb.replies) < inputs:
        tb.flip(HOLES[n % len(HOLES)])
        n += 1
    log.close()
    return list(tb.replies[inputs - 1][1].verdicts)


def _limited(size: int) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _demo(data: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, UPREF_DATA_DIR=str(data))
    return subprocess.run(
        [sys.executable, "-m", "upref", "demo", "--plain"],
        capture_output=True, text=True, env=env, timeout=180, check=False, **kwargs,  # type: ignore[call-overload]
    )


def _one_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_demo_with_no_room_for_its_log_says_so_in_one_line_and_changes_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    # a new log cannot be made (its first page is past the limit) ...
    done = _demo(data, preexec_fn=lambda: _limited(1024))
    assert done.returncode == 1
    line = _one_line(done.stderr)
    assert line.startswith(f"upref demo: cannot write the game log {data / 'demo.sqlite'} (")
    assert "free some space" in line and "UPREF_DATA_DIR" in line and "--db" not in line
    assert _snapshot(data) == {}  # no half-made log left to refuse next time
    # ... and an existing one cannot grow: it stays as it was
    _started(data / "demo.sqlite")[1].close()
    (data / "tags.sqlite").unlink()
    before = _snapshot(data)
    done = _demo(data, preexec_fn=lambda: _limited(len(before["demo.sqlite"])))
    assert done.returncode == 1
    assert _one_line(done.stderr).startswith(f"upref demo: cannot write the game log {data / 'demo.sqlite'}")
    after = _snapshot(data)
    assert after["demo.sqlite"] == before["demo.sqlite"]
    # SQLite's own side files may stay, holding nothing (a WAL with no frame)
    assert set(after) <= {"demo.sqlite", "demo.sqlite-wal", "demo.sqlite-shm"}
    assert after.get("demo.sqlite-wal", b"") == b""


def _fill_up(folder: Path) -> None:
    """Write a file until the file system has not one byte left."""
    with (folder / "filler").open("ab", buffering=0) as f:
        for chunk in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while f.write(b"\0" * chunk):
                    pass


@contextlib.contextmanager
def _full_tmpfs() -> Iterator[Path]:
    """A 256 KB tmpfs, filled to the last byte (skips where this process may not mount)."""
    mount = shutil.which("mount")
    if os.geteuid() != 0 or mount is None:
        pytest.skip("mounting a tmpfs needs root")
    folder = Path(tempfile.mkdtemp(prefix="upref-full-"))
    done = subprocess.run(
        [mount, "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)],
        capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        folder.rmdir()
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        _fill_up(folder)
        yield folder
    finally:
        if subprocess.run(["umount", str(folder)], capture_output=True, check=False).returncode:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)


def test_demo_on_a_real_full_disk_says_so_in_one_line() -> None:
    with _full_tmpfs() as folder:
        before = _snapshot(folder)
        done = _demo(folder)
        assert done.returncode == 1
        line = _one_line(done.stderr)
        assert line.startswith(f"upref demo: cannot write the game log {folder / 'demo.sqlite'}")
        assert "full" in line
        assert _snapshot(folder) == before
        # the same with a log already there: it stays as it was
        (folder / "filler").unlink()
        _started(folder / "demo.sqlite")[1].close()
        (folder / "tags.sqlite").unlink()
        _fill_up(folder)
        log = (folder / "demo.sqlite").read_bytes()
        done = _demo(folder)
        assert done.returncode == 1
        assert "full" in _one_line(done.stderr)
        assert (folder / "demo.sqlite").read_bytes() == log
