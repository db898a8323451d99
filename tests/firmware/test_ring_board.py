# The board's kept events through the App (firmware/lib/ring.py, firmware/lib/since.py): SINCE
# through the App's command loop, HELLO saying the board keeps events, and a loop that writes to
# a wrapping ring and replays from it with the heap locked. Apart from test_ring.py, whose tests
# need no App: under the MicroPython unix port one module holding both outgrew the table of names
# (see tests/micropython_port/test_firmware_under_micropython.py). Runs under pytest and under
# the MicroPython unix port.
import binascii
import gc
import os
import time

from heap_lock import without_allocating

import since
import service  # HELLO and SNAP are sent by the board's service side

# this process's own file: the CPython and the MicroPython runs of these tests (and other
# checkouts' test runs) may write their calibration at the same time
CAL_PATH = "/tmp/upref-test-ring-board-calib-%s.json" % binascii.hexlify(os.urandom(4)).decode()


def _rm(path):
    try:
        os.remove(path)
    except OSError:
        pass


# the NDEF message of one short URI record, upref:updown/T05 (docs/tags.md)
T05 = b"\xd1\x01\x11U\x00upref:updown/T05"


def _app(message=None):
    """A booted App on a fake board; with `message`, every 7-byte card's sticker carries it."""
    import app
    from fake_board import FakeHw, FakeTags

    gc.collect()
    _rm(CAL_PATH)
    hw = FakeHw()
    if message is not None:
        hw.tags = FakeTags(message)
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


def test_a_sticker_s_record_comes_back_before_its_card_through_the_board():
    from fake_board import UID7_FOR_ALLOC

    hw, a = _app(T05)
    t = time.ticks_ms()
    last = (a.w.seq - 1) & 0xFFFF
    hw.rfid.field = [UID7_FOR_ALLOC]
    for i in range(40):
        a.step(time.ticks_add(t, 10 * i))
    hw.rfid.field = []
    for i in range(40, 80):
        a.step(time.ticks_add(t, 10 * i))
    a.out.flush()
    live = [f for f in hw.port.frames() if f[0] in ("TAG", "CARD")]
    want = "".join("%02X" % c for c in T05)
    assert live == [("TAG", ["04112233445566", "21", want]), ("CARD", ["+", "04112233445566"]),
                    ("CARD", ["-", "04112233445566"])], live
    hw.port.send(9, "SINCE", ["%04X" % last])
    for i in range(80, 120):
        a.step(time.ticks_add(t, 10 * i))
        a.out.flush()
    got = hw.port.frames()
    olds = [f[1] for f in got if f[0] == "OLD"]
    assert [(o[2], o[3:]) for o in olds] == live, olds  # the record first, as it came live
    assert int(olds[0][0], 16) == int(olds[1][0], 16) - 1  # the TAG frame's own number
    assert olds[0][1] == olds[1][1]  # timed as its card
    assert ("OK", ["0009", "SINCE", "n=2", "lost=0"]) in got, got


def test_hello_says_its_boot_and_that_it_keeps_events():
    hw, a = _app()
    service.hello(a)
    a.out.flush()
    (ftype, args), = hw.port.frames()
    kv = dict(x.split("=", 1) for x in args)
    assert ftype == "HELLO" and kv["proto"] == "2" and "since" in kv["caps"].split(",")
    assert kv["boot"] == a.boot_id.decode()


def test_a_loop_that_fills_a_wrapping_ring_and_replays_from_it_allocates_nothing():
    # HOLE, CARD (with its sticker's record) and BTN events into a ring of 8 that wraps many
    # times, and a replay under way, all with the heap locked (SINCE itself is parsed by
    # wire.split, which allocates: it is started before the lock).
    from fake_board import UID7_FOR_ALLOC

    hw, a = _app(T05)
    from ring import Ring as R

    t0 = a.ring.t0
    a.ring = R(lambda: time.ticks_diff(time.ticks_ms(), t0), 8)  # (timed as the App's: not kept past this test)
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
