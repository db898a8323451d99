"""The board's own figures as `upref doctor` shows them, said in German: every figure's name, its
value with its unit and each judgement, with no English left and no sentence the German
catalogue lacks (the English of each stays as it was, tests/host/commands/test_board_figures.py)."""

from __future__ import annotations

from still_english import missed, still_english
from test_board_figures import hb, hello
from upref.commands.board_figures import BoardFigures, Figure
from upref.link.notices import BoardReset
from upref.text import catalogue, in_lang

GERMAN = "de"


def german_lines(figures: list[Figure]) -> list[str]:
    return [in_lang(part, GERMAN) for f in figures for part in (f.name, f.value, f.trouble) if part]


def every_figure_and_judgement() -> list[Figure]:
    """Each figure in range, out of range in every way the board can be, and not told yet."""
    shown = BoardFigures().figures(card_present=False)  # no HELLO, no heartbeat yet
    old = BoardFigures()
    old.take(hello(resets=None))
    old.take(hb(tscan=None, tmax=None, late=3, nlate=None, reads=None))  # type: ignore[arg-type]
    shown += old.figures(card_present=False)
    for resets, beat, card in (
        ((0, 0, 0, 0), hb(reads=48), True),
        ((1, 0, 2, 1), hb(tmax=12_000, late=14, nlate=2, reads=3, heap=9), True),
        ((0, 1, 0, 1), hb(tscan=8000, nlate=1, late=6, reads=0), False),
    ):
        figs = BoardFigures()
        figs.take(BoardReset(hello(reset="soft", resets=resets)))
        figs.take(beat)
        shown += figs.figures(card_present=card)
    return shown


def test_every_figure_doctor_shows_is_said_in_german_with_no_english_left() -> None:
    catalogue.MISSED.clear()
    figures = every_figure_and_judgement()
    troubles = {f.trouble for f in figures if f.trouble}
    assert len(troubles) == 8  # every judgement a figure can give
    german = german_lines(figures)
    assert still_english(german) == []
    assert not missed(GERMAN), missed(GERMAN)
    assert "Abtastzeit" in german and "Neustarts" in german
    assert german != [part for f in figures for part in (f.name, f.value, f.trouble) if part]
