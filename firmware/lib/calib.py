# Hall sensor zero calibration and its file on the board's flash.
#
# With the board empty, every sensor reads its quiescent level. That level is not mid-scale:
# the ESP32's read_u16 is the raw ADC reading scaled, uncalibrated, and at 11 dB a sensor at
# rest (1.59..1.71 V) reads anywhere from about 26,300 to 34,300 counts depending on the chip's
# ADC reference (1000..1200 mV). All sensors of a board share that chip, so each one is judged
# against the board's own median: Calibrator averages a number of scans into per-sensor zeros
# and refuses the result when a sensor is railed (wiring), unsteady (something moved, or a
# floating input), more than cal_max_offset from the board's median (a magnet nearby: a pair was
# left in a hole), or when the median itself lies outside zero_low..zero_high, where a sensor at
# rest reads on any ESP32 (most holes hold a pair, or the sensors are unpowered).
# hardware/pinmap.json's thresholds carry the limits; upref.hardware.magnetics checks them.
#
# With a reference channel (ref=True: levels[n_sensors] is the VCC/2 divider, hallmux.py) the
# calibration averages it too (zero_out[n_sensors]), kept in a file of its own next to the
# sensors' (ref_path): holes.HoleScanner corrects every zero by how far it moves later on. It is
# removed before the sensors' zeros are written and written after them, so a reset in between
# leaves no reference zero (the firmware then takes its first reading) rather than a stale one.
#
# The zeros are stored as a JSON list of ints, written atomically (path + ".tmp", then rename),
# so a reset in the middle of a save leaves the previous file intact. Runs on MicroPython and
# CPython; not used in the scan loop, so it may allocate. The firmware loads this module only
# to calibrate, and lets it go afterwards.

from array import array
import os

try:
    import json
except ImportError:  # very old MicroPython
    import ujson as json  # type: ignore

# The zeros' file is read at boot by service.py (service.load, service.ref_path), which the board
# has loaded then anyway: this module is loaded only to calibrate, so the names it holds are not
# interned for good at boot.

PATH = "/hall_zero.json"
_MAX_SAMPLES = 32767  # keeps the per-sensor sums within 31 bits


class CalSettings:
    """The limits of a calibration (the top of this file says what each is for): the defaults
    below, changed by CalSettings(samples=4, ...). Built when a calibration starts."""

    samples = 32
    cal_max_offset = 3000
    rail_low = 1500
    rail_high = 64000
    zero_low = 25000
    zero_high = 35500

    def __init__(self, **changes):
        for name in changes:
            if not isinstance(getattr(CalSettings, name, None), int):
                raise TypeError("no calibration setting %s" % name)
            setattr(self, name, changes[name])


