"""The firmware unit tests again, under the real MicroPython unix port with the heap capped
near the ESP32's, so CPython-only code in the firmware cannot pass unnoticed."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).resolve().parent / "run_firmware_tests.py"


def micropython() -> str:
    exe = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")
    return exe


def test_firmware_unit_tests_pass_under_micropython_with_110k_heap() -> None:
    res = subprocess.run(
        [micropython(), "-X", "heapsize=110K", str(RUNNER), str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    last = out.strip().splitlines()[-1]
    assert last.endswith(" 0 failed"), out
    assert not last.startswith("0 passed"), out
