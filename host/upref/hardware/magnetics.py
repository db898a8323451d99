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

Field to counts: the DRV5055A2 gives 30 mV/mT (+-5 %) at VCC = 3.3 V (TI DRV5055 datasheet,
SBAS640, "Magnetic Characteristics"); the ESP32's ADC1 at 11 dB attenuation reads about 3.1 V at
full scale, which `read_u16` maps to 65535, so 1 mV is about 21 counts and 1 mT about 634.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

MU0 = 4e-7 * math.pi
MID_SCALE = 32768  # the firmware's nominal zero (firmware/lib/calib.py)


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
    counts_per_mv: float = 65535 / 3100  # ESP32 ADC1, 11 dB, read_u16

    def counts(self, mT: float) -> float:
        return mT * self.mv_per_mT * self.counts_per_mv


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
    offset_max: float  # a sensor's zero away from the firmware's mid-scale (VQ tolerance)
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
    """The worst cases over magnet strength (Br range), depth (gap +- tolerance) and sensor
    sensitivity (+- tolerance), checked against the firmware's thresholds (pinmap.json
    hall.thresholds: on, off, max_delta, cal_max_offset)."""
    g_lo, g_hi = layout.gap_mm - layout.gap_tol_mm, layout.gap_mm + layout.gap_tol_mm
    s_lo, s_hi = 1 - sensor.tolerance, 1 + sensor.tolerance

    def counts(lateral: float, gap: float, br: float, scale: float) -> float:
        return sensor.counts(field_mT(lateral, gap, br, magnet)) * scale

    corners = [
        (g, br, s)
        for g in (g_lo, layout.gap_mm, g_hi)
        for br in (magnet.br_min_T, magnet.br_max_T)
        for s in (s_lo, s_hi)
    ]
    direct = [counts(0, g, br, s) for g, br, s in corners]
    neighbour = [abs(counts(layout.pitch_mm, g, br, s)) for g, br, s in corners]
    opposite = [abs(counts(layout.across_mm, g, br, s)) for g, br, s in corners]
    nb, opp = max(neighbour), max(opposite)
    a = Analysis(
        direct_min=min(direct),
        direct_max=max(direct),
        neighbour_max=nb,
        opposite_max=opp,
        empty_max=2 * nb + opp,
        weakest=min(direct) - 2 * nb - opp,
        strongest=max(direct) + 2 * nb + opp,
        offset_max=max(abs(v * sensor.counts_per_mv - MID_SCALE) for v in sensor.quiescent_mv),
    )
    on, off = thresholds["on"], thresholds["off"]
    a.checks = [
        ("a neighbour's magnet alone", a.neighbour_max, "<=", 2500, a.neighbour_max <= 2500),
        ("empty position, worst crosstalk", a.empty_max, "<", off, a.empty_max < off),
        ("weakest magnet against its neighbours", a.weakest, ">=", on, a.weakest >= on),
        (
            "strongest reading",
            a.strongest,
            "<=",
            thresholds["max_delta"],
            a.strongest <= thresholds["max_delta"],
        ),
        (
            "sensor zero off mid-scale",
            a.offset_max,
            "<=",
            thresholds["cal_max_offset"],
            a.offset_max <= thresholds["cal_max_offset"],
        ),
        (
            "field inside the A2's linear range (mT)",
            field_mT(0, g_lo, magnet.br_max_T, magnet),
            "<=",
            sensor.linear_range_mT,
            field_mT(0, g_lo, magnet.br_max_T, magnet) <= sensor.linear_range_mT,
        ),
    ]
    return a


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