class Calibrator:
    """Calibrator(n_sensors, per_hole=4, ref=False, settings=None): settings is a CalSettings
    (None: the defaults).

    add(levels) once per scan until done(), then result(zero_out). With ref, levels and zero_out
    have one more entry, the reference channel's.
    """

    seq = 0  # the sequence number of the CAL it answers (service.py sets it)

    def __init__(self, n_sensors, per_hole=4, ref=False, settings=None):
        s = settings if settings is not None else CalSettings()
        if n_sensors < 1:
            raise ValueError("invalid sensor count: %d" % n_sensors)
        if s.samples < 1 or s.samples > _MAX_SAMPLES:
            raise ValueError("invalid calibration sample count: %d" % s.samples)
        if s.cal_max_offset < 0:
            raise ValueError("invalid calibration offset limit: %d" % s.cal_max_offset)
        if per_hole < 1:
            raise ValueError("invalid sensors per hole: %d" % per_hole)
        if not 0 <= s.zero_low < s.zero_high <= 65535:
            raise ValueError("invalid zero window: %d..%d" % (s.zero_low, s.zero_high))
        self.n_sensors = n_sensors
        self.samples = s.samples
        self.cal_max_offset = s.cal_max_offset
        self.per_hole = per_hole
        self.rail_low = s.rail_low
        self.rail_high = s.rail_high
        self.zero_low = s.zero_low
        self.zero_high = s.zero_high
        self.ref = ref
        m = n_sensors + 1 if ref else n_sensors
        self.n_levels = m
        self._sum = array("l", [0] * m)
        self._min = array("H", [65535] * m)
        self._max = array("H", [0] * m)
        self.count = 0

    def reset(self):
        for k in range(self.n_levels):
            self._sum[k] = 0
            self._min[k] = 65535
            self._max[k] = 0
        self.count = 0

    def add(self, levels):
        """Accumulate one scan (levels[k] per sensor); scans beyond `samples` are ignored.
        Returns done()."""
        if self.count >= self.samples:
            return True
        if len(levels) < self.n_levels:
            raise ValueError("need %d levels, got %d" % (self.n_levels, len(levels)))
        s = self._sum
        lo = self._min
        hi = self._max
        for k in range(self.n_levels):
            v = levels[k]
            s[k] += v
            if v < lo[k]:
                lo[k] = v
            if v > hi[k]:
                hi[k] = v
        self.count += 1
        return self.count >= self.samples

    def done(self):
        return self.count >= self.samples

    @staticmethod
    def save(path, zeros):
        """Same as the module's save()."""
        save(path, zeros)

    def _where(self, k):
        return k // self.per_hole + 1, k % self.per_hole + 1

    def result(self, zero_out):
        """Write the averaged zeros into zero_out (n_sensors entries) and return it.

        Raises ValueError naming the hole and sensor (1-based) when a sensor is railed, unsteady
        or more than cal_max_offset from the board's median, or when that median is outside
        zero_low..zero_high; zero_out is then left untouched.
        """
        n = self.n_sensors
        if self.count < self.samples:
            raise ValueError("calibration needs %d scans, has %d" % (self.samples, self.count))
        if len(zero_out) < self.n_levels:
            raise ValueError("need room for %d zeros, got %d" % (self.n_levels, len(zero_out)))
        self._check_wiring()  # wiring faults first: they say more than an offset does
        # the averages go where the highs were (read for the last time above): a calibration ends
        # while the heap is at its fullest, so no list and no sorted copy is made
        c = self.count
        avg = self._max
        for k in range(self.n_levels):
            avg[k] = (self._sum[k] + c // 2) // c
        mid = _median(avg, n)
        if mid < self.zero_low or mid > self.zero_high:
            raise ValueError(
                "the sensors' median reads %d, outside %d..%d where sensors at rest read on any "
                "ESP32: take the pair out of every hole and calibrate again; if every hole is "
                "empty, check the sensors' 3.3 V supply" % (mid, self.zero_low, self.zero_high))
        self._check_offsets(avg, mid)
        for k in range(self.n_levels):
            zero_out[k] = avg[k]
        return zero_out

    def _check_wiring(self):
        """ValueError for the first sensor whose readings reached a rail or spread wider than
        cal_max_offset, or for a reference channel that did either."""
        n = self.n_sensors
        lim = self.cal_max_offset
        for k in range(n):
            hole, pos = self._where(k)
            if self._min[k] < self.rail_low or self._max[k] > self.rail_high:
                raise ValueError(
                    "hole %d sensor %d reads %d..%d, at the rail: check its wiring and calibrate again"
                    % (hole, pos, self._min[k], self._max[k])
                )
            if self._max[k] - self._min[k] > lim:
                raise ValueError(
                    "hole %d sensor %d is unsteady (%d..%d): keep the board still and empty, "
                    "check its wiring and calibrate again" % (hole, pos, self._min[k], self._max[k])
                )
        if self.ref and (self._min[n] < self.rail_low or self._max[n] > self.rail_high
                         or self._max[n] - self._min[n] > lim):
            raise ValueError(
                "the reference channel reads %d..%d: check its divider (two 10 kOhm resistors "
                "from the sensors' switched supply to its mux channel) and calibrate again"
                % (self._min[n], self._max[n]))

    def _check_offsets(self, avg, mid):
        """ValueError naming the first sensor whose average avg[k] lies more than
        cal_max_offset from the median mid, and every hole that has such a sensor."""
        lim = self.cal_max_offset
        bad = []
        for k in range(self.n_sensors):
            off = avg[k] - mid
            if off > lim or off < -lim:
                bad.append(k)
        if not bad:
            return
        k = bad[0]
        hole, pos = self._where(k)
        off = avg[k] - mid
        holes = []
        for j in bad:
            h = self._where(j)[0]
            if h not in holes:
                holes.append(h)
        last = holes.pop()
        s = "s" if holes else ""
        raise ValueError(
            "hole %d sensor %d reads %d, %d from the board's median %d: remove the pair%s "
            "from hole%s %s%d and calibrate again" % (
                hole, pos, avg[k], off if off > 0 else -off, mid, s, s,
                ", ".join(str(h) for h in holes) + " and " if holes else "", last))

def _median(a, n):
    """The median of a[0:n] (the mean of the middle two, rounded, for even n), found by
    counting rather than sorting, so nothing is allocated."""
    lo_i = (n - 1) // 2
    hi_i = n // 2
    lo = hi = 0
    for i in range(n):
        v = a[i]
        less = 0
        same = 0
        for j in range(n):
            if a[j] < v:
                less += 1
            elif a[j] == v:
                same += 1
        if less <= lo_i < less + same:
            lo = v
        if less <= hi_i < less + same:
            hi = v
    return lo if n % 2 else (lo + hi + 1) // 2


def save(path, zeros):
    """Write zeros (ints) to path atomically: path + ".tmp", then rename over path."""
    tmp = path + ".tmp"
    data = json.dumps([int(z) for z in zeros])
    with open(tmp, "w") as f:
        f.write(data)
    try:
        os.rename(tmp, path)
    except OSError:
        # FAT cannot rename onto an existing file (LittleFS and POSIX can)
        try:
            os.remove(path)
        except OSError:
            pass
        os.rename(tmp, path)


def forget(path):
    """Remove the file at path, if there is one."""
    try:
        os.remove(path)
    except OSError:
        pass
