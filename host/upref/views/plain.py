"""The scoreboard's blocks as plain lines, for pipes and logs: no colour, no box drawing.

Pure: a `Scoreboard` in, text out (ending in a newline). Sheets come out as aligned columns, a frame
as marked lines (`!!` for an alarm, `***` around a result's headline), the verdict feed under
"Latest:".
"""

from __future__ import annotations

from collections.abc import Iterable

from upref.text import Msg, in_lang
from upref.views import blocks as b

__all__ = ["render", "render_blocks"]


def render(scoreboard: b.Scoreboard) -> str:
    """A whole scoreboard as plain text."""
    return render_blocks(scoreboard.blocks)


def render_blocks(items: Iterable[b.Block]) -> str:
    out: list[str] = []
    for x in items:
        if isinstance(x, b.Line):
            out.append(x.text)
        elif isinstance(x, b.Sheet):
            out.extend(_sheet(x))
        elif isinstance(x, b.Feed):
            out.extend(_feed(x))
        elif isinstance(x, b.Drawing):  # drawn by the page; the text keeps its own lines
            continue
        else:
            out.extend(_box(x))
    return "\n".join(out) + "\n"


def _sheet(x: b.Sheet) -> list[str]:
    head = [c.header for c in x.columns]
    rows = [[s.text for s in row] for row in x.rows]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = [f"{x.title}:"] if x.title else []
    for r in [head, *rows]:
        cells = [
            t.rjust(w) if c.align == "right" else t.ljust(w)
            for t, w, c in zip(r, widths, x.columns, strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def _feed(x: b.Feed) -> list[str]:
    if not x.lines:
        return []
    lines = [in_lang(Msg("Latest:"), x.lang)]
    fix = in_lang(Msg("fix:"), x.lang)
    for v in x.lines:
        lines.append(f"  {v.label}: {v.text}")
        if v.correction:
            lines.append(f"    -> {fix} {v.correction}")
    return lines


def _box(x: b.Box) -> list[str]:
    texts: list[str] = []
    for i in x.blocks:
        if isinstance(i, b.Drawing):  # drawn by the page; the text keeps its lines
            continue
        texts.extend([i.text] if isinstance(i, b.Line) else _sheet(i))
    if x.meaning == b.WINNER:
        return [f"*** {texts[0]} ***", *texts[1:]] if texts else []
    if x.meaning == b.ILLEGAL:
        return [f"!! {t}" for t in texts]
    head = [f"== {x.title} =="] if x.title else []
    return [*head, *texts]
