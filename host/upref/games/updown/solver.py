"""Up And Down solver: which boards satisfy a task card, and how far away they are.

The ten pairs stay in their holes, so a board is one of 2^10 = 1024 orientations: bit i of the
orientation `mask` is set when the first colour of `PAIRS[i]` (R in P-RB) is up. Sets of
orientations are Python ints used as 1024-bit sets (bit m set = orientation m is in the set),
so growing a set by one flip is ten shifts and masks.

For each card: the satisfying orientations (their number is the card's difficulty, as in
docs/games/updown.md), the fewest flips from any board (Hamming distance to the nearest satisfying
orientation) and the fewest turns (each turn flips exactly three different pairs, ruling M-1;
the card is checked only after a turn, so at least one turn, ruling M-13).

Fewest turns: t turns flip exactly a set X of pairs iff
  t = 1: |X| = 3;  t = 2: |X| in {0, 2, 4, 6};  t = 3: |X| odd (1..9);  t >= 4: |X| = t mod 2.
So from board b: 1 if a satisfying orientation lies at distance exactly 3, else 2 if one lies at
an even distance of at most 6, else 3 if one lies at an odd distance, else 4. The tests check this
against a breadth-first search over the 1024 orientations with the 120 three-pair moves.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from upref.games.updown.cards import COLOURS, PAIRS, TaskCard

__all__ = [
    "N_ORIENTATIONS",
    "UNREACHABLE",
    "CardAnalysis",
    "Hint",
    "analyse",
    "analyse_all",
    "counts_of",
    "hint",
    "mask_of",
    "satisfying_set",
    "turns_for_flip_count",
]

N_PAIRS = len(PAIRS)
N_ORIENTATIONS = 1 << N_PAIRS
UNREACHABLE = 255
"""Entry of the flips/turns tables for a card no board satisfies."""
FLIPS_PER_TURN = 3
MAX_COUNT = len(COLOURS) - 1  # a colour has one mole in each of its four pairs

_ALL = (1 << N_ORIENTATIONS) - 1
_FIRST = tuple(COLOURS.index(p[2]) for p in PAIRS)
_SECOND = tuple(COLOURS.index(p[3]) for p in PAIRS)


def _counts(mask: int) -> tuple[int, ...]:
    c = [0] * len(COLOURS)
    for i in range(N_PAIRS):
        c[_FIRST[i] if mask >> i & 1 else _SECOND[i]] += 1
    return tuple(c)


_COUNTS: tuple[tuple[int, ...], ...] = tuple(_counts(m) for m in range(N_ORIENTATIONS))


def _build_eq() -> tuple[tuple[int, ...], ...]:
    eq = [[0] * (MAX_COUNT + 1) for _ in COLOURS]
    for m, counts in enumerate(_COUNTS):
        for ci, n in enumerate(counts):
            eq[ci][n] |= 1 << m
    return tuple(tuple(row) for row in eq)


_EQ = _build_eq()  # _EQ[colour index][n] = set of orientations showing exactly n of that colour
# _LOW[i] = orientations with bit i clear; flipping bit i maps them up by 1 << i.
_LOW = tuple(sum(1 << m for m in range(N_ORIENTATIONS) if not m >> i & 1) for i in range(N_PAIRS))
_EVEN = sum(1 << m for m in range(N_ORIENTATIONS) if m.bit_count() % 2 == 0)
_ODD = _ALL ^ _EVEN


def counts_of(mask: int) -> dict[str, int]:
    """Visible moles per colour letter for orientation `mask`."""
    return dict(zip(COLOURS, _COUNTS[mask], strict=True))


def mask_of(holes: Iterable[tuple[str, str]]) -> int:
    """The orientation of a board given as (pair id, hidden colour) per hole, in any hole order.

    :raises ValueError: for an unknown pair or a hidden colour not of its pair.
    """
    mask = 0
    for pair, hidden in holes:
        if pair not in PAIRS:
            raise ValueError(f"unknown mole pair {pair!r}")
        i = PAIRS.index(pair)
        if hidden == pair[3]:
            mask |= 1 << i  # the first colour is up
        elif hidden != pair[2]:
            raise ValueError(f"pair {pair} cannot hide {hidden!r}")
    return mask


def _flip(bits: int, i: int) -> int:
    """The set of orientations obtained by flipping pair i in each orientation of `bits`."""
    step = 1 << i
    low = _LOW[i]
    return ((bits >> step) & low) | ((bits & low) << step)


def _grow(bits: int) -> int:
    """`bits` plus every orientation one flip away from it."""
    out = bits
    for i in range(N_PAIRS):
        out |= _flip(bits, i)
    return out


def _indices(bits: int) -> list[int]:
    s = bin(bits)[:1:-1]  # bit 0 first
    return [i for i, ch in enumerate(s) if ch == "1"]


def satisfying_set(counts: Mapping[str, int]) -> int:
    """The orientations that show exactly `counts` (colour letter -> visible moles; other
    colours free), as a 1024-bit set."""
    bits = _ALL
    for c, n in counts.items():
        ci = COLOURS.index(c)
        if not 0 <= n <= MAX_COUNT:
            return 0
        bits &= _EQ[ci][n]
    return bits


def turns_for_flip_count(d: int) -> int:
    """Fewest turns (at least one) that flip exactly a given set of `d` pairs overall."""
    if not 0 <= d <= N_PAIRS:
        raise ValueError(f"flip count out of range 0..{N_PAIRS}: {d!r}")
    if d == FLIPS_PER_TURN:
        return 1
    if d % 2 == 0:
        return 2 if d <= 2 * FLIPS_PER_TURN else 4
    return 3


@dataclass(frozen=True)
class CardAnalysis:
    """What the solver knows about one card, for every board.

    `satisfying` is the set of satisfying orientations, `orientations` their number;
    `flips[mask]` and `turns[mask]` are the fewest flips and fewest turns from orientation
    `mask` (UNREACHABLE when no board satisfies the card).
    """

    card: TaskCard
    satisfying: int
    orientations: int
    flips: bytes
    turns: bytes

    def is_satisfied(self, mask: int) -> bool:
        return bool(self.satisfying >> mask & 1)

    def fewest_flips(self, mask: int) -> int | None:
        v = self.flips[mask]
        return None if v == UNREACHABLE else v

    def fewest_turns(self, mask: int) -> int | None:
        v = self.turns[mask]
        return None if v == UNREACHABLE else v


def _analyse_counts(card: TaskCard) -> CardAnalysis:
    sat = satisfying_set(card.count_map())
    n = sat.bit_count()
    if not sat:
        dead = bytes([UNREACHABLE]) * N_ORIENTATIONS
        return CardAnalysis(card, 0, 0, dead, dead)

    # Fewest flips: grow the satisfying set one flip at a time.
    flips = bytearray(N_ORIENTATIONS)
    within = sat
    k = 0
    while within != _ALL:
        k += 1
        grown = _grow(within)
        for m in _indices(grown & ~within):
            flips[m] = k
        within = grown

    # Fewest turns (module docstring): exactly 3 away; even and at most 6; odd; else 4.
    exactly3 = 0
    for i in range(N_PAIRS):
        a = _flip(sat, i)
        for j in range(i + 1, N_PAIRS):
            b = _flip(a, j)
            for k3 in range(j + 1, N_PAIRS):
                exactly3 |= _flip(b, k3)
    near_even = 0
    for part, parity in ((sat & _EVEN, _EVEN), (sat & _ODD, _ODD)):
        if part:
            w = part
            for _ in range(2 * FLIPS_PER_TURN):
                w = _grow(w)
            near_even |= w & parity
    odd_away = (_ODD if sat & _EVEN else 0) | (_EVEN if sat & _ODD else 0)
    turns = bytearray([4]) * N_ORIENTATIONS
    for bits, t in ((odd_away, 3), (near_even, 2), (exactly3, 1)):
        for m in _indices(bits):
            turns[m] = t
    return CardAnalysis(card, sat, n, bytes(flips), bytes(turns))


@lru_cache(maxsize=256)
def analyse(card: TaskCard) -> CardAnalysis:
    """The solver's tables for one card (cached per card)."""
    return _analyse_counts(card)


