"""Upturn's golden scenes (the states tests/golden/upturn/ holds in English) said in German: the
public scoreboard with its keys, its verdicts as they are spoken and each seat's own rack hold no
English sentence, and no sentence fell back to English for want of a German entry."""

from __future__ import annotations

import pytest
from still_english import missed, still_english
from test_upturn_panel import STATES, board_of
from upref.games.upturn.panel import PANEL
from upref.games.upturn.view import UpturnView
from upref.text import catalogue, in_lang
from upref.views import plain
from upref.views.blocks import Box, said_in

GERMAN = "de"


def _german_lines(name: str) -> tuple[list[str], tuple[str, ...]]:
    ref = STATES[name]()
    lines = plain.render(said_in(board_of(ref), GERMAN)).splitlines()
    lines += [in_lang(v.spoken, GERMAN) for v in ref.status().verdicts if v.spoken]
    engine = ref.engine
    assert engine is not None
    for seat in range(len(engine.players)):
        own = ref.view(seat)
        assert isinstance(own, UpturnView)
        for box in PANEL.private(own):
            assert isinstance(box, Box)
            lines += plain.render_blocks([said_in(box, GERMAN)]).splitlines()
    return lines, engine.players


@pytest.mark.parametrize("name", list(STATES))
def test_the_golden_scenes_said_in_german(name: str) -> None:
    catalogue.MISSED.clear()
    lines, players = _german_lines(name)
    assert "\n".join(lines) != plain.render(board_of(STATES[name]()))
    left = still_english(dict.fromkeys(lines), players)
    assert not left, "still English in German:\n" + "\n".join(left)
    assert not missed(GERMAN), "no German entry for:\n" + "\n".join(missed(GERMAN))
