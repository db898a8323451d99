"""Up And Down's board: what a hole holds, the ten holes in order, and the builders of a board
from what the sensors read (`make_board`) or from a random mix (`mix_board`, the rulebook's
set-up). Tests and worked examples build their positions with these."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from upref.games.updown.cards import PAIRS, pair_colours

__all__ = ["HOLES", "Board", "PairEnd", "make_board", "mix_board"]

HOLES = len(PAIRS)  # one pair per molehill


class PairEnd(NamedTuple):
    """What a hole holds: a pair and the colour hidden in the hole (what the sensors read)."""

    pair: str
    hidden: str

    @property
    def visible(self) -> str:
        a, b = pair_colours(self.pair)
        return b if self.hidden == a else a


Board = tuple[PairEnd, ...]
"""Holes 1..10 in order (index 0 is hole 1)."""


def make_board(board: Sequence[tuple[str, str]] | Mapping[int, tuple[str, str]]) -> Board:
    """A board from the sensors: (pair id, hidden colour) for holes 1..10, as a sequence in
    hole order or a mapping hole -> (pair, hidden).

    :raises ValueError: unless every hole holds one pair, each of the ten pairs once, with one
        of its own colours hidden.
    """
    if isinstance(board, Mapping):
        missing = [h for h in range(1, HOLES + 1) if h not in board]
        extra = sorted(h for h in board if not (isinstance(h, int) and 1 <= h <= HOLES))
        if missing or extra:
            raise ValueError(f"board needs holes 1..{HOLES}: missing {missing}, unknown {extra}")
        items = [board[h] for h in range(1, HOLES + 1)]
    else:
        items = list(board)
    if len(items) != HOLES:
        raise ValueError(f"board needs {HOLES} holes, got {len(items)}: {items!r}")
    out: list[PairEnd] = []
    for h, item in enumerate(items, start=1):
        pair, hidden = item
        if pair not in PAIRS:
            raise ValueError(f"hole {h}: unknown mole pair {pair!r}")
        if hidden not in pair_colours(pair):
            raise ValueError(f"hole {h}: pair {pair} cannot hide {hidden!r}")
        out.append(PairEnd(pair, hidden))
    seen = [e.pair for e in out]
    dupes = sorted({p for p in seen if seen.count(p) > 1})
    if dupes:
        raise ValueError(f"board holds pair(s) {', '.join(dupes)} more than once: {items!r}")
    return tuple(out)


def mix_board(rng: random.Random) -> Board:
    """Pairs put into the holes in random order and orientation (the rulebook's set-up)."""
    pairs = list(PAIRS)
    rng.shuffle(pairs)
    return tuple(PairEnd(p, rng.choice(pair_colours(p))) for p in pairs)

