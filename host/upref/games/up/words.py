"""Up's sentences that its rules and its referee (or its panel) both say, each written once: the
rules say them in their verdicts, and the referee where it answers the table before the rules
are asked (a 'last card' pressed too late, the keys it offers)."""

from __future__ import annotations

__all__ = ["cannot_start", "counts_cards", "turn_skipped"]


def turn_skipped(name: str) -> str:
    """The penalty of a 'last card' not called in time, as a sentence that names the ruling:
    'Ann's next turn is skipped (U-11).'"""
    return f"{name}'s next turn is skipped (U-11)."


def cannot_start(name: str) -> str:
    """A player with nothing to start a tower with, who passes: 'Ann cannot start a tower' (the
    rules add why)."""
    return f"{name} cannot start a tower"


def counts_cards(name: str) -> str:
    """The count at a round's end: 'Ann taps the remaining cards.'"""
    return f"{name} taps the remaining cards."
