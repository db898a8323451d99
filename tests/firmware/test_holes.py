# HoleScanner: classification, hysteresis, debounce and faults (plain asserts: pytest and MicroPython).

from array import array
import time

import holes
from fake_hall import pinmap
from holes import HoleScanner
from holes_settings import HoleSettings

# holes.py's numbers (its private constants): the kinds of a fault event, the reasons, the classes
SENSOR, HOLE = 0, 1
RAIL_LOW, RAIL_HIGH, RANGE, UNSTABLE = 1, 2, 3, 4
NONE, NORTH, SOUTH = 0, 1, 2

MID = 32768


def _faulted(faults):
    """Bitmask of the faulted entries (bit k: entry k) of a scanner's sensor_fault or hole_fault."""
    m = 0
    for k in range(len(faults)):
        if faults[k]:
            m |= 1 << k
    return m

MAG = 11000  # a magnet right over a sensor: 7,750..14,300 (hardware/pinmap.json's margins)


def _levels(n_holes=3):
    return array("H", [MID] * (n_holes * 4))


def _put(levels, hole, trits, amp=MAG):
    """Hole (0-based) with trits per position: 0 none, 1 north, 2 south."""
    for p in range(4):
        t = trits[p]
        levels[hole * 4 + p] = MID + amp if t == 1 else (MID - amp if t == 2 else MID)


def _code(trits):
    return trits[0] + 3 * trits[1] + 9 * trits[2] + 27 * trits[3]


def _changes(hs):
    return [(hs.changed[i], hs.codes[hs.changed[i]]) for i in range(hs.n_changed)]


def _events(hs):
    e = hs.fault_events
    return [(e[3 * i], e[3 * i + 1], e[3 * i + 2]) for i in range(hs.n_fault_events)]


def _run(hs, levels, t0, t1, step=10, log=None):
    """update() every `step` ms for t0 <= t < t1; collects (t, hole, code) and (t, event)."""
    t = t0
    while t < t1:
        hs.update(levels, t)
        if log is not None:
            for h, c in _changes(hs):
                log.append((t, h, c))
            for ev in _events(hs):
                log.append((t, ev))
        t += step
    return t


def test_empty_board_is_code_zero_and_reports_nothing():
    hs = HoleScanner(3)
    lv = _levels()
    log = []
    _run(hs, lv, 0, 500, log=log)
    assert log == []
    assert list(hs.codes) == [0, 0, 0]
    assert _faulted(hs.sensor_fault) == 0 and _faulted(hs.hole_fault) == 0


def test_both_poles_classified_into_code():
    hs = HoleScanner(3, 4, HoleSettings(debounce_ms=0))
    lv = _levels()
    trits = (1, 2, 0, 1)
    _put(lv, 1, trits)
    hs.update(lv, 0)
    assert _changes(hs) == [(1, _code(trits))]
    assert _code(trits) == 34
    assert list(hs.state[4:8]) == [NORTH, SOUTH, NONE, NORTH]
    # all positions, both poles, weakest magnet and worst crosstalk on the empty position
    _put(lv, 2, (2, 2, 0, 2), amp=9000)
    lv[2 * 4 + 2] = MID + 2500
    _put(lv, 0, (1, 1, 1, 0), amp=14000)
    lv[3] = MID - 2500
    hs.update(lv, 10)
    assert hs.codes[0] == 13 and hs.codes[2] == 2 + 6 + 54, list(hs.codes)
    assert hs.codes[1] == 34


def test_hysteresis_holds_between_off_and_on():
    hs = HoleScanner(1, 4, HoleSettings(debounce_ms=0))
    lv = _levels(1)
    steps = (
        (MID + 4400, 0),  # below on: stays none
        (MID + 4500, 1),  # on: north
        (MID + 3600, 1),  # between off and on: holds north
        (MID + 3499, 0),  # below off: none
        (MID + 4400, 0),  # between again: holds none
        (MID - 4500, 2),  # south
        (MID - 3600, 2),  # holds south
        (MID + 6000, 1),  # straight across to north
        (MID - 6000, 2),  # and back to south
        (MID - 3000, 0),
    )
    t = 0
    for level, want in steps:
        lv[0] = level
        hs.update(lv, t)
        assert hs.codes[0] == want, (level - MID, hs.codes[0], want)
        t += 10


def test_each_sensor_classified_against_its_own_zero():
    hs = HoleScanner(1, 4, HoleSettings(debounce_ms=0))
    hs.set_zero([30400, 35100, 32768, 32768])
    assert list(hs.zero) == [30400, 35100, 32768, 32768]
    lv = _levels(1)
    lv[0] = 35500  # +5100 from its zero (only +2732 from mid-scale)
    lv[1] = 32768  # -2332 from its zero
    hs.update(lv, 0)
    assert hs.codes[0] == 1
    bad = 0
    try:
        hs.set_zero([1, 2])
    except ValueError:
        bad = 1
    assert bad


