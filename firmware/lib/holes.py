# Molehill codes from hall sensor levels: classification, debounce and faults.
#
# Pure logic: never imports machine, so it runs on the board, under CPython and in tests.
# update() allocates nothing: every result goes into arrays made in __init__. The thresholds and
# times below come in a HoleSettings (holes_settings.py, with their defaults) and their checks are
# in holes_check.py, both loaded while a scanner is made and let go (up to 5 sensors a hole:
# 3**5 - 1 = 242 still fits array('B')).
#
# Sensors. Sensor k = (hole - 1) * per_hole + (position - 1) reads a level 0..65535 (ADC
# read_u16). delta = level - zero[k], zero being its calibrated no-magnet level. With hysteresis
# per sensor: from none it becomes north at delta >= on, south at delta <= -on; north drops back
# when delta < off, south when delta > -off (then it re-enters from none at once if the other
# pole is already past `on`). A level below rail_low, above rail_high or with |delta| > max_delta
# is a sensor fault (a floating, shorted or broken input): set at the first such reading, cleared
# once the sensor has read sane continuously for unstable_ms, then it classifies from none again.
#
# Holes. code = sum(trit[p] * 3**p), trit 0 none / 1 north / 2 south, p = position - 1; 0 is an
# empty hole, per_hole 4 gives 0..80. The code seen by the latest update is the hole's candidate;
# it is reported (codes[h], and h listed in changed[]) once it has been unchanged for long
# enough, so a pair on its way in (1, then 2, then 3 magnets) never shows a passing code:
#   * a code with exactly `magnets` magnets (every mole end carries three: hardware/codes.json)
#     at once, by the scan that first reads it. It cannot be a passing code: a pair going in or
#     out passes only through codes with fewer magnets (a subset of its end's), and crosstalk and
#     noise stay below `on` at an empty position (hardware/pinmap.json's margins), so three
#     magnets read means the end is seated. A bounce after it (a magnet or two lifted for a
#     moment) passes through codes that wait longer, and comes back to the code reported: no
#     frame;
#   * a code with no magnet (the pair is out) after settle_ms: a pair that bounces as it is put
#     down must not read as pulled for a moment;
#   * any other code (a pair on its way, a lost or a stray magnet) after debounce_ms.
# A hole whose candidate changes and then has no stable period of debounce_ms for unstable_ms
# gets a hole fault ("never settles"), cleared when a candidate is finally stable.
# While any sensor of a hole is faulted the hole is frozen: it keeps its last reported code
# (the sensor fault says why it cannot be trusted) and its debounce starts afresh once all its
# sensors are sane again, so a code half read through a broken sensor is never reported.
#
# Fault events of one update: fault_events[3 * i : 3 * i + 3] = (kind, index, reason) for
# i < n_fault_events; kind SENSOR (index = sensor k, 0-based) or HOLE (index = hole, 0-based);
# reason > 0 sets the fault (RAIL_LOW, RAIL_HIGH, RANGE for sensors; UNSTABLE for holes),
# reason 0 (CLEARED) clears it. KIND_WORDS/REASON_WORDS give the words for FAULT/CLEAR frames.
#
# Zeros that stay put. The sensors are ratiometric (they rest at VCC/2) but the ADC has its own
# reference, so a change of the sensors' supply, or of the ADC as the chip warms, moves every
# zero together. With a reference channel (`ref` on: levels[n_sensors] is the reading of a VCC/2
# divider on the sensors' switched supply) every delta is taken against zero[k] + shift, shift
# being how far the reference has moved from its own zero (ref_zero: its level at calibration,
# or its first reading when the zeros came without one). The reference is smoothed (a quarter
# of each new reading) unless it jumps by more than _REF_JUMP, which it follows at once. A
# reference reading at a rail (a broken divider) keeps the last shift. What the reference does
# not see (a sensor's own drift) the empty holes take up slowly: every rezero_scans scans (0:
# never) each sensor of a hole that reads and reports empty moves its zero one count towards its
# reading, while its delta is within off / 2.
#
# Times are time.ticks_ms() values and are compared with time.ticks_diff, so they wrap safely.

