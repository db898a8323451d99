"""How cards count: the evaluation of a row at a claim, a pure function that explains itself
card by card (`evaluate`), and the score of won cards at the end (`score`).

The ruled order (docs/games/flipabird.md, F-1 ... F-5, F-10), on the row as it lay:

1. If at least one "Special cards do not count" lies in the row, every special card (of every
   kind, that card included) leaves the row, and steps 2 and 3 do nothing (F-1).
2. Otherwise every "Neighbour cards do not count" takes its left and right neighbours out of the
   row, bird or special card alike. They all act at once, on the original positions: a
   neighbour card at a row end takes out its one neighbour (F-2), and a neighbour card taken
   out by another still acts (F-3). The neighbour card itself stays unless another takes it out;
   it carries no birds.
3. For each colour, among the colour cards still in the row: "does not count" makes that
   colour's birds count 0 and beats "counts double"; otherwise "counts double" counts them
   twice. Colours do not affect each other (F-4). A colour card taken out in step 1 or 2 does
   nothing.
4. The total is the birds on the bird cards still in the row, each times its colour's factor.
   Cards taken out count nothing but are shared out with the row (F-5). Red is right only when
   the total is more than the limit (F-10).

At the end, won cards score 10 for each set of four colours, 2 for each special card and 1 for
each other bird card, grouped the best way (`Score`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from upref.games.flipabird.cards import (
    COLOUR_DOUBLE,
    COLOUR_NOT,
    COLOURS,
    NO_NEIGHBOURS,
    NO_SPECIALS,
    Card,
    colour_said,
)
from upref.games.flipabird.words import birds, places
from upref.text import Msg, Plural, and_join, join_words

__all__ = ["CardLine", "Evaluation", "Score", "evaluate", "score"]


@dataclass(frozen=True)
class CardLine:
    """One card of the evaluated row: its place (1 = the first card, by the draw pile), whether
    it stays in the row, the birds it adds to the total, and why, in words."""

    position: int
    card: Card
    stays: bool
    birds: int
    why: str


@dataclass(frozen=True)
class Evaluation:
    """A row's evaluation: a line per card, the steps in the ruled order in words, the factor
    per colour letter, the total and the limit."""

    lines: tuple[CardLine, ...]
    steps: tuple[str, ...]
    factors: tuple[tuple[str, int], ...]
    total: int
    limit: int

    @property
    def red_right(self) -> bool:
        """Whether the claim was right: more birds than the limit (F-10)."""
        return self.total > self.limit

    @property
    def right(self) -> str:
        """The tip colour that was right: 'red' or 'green' (said to people in their language)."""
        return Msg("red") if self.red_right else Msg("green")

    @property
    def removed(self) -> tuple[int, ...]:
        """The positions of the cards taken out of the row."""
        return tuple(x.position for x in self.lines if not x.stays)

    @property
    def summary(self) -> str:
        """The result in one sentence: 'Total 9 birds, limit 10: green is right (F-10).'"""
        return _result(self.total, self.limit)


def _result(total: int, limit: int) -> str:
    if total > limit:
        return Msg(
            "Total {total} birds, limit {limit}: more than the limit, red is right (F-10).",
            total=total,
            limit=limit,
        )
    return Msg(
        "Total {total} birds, limit {limit}: not more than the limit, green is right (F-10).",
        total=total,
        limit=limit,
    )


def _name(card: Card, i: int) -> str:
    return Msg("{card} at {position}", card=card.id, position=i + 1)


def _places(positions: Sequence[int]) -> str:
    return places([p + 1 for p in positions])


def evaluate(row: Sequence[Card], limit: int) -> Evaluation:
    """Evaluate `row` (left to right, the first card next to the draw pile) against `limit`:
    the total, each card's contribution and why, and the steps in the ruled order."""
    n = len(row)
    removers: dict[int, list[int]] = {}
    steps: list[str] = []
    no_specials = [i for i, c in enumerate(row) if c.kind == NO_SPECIALS]
    neighbours = [i for i, c in enumerate(row) if c.kind == NO_NEIGHBOURS]
    factor = dict.fromkeys(COLOURS, 1)
    colour_card: dict[str, int] = {}  # colour -> position of the colour card deciding it

    if no_specials:
        out = [i for i, c in enumerate(row) if c.is_special]
        for i in out:
            removers[i] = list(no_specials)
        who = and_join([_name(row[i], i) for i in no_specials])
        steps.append(
            Msg(
                "1. Special cards do not count: {who} takes every special card out of the row "
                "(F-1): {places}.",
                who=who,
                places=_places(out),
            )
        )
        steps.append(Msg("2. Neighbour cards: none acts, they are out of the row (F-1)."))
        steps.append(Msg("3. Colours: no colour card acts, they are out of the row (F-1)."))
    else:
        steps.append(Msg("1. Special cards do not count: none in the row."))
        for i in neighbours:
            for j in (i - 1, i + 1):
                if 0 <= j < n:
                    removers.setdefault(j, []).append(i)
        if neighbours:
            acts = join_words("; ", [_acts(row, i) for i in neighbours])
            steps.append(
                Msg("2. Neighbour cards, all at once on their places (F-2, F-3): {acts}.", acts=acts)
            )
        else:
            steps.append(Msg("2. Neighbour cards: none in the row."))
        steps.append(_colours(row, removers, factor, colour_card))

    lines: list[CardLine] = []
    total = 0
    for i, c in enumerate(row):
        stays = i not in removers
        birds = c.birds * factor[str(c.colour)] if c.is_bird and stays else 0
        total += birds
        lines.append(CardLine(i + 1, c, stays, birds, _why(row, i, removers, factor, colour_card)))
    steps.append("4. " + _result(total, limit))
    return Evaluation(
        tuple(lines), tuple(steps), tuple((c, factor[c]) for c in COLOURS), total, limit
    )


