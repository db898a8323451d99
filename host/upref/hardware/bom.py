"""The bill of materials (`hardware/bom.csv`): loading, checks against the pin map and the code
table, and the Markdown table of the build guide.

Columns: id, qty, part, manufacturer, mpn, function, unit_eur, ext_eur, reference. The last row
(id ``total``) carries the total in ext_eur. Prices are estimates in EUR for one board (small
quantities, mid-2020s), not quotes.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upref import paths
from upref.hardware import codetable

COLUMNS = (
    "id",
    "qty",
    "part",
    "manufacturer",
    "mpn",
    "function",
    "unit_eur",
    "ext_eur",
    "reference",
)
TOTAL_ID = "total"

# Every card and tile that carries an NTAG sticker, counted from each game's component list in
# its rulebook. A double-sided What's Up card carries one sticker (the referee tracks which side
# is up). Not tagged: Flip a Bird's 12 tip cards and What's Up's bird figurines, because votes and
# reservations are entered with host keys.
TAGGED: tuple[tuple[str, str, int], ...] = (
    ("What's Up", "double-sided bird cards", 30),
    ("Up", "cards of one box: 4 colour sets of 13 (1 to 11, -2, disposal)", 52),
    ("Flip a Bird", "game cards: 48 bird + 12 special (tip cards untagged)", 60),
    ("Up And Down", "task cards", 30),
    ("Upturn", "tiles: 80 numbered + 26 action", 106),
)
TAG_SPARES = 0.15  # at most this much over the count


def tag_count() -> int:
    """Stickers needed for every card and tile of the five games."""
    return sum(n for _, _, n in TAGGED)


@dataclass(frozen=True)
class Line:
    id: str
    qty: int
    part: str
    manufacturer: str
    mpn: str
    function: str
    unit_eur: float
    ext_eur: float
    reference: str


def bom_path() -> Path:
    """hardware/bom.csv of the source checkout (it is not installed with upref)."""
    return paths.hardware_dir("reading the bill of materials (hardware/bom.csv)") / "bom.csv"


def load(path: Path | str | None = None) -> tuple[list[Line], float]:
    """The BOM's lines and its stated total.

    :raises ValueError: a missing column, a bad number, or no total row.
    """
    p = Path(path) if path is not None else bom_path()
    rows = list(csv.DictReader(io.StringIO(p.read_text(encoding="utf-8"))))
    if not rows or tuple(rows[0].keys()) != COLUMNS:
        raise ValueError(f"{p}: the columns must be {', '.join(COLUMNS)}")
    lines: list[Line] = []
    total: float | None = None
    for r in rows:
        if r["id"] == TOTAL_ID:
            total = float(r["ext_eur"])
            continue
        try:
            lines.append(
                Line(
                    r["id"],
                    int(r["qty"]),
                    r["part"],
                    r["manufacturer"],
                    r["mpn"],
                    r["function"],
                    float(r["unit_eur"]),
                    float(r["ext_eur"]),
                    r["reference"],
                )
            )
        except ValueError as exc:
            raise ValueError(f"{p}: row {r['id']!r}: {exc}") from None
    if total is None:
        raise ValueError(f"{p}: no '{TOTAL_ID}' row")
    return lines, total


def check(
    lines: list[Line], total: float, pinmap: dict[str, Any], codes: dict[str, Any]
) -> list[str]:
    """Problems of the BOM: quantities that disagree with the pin map or the code table,
    line totals and the grand total that do not add up, parts without maker or number."""
    out: list[str] = []
    by_id = {ln.id: ln for ln in lines}
    if len(by_id) != len(lines):
        out.append("an id is used by two lines")
    hall = pinmap["hall"]
    sensors = hall["holes"] * hall["sensors_per_hole"]
    muxes = len(pinmap["mux"]["banks"])
    magnets = codetable.MAGNETS_PER_END * len(codetable.codes_of(codes))
    want = {
        "hall_sensor": sensors,
        "mux": muxes,
        "magnet": magnets,
        "mcu": 1,
        "rfid": 1,
        "led": 1,
        "buzzer": 1,
        "button": 1,
        "cap_100n": sensors + muxes + 1,
    }
    power = pinmap["mux"].get("power")
    if isinstance(power, list) and power:
        # the switched sensor supply: a P-MOSFET and its gate pull-up per bank
        want.update(pmos=len(power), resistor_10k=len(power))
    if pinmap["mux"].get("ref"):
        want["ref_divider"] = 2  # the reference channel: the switched supply halved
    for key, n in want.items():
        if key not in by_id:
            out.append(f"no '{key}' line (need {n})")
        elif by_id[key].qty != n:
            out.append(f"'{key}': {by_id[key].qty}, but the board needs {n}")
    tags = tag_count()
    if "tag" not in by_id:
        out.append(f"no 'tag' line (need {tags})")
    elif not tags <= by_id["tag"].qty <= tags * (1 + TAG_SPARES):
        out.append(
            f"'tag': {by_id['tag'].qty}, but the games have {tags} cards and tiles "
            f"(buy up to {TAG_SPARES:.0%} spare)"
        )
    for ln in lines:
        if not ln.manufacturer or not ln.mpn:
            out.append(f"'{ln.id}': needs a manufacturer and a part number")
        if ln.qty <= 0 or ln.unit_eur < 0:
            out.append(f"'{ln.id}': quantity and price must be positive")
        if round(ln.qty * ln.unit_eur, 2) != round(ln.ext_eur, 2):
            out.append(
                f"'{ln.id}': {ln.qty} x {ln.unit_eur:.2f} is "
                f"{ln.qty * ln.unit_eur:.2f}, not {ln.ext_eur:.2f}"
            )
    s = round(sum(ln.ext_eur for ln in lines), 2)
    if s != round(total, 2):
        out.append(f"the lines add up to {s:.2f} EUR, the total row says {total:.2f}")
    return out


def render_markdown(lines: list[Line], total: float) -> str:
    """The BOM as a Markdown table, with the total."""
    out = [
        "| qty | part | manufacturer | part number | function | EUR each | EUR |",
        "|---:|---|---|---|---|---:|---:|",
    ]
    for ln in lines:
        cells = [
            str(ln.qty),
            ln.part,
            ln.manufacturer,
            f"`{ln.mpn}`",
            ln.function,
            f"{ln.unit_eur:.2f}",
            f"{ln.ext_eur:.2f}",
        ]
        out.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    out.append(f"| | **total** | | | | | **{total:.2f}** |")
    return "\n".join(out)