import micropython
from micropython import const
import sys
import time

from array import array  # noqa: F401 - the type of the arrays declared below

from wire import ptr8, ptr16  # viper's casts where update() runs as Python (CPython, bytecode)

# the kinds and reasons of fault events (the top of this file) and the sensors' classes: private,
# the loop, since.py and the tests have the numbers they need (a name kept in the module would
# take heap on the board)
_SENSOR = const(0)  # same order as the host's FAULT_KINDS (link/protocol.py): "sensor", "hole"
_HOLE = const(1)

_CLEARED = const(0)
_RAIL_LOW = const(1)
_RAIL_HIGH = const(2)
_RANGE = const(3)
_UNSTABLE = const(4)

KIND_WORDS = (b"sensor", b"hole")
REASON_WORDS = (b"cleared", b"rail low", b"rail high", b"out of range", b"never settles")

_NONE = const(0)
_NORTH = const(1)
_SOUTH = const(2)

_MID_SCALE = const(32768)
_NO_CODE = const(255)  # candidate after a sensor fault: the next code is always a change
_REF_SMOOTH = const(2)  # the reference takes 1 / 2**_REF_SMOOTH of each new reading
_REF_JUMP = const(1200)  # counts (8 sigma of the ADC's noise): a step of the supply, followed at once


