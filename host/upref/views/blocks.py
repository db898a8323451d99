"""The scoreboard as data: a few layout blocks that say *what* to show, never *how*.

A game's panel (`upref.games.<game>.panel`) and the shared frame (`upref.views.scoreboard`) build a
`Scoreboard` out of these blocks; renderers draw it: `upref.views.terminal` for Rich, plain lines
for pipes and logs (`upref.views.plain`), JSON for scripts (`Scoreboard.as_json()`), and HTML for a
browser. No game writes HTML or Rich code.

Meanings (`meaning=`) name what a piece of text *is*, and each renderer picks its style:

- `TITLE`, `DIM`, `STRONG` — the title, a secondary line, an emphasised line;
- `TURN` — the seat (or cell) the table waits on now; `WINNER` — a winner;
- `ILLEGAL` — something refused, or a correction to make; `HIDDEN` — a face-down or secret
  thing shown as such (a card's back);
- `WAITING`, `FIX` — the line of what the table is waiting for, and of a correction still due
  (a screen may put them where they are seen first);
- `colour(name)` — a mole's or bird's colour ("colour:red"); the text always names the colour
  too, so no one needs to tell colours apart;
- `verdict(kind)` — the label of a verdict of that kind ("verdict:illegal").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, is_dataclass
from functools import cache
from types import NoneType
from typing import Any, Literal

from upref.text import ENGLISH, Words, in_lang, join_words
from upref.views.pieces import Drawing

__all__ = [
    "DIM",
    "FIX",
    "HIDDEN",
    "ILLEGAL",
    "STRONG",
    "TITLE",
    "TURN",
    "WAITING",
    "WINNER",
    "Block",
    "Box",
    "Column",
    "Drawing",
    "Feed",
    "FeedLine",
    "Line",
    "Scoreboard",
    "Sheet",
    "Span",
    "colour",
    "line",
    "said_in",
    "verdict",
]

TITLE = "title"
DIM = "dim"
STRONG = "strong"
TURN = "turn"
WINNER = "winner"
ILLEGAL = "illegal"
HIDDEN = "hidden"
WAITING = "waiting"
FIX = "fix"


def colour(name: str) -> str:
    """The meaning of a colour's name: 'colour:red'."""
    return f"colour:{name}"


def verdict(kind: str) -> str:
    """The meaning of a verdict label of this kind: 'verdict:illegal'."""
    return f"verdict:{kind}"


@dataclass(frozen=True)
class Span:
    """A run of text with one meaning (None: plain)."""

    text: str
    meaning: str | None = None


@dataclass(frozen=True)
class Line:
    """One line (it may wrap) made of spans; `meaning` applies to the whole line."""

    spans: tuple[Span, ...]
    meaning: str | None = None
    align: Literal["left", "center"] = "left"
    kind: Literal["line"] = "line"

    @property
    def text(self) -> str:
        """The line's text, its sentences said in any language (`in_lang`)."""
        if len(self.spans) == 1:
            return self.spans[0].text
        parts = [s.text for s in self.spans]
        if any(isinstance(p, Words) for p in parts):
            return join_words("", parts)
        return "".join(parts)


def line(*parts: str | Span, meaning: str | None = None, align: Literal["left", "center"] = "left") -> Line:
    """A `Line` from strings (plain spans) and spans."""
    return Line(tuple(p if isinstance(p, Span) else Span(p) for p in parts), meaning, align)


@dataclass(frozen=True)
class Column:
    """A sheet's column: its heading, alignment, a fixed width, and whether it takes the room
    that is left (and wraps) or keeps its text on one line."""

    header: str
    align: Literal["left", "right", "center"] = "left"
    width: int | None = None
    grow: bool = False


@dataclass(frozen=True)
class Sheet:
    """Rows of cells under columns. `style` "list": a heading row, then one row per thing (the
    players); "grid": every cell boxed, for a board laid out as on the table (the molehills).
    Its JSON `kind` stays "table", as scripts read it."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[Span, ...], ...]
    title: str | None = None
    style: Literal["list", "grid"] = "list"
    kind: Literal["table"] = "table"


@dataclass(frozen=True)
class FeedLine:
    """One verdict in the feed: its kind, label ('ok', 'ILLEGAL M-2'), text and correction."""

    kind: str
    label: str
    text: str
    correction: str | None = None


SAID_IN = {"said_in": True, "json": False}
"""A field's metadata: the language the block is said in (`said_in` sets it; a renderer
says its own words about the block in it); not part of the block's JSON data."""


