"""Flip a Bird's variant: a short game with a smaller draw pile (`Variant`), and the hand size
every deal and every pile size follows from (`HAND`, F-15)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from upref.text import Msg, Plural

__all__ = ["HAND", "Variant"]

HAND = 2
"""Cards in each hand between turns in the normal phase (F-15)."""


@dataclass(frozen=True)
class Variant:
    """`pile`: a short game with a draw pile of that many cards; the rest of the shuffled deck
    goes back into the box unseen (None: the whole deck, 60 minus two per player)."""

    pile: int | None = None

    def __post_init__(self) -> None:
        p = self.pile
        if p is not None and (isinstance(p, bool) or not isinstance(p, int) or p < 1):
            raise ValueError(
                Msg("a short game's draw pile must be a positive number of cards: {pile}", pile=repr(p))
            )

    def to_dict(self) -> dict[str, Any]:
        return {"pile": self.pile}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Variant:
        """:raises ValueError: for a pile that is not a positive whole number."""
        data = data or {}
        return cls(pile=data.get("pile"))

    def describe(self) -> str:
        if self.pile is not None:
            return Msg(
                "short game, a draw pile of {cards}", cards=Plural("{n} card", "{n} cards", n=self.pile)
            )
        return Msg("the whole deck")

    def pile_size(self, players: int, deck: int) -> int:
        """The draw pile's size with this many players and cards.

        :raises ValueError: when the pile asked for is bigger than what is left after the deal.
        """
        left = deck - HAND * players
        if self.pile is None:
            return left
        if self.pile > left:
            raise ValueError(
                Msg(
                    "a draw pile of {pile} cards is more than the {left} left after dealing {hand} "
                    "cards to each of {players} players",
                    pile=self.pile,
                    left=left,
                    hand=HAND,
                    players=players,
                )
            )
        return self.pile

