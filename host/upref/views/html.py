"""The scoreboard's blocks as HTML, for a page on the table's screen.

Pure: a `Scoreboard` in, an HTML fragment out (every text escaped; no script, no style attribute:
meanings become classes, which the page's own style sheet draws). The fragment starts with the
two things a screen across the room must say at a glance, big: whose turn it is and the last
verdict.

Class names: `m-<meaning>` for a meaning (`m-turn`, `m-winner`, `m-illegal`, `m-hidden`,
`m-strong`, `m-dim`, `m-title`), `c-<colour>` for a colour (the colour's name is always in the
text too), `v-<kind>` for a verdict of that kind, `list` / `grid` for tables.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from upref.text import Msg, in_lang
from upref.views import blocks as b
from upref.views.svg import render_drawing

__all__ = ["render", "render_blocks", "render_body", "render_head"]


def render(scoreboard: b.Scoreboard) -> str:
    """A whole scoreboard: the big turn and last verdict (`render_head`), then the drawing of
    the table (if the game's panel draws one) with the other blocks beside it (`render_body`)."""
    return render_head(scoreboard) + "\n" + render_body(scoreboard)


def render_head(scoreboard: b.Scoreboard) -> str:
    """The big lines at the top of every page: whose turn it is and the last verdict (at a
    game's end, who won)."""
    head = ['<header class="big">']
    head.append(f'<p class="turn">{escape(scoreboard.turn or "")}</p>')
    if scoreboard.last is not None:
        head.append(
            f'<p class="last v-{_cls(scoreboard.last.kind)}"><span class="label">'
            f"{escape(scoreboard.last.label)}</span> {escape(scoreboard.last.text)}</p>"
        )
    head.append("</header>")
    return "\n".join(head)


def render_body(scoreboard: b.Scoreboard) -> str:
    """The scoreboard under its big lines: the drawing of the table (if the game's panel draws
    one) with the other blocks beside it (a TV) or under it (a phone)."""
    drawings = [x for x in scoreboard.blocks if isinstance(x, b.Drawing)]
    words = [x for x in scoreboard.blocks if not isinstance(x, b.Drawing)]
    if not drawings:
        return render_blocks(words)
    return (
        '<div class="layout"><div class="table-picture">\n'
        + render_blocks(drawings)
        + '</div><div class="words">\n'
        + render_blocks(words)
        + "</div></div>\n"
    )


def render_blocks(items: Iterable[b.Block]) -> str:
    return "\n".join(_block(x) for x in items) + "\n"


def _cls(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "-" else "-" for ch in text.lower())


def _meaning(meaning: str | None) -> str:
    if meaning is None:
        return ""
    if meaning.startswith("colour:"):
        return f"c-{_cls(meaning.split(':', 1)[1])}"
    if meaning.startswith("verdict:"):
        return f"v-{_cls(meaning.split(':', 1)[1])}"
    return f"m-{_cls(meaning)}"


def _span(s: b.Span) -> str:
    cls = _meaning(s.meaning)
    text = escape(s.text)
    return f'<span class="{cls}">{text}</span>' if cls else text


def _block(x: b.Block) -> str:
    if isinstance(x, b.Line):
        return _line(x)
    if isinstance(x, b.Sheet):
        return _sheet(x)
    if isinstance(x, b.Feed):
        return _feed(x)
    if isinstance(x, b.Drawing):
        return render_drawing(x)
    return _box(x)


def _line(x: b.Line) -> str:
    classes = " ".join(c for c in ("line", _meaning(x.meaning), "center" if x.align == "center" else "") if c)
    return f'<p class="{classes}">{"".join(_span(s) for s in x.spans)}</p>'


def _sheet(x: b.Sheet) -> str:
    out = [f'<table class="{x.style}">']
    if x.title:
        out.append(f"<caption>{escape(x.title)}</caption>")
    out.append("<thead><tr>")
    for c in x.columns:
        out.append(f'<th class="a-{c.align}">{escape(c.header)}</th>')
    out.append("</tr></thead><tbody>")
    for row in x.rows:
        out.append("<tr>")
        for c, s in zip(x.columns, row, strict=True):
            cls = " ".join(k for k in (f"a-{c.align}", _meaning(s.meaning)) if k)
            label = f' data-label="{escape(c.header)}"' if c.header else ""  # a phone's stacked row
            out.append(f'<td class="{cls}"{label}>{escape(s.text)}</td>')
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _feed(x: b.Feed) -> str:
    out = ['<ol class="feed">']
    fix_word = escape(in_lang(Msg("fix:"), x.lang))
    for v in x.lines:
        fix = f'<span class="fix">{fix_word} {escape(v.correction)}</span>' if v.correction else ""
        out.append(
            f'<li class="v-{_cls(v.kind)}"><span class="label">{escape(v.label)}</span> '
            f"{escape(v.text)}{fix}</li>"
        )
    out.append("</ol>")
    return "".join(out)


def _box(x: b.Box) -> str:
    classes = " ".join(c for c in ("box", _meaning(x.meaning)) if c)
    title = f"<h2>{escape(x.title)}</h2>" if x.title else ""
    inner = "".join(_inner(i) for i in x.blocks)
    return f'<section class="{classes}">{title}{inner}</section>'


def _inner(i: b.Line | b.Sheet | b.Drawing) -> str:
    if isinstance(i, b.Line):
        return _line(i)
    if isinstance(i, b.Drawing):
        return render_drawing(i)
    return _sheet(i)
