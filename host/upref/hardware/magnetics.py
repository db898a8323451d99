"""The magnets, the sensor layout under a hole, and why crosstalk never crosses a threshold.

A molehill has four DRV5055A2 hall sensors at the corners of a square (positions P1..P4
clockwise seen from above, P1 at the upper right with the hole's key flat at the top). The
mole end that is down carries a 5 mm x 2 mm N52 disc magnet (axially magnetised) over three of
the four positions, the pole named in the code table facing the sensor.

The field model is exact for a uniformly magnetised cylinder: its field equals that of two
discs of magnetic surface charge +-Br/mu0 on its end faces; the vertical field of each disc at
any point is integrated numerically (Gauss-Legendre in radius, the midpoint rule in angle,
which is spectrally accurate for a periodic integrand). Points are at least a millimetre from
the discs, where the integrands are smooth.

Field to counts: the DRV5055A2 gives 30 mV/mT (+-5 %) at VCC = 3.3 V around a quiescent
output of 1.59..1.71 V (TI DRV5055 datasheet, SBAS640, "Magnetic Characteristics"). The ESP32's
ADC1 at 11 dB is not calibrated in `read_u16`: its slope and its zero depend on the chip's
reference voltage, 1000..1200 mV (the curve Espressif's calibration inverts, in
`upref/chip/esp32_adc.py`), so 1 mV is 18.2 counts on a chip of Vref 1200 mV and 21.8 on
one of 1000 mV, and a sensor at rest reads 26,300..34,300 counts. Every check below takes the
chip that is worst for it: a magnet's signal on the chip of the lowest slope, crosstalk on the
one of the highest.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field
from functools import lru_cache

from upref.chip import esp32_adc

MU0 = 4e-7 * math.pi
NOISE_SIGMA = 150  # the ADC's noise on one reading, counts (the simulated board's, physics.py)


@dataclass(frozen=True)
class Magnet:
    """An axially magnetised disc magnet."""

    diameter_mm: float = 5.0
    thickness_mm: float = 2.0
    grade: str = "N52"
    br_min_T: float = 1.42  # N52 remanence range, 14.2-14.8 kG
    br_max_T: float = 1.48
    part: str = "Webcraft (supermagnete) S-05-02-N52N, disc 5 x 2 mm, N52"


@dataclass(frozen=True)
class Layout:
    """Where the sensors and magnets sit under one hole."""

    pitch_mm: float = 8.0  # between neighbouring positions (P1-P2, P2-P3, ...)
    gap_mm: float = 6.7  # magnet face to the sensor's Hall element
    gap_tol_mm: float = 0.4
    base_diameter_mm: float = 18.0  # the mole end's base
    flat_mm: float = 7.5  # the key flat, from the base centre

    @property
    def radius_mm(self) -> float:
        """Distance of each position from the hole's centre."""
        return self.pitch_mm / math.sqrt(2)

    @property
    def across_mm(self) -> float:
        """Distance between opposite positions (P1-P3, P2-P4)."""
        return self.pitch_mm * math.sqrt(2)


@dataclass(frozen=True)
class Sensor:
    """The hall sensor and the ADC behind it."""

    part: str = "TI DRV5055A2 (TO-92 LPG: DRV5055A2QLPG)"
    mv_per_mT: float = 30.0  # A2 at VCC = 3.3 V
    tolerance: float = 0.05
    linear_range_mT: float = 44.0  # A2 at 3.3 V
    quiescent_mv: tuple[float, float] = (1590.0, 1710.0)  # VQ at 3.3 V, min..max
    vref_mv: tuple[int, int] = (esp32_adc.VREF_MIN_MV, esp32_adc.VREF_MAX_MV)  # the ESP32's ADC

    def counts_per_mv(self, vref_mv: int) -> float:
        """read_u16 counts per mV at the pin around mid-scale, on a chip of this Vref."""
        c = esp32_adc.Curve(vref_mv)
        return (c.raw16(1_800_000) - c.raw16(1_500_000)) / 300.0

    @property
    def counts_per_mv_range(self) -> tuple[float, float]:
        """(lowest, highest) counts per mV over the chips' Vref range."""
        a, b = (self.counts_per_mv(v) for v in self.vref_mv)
        return min(a, b), max(a, b)

    def zero_range(self) -> tuple[int, int]:
        """What a sensor at rest reads, over its quiescent voltage and every chip's Vref."""
        zeros = [
            esp32_adc.Curve(v).read_u16(round(q * 1000))
            for v in self.vref_mv
            for q in self.quiescent_mv
        ]
        return min(zeros), max(zeros)


