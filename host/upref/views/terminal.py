"""The scoreboard's blocks drawn with Rich, for the terminal (`Live.update(render(scoreboard))`).

Pure: a `Scoreboard` in, a Rich renderable out; no console, no I/O. A block is laid out once
for the options it is drawn with and its lines kept (`_Kept`): from one frame to the next most
of a scoreboard's blocks stay as they were, and laying out Rich's tables is most of what a
draw costs, on every verdict and at every refresh of the live screen.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.measure import Measurement
from rich.panel import Panel
from rich.segment import Segment
from rich.table import Table as RichTable
from rich.text import Text

from upref.referee.status import BOARD, END, ILLEGAL, INFO, OK, SOLVED, TURN
from upref.text import Msg, in_lang
from upref.views import blocks as b

__all__ = ["COLOUR_STYLES", "render", "render_blocks"]

COLOUR_STYLES: Mapping[str, str] = {
    "red": "bold white on red",
    "blue": "bold white on blue",
    "yellow": "bold black on yellow",
    "white": "bold black on bright_white",
    "black": "bold bright_white on black",
    "green": "bold white on green",
    "purple": "bold white on magenta",
}
"""Cell style per colour name (the name is always printed as well)."""

_STYLES: Mapping[str, str] = {
    b.TITLE: "bold",
    b.DIM: "dim",
    b.STRONG: "bold",
    b.TURN: "bold",
    b.WINNER: "bold green",
    b.ILLEGAL: "bold white on red",
    b.HIDDEN: "dim italic",
    b.verdict(OK): "green",
    b.verdict(INFO): "cyan",
    b.verdict(ILLEGAL): "bold white on red",
    b.verdict(SOLVED): "bold black on green",
    b.verdict(TURN): "bold",
    b.verdict(END): "bold magenta",
    b.verdict(BOARD): "bold black on yellow",
}


def style_of(meaning: str | None) -> str:
    """The Rich style for a meaning ('' for none or an unknown one)."""
    if meaning is None:
        return ""
    if meaning.startswith("colour:"):
        return COLOUR_STYLES.get(meaning.split(":", 1)[1], "bold")
    return _STYLES.get(meaning, "")


def render(scoreboard: b.Scoreboard) -> RenderableType:
    """A whole scoreboard."""
    return render_blocks(scoreboard.blocks)


def render_blocks(items: Iterable[b.Block]) -> RenderableType:
    """Blocks, one under the other. A drawing of the table is the page's: the terminal keeps
    its text scoreboard, which says the same in words."""
    return Group(*(_Kept(x) for x in items if not isinstance(x, b.Drawing)))


KEPT = 256  # blocks' drawings kept (a scoreboard has a dozen or so; a few frames' worth)


class _Kept:
    """A block drawn as `_block` draws it, its lines kept for the options they were laid out
    with: the same block drawn again with the same options gives the same lines (blocks are
    frozen values; a feed's language, which its equality leaves out, is part of the key),
    without laying it out again."""

    _drawn: OrderedDict[tuple[Any, ...], list[list[Segment]]] = OrderedDict()
    _lock = threading.Lock()

    def __init__(self, block: b.Block) -> None:
        self.block = block

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        o = options
        key = (self.block, getattr(self.block, "lang", None), o.max_width, o.min_width, o.encoding,
               o.legacy_windows, o.justify, o.overflow, o.no_wrap, o.height, o.highlight, o.markup,
               console.color_system)
        try:
            with self._lock:
                lines = self._drawn.get(key)
                if lines is not None:
                    self._drawn.move_to_end(key)
        except TypeError:  # a block holding something unhashable: drawn as it is, not kept
            yield from console.render(_block(self.block), options)
            return
        if lines is None:
            lines = console.render_lines(_block(self.block), options, pad=False, new_lines=True)
            with self._lock:
                self._drawn[key] = lines
                while len(self._drawn) > KEPT:
                    self._drawn.popitem(last=False)
        for line in lines:
            yield from line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, _block(self.block))


def _block(x: b.Block) -> RenderableType:
    if isinstance(x, b.Line):
        return _line(x)
    if isinstance(x, b.Sheet):
        return _sheet(x)
    if isinstance(x, b.Feed):
        return _feed(x)
    return _box(x)


def _line(x: b.Line) -> Text:
    justify = "center" if x.align == "center" else None
    if len(x.spans) == 1 and x.spans[0].meaning is None:
        return Text(x.spans[0].text, style=style_of(x.meaning), justify=justify)
    text = Text.assemble(*((s.text, style_of(s.meaning)) for s in x.spans), justify=justify)
    if x.meaning is not None:
        text.stylize(style_of(x.meaning))
    return text


def _cell(s: b.Span) -> Text:
    return Text(s.text, style=style_of(s.meaning))


def _sheet(x: b.Sheet) -> RichTable:
    if x.style == "grid":
        table = RichTable(box=box.SQUARE, padding=(0, 0), title=x.title, title_justify="left")
    else:
        table = RichTable(
            box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, title=x.title, title_justify="left"
        )
    for c in x.columns:
        if c.grow:
            table.add_column(c.header, justify=c.align, width=c.width, ratio=1)
        else:
            table.add_column(c.header, justify=c.align, width=c.width, no_wrap=True)
    for row in x.rows:
        table.add_row(*(_cell(s) for s in row))
    return table


def _feed(x: b.Feed) -> RichTable:
    table = RichTable.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column(ratio=1)
    fix = in_lang(Msg("fix:"), x.lang)
    for v in x.lines:
        table.add_row(Text(v.label, style=style_of(b.verdict(v.kind))), v.text)
        if v.correction:
            table.add_row("", Text(f"→ {fix} {v.correction}", style="bold"))
    return table


def _box(x: b.Box) -> Panel:
    body = Group(*(_line(i) if isinstance(i, b.Line) else _sheet(i) for i in x.blocks if not isinstance(i, b.Drawing)))
    if x.meaning == b.WINNER:
        return Panel(body, title=x.title, border_style="bold green", box=box.DOUBLE)
    if x.meaning == b.ILLEGAL:
        return Panel(
            body, title=x.title, title_align="left", border_style="bold red", box=box.HEAVY
        )
    return Panel(body, title=x.title, title_align="left", box=box.ROUNDED)
