"""Flip a Bird components: bird cards, special cards, tip cards, the row limit, and the
catalogue's validator.

The catalogue is data (`data/cards.json`): each of the 60 game cards with its back (open or
covered birdcage), each bird card's colour and number of birds, each special card's kind and
colour, and the twelve tip cards (one red and one green per seat). `load_catalogue()` reads and
validates it: 12 bird cards per colour, special cards 2 / 2 / 4 / 4 (the two colour kinds one per
colour), a back on every game card, six red and six green tips, one of each per seat. A deck that
differs is a data change, never a code change (docs/games/flipabird.md, "The catalogue").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from upref.games.base import read_catalogue
from upref.text import Msg, Plural, upper_first

__all__ = [
    "BACKS",
    "BIRD",
    "COLOURS",
    "COLOUR_DOUBLE",
    "COLOUR_NAMES",
    "COLOUR_NOT",
    "KINDS",
    "NO_NEIGHBOURS",
    "NO_SPECIALS",
    "Card",
    "Catalogue",
    "TipCard",
    "colour_name",
    "colour_said",
    "colour_word",
    "load_catalogue",
    "parse_catalogue",
]

COLOURS: tuple[str, ...] = ("B", "G", "R", "Y")
"""Colour letters, in the order scores and tables list them (blue, green, red, yellow)."""
COLOUR_NAMES: Mapping[str, str] = {"B": "blue", "G": "green", "R": "red", "Y": "yellow"}

BIRD = "bird"
NO_SPECIALS = "no-specials"  # "Special cards do not count"
NO_NEIGHBOURS = "no-neighbours"  # "Neighbour cards do not count"
COLOUR_NOT = "colour-not"  # "<colour> does not count"
COLOUR_DOUBLE = "colour-double"  # "<colour> counts double"
KINDS: tuple[str, ...] = (BIRD, NO_SPECIALS, NO_NEIGHBOURS, COLOUR_NOT, COLOUR_DOUBLE)
SPECIAL_KINDS: tuple[str, ...] = KINDS[1:]
BACKS: tuple[str, ...] = ("open", "covered")
BIRDS_PER_COLOUR = 12
TIP_COLOURS: tuple[str, ...] = ("red", "green")
MIN_PLAYERS, MAX_PLAYERS = 3, 6


def colour_said(letter: str | None) -> str:
    """A colour letter's name as said to people ('red', in any language)."""
    return colour_word(colour_name(letter))


def colour_word(name: str) -> str:
    """A colour's name ('red': a card's, a tip's) as said to people."""
    return _SAID.get(name, name)


_SAID: Mapping[str, str] = {
    "blue": Msg("blue"),
    "green": Msg("green"),
    "red": Msg("red"),
    "yellow": Msg("yellow"),
}


def colour_name(letter: str | None) -> str:
    if letter is None:
        return ""
    return COLOUR_NAMES.get(letter, letter)


@dataclass(frozen=True)
class Card:
    """A game card. `kind` is `BIRD` or one of the four special kinds; `colour` a colour letter
    (bird cards and the two colour kinds; None for the others); `birds` the birds printed on a
    bird card (0 on a special card); `back` "open" or "covered"."""

    id: str
    kind: str
    colour: str | None
    birds: int
    back: str

    @property
    def is_bird(self) -> bool:
        return self.kind == BIRD

    @property
    def is_special(self) -> bool:
        return self.kind != BIRD

    @property
    def face(self) -> str:
        """What the face shows, in a few words: 'red 2', 'Neighbours do not count',
        'Blue counts double'."""
        if self.kind == BIRD:
            return Msg("{colour} {birds}", colour=colour_said(self.colour), birds=self.birds)
        if self.kind == NO_SPECIALS:
            return Msg("Special cards do not count")
        if self.kind == NO_NEIGHBOURS:
            return Msg("Neighbour cards do not count")
        name = upper_first(colour_said(self.colour))
        if self.kind == COLOUR_NOT:
            return Msg("{colour} does not count", colour=name)
        return Msg("{colour} counts double", colour=name)

    @property
    def label(self) -> str:
        """What a person matches against the printed card: 'R2c: red, 2 birds, covered cage on
        the back'."""
        if self.kind == BIRD:
            what = Msg(
                "{colour}, {birds}",
                colour=colour_said(self.colour),
                birds=Plural("{n} bird", "{n} birds", n=self.birds),
            )
        else:
            what = self.face
        if self.back == "open":
            return Msg("{id}: {what}, open cage on the back", id=self.id, what=what)
        return Msg("{id}: {what}, covered cage on the back", id=self.id, what=what)


@dataclass(frozen=True)
class TipCard:
    """A tip card: its colour ("red" or "green") and the seat it belongs to (1 = the player
    named first)."""

    id: str
    colour: str
    seat: int

    @property
    def label(self) -> str:
        colour = colour_word(self.colour)
        return Msg("{id}: {colour} tip card of player {seat}", id=self.id, colour=colour, seat=self.seat)


