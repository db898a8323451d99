"""Flip a Bird's actions: frozen dataclasses that sort by kind first, then by their fields
(`legal_actions()` is sorted), and `Action`, their union.

- `Play(card, up)`: the player to move draws the top card (not in the final phase) and plays
  `card` face up (`up`) or face down;
- `Claim()`: "Bei dir piept's wohl!" against the right-hand neighbour (F-13, F-14);
- `Pass()`: the player to move has no card in the final phase and does not claim (F-11);
- `WrongWay()`: the last card went the wrong way up: it is turned over, the play stands (F-16);
- `Tip(seat, red)`: another player's tip at a claim, entered after all were revealed at once;
- `Take(card)`: the player whose take it is takes a card of the claimed row (F-6, F-7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = ["Action", "Claim", "Pass", "Play", "Take", "Tip", "WrongWay"]



class _Ordered:
    """Actions of different kinds sort by kind first, then by their fields."""

    RANK: ClassVar[int] = 0

    def _key(self) -> tuple[Any, ...]:
        return (self.RANK, *self.__dict__.values())

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _Ordered):
            return NotImplemented
        return self._key() < other._key()


@dataclass(frozen=True)
class Play(_Ordered):
    """The player to move draws (outside the final phase) and plays `card`, face up if `up`."""

    RANK: ClassVar[int] = 1
    card: str
    up: bool


@dataclass(frozen=True)
class Claim(_Ordered):
    """The player to move claims the row holds too many birds ("Bei dir piept's wohl!")."""

    RANK: ClassVar[int] = 2


@dataclass(frozen=True)
class Pass(_Ordered):
    """Final phase, no hand card, no claim: the game ends without evaluation (F-11)."""

    RANK: ClassVar[int] = 3


@dataclass(frozen=True)
class WrongWay(_Ordered):
    """The last card played went the wrong way up: it is turned over, the play stands (F-16)."""

    RANK: ClassVar[int] = 4


@dataclass(frozen=True)
class Tip(_Ordered):
    """`seat`'s tip at a claim: red (too many birds) or green."""

    RANK: ClassVar[int] = 5
    seat: int
    red: bool


@dataclass(frozen=True)
class Take(_Ordered):
    """The player whose take it is takes `card` from the claimed row (F-6)."""

    RANK: ClassVar[int] = 6
    card: str


Action = Play | Claim | Pass | WrongWay | Tip | Take
