"""Flip a Bird's sentences that its rules and its referee (or its panel) both say, each written
once: why a card goes face up or down, the tips of a claim once they are all in, and the words
for a colour, a count of cards and a face."""

from __future__ import annotations

from collections.abc import Sequence

from upref.games.flipabird.cards import colour_word
from upref.text import Msg, Plural, and_join, join_words

__all__ = [
    "FINAL_PHASE",
    "LAST_OF_PILE",
    "PILE_EMPTIES",
    "all_tips",
    "birds",
    "cage",
    "cards",
    "colour_word",
    "face_word",
    "places",
]

FINAL_PHASE = Msg("final phase")
"""Why every card goes face down: the final phase has no draw."""
PILE_EMPTIES = Msg("the draw empties the pile")
"""Why the card goes face down: after the draw no back shows on the pile."""
LAST_OF_PILE = Msg("the last card of the pile: face down")
"""The face of the next card when the draw takes the pile's last card."""


def face_word(up: bool) -> str:
    """'up' or 'down', as in 'face up'."""
    return Msg("face up") if up else Msg("face down")


def cards(n: int) -> str:
    """'1 card', '3 cards'."""
    return Plural("{n} card", "{n} cards", n=n)


def birds(n: int) -> str:
    """'1 bird', '3 birds'."""
    return Plural("{n} bird", "{n} birds", n=n)


def places(positions: Sequence[int]) -> str:
    """'position 2' / 'positions 1 and 3' (positions counted from 1)."""
    said = and_join([str(p) for p in positions])
    if len(positions) == 1:
        return Msg("position {places}", places=said)
    return Msg("positions {places}", places=said)


def cage(up: bool) -> str:
    """Why the card goes face up or down: the back the pile shows after the draw."""
    return Msg("open cage on the pile") if up else Msg("covered cage on the pile")


def _tip_of(name: str, tip: str | None, i: int, claimant: int, accused: int) -> str:
    colour = colour_word(tip) if tip is not None else ""
    if i == claimant:
        return Msg("{name} {colour} (claim)", name=name, colour=colour)
    if i == accused:
        return Msg("{name} {colour} (accused)", name=name, colour=colour)
    return name + " " + colour


def all_tips(names: Sequence[str], tips: Sequence[str | None], claimant: int, accused: int) -> str:
    """Every tip of a claim, once they are all in: 'All tips are in: Ann red (claim), Bob green
    (accused), Cy red.' without its full stop."""
    said = join_words(", ", [_tip_of(names[i], t, i, claimant, accused) for i, t in enumerate(tips)])
    return Msg("All tips are in: {tips}", tips=said)
