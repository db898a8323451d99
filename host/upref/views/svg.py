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
    return (
        f'<svg class="pc {cls}" viewBox="0 0 {w:g} {h:g}" width="{w:g}" height="{h:g}" '
        f'role="img" xmlns="http://www.w3.org/2000/svg">{inner}</svg>'
    )


def _card_h(c: p.Card) -> int:
    return CARD_H if c.shape == "card" else TILE


def _card(c: p.Card, x: float, y: float) -> str:
    """One card or tile at (x, y): its face, or its back."""
    w = CARD_W if c.shape == "card" else TILE
    h = _card_h(c)
    marks = " ".join(f"k-{m}" for m in c.marks)
    out = [f'<g class="card {c.shape} {marks}"{_attrs(c.data())} transform="translate({x:g},{y:g})">']
    if c.face is None:
        out.append(f'<rect class="back" x="1" y="1" width="{w - 2}" height="{h - 2}" rx="6"/>')
        out.append(f'<path class="back-pattern" d="M8 8 L{w - 8} {h - 8} M{w - 8} 8 L8 {h - 8}"/>')
    else:
        f = c.face
        fill = f" f-{_cls(f.colour)}" if f.colour else ""
        out.append(f'<rect class="face{fill}" x="1" y="1" width="{w - 2}" height="{h - 2}" rx="6"/>')
        if f.colours:
            out.append(_stripes(f.colours, w, h))
        elif f.symbol == "bird":
            out.append(_birds(f.count, w, h))
            out.append(_text(w / 2, h - 8, f.label, "label small"))
        else:
            size = "label" if len(f.label) <= 3 else "label small"
            out.append(_text(w / 2, h / 2 + 7, f.label, size))
        if f.mark:
            out.append(_text(10, 16, f.mark, "mark"))
    if "struck" in c.marks:
        out.append(f'<path class="strike" d="M4 4 L{w - 4} {h - 4} M{w - 4} 4 L4 {h - 4}"/>')
    if "doubled" in c.marks:
        out.append(_text(w - 10, 16, "×2", "mark"))
    out.append("</g>")
    for i, part in enumerate(_note_lines(c.note)):
        out.append(_text(x + w / 2, y + h + 12 + 11 * i, part, "note"))
    return "".join(out)


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
        out.append(_text(w / 2, y + band / 2 + 5, f"{n} {mark}", "mark"))
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
    step = (CARD_W * 0.45) if r.overlap else (CARD_W + GAP)
    if any(c.note for c in r.pieces):  # room under each card for its note
        step = max(step, CARD_W + 2 * GAP)
    lines = max((len(_note_lines(c.note)) for c in r.pieces), default=0)
    h = max((_card_h(c) for c in r.pieces), default=CARD_H) + 12 * lines + (4 if lines else 0)
    x = 0.0
    cards = []
    for c in r.pieces:
        cards.append(_card(c, x, 0))
        x += step if c.shape == "card" else TILE + GAP
    width = max(x - (step - CARD_W if r.pieces else 0), 1)
    caption = f'<span class="caption">{escape(r.caption)}</span>' if r.caption else ""
    note = f'<span class="note">{escape(r.note)}</span>' if r.note else ""
    svg = _svg(width, h + 2, "".join(cards), "row") if r.pieces else '<span class="empty">none</span>'
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
    w, h, pad = 320, 160, 24
    rounds = max((len(s.values) for s in c.series), default=0)
    top = max((v for s in c.series for v in s.values), default=0) or 1
    out = [f'<line class="axis" x1="{pad}" y1="{h - pad}" x2="{w - 4}" y2="{h - pad}"/>']
    for i, s in enumerate(c.series):
        pts = []
        for r, v in enumerate(s.values):
            x = pad + (r * (w - pad - 12) / max(rounds - 1, 1))
            y = h - pad - v * (h - 2 * pad) / top
            pts.append(f"{x:.1f},{y:.1f}")
        out.append(f'<polyline class="series s{i % 8}" points="{" ".join(pts)}" fill="none"/>')
        for pt in pts:
            px, py = pt.split(",")
            out.append(f'<circle class="series s{i % 8}" cx="{px}" cy="{py}" r="4"/>')
        if pts:
            lx, ly = pts[-1].split(",")
            out.append(f'<text class="note" x="{float(lx) - 4:.1f}" y="{float(ly) - 6:.1f}" text-anchor="end">{escape(s.name)} {s.values[-1]}</text>')
    caption = f'<span class="caption">{escape(c.caption)}</span>' if c.caption else ""
    return f'<div class="chart"{_attrs(c.data())}>{caption}{_svg(w, h, "".join(out), "chart")}</div>'


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
        out.append(_text(cx, cy + HOLE_R + 16, str(hole.number), "note"))
        if hole.order is not None:
            out.append(f'<circle class="order" cx="{cx + HOLE_R - 4:.1f}" cy="{cy - HOLE_R + 4:.1f}" r="11"/>')
            out.append(_text(cx + HOLE_R - 4, cy - HOLE_R + 9, str(hole.order), "order-n"))
        if hole.correction:
            out.append(f'<circle class="fix-ring" cx="{cx:.1f}" cy="{cy:.1f}" r="{HOLE_R + 5}"/>')
            out.append(_text(cx - HOLE_R + 2, cy - HOLE_R + 9, "!", "fix-n"))
            out.append(f"<title>{escape(hole.correction)}</title>")
        out.append("</g>")
    return f'<div class="board-wrap">{_svg(BOARD_W, BOARD_H, "".join(out), "board")}</div>'
