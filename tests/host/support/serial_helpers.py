"""Reading a simulated board's port in tests."""

from __future__ import annotations

import time

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
