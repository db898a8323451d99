"""Up And Down components: colours, mole pairs, task cards, and the catalogue validator.

Five colours, and one mole pair for every two of them: the ten pairs are the edges of K5.
A board orients each pair (one end up), which is a tournament on the five colours; a colour's
visible count is its score. By Landau's theorem a count vector is achievable iff, sorted
ascending, every prefix of k counts sums to at least C(k, 2) and all five sum to 10. A task card
fixes the counts of some colours; it can be solved iff some completion to all five satisfies
Landau (docs/games/updown.md, "The task cards").

The catalogue is data (`data/cards.json`): `load_catalogue()` reads and validates it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from upref.games.base import read_catalogue
from upref.text import Msg, and_join, join_words

__all__ = [
    "COLOURS",
    "COLOUR_NAMES",
    "PAIRS",
    "SHOVELS",
    "Catalogue",
    "TaskCard",
    "colour_name",
    "colour_word",
    "said_colour",
    "describe_counts",
    "is_achievable",
    "landau",
    "load_catalogue",
    "pair_colours",
    "pair_id",
    "validate_card",
]

COLOURS: tuple[str, ...] = ("R", "B", "Y", "W", "K")
"""Colour letters in the rule order (red, blue, yellow, white, black; also the order of the
letters in pair ids)."""
COLOUR_NAMES: Mapping[str, str] = {
    "R": "red",
    "B": "blue",
    "Y": "yellow",
    "W": "white",
    "K": "black",
}
PAIRS: tuple[str, ...] = tuple(f"P-{a}{b}" for a, b in itertools.combinations(COLOURS, 2))
"""The ten pair ids, P-RB ... P-WK: every colour with every other once (K5)."""
SHOVELS: tuple[int, ...] = (1, 2, 3, 4)
MOLES_PER_COLOUR = len(COLOURS) - 1
TOTAL_VISIBLE = len(PAIRS)


COLOUR_WORDS: Mapping[str, str] = {
    "red": Msg("red"),
    "blue": Msg("blue"),
    "yellow": Msg("yellow"),
    "white": Msg("white"),
    "black": Msg("black"),
}
"""Each colour's name as people read and hear it (the names themselves stay the data that views
and pictures carry)."""


def colour_name(letter: str) -> str:
    """A colour's name as data ('red'): what views hold and pictures are coloured by."""
    return COLOUR_NAMES.get(letter, letter)


def said_colour(name: str) -> str:
    """A colour's name ('red') as a word for people, said in the language of the screen."""
    return COLOUR_WORDS.get(name, name)


def colour_word(letter: str) -> str:
    """A colour letter ('R') as a word for people."""
    return said_colour(colour_name(letter))


def pair_colours(pair: str) -> tuple[str, str]:
    """'P-RB' -> ('R', 'B').

    :raises ValueError: for a string that is not one of the ten pair ids.
    """
    if pair not in PAIRS:
        raise ValueError(
            Msg("unknown mole pair {pair!r} (pairs are {pairs})", pair=pair, pairs=", ".join(PAIRS))
        )
    return pair[2], pair[3]


def pair_id(a: str, b: str) -> str:
    """The id of the pair joining colours `a` and `b`, in either order."""
    i, j = sorted((COLOURS.index(a), COLOURS.index(b)))
    return f"P-{COLOURS[i]}{COLOURS[j]}"



def describe_counts(counts: Iterable[tuple[str, int]]) -> str:
    """[('K', 3), ('R', 1)] -> '3 black and 1 red'; a count of 0 reads 'no blue'."""
    return and_join(
        [
            Msg("{n} {colour}", n=n, colour=colour_word(c))
            if n
            else Msg("no {colour}", colour=colour_word(c))
            for c, n in counts
        ]
    )


# --- Landau ------------------------------------------------------------------------------


def _c2(k: int) -> int:
    return k * (k - 1) // 2


