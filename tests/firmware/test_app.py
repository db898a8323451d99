# The board's behaviour as the host sees it: frames out for physical changes and commands in,
# on a fake board. Runs under pytest and under the MicroPython unix port.
import binascii
import gc
import os
import time

import app
from fake_board import FakeHw

# this process's own file: the CPython and the MicroPython runs of these tests (and other
# checkouts' test runs) may write their calibration at the same time
CAL_PATH = "/tmp/upref-test-calib-%s.json" % binascii.hexlify(os.urandom(4)).decode()
UID7 = bytes([0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])
UID4 = bytes([0xDE, 0xAD, 0xBE, 0xEF])


def _rm(path):
    try:
        os.remove(path)
    except OSError:
        pass


def make(booted=True):
    gc.collect()  # the MicroPython run's heap is capped near the board's: a clean heap each time
    _rm(CAL_PATH)
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


def test_boot_says_hello_then_snapshots_what_is_already_in_the_holes():
    hw, a = make(booted=False)
    hw.put_magnets(3, "N-SN")
    a.boot()
    frames = sent(a)
    assert frames[0][0] == "HELLO"
    hello = dict(x.split("=", 1) for x in frames[0][1])
    assert hello["proto"] == "2" and hello["holes"] == "10" and hello["board"] == "A4CF12345678"
    assert hello["rfid"] == "92" and hello["reset"] == "power" and "hall" in hello["caps"]
    assert frames[1][0] == "SNAP"
    snap = dict(x.split("=", 1) for x in frames[1][1])
    codes = snap["holes"].split(",")
    assert len(codes) == 10 and codes[2] == str(1 + 2 * 9 + 1 * 27) and codes[0] == "0"
    assert snap["card"] == "-" and snap["btn"] == "0" and snap["presses"] == "0"
    assert snap["faults"] == "-"


def test_a_seated_end_is_reported_after_two_scans_anything_else_after_the_debounce():
    hw, a = make()
    t = 1000
    hw.put_magnets(4, "NNN-")  # three magnets: a whole end, seated
    t = run_scans(a, t, 10)
    assert sent(a) == []  # seen once: not yet stable
    t = run_scans(a, t, 10)
    assert sent(a) == [("HOLE", ["4", str(1 + 3 + 9)])]  # stable for 10 ms (two scans)
    hw.put_magnets(4, "----")  # pulled: no magnet is also a code that cannot be passing
    t = run_scans(a, t, 20)
    assert sent(a) == [("HOLE", ["4", "0"])]
    hw.put_magnets(4, "-S--")  # one magnet: a pair on its way in, or a stray magnet
    t = run_scans(a, t, 30)
    assert sent(a) == []  # not yet stable for the 30 ms debounce
    t = run_scans(a, t, 10)
    assert sent(a) == [("HOLE", ["4", str(2 * 3)])]
    hw.put_magnets(4, "-SSN")
    t = run_scans(a, t, 20)
    assert sent(a) == [("HOLE", ["4", str(2 * 3 + 2 * 9 + 27)])]


def test_echo_led_beep_and_set_are_answered_with_their_sequence_number():
    hw, a = make()
    hw.port.send(7, "ECHO", ["hello", "board"])
    hw.port.send(8, "LED", ["00FF00"])
    hw.port.send(9, "BEEP", ["880:100,0:50,440:100"])
    hw.port.send(10, "SET", ["debounce=40"])
    a.poll_host()
    assert sent(a) == [
        ("ECHO", ["0007", "hello", "board"]),
        ("OK", ["0008", "LED"]),
        ("OK", ["0009", "BEEP"]),
        ("OK", ["000A", "SET"]),
    ]
    assert hw.led.shown == (0, 255, 0)
    assert a.scanner.debounce_ms == 40
    assert hw.buzzer.log[-1] == 880


def test_a_beep_pattern_plays_out_without_blocking():
    hw, a = make()
    a.feedback.beep([(880, 100), (0, 50), (440, 100)], 0)
    for t in (0, 99, 100, 149, 150, 249, 250):
        a.feedback.update(t)
    assert hw.buzzer.log[-4:] == [880, 0, 440, 0]
    assert not a.feedback.busy()


