# A month of uptime: the heartbeat's `up` keeps counting past the 6.2 days where ticks_diff
# wraps and past the small ints of the 32-bit chip (12.4 days of ms), and `scans` stays a small
# int; a heartbeat then allocates nothing. Runs under pytest and the MicroPython unix port.

import gc
import time

import micropython

import app
from fake_board import FakeHw

MONTH_S = 31 * 86400


def heartbeat(a):
    a.out.flush()
    a.hw.port.frames()
    a.send_heartbeat(time.ticks_ms())
    a.out.flush()
    return dict(x.split("=", 1) for x in a.hw.port.frames()[0][1])


def test_a_month_of_uptime_is_told_right_and_allocates_nothing():
    gc.collect()
    a = app.App(FakeHw(), calib_path="/tmp/upref-test-uptime-calib.json")
    a.boot()
    hb = heartbeat(a)
    assert 0 <= int(hb["up"]) < 5000
    a._up_s = MONTH_S  # as if the board had run for a month
    a._up_ms = 7
    hb = heartbeat(a)
    up = int(hb["up"])
    assert MONTH_S * 1000 <= up < (MONTH_S + 5) * 1000, up
    assert hb["up"][-3:] == "%03d" % (up % 1000)
    a.scans = 999999999
    a.scan_cycle(time.ticks_ms())
    assert a.scans == 0  # wrapped below 2**30
    a.out.flush()
    a.hw.port.frames()
    now = time.ticks_ms()
    micropython.heap_lock()
    try:
        a.send_heartbeat(now)
        a.scan_cycle(now)
    finally:
        micropython.heap_unlock()
    a.out.flush()
    assert a.hw.port.frames()[0][0] == "HB"
