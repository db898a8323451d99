"""What lies on the table, as data: a small shared vocabulary of table pieces.

A game's panel says what lies on the table (`Panel.drawing(view)`, and drawings inside its
private blocks) in these pieces; one renderer draws them (`upref.views.svg` as inline SVG for
the page, the terminal as text). No game writes SVG or HTML, and no renderer knows a game.

The pieces:

- `Face` — what a card or a tile shows: a short label ("7", "UP"), a colour (always with a
  `mark`, a letter or shape, so no one needs to tell colours apart), a symbol ("bird", "skip",
  "reverse", "wild"…), how many of it are drawn (1 to 3 birds).
- `Card` — a card or a tile (`shape`), face up (`face`) or face down (`face` None: its back),
  with `marks` for what the table should see on it ("struck", "doubled", "faded", "new",
  "chosen"), a small `note` under it, and, where a game's public view names a face-up card by
  its id (Flip a Bird's "R2a"), that `id`; a face-down card never carries one.
- `Mole` / `Hole` — a hole of the board at its place (`x`, `y` from 0 to 1 over the board, from
  one source: the pin map or the build drawings), the mole pair's visible end in it or empty,
  the order it was turned in this turn, a correction due on it.
- `Row` — pieces side by side (the line of tiles, a bird row, a hand, one of a collection's
  rows), with a caption and a `note` beside it ("7 of 10").
- `Tower` — a pile of cards, top last, and the number to beat.
- `Seat` / `Seats` — the players in their order round the table, the one to move, the
  direction of play, and small badges per seat ("rack 5", "call owed").
- `Figure` — a figurine (or any token) standing on a named place.
- `Big` — one large value with its caption ("to beat: 7").
- `Chart` — each player's total round by round.
- `Drawing` — a block of the scoreboard (`upref.views.blocks`): pieces laid out in order, as
  one drawing of the table with a title (its JSON and HTML still say `picture`: what scripts
  and the page's style sheet read stays as it was).

Every piece carries what it shows as data (`data()`), which the renderer writes as `data-*`
attributes; a test compares them with the referee's public view. Only what the panel puts in a
piece is drawn: hidden information never goes in (a face-down card is a `Card` with no face).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "Big",
    "Card",
    "Chart",
    "Drawing",
    "Face",
    "Figure",
    "Hole",
    "Mole",
    "Piece",
    "Row",
    "Seat",
    "Seats",
    "Series",
    "Tower",
]


@dataclass(frozen=True)
class Face:
    """What a card or tile shows. `mark` is the letter or shape that says the colour too
    ("R" for red); `symbol` names a picture ("bird", "skip", "reverse", "wild", "up"…);
    `count` how many symbols are drawn (a card with 3 birds)."""

    label: str
    colour: str | None = None
    mark: str | None = None
    symbol: str | None = None
    count: int = 1
    colours: tuple[tuple[str, int, str], ...] = ()
    """A card that asks for colours (a task card): each colour, how many, and its letter."""


CardMark = Literal["struck", "doubled", "faded", "new", "chosen", "turn"]


@dataclass(frozen=True)
class Card:
    """A card or a tile: face up with its `face`, or face down (`face` None: its back)."""

    face: Face | None
    shape: Literal["card", "tile"] = "card"
    marks: tuple[CardMark, ...] = ()
    note: str | None = None
    id: str | None = None
    kind: Literal["card"] = "card"

    def __post_init__(self) -> None:
        if self.face is None and self.id is not None:
            raise ValueError(
                f"a face-down card was given the id {self.id!r}: that would tell the table what "
                "lies face down; give a card an id only when it lies face up"
            )

    def data(self) -> dict[str, str]:
        out = {"piece": self.shape, "down": "1" if self.face is None else "0"}
        if self.face is not None:
            if self.id is not None:
                out["card"] = self.id
            out["face"] = self.face.label
            if self.face.colour:
                out["colour"] = self.face.colour
            if self.face.symbol:
                out["symbol"] = self.face.symbol
            if self.face.count != 1:
                out["count"] = str(self.face.count)
            if self.face.colours:
                out["colours"] = " ".join(f"{c} {n}" for c, n, _ in self.face.colours)
        if self.marks:
            out["marks"] = " ".join(self.marks)
        return out


@dataclass(frozen=True)
class Mole:
    """A mole pair's visible end: its colour and the letter that says it."""

    colour: str
    mark: str


