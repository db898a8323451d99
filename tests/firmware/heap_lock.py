# Runs firmware code with MicroPython's heap locked: any allocation in it raises MemoryError.
# Under CPython the lock is the shim's (tests/firmware/micropython.py) and proves nothing by itself;
# the firmware tests run again under the MicroPython unix port, where it does.
import sys

import micropython


def without_allocating(body):
    """Run body() with the heap locked. Under MicroPython also check, before unlocking, that
    the lock refuses an allocation: a lock that lets one through would prove nothing."""
    is_mp = sys.implementation.name == "micropython"
    refused = not is_mp
    micropython.heap_lock()
    try:
        body()
        if is_mp:
            try:
                bytearray(8)
            except MemoryError:
                refused = True
    finally:
        micropython.heap_unlock()
    if not refused:
        raise AssertionError("the heap lock let an allocation through: the run proved nothing")
