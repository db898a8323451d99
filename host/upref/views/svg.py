"""Table pieces (`upref.views.pieces`) drawn as inline SVG for the page: one renderer for every
game, which knows no game.

Pure: a `Drawing` in, an HTML fragment out, every text and attribute escaped. Nothing is
fetched and no `style` attribute is written (the page's content security policy allows only its
own style sheet): geometry is in SVG attributes, colours and emphasis in classes that
`scoreboard.css` draws (`f-<colour>` fills a piece with a colour; the colour's letter is always
drawn on it too, so no one needs to tell colours apart).

Every drawn piece carries what it shows as `data-*` attributes (`piece.data()`), in the order
`drawn` (tests) flattens a drawing: a drawing's pieces in order; a row, then its cards; a tower,
then its cards bottom to top; the seats, then each seat's rows.
"""

from __future__ import annotations

from html import escape

from upref.views import pieces as p

__all__ = ["render_drawing"]

CARD_W, CARD_H = 56, 80
TILE = 56
GAP = 6
BOARD_W, BOARD_H = 640, 260
HOLE_R = 30
UNIT = 18
"""SVG units to the page's em. Every label is at least `UNIT` units high (`scoreboard.css`),
so no label is smaller than the words beside it."""
NOTE_LINE = 21
"""From one line of a note under a card to the next (its type is `UNIT` high)."""
CHAR_W = 0.62 * UNIT
"""A generous width of one character of a note, to keep notes apart."""


def render_drawing(drawing: p.Drawing) -> str:
    """The drawing as a `<figure>` of its pieces, each an inline SVG or a small HTML block."""
    title = f"<figcaption>{escape(drawing.title)}</figcaption>" if drawing.title else ""
    if drawing.layout == "board":
        holes = [x for x in drawing.pieces if isinstance(x, p.Hole)]
        rest = [x for x in drawing.pieces if not isinstance(x, p.Hole)]
        body = _board(holes) + "".join(_piece(x) for x in rest)
    else:
        body = "".join(_piece(x) for x in drawing.pieces)
    return f'<figure class="picture">{title}<div class="pieces">{body}</div></figure>'


def _attrs(data: dict[str, str]) -> str:
    return "".join(f' data-{escape(k)}="{escape(v)}"' for k, v in data.items())


def _cls(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "-" else "-" for ch in text.lower())


def _piece(x: p.Piece) -> str:
    if isinstance(x, p.Card):
        return _svg(CARD_W if x.shape == "card" else TILE, _card_h(x), _card(x, 0, 0), "one")
    if isinstance(x, p.Row):
        return _row(x)
    if isinstance(x, p.Tower):
        return _tower(x)
    if isinstance(x, p.Seats):
        return _seats(x)
    if isinstance(x, p.Figure):
        return _figure(x)
    if isinstance(x, p.Big):
        return (
            f'<div class="big-value"{_attrs(x.data())}><span class="caption">{escape(x.caption)}</span>'
            f'<span class="value">{escape(x.value)}</span></div>'
        )
    if isinstance(x, p.Chart):
        return _chart(x)
    return _board([x])


def _svg(w: float, h: float, inner: str, cls: str) -> str:
    """An inline SVG of w × h units, drawn `UNIT` units to the page's em: its labels keep their
    size against the text around them (on a TV the page's type is large, and so is the
    picture)."""
    return (
        f'<svg class="pc {cls}" viewBox="0 0 {w:g} {h:g}" width="{w / UNIT:.4g}em" height="{h / UNIT:.4g}em" '
        f'role="img" xmlns="http://www.w3.org/2000/svg">{inner}</svg>'
    )


def _card_h(c: p.Card) -> int:
    return CARD_H if c.shape == "card" else TILE


def _card(c: p.Card, x: float, y: float, fanned: bool = False) -> str:
    """One card or tile at (x, y): its face, or its back. A card `fanned` under the next one
    shows its label at its left edge, where it stays in sight."""
    w = CARD_W if c.shape == "card" else TILE
    h = _card_h(c)
    marks = " ".join(f"k-{m}" for m in c.marks)
    out = [f'<g class="card {c.shape} {marks}"{_attrs(c.data())} transform="translate({x:g},{y:g})">']
    if c.face is None:
        out.append(f'<rect class="back" x="1" y="1" width="{w - 2}" height="{h - 2}" rx="6"/>')
        out.append(f'<path class="back-pattern" d="M8 8 L{w - 8} {h - 8} M{w - 8} 8 L8 {h - 8}"/>')
    else:
        out.append(_face(c.face, w, h, fanned))
    if "struck" in c.marks:
        out.append(f'<path class="strike" d="M4 4 L{w - 4} {h - 4} M{w - 4} 4 L4 {h - 4}"/>')
    if "doubled" in c.marks:
        out.append(_text(w - 12, 17, "×2", "mark"))
    out.append("</g>")
    for i, part in enumerate(_note_lines(c.note)):
        out.append(_text(x + w / 2, y + h + UNIT + NOTE_LINE * i, part, "note"))
    return "".join(out)


