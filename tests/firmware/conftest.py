"""Firmware tests run under pytest on CPython and, unchanged, under the MicroPython unix port
(tests/micropython_port/run_firmware_tests.py). So the test files here use plain `assert` and no
pytest features; this conftest only makes CPython look like the board."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(p) for p in (
    ROOT / "firmware",
    ROOT / "firmware" / "lib",
    ROOT / "firmware" / "drivers" / "mfrc522",
    ROOT / "firmware" / "drivers" / "hallmux",
    ROOT / "host" / "upref" / "sim" / "standins",
    ROOT / "host" / "upref" / "chip",
    Path(__file__).resolve().parent,
)]
sys.path.insert(0, str(ROOT / "host"))
from upref.sim.cpython import install  # noqa: E402

install()

import gc  # noqa: E402

if not hasattr(gc, "mem_free"):  # MicroPython's free heap, which the heartbeat reports
    gc.mem_free = lambda: 100 * 1024  # type: ignore[attr-defined]