def test_bad_commands_change_nothing_and_say_why():
    hw, a = make()
    hw.port.send(1, "SET", ["debounce=2"])
    hw.port.send(2, "LED", ["green"])
    hw.port.send(3, "ZAP")
    hw.port.inbox.extend(b"@0004 SNAP*0000\r\n")  # corrupt: dropped silently and counted
    hw.port.inbox.extend(b"x" * 300 + b"\r\n")  # over-long: dropped and counted
    a.poll_host()
    frames = sent(a)
    assert frames[0][0] == "ERR" and frames[0][1][:2] == ["0001", "SET"]
    assert "debounce 2 ms out of 5..500" in " ".join(frames[0][1])
    assert frames[1][0] == "ERR" and frames[1][1][:2] == ["0002", "LED"]
    assert frames[2] == ("ERR", ["0003", "ZAP", "unknown", "command"])
    assert len(frames) == 3
    assert a.scanner.debounce_ms == 30 and hw.led.shown == (0, 0, 0)
    a.send_heartbeat(5000)
    hb = dict(x.split("=", 1) for x in sent(a)[0][1])
    assert hb["bad"] == "2" and hb["cmd"] == "3"


def test_raw_gives_every_hole_its_levels_and_zeros():
    hw, a = make()
    hw.put_magnets(2, "S-NN")
    a.scan_cycle(0)
    sent(a)
    hw.port.send(5, "RAW")
    a.poll_host()
    frames = sent(a)
    assert [f[0] for f in frames] == ["RAW"] * 10 + ["OK"]
    assert frames[1][1] == ["2", "20768,32768,44768,44768", "32768,32768,32768,32768"]


def test_calibration_refuses_a_pair_in_a_hole_then_succeeds_and_persists():
    hw, a = make()
    hw.put_magnets(6, "N-NN")
    hw.port.send(1, "CAL")
    a.poll_host()
    run_scans(a, 0, 400)
    frames = [f for f in sent(a) if f[0] in ("OK", "ERR")]
    assert frames[0][0] == "ERR" and frames[0][1][:2] == ["0001", "CAL"]
    assert "remove the pair from hole 6" in " ".join(frames[0][1])
    hw.put_magnets(6, "----")
    for k in range(40):
        hw.sensors.set(k, 32000 + k)  # each sensor's own offset
    hw.port.send(2, "CAL")
    a.poll_host()
    run_scans(a, 1000, 400)
    frames = [f for f in sent(a) if f[0] in ("OK", "ERR")]
    assert frames == [("OK", ["0002", "CAL", "sensors=40"])]
    assert a.scanner.zero[39] == 32039
    # a reboot loads the stored calibration
    del a, hw
    gc.collect()  # (the MicroPython run's heap is capped near the board's: one board at a time)
    b = app.App(FakeHw(), calib_path=CAL_PATH)
    assert b.calibrated and b.scanner.zero[5] == 32005
    _rm(CAL_PATH)


def test_a_7_byte_and_a_4_byte_tag_each_arrive_once_and_leave_once():
    hw, a = make()
    for uid in (UID7, UID4):
        hw.rfid.set_field([uid])
        for _ in range(20):
            a.poll_rfid()
        hw.rfid.set_field([])
        for _ in range(5):
            a.poll_rfid()
    hexes = ["04A1B2C3D4E5F6", "DEADBEEF"]
    assert sent(a) == [
        ("CARD", ["+", hexes[0]]), ("CARD", ["-", hexes[0]]),
        ("CARD", ["+", hexes[1]]), ("CARD", ["-", hexes[1]]),
    ]


def test_the_snapshot_carries_the_card_in_the_field_and_the_button():
    hw, a = make()
    hw.rfid.set_field([UID4])
    a.poll_rfid()  # one exchange of the read: the card is not known yet
    assert a.cards.reading and not a.cards.present
    while a.cards.reading:
        a.poll_rfid()
    hw.button.pressed = 1
    a.poll_button(0)
    a.poll_button(25)
    sent(a)
    a.send_snapshot()
    snap = dict(x.split("=", 1) for x in sent(a)[0][1])
    assert snap["card"] == "DEADBEEF" and snap["btn"] == "1" and snap["presses"] == "1"


def test_the_button_is_debounced_and_reported_on_press_and_release():
    hw, a = make()
    hw.button.pressed = 1
    a.poll_button(0)
    a.poll_button(5)
    hw.button.pressed = 0  # a bounce
    a.poll_button(8)
    hw.button.pressed = 1
    a.poll_button(10)
    a.poll_button(31)
    hw.button.pressed = 0
    a.poll_button(200)
    a.poll_button(221)
    assert sent(a) == [("BTN", ["1"]), ("BTN", ["0"])]