def _acts(row: Sequence[Card], i: int) -> str:
    """What one neighbour card does in step 2."""
    n = len(row)
    if n > 1:
        near = _places([j for j in (i - 1, i + 1) if 0 <= j < n])
        return Msg("{card} takes out {places}", card=_name(row[i], i), places=near)
    return Msg("{card} has no neighbour", card=_name(row[i], i))


def _colours(
    row: Sequence[Card], removers: dict[int, list[int]], factor: dict[str, int], colour_card: dict[str, int]
) -> str:
    """Step 3 (F-4): the colour cards still in the row set each colour's factor (in `factor`,
    with the deciding card's place in `colour_card`); the step in words."""
    for kind in (COLOUR_DOUBLE, COLOUR_NOT):  # "does not count" last: it beats "double"
        for i, c in enumerate(row):
            if c.kind == kind and i not in removers and c.colour is not None:
                factor[c.colour] = 2 if kind == COLOUR_DOUBLE else 0
                colour_card[c.colour] = i
    effects = [
        Msg(
            "{colour} ×{factor} ({card})",
            colour=colour_said(col),
            factor=factor[col],
            card=row[colour_card[col]].id,
        )
        for col in COLOURS
        if col in colour_card
    ]
    if effects:
        return Msg("3. Colours, each on its own (F-4): {effects}.", effects=join_words(", ", effects))
    return Msg("3. Colours: no colour card in the row acts.")


