"""The terminal keeps each block's layout (`upref.views.terminal._Kept`): a scoreboard drawn
again must look exactly as one laid out afresh, and a block that changed, a new width or a
feed in another language must never show a drawing kept from before."""

from __future__ import annotations

import io

from rich.console import Console
from upref.views import terminal
from upref.views.blocks import Box, Column, Feed, FeedLine, Line, Sheet, Span, line


def _draw(blocks: tuple[object, ...], width: int = 80) -> str:
    console = Console(
        file=io.StringIO(), record=True, width=width, color_system="truecolor", force_terminal=True
    )
    console.print(terminal.render_blocks(blocks))  # type: ignore[arg-type]
    return console.export_text(styles=True)


def _afresh(blocks: tuple[object, ...], width: int = 80) -> str:
    terminal._Kept._drawn.clear()
    return _draw(blocks, width)


def _scores(ann: int, bob: int) -> tuple[object, ...]:
    sheet = Sheet(
        (Column("player"), Column("score", align="right"), Column("note", grow=True)),
        (
            (Span("Ann", "turn"), Span(str(ann)), Span("took the last card of the round")),
            (Span("Bob"), Span(str(bob)), Span("waits")),
        ),
        title="Scores",
    )
    return (
        line("Round 2", meaning="title", align="center"),
        sheet,
        Box(
            (line("Ann to play"), Line((Span("hint: "), Span("tap a card", "strong")))),
            title="Turn",
        ),
        Feed(
            (
                FeedLine(
                    "illegal", "ILLEGAL M-2", "That mole is not yours.", "Put it back in hole 3."
                ),
            )
        ),
    )


def test_a_scoreboard_drawn_again_looks_as_one_laid_out_afresh() -> None:
    blocks = _scores(3, 1)
    fresh = _afresh(blocks)
    assert "Ann" in fresh and "Put it back in hole 3." in fresh
    assert _draw(blocks) == fresh
    assert _draw(blocks) == fresh


def test_a_changed_score_is_drawn_anew_not_as_kept() -> None:
    _afresh(_scores(3, 1))
    after = _draw(_scores(4, 1))
    assert after == _afresh(_scores(4, 1))
    assert after != _afresh(_scores(3, 1))


def test_another_width_is_laid_out_for_that_width() -> None:
    blocks = _scores(3, 1)
    narrow, wide = _afresh(blocks, 40), _afresh(blocks, 100)
    terminal._Kept._drawn.clear()
    assert _draw(blocks, 100) == wide
    assert _draw(blocks, 40) == narrow
    assert narrow != wide


def test_a_feed_said_in_german_gets_its_own_words() -> None:
    lines = (
        FeedLine("illegal", "ILLEGAL M-2", "That mole is not yours.", "Put it back in hole 3."),
    )
    english, german = (Feed(lines),), (Feed(lines, lang="de"),)
    assert english[0] == german[0]  # a feed's language is left out of its equality
    terminal._Kept._drawn.clear()
    shown_en = _draw(english)
    shown_de = _draw(german)
    assert shown_de == _afresh(german)
    assert shown_en == _afresh(english)
    assert shown_de != shown_en
