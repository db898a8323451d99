"""A chip whose scans leave the card reader no slot of its own (each scan takes 9.5 of its
10 ms, on a clock this test keeps) still reads a card: once no exchange has run for
_RFID_STARVED_MS while one was due, the reader's exchanges go on past the slot, as an
arriving card's do (firmware/app.py run_rfid), and no scan is later than a period. Nothing is
timed on this machine's clock: the firmware's ticks are this test's."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from upref.sim import firmware_process
from upref.sim.cpython import install

ROOT = Path(__file__).resolve().parents[3]
FIRMWARE = ROOT / "firmware"
SCAN_US = 9500  # what each scan takes on this test's clock: half a millisecond to spare
STEP_US = 300  # what each reader's exchange takes


@pytest.fixture(scope="module")
def fw() -> Iterator[ModuleType]:
    install()
    extra = [FIRMWARE, FIRMWARE / "lib", *sorted((FIRMWARE / "drivers").iterdir()), ROOT / "tests" / "firmware",
             firmware_process.STANDINS, firmware_process.CHIP]
    saved = list(sys.path)
    sys.path[:0] = [str(p) for p in extra]
    import app_harness  # type: ignore[import-not-found]

    yield app_harness
    sys.path[:] = saved


class _Clock:
    """The firmware's ticks_ms and ticks_us on a clock of this test's: the loop's own reads
    move it by a microsecond, a scan by SCAN_US, a reader's exchange by STEP_US."""

    def __init__(self, ms: int) -> None:
        self.us = ms * 1000

    def ticks_us(self) -> int:
        self.us += 1
        return self.us

    def ticks_ms(self) -> int:
        return self.us // 1000


def _run(h: ModuleType, periods: int) -> tuple[list[tuple[str, list[str]]], list[int], Any]:
    import time

    hw, a = h.make()
    clock = _Clock(a._next_scan)
    scan, step = hw.mux.scan, hw.rfid.read_step
    late: list[int] = []

    def slow_scan(out: Any) -> None:
        scan(out)
        clock.us += SCAN_US

    def slow_step(into: Any) -> int:
        clock.us += STEP_US
        return step(into)

    hw.mux.scan, hw.rfid.read_step = slow_scan, slow_step
    real = time.ticks_us, time.ticks_ms
    time.ticks_us, time.ticks_ms = clock.ticks_us, clock.ticks_ms  # type: ignore[attr-defined]
    try:
        hw.rfid.set_field([h.UID7])
        for _ in range(periods):
            now = clock.ticks_ms()
            if time.ticks_diff(now, a._next_scan) >= 0:
                late.append(time.ticks_diff(now, a._next_scan))
            a.step(now)
            wait = time.ticks_diff(a._next_scan, clock.ticks_ms())
            if wait > 0:
                clock.us += wait * 1000
    finally:
        time.ticks_us, time.ticks_ms = real  # type: ignore[attr-defined]
    return h.sent(a), late, a


def test_a_chip_whose_scans_leave_no_slot_still_reads_a_card_and_no_scan_is_a_period_late(fw: ModuleType) -> None:
    frames, late, a = _run(fw, 40)
    assert a._slot_us - SCAN_US < 2000  # no slot of the reader's own after any scan
    cards = [args for kind, args in frames if kind == "CARD"]
    assert cards and cards[0][0] == "+" and cards[0][-1] == fw.UID7.hex().upper(), frames
    assert late and max(late) < 10, late  # ms: every scan within a period of its time
