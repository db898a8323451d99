"""What's Up's actions, as the referee feeds them in (frozen dataclasses), and their text form.

- `Lay(card)`: set-up, chance: the card tapped as it is laid;
- `Reserve(seat, card)`: the player to move puts the figurine on a table card (A-7);
- `Flip(seat, card)`: the player to move flips a table card (a tap);
- `Pass(seat)`: only when every table card carries another player's figurine (A-11).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = [
    "Action",
    "Flip",
    "Lay",
    "Pass",
    "Reserve",
    "action_key",
    "format_action",
    "parse_action",
]


@dataclass(frozen=True, order=True)
class Lay:
    """Set-up (chance): `card` is laid on the table, tapped as it is laid."""

    card: str


@dataclass(frozen=True, order=True)
class Reserve:
    """`seat` puts the figurine on table card `card` (before the flip, once per game)."""

    seat: int
    card: str


@dataclass(frozen=True, order=True)
class Flip:
    """`seat` flips table card `card` over."""

    seat: int
    card: str


@dataclass(frozen=True, order=True)
class Pass:
    """`seat` cannot flip any card: every one carries another player's figurine (A-11)."""

    seat: int


Action = Lay | Reserve | Flip | Pass
_RANK: Mapping[type, int] = {Lay: 0, Pass: 1, Flip: 2, Reserve: 3}


def action_key(action: Action) -> tuple[int, int, str]:
    """The order of `legal_actions()`: lays, a pass, flips, then reserves; by seat and card."""
    seat = getattr(action, "seat", -1)
    return _RANK[type(action)], seat, getattr(action, "card", "")


def format_action(action: Action) -> str:
    """Text notation: 'lay W05', 'reserve 0 W05', 'flip 1 W07', 'pass 2'."""
    if isinstance(action, Lay):
        return f"lay {action.card}"
    if isinstance(action, Reserve):
        return f"reserve {action.seat} {action.card}"
    if isinstance(action, Flip):
        return f"flip {action.seat} {action.card}"
    return f"pass {action.seat}"


def parse_action(text: str) -> Action:
    """The inverse of `format_action`.

    :raises ValueError: for text that is not an action.
    """
    words = text.split()
    try:
        if words[0] == "lay" and len(words) == 2:
            return Lay(words[1])
        if words[0] == "reserve" and len(words) == 3:
            return Reserve(int(words[1]), words[2])
        if words[0] == "flip" and len(words) == 3:
            return Flip(int(words[1]), words[2])
        if words[0] == "pass" and len(words) == 2:
            return Pass(int(words[1]))
    except (IndexError, ValueError):
        pass
    raise ValueError(f"not a What's Up action: {text!r}")
