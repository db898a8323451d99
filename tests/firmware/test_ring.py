# The board keeps its recent events (firmware/lib/ring.py) and replays them for SINCE: the
# ring's wrap and overrun, the exact count of what it lost, the sequence number's wrap at
# 0xFFFF, SINCE through the App's command loop, and a loop that writes to a wrapping ring and
# replays from it with the heap locked. Runs under pytest and under the MicroPython unix port.
import binascii
import gc
import os
import time

from heap_lock import without_allocating

import wire
from fake_hall import NullOut
import since
from ring import Ring

# this process's own file: the CPython and the MicroPython runs of these tests (and other
# checkouts' test runs) may write their calibration at the same time
CAL_PATH = "/tmp/upref-test-ring-calib-%s.json" % binascii.hexlify(os.urandom(4)).decode()


class Clock:
    def __init__(self):
        self.ms = 0

    def __call__(self):
        return self.ms


def _writer(slots=8, seq=0):
    gc.collect()
    clock = Clock()
    r = Ring(clock, slots)
    out = NullOut(4096)
    w = wire.FrameWriter(out, r)
    w.seq = seq
    r.seq = seq
    return w, r, out, clock


def _event(w, clock, hole, code):
    clock.ms += 10
    w.begin(b"HOLE", True)
    w.arg_int(hole)
    w.arg_int(code)
    w.end()
    return (w.seq - 1) & 0xFFFF


def _beat(w):
    w.begin(b"HB")
    w.kv(b"up", 1)
    w.end()


def _frames(out):
    got = []
    for line in out.lines():
        star = wire.check(line, len(line))
        assert star > 0, line
        got.append(wire.split(line, star))
    out.n = 0
    return got


def _replay(w, r, out, since_seq, cmd=0x77):
    out.n = 0
    since.start(r, cmd, since_seq)
    passes = 0
    while r.replaying:
        since.step(r, w, 1024)
        passes += 1
        assert passes < 1000
    got = _frames(out)
    olds = [(a[0], int(a[1]), " ".join(a[2:])) for _, t, a in got if t == "OLD"]
    ok = [a for _, t, a in got if t == "OK"]
    assert len(ok) == 1 and ok[0][:2] == ["%04X" % cmd, "SINCE"], got
    kv = dict(x.split("=", 1) for x in ok[0][2:])
    return olds, kv


def test_events_after_a_sequence_number_come_back_in_order_with_their_time():
    w, r, out, clock = _writer()
    _event(w, clock, 1, 13)
    _beat(w)
    s2 = _event(w, clock, 2, 0)
    _beat(w)
    _event(w, clock, 3, 40)
    _event(w, clock, 4, 41)
    olds, kv = _replay(w, r, out, s2)
    assert olds == [("0004", 30, "HOLE 3 40"), ("0005", 40, "HOLE 4 41")], olds
    assert kv == {"n": "2", "lost": "0"}
    olds, kv = _replay(w, r, out, (w.seq - 1) & 0xFFFF)  # the last frame: nothing after it
    assert olds == [] and kv == {"n": "0", "lost": "0"}


def test_an_overrun_ring_keeps_the_newest_and_counts_exactly_what_it_lost():
    w, r, out, clock = _writer(slots=8)
    start = _event(w, clock, 1, 1)
    for i in range(30):  # 30 events, a heartbeat between every three
        _event(w, clock, 1 + i % 10, 13)
        if i % 3 == 2:
            _beat(w)
    olds, kv = _replay(w, r, out, start)
    assert len(olds) == 8 and kv == {"n": "8", "lost": "22"}, kv
    seqs = [int(o[0], 16) for o in olds]
    assert seqs == sorted(seqs)
    assert olds[-1][2] == "HOLE 10 13"
    olds, kv = _replay(w, r, out, None)  # SINCE all: all that is kept, all lost since boot
    assert len(olds) == 8 and kv == {"n": "8", "lost": "23"}, kv


def test_the_sequence_number_wraps_at_ffff():
    w, r, out, clock = _writer(slots=16, seq=0xFFFA)
    seqs = [_event(w, clock, 5, i) for i in range(10)]
    assert seqs[:6] == [0xFFFA, 0xFFFB, 0xFFFC, 0xFFFD, 0xFFFE, 0xFFFF] and seqs[6] == 0
    olds, kv = _replay(w, r, out, 0xFFFD)
    assert [o[0] for o in olds] == ["FFFE", "FFFF", "0000", "0001", "0002", "0003"], olds
    assert kv == {"n": "6", "lost": "0"}


def test_beyond_the_bitmap_lost_is_at_least():
    w, r, out, clock = _writer(slots=4)
    start = _event(w, clock, 1, 1)
    for i in range(2500):
        _beat(w)
        if i % 50 == 0:
            _event(w, clock, 2, i % 80)
        if out.n > 3000:
            out.n = 0
    olds, kv = _replay(w, r, out, start)
    assert len(olds) == 4
    assert kv["lost"].startswith(">") and int(kv["lost"][1:]) >= 30, kv  # 47 lost, 40 within reach


