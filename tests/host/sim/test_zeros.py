"""Zeros that stay put: the firmware's own scan (wiring, HallMux with the reference channel,
HoleScanner, Calibrator) on the simulator's stand-ins, calibrated cold on a good USB port, then
played a weak port whose rail the status LED steps by 50 mV, and a 30-minute warm-up. Model time
only: the scanner is given its scan times, the warm-up its temperatures, and the multiplexers'
power-on and settle waits pass on a model clock (ModelClock) instead of the machine's."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from upref import paths
from upref.sim import firmware_process, physics
from upref.sim.cpython import install
from upref.sim.physics import POSITIONS, Hole, World

SCAN_MS = 10
EMPTY_HOLES = (2, 6)  # 0-based: holes left empty, to watch their sensors' zeros
_TICKS_MASK = (1 << 30) - 1
_TICKS_HALF = 1 << 29


class ModelClock:
    """The firmware's `time` for the driver and the stand-in world, on a clock that only its
    sleeps advance: HallMux waits its banks' power-on and its channels' settle times on it, and
    the world dates a bank's switch-on and checks the sensors' power-on time by it, so the scan
    sees exactly the waits the driver asks for, without spending them on the machine's clock."""

    def __init__(self) -> None:
        self.us = 0

    def sleep_us(self, us: int) -> None:
        if us > 0:
            self.us += us

    def sleep_ms(self, ms: int) -> None:
        self.sleep_us(ms * 1000)

    def ticks_us(self) -> int:
        return self.us & _TICKS_MASK

    def ticks_ms(self) -> int:
        return (self.us // 1000) & _TICKS_MASK

    @staticmethod
    def ticks_add(ticks: int, delta: int) -> int:
        return (ticks + delta) & _TICKS_MASK

    @staticmethod
    def ticks_diff(t1: int, t2: int) -> int:
        return ((t1 - t2 + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF


@pytest.fixture
def board(monkeypatch: pytest.MonkeyPatch) -> Iterator[SimpleNamespace]:
    """The stand-ins in standalone mode and the firmware's wiring built on them from the pin map."""
    install()
    for var in ("UPREF_SIM_FIFO", "UPREF_SIM_PINMAP", "UPREF_SIM_RESET", "UPREF_SIM_MAC"):
        monkeypatch.delenv(var, raising=False)
    names = ("sim_world", "machine", "neopixel", "mfrc522_model", "wiring", "hallmux", "mfrc522",
             "holes", "calib")
    saved = {n: sys.modules.pop(n) for n in names if n in sys.modules}
    monkeypatch.syspath_prepend(str(firmware_process.CHIP))
    monkeypatch.syspath_prepend(str(firmware_process.STANDINS))
    fw = paths.firmware_dir()
    for d in (fw, fw / "lib", fw / "drivers" / "hallmux", *sorted((fw / "drivers").iterdir())):
        monkeypatch.syspath_prepend(str(d))
    import calib
    import holes
    import sim_world
    import wiring

    hw = SimpleNamespace()
    wiring.build(hw, str(paths.pinmap_path()), None)
    clock = ModelClock()
    monkeypatch.setattr(sys.modules["hallmux"], "time", clock)
    monkeypatch.setattr(sim_world, "time", clock)
    yield SimpleNamespace(world=sim_world.world, sim_world=sim_world, hw=hw, holes=holes, calib=calib,
                          clock=clock)
    for n in names:
        sys.modules.pop(n, None)
    sys.modules.update(saved)


def _place(sw: object, w: World) -> None:
    for k, uv in enumerate(w.volts()):
        sw.set_level(k, uv)  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", [3, 11])
def test_no_wrong_code_through_rail_steps_and_a_half_hour_warm_up(board: SimpleNamespace, seed: int) -> None:
    sw, hw = board.world, board.hw
    mux = hw.mux
    assert mux.has_ref and mux.n_levels == mux.n_sensors + 1
    n = mux.n_sensors
    t = hw.thresholds
    sw.noise = physics.NOISE_SIGMA
    sw.seed(seed + 1)
    full = World(seed=seed)
    for h in EMPTY_HOLES:
        full.holes[h] = Hole()
    sw.set_vref(full.vref_mv)
    levels = array("H", [0] * mux.n_levels)

    # calibrated cold, on a good port, the board empty
    _place(sw, World(seed=seed, empty=True))
    limits = board.calib.CalSettings(
        samples=32, cal_max_offset=t["cal_max_offset"], rail_low=t["rail_low"],
        rail_high=t["rail_high"], zero_low=t["cal_zero_low"], zero_high=t["cal_zero_high"],
    )
    cal = board.calib.Calibrator(n, hw.per_hole, True, limits)
    while not cal.done():
        mux.scan(levels)
        cal.add(levels)
    zeros = array("H", [0] * cal.n_levels)
    cal.result(zeros)
    calibrated = list(zeros)
    sc = board.holes.HoleScanner(hw.holes, hw.per_hole, t)
    sc.ref = True
    sc.set_zero(zeros)

    # the pairs go in; every hole reports its end's code
    _place(sw, full)
    want = [full.expected_code(h, t["on"]) for h in range(hw.holes)]
    now = 0
    for _ in range(20):
        mux.scan(levels)
        sc.update(levels, now)
        now += SCAN_MS
    assert list(sc.codes) == want and not any(sc.sensor_fault) and not any(sc.hole_fault)

    # a weak USB port, the LED switching between dark and full white every few scans, while the
    # board warms for half an hour: 6 temperatures a minute, 10 scans at each
    sw.set_supply(physics.WEAK_PORT_SUPPLY_UV, physics.WEAK_PORT_LED_DROP_UV)
    rails: set[int] = set()
    scans = 0
    for step in range(30 * 6 + 1):
        sw.set_warm(round(physics.warmup_c(step * 10.0) * 10))
        for _ in range(10):
            lit = scans // 3 % 2
            sw.set_led(*((255, 255, 255) if lit else (0, 0, 0)))
            rails.add(sw.rail_uv)
            mux.scan(levels)
            sc.update(levels, now)
            now += SCAN_MS
            scans += 1
            assert sc.n_changed == 0 and sc.n_fault_events == 0, (step, list(sc.codes), want)
    assert list(sc.codes) == want
    assert rails == {physics.SUPPLY_UV - 50_000, physics.SUPPLY_UV - 100_000}
    assert sw.warm_c10 >= 190 and sw.vref_mv > sw.vref_cold_mv

    # what the reference did: the empty holes' sensors moved by hundreds of counts, and the
    # corrected zeros moved with them (the LED is dark: the rail 50 mV below the calibration's)
    sw.set_led(0, 0, 0)
    moved, left = [], []
    for _ in range(8):
        mux.scan(levels)
        sc.update(levels, now)
        now += SCAN_MS
        for h in EMPTY_HOLES:
            for k in range(h * POSITIONS, (h + 1) * POSITIONS):
                moved.append(levels[k] - calibrated[k])
                left.append(levels[k] - sc.zero[k] - sc.shift)
    mean_moved = sum(moved) / len(moved)
    mean_left = sum(left) / len(left)
    assert mean_moved < -500, mean_moved  # half of 50 mV, and the ADC's warm-up
    # what the correction leaves is the sensors' noise over 64 reads and the reference's own:
    # 10 to 140 counts over seeds and scan orders (the channels' order draws the noise), against
    # the 500 to 650 the sensors moved
    assert abs(mean_left) < 150, (mean_left, mean_moved)
    assert sc.shift < -500


def test_the_reference_reads_half_the_rail_through_its_banks_switch(board: SimpleNamespace) -> None:
    sw, hw = board.world, board.hw
    levels = array("H", [0] * hw.mux.n_levels)
    got = {}
    for supply in (3_300_000, 3_200_000):
        sw.set_supply(supply, 0)
        hw.mux.scan(levels)
        got[supply] = levels[hw.mux.n_sensors]
    curve = sw.curves[3]
    for supply, v in got.items():
        assert abs(v - curve.read_u16(supply // 2)) <= 16, (supply, v)
    # 50 mV at the reference: about a thousand counts at 11 dB
    assert 900 < got[3_300_000] - got[3_200_000] < 1_100
    # each scan waited every bank's power-on time and every channel's settle time, on the model clock
    per_scan = len(hw.mux_power) * hw.power_on_us + hw.mux.n_levels * hw.settle_us
    assert board.clock.us == 2 * per_scan
