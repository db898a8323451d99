"""The simulated chip's cost model (standins/chip.py, standins/opcount.py) held to the code it
models: for a few fixed scenes (no card, a card on the reader, a pair seated) the firmware's loop
runs here in-process on the firmware tests' fake board, once counted by this test's own tracer
and once under the model's counter on a chip of its own; the chip's charge for the
interpreter must be this test's count times the figure of an operation, at both ends of the
range, and the estimate used without the count must stay near the count. Nothing is timed:
counts are deterministic."""

from __future__ import annotations

import ast
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from upref.sim import firmware_process
from upref.sim.cpython import install

ROOT = Path(__file__).resolve().parents[3]
FIRMWARE = ROOT / "firmware"
PERIODS = 40  # scan periods of 10 ms a scene runs: 400 ms, two heartbeats' worth of RFID polls


@pytest.fixture(scope="module")
def fw() -> Iterator[dict[str, ModuleType]]:
    """The firmware's modules, the firmware tests' fake board, and the model's chip and counter."""
    install()
    extra = [FIRMWARE, FIRMWARE / "lib", *sorted((FIRMWARE / "drivers").iterdir()), ROOT / "tests" / "firmware",
             firmware_process.STANDINS, firmware_process.CHIP]
    saved = list(sys.path)
    sys.path[:0] = [str(p) for p in extra]
    import app_harness  # type: ignore[import-not-found]
    import chip  # type: ignore[import-not-found]
    import opcount  # type: ignore[import-not-found]

    yield {"harness": app_harness, "chip": chip, "opcount": opcount}
    sys.path[:] = saved


_MINE: dict[str, bool] = {}


def _mine(filename: str) -> bool:
    """Is this file the firmware's? (by its real path: the package reaches it through a link)"""
    got = _MINE.get(filename)
    if got is None:
        got = _MINE[filename] = os.path.realpath(filename).startswith(str(FIRMWARE.resolve()) + "/")
    return got


def _emitted() -> dict[tuple[str, int, str], str]:
    """The firmware's functions compiled to native code, read from its source (independently of
    the stand-in decorators the model relies on): (real path, first line as CPython numbers it,
    name) -> "native" or "viper"."""
    found: dict[tuple[str, int, str], str] = {}
    for path in FIRMWARE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            for d in node.decorator_list:
                if isinstance(d, ast.Attribute) and isinstance(d.value, ast.Name) and d.value.id == "micropython" \
                        and d.attr in ("native", "viper"):
                    first = min(x.lineno for x in node.decorator_list)
                    found[(os.path.realpath(path), first, node.name)] = d.attr
    return found


def _own_count(run: Callable[[], None], beside: Callable[[Any, str, Any], Any] | None = None) -> dict[str, int]:
    """This test's count: opcode events of the frames whose code is a file under firmware/, by
    the kind of code the board runs them as ("bytecode", "native", "viper"). `beside`: another
    tracer (the model's counter) that sees every event of the same run as well, so that both
    count one run and not two that the machine may have made differ."""
    emitted = _emitted()
    n = {"bytecode": 0, "native": 0, "viper": 0}

    def counter(kind: str | None, other: Any) -> Callable[[Any, str, Any], Any]:
        def local(frame: Any, event: str, arg: Any) -> Any:
            nonlocal other
            if event == "opcode" and kind is not None:
                n[kind] += 1
            if other is not None:
                other = other(frame, event, arg)
            return local

        return local

    def on_call(frame: Any, event: str, arg: Any) -> Any:
        other = beside(frame, event, arg) if beside is not None else None
        code = frame.f_code
        kind: str | None = None
        if _mine(code.co_filename) and code.co_name not in ("ptr8", "ptr16", "ptr32"):
            # (viper's casts are no calls on the chip: their stand-ins cost nothing)
            key = (os.path.realpath(code.co_filename), code.co_firstlineno, code.co_name)
            kind = emitted.get(key, "bytecode")
        if kind is None and other is None:
            return None
        frame.f_trace_lines = False
        frame.f_trace_opcodes = True
        return counter(kind, other)

    sys.settrace(on_call)
    try:
        run()
    finally:
        sys.settrace(None)
    return n


def _as_built(h: ModuleType) -> tuple[Any, Any]:
    """A booted App on the fake board wired as the board is built (hardware/pinmap.json): the
    sensors' supply switched bank by bank and the reference channel read with them, so the
    scan is the one the board runs (HallMux._scan_switched): (hw, app)."""
    import app  # type: ignore[import-not-found]
    from fake_board import FakeHw  # type: ignore[import-not-found]
    from fake_hall import Sensors, pinmap  # type: ignore[import-not-found]
    from hallmux import HallMux  # type: ignore[import-not-found]

    pm = pinmap()["mux"]
    ref = (pm["ref"]["bank"], pm["ref"]["channel"])
    hw = FakeHw()
    hw.sensors = Sensors(hw.channels, switched=True)
    m = hw.sensors.mux
    m.levels[ref[0] * 16 + ref[1]] = 32768
    hw.mux = HallMux(m.adcs, m.pins, hw.channels, pm["settle_us"], m.power_pins, pm["power_on_us"], ref)
    a = app.App(hw, calib_path=h.CAL_PATH)
    a.boot()
    h.sent(a)
    return hw, a


