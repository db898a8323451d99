# The board keeps its recent events (firmware/lib/ring.py) and replays them for SINCE: the
# ring's wrap and overrun, the exact count of what it lost, the sequence number's wrap at
# 0xFFFF, a tag's record replayed before its CARD + (and the records kept: the last taps'). Through the App: test_ring_board.py. Runs under pytest and under the MicroPython unix
# port.
import gc

import wire
from fake_hall import NullOut
from heap_lock import without_allocating
import since
from ring import Ring


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


def test_the_longest_fault_of_a_sensor_comes_back_whole():
    w, r, out, clock = _writer()
    w.begin(b"FAULT", True)
    w.arg(b"sensor")
    w.arg(b"s40")
    w.arg(b"never settles")
    w.end()
    olds, kv = _replay(w, r, out, None)
    assert [o[2] for o in olds] == ["FAULT sensor s40 never settles"], olds


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


# the NDEF message of one short URI record, upref:updown/T05 (docs/tags.md)
T05 = b"\xd1\x01\x11U\x00upref:updown/T05"
UID = b"04A1B2C3D4E5F6"


def _tap(w, r, clock, uid, message, length=-1):
    """A card arrives carrying `message` (its length as the tag says: `length`, or the
    message's own), as app.App.poll_rfid sends it: TAG, its record kept, then CARD +."""
    clock.ms += 10
    w.begin(b"TAG")
    w.arg(uid)
    w.arg_int(len(message) if length < 0 else length)
    w.arg(b"" if message else b"-")
    for i in range(len(message)):
        w.hex(message[i], 2)
    w.end()
    r.tag(len(message) if length < 0 else length, message, len(message))
    w.begin(b"CARD", True)
    w.arg(b"+")
    w.arg(uid)
    w.end()
    return (w.seq - 1) & 0xFFFF


def _card_left(w, clock, uid):
    clock.ms += 10
    w.begin(b"CARD", True)
    w.arg(b"-")
    w.arg(uid)
    w.end()


def test_a_tag_s_record_comes_back_just_before_its_card():
    w, r, out, clock = _writer()
    start = _event(w, clock, 1, 13)
    card = _tap(w, r, clock, UID, T05)
    _beat(w)
    _card_left(w, clock, UID)
    blank = _tap(w, r, clock, b"04112233445566", b"")
    olds, kv = _replay(w, r, out, start)
    assert olds == [
        ("%04X" % (card - 1), 20, "TAG 04A1B2C3D4E5F6 21 " + "".join("%02X" % c for c in T05)),
        ("%04X" % card, 20, "CARD + 04A1B2C3D4E5F6"),
        ("%04X" % (card + 2), 30, "CARD - 04A1B2C3D4E5F6"),
        ("%04X" % (blank - 1), 40, "TAG 04112233445566 0 -"),
        ("%04X" % blank, 40, "CARD + 04112233445566"),
    ], olds
    assert kv == {"n": "3", "lost": "0"}  # the three events; their records ride along
    olds, kv = _replay(w, r, out, card + 2)  # after the departure: the blank sticker alone
    assert [o[2] for o in olds] == ["TAG 04112233445566 0 -", "CARD + 04112233445566"], olds


def test_a_card_with_no_record_comes_back_alone():
    w, r, out, clock = _writer()
    _tap(w, r, clock, UID, T05)
    _beat(w)
    clock.ms += 10
    w.begin(b"CARD", True)  # a MIFARE card: no TAG before it
    w.arg(b"+")
    w.arg(b"DEADBEEF")
    w.end()
    olds, kv = _replay(w, r, out, None)
    assert [o[2].split(" ")[0] for o in olds] == ["TAG", "CARD", "CARD"], olds
    assert olds[-1][2] == "CARD + DEADBEEF" and kv == {"n": "2", "lost": "0"}


def test_the_records_of_the_last_taps_are_kept_and_an_older_tap_comes_back_without_its_own():
    w, r, out, clock = _writer(slots=64)
    start = (w.seq - 1) & 0xFFFF
    longest = b"\xd1\x01\x18U\x00upref:flipabird/WHITE07"  # the longest of upref's own
    assert len(longest) == 28
    for i in range(10):  # ten records of upref's own: the last eight are kept, whatever the game
        _tap(w, r, clock, b"04A1B2C3D4E5%02X" % i, longest if i % 2 else T05)
        _card_left(w, clock, b"04A1B2C3D4E5%02X" % i)
    olds, kv = _replay(w, r, out, start)
    tagged = [o[2].split(" ")[1] for o in olds if o[2].startswith("TAG")]
    assert tagged == ["04A1B2C3D4E5%02X" % i for i in range(2, 10)], tagged
    assert kv == {"n": "20", "lost": "0"}
    long = bytes(range(64))
    start = (w.seq - 1) & 0xFFFF
    for i in range(5):  # five of the longest: three fit the pool
        _tap(w, r, clock, b"04000000000000", long, 100 + i)
    olds, kv = _replay(w, r, out, start)
    got = [o[2].split(" ")[2:] for o in olds if o[2].startswith("TAG")]
    assert got == [[str(100 + i), long.hex().upper()] for i in (2, 3, 4)], got  # cut, with their length
    assert kv == {"n": "5", "lost": "0"}


