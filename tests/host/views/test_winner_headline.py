"""At every game's end the winner is the headline, on every screen: the big line of the page
(`Scoreboard.last`), the first thing under the title in the terminal and in the plain text.
Each game is played to its end by a real referee fed from its test table, and what the headline
must say is taken from the referee's outcome: every winner named, nobody else."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import flipabird_cases
import pytest
import up_cases
import updown_cases
import whatsup_cases
from panel_text import console_text
from upref.games.base import GameView
from upref.games.flipabird.panel import PANEL as FLIPABIRD
from upref.games.up.panel import PANEL as UP
from upref.games.updown.panel import PANEL as UPDOWN
from upref.games.upturn.panel import PANEL as UPTURN
from upref.games.upturn.referee import UpturnReferee
from upref.games.upturn.variant import Variant as UpturnVariant
from upref.games.whatsup.panel import PANEL as WHATSUP
from upref.referee.status import END, INFO
from upref.registry import titles
from upref.views import html, plain, terminal
from upref.views.scoreboard import Panel, scoreboard
from upturn_table import CODES, UpturnTable, tile_registry

Ended = tuple[Any, Panel[GameView]]  # a referee whose game is over, and its game's panel


def flipabird_checked() -> Ended:
    """The final claim settled, then every player's won cards tapped and checked: the latest
    verdict is the note that the scores were checked, the end long out of the feed."""
    tb = flipabird_cases.state_end()
    for seat in range(tb.eng.num_players()):
        for card in tb.eng.won(seat)[2 if seat == 0 else 0 :]:
            tb.tap(card.id)
        tb.press()
    assert tb.ref.status().verdicts[-1].text == "Scores checked against the won cards."
    return tb.ref, FLIPABIRD


def upturn_pool_dry() -> Ended:
    """Four players draw and keep until the pool is empty, then all pass (T-12): a shared win."""
    ref = UpturnReferee(CODES, tile_registry(), titles=titles())
    tb = UpturnTable(ref, ("Ann", "Bob", "Cy", "Dee"), seed=2, variant=UpturnVariant(deal=20))
    tb.start()
    while ref.engine.pool_count:
        tb.key("draw", "keep")
    for _ in range(4):
        tb.key("pass")
    return ref, UPTURN


ENDS: dict[str, Callable[[], Ended]] = {
    "updown": lambda: (updown_cases.state_end().ref, UPDOWN),
    "updown shared": lambda: (updown_cases.state_tie().ref, UPDOWN),
    "upturn": upturn_pool_dry,
    "flipabird": flipabird_checked,
    "whatsup": lambda: (whatsup_cases.state_stall().tb.ref, WHATSUP),
    "whatsup rows": lambda: (whatsup_cases.state_rows().tb.ref, WHATSUP),
    "whatsup stopped": lambda: (whatsup_cases.state_shared().tb.ref, WHATSUP),
    "up round": lambda: (up_cases.state_round_over().ref, UP),
    "up evening": lambda: (up_cases.state_up300().ref, UP),
}


def _names_only_the_winners(text: str, view: GameView) -> None:
    assert view.outcome is not None and view.outcome.winners
    for seat, name in enumerate(view.names):
        said = re.search(rf"\b{re.escape(name)}\b", text) is not None
        assert said == (seat in view.outcome.winners), (name, text)


@pytest.mark.parametrize("name", list(ENDS))
def test_the_headline_at_a_games_end_names_the_winner_on_every_screen(name: str) -> None:
    ref, panel = ENDS[name]()
    view = ref.view(None)
    assert view is not None and view.phase == "over"
    board = scoreboard(view, ref.status(), panel)
    # the page's big line
    assert board.last is not None and board.last.kind == END
    headline = board.last.text
    _names_only_the_winners(headline, view)
    assert headline in html.render(board).split("</header>")[0]
    # the plain text and the terminal: right under the title and the game's line
    lines = plain.render(board).splitlines()
    assert lines[2] == f"*** {headline} ***", lines[:4]
    shown = console_text(terminal.render(board)).splitlines()
    assert headline in "\n".join(shown[:6]), shown[:6]


def test_a_note_after_the_end_does_not_take_the_headline() -> None:
    ref, panel = flipabird_checked()
    view = ref.view(None)
    board = scoreboard(view, ref.status(), panel)
    assert board.last is not None and board.last.kind == END and board.last.label == "END"
    assert "Scores checked" not in board.last.text
    assert [f for f in board.blocks if getattr(f, "kind", "") == "feed"], "the feed is still shown"
    assert any(v.kind == INFO and v.text.startswith("Scores checked") for v in ref.status().verdicts)


def test_during_a_game_the_newest_verdict_stays_the_big_line() -> None:
    scene = updown_cases.state_illegal()
    board = scene.board()
    newest = scene.status().verdicts[-1]
    assert board.last is not None and board.last.text == newest.text
