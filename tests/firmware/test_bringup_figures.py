# The board's own figures for a first build (docs/build.md, "Bring-up"): the heartbeat's late
# scans, card reads and free heap, and HELLO's resets since power-on, kept in RTC memory
# (lib/resets.py). Runs under pytest and under the MicroPython unix port.
import time

import resets
from app_harness import UID7, make, sent
import service  # HELLO and SNAP are sent by the board's service side

YEAR_S = 365 * 86400


def heartbeat(a):
    """The next heartbeat's arguments as a dict, and its whole line's length in bytes."""
    sent(a)
    a.send_heartbeat(time.ticks_ms())
    (frame,) = sent(a)
    assert frame[0] == "HB", frame
    length = len("@0000 HB") + sum(1 + len(x) for x in frame[1]) + len("*CCCC\r\n")
    return dict(x.split("=", 1) for x in frame[1]), length


def test_card_reads_are_counted_while_a_card_lies_on_the_reader_and_stop_when_it_goes():
    hw, a = make()
    hb, _ = heartbeat(a)
    assert hb["reads"] == "0", hb
    hw.rfid.set_field([UID7])
    for _ in range(30):  # ten reads of three exchanges each
        a.poll_rfid()
    hb, _ = heartbeat(a)
    assert hb["reads"] == "10", hb
    hw.rfid.set_field([])
    for _ in range(5):
        a.poll_rfid()
    hb, _ = heartbeat(a)
    assert hb["reads"] == "0", hb  # since the last heartbeat: the card is gone


def test_late_scans_are_counted_from_half_a_period_behind_and_the_count_starts_again():
    hw, a = make()
    t = time.ticks_ms()
    a._next_scan = t
    a.step(t + 3)  # 3 ms behind: on time enough
    a._next_scan = t + 100
    a.step(t + 106)  # 6 ms behind: late
    a._next_scan = t + 200
    a.step(t + 240)  # 40 ms behind: late
    hb, _ = heartbeat(a)
    assert hb["nlate"] == "2", hb
    assert int(hb["late"]) >= 40, hb
    hb, _ = heartbeat(a)
    assert hb["nlate"] == "0", hb


def test_the_heap_is_told_in_kb_and_its_low_water_mark_only_falls():
    hw, a = make()
    hb, _ = heartbeat(a)
    heap, low = int(hb["heap"]), int(hb["heaplo"])
    assert 0 < low <= heap, hb  # (the first heartbeat's heap is its low-water mark too)
    a.heap_low = 1024  # as if a heartbeat had once seen 1 KB free
    hb, _ = heartbeat(a)
    assert hb["heaplo"] == "1" and int(hb["heap"]) > 1, hb


def test_a_heartbeat_of_a_board_up_for_a_year_with_busy_counters_fits_one_frame():
    hw, a = make()
    a._up_s = YEAR_S
    a.scans = 999999999
    a.cmds = a.bad = a.faults = 999999
    a.cards.errors = a.cards.reinits = 999999
    a.out.dropped = 999999
    a.late_ms = 9999
    a.late_n = 100
    a.reads = 50
    a._per_sum, a._per_n, a._per_max = 99999, 1, 999999
    hb, length = heartbeat(a)
    assert length <= 200, length
    for key in ("odrop", "nlate", "reads", "heap", "heaplo"):  # the last fields came whole
        assert key in hb, hb
    assert hb["odrop"] == "999999" and hb["nlate"] == "100" and hb["reads"] == "50", hb


def test_resets_are_counted_by_cause_until_a_power_on_clears_them():
    mem = resets.update(b"", b"power")
    assert resets.counts(mem) == b"0,0,0,0"
    for cause in (b"soft", b"soft", b"wdt", b"hard", b"deepsleep", b"other"):
        mem = resets.update(bytes(mem), cause)
    assert resets.counts(mem) == b"2,1,1,2"
    mem = resets.update(bytes(mem), b"power")
    assert resets.counts(mem) == b"0,0,0,0"


def test_memory_that_is_not_ours_counts_from_zero_and_a_count_stops_at_255():
    mem = resets.update(b"\xff" * 8, b"wdt")  # garbage after a power cut
    assert resets.counts(mem) == b"0,0,1,0"
    mem = resets.update(b"upRS\x00\x00\xff\x00", b"wdt")
    assert resets.counts(mem) == b"0,0,255,0"


def test_hello_names_the_resets_since_power_on_when_the_board_keeps_them():
    hw, a = make()
    service.hello(a)
    args = sent(a)[0][1]
    assert not [x for x in args if x.startswith("resets=")], args  # a board without RTC memory
    hw.reset_counts = b"0,3,1,0"
    service.hello(a)
    args = sent(a)[0][1]
    assert "resets=0,3,1,0" in args, args
