"""The evaluation of a row, checked against a brute-force evaluator written here on its own
(different code: each card asks whether a neighbour card lies next to it, each bird card looks
for its colour's cards among those left), over every row of up to six cards from a reduced deck
and over random long rows; and its card-by-card explanation."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence

import pytest
from upref.games.flipabird.cards import Card, load_catalogue
from upref.games.flipabird.evaluation import evaluate

CAT = load_catalogue()


def cards(*ids: str) -> list[Card]:
    return [CAT.card(i) for i in ids]


def brute(row: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """(total, positions taken out), the rules read straight from the rulebook text."""
    n = len(row)
    if any(c.kind == "no-specials" for c in row):
        gone = [c.kind != "bird" for c in row]
    else:
        gone = [
            (i > 0 and row[i - 1].kind == "no-neighbours")
            or (i + 1 < n and row[i + 1].kind == "no-neighbours")
            for i in range(n)
        ]
    left = [c for i, c in enumerate(row) if not gone[i]]
    total = 0
    for c in left:
        if c.kind != "bird":
            continue
        mine = [x.kind for x in left if x.colour == c.colour and x.kind != "bird"]
        if "colour-not" in mine:
            continue
        total += c.birds * (2 if "colour-double" in mine else 1)
    return total, tuple(i + 1 for i in range(n) if gone[i])


def check(row: Sequence[Card], limit: int = 10) -> None:
    ev = evaluate(row, limit)
    total, out = brute(row)
    assert (ev.total, ev.removed) == (total, out), [c.id for c in row]
    assert sum(x.birds for x in ev.lines) == ev.total
    assert [x.card for x in ev.lines] == list(row)
    assert ev.red_right == (total > limit)


REDUCED = cards("S-NC1", "S-NB1", "S-NB2", "S-NOT-B", "S-DBL-B", "S-DBL-R", "B2a", "R3a", "G1a")


def test_every_row_of_up_to_six_cards_of_a_reduced_deck() -> None:
    rows = 0
    for k in range(7):
        for row in itertools.permutations(REDUCED, k):
            check(row)
            rows += 1
    assert rows == sum(math.perm(9, k) for k in range(7)) == 79210


@pytest.mark.parametrize("seed", range(4))
def test_random_long_rows_of_the_whole_deck(seed: int) -> None:
    rng = random.Random(seed)
    deck = list(CAT.cards)
    for _ in range(300):
        n = rng.randint(7, 60)
        row = rng.sample(deck, n)
        if rng.random() < 0.5:  # many rows without "special cards do not count", so that
            row = [c for c in row if c.kind != "no-specials"]  # neighbours and colours act
        check(row, limit=rng.choice((8, 10, 12, 14)))


def test_the_rulebooks_example_totals_nine_birds_with_four_players() -> None:
    """The rulebook's example (Anton, Pia, Simon, Hannah): a neighbour card first in the row
    takes out its one neighbour; a blue card with two birds counts double beside "blue counts
    double"; yellow does not count; 2 green and 3 red birds: 2 x 2 + 2 + 3 = 9, not more than
    the 10 four players may have. The text gives eight cards (four to each of the two takers)
    and captions a second removed card that no card of the described row could take out; this
    row keeps every number the text states."""
    row = cards("S-NB1", "R2a", "B2a", "S-DBL-B", "G2a", "S-NOT-Y", "Y3a", "R3a")
    ev = evaluate(row, 10)
    assert ev.total == 9 and not ev.red_right and ev.right == "green"
    assert ev.removed == (2,)
    lines = {x.card.id: x for x in ev.lines}
    assert lines["R2a"].why == "taken out by S-NB1 at 1 (F-2); counts 0, shared with the row (F-5)"
    assert lines["B2a"].birds == 4 and lines["B2a"].why == "2 × 2 = 4 (S-DBL-B: blue counts double)"
    assert lines["Y3a"].birds == 0 and lines["Y3a"].why == "yellow does not count (S-NOT-Y): 0"
    assert (lines["G2a"].birds, lines["R3a"].birds) == (2, 3)
    assert lines["S-NB1"].why == "takes out position 2 (F-2: at the row's end); no birds"
    assert ev.summary == "Total 9 birds, limit 10: not more than the limit, green is right (F-10)."


def test_the_steps_come_in_the_ruled_order() -> None:
    ev = evaluate(cards("B3a", "S-NB1", "S-DBL-B", "R2a", "S-NOT-B", "B2b"), 10)
    assert [s[:2] for s in ev.steps] == ["1.", "2.", "3.", "4."]
    assert ev.steps[0] == "1. Special cards do not count: none in the row."
    assert ev.steps[1] == (
        "2. Neighbour cards, all at once on their places (F-2, F-3): S-NB1 at 2 takes out "
        "positions 1 and 3."
    )
    assert ev.steps[2] == "3. Colours, each on its own (F-4): blue ×0 (S-NOT-B)."
    assert ev.steps[3] == "4. Total 2 birds, limit 10: not more than the limit, green is right (F-10)."


def test_special_cards_do_not_count_comes_first_and_stops_the_others() -> None:
    ev = evaluate(cards("B2a", "S-NB1", "R3a", "S-DBL-R", "S-NC2", "S-NOT-B", "S-NC1"), 8)
    assert ev.total == 5 and ev.removed == (2, 4, 5, 6, 7)
    assert ev.steps[0] == (
        "1. Special cards do not count: S-NC2 at 5 and S-NC1 at 7 takes every special card out "
        "of the row (F-1): positions 2, 4, 5, 6 and 7."
    )
    why = {x.card.id: x.why for x in ev.lines}
    assert why["S-NB1"] == "taken out by S-NC2 at 5 and S-NC1 at 7: no effect (F-1)"
    assert why["S-NC2"] == "takes every special card out of the row, itself too (F-1)"
    assert why["B2a"] == "2 birds"


def test_a_lone_neighbour_card_has_nothing_to_take_out() -> None:
    ev = evaluate(cards("S-NB1"), 8)
    assert ev.total == 0 and ev.removed == ()
    assert ev.lines[0].why == "no neighbour to take out; no birds"
    assert evaluate([], 8).total == 0
