# The scan cycle allocates nothing: HallMux.scan (bank by bank, with the switched sensor supply
# of the pin map) -> HoleScanner.update -> HOLE/FAULT/CLEAR
# frames through wire.FrameWriter, run for hundreds of cycles under micropython.heap_lock().
# Under the MicroPython unix port any allocation raises MemoryError; under CPython heap_lock is
# a no-op shim and the test checks the behaviour only.

from array import array
import gc
import sys
import time

import micropython
from heap_lock import without_allocating
from fake_hall import NullOut, Sensors, pinmap
from hallmux import HallMux
from holes import KIND_WORDS, REASON_WORDS, HoleScanner
from holes_settings import HoleSettings

MID = 32768
MAG = 11000
CYCLES = 260
STEP_MS = 10


def _phase(prev, holes=None, sensors=None):
    """A new array of 40 levels: prev with hole codes (hole 1-based -> trits) and raw levels."""
    a = array("H", prev)
    if holes:
        for hole in holes:
            trits = holes[hole]
            for p in range(4):
                t = trits[p]
                a[(hole - 1) * 4 + p] = MID + MAG if t == 1 else (MID - MAG if t == 2 else MID)
    if sensors:
        for k in sensors:
            a[k] = sensors[k]
    return a


def _code(trits):
    return trits[0] + 3 * trits[1] + 9 * trits[2] + 27 * trits[3]


def test_scan_cycle_allocates_nothing():
    pm = pinmap()
    hall = pm["hall"]
    power_on_us = pm["mux"]["power_on_us"]
    pm = None
    gc.collect()
    import wire  # here, on a collected heap: its CRC table wants 2 KB in one piece

    chans = [(c[0], c[1]) for c in hall["channels"]]
    n = len(chans)
    # as built (pinmap.json mux.power): each bank's sensors powered only while it is read
    s = Sensors(chans, switched=True)
    mux = HallMux(s.mux.adcs, s.mux.pins, chans, settle_us=10, power_pins=s.mux.power_pins,
                  power_on_us=power_on_us)
    assert mux.switched
    hs = HoleScanner(hall["holes"], 4, HoleSettings(unstable_ms=500))
    out = NullOut(2048)
    w = wire.FrameWriter(out)
    levels = array("H", [0] * n)

    x = (1, 2, 0, 1)
    y = (2, 2, 2, 0)
    z = (0, 1, 1, 1)
    empty = array("H", [MID] * n)
    p1 = _phase(empty, {3: (1, 0, 0, 0)})  # a pair on its way into hole 3: 1 magnet,
    p2 = _phase(empty, {3: (1, 2, 0, 0)})  # 2 magnets,
    p3 = _phase(empty, {3: x, 10: y})  # in; and a pair dropped into hole 10
    p4 = _phase(p3, {3: (0, 0, 0, 0)})  # hole 3 emptied
    p5 = _phase(p4, sensors={20: 65535})  # hole 6 position 1 shorted to the supply
    p6 = _phase(p4)  # fixed again
    p7 = _phase(p6, {7: z})
    at = array("H", [0, 10, 11, 12, 60, 100, 120, 200])
    phases = [empty, p1, p2, p3, p4, p5, p6, p7]
    n_phases = len(at)
    is_mp = sys.implementation.name == "micropython"
    frames_in_lock = array("H", [0, 0])

    # everything lazily allocated is made here, before the lock: a first scan, update and frame
    s.set_all(empty)
    mux.scan(levels)
    hs.update(levels, 0)
    time.ticks_ms()
    w.begin(b"HELLO")
    w.arg_int(1)
    w.end()
    lock_works = not is_mp

    micropython.heap_lock()
    try:
        ph = 0
        for cycle in range(CYCLES):
            if ph < n_phases and at[ph] == cycle:
                s.set_all(phases[ph])
                ph += 1
            time.ticks_ms()
            mux.scan(levels)
            hs.update(levels, STEP_MS + cycle * STEP_MS)
            for i in range(hs.n_changed):
                h = hs.changed[i]
                w.begin(b"HOLE")
                w.arg_int(h + 1)
                w.arg_int(hs.codes[h])
                w.end()
            ev = hs.fault_events
            for i in range(hs.n_fault_events):
                kind = ev[3 * i]
                why = ev[3 * i + 2]
                w.begin(b"FAULT" if why else b"CLEAR")
                w.arg(KIND_WORDS[kind])
                w.arg_int(ev[3 * i + 1])
                if why:
                    w.arg(REASON_WORDS[why])
                w.end()
            frames_in_lock[0] = w.frames
        if is_mp:
            try:
                bytearray(8)
            except MemoryError:
                lock_works = True
    finally:
        micropython.heap_unlock()

    assert lock_works
    assert out.overflow == 0
    got = []
    for line in out.lines():
        star = wire.check(line, len(line))
        assert star > 0, line
        seq, ftype, args = wire.split(line, star)
        if ftype != "HELLO":
            got.append(ftype + " " + " ".join(args))
    assert frames_in_lock[0] == len(got) + 1
    assert got == [
        "HOLE 3 %d" % _code(x),
        "HOLE 10 %d" % _code(y),
        "HOLE 3 0",
        "FAULT sensor 20 rail high",
        "CLEAR sensor 20",
        "HOLE 7 %d" % _code(z),
    ], got
    assert list(hs.codes) == [0, 0, 0, 0, 0, 0, _code(z), 0, 0, _code(y)]
    # leave a clean heap to whatever the runner imports next (120K is tight under the unix port)
    gc.collect()


def test_a_whole_loop_pass_allocates_nothing():
    # App.step as the board's loop runs it: the scan, the button, RFID reads one exchange at a
    # time (a card arrives, lies there, leaves), the heartbeat, feedback and the output queue
    # pumped into the port. Host commands are parsed by wire.split, which allocates: they are
    # not part of this proof (none arrive here).
    import app
    from fake_board import FakeHw, UID7_FOR_ALLOC

    gc.collect()
    hw = FakeHw()
    a = app.App(hw, calib_path="/tmp/upref-alloc-calib.json")
    a.boot()
    present = [UID7_FOR_ALLOC]
    nothing = []
    t = time.ticks_ms()
    # warm up outside the lock: every path once (a read with a card, a heartbeat, output)
    hw.rfid.field = present
    for i in range(150):
        a.step(time.ticks_add(t, 10 * i))
    hw.rfid.field = nothing
    for i in range(150, 200):
        a.step(time.ticks_add(t, 10 * i))
    a.out.flush()
    hw.port.frames()  # empty the port's buffer
    frames_before = a.w.frames

    def steps():
        for i in range(200, 500):
            if i == 250:
                hw.rfid.field = present
            elif i == 400:
                hw.rfid.field = nothing
            a.step(time.ticks_add(t, 10 * i))

    without_allocating(steps)
    frames = a.w.frames - frames_before
    assert frames >= 4, frames  # CARD +, CARD -, and heartbeats, written in the lock
    a.out.flush()
    got = [f[0] for f in hw.port.frames()]
    assert "CARD" in got and "HB" in got, got
    gc.collect()
