"""Up's cards: the catalogue of 13-card sets as data (`data/cards.json`), its validator, and the
deck of a game (one set per player).

A set holds the number cards 1 to 11, one "-2" card and one disposal card (the big arrows). A
set's colour has no rule function, so a set is named by a letter (A, B, ...); a card's id is its
set letter and its face: `A7`; the letter and `-2` for the -2 card; `AD` for the disposal card.
The catalogue lists every card of every set a club may own (ten sets, for ten players); a game
uses one set per player, the first ones unless the variant names others.

    cat = load_catalogue()
    deck = cat.deck("ABC", minus2=True)      # 39 card ids, for three players
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from upref.games.base import read_catalogue

__all__ = [
    "DISPOSAL",
    "KINDS",
    "MINUS2",
    "NUMBER",
    "NUMBERS",
    "Card",
    "Catalogue",
    "face_label",
    "load_catalogue",
    "parse_catalogue",
]

NUMBER = "number"
MINUS2 = "minus2"
DISPOSAL = "disposal"
KINDS = (NUMBER, MINUS2, DISPOSAL)
NUMBERS = tuple(range(1, 12))
"""The number cards of a set: 1 to 11."""
SET_SIZE = len(NUMBERS) + 2

DEFAULT_SOURCE = "the packaged Up catalogue"
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,31}")
_LETTER = re.compile(r"[A-Z]")


@dataclass(frozen=True, order=True)
class Card:
    """One physical card: its id, its set's letter, its kind and (number cards) its value."""

    id: str
    set: str
    kind: str
    value: int = 0  # 1..11 for a number card, 0 otherwise

    @property
    def face(self) -> str:
        """What is printed on it, short: '7', '-2', 'disposal'."""
        return face_label(self.kind, self.value)

    @property
    def label(self) -> str:
        """What a person matches against the printed card: 'A7: set A, 7'."""
        what = {
            NUMBER: f"{self.value}",
            MINUS2: "the -2 card",
            DISPOSAL: "the disposal card (big arrows)",
        }[self.kind]
        return f"{self.id}: set {self.set}, {what}"


def face_label(kind: str, value: int = 0) -> str:
    """'7', '-2' or 'disposal'."""
    if kind == NUMBER:
        return str(value)
    return "-2" if kind == MINUS2 else "disposal"


@dataclass(frozen=True)
class Catalogue:
    """Every card a club owns, set by set (validated: `parse_catalogue`)."""

    sets: tuple[str, ...]
    cards: tuple[Card, ...]
    labels: Mapping[str, str] = field(default_factory=dict)  # set letter -> its label
    source: str = DEFAULT_SOURCE
    _by_id: Mapping[str, Card] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.cards})

    def card(self, card_id: str) -> Card:
        """:raises KeyError: for an id that is no card of this catalogue."""
        return self._by_id[card_id]

    def get(self, card_id: str) -> Card | None:
        return self._by_id.get(card_id)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    @property
    def max_players(self) -> int:
        """One set per player, and the rules' ten at most."""
        return min(10, len(self.sets))

    def default_sets(self, players: int) -> str:
        """The first `players` sets."""
        return "".join(self.sets[:players])

    def deck(self, sets: Iterable[str], *, minus2: bool = True) -> tuple[str, ...]:
        """The card ids of these sets, in catalogue order (without the -2 cards when `minus2`
        is False: the variant without -2).

        :raises ValueError: for a set this catalogue does not have.
        """
        wanted = list(sets)
        unknown = [s for s in wanted if s not in self.sets]
        if unknown:
            raise ValueError(
                f"no set {', '.join(unknown)} in {self.source} (its sets are "
                f"{''.join(self.sets)})"
            )
        keep = set(wanted)
        return tuple(
            c.id for c in self.cards if c.set in keep and (minus2 or c.kind != MINUS2)
        )

    def to_dict(self) -> dict[str, Any]:
        """The catalogue as JSON data (`parse_catalogue` reads it back): a game log keeps it."""
        return {
            "game": "up",
            "sets": [{"letter": s, "label": self.labels.get(s, f"set {s}")} for s in self.sets],
            "cards": [
                {"id": c.id, "set": c.set, "kind": c.kind, **({"value": c.value} if c.kind == NUMBER else {})}
                for c in self.cards
            ],
        }


