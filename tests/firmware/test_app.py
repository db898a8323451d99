# The board's behaviour as the host sees it: frames out for physical changes and commands in,
# on a fake board. Runs under pytest and under the MicroPython unix port.
import os

import app
from fake_board import FakeHw

CAL_PATH = "/tmp/upref-test-calib.json"
UID7 = bytes([0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])
UID4 = bytes([0xDE, 0xAD, 0xBE, 0xEF])


def _rm(path):
    try:
        os.remove(path)
    except OSError:
        pass


def make(booted=True):
    _rm(CAL_PATH)
    hw = FakeHw()
    a = app.App(hw, calib_path=CAL_PATH)
    if booted:
        a.boot()
        hw.port.frames()
    return hw, a


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
    frames = hw.port.frames()
    assert frames[0][0] == "HELLO"
    hello = dict(x.split("=", 1) for x in frames[0][1])
    assert hello["proto"] == "1" and hello["holes"] == "10" and hello["board"] == "A4CF12345678"
    assert hello["rfid"] == "92" and hello["reset"] == "power" and "hall" in hello["caps"]
    assert frames[1][0] == "SNAP"
    snap = dict(x.split("=", 1) for x in frames[1][1])
    codes = snap["holes"].split(",")
    assert len(codes) == 10 and codes[2] == str(1 + 2 * 9 + 1 * 27) and codes[0] == "0"
    assert snap["card"] == "-" and snap["btn"] == "0" and snap["presses"] == "0"
    assert snap["faults"] == "-"


def test_a_pair_pulled_and_put_back_turned_gives_two_hole_frames_after_the_debounce():
    hw, a = make()
    t = 1000
    hw.put_magnets(4, "NNN-")
    t = run_scans(a, t, 20)
    assert hw.port.frames() == []  # not yet stable for 30 ms
    t = run_scans(a, t, 30)
    assert hw.port.frames() == [("HOLE", ["4", str(1 + 3 + 9)])]
    hw.put_magnets(4, "----")
    t = run_scans(a, t, 60)
    hw.put_magnets(4, "-SSN")
    t = run_scans(a, t, 60)
    assert hw.port.frames() == [("HOLE", ["4", "0"]), ("HOLE", ["4", str(2 * 3 + 2 * 9 + 27)])]