class HoleScanner:
    """HoleScanner(n_holes, per_hole=4, settings=None): settings is a
    holes_settings.HoleSettings, a dict of pinmap.json hall.thresholds (a missing key takes
    the default) or None (the defaults).

    Public state (read it, do not replace it):
      zero           array('H') per-sensor zero levels (default 32768); set with set_zero()
      state          array('B') per-sensor class NONE / NORTH / SOUTH (after hysteresis)
      codes          array('B') per-hole reported code (0 until something is reported)
      changed        array('B') holes (0-based) whose reported code changed in the last update
      n_changed      how many entries of changed are valid
      fault_events   array('B') ('H' past 255 sensors) 3 per event: kind, index, reason (0 = cleared)
      n_fault_events how many events the last update produced
      sensor_fault   array('B') per-sensor current fault reason, 0 = healthy
      hole_fault     array('B') per-hole current fault reason, 0 = healthy
      ref            True: levels[n_sensors] is the reference channel's reading (set it)
      ref_zero       the reference's zero (0: its next reading)
      shift          what the reference has moved since ref_zero: added to every zero
    """

    # made by holes_settings.make (declared here for the type checker; MicroPython ignores these)
    n_holes: "int"
    per_hole: "int"
    n_sensors: "int"
    on: "int"
    off: "int"
    rail_low: "int"
    rail_high: "int"
    max_delta: "int"
    unstable_ms: "int"
    debounce_ms: "int"
    settle_ms: "int"
    magnets: "int"
    rezero_scans: "int"
    _rezero_in: "int"
    ref_zero: "int"
    _ref16: "int"
    shift: "int"
    n_changed: "int"
    n_fault_events: "int"
    ref: "bool"
    zero: "array"
    state: "array"
    sensor_fault: "array"
    _bad_at: "array"
    codes: "array"
    hole_fault: "array"
    _cand: "array"
    _since: "array"
    _busy: "array"
    _quiet: "array"
    changed: "array"
    fault_events: "array"

    def __init__(self, n_holes, per_hole=4, settings=None):
        # run once, at boot: the checks, the settings and the arrays are made by boot-only
        # code (holes_settings.make), loaded for it and let go
        import holes_settings

        try:
            holes_settings.make(self, n_holes, per_hole, settings)
        finally:
            del sys.modules["holes_settings"]

    def set_debounce(self, ms):
        """Set the debounce window; ValueError unless 0 <= ms < unstable_ms."""
        if ms < 0 or ms >= self.unstable_ms:
            raise ValueError("invalid debounce: %d ms (0..%d)" % (ms, self.unstable_ms - 1))
        self.debounce_ms = ms

    def set_zero(self, levels):
        """Copy per-sensor zero levels (any sequence of n_sensors ints 0..65535), and one more,
        the reference's zero, if given; without it the reference's next reading is its zero.
        ValueError when they do not fit. (At boot and at a calibration's end: holes_settings.py,
        loaded for it and let go.)"""
        import holes_settings

        try:
            holes_settings.set_zero(self, levels)
        finally:
            sys.modules.pop("holes_settings", None)

    @micropython.viper
    def update(self, levels, now_ms):
        """Process one scan (levels[k] per sensor, an array('H')) taken at now_ms
        (time.ticks_ms()): fill changed/n_changed and fault_events/n_fault_events, allocating
        nothing. The sensors' loop (_classify) is viper code: machine integers and raw pointers
        into the scanner's arrays (every value is a level, a count or a class: none leaves 16
        bits); what is seldom (a fault, a hole on the move, rezero) calls a method."""
        if self.ref:
            self._follow_ref(levels[self.n_sensors])
        rezero = False  # the empty holes' zeros follow their readings at this scan
        if self.rezero_scans:  # every rezero_scans scans (never when it is 0)
            due = int(self._rezero_in) - 1
            if due <= 0:
                due = int(self.rezero_scans)
                rezero = True
            self._rezero_in = due
        self.n_changed = 0
        self.n_fault_events = 0
        self._classify(levels, now_ms, rezero)

    @micropython.viper
    def _classify(self, levels, now_ms, rezero):
        """update()'s sensors' loop, in viper code: the top of update() says how."""
        per = int(self.per_hole)
        on = int(self.on)
        off = int(self.off)
        rail_low = int(self.rail_low)
        rail_high = int(self.rail_high)
        max_delta = int(self.max_delta)
        neg_on = 0 - on
        neg_off = 0 - off
        neg_max = 0 - max_delta
        shift = int(self.shift)
        lv16 = ptr16(levels)
        zero = ptr16(self.zero)
        state = ptr8(self.state)
        sfault = ptr8(self.sensor_fault)
        cand = ptr8(self._cand)
        quiet = ptr8(self._quiet)
        codes = ptr8(self.codes)
        for h in range(int(self.n_holes)):
            base = h * per
            code = 0
            seen = 0  # magnets read in this hole
            frozen = False
            k = base + per - 1
            while k >= base:
                lv = lv16[k]
                d = lv - zero[k] - shift
                if lv < rail_low or lv > rail_high or d > max_delta or d < neg_max:
                    self._sensor_insane(k, lv, now_ms)
                    frozen = True
                elif sfault[k] and not self._sensor_recovered(k, now_ms):
                    frozen = True
                else:  # hysteresis, from the class the sensor had (written back when it changes)
                    st = state[k]
                    if st == _NONE:
                        if d >= on or d <= neg_on:
                            st = _NORTH if d >= on else _SOUTH
                            state[k] = st
                    elif st == _NORTH:
                        if d < off:
                            st = _SOUTH if d <= neg_on else _NONE
                            state[k] = st
                    elif d > neg_off:
                        st = _NORTH if d >= on else _NONE
                        state[k] = st
                    if st:
                        seen += 1
                    code = code * 3 + st
                k -= 1
            if frozen:  # the code is not to be trusted; its debounce starts afresh after
                cand[h] = _NO_CODE
                quiet[h] = 1
                continue
            if rezero and code == 0 and codes[h] == 0 and cand[h] == 0 and quiet[h]:
                self._rezero_hole(levels, base)
            if code != cand[h] or not quiet[h]:
                self._debounce(h, code, seen, now_ms)

    @micropython.viper
    def _rezero_hole(self, levels, base: int):
        """Move each zero of the empty hole whose sensors start at `base` one count towards its
        reading, while the reading is within off / 2 of it."""
        zero = ptr16(self.zero)
        lv = ptr16(levels)
        shift = int(self.shift)
        lim = int(self.off) >> 1
        neg_lim = 0 - lim
        k = base
        end = base + int(self.per_hole)
        while k < end:
            d = lv[k] - zero[k] - shift
            if d > 0 and d <= lim:
                zero[k] = zero[k] + 1
            elif d < 0 and d >= neg_lim:
                zero[k] = zero[k] - 1
            k += 1

    def _sensor_insane(self, k, lv, now_ms):
        """Sensor k read lv, at a rail or too far from its zero: a fault from now, told once."""
        self._bad_at[k] = now_ms & 0xFFFF  # 16 bits: read again within the scan or two after
        if self.sensor_fault[k]:
            return
        if lv < self.rail_low:
            why = _RAIL_LOW
        elif lv > self.rail_high:
            why = _RAIL_HIGH
        else:
            why = _RANGE
        self.sensor_fault[k] = why
        self.state[k] = _NONE
        self._event(_SENSOR, k, why)

    def _sensor_recovered(self, k, now_ms):
        """Faulted sensor k reads sane: True (and the fault cleared) once it has for unstable_ms;
        it then classifies from none."""
        # a faulted sensor is looked at every scan, so what went by since it last read insane is
        # never near the 65 s its 16 bits count (a longer pause of the loop errs the safe way:
        # the fault stays that much longer)
        if (now_ms - self._bad_at[k]) & 0xFFFF < self.unstable_ms:
            return False
        self.sensor_fault[k] = 0
        self._event(_SENSOR, k, _CLEARED)
        return True

    def _debounce(self, h, code, seen, now_ms):
        """Hole h read `code` (`seen` magnets) and is on the move: a new candidate restarts its
        timing; a candidate unchanged for long enough is reported; a hole with no stable period
        for unstable_ms is faulted (the top of this file)."""
        ticks_diff = time.ticks_diff
        since = self._since
        if code != self._cand[h]:
            self._cand[h] = code
            since[h] = now_ms
            if self._quiet[h]:
                self._quiet[h] = 0
                self._busy[h] = now_ms
        debounce = self.debounce_ms
        wait = debounce
        if seen == self.magnets and seen:
            wait = 0  # a seated end: nothing passes through it (the top of this file)
        elif seen == 0:
            wait = self.settle_ms if self.settle_ms < debounce else debounce
        hfault = self.hole_fault
        if ticks_diff(now_ms, since[h]) >= wait:
            self._quiet[h] = 1
            if code != self.codes[h]:
                self.codes[h] = code
                self.changed[self.n_changed] = h
                self.n_changed += 1
            if hfault[h]:
                hfault[h] = 0
                self._event(_HOLE, h, _CLEARED)
        elif not hfault[h] and ticks_diff(now_ms, self._busy[h]) >= self.unstable_ms:
            hfault[h] = _UNSTABLE
            self._event(_HOLE, h, _UNSTABLE)

    def _event(self, kind, index, reason):
        """One more fault event of this update (fault_events, n_fault_events)."""
        ev = self.fault_events
        i = 3 * self.n_fault_events
        ev[i] = kind
        ev[i + 1] = index
        ev[i + 2] = reason
        self.n_fault_events += 1

    @micropython.viper
    def _follow_ref(self, r: int):
        if r < int(self.rail_low) or r > int(self.rail_high):
            return  # a broken divider: the last shift stands
        f = int(self._ref16)
        r16 = r << 4
        if f == 0 or r16 - f > _REF_JUMP << 4 or f - r16 > _REF_JUMP << 4:
            f = r16
        else:
            f += (r16 - f) >> _REF_SMOOTH
        self._ref16 = f
        now = (f + 8) >> 4
        if not self.ref_zero:
            self.ref_zero = now
        self.shift = now - int(self.ref_zero)
