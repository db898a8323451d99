# The thresholds and times of a holes.HoleScanner, with their defaults, and the making of a
# scanner (make: its checks, settings and arrays): code needed only while a scanner is made (at
# boot). The scanner copies what it reads of the settings, so holes.py imports this module for
# the occasion and lets it go again, and the settings go with it.

from array import array
import sys

from micropython import const

_MID_SCALE = const(32768)  # holes.py's _MID_SCALE: a zero before any calibration


class HoleSettings:
    """The thresholds and times of a HoleScanner (the top of holes.py says what each does): the
    defaults below, changed by HoleSettings(on=5000, ...) or by read()."""

    on = 4500
    off = 3500
    rail_low = 1500
    rail_high = 64000
    max_delta = 24000
    debounce_ms = 30
    unstable_ms = 1500
    settle_ms = 10
    magnets = 3
    rezero_scans = 0

    def __init__(self, **changes):
        for name in changes:
            if not isinstance(getattr(HoleSettings, name, None), int):
                raise TypeError("no hole setting %s" % name)
        self.read(changes)

    def read(self, t):
        """Take the settings that dict `t` holds (pinmap.json hall.thresholds, which holds the
        calibration's limits too: keys that are no hole setting are not read); returns self."""
        for name in t:
            if isinstance(getattr(HoleSettings, name, None), int):
                setattr(self, name, t[name])
        return self


def make(hs, n_holes, per_hole, settings):
    """Fill in HoleScanner `hs` for n_holes of per_hole sensors: `settings` is a HoleSettings,
    a dict of pinmap.json hall.thresholds (a missing key takes the default) or None (the
    defaults). ValueError when they do not fit (holes_check.py)."""
    if settings is None or isinstance(settings, dict):
        settings = HoleSettings().read(settings or {})
    # the checks are boot-only code: loaded for them and let go (holes_check.py)
    import holes_check

    try:
        holes_check.check(n_holes, per_hole, settings)
    finally:
        del sys.modules["holes_check"]
    n = n_holes * per_hole
    hs.n_holes = n_holes
    hs.per_hole = per_hole
    hs.n_sensors = n
    hs.on = settings.on
    hs.off = settings.off
    hs.rail_low = settings.rail_low
    hs.rail_high = settings.rail_high
    hs.max_delta = settings.max_delta
    hs.unstable_ms = settings.unstable_ms
    hs.debounce_ms = 0
    hs.settle_ms = settings.settle_ms
    hs.magnets = settings.magnets
    hs.rezero_scans = settings.rezero_scans
    hs._rezero_in = settings.rezero_scans
    hs.ref = False
    hs.ref_zero = 0
    hs._ref16 = 0  # the smoothed reference, in 1/16 counts (0: none yet)
    hs.shift = 0
    hs.set_debounce(settings.debounce_ms)

    hs.zero = array("H", [_MID_SCALE] * n)
    hs.state = array("B", bytes(n))
    hs.sensor_fault = array("B", bytes(n))
    hs._bad_at = array("H", bytes(2 * n))  # last insane reading of a faulted sensor (ms, 16 bits)

    hs.codes = array("B", bytes(n_holes))
    hs.hole_fault = array("B", bytes(n_holes))
    hs._cand = array("B", bytes(n_holes))
    hs._since = array("l", [0] * n_holes)  # when the candidate last changed
    hs._busy = array("l", [0] * n_holes)  # when the hole last left a stable state
    hs._quiet = array("B", [1] * n_holes)  # 1: candidate stable (or frozen), no timing

    hs.changed = array("B", bytes(n_holes))
    hs.n_changed = 0
    # kind, index, reason: bytes while the indices fit one
    hs.fault_events = array("B" if n < 256 else "H", [0] * (3 * (n + n_holes)))
    hs.n_fault_events = 0


def set_zero(hs, levels):
    """holes.HoleScanner.set_zero(levels) of scanner `hs`."""
    n = hs.n_sensors
    if len(levels) != n and len(levels) != n + 1:
        raise ValueError("need %d zero levels, got %d" % (n, len(levels)))
    for k in range(len(levels)):
        v = levels[k]
        if v < 0 or v > 65535:
            raise ValueError("invalid zero level %d for sensor %d" % (v, k))
    z = hs.zero
    for k in range(n):
        z[k] = levels[k]
    hs.ref_zero = levels[n] if len(levels) > n else 0
    hs._ref16 = 0
    hs.shift = 0