def load_catalogue(path: str | Path | None = None) -> Catalogue:
    """Load and validate a catalogue (default: the packaged ten sets A to J).

    :raises ValueError: naming every fault found.
    """
    data, source = read_catalogue(
        "upref.games.up", "cards.json", path, DEFAULT_SOURCE, "Up catalogue"
    )
    return parse_catalogue(data, source=source)


def parse_catalogue(data: Any, *, source: str = "game log") -> Catalogue:
    """Validate catalogue data parsed from JSON: sets with distinct capital letters, and in
    every set exactly one each of the numbers 1 to 11, one -2 card and one disposal card; card
    ids unique and usable as tag item ids; at least two sets (two players).

    :raises ValueError: naming every fault found.
    """
    if not isinstance(data, Mapping):
        raise ValueError(f"Up catalogue {source}: expected a JSON object")
    problems: list[str] = []
    letters, labels = _read_sets(data.get("sets"), problems)
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list):
        problems.append("'cards' must be a list of cards")
        raw_cards = []
    cards: list[Card] = []
    seen: set[str] = set()
    for i, c in enumerate(raw_cards):
        where = f"card {i + 1}"
        if not isinstance(c, Mapping):
            problems.append(f"{where}: expected an object with id, set and kind")
            continue
        cid, cset, kind, value = c.get("id"), c.get("set"), c.get("kind"), c.get("value", 0)
        if not isinstance(cid, str) or not _ID.fullmatch(cid):
            problems.append(
                f"{where}: id {cid!r} must be 1 to 32 letters, digits and _.+- (a tag's item id)"
            )
            continue
        where = f"card {cid}"
        if cid in seen:
            problems.append(f"{where} is listed twice")
            continue
        seen.add(cid)
        if cset not in letters:
            problems.append(f"{where}: set {cset!r} is not one of the sets {''.join(letters)}")
            continue
        if kind not in KINDS:
            problems.append(f"{where}: kind {kind!r} must be one of {', '.join(KINDS)}")
            continue
        if kind == NUMBER:
            if isinstance(value, bool) or not isinstance(value, int) or value not in NUMBERS:
                problems.append(f"{where}: a number card's value must be 1 to 11, not {value!r}")
                continue
        elif value not in (0, None):
            problems.append(f"{where}: a {face_label(kind)} card has no value ({value!r})")
            continue
        cards.append(Card(cid, cset, kind, int(value or 0)))
    for letter in letters:
        problems.extend(_set_problems(letter, [c for c in cards if c.set == letter]))
    if len(letters) < 2:
        problems.append(f"{len(letters)} set(s): Up needs one set per player, two at least")
    if problems:
        raise ValueError(f"Up catalogue {source}: " + "; ".join(problems))
    return Catalogue(tuple(letters), tuple(cards), labels, source)


def _read_sets(raw_sets: Any, problems: list[str]) -> tuple[list[str], dict[str, str]]:
    """A catalogue's sets: their letters in order and their labels; each fault joins
    `problems`."""
    letters: list[str] = []
    labels: dict[str, str] = {}
    if not isinstance(raw_sets, list) or not raw_sets:
        problems.append("'sets' must be a list of sets, each with a 'letter'")
        raw_sets = []
    for i, s in enumerate(raw_sets):
        letter = s.get("letter") if isinstance(s, Mapping) else None
        if not isinstance(letter, str) or not _LETTER.fullmatch(letter):
            problems.append(f"set {i + 1}: its letter must be one capital letter, not {letter!r}")
            continue
        if letter in letters:
            problems.append(f"set {letter} is listed twice")
            continue
        letters.append(letter)
        label = s.get("label")
        labels[letter] = label if isinstance(label, str) and label else f"set {letter}"
    return letters, labels


def _set_problems(letter: str, cards: Sequence[Card]) -> list[str]:
    """What set `letter` lacks or has twice (one each of 1..11, -2 and disposal)."""
    out: list[str] = []
    faces = [c.face for c in cards]
    for want in [*(str(v) for v in NUMBERS), "-2", "disposal"]:
        n = faces.count(want)
        if n == 0:
            out.append(f"set {letter} has no {want} card")
        elif n > 1:
            ids = ", ".join(c.id for c in cards if c.face == want)
            out.append(f"set {letter} has {n} {want} cards ({ids}): a set has one of each")
    return out
