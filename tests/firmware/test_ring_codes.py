# The events the loop tells the ring what they are (ring.Ring.code: a sensor's FAULT, a HOLE, a
# BTN), kept in a few bytes each, come back through SINCE as they went out live. Apart from
# test_ring_board.py, whose module is near the unix port's table of names (see
# tests/micropython_port/test_firmware_under_micropython.py). Runs under pytest and under the
# MicroPython unix port.
import time

from app_harness import make


def test_a_sensor_s_fault_a_pair_and_a_press_come_back_as_sent():
    # the loop tells the ring what each of these is, so it keeps them in a few bytes: the
    # replay must still write each one as it went out live
    hw, a = make()
    t = time.ticks_ms()
    last = (a.w.seq - 1) & 0xFFFF
    hw.sensors.set(9, 200)  # hole 3 position 2 at the low rail
    live, olds = [], []
    for i in range(200):
        if i == 60:
            hw.put_magnets(10, "N-SN")
            hw.button.pressed = 1
        elif i == 160:
            hw.port.send(9, "SINCE", ["%04X" % last])
        a.step(time.ticks_add(t, 10 * i))
        a.out.flush()
        for f in hw.port.frames():
            if f[0] in ("FAULT", "CLEAR", "HOLE", "BTN"):
                live.append((f[0], f[1]))
            elif f[0] == "OLD":
                olds.append((f[1][2], f[1][3:]))
    assert live[0] == ("FAULT", ["sensor", "s10", "rail", "low"]) and ("BTN", ["1"]) in live, live
    assert [f for f in live if f[0] == "HOLE"] == [("HOLE", ["10", "46"])], live
    assert olds == live, olds
