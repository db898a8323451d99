"""The magnet code table (`hardware/codes.json`): checks, one-flip neighbours, the glue-up sheet.

A code is sum(trit[i] * 3**i) over the positions P1..P4 (i = 0..3), trit 0 = no magnet,
1 = north and 2 = south facing the sensor. Every end of every mole pair carries exactly three
magnets, so a code says which position is empty and the poles of the other three.

**One flipped pole.** A magnet glued the wrong way up, or one sensor misreading its pole, turns
a code into one of its *one-flip neighbours* (same empty position, one pole different). The table
was chosen to have as few neighbour pairs as possible; `min_one_flip_pairs` proves how few that
is (12 for 20 codes) and `one_flip_pairs` lists the table's own. A code seen where the referee
expected its neighbour is `suspect`: the referee should ask to reseat the pair rather than rule
a wrong move.

Why 12 is the minimum: a flip never moves a magnet, so two codes are neighbours only if they
leave the same position empty. The 32 three-magnet codes therefore fall into 4 groups of 8
(one per empty position), and inside a group the codes are the corners of a cube (3 poles,
each N or S) with neighbours along its edges. Choosing k corners of a cube leaves at least
f(k) = 0, 0, 0, 0, 0, 3, 6, 9, 12 edges for k = 0..8 (found by trying every subset), so 20
codes over 4 groups leave at least min over k1+..+k4 = 20 of sum f(ki) = 12 (at 5+5+5+5, or
4+4+4+8 and the like). `min_one_flip_pairs` does exactly this search.
"""

from __future__ import annotations

import html
import itertools
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from upref import paths
from upref.board.codes import MAGNETS_PER_END, PAIR_COUNT, code_of, one_flip_neighbours
from upref.hardware import magnetics
from upref.link.protocol import MAX_CODE, POSITIONS

CODE_COUNT = 2 * PAIR_COUNT


# -- checks ---------------------------------------------------------------------------------


def _end_problems(name: str, end: Any, colours: dict[str, Any], where: dict[int, str],
                  hidden: list[str]) -> list[str]:
    """The problems of one end of pair `name`; its hidden colour joins `hidden`, its code
    `where` (code -> the end that has it)."""
    if not isinstance(end, dict):
        return [f"{name}: an end is not an object: {end!r}"]
    out: list[str] = []
    colour, magnets, code = end.get("hidden"), end.get("magnets"), end.get("code")
    label = f"{name} end {colour}"
    if colour not in colours:
        out.append(f"{label}: hidden colour {colour!r} is not one of {sorted(colours)}")
    hidden.append(str(colour))
    if not isinstance(code, int) or not isinstance(magnets, str):
        return out + [f"{label}: needs 'magnets' (a string) and 'code' (an integer)"]
    try:
        from_magnets = code_of(magnets)
    except ValueError as exc:
        return out + [f"{label}: {exc}"]
    if from_magnets != code:
        out.append(
            f"{label}: code {code} does not match magnets {magnets!r} "
            f"(which make {from_magnets})"
        )
    n = POSITIONS - magnets.count("-")
    if n != MAGNETS_PER_END:
        out.append(f"{label}: {magnets!r} has {n} magnets; every end needs {MAGNETS_PER_END}")
    if code in where:
        out.append(f"{label}: code {code} is also {where[code]}")
    where.setdefault(code, label)
    return out


def _pair_problems(i: int, pair: Any, colours: dict[str, Any], where: dict[int, str],
                   edges: list[frozenset[str]]) -> list[str]:
    """The problems of the i-th pair and its ends; the colours it joins go on `edges`."""
    pid = pair.get("id") if isinstance(pair, dict) else None
    name = pid if isinstance(pid, str) else f"pair #{i + 1}"
    ends = pair.get("ends") if isinstance(pair, dict) else None
    if not isinstance(ends, list) or len(ends) != 2:
        return [f"{name}: needs exactly 2 ends"]
    out: list[str] = []
    hidden: list[str] = []
    for end in ends:
        out += _end_problems(name, end, colours, where, hidden)
    if len(hidden) == 2:
        if hidden[0] == hidden[1]:
            out.append(f"{name}: both ends hide {hidden[0]}; a pair has two colours")
        else:
            edges.append(frozenset(hidden))
            if isinstance(pid, str) and set(pid.split("-", 1)[-1]) != set(hidden):
                out.append(
                    f"{name}: its ends hide {hidden[0]} and {hidden[1]}, not the "
                    "colours of its id"
                )
    return out


