"""`make deploy` to a simulated board started in the background: `upref sim &` from a script
(or nohup, or a service) hands the process SIGINT ignored, which the CPython firmware process
would inherit. The board must still take Ctrl-C, so that mpremote reaches its raw REPL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, make
from upref.commands import deploy

pytestmark = pytest.mark.board  # make deploy against simulated boards

# A firmware of someone else's already on the board: it never reads the port, so only
# MicroPython's own Ctrl-C (SIGINT in the simulated board's firmware process) stops it.
FOREIGN_MAIN = "import time\nwhile True:\n    time.sleep_ms(5)\n"


def test_make_deploy_reaches_a_board_started_with_sigint_ignored(tmp_path: Path) -> None:
    run = tmp_path / "run"
    env = {**os.environ, "UPREF_RUNTIME_DIR": str(run)}
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text(FOREIGN_MAIN)
    # as a shell starts a background job: SIGINT ignored, inherited by what it runs
    sim = subprocess.Popen(
        ["sh", "-c", f'trap "" INT; exec "{sys.executable}" -m upref sim --name bg --flash "{flash}"'],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        tag_book = run / "sim-bg.json"
        end = time.monotonic() + 30
        while not tag_book.exists():
            assert sim.poll() is None, sim.communicate()[0]
            assert time.monotonic() < end, "the simulated board did not start"
            time.sleep(0.05)
        port = json.loads(tag_book.read_text())["port"]
        ignored = Path(f"/proc/{sim.pid}/status").read_text()
        sigign = int(next(ln for ln in ignored.splitlines() if ln.startswith("SigIgn:")).split()[1], 16)
        assert sigign & (1 << (signal.SIGINT - 1)), "the simulator should run with SIGINT ignored"
        rc, out, secs = make("deploy", f"PORT={port}", env=env, timeout=300)
        assert rc == 0, out
        assert "will not enter MicroPython's raw REPL" not in out
        assert f"the board answers: firmware {deploy.expected_fw_version()}" in out, out
    finally:
        sim.terminate()
        sim.communicate(timeout=30)


def test_make_deploy_refuses_a_port_another_program_holds(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    from upref.link.connection import Link
    from upref.sim.board import SimBoard, SimSettings

    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(tmp_path / "run"))
    with SimBoard(SimSettings(name="held", flash_dir=tmp_path / "flash")) as board, Link(board.port):
        # this process's link holds the port: a deploy run beside it is refused, naming it
        rc, out, _ = make("deploy", f"PORT={board.port}", env=dict(os.environ), timeout=120)
        assert rc != 0
        assert f"the board's port is in use by another program (pid {os.getpid()}: " in out, out
        assert "asking the board" not in out  # stopped before any mpremote run
        assert board.state()["face"] == "firmware" and board.state()["resets"] == 0