@dataclass(frozen=True)
class Hole:
    """A hole of the board at (x, y), 0..1 over the board: the mole pair up in it (None:
    empty), the order it was turned in this turn (1, 2, 3 or None), a correction due on it."""

    number: int
    x: float
    y: float
    mole: Mole | None
    order: int | None = None
    correction: str | None = None
    kind: Literal["hole"] = "hole"

    def data(self) -> dict[str, str]:
        out = {"piece": "hole", "hole": str(self.number), "up": self.mole.colour if self.mole else "empty"}
        if self.order is not None:
            out["order"] = str(self.order)
        if self.correction:
            out["correction"] = "1"
        return out


@dataclass(frozen=True)
class Row:
    """Pieces side by side, with a caption before them and a note beside them. `overlap` draws
    them fanned (a hand), `wrap` lets a long row break over lines."""

    pieces: tuple[Card, ...]
    caption: str | None = None
    note: str | None = None
    overlap: bool = False
    kind: Literal["row"] = "row"

    def data(self) -> dict[str, str]:
        out = {"piece": "row", "size": str(len(self.pieces))}
        if self.caption:
            out["caption"] = self.caption
        return out


@dataclass(frozen=True)
class Tower:
    """A pile of cards, top last, and what the next card must beat."""

    cards: tuple[Card, ...]
    to_beat: str | None = None
    caption: str | None = None
    kind: Literal["tower"] = "tower"

    def data(self) -> dict[str, str]:
        top = self.cards[-1].face if self.cards else None
        out = {"piece": "tower", "height": str(len(self.cards)), "top": top.label if top else ""}
        if self.to_beat is not None:
            out["beat"] = self.to_beat
        return out


@dataclass(frozen=True)
class Seat:
    """One player at the table: their seat number, name, small badges, and their pieces
    in view (a face-up row, backs with a count)."""

    index: int
    name: str
    badges: tuple[str, ...] = ()
    rows: tuple[Row, ...] = ()
    winner: bool = False


@dataclass(frozen=True)
class Seats:
    """The players in their order round the table, the one to move, and the direction of play
    ("cw" clockwise, "ccw" anticlockwise, None where the game has none)."""

    seats: tuple[Seat, ...]
    to_move: int | None = None
    direction: Literal["cw", "ccw"] | None = None
    kind: Literal["seats"] = "seats"

    def data(self) -> dict[str, str]:
        out = {"piece": "seats", "size": str(len(self.seats))}
        if self.to_move is not None:
            out["to-move"] = str(self.to_move)
        if self.direction:
            out["direction"] = self.direction
        return out


@dataclass(frozen=True)
class Figure:
    """A figurine or token standing on a named place ("the eagle on red")."""

    name: str
    place: str
    colour: str | None = None
    mark: str | None = None
    kind: Literal["figure"] = "figure"

    def data(self) -> dict[str, str]:
        return {"piece": "figure", "name": self.name, "place": self.place}


@dataclass(frozen=True)
class Big:
    """One value drawn large, with its caption: the number to beat, the pool's count."""

    caption: str
    value: str
    kind: Literal["big"] = "big"

    def data(self) -> dict[str, str]:
        return {"piece": "big", "caption": self.caption, "value": self.value}


@dataclass(frozen=True)
class Series:
    """One player's running total, round by round."""

    name: str
    values: tuple[int, ...]


@dataclass(frozen=True)
class Chart:
    """Each player's total round by round, as a small line chart."""

    series: tuple[Series, ...]
    caption: str | None = None
    kind: Literal["chart"] = "chart"

    def data(self) -> dict[str, str]:
        return {"piece": "chart", "rounds": str(max((len(s.values) for s in self.series), default=0))}


Piece = Card | Hole | Row | Tower | Seats | Figure | Big | Chart


@dataclass(frozen=True)
class Drawing:
    """A block of the scoreboard: pieces laid out in order as one drawing. `layout` "board"
    places `Hole`s at their (x, y); "flow" lays pieces out one after another."""

    pieces: tuple[Piece, ...]
    title: str | None = None
    layout: Literal["flow", "board"] = "flow"
    kind: Literal["picture"] = "picture"
