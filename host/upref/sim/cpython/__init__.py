"""Make CPython look enough like MicroPython for the unchanged firmware to run.

install() adds MicroPython's time functions (ticks_ms, ticks_us, ticks_diff, ticks_add,
sleep_ms, sleep_us) to CPython's `time` module and puts this folder on sys.path so that
`import micropython` finds the shim beside this file. Idempotent.
"""

from __future__ import annotations

import os
import sys
import time

_TICKS_PERIOD = 1 << 30
_TICKS_MAX = _TICKS_PERIOD - 1
_TICKS_HALF = _TICKS_PERIOD // 2
_t0 = time.monotonic_ns()


def ticks_ms() -> int:
    return ((time.monotonic_ns() - _t0) // 1_000_000) & _TICKS_MAX


def ticks_us() -> int:
    return ((time.monotonic_ns() - _t0) // 1_000) & _TICKS_MAX


def ticks_cpu() -> int:
    return ticks_us()


def ticks_add(ticks: int, delta: int) -> int:
    return (ticks + delta) % _TICKS_PERIOD


def ticks_diff(ticks1: int, ticks2: int) -> int:
    return ((ticks1 - ticks2 + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF


def sleep_ms(ms: int) -> None:
    if ms > 0:
        time.sleep(ms / 1000)


def sleep_us(us: int) -> None:
    if us > 0:
        time.sleep(us / 1_000_000)


def install() -> None:
    for name, fn in (
        ("ticks_ms", ticks_ms),
        ("ticks_us", ticks_us),
        ("ticks_cpu", ticks_cpu),
        ("ticks_add", ticks_add),
        ("ticks_diff", ticks_diff),
        ("sleep_ms", sleep_ms),
        ("sleep_us", sleep_us),
    ):
        if not hasattr(time, name):
            setattr(time, name, fn)
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