def test_a_dead_reader_is_reported_at_boot_and_the_board_keeps_scanning():
    hw, a = make(booted=False)
    hw.rfid.version = 0x00
    a.boot()
    frames = sent(a)
    assert frames[0][0] == "FAULT" and frames[0][1][:2] == ["rfid", "reader"]
    hello = dict(x.split("=", 1) for x in frames[1][1])
    assert hello["rfid"] == "none"
    snap = dict(x.split("=", 1) for x in frames[2][1])
    assert snap["faults"] == "rfid"
    hw.put_magnets(1, "NN-N")
    run_scans(a, 0, 60)
    assert ("HOLE", ["1", str(1 + 3 + 27)]) in sent(a)


def test_a_floating_sensor_is_a_fault_and_its_hole_is_not_misreported():
    hw, a = make()
    hw.sensors.set(9, 200)  # hole 3 position 2 at the low rail
    run_scans(a, 0, 60)
    frames = sent(a)
    assert frames == [("FAULT", ["sensor", "s10", "rail", "low"])]
    a.send_snapshot()
    snap = dict(x.split("=", 1) for x in sent(a)[0][1])
    assert snap["faults"] == "s10" and snap["holes"].split(",")[2] == "0"


def test_an_exception_in_the_loop_is_reported_and_the_loop_starts_again():
    hw, a = make()
    real = a.mux

    class Flaky:
        calls = 0

        def scan(self, out):
            Flaky.calls += 1
            if Flaky.calls == 2:
                raise RuntimeError("adc glitch")
            real.scan(out)

    a.mux = Flaky()
    a.boot = lambda: None
    start = a.scans
    a.run(until=lambda: a.scans >= start + 3)
    frames = sent(a)
    assert ("FAULT", ["exc", "loop", "RuntimeError:", "adc", "glitch"]) in frames
    assert a.scans >= start + 3 and hw.wdt.feeds >= 3


def test_reboot_answers_then_resets_the_board():
    hw, a = make()
    hw.port.send(3, "REBOOT")
    a.poll_host()
    assert sent(a) == [("OK", ["0003", "REBOOT"])]
    assert hw.resets == 1


def test_a_snapshot_with_every_sensor_faulted_still_fits_one_frame():
    hw, a = make()
    for k in range(40):
        if k not in (5, 6):
            hw.sensors.set(k, 100)  # railed low: every sensor but hole 2's P2 and P3
    run_scans(a, 0, 30)
    sent(a)
    a.send_snapshot()
    frames = sent(a)
    assert len(frames) == 1
    snap = dict(x.split("=", 1) for x in frames[0][1])
    assert snap["faults"] == "s1-5,s8-40"


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


def test_the_heartbeat_says_how_the_loop_keeps_up():
    hw, a = make()
    t = time.ticks_ms()
    a.loop(until=lambda: time.ticks_diff(time.ticks_ms(), t) > 1100)
    hbs = [dict(x.split("=", 1) for x in f[1]) for f in sent(a) if f[0] == "HB"]
    assert hbs, "no heartbeat in 1.1 s"
    hb = hbs[-1]
    for key in ("late", "tscan", "tmax", "odrop"):
        assert key in hb, hb
    assert int(hb["tmax"]) >= int(hb["tscan"]) > 0
    assert int(hb["odrop"]) == 0


def test_calibration_raw_dumps_and_set_up_are_loaded_when_asked_for_and_let_go():
    import sys

    hw, a = make()
    a.step(time.ticks_ms())
    for name in ("calib", "seldom", "mfrc522_setup"):
        assert name not in sys.modules, name  # booted, and none of them kept
    hw.port.send(1, "RAW")
    a.poll_host()
    assert "seldom" in sys.modules  # loaded for the command
    a.step(time.ticks_ms())
    assert "seldom" not in sys.modules  # and let go at the loop's next pass
    assert [f[0] for f in sent(a)].count("RAW") == 10
    hw.port.send(2, "CAL")
    a.poll_host()
    a.step(time.ticks_ms())
    assert "calib" in sys.modules and a.cal is not None  # while the scans are averaged
    run_scans(a, time.ticks_ms(), 400)
    a.step(time.ticks_ms())
    assert a.cal is None and "calib" not in sys.modules and "seldom" not in sys.modules
    assert ("OK", ["0002", "CAL", "sensors=40"]) in sent(a)