def validate(data: Any) -> list[str]:
    """Every problem of a parsed code table; empty when it is fine. Checks: 20 distinct codes,
    each with exactly three magnets and a number that matches its magnet string, each pair's
    two ends hiding different colours, and the pairs being exactly the 10 edges of K5 (every
    colour paired with every other once) with ids that name their colours."""
    if not isinstance(data, dict):
        return ["code table: the top level must be an object"]
    colours = data.get("colours")
    pairs = data.get("pairs")
    if not isinstance(colours, dict) or not colours:
        return ["code table: needs a 'colours' object"]
    if not isinstance(pairs, list):
        return ["code table: needs a 'pairs' list"]
    out: list[str] = []
    where: dict[int, str] = {}
    edges: list[frozenset[str]] = []
    for i, pair in enumerate(pairs):
        out += _pair_problems(i, pair, colours, where, edges)
    k5 = {frozenset(e) for e in itertools.combinations(sorted(colours), 2)}
    for e in sorted(k5 - set(edges), key=sorted):
        out.append(
            f"code table: no pair joins {'-'.join(sorted(e))} (the pairs must be K5's edges)"
        )
    for e in sorted({e for e in edges if edges.count(e) > 1}, key=sorted):
        out.append(f"code table: {edges.count(e)} pairs join {'-'.join(sorted(e))}")
    if len(where) != CODE_COUNT:
        out.append(f"code table: {len(where)} distinct codes; the board needs {CODE_COUNT}")
    return out


def load(path: Path | str | None = None) -> dict[str, Any]:
    """The parsed code table (default: the one upref ships, `paths.codes_path()`), unchecked."""
    p = Path(path) if path is not None else paths.codes_path()
    return json.loads(p.read_text(encoding="utf-8"))


def load_and_validate(path: Path | str | None = None) -> list[str]:
    """Read and validate a code table; unreadable files and bad JSON come back as problems."""
    try:
        data = load(path)
    except OSError as exc:
        return [f"code table: cannot read it: {exc.strerror or exc}"]
    except json.JSONDecodeError as exc:
        return [f"code table: not valid JSON: {exc}"]
    return validate(data)


def ends(data: dict[str, Any]) -> list[tuple[str, str, str, str, int]]:
    """(pair id, hidden colour, visible colour, magnets, code) of every end, in table order."""
    out = []
    for pair in data["pairs"]:
        a, b = pair["ends"]
        out.append((pair["id"], a["hidden"], b["hidden"], a["magnets"], a["code"]))
        out.append((pair["id"], b["hidden"], a["hidden"], b["magnets"], b["code"]))
    return out


def codes_of(table: Any) -> list[int]:
    """The codes of a table: a parsed codes.json, a `upref.board.codes.CodeTable`, or codes."""
    if isinstance(table, dict):
        return sorted(e[4] for e in ends(table))
    if hasattr(table, "codes") and callable(table.codes):
        return sorted(table.codes())
    return sorted(int(c) for c in table)


# -- one flipped pole -----------------------------------------------------------------------


def flip_neighbours(code: int, table: Any = None) -> list[int]:
    """The codes one flipped pole away from `code` (same empty positions, one N <-> S), in
    ascending order; only those of `table` when one is given."""
    near = one_flip_neighbours(code)
    if table is None:
        return near
    keep = set(codes_of(table))
    return [c for c in near if c in keep]


def one_flip_pairs(table: Any) -> list[tuple[int, int]]:
    """Every pair of codes of the table one flipped pole apart, (smaller, larger), sorted."""
    codes = codes_of(table)
    have = set(codes)
    return sorted((a, b) for a in codes for b in one_flip_neighbours(a) if a < b and b in have)


