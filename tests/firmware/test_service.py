# The board's service side (service.py: HELLO, SNAP, RAW, CAL, SET, REBOOT), as the host sees
# it through the App on a fake board, and that it is loaded only when asked for and let go.
# Runs under pytest and under the MicroPython unix port.
import gc
import time

import app
from app_harness import CAL_PATH, UID4, make, rm, run_scans, sent
from fake_board import FakeHw
import service  # HELLO and SNAP are sent by the board's service side


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


def test_raw_gives_every_hole_its_levels_and_zeros():
    hw, a = make()
    hw.put_magnets(2, "S-NN")
    a.scan_cycle(0)
    sent(a)
    hw.port.send(5, "RAW")
    t = time.ticks_ms()
    frames = []
    for i in range(100):  # until the OK: a frame a pass at most, two scans apart at most
        a.step(t + 10 * i)
        got = [f for f in sent(a) if f[0] in ("RAW", "OK")]
        assert len([f for f in got if f[0] == "RAW"]) <= 1, got  # a hole's frame a pass of the loop
        frames += got
        if got and got[-1][0] == "OK":
            break
    assert [f[0] for f in frames] == ["RAW"] * 10 + ["OK"]
    assert [f[1][0] for f in frames[:10]] == [str(h) for h in range(1, 11)]
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
    assert b.scanner.zero[5] == 32005
    rm(CAL_PATH)


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
    service.snapshot(a)
    snap = dict(x.split("=", 1) for x in sent(a)[0][1])
    assert snap["card"] == "DEADBEEF" and snap["btn"] == "1" and snap["presses"] == "1"


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
    service.snapshot(a)
    frames = sent(a)
    assert len(frames) == 1
    snap = dict(x.split("=", 1) for x in frames[0][1])
    assert snap["faults"] == "s1-5,s8-40"


def test_calibration_raw_dumps_and_set_up_are_loaded_when_asked_for_and_let_go():
    import sys

    for name in ("calib", "service", "mfrc522_setup"):
        if name in sys.modules:  # under pytest, the tests of those modules share the process
            del sys.modules[name]
    hw, a = make()
    a.step(time.ticks_ms())
    for name in ("calib", "service", "mfrc522_setup"):
        assert name not in sys.modules, name  # booted, and none of them kept
    hw.port.send(1, "RAW")
    t = time.ticks_ms()
    frames = []
    loaded = False
    for i in range(100):  # service.py loaded, then a hole's frame a pass at most, the OK with the last
        a.step(t)
        t += 10
        loaded = loaded or "service" in sys.modules
        frames += sent(a)
        if ("OK", ["0001", "RAW"]) in frames:
            break
    assert loaded  # for the command
    a.step(t)
    assert "service" not in sys.modules  # and let go at the loop's next pass
    assert [f[0] for f in frames].count("RAW") == 10
    assert ("OK", ["0001", "RAW"]) in frames
    hw.port.send(2, "CAL")
    for i in range(5):  # service.py loaded for it, the command carried out within two scans
        t += 10
        a.step(t)
        if a.cal is not None:
            break
    assert "calib" in sys.modules and a.cal is not None  # while the scans are averaged
    t = run_scans(a, t + 10, 400)
    a.step(t)
    assert a.cal is None and "calib" not in sys.modules and "service" not in sys.modules
    assert ("OK", ["0002", "CAL", "sensors=40"]) in sent(a)
