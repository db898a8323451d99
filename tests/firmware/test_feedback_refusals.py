# A malformed LED or BEEP from the host: refused with its reason, by service.py (loaded for it,
# so the reasons' words take no heap while a game runs), and nothing changes. In a module of its
# own: MicroPython's table of names of the App's other tests is full (test_firmware_under_micropython.py).
# Runs under pytest and under the MicroPython unix port.

import sys
import time

from app_harness import make, sent


def test_a_malformed_led_or_beep_is_refused_with_its_reason_and_changes_nothing():
    hw, a = make()
    a.step(time.ticks_ms())  # booted: service.py let go, so its words are loaded for a refusal
    assert "service" not in sys.modules
    bad = [
        ("LED", [], "LED needs a colour rrggbb"),
        ("LED", ["green"], "LED colour must be 6 hex digits rrggbb, got 'green'"),
        ("LED", ["00FF00", "soon"], "LED time must be a whole number of ms, got 'soon'"),
        ("BEEP", [], "BEEP needs a pattern hz:ms,..."),
        ("BEEP", ["880-100"], "beep step must be hz:ms, got '880-100'"),
        ("BEEP", ["880:100,9:50"], "beep frequency out of 20..20000 Hz: 9"),
        ("BEEP", ["880:0"], "beep step out of 1..5000 ms: 0"),
        ("BEEP", [",".join(["440:10"] * 9)], "beep pattern has 9 steps, at most 8"),
    ]
    t = time.ticks_ms()
    for seq, (cmd, args, why) in enumerate(bad, 1):
        hw.port.send(seq, cmd, args)
        frames = []
        for _ in range(10):  # service.py loaded at one pass, the refusal at a later one
            t += 10
            a.step(t)
            frames += [f for f in sent(a) if f[0] in ("OK", "ERR")]
            if frames:
                break
        assert frames == [("ERR", ["%04X" % seq, cmd] + why.split())], (cmd, args, frames)
    assert hw.led.shown == (0, 0, 0) and hw.buzzer.duty == 0 and hw.buzzer.log in ([], [0])  # nothing played
    hw.port.send(20, "LED", ["00FF00", "500"])  # a good one after them: at once
    a.poll_host()
    assert sent(a) == [("OK", ["0014", "LED"])] and hw.led.shown == (0, 255, 0)
