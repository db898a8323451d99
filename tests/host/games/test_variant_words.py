"""A variant says itself in words with the right number (issue 30): 'short game to 1 card',
not '1 cards', in every game's `describe()`."""

from __future__ import annotations

from upref.games.flipabird.variant import Variant as FlipVariant
from upref.games.updown.variant import Variant as UpDownVariant
from upref.games.upturn.variant import Variant as UpturnVariant


def test_one_and_many_are_said_apart() -> None:
    assert UpDownVariant(short_game_target=1).describe() == "short game to 1 card"
    assert UpDownVariant(short_game_target=3).describe() == "short game to 3 cards"
    assert UpturnVariant(deal=1).describe() == "short game: 1 tile each"
    assert UpturnVariant(deal=3).describe() == "short game: 3 tiles each"
    assert FlipVariant(pile=1).describe() == "short game, a draw pile of 1 card"
    assert FlipVariant(pile=12).describe() == "short game, a draw pile of 12 cards"