def test_echo_led_beep_and_set_are_answered_with_their_sequence_number():
    hw, a = make()
    hw.port.send(7, "ECHO", ["hello", "board"])
    hw.port.send(8, "LED", ["00FF00"])
    hw.port.send(9, "BEEP", ["880:100,0:50,440:100"])
    hw.port.send(10, "SET", ["debounce=40"])
    a.poll_host()
    assert hw.port.frames() == [
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
    frames = hw.port.frames()
    assert frames[0][0] == "ERR" and frames[0][1][:2] == ["0001", "SET"]
    assert "debounce 2 ms out of 5..500" in " ".join(frames[0][1])
    assert frames[1][0] == "ERR" and frames[1][1][:2] == ["0002", "LED"]
    assert frames[2] == ("ERR", ["0003", "ZAP", "unknown", "command"])
    assert len(frames) == 3
    assert a.scanner.debounce_ms == 30 and hw.led.shown == (0, 0, 0)
    a.send_heartbeat(5000)
    hb = dict(x.split("=", 1) for x in hw.port.frames()[0][1])
    assert hb["bad"] == "2" and hb["cmd"] == "3"


def test_raw_gives_every_hole_its_levels_and_zeros():
    hw, a = make()
    hw.put_magnets(2, "S-NN")
    a.scan_cycle(0)
    hw.port.frames()
    hw.port.send(5, "RAW")
    a.poll_host()
    frames = hw.port.frames()
    assert [f[0] for f in frames] == ["RAW"] * 10 + ["OK"]
    assert frames[1][1] == ["2", "20768,32768,44768,44768", "32768,32768,32768,32768"]


def test_calibration_refuses_a_pair_in_a_hole_then_succeeds_and_persists():
    hw, a = make()
    hw.put_magnets(6, "N-NN")
    hw.port.send(1, "CAL")
    a.poll_host()
    run_scans(a, 0, 400)
    frames = [f for f in hw.port.frames() if f[0] in ("OK", "ERR")]
    assert frames[0][0] == "ERR" and frames[0][1][:2] == ["0001", "CAL"]
    assert "remove the pair from hole 6" in " ".join(frames[0][1])
    hw.put_magnets(6, "----")
    for k in range(40):
        hw.sensors.set(k, 32000 + k)  # each sensor's own offset
    hw.port.send(2, "CAL")
    a.poll_host()
    run_scans(a, 1000, 400)
    frames = [f for f in hw.port.frames() if f[0] in ("OK", "ERR")]
    assert frames == [("OK", ["0002", "CAL", "sensors=40"])]
    assert a.scanner.zero[39] == 32039
    # a reboot loads the stored calibration
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
    assert hw.port.frames() == [
        ("CARD", ["+", hexes[0]]), ("CARD", ["-", hexes[0]]),
        ("CARD", ["+", hexes[1]]), ("CARD", ["-", hexes[1]]),
    ]


def test_the_snapshot_carries_the_card_in_the_field_and_the_button():
    hw, a = make()
    hw.rfid.set_field([UID4])
    a.poll_rfid()
    hw.button.pressed = 1
    a.poll_button(0)
    a.poll_button(25)
    hw.port.frames()
    a.send_snapshot()
    snap = dict(x.split("=", 1) for x in hw.port.frames()[0][1])
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
    assert hw.port.frames() == [("BTN", ["1"]), ("BTN", ["0"])]


def test_a_dead_reader_is_reported_at_boot_and_the_board_keeps_scanning():
    hw, a = make(booted=False)
    hw.rfid.version = 0x00
    a.boot()
    frames = hw.port.frames()
    assert frames[0][0] == "FAULT" and frames[0][1][:2] == ["rfid", "reader"]
    hello = dict(x.split("=", 1) for x in frames[1][1])
    assert hello["rfid"] == "none"
    snap = dict(x.split("=", 1) for x in frames[2][1])
    assert snap["faults"] == "rfid"
    hw.put_magnets(1, "NN-N")
    run_scans(a, 0, 60)
    assert ("HOLE", ["1", str(1 + 3 + 27)]) in hw.port.frames()


def test_a_floating_sensor_is_a_fault_and_its_hole_is_not_misreported():
    hw, a = make()
    hw.sensors.set(9, 200)  # hole 3 position 2 at the low rail
    run_scans(a, 0, 60)
    frames = hw.port.frames()
    assert frames == [("FAULT", ["sensor", "s10", "rail", "low"])]
    a.send_snapshot()
    snap = dict(x.split("=", 1) for x in hw.port.frames()[0][1])
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
    frames = hw.port.frames()
    assert ("FAULT", ["exc", "loop", "RuntimeError:", "adc", "glitch"]) in frames
    assert a.scans >= start + 3 and hw.wdt.feeds >= 3


def test_reboot_answers_then_resets_the_board():
    hw, a = make()
    hw.port.send(3, "REBOOT")
    a.poll_host()
    assert hw.port.frames() == [("OK", ["0003", "REBOOT"])]
    assert hw.resets == 1


def test_a_snapshot_with_every_sensor_faulted_still_fits_one_frame():
    hw, a = make()
    for k in range(40):
        if k not in (5, 6):
            hw.sensors.set(k, 100)  # railed low: every sensor but hole 2's P2 and P3
    run_scans(a, 0, 30)
    hw.port.frames()
    a.send_snapshot()
    frames = hw.port.frames()
    assert len(frames) == 1
    snap = dict(x.split("=", 1) for x in frames[0][1])
    assert snap["faults"] == "s1-5,s8-40"
