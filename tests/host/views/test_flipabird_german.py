"""Flip a Bird's golden scenes (`flipabird_cases`, the scenes of tests/golden/flipabird/) said in
German: the public scoreboard in both renderings, every seat's own screen, and the verdicts
and spoken lines of the scene's referee hold no English sentence, and every sentence they
say has a German entry."""

from __future__ import annotations

import pytest
from flipabird_cases import STATES, board
from panel_text import console_text
from still_english import missed, still_english
from upref.games.flipabird.panel import PANEL
from upref.text import in_lang
from upref.views import plain, terminal
from upref.views.blocks import said_in
from upref.views.screen import verdict_line

GERMAN = "de"


def _german_lines(name: str) -> tuple[list[str], tuple[str, ...]]:
    tb = STATES[name]()
    german = said_in(board(tb), GERMAN)
    lines = plain.render(german).splitlines()
    lines += console_text(terminal.render(german)).splitlines()
    names: tuple[str, ...] = ()
    if tb.ref.has_engine:
        eng = tb.ref.engine
        names = eng.players
        for seat in range(eng.num_players()):
            lines += plain.render_blocks(said_in(PANEL.private(eng.view(seat)), GERMAN)).splitlines()
    for v in tb.ref.status().verdicts:
        lines.append(verdict_line(v, GERMAN))
        if v.spoken:
            lines.append(in_lang(v.spoken, GERMAN))
    return lines, names


@pytest.mark.parametrize("name", list(STATES))
def test_the_scene_said_in_german_holds_no_english(name: str) -> None:
    lines, names = _german_lines(name)
    left = still_english(dict.fromkeys(lines), names)
    assert not left, "still English in German:\n" + "\n".join(left[:40])
    english = plain.render(board(STATES[name]()))
    assert plain.render(said_in(board(STATES[name]()), GERMAN)) != english


def test_every_sentence_of_the_scenes_has_a_german_entry() -> None:
    for name in STATES:
        _german_lines(name)
    assert not missed(GERMAN), "no German entry for:\n" + "\n".join(missed(GERMAN)[:40])