def test_a_long_fault_is_cut_still_well_formed():
    w, r, out, clock = _writer()
    w.begin(b"FAULT", True)
    w.arg(b"exc")
    w.arg(b"loop")
    w.arg(b"ValueError: " + b"x" * 20 + b" " + b"y" * 100)
    w.end()
    olds, kv = _replay(w, r, out, 0xFFFF)
    assert len(olds) == 1 and len(olds[0][2]) <= 32 and olds[0][2].startswith("FAULT exc loop")
    assert not olds[0][2].endswith(" ")


def _rm(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _app():
    import app
    from fake_board import FakeHw

    gc.collect()
    _rm(CAL_PATH)
    hw = FakeHw()
    a = app.App(hw, calib_path=CAL_PATH)
    a.boot()
    a.out.flush()
    hw.port.frames()
    return hw, a


def test_since_through_the_board_replays_a_tap_and_a_press_in_order():
    from fake_board import UID7_FOR_ALLOC

    hw, a = _app()
    t = time.ticks_ms()
    last = (a.w.seq - 1) & 0xFFFF  # the SNAP after boot: the host has it
    hw.rfid.field = [UID7_FOR_ALLOC]
    for i in range(40):
        a.step(time.ticks_add(t, 10 * i))
    hw.rfid.field = []
    hw.button.pressed = 1
    for i in range(40, 80):
        a.step(time.ticks_add(t, 10 * i))
    hw.button.pressed = 0
    for i in range(80, 120):
        a.step(time.ticks_add(t, 10 * i))
    a.out.flush()
    live = [f for f in hw.port.frames() if f[0] in ("CARD", "BTN")]
    assert sorted(f[0] + " " + " ".join(f[1]) for f in live) == [
        "BTN 0", "BTN 1", "CARD + 04112233445566", "CARD - 04112233445566"], live
    hw.port.send(9, "SINCE", ["%04X" % last])
    for i in range(120, 160):
        a.step(time.ticks_add(t, 10 * i))
        a.out.flush()
    got = hw.port.frames()
    olds = [f[1] for f in got if f[0] == "OLD"]
    assert [(o[2], o[3:]) for o in olds] == live, olds  # as they happened, in their order
    ms = [int(o[1]) for o in olds]
    assert ms == sorted(ms) and ms[0] >= 0
    assert ("OK", ["0009", "SINCE", "n=4", "lost=0"]) in got, got
    hw.port.send(10, "SINCE", ["zz"])
    f = []
    for i in range(160, 165):  # since.py is loaded for it: the command within two scans
        a.step(time.ticks_add(t, 10 * i))
        a.out.flush()
        f += [x for x in hw.port.frames() if x[0] not in ("HB", "HOLE")]
    assert f[0][0] == "ERR" and f[0][1][:2] == ["000A", "SINCE"], f


def test_hello_says_its_boot_and_that_it_keeps_events():
    hw, a = _app()
    a.send_hello()
    a.out.flush()
    (ftype, args), = hw.port.frames()
    kv = dict(x.split("=", 1) for x in args)
    assert ftype == "HELLO" and kv["proto"] == "2" and "since" in kv["caps"].split(",")
    assert kv["boot"] == a.boot_id.decode()


def test_a_loop_that_fills_a_wrapping_ring_and_replays_from_it_allocates_nothing():
    # HOLE, CARD and BTN events into a ring of 8 that wraps many times, and a replay under way,
    # all with the heap locked (SINCE itself is parsed by wire.split, which allocates: it is
    # started before the lock).
    from fake_board import UID7_FOR_ALLOC

    hw, a = _app()
    from ring import Ring as R

    a.ring = R(a.uptime, 8)  # (timed by the App: this test's ring is not kept past it)
    a.w.ring = a.ring
    t = time.ticks_ms()
    present = [UID7_FOR_ALLOC]
    nothing = []
    hw.rfid.field = present  # warm every path once
    hw.put_magnets(2, "NNN-")
    hw.button.pressed = 1
    for i in range(60):
        a.step(time.ticks_add(t, 10 * i))
    hw.rfid.field = nothing
    hw.put_magnets(2, "----")
    hw.button.pressed = 0
    for i in range(60, 120):
        a.step(time.ticks_add(t, 10 * i))
    a.replay = since
    since.start(a.ring, 5, None)
    a.out.flush()
    hw.port.frames()
    before = a.ring.total

    def steps():
        for i in range(120, 520):
            k = i % 40
            if k == 0:
                hw.put_magnets(2, "NNN-")
                hw.button.pressed = 1
            elif k == 10:
                hw.rfid.field = present
            elif k == 20:
                hw.put_magnets(2, "----")
                hw.button.pressed = 0
            elif k == 30:
                hw.rfid.field = nothing
            a.step(time.ticks_add(t, 10 * i))
            if a.out.queued > 600:
                a.out.flush()  # the fake port has 4 KB; the test reads it after the lock
            if hw.port._n > 3000:
                hw.port._n = 0

    without_allocating(steps)
    assert a.ring.total - before >= 40, a.ring.total - before  # wrapped five times over
    assert not a.ring.replaying
    gc.collect()