def test_a_seated_end_at_once_an_empty_hole_after_settle_anything_else_after_debounce():
    hs = HoleScanner(3)
    assert (hs.settle_ms, hs.debounce_ms, hs.magnets) == (10, 30, 3)
    lv = _levels()
    trits = (1, 0, 2, 2)  # three magnets: a whole end
    _put(lv, 0, trits)
    log = []
    _run(hs, lv, 0, 100, log=log)
    assert log == [(0, 0, _code(trits))], log  # reported by the scan that first reads it
    _put(lv, 0, (0, 0, 0, 0))  # no magnet: the pair is out
    log = []
    _run(hs, lv, 100, 200, log=log)
    assert log == [(110, 0, 0)], log  # seen at 100, still empty at 110
    _put(lv, 0, (1, 0, 2, 0))  # two magnets: a magnet lost, or a pair half in
    log = []
    _run(hs, lv, 200, 300, log=log)
    assert log == [(230, 0, _code((1, 0, 2, 0)))], log
    _put(lv, 0, (1, 1, 2, 2))  # four: a stray magnet
    log = []
    _run(hs, lv, 300, 400, log=log)
    assert log == [(330, 0, _code((1, 1, 2, 2)))], log
    # the settle time never exceeds the debounce window
    hs = HoleScanner(1, 4, HoleSettings(debounce_ms=5, settle_ms=10))
    lv = _levels(1)
    _put(lv, 0, trits)
    _run(hs, lv, 0, 30, step=5)
    _put(lv, 0, (0, 0, 0, 0))
    log = []
    _run(hs, lv, 30, 60, step=5, log=log)
    assert log == [(35, 0, 0)], log


def test_a_pair_that_bounces_as_it_is_put_down_is_reported_once():
    hs = HoleScanner(1)
    lv = _levels(1)
    end = (2, 2, 0, 1)
    log = []
    _put(lv, 0, end)  # seated: reported at once
    _run(hs, lv, 0, 10, log=log)
    _put(lv, 0, (0, 0, 0, 0))  # it bounces: every magnet off its sensor for a scan
    _run(hs, lv, 10, 20, log=log)
    _put(lv, 0, (2, 0, 0, 1))  # and again, two magnets read for two scans
    _run(hs, lv, 20, 40, log=log)
    _put(lv, 0, end)  # down for good
    _run(hs, lv, 40, 200, log=log)
    assert log == [(0, 0, _code(end))], log


def test_pair_on_its_way_in_never_shows_a_passing_code():
    hs = HoleScanner(3)
    lv = _levels()
    log = []
    final = (2, 1, 0, 1)
    _put(lv, 2, (2, 0, 0, 0))  # first magnet over its sensor
    _run(hs, lv, 0, 10, log=log)
    _put(lv, 2, (2, 1, 0, 0))  # second
    _run(hs, lv, 10, 20, log=log)
    _put(lv, 2, final)  # all three
    _run(hs, lv, 20, 200, log=log)
    assert log == [(20, 2, _code(final))], log  # never 1 or 2 magnets, the end once it is whole
    # a one-scan glitch of a settled pair is not reported either
    lv[2 * 4] = MID
    _run(hs, lv, 200, 220, log=log)
    _put(lv, 2, final)
    _run(hs, lv, 220, 400, log=log)
    assert log == [(20, 2, _code(final))], log


def test_railed_sensor_faults_keeps_code_and_clears():
    hs = HoleScanner(3)
    lv = _levels()
    trits = (1, 1, 2, 0)
    _put(lv, 1, trits)
    _run(hs, lv, 0, 100)
    assert hs.codes[1] == _code(trits)
    lv[5] = 65535  # hole 2, position 2 shorted to the supply
    hs.update(lv, 100)
    assert _events(hs) == [(SENSOR, 5, RAIL_HIGH)]
    assert _faulted(hs.sensor_fault) == 1 << 5 and hs.sensor_fault[5] == RAIL_HIGH
    log = []
    _run(hs, lv, 110, 1000, log=log)
    assert log == []  # one event only, and the hole keeps its last reported code
    assert hs.codes[1] == _code(trits)
    # the pair is pulled while the sensor is broken: still frozen
    _put(lv, 1, (0, 0, 0, 0))
    lv[5] = 0
    hs.update(lv, 1000)
    assert _events(hs) == [] and hs.codes[1] == _code(trits)
    # wiring fixed: sane for unstable_ms clears the fault, then the hole re-debounces
    _put(lv, 1, (0, 0, 0, 0))
    log = []
    _run(hs, lv, 1010, 3000, log=log)
    assert log == [(2500, (SENSOR, 5, 0)), (2510, 1, 0)], log  # last bad reading at 1000
    assert _faulted(hs.sensor_fault) == 0


def test_floating_sensor_raises_one_fault_and_no_code():
    hs = HoleScanner(3)
    lv = _levels()
    wander = (200, 33000, 65500, 20000, 40000, 900, 47000, 64100)
    log = []
    t = 0
    for i in range(300):
        lv[8] = wander[i % len(wander)]
        hs.update(lv, t)
        for h, c in _changes(hs):
            log.append((t, h, c))
        for ev in _events(hs):
            log.append((t, ev))
        t += 10
    assert log == [(0, (SENSOR, 8, RAIL_LOW))], log
    assert hs.codes[2] == 0