def test_keeping_and_replaying_records_allocates_nothing():
    # one tuple closed over: a MicroPython closure of more than a few cells allocates when called
    kit = _writer(slots=8) + (bytearray(UID), bytearray(T05))

    def taps():
        w, r, out, clock, uid, t05 = kit
        for _ in range(20):
            _tap(w, r, clock, uid, t05)
            _card_left(w, clock, uid)
            out.n = 0
        since.start(r, 5, None)
        while r.replaying:
            since.step(r, w, 1024)
            if out.n > 3000:
                out.n = 0

    taps()  # every path once
    w, r, out, clock, _uid, _t05 = kit
    out.n = 0
    without_allocating(taps)
    olds, kv = _replay(w, r, out, None)
    assert [o[2].split(" ")[0] for o in olds[:3]] == ["TAG", "CARD", "CARD"], olds


def _frame(w, clock, ftype, *args, code=()):
    """An event frame; `code`: what the loop tells the ring it is (ring.Ring.code, as app.py
    sets it): its kind and numbers, HOLE 1, BTN 2, FAULT 5, CLEAR 6."""
    clock.ms += 10
    w.begin(ftype, True)
    for a in args:
        w.arg(a)
    if code:
        w.ring.code = sum(c << (8 * i) for i, c in enumerate(code))
    w.end()


def test_every_kind_of_event_comes_back_as_it_was_sent():
    # packed in binary where the loop says what it is or it is a CARD, kept as text where not
    w, r, out, clock = _writer(slots=16)
    sent = [
        ((b"HOLE", b"10", b"80"), (1, 10, 80)), ((b"HOLE", b"1", b"0"), (1, 1, 0)), ((b"BTN", b"1"), (2, 1)),
        ((b"BTN", b"0"), (2, 0)), ((b"CARD", b"+", b"DEADBEEF"), ()), ((b"CARD", b"-", b"04A1B2C3D4E5F6"), ()),
        ((b"CARD", b"+", b"00112233445566778899"), ()),
        ((b"FAULT", b"sensor", b"s40", b"never settles"), (5, 0, 40, 4)), ((b"CLEAR", b"sensor", b"s40"), (6, 0, 40)),
        ((b"FAULT", b"hole", b"h3", b"out of range"), (5, 1, 3, 3)), ((b"CLEAR", b"hole", b"h10"), (6, 1, 10)),
        ((b"FAULT", b"rfid", b"reader", b"no answer"), ()), ((b"CLEAR", b"rfid", b"field"), ()),
        ((b"HOLE", b"3", b"7"), ()), ((b"CARD", b"+", b"04a1"), ()), ((b"CARD", b"+", b"04A"), ()),
    ]
    for args, code in sent:
        _frame(w, clock, *args, code=code)
    olds, kv = _replay(w, r, out, None)
    assert [o[2] for o in olds] == [b" ".join(a).decode() for a, _ in sent], olds
    assert kv == {"n": "16", "lost": "0"}


def _replay_lean(w, r, out):
    """SINCE all, the frames read as they come (a small heap holds 64 at once badly): the
    OLD frames' bodies, their count, and the OK's n= and lost=."""
    out.n = 0
    since.start(r, 0x77, None)
    bodies, n, kv = set(), 0, {}
    while r.replaying:
        since.step(r, w, 1024)
        for _, t, a in _frames(out):
            if t == "OLD":
                bodies.add(" ".join(a[2:]))
                n += 1
            elif t == "OK":
                kv = dict(x.split("=", 1) for x in a[2:])
    return bodies, n, kv


def test_the_ring_keeps_its_64_last_events_of_any_shape_a_game_makes():
    # the longest of them (a CARD of a 10-byte UID, a sensor's FAULT) 64 at a time, then mixed
    for args, code in (((b"CARD", b"+", b"00112233445566778899"), ()),
                       ((b"FAULT", b"sensor", b"s40", b"never settles"), (5, 0, 40, 4))):
        w, r, out, clock = _writer(slots=64)
        for _ in range(70):
            _frame(w, clock, *args, code=code)
        out.n = 0
        bodies, n, kv = _replay_lean(w, r, out)
        assert n == 64 and kv == {"n": "64", "lost": "6"}, kv
        assert bodies == {b" ".join(args).decode()}
    w, r, out, clock = _writer(slots=64)
    for i in range(100):
        h = 1 + i % 10
        _frame(w, clock, *((b"CARD", b"-", b"04A1B2C3D4E5%02X" % i), (b"HOLE", b"%d" % h, b"13"), (b"BTN", b"%d" % (i & 1)),
                           (b"CLEAR", b"hole", b"h%d" % h))[i % 4], code=((), (1, h, 13), (2, i & 1), (6, 1, h))[i % 4])
        out.n = 0
    bodies, n, kv = _replay_lean(w, r, out)
    assert n == 64 and kv == {"n": "64", "lost": "36"}, kv
    assert "CLEAR hole h10" in bodies and "CARD - 04A1B2C3D4E524" in bodies and "CARD - 04A1B2C3D4E520" not in bodies


def test_long_texts_wrap_the_pool_and_push_out_the_oldest_whole():
    w, r, out, clock = _writer(slots=8)
    start = (w.seq - 1) & 0xFFFF
    texts = [b"ValueError: %d " % i + b"x" * (i % 25) for i in range(40)]
    for t in texts:
        _frame(w, clock, b"FAULT", b"exc", b"loop", t)
    olds, kv = _replay(w, r, out, start)
    want = [(b"FAULT exc loop " + t)[:30].rstrip(b" ").decode() for t in texts]
    assert [o[2] for o in olds] == want[40 - len(olds):], olds
    assert 3 <= len(olds) < 8 and int(kv["lost"]) == 40 - len(olds), kv
