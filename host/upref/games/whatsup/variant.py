"""What's Up's variant: free placement, or the rulebook's first game (the cards laid as a
rectangle of 6 by 5, and a card that does not fit goes back to its place)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from upref.text import Msg

__all__ = ["GRID_COLUMNS", "GRID_ROWS", "Variant", "grid_cell"]

GRID_COLUMNS = 6
GRID_ROWS = 5
"""The first game's rectangle: 6 cards by 5 (places 1-6 are row 1, left to right)."""


@dataclass(frozen=True)
class Variant:
    """`first_game`: the rulebook's advice for a first game: the cards laid out as a rectangle of
    6 by 5, and a flipped card that does not fit goes back to the same place. Otherwise a card
    that does not fit is put back anywhere on the table (never overlapping another)."""

    first_game: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"first_game": self.first_game}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Variant:
        return cls(first_game=bool((data or {}).get("first_game", False)))

    def describe(self) -> str:
        return Msg("first game: same place") if self.first_game else Msg("free placement")


def grid_cell(place: int) -> tuple[int, int]:
    """(row, column) of a place in the first game's rectangle, 6 cards to a row."""
    return (place - 1) // GRID_COLUMNS + 1, (place - 1) % GRID_COLUMNS + 1