@dataclass(frozen=True)
class Catalogue:
    """The 60 game cards and the tip cards of one deck, with the row limit per player count."""

    cards: tuple[Card, ...]
    tips: tuple[TipCard, ...]
    limits: Mapping[int, int]
    source: str = ""
    _by_id: dict[str, Card] = field(default_factory=dict, compare=False, repr=False)
    _tips: dict[str, TipCard] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.cards})
        object.__setattr__(self, "_tips", {t.id: t for t in self.tips})

    def card(self, card_id: str) -> Card:
        """:raises KeyError: for an id that is not a game card of this catalogue."""
        return self._by_id[card_id]

    def tip(self, tip_id: str) -> TipCard:
        """:raises KeyError: for an id that is not a tip card."""
        return self._tips[tip_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def is_tip(self, item: str) -> bool:
        return item in self._tips

    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)

    def limit(self, players: int) -> int:
        """The most birds a row may hold with this many players.

        :raises ValueError: for a player count the game is not for.
        """
        if players not in self.limits:
            counts = sorted(self.limits)
            raise ValueError(
                Msg(
                    "{game} is for {low} to {high} players, not {players}",
                    game="Flip a Bird",
                    low=counts[0],
                    high=counts[-1],
                    players=players,
                )
            )
        return self.limits[players]

    def to_dict(self) -> dict[str, Any]:
        """The catalogue as JSON data (a game log's header keeps it, so a replay needs nothing
        else); `parse_catalogue` reads it back."""
        return {
            "source": self.source,
            "colours": dict(COLOUR_NAMES),
            "limits": {str(k): v for k, v in sorted(self.limits.items())},
            "birds": [
                {"id": c.id, "colour": c.colour, "birds": c.birds, "back": c.back}
                for c in self.cards
                if c.is_bird
            ],
            "specials": [
                {"id": c.id, "kind": c.kind, "colour": c.colour, "back": c.back}
                for c in self.cards
                if c.is_special
            ],
            "tips": [{"id": t.id, "colour": t.colour, "seat": t.seat} for t in self.tips],
        }


DEFAULT_SOURCE = "upref.games.flipabird/data/cards.json"


def load_catalogue(path: str | Path | None = None) -> Catalogue:
    """Load and validate a catalogue (default: the packaged one).

    :raises ValueError: naming every bad card or count.
    """
    data, source = read_catalogue(
        "upref.games.flipabird", "cards.json", path, DEFAULT_SOURCE, "Flip a Bird catalogue"
    )
    return parse_catalogue(data, source=source)


def parse_catalogue(data: Any, *, source: str = "") -> Catalogue:
    """Validate catalogue data already parsed from JSON (see `load_catalogue`).

    :raises ValueError: naming every bad card or count.
    """
    where = source or "(data)"
    if not isinstance(data, dict):
        raise ValueError(f"Flip a Bird catalogue {where}: expected a JSON object")
    read = _Reader()
    cards = read.birds(data.get("birds")) + read.specials(data.get("specials"))
    read.problems += _count_problems(cards, data.get("special_counts"))
    tips = read.tips(data.get("tips", []))
    limits = read.limits(data.get("limits"))
    if read.problems:
        raise ValueError(
            f"Flip a Bird catalogue {where} is invalid:\n  - " + "\n  - ".join(read.problems)
        )
    return Catalogue(tuple(cards), tuple(tips), limits, source)


