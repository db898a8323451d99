"""The bring-up suite (tests/real_board/) run as a builder runs it, `pytest tests/real_board -s`
with BOARD_PORT naming the board, against the simulated board: every step passes on a board
built right and prints what it measured, whether the reader leaves the CRC bytes of a card's
SAK in its FIFO or not, under CPython and under the MicroPython unix port."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UID = "04A1B2C3D4E5F6"
STEPS = ("1 handshake", "2 resets", "3 reader", "4 line", "5 sensors", "6 holes", "7 scan",
         "8 heap", "9 card")


def run_suite(port: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, BOARD_PORT=port, BRINGUP_CARD_WAIT="20")
    return subprocess.run(
        [sys.executable, "-m", "pytest", str(REPO / "tests" / "real_board"), "-s",
         "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )


@pytest.mark.parametrize(("backend", "keeps_crc"), [("cpython", False), ("micropython", True)])
def test_the_bring_up_suite_passes_on_a_board_built_right_and_says_what_it_measured(
    make_board, backend: str, keeps_crc: bool
) -> None:
    board = make_board(backend=backend, seed=5, rfid_keeps_crc=keeps_crc)
    board.tap(UID)
    # (a machine busy enough to hold the simulated board up for a quarter of a second makes the
    # chip's clock jump, which the board counts as a late scan: such a run is made again)
    for _ in range(3):
        jumps = board.state()["chip"]["clock_jumps"]
        res = run_suite(board.port)
        if res.returncode == 0 or board.state()["chip"]["clock_jumps"] == jumps:
            break
    out = res.stdout
    assert res.returncode == 0, out[-4000:] + res.stderr[-2000:]
    assert "9 passed" in out, out[-2000:]
    said = [line for line in out.splitlines() if "bring-up " in line]
    for step in STEPS:
        assert any(f"bring-up {step}: " in line for line in said), (step, said)
    assert any("VersionReg 0x92: MFRC522 v2.0" in line for line in said), said
    assert any(f"card {UID}: " in line and "reads a second" in line for line in said), said
    assert sum("bring-up 5 sensors: hole" in line for line in said) == 10, said