def _scene(h: ModuleType, name: str) -> tuple[Any, Callable[[], None]]:
    """A fresh booted app on the fake board as built, set for the scene, and the run of PERIODS
    periods."""
    hw, a = _as_built(h)
    if name == "a card on the reader":
        hw.rfid.set_field([h.UID7])
    elif name == "a pair seated":
        hw.put_magnets(4, "NNN-")
    t0 = a._next_scan  # the next scan is due: every step is a scan period

    def run() -> None:
        # the loop reads the microsecond clock to share out its slot, and the millisecond clock
        # (is this the heartbeat's pass?): clocks of the test's own, a microsecond a read and
        # the millisecond of the step under way, so that both runs of a scene take the same path
        # however long this machine takes over a traced pass
        import time

        real_us, real_ms, us, ms = time.ticks_us, time.ticks_ms, [0], [t0]

        def ticks_us() -> int:
            us[0] += 1
            return us[0]

        time.ticks_us = ticks_us  # type: ignore[attr-defined]
        time.ticks_ms = lambda: ms[0]  # type: ignore[attr-defined]
        try:
            for i in range(PERIODS):
                ms[0] = t0 + 10 * i
                a.step(ms[0])
        finally:
            time.ticks_us, time.ticks_ms = real_us, real_ms  # type: ignore[attr-defined]

    return hw, run


SCENES = ("no card", "a card on the reader", "a pair seated")


@pytest.mark.parametrize("scene", SCENES)
@pytest.mark.parametrize("end", ("slow", "fast"))
def test_the_chip_charges_every_operation_this_test_counts_at_the_ends_figure(
    fw: dict[str, ModuleType], scene: str, end: str
) -> None:
    h, oc = fw["harness"], fw["opcount"]
    _, run = _scene(h, scene)
    c = oc.CountingChip()
    c.on = True
    c.set_mhz(240)
    c.set_speed(end)
    models = oc.count(c, [str(FIRMWARE) + "/"])  # the model's counter, to see the run beside this test's
    sys.settrace(None)
    kinds = _own_count(run, beside=models)
    counted = sum(kinds.values())
    assert counted > 1000 * PERIODS  # the scan loop is thousands of operations a period
    assert kinds["native"] > 0, kinds  # the hot loops are native code
    before = c.us
    c.settle()
    charged_us = c.us - before
    assert c.ops_total == counted, (scene, c.ops_total, counted)
    # native code at half a bytecode operation's time, viper at an eighth (docs/simulator.md)
    op_ns = oc.CountingChip.OP_NS[end]
    want_us = (kinds["bytecode"] + kinds["native"] / 2 + kinds["viper"] / 8) * op_ns / 1000
    assert abs(charged_us - want_us) <= 1 + want_us / 1000, (scene, end, kinds, charged_us, want_us)


def test_the_slow_end_is_the_slower_and_both_come_from_the_stated_pystone_figures(fw: dict[str, ModuleType]) -> None:
    """Each end is 1e9 / (pystones/s x 500 operations a pystone pass), as opcount.py states."""
    oc = fw["opcount"]
    for end, pystones in (("slow", 1014), ("fast", 1661)):
        assert abs(oc.CountingChip.OP_NS[end] - 1e9 / (pystones * 500)) < 2, end
    assert oc.CountingChip.OP_NS["slow"] > oc.CountingChip.OP_NS["fast"]


def test_the_estimate_without_the_count_stays_within_a_quarter_of_the_count(fw: dict[str, ModuleType]) -> None:
    """With the estimate each sensor read is charged OPS_PER_CHANNEL operations: the operations
    of a quiet period over its sensor reads, counted, native code's weighted at its rate."""
    h, oc = fw["harness"], fw["opcount"]
    hw, run = _scene(h, "no card")
    reads_before = sum(hw.sensors.mux.reads)
    kinds = _own_count(run)
    reads = sum(hw.sensors.mux.reads) - reads_before
    assert reads >= 40 * PERIODS  # every sensor, every period
    per_read = (kinds["bytecode"] + kinds["native"] / 2 + kinds["viper"] / 8) / reads  # as bytecode's
    print(f"operations per sensor read, counted: {per_read:.1f}")
    assert 0.75 * per_read <= oc.CountingChip.OPS_PER_CHANNEL <= 1.25 * per_read, per_read


def test_native_and_viper_code_is_charged_at_its_own_rate(fw: dict[str, ModuleType]) -> None:
    """A function the firmware marks @micropython.native or @micropython.viper stays a plain
    function here, and its operations cost the chip a half and an eighth of bytecode's."""
    oc = fw["opcount"]
    import micropython

    src = "def f(n):\n    s = 0\n    for i in range(n):\n        s += i\n    return s\n"
    fns = {}
    for kind in ("plain", "native", "viper"):
        g: dict[str, Any] = {}
        exec(compile(src, str(FIRMWARE / f"{kind}_probe.py"), "exec"), g)
        fns[kind] = g["f"] if kind == "plain" else getattr(micropython, kind)(g["f"])
    charged = {}
    for kind, f in fns.items():
        c = oc.CountingChip()
        c.on = True
        c.set_mhz(240)
        oc.count(c, [str(FIRMWARE) + "/"])
        try:
            assert f(200) == sum(range(200))
        finally:
            sys.settrace(None)
        c.settle()
        charged[kind] = c.us * 1000 + c._ns
    assert charged["native"] == pytest.approx(charged["plain"] / oc.CountingChip.NATIVE_DIV, abs=oc.CountingChip.OP_NS["slow"])
    assert charged["viper"] == pytest.approx(charged["plain"] / oc.CountingChip.VIPER_DIV, abs=oc.CountingChip.OP_NS["slow"])


def test_a_board_is_told_which_end_and_how_to_charge_and_refuses_anything_else() -> None:
    from upref.sim.board import SimSettings

    s = SimSettings(chip_speed="fast", ops="count")
    assert (s.chip_speed, s.ops) == ("fast", "count")
    assert (SimSettings().chip_speed, SimSettings().ops) == ("slow", "light")
    for bad in ({"chip_speed": "medium"}, {"ops": "sampled"}):
        with pytest.raises(ValueError, match="must be"):
            SimSettings(**bad)  # type: ignore[arg-type]
