"""Up And Down's golden scenes (`updown_cases`, the ones tests/golden/updown/ holds in English)
said in German: the public scoreboard, its verdicts as they are spoken and each seat's own task card hold
no English sentence, and no sentence fell back to English for want of a German entry."""

from __future__ import annotations

import pytest
from still_english import missed, still_english
from updown_cases import PLAYERS, STATES
from upref.games.updown.panel import PANEL
from upref.games.updown.view import UpDownView
from upref.text import catalogue, in_lang
from upref.views import plain
from upref.views.blocks import Box, said_in

GERMAN = "de"


def _german_lines(name: str) -> list[str]:
    scene = STATES[name]()
    lines = plain.render(said_in(scene.board(), GERMAN)).splitlines()
    lines += [in_lang(v.spoken, GERMAN) for v in scene.status().verdicts if v.spoken]
    for seat in range(len(scene.game.players)):
        own = scene.ref.view(seat)
        assert isinstance(own, UpDownView)
        for box in PANEL.private(own):
            assert isinstance(box, Box)
            lines += plain.render_blocks([said_in(box, GERMAN)]).splitlines()
    return lines


@pytest.mark.parametrize("name", list(STATES))
def test_the_golden_scenes_said_in_german(name: str) -> None:
    catalogue.MISSED.clear()
    lines = _german_lines(name)
    english = plain.render(STATES[name]().board())
    assert "\n".join(lines) != english
    left = still_english(dict.fromkeys(lines), PLAYERS)
    assert not left, "still English in German:\n" + "\n".join(left)
    assert not missed(GERMAN), "no German entry for:\n" + "\n".join(missed(GERMAN))
