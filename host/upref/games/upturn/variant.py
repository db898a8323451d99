"""Upturn's variants (docs/games/upturn.md, "Variants"): a frozen dataclass that travels as JSON
data in game logs and on command lines."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from upref.text import Msg, Plural

__all__ = ["RACK", "Variant"]

RACK = 7
"""Tiles each player takes at the start (the rulebook)."""


@dataclass(frozen=True)
class Variant:
    """`deal`: tiles each player takes at the start (7 in the rulebook; fewer make a short
    game, e.g. for a first game with children or the demo)."""

    deal: int = RACK

    def __post_init__(self) -> None:
        d = self.deal
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 20:
            raise ValueError(
                Msg("tiles dealt to each player must be a whole number 1 to 20: {deal!r}", deal=d)
            )

    def to_dict(self) -> dict[str, Any]:
        return {"deal": self.deal}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Variant:
        """:raises ValueError: for a deal that is not a whole number 1 to 20."""
        data = data or {}
        return cls(deal=data.get("deal", RACK))

    def describe(self) -> str:
        if self.deal == RACK:
            return Msg("basic game")
        if self.deal < RACK:
            return Plural("short game: {n} tile each", "short game: {n} tiles each", n=self.deal)
        return Plural("long game: {n} tile each", "long game: {n} tiles each", n=self.deal)