def _why(
    row: Sequence[Card],
    i: int,
    removers: dict[int, list[int]],
    factor: dict[str, int],
    colour_card: dict[str, int],
) -> str:
    c = row[i]
    out = removers.get(i)
    by = and_join([_name(row[k], k) for k in out]) if out else ""
    if out is not None and row[out[0]].kind == NO_SPECIALS:
        if c.kind == NO_SPECIALS:
            return Msg("takes every special card out of the row, itself too (F-1)")
        return Msg("taken out by {by}: no effect (F-1)", by=by)
    if out is not None:
        return _taken_out(row, c, out, removers, by)
    if c.kind == NO_NEIGHBOURS:
        n = len(row)
        near = [j for j in (i - 1, i + 1) if 0 <= j < n]
        if not near:
            return Msg("no neighbour to take out; no birds")
        if len(near) == 1:
            return Msg("takes out {places} (F-2: at the row's end); no birds", places=_places(near))
        return Msg("takes out {places}; no birds", places=_places(near))
    if c.kind in (COLOUR_NOT, COLOUR_DOUBLE):
        return _colour_card_why(row, c, factor, colour_card)
    col = str(c.colour)
    f = factor[col]
    if f == 1:
        return birds(c.birds)
    decider = row[colour_card[col]].id
    if f == 0:
        return Msg("{colour} does not count ({card}): 0", colour=colour_said(col), card=decider)
    return Msg(
        "{birds} × 2 = {double} ({card}: {colour} counts double)",
        birds=c.birds,
        double=c.birds * 2,
        card=decider,
        colour=colour_said(col),
    )


def _taken_out(
    row: Sequence[Card], c: Card, out: list[int], removers: dict[int, list[int]], by: str
) -> str:
    """Why a card taken out by a neighbour card counts nothing (step 2)."""
    rules = []
    if any(k in (0, len(row) - 1) for k in out):
        rules.append("F-2")  # a neighbour card at a row end
    if c.is_special or any(k in removers for k in out):
        rules.append("F-3")  # special cards alike; removed neighbour cards still act
    head = Msg("taken out by {by}", by=by) + (f" ({', '.join(rules)})" if rules else "")
    if c.kind == NO_NEIGHBOURS:
        return Msg("{head}, still takes out its own neighbours (F-3)", head=head)
    if c.is_bird:
        return Msg("{head}; counts 0, shared with the row (F-5)", head=head)
    return Msg("{head}: no effect", head=head)


def _colour_card_why(
    row: Sequence[Card], c: Card, factor: dict[str, int], colour_card: dict[str, int]
) -> str:
    """What a colour card does in step 3."""
    col = str(c.colour)
    name = colour_said(col)
    if c.kind == COLOUR_DOUBLE and factor[col] == 0:
        beat = row[colour_card[col]].id
        return Msg(
            "beaten by {card}: {colour} does not count beats {colour} counts double",
            card=beat,
            colour=name,
        )
    if c.kind == COLOUR_NOT:
        return Msg("{colour} birds count 0; no birds", colour=name)
    return Msg("{colour} birds count double; no birds", colour=name)


# --- scoring won cards -----------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """Won cards scored: sets of four colours (10 each), single bird cards (1), special cards
    (2). The grouping is the best one: as many sets as the rarest colour allows."""

    sets: int
    singles: int
    specials: int

    @property
    def points(self) -> int:
        return 10 * self.sets + self.singles + 2 * self.specials

    def describe(self) -> str:
        parts = []
        if self.sets:
            parts.append(Plural("{n} set ×10", "{n} sets ×10", n=self.sets))
        if self.singles:
            parts.append(Msg("{n} single ×1", n=self.singles))
        if self.specials:
            parts.append(Msg("{n} special ×2", n=self.specials))
        said = join_words(" + ", parts) if parts else Msg("no cards")
        return said + f" = {self.points}"


def score(cards: Iterable[Card]) -> Score:
    """The score of won cards: m = the fewest bird cards of any colour gives m sets of four
    colours; the other bird cards score 1, special cards 2."""
    cards = list(cards)
    per = {c: 0 for c in COLOURS}
    specials = 0
    for c in cards:
        if c.is_bird and c.colour in per:
            per[c.colour] += 1
        elif c.is_special:
            specials += 1
    sets = min(per.values())
    birds = sum(per.values())
    return Score(sets, birds - 4 * sets, specials)
