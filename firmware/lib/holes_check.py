# The checks of a HoleScanner's configuration (holes.py): code needed only when one is made
# (at boot), so HoleScanner.__init__ imports this module and lets it go again.

from micropython import const

_MAX_PER_HOLE = const(5)  # 3**5 - 1 = 242 still fits array('B')


def check(n_holes, per_hole, s):
    """ValueError saying what is wrong with HoleScanner(n_holes, per_hole, s), if anything is
    (s: its HoleSettings)."""
    if n_holes < 1 or n_holes > 255:
        raise ValueError("invalid hole count: %d" % n_holes)
    if per_hole < 1 or per_hole > _MAX_PER_HOLE:
        raise ValueError("invalid sensors per hole: %d" % per_hole)
    if not 0 < s.off < s.on <= s.max_delta:
        raise ValueError("need 0 < off < on <= max_delta, got off=%d on=%d max_delta=%d"
                         % (s.off, s.on, s.max_delta))
    if not 0 <= s.rail_low < s.rail_high <= 65535:
        raise ValueError("invalid rails: %d..%d" % (s.rail_low, s.rail_high))
    if s.unstable_ms < 1:
        raise ValueError("invalid unstable time: %d ms" % s.unstable_ms)
    if s.settle_ms < 0 or s.magnets < 0 or s.magnets > per_hole:
        raise ValueError("invalid settle time %d ms or magnet count %d" % (s.settle_ms, s.magnets))
    if s.rezero_scans < 0:
        raise ValueError("invalid re-zero period: %d scans" % s.rezero_scans)