MAGNET = Magnet()
LAYOUT = Layout()
SENSOR = Sensor()


def _gauss_legendre(n: int) -> tuple[list[float], list[float]]:
    xs, ws = [], []
    for i in range(1, n + 1):
        z = math.cos(math.pi * (i - 0.25) / (n + 0.5))
        for _ in range(100):
            p1, p2 = 1.0, 0.0
            for j in range(1, n + 1):
                p1, p2 = ((2 * j - 1) * z * p1 - (j - 1) * p2) / j, p1
            dp = n * (z * p1 - p2) / (z * z - 1)
            z, z_old = z - p1 / dp, z
            if abs(z - z_old) < 1e-15:
                break
        xs.append(z)
        ws.append(2 / ((1 - z * z) * dp * dp))
    return xs, ws


_GL = _gauss_legendre(24)
_NPHI = 96


@lru_cache(maxsize=4096)
def _disc(radius: float, lateral: float, height: float) -> float:
    """Vertical field (per unit surface charge, over 4 pi) of a uniformly charged disc, at a
    point `height` above or below its plane and `lateral` off its axis."""
    total = 0.0
    for x, w in zip(*_GL, strict=True):
        r = radius * (x + 1) / 2
        ring = 0.0
        for k in range(_NPHI):
            phi = 2 * math.pi * (k + 0.5) / _NPHI
            dx = lateral - r * math.cos(phi)
            dy = r * math.sin(phi)
            ring += height / (dx * dx + dy * dy + height * height) ** 1.5
        total += w * radius / 2 * r * ring * 2 * math.pi / _NPHI
    return total


def field_mT(lateral_mm: float, gap_mm: float, br_T: float, magnet: Magnet = MAGNET) -> float:
    """Vertical field in mT at a point `gap_mm` below the magnet's face and `lateral_mm` off
    its axis, positive along the magnetisation: a north pole facing the sensor gives a
    positive value right under it, and small negative values far to the side."""
    a = magnet.diameter_mm / 2
    near = _disc(a, lateral_mm, gap_mm)
    far = _disc(a, lateral_mm, gap_mm + magnet.thickness_mm)
    return 1000 * br_T / (4 * math.pi) * (near - far)


@dataclass
class Analysis:
    """Worst cases of one layout, in ADC counts (delta from the sensor's zero)."""

    direct_min: float
    direct_max: float
    neighbour_max: float
    opposite_max: float
    empty_max: float  # an empty position with magnets at both neighbours and across, same pole
    weakest: float  # the weakest magnet with its neighbours and the one across of the other pole
    strongest: float
    zero_spread: float  # two sensors' zeros apart on one board (VQ tolerance, steepest chip)
    zero_low: float  # the lowest and highest zero of any sensor on any chip
    zero_high: float
    detect_min: float  # the weakest magnet's reading less the zero spread: a pair left in a hole
    checks: list[tuple[str, float, str, float, bool]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c[4] for c in self.checks)


