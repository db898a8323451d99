# The reference channel and the zeros that follow it: HallMux reads the VCC/2 divider with its
# bank, HoleScanner moves every zero by what it moves (a step at once, small changes smoothed),
# empty holes re-zero slowly, Calibrator averages the reference too. Plain asserts: pytest and
# the MicroPython unix port; the scan with the reference allocates nothing under heap_lock.

from array import array

from heap_lock import without_allocating
from calib import CalSettings, Calibrator
from fake_hall import Sensors, pinmap
from hallmux import HallMux
from holes import HoleScanner
from holes_settings import HoleSettings
import service  # the zeros' file is read by the board's service side (at boot)

NORTH = 1  # holes.py's class of a sensor that sees a north pole

MID = 32768
MAG = 11000
REF_AT = 2 * 16 + 8  # the fake mux's level index of bank C channel 8, as the pin map wires it


def _mux():
    pm = pinmap()
    chans = [(c[0], c[1]) for c in pm["hall"]["channels"]]
    ref = pm["mux"]["ref"]
    s = Sensors(chans, switched=True)
    mux = HallMux(s.mux.adcs, s.mux.pins, chans, settle_us=0, power_pins=s.mux.power_pins,
                  power_on_us=0, ref=(ref["bank"], ref["channel"]))
    return s, mux


def _scanner(rezero_scans=0):
    hs = HoleScanner(3, 4, HoleSettings(rezero_scans=rezero_scans))
    hs.ref = True
    hs.set_zero(array("H", [MID] * 12 + [30000]))
    return hs


def _board(shift, ref=30000):
    a = array("H", [MID + shift] * 13)
    a[12] = ref + shift
    return a


def test_the_reference_is_read_with_its_bank_into_the_last_level():
    s, mux = _mux()
    assert mux.has_ref and mux.n_levels == mux.n_sensors + 1 == 41
    s.mux.levels[REF_AT] = 29876
    levels = array("H", [0] * mux.n_levels)
    mux.scan(levels)
    assert levels[40] == 29876
    try:
        mux.scan(array("H", [0] * 40))
        raise AssertionError("a buffer without room for the reference was taken")
    except ValueError as e:
        assert "41" in str(e)
    try:
        HallMux(s.mux.adcs, s.mux.pins, s.channels, power_pins=s.mux.power_pins, ref=(2, 7))
        raise AssertionError("a reference on a sensor's channel was taken")
    except ValueError as e:
        assert "not free for the reference" in str(e)


def test_every_zero_moves_with_the_reference():
    # the supply sags: sensors and reference alike read 5000 counts low, past `on` for a
    # scanner without the reference; with it, nothing changes, and a magnet still reads
    hs = _scanner()
    hs.update(_board(0), 0)
    low = _board(-5000)
    for i in range(5):
        hs.update(low, 10 + 10 * i)
        assert hs.n_changed == 0 and hs.n_fault_events == 0
    assert hs.shift == -5000 and hs.ref_zero == 30000
    low[0] = MID - 5000 + MAG
    for i in range(5):
        hs.update(low, 100 + 10 * i)
    assert hs.state[0] == NORTH and hs.codes[0] == 1
    blind = HoleScanner(3)
    blind.set_zero(array("H", [MID] * 12))
    for i in range(5):
        blind.update(_board(-5000), 10 * i)
    assert list(blind.codes) == [80, 80, 80]  # every sensor south: what the reference saves


def test_a_small_change_is_smoothed_and_a_broken_reference_keeps_the_last_shift():
    hs = _scanner()
    hs.update(_board(0), 0)
    assert hs.shift == 0
    hs.update(_board(400), 10)
    assert hs.shift == 100  # a quarter of a small change per scan: the noise averaged
    for i in range(30):
        hs.update(_board(400), 20 + 10 * i)
    assert hs.shift == 400
    railed = _board(400)
    railed[12] = 0
    hs.update(railed, 400)
    assert hs.shift == 400 and hs.n_fault_events == 0


def test_the_reference_zero_is_its_first_reading_when_the_zeros_came_without_one():
    hs = HoleScanner(3)
    hs.ref = True
    hs.set_zero(array("H", [MID] * 12))
    assert hs.ref_zero == 0
    hs.update(_board(0, 31000), 0)
    assert hs.ref_zero == 31000 and hs.shift == 0


def test_empty_holes_re_zero_slowly_and_nothing_else_does():
    hs = _scanner(rezero_scans=4)
    a = _board(0)
    for p in range(4):
        a[p] = MID + 800  # hole 1 empty, its sensors 800 above their zeros
    a[4] = MID + MAG  # hole 2 holds a magnet: its zeros stay
    a[5] = MID + 600
    a[8] = MID + 2000  # hole 3 empty, one sensor beyond off / 2 from its zero: not followed
    for i in range(400):
        hs.update(a, 10 * i)
    assert hs.codes[1] == 1
    assert [hs.zero[k] for k in range(4)] == [MID + 100] * 4  # a count every 4 scans
    assert hs.zero[4] == MID and hs.zero[5] == MID
    assert hs.zero[8] == MID and hs.zero[9] == MID


def test_calibration_averages_the_reference_and_refuses_a_broken_divider():
    cal = Calibrator(4, 4, True, CalSettings(samples=4))
    for i in range(4):
        cal.add(array("H", [30000, 30100, 29900, 30000, 29000 + 2 * i]))
    zeros = array("H", [0] * 5)
    cal.result(zeros)
    assert list(zeros) == [30000, 30100, 29900, 30000, 29003]
    bad = Calibrator(4, 4, True, CalSettings(samples=2))
    bad.add(array("H", [30000] * 4 + [0]))
    bad.add(array("H", [30000] * 4 + [0]))
    try:
        bad.result(array("H", [0] * 5))
        raise AssertionError("a railed reference was calibrated")
    except ValueError as e:
        assert "reference channel" in str(e) and "divider" in str(e), str(e)


def test_a_scan_with_the_reference_and_re_zeroing_allocates_nothing():
    s, mux = _mux()
    hs = HoleScanner(10, 4, HoleSettings(rezero_scans=2))
    hs.ref = True
    levels = array("H", [0] * mux.n_levels)
    for k in range(40):
        s.set(k, MID)
    s.mux.levels[REF_AT] = 30000
    mux.scan(levels)
    hs.update(levels, 0)

    def scans():
        for i in range(60):
            if i == 20:
                s.mux.levels[REF_AT] = 28000  # a step: followed at once
                for k in range(40):
                    s.set(k, MID - 2000)
            elif i == 40:
                s.mux.levels[REF_AT] = 28300  # a small change: smoothed
            mux.scan(levels)
            hs.update(levels, 10 + 10 * i)

    without_allocating(scans)
    assert -1702 <= hs.shift <= -1700 and list(hs.codes) == [0] * 10  # 20 scans into the smoothing


def test_the_reference_zero_is_kept_in_a_file_of_its_own():
    import calib
    import time

    assert service.ref_path("calib.json") == "calib_ref.json"
    path = "/tmp/upref_ref_%d.json" % time.ticks_us()
    calib.save(service.ref_path(path), [30123])
    got = service.load(service.ref_path(path), 1)
    assert got is not None and list(got) == [30123]
    calib.forget(service.ref_path(path))
    assert service.load(service.ref_path(path), 1) is None
    calib.forget(service.ref_path(path))  # nothing there: no error