def landau(scores: Sequence[int]) -> bool:
    """True iff `scores` is the score sequence of a tournament (in any order): sorted
    ascending, each prefix of k scores sums to at least C(k, 2), and all sum to C(n, 2)."""
    s = sorted(scores)
    if any(x < 0 for x in s) or sum(s) != _c2(len(s)):
        return False
    total = 0
    for k, x in enumerate(s, start=1):
        total += x
        if total < _c2(k):
            return False
    return True


def is_achievable(counts: Mapping[str, int]) -> bool:
    """True iff some board shows exactly these counts for these colours (others free): some
    completion of the counts to all five colours satisfies Landau."""
    free = [c for c in COLOURS if c not in counts]
    for rest in itertools.product(range(MOLES_PER_COLOUR + 1), repeat=len(free)):
        full = dict(counts)
        full.update(zip(free, rest, strict=True))
        if landau([full[c] for c in COLOURS]):
            return True
    return False


def _explain(counts: Mapping[str, int], card_id: str) -> str:
    """Why no board shows `counts`: the smallest set U of the card's colours whose asked total
    is below the C(|U|, 2) moles the pairs joining them always show, or above the most they can
    show, C(|U|, 2) + |U| (5 - |U|)."""
    # Cards list colours in their own order; explanations use the card's order too.
    order = list(counts)
    for k in range(1, len(order) + 1):
        for subset in itertools.combinations(order, k):
            total = sum(counts[c] for c in subset)
            low = _c2(k)
            high = _c2(k) + k * (len(COLOURS) - k)
            asked = and_join(
                [Msg("{colour} {n}", colour=colour_word(c), n=counts[c]) for c in subset]
            )
            args = {"card": card_id, "asked": asked, "total": total, "low": low, "high": high}
            if k == 2 and total < low:
                return Msg(
                    "{card} asks for {asked}: two colours cannot both show no mole, "
                    "since their own pair always shows one of them",
                    **args,
                )
            if k == 2 and total > high:
                return Msg(
                    "{card} asks for {asked}: two colours can show at most {high} moles "
                    "between them, since their own pair shows only one of them",
                    **args,
                )
            if k == len(COLOURS) and total != low:
                return Msg(
                    "{card} asks for {asked} ({total} moles in all): the five colours "
                    "always show exactly {low} moles, one for each pair",
                    **args,
                )
            if total < low:
                return Msg(
                    "{card} asks for {asked} ({total} in all): these {k} colours always "
                    "show at least {low} moles between them, one for each of the {low} pairs "
                    "joining two of them",
                    k=k,
                    **args,
                )
            if total > high:
                return Msg(
                    "{card} asks for {asked} ({total} in all): these {k} colours can show "
                    "at most {high} moles between them, since each of the {low} pairs joining "
                    "two of them shows only one",
                    k=k,
                    **args,
                )
    return Msg(
        "{card} asks for {asked}: no board shows that",
        card=card_id,
        asked=describe_counts(counts.items()),
    )


def _count_fault(c: str, n: object, card_id: str) -> str | None:
    """What is wrong with one count a card asks for, if anything."""
    if c not in COLOURS:
        return Msg(
            "{card} names an unknown colour {colour!r} (colours are {colours})",
            card=card_id,
            colour=c,
            colours=", ".join(COLOURS),
        )
    if isinstance(n, bool) or not isinstance(n, int):
        return Msg(
            "{card} asks for a count that is not a whole number: {colour} {n!r}",
            card=card_id,
            colour=colour_word(c),
            n=n,
        )
    if n < 0:
        return Msg(
            "{card} asks for {colour} {n}: a count cannot be negative",
            card=card_id,
            colour=colour_word(c),
            n=n,
        )
    if n > MOLES_PER_COLOUR:
        return Msg(
            "{card} asks for {colour} {n}: each colour has only {most} moles",
            card=card_id,
            colour=colour_word(c),
            n=n,
            most=MOLES_PER_COLOUR,
        )
    return None


def validate_card(counts: Mapping[str, int], card_id: str = Msg("This card")) -> str | None:
    """None if some board satisfies a card asking for `counts` (colour letter -> visible
    count; colours not named are free), else the reason in words, naming `card_id`."""
    if not counts:
        return Msg("{card} names no colour", card=card_id)
    for c, n in counts.items():
        fault = _count_fault(c, n, card_id)
        if fault is not None:
            return fault
    if is_achievable(counts):
        return None
    return _explain(counts, card_id)