def analyse(
    thresholds: dict[str, int],
    magnet: Magnet = MAGNET,
    layout: Layout = LAYOUT,
    sensor: Sensor = SENSOR,
) -> Analysis:
    """The worst cases over magnet strength (Br range), depth (gap +- tolerance), sensor
    sensitivity (+- tolerance) and the ESP32's ADC (Vref range), checked against the firmware's
    thresholds (pinmap.json hall.thresholds: on, off, max_delta, cal_max_offset, cal_zero_low,
    cal_zero_high). Signals are in counts on the chip worst for each check; "sigma" margins
    are in units of the ADC's noise on one reading."""
    g_lo, g_hi = layout.gap_mm - layout.gap_tol_mm, layout.gap_mm + layout.gap_tol_mm
    s_lo, s_hi = 1 - sensor.tolerance, 1 + sensor.tolerance
    c_lo, c_hi = sensor.counts_per_mv_range

    def mv(lateral: float, gap: float, br: float, scale: float) -> float:
        return field_mT(lateral, gap, br, magnet) * sensor.mv_per_mT * scale

    corners = [
        (g, br, s)
        for g in (g_lo, layout.gap_mm, g_hi)
        for br in (magnet.br_min_T, magnet.br_max_T)
        for s in (s_lo, s_hi)
    ]
    direct = [mv(0, g, br, s) for g, br, s in corners]
    nb = max(abs(mv(layout.pitch_mm, g, br, s)) for g, br, s in corners)
    opp = max(abs(mv(layout.across_mm, g, br, s)) for g, br, s in corners)
    spread_mv = sensor.quiescent_mv[1] - sensor.quiescent_mv[0]
    zero_low, zero_high = sensor.zero_range()
    weakest_mv = min(direct) - 2 * nb - opp
    a = Analysis(
        direct_min=min(direct) * c_lo,
        direct_max=max(direct) * c_hi,
        neighbour_max=nb * c_hi,
        opposite_max=opp * c_hi,
        empty_max=(2 * nb + opp) * c_hi,
        weakest=weakest_mv * c_lo,
        strongest=(max(direct) + 2 * nb + opp) * c_hi,
        zero_spread=spread_mv * c_hi,
        zero_low=zero_low,
        zero_high=zero_high,
        detect_min=(weakest_mv - spread_mv) * c_lo,
    )
    a.checks = _checks(a, thresholds, field_mT(0, g_lo, magnet.br_max_T, magnet), sensor)
    return a


_HOLDS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}


def _check(name: str, value: float, rule: str, limit: float) -> tuple[str, float, str, float, bool]:
    """One line of the analysis: the case, its value, the rule and limit, and whether it holds."""
    return (name, value, rule, limit, _HOLDS[rule](value, limit))


def _checks(a: Analysis, thresholds: dict[str, int], closest_mT: float,
            sensor: Sensor) -> list[tuple[str, float, str, float, bool]]:
    """The worst cases of `a` against the firmware's thresholds; closest_mT is the field of the
    strongest magnet at the smallest gap."""
    on, off = thresholds["on"], thresholds["off"]
    limit = thresholds["cal_max_offset"]
    sigma = NOISE_SIGMA
    return [
        _check("a neighbour's magnet alone", a.neighbour_max, "<=", 2500),
        _check("empty position, worst crosstalk, plus 5 sigma of noise", a.empty_max + 5 * sigma,
               "<", off),
        _check("weakest magnet against its neighbours, less 5 sigma of noise",
               a.weakest - 5 * sigma, ">=", on),
        _check("strongest reading", a.strongest, "<=", thresholds["max_delta"]),
        _check("two sensors' zeros apart on one board (calibration: from the board's median)",
               a.zero_spread, "<=", limit),
        _check("a pair left in a hole, off the board's median (calibration refuses it)",
               a.detect_min, ">", limit),
        _check("lowest zero of any sensor on any ESP32", a.zero_low, ">=",
               thresholds["cal_zero_low"]),
        _check("highest zero of any sensor on any ESP32", a.zero_high, "<=",
               thresholds["cal_zero_high"]),
        _check("field inside the A2's linear range (mT)", closest_mT, "<=",
               sensor.linear_range_mT),
    ]


def markdown_table(a: Analysis) -> str:
    """The analysis as a Markdown table (for docs/build.md)."""
    lines = [
        "| case | counts | rule | limit | holds |",
        "|---|---:|---|---:|---|",
        f"| magnet right over its sensor | {a.direct_min:,.0f} to {a.direct_max:,.0f} | | | |",
        f"| magnet at the next position | up to {a.neighbour_max:,.0f} | | | |",
        f"| magnet across the hole | up to {a.opposite_max:,.0f} | | | |",
    ]
    for name, value, rule, limit, ok in a.checks:
        lines.append(
            f"| {name} | {value:,.0f} | {rule} | {limit:,.0f} | {'yes' if ok else '**NO**'} |"
        )
    return "\n".join(lines)
