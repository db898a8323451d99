"""Up's variants (docs/games/up.md, "Variants"): a frozen dataclass that travels as JSON data in
game logs and on command lines, and the points a card left in hand scores."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from upref.games.up.cards import MINUS2, NUMBER, Card
from upref.text import Msg, Plural, join_words

__all__ = ["SCORINGS", "UP300", "Variant", "card_points"]

SCORINGS = ("points", "cards", "tokens")
UP300 = 300


@dataclass(frozen=True)
class Variant:
    """How the evening is played.

    :param up300: the evening ends after the round in which a total passes 300 (U-8).
    :param dirty_one: every 1 counts 30 for the whole evening (else the leader may announce it
        for one round, U-9).
    :param without_minus2: the -2 cards stay in the box: 12 cards each, hand 4 (U-10).
    :param scoring: "points" (the rulebook's minus points), or for children "cards" (each
        remaining card is one point) or "tokens" (one token per round won; most tokens wins).
    :param rounds: the evening ends after this many rounds (None: when the table stops).
    :param sets: the set letters in play, one per player (None: the first sets).
    :param first_dealer: who deals round 1 (None: the last player named, so the first named
        leads).
    """

    up300: bool = False
    dirty_one: bool = False
    without_minus2: bool = False
    scoring: str = "points"
    rounds: int | None = None
    sets: str | None = None
    first_dealer: str | None = None

    def __post_init__(self) -> None:
        if self.scoring not in SCORINGS:
            raise ValueError(
                f"scoring must be one of {', '.join(SCORINGS)}, not {self.scoring!r}"
            )
        r = self.rounds
        if r is not None and (isinstance(r, bool) or not isinstance(r, int) or r < 1):
            raise ValueError(f"rounds must be a positive whole number: {r!r}")
        if self.sets is not None:
            s = self.sets
            if not isinstance(s, str) or not s.isalpha() or not s.isupper() or len(set(s)) != len(s):
                raise ValueError(f"sets must be distinct capital letters, one per player: {s!r}")
        if self.up300 and self.scoring != "points":
            raise ValueError("Up300 counts minus points: it cannot be played with children's scoring")
        if self.dirty_one and self.scoring != "points":
            raise ValueError("the dirty One changes points: it cannot be played with children's scoring")

    @property
    def hand(self) -> int:
        """Hand cards dealt to each player (one fewer for the player who kept a cut card)."""
        return 4 if self.without_minus2 else 5

    def to_dict(self) -> dict[str, Any]:
        return {
            "up300": self.up300,
            "dirty_one": self.dirty_one,
            "without_minus2": self.without_minus2,
            "scoring": self.scoring,
            "rounds": self.rounds,
            "sets": self.sets,
            "first_dealer": self.first_dealer,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Variant:
        """:raises ValueError: for values the variant refuses."""
        data = data or {}
        return cls(
            up300=bool(data.get("up300", False)),
            dirty_one=bool(data.get("dirty_one", False)),
            without_minus2=bool(data.get("without_minus2", False)),
            scoring=str(data.get("scoring", "points")),
            rounds=data.get("rounds"),
            sets=data.get("sets"),
            first_dealer=data.get("first_dealer"),
        )

    def describe(self) -> str:
        parts = []
        if self.up300:
            parts.append("Up300")
        if self.rounds is not None:
            parts.append(Plural("{n} round", "{n} rounds", n=self.rounds))
        if self.dirty_one:
            parts.append(Msg("dirty One"))
        if self.without_minus2:
            parts.append(Msg("without -2"))
        if self.scoring == "cards":
            parts.append(Msg("children: count the cards"))
        elif self.scoring == "tokens":
            parts.append(Msg("children: a token per round won"))
        return join_words(", ", parts) if parts else Msg("basic game")


def card_points(card: Card, dirty: bool = False) -> int:
    """Minus points of a card left at the end of a round: its value (a 1 counts 30 with the
    dirty One), a -2 card 20, a disposal card 50."""
    if card.kind == NUMBER:
        return 30 if dirty and card.value == 1 else card.value
    return 20 if card.kind == MINUS2 else 50