# --- cards and catalogue -------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class TaskCard:
    """A task card: `counts` are (colour letter, count) in the order printed on the card."""

    id: str
    shovels: int
    counts: tuple[tuple[str, int], ...]
    note: str = field(default="", compare=False)

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(c for c, _ in self.counts)

    def count_map(self) -> dict[str, int]:
        return dict(self.counts)

    @property
    def code(self) -> str:
        """Short form, as the guide prints cards: 'K3 R1'."""
        return " ".join(f"{c}{n}" for c, n in self.counts)

    def describe(self) -> str:
        """'3 black and 1 red'."""
        return describe_counts(self.counts)

    def is_satisfied(self, visible: Mapping[str, int]) -> bool:
        """True when the visible counts match the card on every colour it names (M-6: other
        colours do not matter; a count of 0 means no mole of that colour shows)."""
        return all(visible.get(c, 0) == n for c, n in self.counts)


@dataclass(frozen=True)
class Catalogue:
    """The task cards of one deck. `cards` are the playable ones; `impossible` holds the cards
    no board can satisfy, each with the reason (only when loaded with `strict=False`; the game
    removes them at setup, ruling M-11)."""

    cards: tuple[TaskCard, ...]
    impossible: tuple[tuple[TaskCard, str], ...] = ()
    source: str = ""
    _by_id: dict[str, TaskCard] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        by_id = {c.id: c for c in self.cards}
        by_id.update({c.id: c for c, _ in self.impossible})
        object.__setattr__(self, "_by_id", by_id)

    def card(self, card_id: str) -> TaskCard:
        """:raises KeyError: for an id the catalogue does not know."""
        return self._by_id[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)


DEFAULT_SOURCE = "upref.games/data/updown_cards.json"
"""How a log's header names the packaged default catalogue (the name it has always had, so that
logs written before the catalogue moved read the same)."""


def load_catalogue(path: str | Path | None = None, *, strict: bool = True) -> Catalogue:
    """Load and validate a task-card catalogue (default: the packaged 30-card default).

    Checks that the pairs are the ten edges of K5 over the five colours, every card is well
    formed (unique id, 1..4 shovels, known colours, one colour on a one-shovel card), the
    number of cards per shovel value is the one the file declares, and every card can be
    solved (Landau). With `strict=False`, unsolvable cards are kept aside in
    `Catalogue.impossible` with their reason instead (ruling M-11); other faults still raise.

    :raises ValueError: naming each bad card or field.
    """
    data, source = read_catalogue(
        "upref.games.updown", "cards.json", path, DEFAULT_SOURCE, "task-card catalogue"
    )
    return parse_catalogue(data, source=source, strict=strict)


def parse_catalogue(data: Any, *, source: str = "", strict: bool = True) -> Catalogue:
    """Validate catalogue data already parsed from JSON (see `load_catalogue`).

    :raises ValueError: naming each bad card or field.
    """
    problems: list[str] = []
    if not isinstance(data, dict):
        raise ValueError(Msg("task-card catalogue {source}: expected a JSON object", source=source))

    colours = data.get("colours")
    if not isinstance(colours, dict) or sorted(colours) != sorted(COLOURS):
        problems.append(
            Msg("'colours' must name exactly the five colours {colours}", colours=", ".join(COLOURS))
        )
    problems += _pair_problems(data.get("pairs"))

    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        problems.append(Msg("'cards' must be a non-empty list"))
        raw_cards = []
    cards: list[TaskCard] = []
    impossible: list[tuple[TaskCard, str]] = []
    ids: set[str] = set()
    for i, raw in enumerate(raw_cards):
        card, fault = _parse_card(raw, i, ids)
        if card is None:
            problems.append(fault or Msg("card #{number} is malformed", number=i + 1))
            continue
        ids.add(card.id)
        reason = validate_card(card.count_map(), card.id)
        if reason is not None:
            if strict:
                problems.append(reason)
            else:
                impossible.append((card, reason))
            continue
        cards.append(card)

    problems += _shovel_count_problems(data.get("shovel_counts"), cards + [c for c, _ in impossible])
    if problems:
        raise ValueError(
            Msg(
                "task-card catalogue {source} is invalid:\n  - {problems}",
                source=source or "(data)",
                problems=join_words("\n  - ", problems),
            )
        )
    return Catalogue(tuple(cards), tuple(impossible), source)