def analyse_all(cards: Iterable[TaskCard]) -> dict[str, CardAnalysis]:
    """Tables for every card (by id), computed afresh (not cached): the full 1024-board
    table for a deck."""
    return {c.id: _analyse_counts(c) for c in cards}


@dataclass(frozen=True)
class Hint:
    """What to turn next: `pairs` (ids) to turn to finish this turn (empty when three are
    turned already: end the turn), whether the card is then solved (`solves_now`) and the
    fewest turns to solve it counting this one (`turns`)."""

    pairs: tuple[str, ...]
    solves_now: bool
    turns: int


def hint(analysis: CardAnalysis, mask: int, turned: Sequence[str] = ()) -> Hint | None:
    """The best way to finish the current turn from orientation `mask` when the pairs in
    `turned` are already turned this turn: solve the card now if possible, else leave a board
    from which the fewest further turns solve it (ties: fewer flips, then the first pairs in
    PAIRS order). None if no board satisfies the card.
    """
    if not analysis.satisfying:
        return None
    done = {PAIRS.index(p) for p in turned}
    left = FLIPS_PER_TURN - len(done)
    if left < 0:
        raise ValueError(f"more than {FLIPS_PER_TURN} pairs turned: {list(turned)!r}")
    free = [i for i in range(N_PAIRS) if i not in done]
    best: tuple[int, int, tuple[int, ...]] | None = None
    for combo in itertools.combinations(free, left):
        after = mask
        for i in combo:
            after ^= 1 << i
        if analysis.is_satisfied(after):
            key = (0, 0, combo)
        else:
            key = (analysis.turns[after], analysis.flips[after], combo)
        if best is None or key < best:
            best = key
    if best is None:  # cannot happen: `left` <= len(free), so there is a combination
        raise ValueError(f"no way to finish the turn after {list(turned)!r}")
    more, _, combo = best
    return Hint(tuple(PAIRS[i] for i in combo), more == 0, 1 + more)