def suspect(code_seen: int, expected_code: int | Iterable[int]) -> bool:
    """True when `code_seen` is not what the referee expected but one flipped pole away from
    an expected code: more likely a misread (a weak or reversed magnet, a sensor off its
    zero) than a pair in the wrong hole, so ask the player to reseat the pair before ruling."""
    expected = {expected_code} if isinstance(expected_code, int) else set(expected_code)
    if code_seen in expected:
        return False
    return any(code_seen in one_flip_neighbours(e) for e in expected if 0 < e <= MAX_CODE)


def cube_minima(poles: int = MAGNETS_PER_END) -> list[int]:
    """f(k): the fewest neighbour pairs among k corners of the `poles`-cube, k = 0..2**poles,
    by trying every subset."""
    n = 2**poles
    corners = range(n)
    edges = [(a, a ^ (1 << i)) for a in corners for i in range(poles) if a < a ^ (1 << i)]
    best = [len(edges)] * (n + 1)
    for mask in range(1 << n):
        k = bin(mask).count("1")
        inside = sum(1 for a, b in edges if mask >> a & 1 and mask >> b & 1)
        best[k] = min(best[k], inside)
    return best


def min_one_flip_pairs(
    n_codes: int = CODE_COUNT, positions: int = POSITIONS, magnets: int = MAGNETS_PER_END
) -> int:
    """The fewest one-flip neighbour pairs any set of `n_codes` codes with exactly `magnets`
    magnets over `positions` positions can have: the groups by empty positions are separate
    cubes, so it is the best split of n_codes over the groups of the cubes' own minima."""
    groups = len(list(itertools.combinations(range(positions), positions - magnets)))
    f = cube_minima(magnets)
    per_group = len(f) - 1
    if not 0 <= n_codes <= groups * per_group:
        raise ValueError(f"{n_codes} codes do not fit in {groups} groups of {per_group}")
    inf = float("inf")
    best = [0.0] + [inf] * n_codes  # best[m]: fewest pairs with m codes in the groups so far
    for _ in range(groups):
        best = [
            min((best[m - k] + f[k] for k in range(min(m, per_group) + 1)), default=inf)
            for m in range(n_codes + 1)
        ]
    return int(best[n_codes])


def cover_set(data: dict[str, Any]) -> list[tuple[str, str, str, str, int]]:
    """The fewest ends (table order) that between them put N, S and no magnet over every
    position: inserted into a hole one after the other they make each of its sensors read
    north, south and nothing (the quick per-hole self-test)."""
    all_ends = ends(data)
    need = {(p, s) for p in range(POSITIONS) for s in "-NS"}
    for size in range(1, len(all_ends) + 1):
        for combo in itertools.combinations(all_ends, size):
            if need <= {(p, e[3][p]) for e in combo for p in range(POSITIONS)}:
                return list(combo)
    raise ValueError("no set of ends puts N, S and no magnet over every position")


# -- the glue-up sheet ----------------------------------------------------------------------

_POLE_FILL = {"N": "#d62728", "S": "#1f77b4"}
_COLOUR_FILL = {"R": "#d62728", "B": "#1f77b4", "Y": "#f2c500", "W": "#ffffff", "K": "#222222"}
# position -> (dx, dy) unit offsets. Board, seen from above with the key flat at the top:
# P1 upper right, then clockwise. The end's face, seen by the person gluing (the end turned
# face up, flat at the top), is the mirror image: P1 upper left, then counter-clockwise.
_BOARD_XY = {1: (1, -1), 2: (1, 1), 3: (-1, 1), 4: (-1, -1)}
_FACE_XY = {p: (-x, y) for p, (x, y) in _BOARD_XY.items()}


def _base(cx: float, cy: float, scale: float, layout: magnetics.Layout) -> str:
    """The base outline: a circle with the key flat cut at the top."""
    r = layout.base_diameter_mm / 2 * scale
    f = layout.flat_mm * scale
    half = (r * r - f * f) ** 0.5
    return (
        f'<path d="M {cx - half:.1f} {cy - f:.1f} A {r:.1f} {r:.1f} 0 1 0 {cx + half:.1f} '
        f'{cy - f:.1f} Z" fill="#f4f4f4" stroke="#333" stroke-width="1.5"/>'
    )


