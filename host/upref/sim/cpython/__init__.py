"""Make CPython look enough like MicroPython for the unchanged firmware to run.

install() adds MicroPython's time functions (ticks_ms, ticks_us, ticks_diff, ticks_add,
sleep_ms, sleep_us) to CPython's `time` module and puts this folder on sys.path so that
`import micropython` finds the shim beside this file. Idempotent.

install(micropython_select=True) also makes `select.poll()` behave as MicroPython's: poll()
and ipoll() name the registered object (not its fd), and ipoll() exists. The simulated board
uses it in the process that runs the firmware; it is kept out of the default because CPython
code in the same process (pytest, pyserial) expects CPython's poll.
"""

from __future__ import annotations

import os
import select
import sys
import time

_TICKS_PERIOD = 1 << 30
_TICKS_MAX = _TICKS_PERIOD - 1
_TICKS_HALF = _TICKS_PERIOD // 2


def ticks_ms() -> int:
    # CLOCK_MONOTONIC in ms, as the MicroPython unix port counts: every process on the machine
    # shares one ticks base, so the simulator can date a world change for the firmware
    return (time.monotonic_ns() // 1_000_000) & _TICKS_MAX


def ticks_us() -> int:
    return (time.monotonic_ns() // 1_000) & _TICKS_MAX


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


class MicroPythonPoll:
    """select.poll() as MicroPython has it: results name the registered objects."""

    def __init__(self) -> None:
        self._poll = _orig_poll()
        self._objs: dict[int, object] = {}

    @staticmethod
    def _fd(obj: object) -> int:
        return obj if isinstance(obj, int) else obj.fileno()  # type: ignore[attr-defined]

    def register(self, obj: object, eventmask: int = select.POLLIN | select.POLLOUT) -> None:
        fd = self._fd(obj)
        self._objs[fd] = obj
        self._poll.register(fd, eventmask)

    def unregister(self, obj: object) -> None:
        fd = self._fd(obj)
        self._objs.pop(fd, None)
        self._poll.unregister(fd)

    def modify(self, obj: object, eventmask: int) -> None:
        self._poll.modify(self._fd(obj), eventmask)

    def poll(self, timeout: int = -1) -> list[tuple[object, int]]:
        ms = None if timeout is None or timeout < 0 else timeout
        return [(self._objs.get(fd, fd), ev) for fd, ev in self._poll.poll(ms)]

    def ipoll(self, timeout: int = -1, flags: int = 0):  # noqa: ANN201 - an iterator
        return iter(self.poll(timeout))


_orig_poll = select.poll


def install(micropython_select: bool = False) -> None:
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
    if micropython_select:
        select.poll = MicroPythonPoll  # type: ignore[assignment,misc]
