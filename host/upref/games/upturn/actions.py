"""Upturn's actions: what the referee feeds the engine (frozen dataclasses), and their order.

- `Start(tile)`: the Starting tile turned up at a table (T-1: never an action tile);
- `Lay(tile)`: the player to move lays this tile (the first move, a normal tile, an action
  tile, a Twin's run tile, a Joker's extra tile);
- `Draw()`: the player to move takes a tile from the pool (and may then lay one, T-4);
- `Pass()`: keep all tiles and end the turn: after a draw, after a Joker (no extra tile), or
  instead of drawing when the pool is empty (T-12);
- `Gift(split)`: the player gives tiles from the pool to others after a Twin run or a Penalty
  tile (T-7, T-8, T-11); an empty split gives none;
- `Call()`: the "one tile left" call (the board's button), T-13.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Action", "Call", "Draw", "Gift", "Lay", "Pass", "Start", "gift_splits"]

_RANK = {"Start": 0, "Lay": 1, "Draw": 2, "Pass": 3, "Gift": 4, "Call": 5}


class _Action:
    """Actions sort by kind, then by their fields (`legal_actions()` is sorted)."""

    def _key(self) -> tuple[Any, ...]:
        return (_RANK[type(self).__name__], *vars(self).values())

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _Action):
            return NotImplemented
        return self._key() < other._key()


@dataclass(frozen=True)
class Start(_Action):
    """The Starting tile, turned up from the pool at the table."""

    tile: str


@dataclass(frozen=True)
class Lay(_Action):
    """The player to move lays `tile` on the line."""

    tile: str


@dataclass(frozen=True)
class Draw(_Action):
    """The player to move takes one tile from the pool."""


@dataclass(frozen=True)
class Pass(_Action):
    """Keep all tiles and end the turn."""


@dataclass(frozen=True)
class Gift(_Action):
    """The player to move gives tiles from the pool: (seat, tiles) per recipient, by seat."""

    split: tuple[tuple[int, int], ...] = ()

    @property
    def total(self) -> int:
        return sum(n for _, n in self.split)


@dataclass(frozen=True)
class Call(_Action):
    """The "one tile left" call (the board's button)."""


Action = Start | Lay | Draw | Pass | Gift | Call


def gift_splits(others: Sequence[int], most: int) -> list[Gift]:
    """Every gift of up to `most` tiles to the seats `others` (each recipient at least one
    tile, by seat), the empty gift first."""
    out = [Gift(())]
    for total in range(1, most + 1):
        for cut in itertools.combinations(range(total + len(others) - 1), len(others) - 1):
            bounds = (-1, *cut, total + len(others) - 1)
            parts = [bounds[i + 1] - bounds[i] - 1 for i in range(len(others))]
            out.append(Gift(tuple((p, k) for p, k in zip(others, parts, strict=True) if k)))
    return out