def _face(
    cx: float,
    cy: float,
    magnets: str,
    scale: float,
    layout: magnetics.Layout,
    xy: dict[int, tuple[int, int]],
    magnet_d: float,
) -> list[str]:
    out = [_base(cx, cy, scale, layout)]
    off = layout.radius_mm / 2**0.5 * scale
    mr = magnet_d / 2 * scale
    for p in range(1, POSITIONS + 1):
        dx, dy = xy[p]
        x, y = cx + dx * off, cy + dy * off
        pole = magnets[p - 1]
        if pole == "H":  # a hall sensor, for the board's view
            out.append(
                f'<rect x="{x - 10:.1f}" y="{y - 7:.1f}" width="20" height="14" rx="2" '
                'fill="#444"/>'
            )
            out.append(
                f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" font-size="8" '
                'fill="#fff">hall</text>'
            )
        elif pole == "-":
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{mr:.1f}" fill="none" '
                'stroke="#999" stroke-dasharray="3 2"/>'
            )
            out.append(
                f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" '
                'font-size="9" fill="#999">empty</text>'
            )
        else:
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{mr:.1f}" '
                f'fill="{_POLE_FILL[pole]}" stroke="#222"/>'
            )
            out.append(
                f'<text x="{x:.1f}" y="{y + 6:.1f}" text-anchor="middle" font-size="17" '
                f'font-weight="bold" fill="#fff">{pole}</text>'
            )
        lx = x + dx * (mr + 9)
        ly = y + dy * (mr + 6) + 4
        out.append(
            f'<text x="{lx:.1f}" y="{ly:.1f}" text-anchor="middle" font-size="10" '
            f'fill="#555">P{p}</text>'
        )
    out.append(
        f'<text x="{cx:.1f}" y="{cy - layout.flat_mm * scale - 5:.1f}" '
        'text-anchor="middle" font-size="9" fill="#555">key flat</text>'
    )
    return out


_GLUEUP_INTRO = (
    "Each drawing is the face of one mole end as you hold it to glue: face up, key flat",
    "at the top. Glue a {d:g} x {t:g} mm {grade} disc in each marked pocket with the named pole",
    "facing up, out of the face: it faces the sensors when this end is down in the hole.",
    "Check every pole with a compass or a marked magnet before the glue sets.",
    "The face is the mirror image of the board seen from above (right): P1 is upper left",
    "here, upper right on the board. Base and hole are keyed: an end goes in one way only.",
)
_GLUEUP_LEGEND = (
    ("N", _POLE_FILL["N"], "north pole up (it faces the sensor)"),
    ("S", _POLE_FILL["S"], "south pole up (it faces the sensor)"),
    ("", "none", "no magnet: leave the pocket empty"),
)
_GLUEUP_SCALE = 7.0  # px per mm
_GLUEUP_COLS, _GLUEUP_CELL, _GLUEUP_HEAD = 4, 250, 290  # ends per row, a cell's side, the heading


def _glueup_board(bx: int, by: int, layout: magnetics.Layout, magnet: magnetics.Magnet) -> list[str]:
    """The board's layout under a hole, seen from above, with its distances."""
    out = [
        f'<text x="{bx}" y="{by - 95}" text-anchor="middle" font-size="13" '
        'font-weight="bold">board, seen from above</text>'
    ]
    out += _face(bx, by, "HHHH", _GLUEUP_SCALE, layout, _BOARD_XY, magnet.diameter_mm)
    for i, line in enumerate(
        (
            f"sensors {layout.pitch_mm:g} mm apart, {layout.across_mm:.1f} mm across,",
            f"Hall element {layout.gap_mm:g} mm below the magnet face",
        )
    ):
        out.append(
            f'<text x="{bx}" y="{by + 88 + 14 * i}" text-anchor="middle" '
            f'font-size="11">{html.escape(line)}</text>'
        )
    return out