class _Reader:
    """Reads the parts of a catalogue's data, noting every problem instead of stopping at the
    first (and every id met, so that a card given twice is named)."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.ids: set[str] = set()

    def _list(self, raw: Any, key: str, what: str) -> list[Any]:
        if not isinstance(raw, list):
            self.problems.append(f"'{key}' must be a list of {what}s")
            return []
        return raw

    def _new_id(self, raw: Any, what: str, index: int) -> str | None:
        cid = raw.get("id") if isinstance(raw, dict) else None
        if not isinstance(cid, str) or not cid.strip():
            self.problems.append(f"{what} #{index + 1} has no id")
            return None
        if cid in self.ids:
            self.problems.append(f"{cid} appears twice")
            return None
        self.ids.add(cid)
        return cid

    def _back(self, raw: Mapping[str, Any], cid: str) -> str | None:
        back = raw.get("back")
        if back not in BACKS:
            self.problems.append(f"{cid} has no back (open or covered), got {back!r}")
            return None
        return str(back)

    def birds(self, data: Any) -> list[Card]:
        """The bird cards: an id, a colour, one or more birds and a back each."""
        cards: list[Card] = []
        for i, raw in enumerate(self._list(data, "birds", "bird card")):
            cid = self._new_id(raw, "bird card", i)
            if cid is None:
                continue
            colour, n = raw.get("colour"), raw.get("birds")
            back = self._back(raw, cid)
            if colour not in COLOURS:
                self.problems.append(f"{cid} has colour {colour!r}; colours are {', '.join(COLOURS)}")
                continue
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                self.problems.append(f"{cid} shows {n!r} birds; a bird card shows 1 or more")
                continue
            if back is not None:
                cards.append(Card(cid, BIRD, colour, n, back))
        return cards

    def specials(self, data: Any) -> list[Card]:
        """The special cards: an id, a kind, a colour for the colour kinds only, and a back."""
        cards: list[Card] = []
        for i, raw in enumerate(self._list(data, "specials", "special card")):
            cid = self._new_id(raw, "special card", i)
            if cid is None:
                continue
            kind, colour = raw.get("kind"), raw.get("colour")
            back = self._back(raw, cid)
            if kind not in SPECIAL_KINDS:
                self.problems.append(f"{cid} is of kind {kind!r}; kinds are {', '.join(SPECIAL_KINDS)}")
                continue
            coloured = kind in (COLOUR_NOT, COLOUR_DOUBLE)
            if coloured and colour not in COLOURS:
                self.problems.append(f"{cid} ({kind}) needs a colour of {', '.join(COLOURS)}, got {colour!r}")
                continue
            if not coloured and colour is not None:
                self.problems.append(f"{cid} ({kind}) has a colour {colour!r} but its kind has none")
                continue
            if back is not None:
                cards.append(Card(cid, kind, colour if coloured else None, 0, back))
        return cards

    def tips(self, data: Any) -> list[TipCard]:
        """The tip cards: red or green, bound to a seat; one of each colour per seat."""
        tips: list[TipCard] = []
        raw_tips = self._list(data, "tips", "tip card")
        for i, raw in enumerate(raw_tips):
            tid = self._new_id(raw, "tip card", i)
            if tid is None:
                continue
            colour, seat = raw.get("colour"), raw.get("seat")
            if colour not in TIP_COLOURS:
                self.problems.append(f"{tid} is {colour!r}; tip cards are red or green")
            elif isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= MAX_PLAYERS:
                self.problems.append(f"{tid} belongs to seat {seat!r}; seats are 1 to {MAX_PLAYERS}")
            else:
                tips.append(TipCard(tid, str(colour), seat))
        if raw_tips:
            for colour in TIP_COLOURS:
                seats = sorted(t.seat for t in tips if t.colour == colour)
                if seats != list(range(1, MAX_PLAYERS + 1)):
                    self.problems.append(
                        f"the {colour} tip cards must be one per seat 1 to {MAX_PLAYERS}, got seats "
                        f"{seats}"
                    )
        return tips

    def limits(self, data: Any) -> dict[int, int]:
        """The most birds a row may hold, for each number of players the game is for."""
        limits: dict[int, int] = {}
        if not isinstance(data, dict):
            self.problems.append("'limits' must map a number of players to the most birds a row may hold")
            return limits
        for k, v in data.items():
            try:
                players = int(k)
            except ValueError:
                self.problems.append(f"limit for {k!r} players: not a number of players")
                continue
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                self.problems.append(f"limit for {players} players is {v!r}; a limit is a positive number")
                continue
            limits[players] = v
        if sorted(limits) != list(range(MIN_PLAYERS, MAX_PLAYERS + 1)):
            self.problems.append(
                f"'limits' must give the limit for {MIN_PLAYERS} to {MAX_PLAYERS} players, got "
                f"{sorted(limits)}"
            )
        return limits


def _count_problems(cards: Iterable[Card], declared: Any) -> list[str]:
    """12 bird cards per colour; special cards as declared (2 / 2 / 4 / 4 by default), the two
    colour kinds one card per colour."""
    problems: list[str] = []
    cards = list(cards)
    for c in COLOURS:
        n = sum(1 for k in cards if k.is_bird and k.colour == c)
        if n != BIRDS_PER_COLOUR:
            problems.append(
                f"{n} {colour_name(c)} bird cards; a deck has {BIRDS_PER_COLOUR} of each colour"
            )
    want = {NO_SPECIALS: 2, NO_NEIGHBOURS: 2, COLOUR_NOT: 4, COLOUR_DOUBLE: 4}
    if declared is not None:
        if not isinstance(declared, dict) or set(declared) != set(want):
            problems.append(f"'special_counts' must give a count for each of {', '.join(want)}")
        else:
            want = {k: int(v) for k, v in declared.items()}
    for kind, n_want in want.items():
        have = [k for k in cards if k.kind == kind]
        if len(have) != n_want:
            problems.append(f"{len(have)} special cards of kind {kind}; the deck has {n_want}")
        if kind in (COLOUR_NOT, COLOUR_DOUBLE) and len(have) == len(COLOURS):
            colours = sorted(str(k.colour) for k in have)
            if colours != sorted(COLOURS):
                problems.append(
                    f"the {kind} cards must be one per colour, got {', '.join(colours)}"
                )
    return problems
