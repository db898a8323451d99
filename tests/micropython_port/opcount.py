"""Bytecode operations the firmware runs per pass of its loop, counted under CPython with
sys.settrace opcode events, function by function: the evidence for which functions are compiled
to native code (docs/build.md, "Native code"). CPython's opcodes are not MicroPython's one for
one, but both interpreters run the same statements, so the counts rank the functions and give
the order of a pass's interpretation.

    .venv/bin/python tests/micropython_port/opcount.py

Scenes, on the board as built (switched sensor supply with its reference channel, the MFRC522
driver against the chip's register model): a scan pass with no card (the poll hears nothing),
the passes of a card's read until its CARD frame, a pair seated (its HOLE frame), a heartbeat.
Only the firmware's own code is counted; the fakes and the chip's model stand for hardware.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = str(ROOT / "firmware")


def _setup_paths() -> None:
    sys.path[:0] = [str(p) for p in (
        ROOT / "firmware", ROOT / "firmware" / "lib", ROOT / "firmware" / "drivers" / "mfrc522",
        ROOT / "firmware" / "drivers" / "hallmux", ROOT / "host" / "upref" / "sim" / "standins",
        ROOT / "host" / "upref" / "chip", ROOT / "tests" / "firmware",
    )]
    sys.path.insert(0, str(ROOT / "host"))
    from upref.sim.cpython import install

    install()
    import gc

    if not hasattr(gc, "mem_free"):  # MicroPython's free heap, which the heartbeat reports
        gc.mem_free = lambda: 100 * 1024  # type: ignore[attr-defined]


class OpCounter:
    """Counts opcode events of firmware frames by function while active."""

    def __init__(self) -> None:
        self.ops: Counter[str] = Counter()

    def _local(self, frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
        if event == "opcode":
            code = frame.f_code
            self.ops[f"{Path(code.co_filename).name}:{code.co_qualname}"] += 1
        return self._local

    def _global(self, frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        if not frame.f_code.co_filename.startswith(FIRMWARE):
            return None
        frame.f_trace_opcodes = True
        return self._local

    def run(self, fn: Callable[[], Any]) -> Counter[str]:
        self.ops = Counter()
        sys.settrace(self._global)
        try:
            fn()
        finally:
            sys.settrace(None)
        return self.ops


def _board() -> tuple[Any, Any, Any]:
    """The App on the fake board with the pin map's switched supply and reference channel, and
    the real MFRC522 driver on the chip's model: (hw, app, model)."""
    import app
    import mfrc522_model
    from fake_board import FakeHw
    from fake_hall import Sensors, pinmap
    from fake_spi import FakePin, FakeSPI
    from hallmux import HallMux
    from mfrc522 import MFRC522

    pm = pinmap()
    ref = (pm["mux"]["ref"]["bank"], pm["mux"]["ref"]["channel"])
    hw = FakeHw()
    hw.sensors = Sensors(hw.channels, switched=True)
    m = hw.sensors.mux
    m.levels[ref[0] * 16 + ref[1]] = 32768
    hw.mux = HallMux(m.adcs, m.pins, hw.channels, pm["mux"]["settle_us"], m.power_pins,
                     pm["mux"]["power_on_us"], ref)
    model = mfrc522_model.MFRC522Model()
    model.set_field([])
    reader = MFRC522(FakeSPI(model), FakePin(model.cs), FakePin(model.rst))
    hw.rfid = hw.reader = reader
    a = app.App(hw, calib_path="/tmp/upref-opcount-calib.json")
    a.boot()
    return hw, a, model


_NATIVE: dict[str, bool] = {}


def is_native(key: str) -> bool:
    """Whether the counted function `key` ("file.py:Class.name") carries @micropython.native:
    the line above its def, in its source."""
    if key not in _NATIVE:
        fname, qual = key.split(":")
        name = qual.rsplit(".", 1)[-1]
        src = next(iter((ROOT / "firmware").rglob(fname))).read_text().splitlines()
        _NATIVE[key] = any(
            line.strip().startswith(f"def {name}(") and i > 0 and "@micropython." in src[i - 1]
            for i, line in enumerate(src))
    return _NATIVE[key]


def _report(title: str, ops: Counter[str], passes: int = 1) -> None:
    total = sum(ops.values())
    native = sum(n for k, n in ops.items() if is_native(k))
    print(f"\n{title}: {total / passes:.0f} operations per pass ({passes} passes), "
          f"{native / passes:.0f} in native functions, {(total - native) / passes:.0f} left to the interpreter")
    for name, n in ops.most_common(14):
        mark = "  (native)" if is_native(name) else ""
        print(f"  {n / passes:8.0f}  {name}{mark}")


def main() -> None:
    _setup_paths()
    import time

    # a clock of its own, moved 20 us by every reading of it (what a register access or a few
    # operations take on the chip) and to the next scan at each pass, whatever tracing costs
    us = [100_000_000]

    def ticks_us() -> int:
        us[0] += 20
        return us[0]

    time.ticks_us = ticks_us  # type: ignore[attr-defined]
    time.ticks_ms = lambda: ticks_us() // 1000  # type: ignore[attr-defined]
    hw, a, model = _board()
    c = OpCounter()

    def passes(n: int) -> Callable[[], None]:
        def go() -> None:
            for _ in range(n):
                now = a._next_scan
                us[0] = max(us[0], now * 1000)
                a.step(now)
        return go

    passes(200)()  # settle: calibration-free zeros, the reference followed
    a._next_hb = a._next_scan + 100000  # no heartbeat inside the scenes below
    _report("scan pass, no card (poll every other pass)", c.run(passes(100)), 100)
    model.set_field([b"\x04\x10\x20\x30\x40\x50\x60"])
    ops = c.run(passes(6))
    _report("a 7-byte card arriving (the passes of its read)", ops, 6)
    passes(20)()
    _report("scan pass, a card lying there", c.run(passes(100)), 100)
    model.set_field([])
    passes(20)()
    hw.put_magnets(3, "NS-N")
    _report("a pair seated (HOLE frame; passes until it is reported)", c.run(passes(6)), 6)
    a._next_hb = a._next_scan
    _report("a pass with the heartbeat", c.run(passes(1)), 1)
    _report("SNAP (service.py imported)", c.run(lambda: a.command(1, "SNAP", [])), 1)
    def raw() -> None:
        a.command(2, "RAW", [])
        passes(10)()

    _report("RAW (a hole's frame a pass, with its scan)", c.run(raw), 10)


if __name__ == "__main__":
    main()