def _shovel_count_problems(declared: Any, cards: list[TaskCard]) -> list[str]:
    """What is wrong with the number of cards per shovel value the catalogue declares."""
    if declared is None:
        return []
    if not isinstance(declared, dict):
        return [Msg("'shovel_counts' must map shovels to a number of cards")]
    have: dict[int, int] = {}
    for c in cards:
        have[c.shovels] = have.get(c.shovels, 0) + 1
    want = {int(k): v for k, v in declared.items()}
    return [
        Msg(
            "{have} cards with {shovels} shovel(s), but the deck declares {want}",
            have=have.get(s, 0),
            shovels=s,
            want=want.get(s, 0),
        )
        for s in sorted(set(want) | set(have))
        if want.get(s, 0) != have.get(s, 0)
    ]


def _pair_problems(pairs: Any) -> list[str]:
    """What is wrong with a catalogue's 'pairs': they must be the ten pairs of two colours."""
    if not isinstance(pairs, list):
        return [Msg("'pairs' must be a list of the ten pair ids")]
    problems: list[str] = []
    seen: set[frozenset[str]] = set()
    for p in pairs:
        ok = isinstance(p, str) and len(p) == 4 and p.startswith("P-")
        ends = frozenset(p[2:]) if ok else frozenset()
        if not ok or len(ends) != 2 or not ends <= set(COLOURS) or p != pair_id(p[2], p[3]):
            problems.append(Msg("pair {pair!r} is not a pair of two different colours 'P-XY'", pair=p))
        elif ends in seen:
            problems.append(Msg("pair {pair!r} appears twice", pair=p))
        else:
            seen.add(ends)
    if len(seen) != len(PAIRS) or len(pairs) != len(PAIRS):
        problems.append(
            Msg(
                "the pairs must be the {n} pairs joining every colour with every other exactly "
                "once (K5); got {got}",
                n=len(PAIRS),
                got=len(pairs),
            )
        )
    return problems


def _parse_card(raw: Any, index: int, ids: set[str]) -> tuple[TaskCard | None, str | None]:
    if not isinstance(raw, dict):
        return None, Msg("card #{number} is not an object", number=index + 1)
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid:
        return None, Msg("card #{number} has no id", number=index + 1)
    if cid in ids:
        return None, Msg("{card} appears twice", card=cid)
    shovels = raw.get("shovels")
    if shovels not in SHOVELS or isinstance(shovels, bool):
        return None, Msg("{card} has {shovels!r} shovels; cards have 1 to 4", card=cid, shovels=shovels)
    counts = raw.get("counts")
    if not isinstance(counts, dict) or not counts:
        return None, Msg("{card} has no counts (colour letter -> number of moles)", card=cid)
    for c, n in counts.items():
        if c not in COLOURS:
            return None, Msg(
                "{card} names an unknown colour {colour!r} (colours are {colours})",
                card=cid,
                colour=c,
                colours=", ".join(COLOURS),
            )
        if isinstance(n, bool) or not isinstance(n, int):
            return None, Msg(
                "{card} asks for a count that is not a whole number: {colour} {n!r}",
                card=cid,
                colour=c,
                n=n,
            )
    if shovels == 1 and len(counts) != 1:
        return (
            None,
            Msg(
                "{card} has 1 shovel but names {n} colours: one-shovel cards show one colour",
                card=cid,
                n=len(counts),
            ),
        )
    note = raw.get("note", "")
    card = TaskCard(cid, shovels, tuple((c, n) for c, n in counts.items()), str(note))
    return card, None