@dataclass(frozen=True)
class Feed:
    """The latest verdicts for the table, newest last; `lang` the language they are said in,
    for the renderers' own words ('Latest:', 'fix:')."""

    lines: tuple[FeedLine, ...]
    kind: Literal["feed"] = "feed"
    lang: str = field(default=ENGLISH, compare=False, metadata=SAID_IN)


@dataclass(frozen=True)
class Box:
    """Lines, sheets and drawings in a frame: `meaning` ILLEGAL for an alarm (the board offline), WINNER
    for the result of a game, HIDDEN for what only one seat may see, None for a plain frame."""

    blocks: tuple[Line | Sheet | Drawing, ...]
    title: str | None = None
    meaning: str | None = None
    kind: Literal["box"] = "box"


Block = Line | Sheet | Feed | Box | Drawing


@dataclass(frozen=True)
class Scoreboard:
    """A whole scoreboard: the game, whose turn it is and the last verdict (for the big
    line a screen across the room shows), and the blocks in order."""

    game: str
    title: str
    turn: str | None
    last: FeedLine | None
    blocks: tuple[Block, ...] = field(default_factory=tuple)

    def as_json(self) -> dict[str, Any]:
        """Plain JSON data (dicts, lists, strings, numbers, None): `json.dumps` takes it."""
        return {"schema": 2, **_jsonable(self)}


def _jsonable(value: Any) -> Any:
    """`value` as JSON data: what `dataclasses.asdict` makes of it, with tuples as lists and
    keys as strings, in one walk (asdict deep-copies every leaf first, and a scoreboard is
    rendered on every change of the table). Each type's way is worked out once."""
    return _way(type(value))(value)


def _same(value: Any) -> Any:
    return value


def _items(value: list[Any] | tuple[Any, ...]) -> list[Any]:
    return [_way(type(v))(v) for v in value]


def _mapping(value: dict[Any, Any]) -> dict[str, Any]:
    return {str(k): _way(type(v))(v) for k, v in value.items()}


@cache
def _way(cls: type) -> Callable[[Any], Any]:
    """How a value of `cls` becomes JSON data."""
    if issubclass(cls, str | int | float | NoneType):
        return _same
    if issubclass(cls, list | tuple):
        return _items
    if issubclass(cls, dict):
        return _mapping
    if is_dataclass(cls):
        names = tuple(f.name for f in fields(cls) if f.metadata.get("json", True))

        def record(value: Any) -> dict[str, Any]:
            return {name: _way(type(v := getattr(value, name)))(v) for name in names}

        return record
    return _same


def said_in(value: Any, lang: str) -> Any:
    """A scoreboard (or any block, drawing or text of one) with every sentence in it said in
    `lang`: a renderer draws the result as it draws the English, so a screen's language is its
    own (the page in German while the laptop is in English). Text that is not a sentence of the
    catalogue (a name, an id, a meaning) stays as it is."""
    if lang == ENGLISH:
        return value
    return _said(type(value))(value, lang)


def _said_same(value: Any, lang: str) -> Any:
    return value


def _said_items(value: tuple[Any, ...], lang: str) -> tuple[Any, ...]:
    return tuple(_said(type(v))(v, lang) for v in value)


@cache
def _said(cls: type) -> Callable[[Any, str], Any]:
    """How a value of `cls` is said in a language."""
    if issubclass(cls, Words):
        return in_lang
    if issubclass(cls, tuple) and not is_dataclass(cls):
        return _said_items
    if is_dataclass(cls):
        names = tuple(f.name for f in fields(cls) if f.init and not f.metadata.get("said_in"))
        langs = tuple(f.name for f in fields(cls) if f.metadata.get("said_in"))

        def record(value: Any, lang: str) -> Any:
            changed = {n: _said(type(v := getattr(value, n)))(v, lang) for n in names}
            changed.update(dict.fromkeys(langs, lang))
            return cls(**changed)

        return record
    return _said_same
