"""The Up And Down solver against brute force over all 1024 boards and a breadth-first search
over the 120 three-pair moves."""

from __future__ import annotations

import itertools
import random

import pytest
from updown_play import board_of_mask, deal_all, flip_of
from upref.games.updown.actions import EndTurn
from upref.games.updown.cards import PAIRS, TaskCard, load_catalogue
from upref.games.updown.engine import UpDownState
from upref.games.updown.solver import (
    N_ORIENTATIONS,
    UNREACHABLE,
    analyse,
    analyse_all,
    counts_of,
    hint,
    mask_of,
    satisfying_set,
    turns_for_flip_count,
)

CARDS = load_catalogue().cards
MOVES = [sum(1 << i for i in c) for c in itertools.combinations(range(10), 3)]


def sat_list(card: TaskCard) -> list[int]:
    want = card.count_map()
    return [m for m in range(N_ORIENTATIONS) if all(counts_of(m)[c] == n for c, n in want.items())]


def test_masks_and_counts_match_the_board() -> None:
    rng = random.Random(5)
    for _ in range(50):
        game = UpDownState.new(["A"], rng=rng.randrange(10**6))
        assert counts_of(game.orientation()) == game.visible_counts()
        assert mask_of(board_of_mask(game.orientation())) == game.orientation()
    assert len(MOVES) == 120


def test_reachable_flip_sets_by_bfs() -> None:
    """BFS from 'nothing flipped' over the 120 moves: after exactly t turns the flipped set can
    be any set whose size has the parity of t and is at most 3t, except that one turn flips
    exactly three; so the fewest turns for a set of d flips is turns_for_flip_count(d)."""
    layer = {0}
    fewest: dict[int, int] = {}
    for t in range(1, 7):
        layer = {x ^ m for x in layer for m in MOVES}
        sizes = {x.bit_count() for x in layer}
        if t == 1:
            assert sizes == {3}
        else:
            assert sizes == {d for d in range(11) if d % 2 == t % 2 and d <= 3 * t}
        for x in layer:
            fewest.setdefault(x, t)
    assert len(fewest) == N_ORIENTATIONS
    for x, t in fewest.items():
        assert turns_for_flip_count(x.bit_count()) == t


def test_fewest_flips_and_turns_against_brute_force() -> None:
    table = analyse_all(CARDS)
    for card in CARDS:
        a = table[card.id]
        sats = sat_list(card)
        assert a.orientations == len(sats) and a.satisfying == sum(1 << s for s in sats)
        for b in range(N_ORIENTATIONS):
            dists = {(b ^ s).bit_count() for s in sats}
            assert a.flips[b] == min(dists)
            assert a.turns[b] == min(turns_for_flip_count(d) for d in dists)


@pytest.mark.parametrize("card_id", [c.id for c in CARDS])
def test_fewest_turns_against_bfs_over_boards(card_id: str) -> None:
    """Backward BFS: boards from which some sequence of exactly t turns ends on a satisfying
    board; the fewest turns (at least one, M-13) is the first t that contains the board."""
    card = next(c for c in CARDS if c.id == card_id)
    a = analyse(card)
    layer = set(sat_list(card))
    fewest: dict[int, int] = {}
    t = 0
    while len(fewest) < N_ORIENTATIONS:
        t += 1
        layer = {x ^ m for x in layer for m in MOVES}
        for b in layer:
            fewest.setdefault(b, t)
    assert all(a.fewest_turns(b) == fewest[b] for b in range(N_ORIENTATIONS))


def test_unsatisfiable_card() -> None:
    card = TaskCard("T99", 3, (("Y", 0), ("W", 0)))
    a = analyse(card)
    assert satisfying_set(card.count_map()) == 0 and a.orientations == 0
    assert a.fewest_flips(0) is None and a.fewest_turns(0) is None
    assert a.flips[5] == UNREACHABLE
    assert hint(a, 0) is None


def test_hint_follows_the_tables() -> None:
    rng = random.Random(11)
    for card in CARDS:
        a = analyse(card)
        for _ in range(20):
            b = rng.randrange(N_ORIENTATIONS)
            h = hint(a, b)
            assert h is not None and len(h.pairs) == 3 and len(set(h.pairs)) == 3
            after = b
            for p in h.pairs:
                after ^= 1 << PAIRS.index(p)
            assert h.turns == a.turns[b]
            assert h.solves_now == (h.turns == 1) == a.is_satisfied(after)
            if not h.solves_now:
                assert a.turns[after] == h.turns - 1
            # Mid-turn: one pair turned already, not turned again.
            first = PAIRS[rng.randrange(10)]
            mid = b ^ (1 << PAIRS.index(first))
            h2 = hint(a, mid, (first,))
            assert h2 is not None and len(h2.pairs) == 2 and first not in h2.pairs


def test_hint_in_the_game_solves_a_card_in_the_promised_turns() -> None:
    game = UpDownState.new(["Ann"], rng=21)
    deal_all(game)
    for _ in range(3):  # three cards in a row, each in the promised number of turns
        detail = game.hint_detail()
        assert detail is not None
        promised = detail.turns
        taken = 0
        while game.current_player() == 0:
            holes = game.hint()
            assert holes is not None
            for h in holes:
                game.play(flip_of(game, h))
            game.play(EndTurn())
            taken += 1
        assert taken == promised
        deal_all(game)
