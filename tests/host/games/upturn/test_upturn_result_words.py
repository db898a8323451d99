"""Upturn's result words, each written once in its `RESULT` and read by the engine, the
referee and the panel: the empty rack, the fewest tiles and a shared win, in every form."""

from __future__ import annotations

from upref.games.base import ResultWords
from upref.games.upturn.engine import Termination
from upref.games.upturn.view import RESULT


def test_the_empty_rack_in_every_form() -> None:
    how = Termination.EMPTY_RACK
    assert RESULT.text(["Ann"], 0, how=how) == "Ann wins with an empty rack"
    assert RESULT.headline(["Ann"], 0, how=how) == "Ann wins: the rack is empty"
    assert RESULT.spoken(["Ann"], 0, how=how) == "Ann's rack is empty: Ann wins!"


def test_the_fewest_tiles_in_every_form() -> None:
    how = Termination.POOL_EXHAUSTED
    assert RESULT.text(["Bob"], 3, how=how) == "Bob wins with the fewest tiles, 3"
    assert RESULT.headline(["Bob"], 1, how=how) == "Bob wins with the fewest tiles, 1"
    assert RESULT.spoken(["Bob"], 3, how=how) == "Bob wins, with the fewest tiles: three."


def test_a_shared_win_in_every_form() -> None:
    names = ["Ann", "Cy"]
    how = Termination.STOPPED
    assert RESULT.text(names, 2, how=how) == "Ann and Cy share the win with 2 tiles each"
    assert RESULT.headline(names, 1, how=how) == "Shared win: Ann and Cy with 1 tile each"
    assert RESULT.spoken(names, 2, how=how) == "Ann and Cy win, with the fewest tiles: two."
    assert RESULT.spoken([], 0, how=how) == "Nobody wins."


def test_words_without_an_outright_ending_ignore_the_ending() -> None:
    words = ResultWords()
    assert words.text(["Ann"], 5, how=Termination.EMPTY_RACK) == "Ann wins with 5 points"
    assert words.spoken(["Ann"], 5, how="empty-rack") == "Ann wins, with five points!"
