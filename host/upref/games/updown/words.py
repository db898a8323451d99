"""Up And Down's sentences that its rules and its referee both say, each written once: the rules
say them in their verdicts and refusals, and the referee says them where it speaks for the table
(a card solved at the game's end, the corrections an undo or a blocked turn asks for)."""

from __future__ import annotations

from upref.games.updown.cards import TaskCard
from upref.text import Msg, Plural

__all__ = ["NO_DRAW", "RESEAT", "TURN_IT", "card_solved", "drew", "move_back", "shovels", "turn_back"]

TURN_IT = Msg("turn")
"""What the molehill table says a hole needs: its pair turned back."""
RESEAT = Msg("reseat")
"""What the molehill table says a hole needs: its pair reseated."""

NO_DRAW = Msg("No task card is to be drawn now.")
"""A task card tapped, or a draw asked for, while no one has to draw."""


def shovels(n: int) -> str:
    """'1 shovel', '3 shovels'."""
    return Plural("{n} shovel", "{n} shovels", n=n)


def card_solved(name: str, card: TaskCard, total: int) -> str:
    """A card solved at the end of a turn: 'Ann solved T07 (black 3, red 1): +2 shovels, 5 in
    all.'"""
    return Plural(
        "{name} solved {card} ({what}): +{n} shovel, {total} in all.",
        "{name} solved {card} ({what}): +{n} shovels, {total} in all.",
        n=card.shovels,
        name=name,
        card=card.id,
        what=card.describe(),
        total=total,
    )


def drew(name: str) -> str:
    """A task card drawn: 'Ann drew a task card.'"""
    return Msg("{name} drew a task card.", name=name)


def move_back(at: int, home: int) -> str:
    """The correction of a pair in another's hole (M-2)."""
    return Msg("Move the pair from hole {at} back into hole {home}.", at=at, home=home)


def turn_back(hole: int, up: str) -> str:
    """The correction of a pair turned that may not be (M-1): `up` the colour the game has up."""
    return Msg("Turn the pair in hole {hole} back so that {up} is up again.", hole=hole, up=up)
