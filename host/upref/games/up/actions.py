"""Up's actions (frozen dataclasses), their order and their text form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "DOWN",
    "HAND",
    "SOURCES",
    "UP",
    "Action",
    "Call",
    "Cut",
    "DealUp",
    "DirtyOne",
    "Join",
    "Pass",
    "Play",
    "Points",
    "Reveal",
    "action_key",
    "format_action",
    "parse_action",
]

HAND, UP, DOWN = "hand", "up", "down"
SOURCES = (HAND, UP, DOWN)
"""Where the cards of a play come from: the hand, the face-up cards, a face-down card (blind)."""


@dataclass(frozen=True)
class Cut:
    """The cutter keeps `card` (a -2 or disposal card uncovered by the cut), or nothing."""

    card: str | None = None


@dataclass(frozen=True)
class DealUp:
    """A face-up card dealt to `seat` (observed rounds: tapped as it is dealt)."""

    seat: int
    card: str


@dataclass(frozen=True)
class Play:
    """`seat` plays `cards` (equal value) from `source` ("hand", "up", "down") onto the tower."""

    seat: int
    source: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Join:
    """`seat` adds `card` to the play just made (same value, same source)."""

    seat: int
    card: str


@dataclass(frozen=True)
class Call:
    """`seat` calls "last card"."""

    seat: int


@dataclass(frozen=True)
class Pass:
    """`seat` must lay a foundation but nothing it may play can start a tower."""

    seat: int


@dataclass(frozen=True)
class DirtyOne:
    """The leader announces "this round we play with the dirty One"."""

    seat: int


@dataclass(frozen=True)
class Reveal:
    """At the count: one of `seat`'s remaining cards, tapped."""

    seat: int
    card: str


@dataclass(frozen=True)
class Points:
    """At the count: the points of `seat`'s cards not tapped, counted by hand."""

    seat: int
    points: int


Action = Cut | DealUp | Play | Join | Call | Pass | DirtyOne | Reveal | Points
_ORDER: dict[type, int] = {
    Cut: 0, DealUp: 1, Call: 2, DirtyOne: 3, Play: 4, Join: 5, Pass: 6, Reveal: 7, Points: 8,
}


def action_key(a: Action) -> tuple[Any, ...]:
    """A sort key over all actions (`legal_actions()` is sorted by it)."""
    if isinstance(a, Cut):
        return (0, a.card or "")
    if isinstance(a, Play):
        return (4, a.seat, SOURCES.index(a.source) if a.source in SOURCES else 9, a.cards)
    if isinstance(a, Points):
        return (8, a.seat, a.points)
    fields = tuple(getattr(a, f) for f in a.__dataclass_fields__)
    return (_ORDER[type(a)], *fields)


def format_action(a: Action) -> str:
    """Text notation: 'cut -', 'cut AD', 'deal 1 B7', 'play 0 hand A7,B7', 'join 0 C7',
    'call 0', 'pass 0', 'dirty 0', 'reveal 1 A3', 'points 1 35'."""
    if isinstance(a, Cut):
        return f"cut {a.card or '-'}"
    if isinstance(a, DealUp):
        return f"deal {a.seat} {a.card}"
    if isinstance(a, Play):
        return f"play {a.seat} {a.source} {','.join(a.cards)}"
    if isinstance(a, Join):
        return f"join {a.seat} {a.card}"
    if isinstance(a, Reveal):
        return f"reveal {a.seat} {a.card}"
    if isinstance(a, Points):
        return f"points {a.seat} {a.points}"
    word = {Call: "call", Pass: "pass", DirtyOne: "dirty"}[type(a)]
    return f"{word} {a.seat}"


def parse_action(text: str) -> Action:
    """The inverse of `format_action`.

    :raises ValueError: for text that is not an action.
    """
    w = text.split()
    try:
        if w[0] == "cut" and len(w) == 2:
            return Cut(None if w[1] == "-" else w[1])
        if w[0] == "deal" and len(w) == 3:
            return DealUp(int(w[1]), w[2])
        if w[0] == "play" and len(w) == 4:
            return Play(int(w[1]), w[2], tuple(w[3].split(",")))
        if w[0] == "join" and len(w) == 3:
            return Join(int(w[1]), w[2])
        if w[0] == "reveal" and len(w) == 3:
            return Reveal(int(w[1]), w[2])
        if w[0] == "points" and len(w) == 3:
            return Points(int(w[1]), int(w[2]))
        one = {"call": Call, "pass": Pass, "dirty": DirtyOne}
        if w[0] in one and len(w) == 2:
            return one[w[0]](int(w[1]))
    except (IndexError, ValueError):
        pass
    raise ValueError(f"not an Up action: {text!r}")
