"""Up And Down's sentences that its rules and its referee both say, each written once: the rules
say them in their verdicts and refusals, and the referee says them where it speaks for the table
(a card solved at the game's end, the corrections an undo or a blocked turn asks for)."""

from __future__ import annotations

from upref.games.updown.cards import TaskCard
from upref.text import plural

__all__ = ["NO_DRAW", "card_solved", "drew", "move_back", "turn_back"]

NO_DRAW = "No task card is to be drawn now."
"""A task card tapped, or a draw asked for, while no one has to draw."""


def card_solved(name: str, card: TaskCard, total: int) -> str:
    """A card solved at the end of a turn: 'Ann solved T07 (black 3, red 1): +2 shovels, 5 in
    all.'"""
    return (
        f"{name} solved {card.id} ({card.describe()}): +{card.shovels} "
        f"{plural(card.shovels, 'shovel')}, {total} in all."
    )


def drew(name: str) -> str:
    """A task card drawn: 'Ann drew a task card.'"""
    return f"{name} drew a task card."


def move_back(at: int, home: int) -> str:
    """The correction of a pair in another's hole (M-2)."""
    return f"Move the pair from hole {at} back into hole {home}."


def turn_back(hole: int, up: str) -> str:
    """The correction of a pair turned that may not be (M-1): `up` the colour the game has up."""
    return f"Turn the pair in hole {hole} back so that {up} is up again."