def _face(f: p.Face, w: float, h: float, fanned: bool) -> str:
    """What a face-up card or tile shows: its colour with its letter, its colours, birds or
    label (a long label pressed into the card's width, never over its edge)."""
    fill = f" f-{_cls(f.colour)}" if f.colour else ""
    out = [f'<rect class="face{fill}" x="1" y="1" width="{w - 2}" height="{h - 2}" rx="6"/>']
    at = 6.0 if fanned else w / 2
    if f.colours:
        out.append(_stripes(f.colours, w, h))
    elif f.symbol == "bird":
        out.append(_birds(f.count, w, h))
        out.append(_label(at, h - 8, f.label, "label small", w, fanned))
    else:
        size = "label" if len(f.label) <= 3 else "label small"
        low = f.mark and h < CARD_H  # on a small tile, clear of its letter in the corner
        out.append(_label(at, h - 8 if low else h / 2 + 8, f.label, size, w, fanned))
    if f.mark:
        out.append(_text(11, 17, f.mark, "mark"))
    return "".join(out)


def _label(x: float, y: float, text: str, cls: str, w: float, fanned: bool) -> str:
    """A card's label, anchored at its left edge on a fanned card; wider than the card allows,
    it is pressed to fit."""
    room = w - 10
    wide = len(text) * CHAR_W * (1.5 if cls == "label" else 1.0)
    fit = f' textLength="{room:g}" lengthAdjust="spacingAndGlyphs"' if wide > room else ""
    anchor = "start" if fanned else "middle"
    return (
        f'<text class="{cls}" x="{x:g}" y="{y:g}" text-anchor="{anchor}"{fit}>{escape(text)}</text>'
    )


def _note_lines(note: str | None) -> list[str]:
    """A card's note in short lines that stay under the card: split at commas, at most two."""
    if not note:
        return []
    parts = [s.strip() for s in note.split(",") if s.strip()]
    return [parts[0], " ".join(parts[1:])] if len(parts) > 1 else parts


def _stripes(colours: tuple[tuple[str, int, str], ...], w: float, h: float) -> str:
    """A task card's colours: one band per colour, its letter and how many it asks for."""
    out = []
    band = (h - 16) / max(len(colours), 1)
    for i, (c, n, mark) in enumerate(colours):
        y = 4 + i * band
        out.append(f'<rect class="f-{_cls(c)}" x="5" y="{y:.1f}" width="{w - 10}" height="{band - 2:.1f}" rx="3"/>')
        out.append(_text(w / 2, y + band / 2 + 6, f"{n} {mark}", "mark"))
    return "".join(out)


def _birds(n: int, w: float, h: float) -> str:
    """n small birds (1 to 3) stacked on the card: a body, a head and a beak each."""
    out = []
    n = max(1, min(n, 3))
    for i in range(n):
        cy = h / 2 - 8 + (i - (n - 1) / 2) * 18
        cx = w / 2
        out.append(
            f'<g class="bird"><ellipse cx="{cx - 3:g}" cy="{cy:g}" rx="11" ry="7"/>'
            f'<circle cx="{cx + 9:g}" cy="{cy - 5:g}" r="5"/>'
            f'<path d="M{cx + 13:g} {cy - 6:g} l6 2 l-6 2 z"/></g>'
        )
    return "".join(out)


def _text(x: float, y: float, text: str, cls: str) -> str:
    return f'<text class="{cls}" x="{x:g}" y="{y:g}" text-anchor="middle">{escape(text)}</text>'


