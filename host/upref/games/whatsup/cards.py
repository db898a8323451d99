"""What's Up components: the faces, the double-sided bird cards and the catalogue validator.

A face is a count of birds (1, 2 or 3) of one colour (red, yellow, green, purple): twelve faces.
The two faces of a card have the same count and different colours, or the same colour and
different counts (the card rule). In the published deck every face is printed on exactly five of
the sixty card sides. Seen as a graph with the twelve faces as vertices and an edge wherever the
card rule lets two faces share a card, every face has 3 + 2 = 5 neighbours, so the graph has
12 x 5 / 2 = 30 edges: one card per allowed pair gives exactly 30 cards with every face five
times. That is the default deck (`data/cards.json`); a real deck that differs is a data change.

`load_catalogue()` reads and validates it: 30 cards, each obeying the card rule, each face on
exactly five sides.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from upref.games.base import read_catalogue
from upref.text import Msg, join_words

__all__ = [
    "CARDS",
    "COLOURS",
    "COUNTS",
    "DEFAULT_SOURCE",
    "FACE_COPIES",
    "Card",
    "Catalogue",
    "Face",
    "colour_word",
    "face_words",
    "load_catalogue",
    "parse_catalogue",
    "parse_face",
    "row_words",
]

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "purple")
"""The four bird colours, in the order rows and tables show them."""
COUNTS: tuple[int, ...] = (1, 2, 3)
"""Birds on a face; a row of a colour is built 1, then 2, then 3."""
CARDS = 30
"""Cards in the deck."""
FACE_COPIES = 5
"""How many card sides carry each face."""
DEFAULT_SOURCE = "upref.games.whatsup/data/cards.json"

_FACE = re.compile(r"^\s*([0-9]+)\s+([a-z]+)\s*$")


@dataclass(frozen=True, order=True)
class Face:
    """One side of a card: `count` birds of `colour`."""

    count: int
    colour: str

    def __str__(self) -> str:
        return f"{self.count} {self.colour}"


_COLOUR_WORDS: Mapping[str, str] = {
    "red": Msg("red"),
    "yellow": Msg("yellow"),
    "green": Msg("green"),
    "purple": Msg("purple"),
}


def colour_word(colour: str) -> str:
    """A colour as said to people ('red', in any language)."""
    return _COLOUR_WORDS.get(colour, colour)


def face_words(face: Face | str) -> str:
    """A face as said to people: '3 red' (`str(face)` is the same in English, as data)."""
    if isinstance(face, Face):
        return Msg("{count} {colour}", count=face.count, colour=colour_word(face.colour))
    return face


def parse_face(text: object) -> Face:
    """'3 red' -> Face(3, 'red').

    :raises ValueError: for text that is not a count 1..3 and one of the four colours.
    """
    m = _FACE.match(text) if isinstance(text, str) else None
    if m is None:
        raise ValueError(f"not a face {text!r}: write a count and a colour, such as '2 green'")
    count, colour = int(m.group(1)), m.group(2)
    if count not in COUNTS:
        raise ValueError(f"face {text!r}: a face shows 1, 2 or 3 birds")
    if colour not in COLOURS:
        raise ValueError(f"face {text!r}: the colours are {', '.join(COLOURS)}")
    return Face(count, colour)


@dataclass(frozen=True, order=True)
class Card:
    """A double-sided bird card: its id (the one its tag is enrolled under) and its two faces.
    Side a and side b only name the sides; neither is the front."""

    id: str
    a: Face
    b: Face

    def face(self, side: int) -> Face:
        """Side 0 is a, side 1 is b."""
        return self.b if side else self.a

    def side_of(self, face: Face) -> int:
        """The side that shows `face`.

        :raises ValueError: when the card does not carry that face.
        """
        if face == self.a:
            return 0
        if face == self.b:
            return 1
        raise ValueError(f"card {self.id} ({self.label()}) has no side {face}")

    def label(self) -> str:
        """'1 red / 3 red', as printed on the two sides."""
        return join_words(" / ", [face_words(self.a), face_words(self.b)])

    def obeys_card_rule(self) -> bool:
        """Same count and different colours, or same colour and different counts."""
        a, b = self.a, self.b
        return (a.count == b.count) != (a.colour == b.colour)


@dataclass(frozen=True)
class Catalogue:
    """The cards of one deck, in catalogue order."""

    cards: tuple[Card, ...]
    source: str = ""
    _by_id: dict[str, Card] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.cards})

    def card(self, card_id: str) -> Card:
        """:raises KeyError: for an id the catalogue does not know."""
        return self._by_id[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)

    def index(self, card_id: str) -> int:
        """The card's position in catalogue order.

        :raises ValueError: for an id the catalogue does not know.
        """
        return self.ids().index(card_id)


def load_catalogue(path: str | Path | None = None) -> Catalogue:
    """Load and validate a deck (default: the packaged 30-card deck).

    :raises ValueError: naming every fault (see `parse_catalogue`).
    """
    data, source = read_catalogue(
        "upref.games.whatsup", "cards.json", path, DEFAULT_SOURCE, "bird-card catalogue"
    )
    return parse_catalogue(data, source=source)


def parse_catalogue(data: Any, *, source: str = "") -> Catalogue:
    """Validate deck data already parsed from JSON: the four colours, 30 cards with unique ids,
    each with two faces that obey the card rule, and each of the twelve faces on exactly five
    card sides.

    :raises ValueError: naming every bad card or field.
    """
    where = source or "(data)"
    if not isinstance(data, Mapping):
        raise ValueError(f"bird-card catalogue {where}: expected a JSON object")
    problems: list[str] = []
    colours = data.get("colours")
    if colours is not None and list(colours) != list(COLOURS):
        problems.append(f"'colours' must be {', '.join(COLOURS)} (the game's four colours)")
    raw = data.get("cards")
    if not isinstance(raw, list):
        raise ValueError(f"bird-card catalogue {where}: 'cards' must be a list of cards")
    cards: list[Card] = []
    ids: set[str] = set()
    for i, item in enumerate(raw, start=1):
        card, fault = _parse_card(item, i, ids)
        if card is None:
            problems.append(fault or f"card #{i} is malformed")
            continue
        ids.add(card.id)
        if not card.obeys_card_rule():
            problems.append(
                f"{card.id} ({card.label()}) breaks the card rule: the two sides must have the "
                "same count and different colours, or the same colour and different counts"
            )
        cards.append(card)
    if len(raw) != CARDS:
        problems.append(f"the deck has {len(raw)} cards; What's Up has {CARDS}")
    sides = Counter(f for c in cards for f in (c.a, c.b))
    for colour in COLOURS:
        for n in COUNTS:
            face = Face(n, colour)
            if sides[face] != FACE_COPIES:
                problems.append(
                    f"face {face} is on {sides[face]} card sides; every face must be on exactly "
                    f"{FACE_COPIES}"
                )
    if problems:
        raise ValueError(
            f"bird-card catalogue {where} is invalid:\n  - " + "\n  - ".join(problems)
        )
    return Catalogue(tuple(cards), source)


def _parse_card(raw: Any, index: int, ids: set[str]) -> tuple[Card | None, str | None]:
    if not isinstance(raw, Mapping):
        return None, f"card #{index} is not an object"
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid.strip():
        return None, f"card #{index} has no id"
    if cid in ids:
        return None, f"{cid} appears twice"
    faces: list[Face] = []
    for side in ("a", "b"):
        text = raw.get(side)
        try:
            faces.append(parse_face(text))
        except ValueError as exc:
            return None, f"{cid} side {side}: {exc}"
    return Card(cid, faces[0], faces[1]), None


def row_words(counts: Sequence[int]) -> str:
    """A row's cards by their counts: '(1, 2)'; an empty row: '(none)'."""
    if not counts:
        return "(" + Msg("none") + ")"
    return "(" + ", ".join(str(n) for n in counts) + ")"
