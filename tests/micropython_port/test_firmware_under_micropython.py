"""The firmware unit tests again, under the real MicroPython unix port with the heap capped
near the ESP32's (120K: the unix port is 64-bit, so every object and block is larger than on the
32-bit chip and 120K here holds less than the chip's ~100 KB free; `make bench` estimates the
heap on the 32-bit chip) and the firmware compiled by mpy-cross as the board runs it, so CPython-only
code in the firmware cannot pass unnoticed (the tests and fakes are compiled too: compiling
source at import time takes far more heap than running it). One MicroPython process per test module, as each
module's objects must fit the heap on their own (the board never holds test code at all).

The names a process interns (the firmware's and the tests') fill MicroPython's table of names,
which grows by pools of 20, 40, ... 320 entries; past 620 names the next pool takes 640 entries,
7 KB in one piece on this 64-bit port, and the heap of a module that boots the App rarely has
that. The App's own modules and fakes take about 540 names, so the tests of the App are in three
modules (test_app, test_run, test_service, each under 600 names) rather than one.

Each module runs twice: on the native build (the hot functions as machine code for this machine,
as the simulator runs them and, for Xtensa, the board) and on the bytecode build (the same
sources without their native decorators), so a function behaves alike either way: native code
keeps Python's integers and exceptions, and a test that holds for one holds for the other."""

import subprocess
from pathlib import Path

import mpy
import pytest
from mpy import ROOT, firmware_sources, firmware_test_sources, standin_sources, tool

RUNNER = Path(__file__).resolve().parent / "run_firmware_tests.py"
MODULES = sorted(p.stem for p in (ROOT / "tests" / "firmware").glob("test_*.py"))


@pytest.fixture(scope="module")
def mpy_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each build's folder, compiled at its first use."""
    return {}


def _build(dirs: dict[str, Path], build: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if build not in dirs:
        out = tmp_path_factory.mktemp(f"mpy-{build}")
        mpy.compile_to(firmware_sources() + standin_sources() + firmware_test_sources(), out, mpy.march_of(build))
        dirs[build] = out
    return dirs[build]


def test_every_firmware_test_module_is_run() -> None:
    assert {"test_app", "test_run", "test_service", "test_wire", "test_holes", "test_mfrc522",
            "test_scan_alloc"} <= set(MODULES)


@pytest.mark.parametrize("build", mpy.BUILDS)
@pytest.mark.parametrize("module", MODULES)
def test_firmware_tests_pass_under_micropython_with_120k_heap(
        module: str, build: str, mpy_dirs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> None:
    mpy_dir = _build(mpy_dirs, build, tmp_path_factory)
    res = subprocess.run(
        [tool("micropython"), "-X", "heapsize=120K", str(RUNNER), str(ROOT), str(mpy_dir), module],
        capture_output=True, text=True, timeout=300,
    )
    out = res.stdout + res.stderr
    if "allocating 640 bytes" in out or "allocating 1280 bytes" in out:
        out += ("\n(MicroPython's table of names grew by a pool of 640 or 1280 entries, reported as"
                " bytes, and the heap had no room for it in one piece: the process holds over 620"
                " names; split this module's tests, see this file's docstring)")
    assert res.returncode == 0, out
    last = out.strip().splitlines()[-1]
    passed, _, failed, _ = last.split()
    assert int(passed.rstrip(",")) > 0 and failed == "0", out