def test_level_too_far_from_zero_is_out_of_range():
    hs = HoleScanner(1)
    hs.set_zero([30000, MID, MID, MID])
    lv = _levels(1)
    lv[0] = 55000  # inside the rails, but 25000 above its zero
    hs.update(lv, 0)
    assert _events(hs) == [(SENSOR, 0, RANGE)]
    lv[0] = 30000 - 24001
    hs.update(lv, 10)
    assert _events(hs) == []
    assert hs.sensor_fault[0] == RANGE


def test_hole_that_never_settles_faults_then_clears():
    hs = HoleScanner(3)
    lv = _levels()
    a = (1, 1, 0, 0)  # two magnets each: never a seated end
    b = (1, 0, 0, 1)
    log = []
    t = 0
    while t < 2000:  # pair rattling: the candidate changes every 20 ms, debounce is 30 ms
        _put(lv, 0, a if (t // 20) % 2 == 0 else b)
        hs.update(lv, t)
        for h, c in _changes(hs):
            log.append((t, h, c))
        for ev in _events(hs):
            log.append((t, ev))
        t += 10
    assert log == [(1500, (HOLE, 0, UNSTABLE))], log
    assert _faulted(hs.hole_fault) == 1 and hs.hole_fault[0] == UNSTABLE
    assert hs.codes[0] == 0
    _put(lv, 0, b)
    log = []
    _run(hs, lv, 2000, 2100, log=log)
    # the candidate b seen at 2000 was already b since 1980
    assert log == [(2010, 0, _code(b)), (2010, (HOLE, 0, 0))], log
    assert _faulted(hs.hole_fault) == 0


def test_debounce_is_configurable():
    hs = HoleScanner(1)
    hs.set_debounce(100)
    assert hs.debounce_ms == 100
    lv = _levels(1)
    _put(lv, 0, (2, 2, 0, 0))
    log = []
    _run(hs, lv, 0, 300, log=log)
    assert log == [(100, 0, 8)], log
    hs.set_debounce(0)
    _put(lv, 0, (0, 0, 0, 0))
    hs.update(lv, 300)
    assert _changes(hs) == [(0, 0)]
    for bad in (-1, 1500, 100000):
        refused = 0
        try:
            hs.set_debounce(bad)
        except ValueError as e:
            refused = "debounce" in str(e)
        assert refused, bad
    assert hs.debounce_ms == 0


def test_debounce_across_ticks_wraparound():
    hs = HoleScanner(1)
    lv = _levels(1)
    _put(lv, 0, (1, 0, 1, 0))
    t0 = time.ticks_add(0, -15)  # 15 ms before ticks_ms() wraps to 0
    got = []
    for i in range(6):
        t = time.ticks_add(t0, 10 * i)
        hs.update(lv, t)
        if hs.n_changed:
            got.append(i)
    assert got == [3], got


def test_a_scanner_made_from_the_pin_map_takes_its_thresholds():
    hall = pinmap()["hall"]
    t = hall["thresholds"]
    hs = HoleScanner(hall["holes"], hall["sensors_per_hole"], t)
    assert hs.n_holes == 10 and hs.per_hole == 4 and hs.n_sensors == 40
    assert (hs.on, hs.off, hs.rail_low, hs.rail_high, hs.max_delta) == (
        t["on"], t["off"], t["rail_low"], t["rail_high"], t["max_delta"])
    assert hs.debounce_ms == t["debounce_ms"] and hs.unstable_ms == t["unstable_ms"]
    assert (hs.settle_ms, hs.magnets) == (t["settle_ms"], t["magnets"]) == (10, 3)
    assert len(holes.KIND_WORDS) == 2 and len(holes.REASON_WORDS) == UNSTABLE + 1


def test_invalid_thresholds_are_refused():
    bad = (
        (0, 4, {}),
        (3, 6, {}),
        (3, 4, {"on": 3000, "off": 3500}),
        (3, 4, {"rail_low": 2000, "rail_high": 1000}),
        (3, 4, {"magnets": 5}),
        (3, 4, {"debounce_ms": 1500}),
    )
    for n_holes, per_hole, changes in bad:
        refused = 0
        try:
            HoleScanner(n_holes, per_hole, HoleSettings(**changes))
        except ValueError:
            refused = 1
        assert refused, (n_holes, per_hole, changes)


def test_settings_keep_their_defaults_and_refuse_unknown_names():
    s = HoleSettings(on=5000)
    assert (s.on, s.off, s.debounce_ms, s.rezero_scans) == (5000, 3500, 30, 0)
    assert HoleSettings().on == 4500  # a change is the instance's, not the class's
    refused = 0
    try:
        HoleSettings(debounce=10)
    except TypeError:
        refused = 1
    assert refused
    read = HoleSettings().read({"off": 3000, "cal_max_offset": 3000})
    assert read.off == 3000 and not hasattr(read, "cal_max_offset")
