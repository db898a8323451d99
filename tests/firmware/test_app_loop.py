# The loop on the fake board, continued from test_app.py: the reader, the sensors' faults, the
# heartbeat. A module of its own so that each process of the firmware's tests under the unix
# port holds fewer names than a new pool of them would need (tests/micropython_port).
import time

from app_harness import UID7, make, run_scans, sent
import service  # HELLO and SNAP are sent by the board's service side


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
    service.snapshot(a)
    snap = dict(x.split("=", 1) for x in sent(a)[0][1])
    assert snap["faults"] == "s10" and snap["holes"].split(",")[2] == "0"


def test_the_heartbeat_says_how_the_loop_keeps_up():
    hw, a = make()
    t = time.ticks_ms()
    due = {}  # the first heartbeat's time as the loop sets it, moved on when it is sent

    def until():  # it is sent, or 10 s went by (a loaded machine may hold the loop up past its second)
        first = due.setdefault("hb", a._next_hb)
        return a._next_hb != first or time.ticks_diff(time.ticks_ms(), t) > 10000

    a.loop(until=until)
    hbs = [dict(x.split("=", 1) for x in f[1]) for f in sent(a) if f[0] == "HB"]
    assert hbs, "no heartbeat in 10 s"
    hb = hbs[-1]
    for key in ("late", "tscan", "tmax", "odrop"):
        assert key in hb, hb
    assert int(hb["tmax"]) >= int(hb["tscan"]) > 0
    assert int(hb["odrop"]) == 0


def test_a_card_is_read_even_when_the_scans_leave_the_reader_no_slot():
    # a chip so slow that each scan takes its whole period: no RFID exchange ever fits before
    # the next scan, yet the card on the reader is read and sent (the next scan comes late)
    hw, a = make()
    scan = a.scan_cycle

    def slow_scan(now):
        scan(now)
        time.sleep_ms(10)  # the scan overruns its slot: a slower machine only overruns it more

    a.scan_cycle = slow_scan
    hw.rfid.set_field([UID7])
    t = time.ticks_ms()
    for i in range(12):  # 120 ms of the board's time
        a.step(time.ticks_add(t, 10 * i))
    assert ("CARD", ["+", "04A1B2C3D4E5F6"]) in sent(a)
    assert a._rfid_left_us() < 2000  # no exchange ever had a slot of its own
