# The board's behaviour as the host sees it: frames out for physical changes and commands in,
# on a fake board (app_harness.py). How run() starts and ends is in test_run.py, the service
# side (HELLO, SNAP, RAW, CAL, REBOOT) in test_service.py. Runs under pytest and under the
# MicroPython unix port.

from app_harness import UID4, UID7, make, run_scans, sent


def test_a_seated_end_is_reported_by_its_first_scan_an_empty_hole_after_two_anything_else_after_the_debounce():
    hw, a = make()
    t = 1000
    hw.put_magnets(4, "NNN-")  # three magnets: a whole end, seated
    t = run_scans(a, t, 10)
    assert sent(a) == [("HOLE", ["4", str(1 + 3 + 9)])]  # no pair on its way reads three magnets
    hw.put_magnets(4, "----")  # pulled: no magnet is also a code that cannot be passing
    t = run_scans(a, t, 10)
    assert sent(a) == []  # seen once: a bounce as a pair is put down reads so for a moment
    t = run_scans(a, t, 10)
    assert sent(a) == [("HOLE", ["4", "0"])]  # still empty 10 ms later (two scans)
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
    assert hw.buzzer.duty == 0  # the pattern over: silent


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

