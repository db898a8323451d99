# How the board's loop starts and ends (App.run): a fault is reported and the loop starts
# again; Ctrl-C at the start of a line stops the firmware, inside a line it is line noise; and
# whatever ends run() hands the watchdog back to its timer and re-arms Ctrl-C. On a fake board
# (app_harness.py); runs under pytest and under the MicroPython unix port.
import time

import app
from app_harness import make, sent


def test_an_exception_in_the_loop_is_reported_and_the_loop_starts_again():
    hw, a = make()
    real = hw.mux

    class Flaky:
        calls = 0

        def scan(self, out):
            Flaky.calls += 1
            if Flaky.calls == 2:
                raise RuntimeError("adc glitch")
            real.scan(out)

    hw.mux = Flaky()
    a.boot = lambda: None
    start = a.scans
    a.run(until=lambda: a.scans >= start + 3)
    frames = sent(a)
    assert ("FAULT", ["exc", "loop", "RuntimeError:", "adc", "glitch"]) in frames
    assert a.scans >= start + 3 and hw.wdt.feeds >= 3


class _Kbd:
    """Stands in for the micropython module's kbd_intr: records what the firmware set."""

    def __init__(self):
        self.calls = []

    def kbd_intr(self, c):
        self.calls.append(c)


class _Clock:
    """Stands in for the time module inside app: real ticks, a sleep that can raise."""

    def __init__(self, sleep_raises=None):
        self.sleep_raises = sleep_raises
        self.sleeps = 0

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_us(self):
        return time.ticks_us()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def ticks_add(self, a, b):
        return time.ticks_add(a, b)

    def sleep_ms(self, ms):
        self.sleeps += 1
        if self.sleep_raises is not None:
            raise self.sleep_raises


def _run_guarded(a, until=None):
    """a.run(until) with the micropython module's kbd_intr recorded; returns (exception, calls)."""
    kbd = _Kbd()
    real = app.micropython
    app.micropython = kbd
    try:
        a.run(until)
    except BaseException as e:  # noqa: B036 - the test looks at what escaped
        return e, kbd.calls
    finally:
        app.micropython = real
    return None, kbd.calls


def test_ctrl_c_while_booting_hands_the_watchdog_back():
    hw, a = make(booted=False)

    def interrupted():
        raise KeyboardInterrupt

    a.boot = interrupted
    e, kbd = _run_guarded(a)
    assert isinstance(e, KeyboardInterrupt)
    assert hw.released  # the timer feeds it: the REPL is not reset 8 s later
    assert kbd == [-1, 3]  # Ctrl-C read as data while running, re-armed for the REPL


def test_an_exception_from_boot_is_reported_and_the_loop_feeds_the_watchdog():
    hw, a = make(booted=False)

    def broken():
        raise ValueError("pin map has no signal button")

    a.boot = broken
    start = a.scans
    e, kbd = _run_guarded(a, until=lambda: a.scans >= start + 3)
    assert e is None and hw.released and kbd == [-1, 3]
    assert ("FAULT", ["exc", "boot", "ValueError:", "pin", "map", "has", "no", "signal", "button"]) in sent(a)
    assert hw.wdt.feeds >= 3  # the loop ran, feeding it


def test_ctrl_c_in_the_pause_after_a_fault_hands_the_watchdog_back():
    hw, a = make()
    a.boot = lambda: None

    def failing(now):
        raise RuntimeError("adc glitch")

    a.step = failing
    clock = _Clock(KeyboardInterrupt())
    real = app.time
    app.time = clock
    try:
        e, kbd = _run_guarded(a)
    finally:
        app.time = real
    assert isinstance(e, KeyboardInterrupt) and clock.sleeps == 1
    assert hw.released and kbd == [-1, 3]
    assert ("FAULT", ["exc", "loop", "RuntimeError:", "adc", "glitch"]) in sent(a)


def test_anything_else_that_ends_run_hands_the_watchdog_back():
    # (every Exception, MemoryError included, is reported and the loop restarts instead)
    for escaping in (SystemExit(0), KeyboardInterrupt()):
        hw, a = make()
        a.boot = lambda: None

        def stop(now, e=escaping):
            raise e

        a.step = stop
        e, kbd = _run_guarded(a)
        assert e is escaping and hw.released and kbd == [-1, 3]
        hw = a = None


def test_ctrl_c_at_the_start_of_a_line_stops_the_firmware():
    for data in (b"\x03", b"\r\x03", b"@0001 ECHO a*1C2E\r\n\x03"):
        hw, a = make()
        hw.port.inbox.extend(data)
        stopped = False
        try:
            a.poll_host()
        except KeyboardInterrupt:
            stopped = True
        assert stopped, data
        hw = a = None


def test_ctrl_c_inside_a_line_is_line_noise_the_line_is_dropped_and_the_game_goes_on():
    hw, a = make()
    # 'C' (0x43) with one bit flipped is 0x03: here inside a command line
    hw.port.inbox.extend(b"@0001 E\x03HO lost*0000\r\n")
    hw.port.send(2, "ECHO", ["kept"])
    a.poll_host()  # no KeyboardInterrupt
    assert sent(a) == [("ECHO", ["0002", "kept"])]
    assert a.bad == 1 and a.cmds == 1
