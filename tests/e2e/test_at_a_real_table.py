"""What a person meets at a real table (issue 13, section 5), end to end through the simulated
board: a killed demo leaves no temporary folder, and `upref play` names the unfinished games
(and drops a start with no move), warns of an empty tag book before the game starts and says,
when it is left, what is kept of the game.
(That `make demo` keeps its game log and says how to replay it is checked on the demo the
installed upref plays whole: tests/packaging/test_installed.py.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from page_watch import free_address
from upref.commands import demo
from upref.sim.board import SimBoard
from upref.store.gamelog import GameLog, list_games


def _env(tmp_path: Path, tmp_dir: Path | None = None) -> dict[str, str]:
    """upref's environment in this test's folders; TMPDIR is `tmp_dir` (`short_tmp` for a demo,
    whose board's socket path must stay short), else a folder in `tmp_path`."""
    if tmp_dir is None:
        tmp_dir = tmp_path / "tmp"
        tmp_dir.mkdir(exist_ok=True)
    return dict(
        os.environ,
        TMPDIR=str(tmp_dir),
        UPREF_DATA_DIR=str(tmp_path / "data"),
        UPREF_RUNTIME_DIR=str(tmp_path / "run"),
    )


def _wait(cond: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.05)


def _demo_folders(tmp_dir: Path) -> list[Path]:
    return sorted(tmp_dir.glob(demo.TEMP_PREFIX + "*"))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_demo_killed_leaves_no_temporary_folder(
    tmp_path: Path, short_tmp: Path, sig: signal.Signals
) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "upref", "demo", "--plain"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp_path, short_tmp),
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # the board is up and the cards enrolled
        assert first.startswith("simulated board on "), first
        assert len(_demo_folders(short_tmp)) == 1
        proc.send_signal(sig)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert _demo_folders(short_tmp) == [], proc.stderr.read() if proc.stderr else ""
    assert "Traceback" not in (proc.stderr.read() if proc.stderr else "")


def test_the_folder_of_a_demo_killed_outright_is_swept_by_the_next(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    stale = tmp_path / f"{demo.TEMP_PREFIX}stale"
    (stale / "flash").mkdir(parents=True)
    (stale / "demo.pid").write_text(dead.stdout.strip())
    alive = tmp_path / f"{demo.TEMP_PREFIX}alive"
    alive.mkdir()
    (alive / "demo.pid").write_text(str(os.getppid()))
    other = tmp_path / f"{demo.TEMP_PREFIX}not-ours"
    other.mkdir()  # no pid file: not a demo's, left alone
    assert demo.sweep_stale_folders(tmp_path) == [stale]
    assert not stale.exists() and alive.exists() and other.exists()


def _play(board: SimBoard, tmp_path: Path, *argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "upref", "play", "updown", *argv, "--port", board.port, "--plain",
         "--db", str(tmp_path / "games.sqlite"), "--registry", str(tmp_path / "tags.sqlite")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env=_env(tmp_path),
    )


def test_play_names_open_games_warns_of_no_cards_and_says_how_to_resume(
    make_board: Callable[..., SimBoard], tmp_path: Path
) -> None:
    db = tmp_path / "games.sqlite"
    for names, moves in ((("Dan", "Eve"), 1), (("Fay", "Gus"), 2), (("Ivy", "Jo"), 0)):
        with GameLog.create(db, game="updown", players=names, seed=1) as log:
            log.append({"kind": "start", "t": 1.0, "players": list(names), "variant": {}, "seed": 1})
            for n in range(moves):
                log.append({"kind": "hole", "t": 2.0 + n, "hole": 1, "old": 0, "new": 74})
    board = make_board(seed=5)
    address = free_address()
    host = _play(board, tmp_path, "Ann", "Bob", "--seed", "3", "--web", address)
    lines: list[str] = []
    try:
        assert host.stderr is not None
        while not [ln for ln in lines if ln.startswith("Up And Down: saved as log 3 in")] or not [
            ln for ln in lines if ln.startswith("The scoreboard page:")
        ]:
            line = host.stderr.readline()
            assert line, "\n".join(lines)  # play ended before the game started
            lines.append(line.rstrip("\n"))
        # the page is served while the game runs: its stream starts with the table as it is
        with urllib.request.urlopen(f"http://{address}/events", timeout=10) as stream:
            first = [stream.readline().decode() for _ in range(4)]
        assert first[2] == "event: board\n" and "Ann" in first[3] and "Bob" in first[3], first
        host.send_signal(signal.SIGINT)  # what Ctrl-C (or q) does
        _, err = host.communicate(timeout=30)
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    lines += err.splitlines()
    assert host.returncode == 0, lines
    assert "Traceback" not in err
    started = next(i for i, ln in enumerate(lines) if ln.startswith("Up And Down: saved as log 3 in"))
    before = "\n".join(lines[:started])
    assert f"upref play: 2 earlier games in {db} were not finished. This new game starts anyway" in before
    for gid, names, moves in ((1, "Dan and Eve", "1 move"), (2, "Fay and Gus", "2 moves")):
        assert f"log {gid}: Up And Down, {names}, started " in before
        assert (
            f", {moves}: to go on with it instead, press Ctrl-C now and type upref play updown "
            f"--resume --game-id {gid} --db {db}"
        ) in before
    assert "Ivy" not in before  # a start with no move is not kept: it made room for log 3
    assert f"If one will never be played again: upref games --close N --db {db}" in before
    assert f"The scoreboard page: http://{address}/" in lines and not [ln for ln in lines if "Warning" in ln]
    assert "no Up And Down piece is enrolled in the tag book" in before
    assert "upref enroll updown" in before
    # no move was made in it: nothing is left to resume
    assert lines[-1] == (
        f"Log 3 is not kept: no move was made in it. Start again with upref play updown NAMES "
        f"--db {db}"
    )
    assert [g.players for g in list_games(db)] == [("Dan", "Eve"), ("Fay", "Gus")]
    assert not (tmp_path / "tags.sqlite").exists()  # play only reads the tag book
