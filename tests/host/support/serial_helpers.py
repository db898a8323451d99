"""Reading a simulated board's port, and a link's events, in tests."""

from __future__ import annotations

import queue
import time
from typing import Any

import serial


def read_until(ser: serial.Serial, marker: bytes, timeout: float = 5.0) -> bytes:
    """Everything read up to and including `marker`; AssertionError with the tail if it never comes."""
    end = time.monotonic() + timeout
    buf = b""
    while marker not in buf:
        if time.monotonic() > end:
            raise AssertionError(f"never saw {marker!r}; got {buf[-400:]!r}")
        buf += ser.read(ser.in_waiting or 1)
    return buf


def events_until(link: Any, until: type, timeout: float) -> list[object]:
    """The items the link hands on (`link.events`) up to and including the first of type `until`;
    AssertionError with what came if none comes within `timeout` seconds."""
    out: list[object] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            item = link.events.get(timeout=0.05)
        except queue.Empty:
            continue
        out.append(item)
        if isinstance(item, until):
            return out
    raise AssertionError(f"no {until.__name__} came: {out}")