def _row(r: p.Row) -> str:
    faces = any(c.face is not None for c in r.pieces)
    step = (CARD_W * (0.7 if faces else 0.45)) if r.overlap else (CARD_W + GAP)
    lines = max((len(_note_lines(c.note)) for c in r.pieces), default=0)
    h = max((_card_h(c) for c in r.pieces), default=CARD_H) + NOTE_LINE * lines + (6 if lines else 0)
    x, width = 0.0, 1.0
    cards = []
    for i, c in enumerate(r.pieces):
        w = CARD_W if c.shape == "card" else TILE
        slot = step if c.shape == "card" else TILE + GAP
        notes = _note_lines(c.note)
        if notes:  # room under the card for its note, the notes side by side never touching
            slot = max(slot, w + 2 * GAP, max(len(n) for n in notes) * CHAR_W + 2 * GAP)
        here = x + (slot - w) / 2 if notes else x  # a card in the middle of its note
        cards.append(_card(c, here, 0, fanned=r.overlap and i < len(r.pieces) - 1))
        x += slot
        width = x if notes else x - slot + w  # to the last card's edge, or its note's
    caption = f'<span class="caption">{escape(r.caption)}</span>' if r.caption else ""
    note = f'<span class="note">{escape(r.note)}</span>' if r.note else ""
    kind = "row" if faces else "row backs"  # backs carry no words: a screen may draw them smaller
    svg = _svg(width, h + 2, "".join(cards), kind) if r.pieces else '<span class="empty">none</span>'
    return f'<div class="row"{_attrs(r.data())}>{caption}{svg}{note}</div>'


def _tower(t: p.Tower) -> str:
    shown = t.cards[-6:]  # the top few, as a pile: the rest under them
    step = 14
    h = CARD_H + step * max(len(shown) - 1, 0)
    parts = []
    for i, c in enumerate(t.cards):
        j = i - (len(t.cards) - len(shown))
        if j < 0:  # under the pile's shown part: kept as data, drawn hidden under the rest
            parts.append(_card(c, 0, 0).replace('class="card', 'class="card under', 1))
            continue
        parts.append(_card(c, 0, h - CARD_H - step * j))
    caption = f'<span class="caption">{escape(t.caption)}</span>' if t.caption else ""
    beat = ""
    if t.to_beat is not None:
        beat = f'<span class="big-value"><span class="caption">to beat</span><span class="value">{escape(t.to_beat)}</span></span>'
    svg = _svg(CARD_W, h, "".join(parts), "tower")
    return f'<div class="tower"{_attrs(t.data())}>{caption}{svg}{beat}</div>'


def _seats(s: p.Seats) -> str:
    arrow = {"cw": "↻ clockwise", "ccw": "↺ anticlockwise"}.get(s.direction or "", "")
    out = [f'<div class="seats"{_attrs(s.data())}>']
    if arrow:
        out.append(f'<p class="direction">{escape(arrow)}</p>')
    out.append('<ol class="seat-list">')
    for seat in s.seats:
        cls = " ".join(c for c in ("seat", "to-move" if seat.index == s.to_move else "", "winner" if seat.winner else "") if c)
        badges = "".join(f'<span class="badge">{escape(b)}</span>' for b in seat.badges)
        now = '<span class="now">▶ </span>' if seat.index == s.to_move else ""
        rows = "".join(_row(r) for r in seat.rows)
        out.append(f'<li class="{cls}" data-seat="{seat.index}"><p class="name">{now}{escape(seat.name)} {badges}</p>{rows}</li>')
    out.append("</ol></div>")
    return "".join(out)


def _figure(f: p.Figure) -> str:
    fill = f" f-{_cls(f.colour)}" if f.colour else ""
    mark = _text(14, 20, f.mark, "mark") if f.mark else ""
    body = f'<path class="figurine{fill}" d="M14 2 L26 30 L2 30 Z"/>{mark}'
    return (
        f'<div class="figure"{_attrs(f.data())}>{_svg(28, 32, body, "fig")}'
        f'<span class="caption">{escape(f.name)} on {escape(f.place)}</span></div>'
    )


