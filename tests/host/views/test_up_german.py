"""Up's scoreboard scenes (the same states as its golden texts, `up_cases`) said in German: the
terminal and the plain renderings, a player's own screen and the verdicts of each scene hold no
English sentence, and no sentence fell back to English for want of a German entry."""

from __future__ import annotations

import pytest
from panel_text import console_text
from still_english import missed, still_english
from up_cases import STATES, TEN, board
from upref.games.up.panel import PANEL
from upref.text import catalogue, in_lang
from upref.views import plain, terminal
from upref.views.blocks import said_in
from upref.views.screen import verdict_line

GERMAN = "de"


@pytest.mark.parametrize("name", list(STATES))
def test_the_scene_is_german(name: str) -> None:
    catalogue.MISSED.clear()
    tb = STATES[name]()
    german = said_in(board(tb), GERMAN)
    lines = console_text(terminal.render(german)).splitlines()
    lines += plain.render(german).splitlines()
    lines += [verdict_line(v, GERMAN) for v in tb.ref.status().verdicts]
    assert not still_english(lines, TEN), "\n".join(still_english(lines, TEN))
    assert not missed(GERMAN), missed(GERMAN)


def test_the_german_scene_says_what_the_english_says() -> None:
    tb = STATES["illegal"]()
    english = plain.render(board(tb))
    german = plain.render(said_in(board(tb), GERMAN))
    assert "ILLEGAL U-12" in english and "VERBOTEN U-12" in german
    assert "Waiting for:" in english and "Warten auf:" in german
    assert german.count("\n") >= english.count("\n") - 2


def test_a_players_own_screen_is_german() -> None:
    catalogue.MISSED.clear()
    eng = STATES["owes_call"]().engine
    seat = eng.call_due
    assert seat is not None
    text = plain.render_blocks(said_in(tuple(PANEL.private(eng.view(seat))), GERMAN))
    assert not still_english(text.splitlines(), TEN), text
    assert not missed(GERMAN), missed(GERMAN)
    assert in_lang(PANEL.title, GERMAN) == "Up"
