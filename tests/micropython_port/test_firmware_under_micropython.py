"""The firmware unit tests again, under the real MicroPython unix port with the heap capped
near the ESP32's (120K: the unix port is 64-bit, so every object and block is larger than on the
32-bit chip and 120K here holds less than the chip's ~100 KB free; `make bench` estimates the
heap on the 32-bit chip) and the firmware compiled by mpy-cross as the board runs it, so CPython-only
code in the firmware cannot pass unnoticed (the tests and fakes are compiled too: compiling
source at import time takes far more heap than running it). One MicroPython process per test module, as each
module's objects must fit the heap on their own (the board never holds test code at all)."""

import subprocess
from pathlib import Path

import pytest
from mpy import ROOT, compile_to, firmware_sources, firmware_test_sources, standin_sources, tool

RUNNER = Path(__file__).resolve().parent / "run_firmware_tests.py"
MODULES = sorted(p.stem for p in (ROOT / "tests" / "firmware").glob("test_*.py"))


@pytest.fixture(scope="module")
def mpy_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mpy")
    compile_to(firmware_sources() + standin_sources() + firmware_test_sources(), out)
    return out


def test_every_firmware_test_module_is_run() -> None:
    assert {"test_app", "test_wire", "test_holes", "test_mfrc522", "test_scan_alloc"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_firmware_tests_pass_under_micropython_with_120k_heap(module: str, mpy_dir: Path) -> None:
    res = subprocess.run(
        [tool("micropython"), "-X", "heapsize=120K", str(RUNNER), str(ROOT), str(mpy_dir), module],
        capture_output=True, text=True, timeout=300,
    )
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    last = out.strip().splitlines()[-1]
    passed, _, failed, _ = last.split()
    assert int(passed.rstrip(",")) > 0 and failed == "0", out