def _chart(c: p.Chart) -> str:
    """Each player's totals as a line, round by round, named at its end: the names stand to the
    right of the lines, inside the drawing, and never on top of one another."""
    names = [f"{s.name} {s.values[-1]}" for s in c.series if s.values]
    room = max((len(n) for n in names), default=0) * CHAR_W + 12
    w, h, pad = 300 + room, 160, 24
    right = w - room  # where the lines end and the names begin
    rounds = max((len(s.values) for s in c.series), default=0)
    top = max((v for s in c.series for v in s.values), default=0) or 1
    out = [f'<line class="axis" x1="{pad}" y1="{h - pad}" x2="{right:.1f}" y2="{h - pad}"/>']
    ends: list[tuple[float, str]] = []
    for i, s in enumerate(c.series):
        pts = []
        for r, v in enumerate(s.values):
            x = pad + (r * (right - pad - 8) / max(rounds - 1, 1))
            y = h - pad - v * (h - 2 * pad) / top
            pts.append((x, y))
        line = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        out.append(f'<polyline class="series s{i % 8}" points="{line}" fill="none"/>')
        out.extend(f'<circle class="series s{i % 8}" cx="{x:.1f}" cy="{y:.1f}" r="4"/>' for x, y in pts)
        if pts:
            ends.append((pts[-1][1], f"{s.name} {s.values[-1]}"))
    for y, name in _apart(ends, NOTE_LINE, UNIT, h - 4):
        out.append(f'<text class="note" x="{right + 8:.1f}" y="{y:.1f}" text-anchor="start">{escape(name)}</text>')
    caption = f'<span class="caption">{escape(c.caption)}</span>' if c.caption else ""
    return f'<div class="chart"{_attrs(c.data())}>{caption}{_svg(w, h, "".join(out), "chart")}</div>'


def _apart(ends: list[tuple[float, str]], gap: float, low: float, high: float) -> list[tuple[float, str]]:
    """Labels' baselines at their lines' ends, moved just enough to stand `gap` apart and
    between `low` and `high`."""
    placed = sorted((min(max(y + UNIT / 3, low), high), name) for y, name in ends)
    for i in range(1, len(placed)):  # downwards, each at least `gap` below the one above
        if placed[i][0] < placed[i - 1][0] + gap:
            placed[i] = (placed[i - 1][0] + gap, placed[i][1])
    for i in range(len(placed) - 1, -1, -1):  # then back up from the bottom edge
        limit = high if i == len(placed) - 1 else placed[i + 1][0] - gap
        if placed[i][0] > limit:
            placed[i] = (limit, placed[i][1])
    return placed


def _board(holes: list[p.Hole]) -> str:
    """The molehills where they lie on the board: each hole its pair's visible end (colour and
    letter), or empty; the order it was turned in this turn; a correction due on it."""
    out = [f'<rect class="board" x="0" y="0" width="{BOARD_W}" height="{BOARD_H}" rx="16"/>']
    for hole in holes:
        cx = HOLE_R + 8 + hole.x * (BOARD_W - 2 * HOLE_R - 16)
        cy = HOLE_R + 8 + hole.y * (BOARD_H - 2 * HOLE_R - 24)
        cls = "hole" + (" fix" if hole.correction else "")
        out.append(f'<g class="{cls}"{_attrs(hole.data())}>')
        if hole.mole is None:
            out.append(f'<circle class="empty" cx="{cx:.1f}" cy="{cy:.1f}" r="{HOLE_R}"/>')
        else:
            out.append(f'<circle class="mole f-{_cls(hole.mole.colour)}" cx="{cx:.1f}" cy="{cy:.1f}" r="{HOLE_R}"/>')
            out.append(_text(cx, cy + 9, hole.mole.mark, "label"))
        out.append(_text(cx, cy + HOLE_R + 18, str(hole.number), "note"))
        if hole.order is not None:
            out.append(f'<circle class="order" cx="{cx + HOLE_R - 4:.1f}" cy="{cy - HOLE_R + 4:.1f}" r="13"/>')
            out.append(_text(cx + HOLE_R - 4, cy - HOLE_R + 10, str(hole.order), "order-n"))
        if hole.correction:
            out.append(_correction(cx, cy, hole.correction))
        out.append("</g>")
    return f'<div class="board-wrap">{_svg(BOARD_W, BOARD_H, "".join(out), "board")}</div>'


def _correction(cx: float, cy: float, fix: str) -> str:
    """A correction due on a hole, said by shape as well as colour: a dashed ring round the hole
    and a warning sign (a triangle with "!") above it, clear of its letter and its number."""
    r = HOLE_R + 6
    tx, ty = max(cx - HOLE_R, 16), cy - HOLE_R + 9  # the sign's centre, at the hole's upper left
    sign = f"M{tx:.1f} {ty - 15:.1f} L{tx + 14:.1f} {ty + 10:.1f} L{tx - 14:.1f} {ty + 10:.1f} Z"
    return (
        f'<circle class="fix-ring" cx="{cx:.1f}" cy="{cy:.1f}" r="{r}"/>'
        f'<path class="fix-sign" d="{sign}"/>'
        f'<text class="fix-n" x="{tx:.1f}" y="{ty + 7:.1f}" text-anchor="middle">!</text>'
        f"<title>{escape(fix)}</title>"
    )