def _glueup_legend() -> list[str]:
    """What a pocket's mark means."""
    out: list[str] = []
    for i, (letter, fill, text) in enumerate(_GLUEUP_LEGEND):
        y = 184 + 30 * i
        dash = ' stroke-dasharray="3 2"' if not letter else ""
        out.append(f'<circle cx="40" cy="{y}" r="12" fill="{fill}" stroke="#555"{dash}/>')
        if letter:
            out.append(
                f'<text x="40" y="{y + 6}" text-anchor="middle" font-size="15" '
                f'font-weight="bold" fill="#fff">{letter}</text>'
            )
        out.append(f'<text x="62" y="{y + 5}" font-size="13">{text}</text>')
    return out


def _glueup_end(i: int, end: tuple[str, str, str, str, int], colours: dict[str, str],
                layout: magnetics.Layout, magnet: magnetics.Magnet) -> list[str]:
    """The cell of the i-th end: its name, what it hides, its code and its face."""
    pid, hidden, visible, magnets, code = end
    cell = _GLUEUP_CELL
    col, row = i % _GLUEUP_COLS, i // _GLUEUP_COLS
    x0, y0 = 10 + col * cell, _GLUEUP_HEAD + row * cell
    cx, cy = x0 + cell / 2, y0 + 130
    return [
        f'<rect x="{x0 + 4}" y="{y0}" width="{cell - 8}" height="{cell - 10}" '
        'fill="none" stroke="#ccc" rx="6"/>',
        f'<text x="{cx:.0f}" y="{y0 + 22}" text-anchor="middle" font-size="15" '
        f'font-weight="bold">{html.escape(pid)} - end {html.escape(hidden)}</text>',
        f'<rect x="{x0 + 14}" y="{y0 + 31}" width="12" height="12" '
        f'fill="{_COLOUR_FILL.get(hidden, "#888")}" stroke="#333"/>',
        f'<text x="{x0 + 32}" y="{y0 + 42}" font-size="11">down: hides '
        f"{html.escape(colours.get(hidden, hidden))}, "
        f"{html.escape(colours.get(visible, visible))} stands up</text>",
        f'<text x="{cx:.0f}" y="{y0 + 58}" text-anchor="middle" font-size="11" '
        f'fill="#555">code {code}: {html.escape(magnets)} (P1..P4)</text>',
        *_face(cx, cy + 12, magnets, _GLUEUP_SCALE, layout, _FACE_XY, magnet.diameter_mm),
    ]


def glueup_svg(
    data: dict[str, Any],
    layout: magnetics.Layout = magnetics.LAYOUT,
    magnet: magnetics.Magnet = magnetics.MAGNET,
) -> str:
    """One sheet for the whole set: for each end of each pair, its face as you hold it to glue
    (face up, key flat at the top), which positions get a magnet and which pole faces up (it
    faces the sensors when this end is down), with the board's layout for reference."""
    colours = {str(k): str(v) for k, v in data["colours"].items()}
    rows = (CODE_COUNT + _GLUEUP_COLS - 1) // _GLUEUP_COLS
    width, height = _GLUEUP_COLS * _GLUEUP_CELL + 20, _GLUEUP_HEAD + rows * _GLUEUP_CELL + 10
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#fff"/>',
        '<text x="20" y="32" font-size="20" font-weight="bold">upref: magnet glue-up sheet '
        "(hardware/codes.json)</text>",
    ]
    for i, line in enumerate(_GLUEUP_INTRO):
        line = line.format(d=magnet.diameter_mm, t=magnet.thickness_mm, grade=magnet.grade)
        out.append(f'<text x="20" y="{58 + 17 * i}" font-size="13">{html.escape(line)}</text>')
    out += _glueup_board(width - 150, 150, layout, magnet)
    out += _glueup_legend()
    for i, end in enumerate(ends(data)):
        out += _glueup_end(i, end, colours, layout, magnet)
    out.append("</svg>")
    return "\n".join(out) + "\n"
