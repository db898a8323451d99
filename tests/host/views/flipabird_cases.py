"""Scenes for Flip a Bird's scoreboard tests: a real `FlipReferee` fed by the table of
`flipabird_table` (cards and tip cards tapped, the button, keys), so every verdict, correction and
"waiting for" line on the scoreboard is the referee's own."""

from __future__ import annotations

from collections.abc import Callable

from flipabird_table import FlipTable, new_table
from upref.games.flipabird.panel import PANEL
from upref.games.flipabird.variant import Variant
from upref.games.flipabird.view import FlipView
from upref.views.blocks import Scoreboard
from upref.views.scoreboard import scoreboard, waiting_scoreboard


def board(tb: FlipTable) -> Scoreboard:
    """The table's scoreboard, as `upref play` draws it."""
    view = tb.ref.view(None)
    if view is None:
        return waiting_scoreboard("flipabird", "Flip a Bird", tb.ref.status(), panel=PANEL)
    return scoreboard(view, tb.ref.status(), PANEL)


def view(tb: FlipTable) -> FlipView:
    v = tb.ref.view(None)
    assert isinstance(v, FlipView)
    return v


def state_scan() -> FlipTable:
    """Half-way through the pile scan (before the first game: no view yet)."""
    tb = new_table(seed=1)
    tb.start()
    tb.scan(20)
    return tb


def state_start() -> FlipTable:
    """The pile scanned; Ann must start the row."""
    tb = new_table(seed=1)
    tb.started()
    return tb


def state_row() -> FlipTable:
    """Five cards played, face up and face down; Cy to move."""
    tb = state_start()
    for _ in range(5):
        tb.play()
    return tb


def state_illegal() -> FlipTable:
    """Cy draws two cards and plays the second: refused by the scan, the fix outstanding."""
    tb = state_row()
    tb.draw()
    tb.tap(tb.truth.stack[0])
    return tb


def state_tips() -> FlipTable:
    """Four players; Bob claims against Ann with the button; Cy's tip is in, Dee's is not."""
    tb = new_table(("Ann", "Bob", "Cy", "Dee"), seed=7)
    tb.started()
    for _ in range(5):
        tb.play()
    tb.claim(button=True)
    tb.tap("TIP-R3")
    return tb


def state_sharing() -> FlipTable:
    """All tips in, the row evaluated; two cards taken."""
    tb = state_tips()
    tb.key("tip", "4 green")
    for _ in range(2):
        claim = tb.eng.claim_state
        assert claim is not None
        tb.tap(claim.left[-1])
    return tb


def state_f9() -> FlipTable:
    """The all-face-up rule has just removed a row (F-9)."""
    tb = new_table(seed=55)
    tb.started()
    for _ in range(4):
        tb.play()
    return tb


def state_final() -> FlipTable:
    """A short game in the final phase: the player to move has no card (F-11)."""
    tb = new_table(seed=0, variant=Variant(pile=6))
    tb.started()
    while not tb.eng.can_pass():
        tb.play()
    return tb


def state_end() -> FlipTable:
    """The final phase's claim settled: the game is over, Ann is checking her won cards."""
    tb = state_final()
    tb.claim()
    tb.tips(True)
    tb.take_all()
    won = tb.eng.won(0)
    for card in won[:2]:
        tb.tap(card.id)
    return tb


def state_no_scan() -> FlipTable:
    """The scan skipped; Ann entered an open cage and played face up, then Bob face down."""
    tb = new_table(seed=3)
    tb.start()
    tb.key("skip-scan")
    tb.play_faces(True, False)
    return tb


STATES: dict[str, Callable[[], FlipTable]] = {
    "scan": state_scan,
    "start": state_start,
    "row": state_row,
    "illegal": state_illegal,
    "tips": state_tips,
    "sharing": state_sharing,
    "f9": state_f9,
    "final": state_final,
    "end": state_end,
    "no_scan": state_no_scan,
}
