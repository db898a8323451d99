# The App on the fake board (fake_board.py), made afresh for each test of the loop (test_app.py)
# and of the service side (test_service.py), and the frames it sent, read back. Runs under
# pytest and under the MicroPython unix port, where each test module runs in a process of its
# own with the heap capped near the board's: the modules share this file rather than import
# each other, so each process holds only its own tests.
import binascii
import gc
import os

import app
from fake_board import FakeHw

# this process's own file: the CPython and the MicroPython runs of these tests (and other
# checkouts' test runs) may write their calibration at the same time
CAL_PATH = "/tmp/upref-test-calib-%s.json" % binascii.hexlify(os.urandom(4)).decode()
UID7 = bytes([0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])
UID4 = bytes([0xDE, 0xAD, 0xBE, 0xEF])


def rm(path):
    """Remove a file, if there is one (a calibration left by an earlier test)."""
    try:
        os.remove(path)
    except OSError:
        pass


def make(booted=True):
    """A fake board (no calibration saved) and an App on it, booted unless booted=False, its
    boot frames read: (hw, a)."""
    gc.collect()  # the MicroPython run's heap is capped near the board's: a clean heap each time
    rm(CAL_PATH)
    hw = FakeHw()
    a = app.App(hw, calib_path=CAL_PATH)
    if booted:
        a.boot()
        sent(a)
    return hw, a


def sent(a):
    """Every frame the board wrote so far, as (type, args); the output queue is flushed first."""
    a.out.flush()
    return a.hw.port.frames()


def run_scans(a, t, ms):
    """Scan cycles every 10 ms from t for ms; returns the new time."""
    end = t + ms
    while t < end:
        a.scan_cycle(t)
        t += 10
    return t
