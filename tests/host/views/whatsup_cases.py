"""Scenes for the What's Up scoreboard tests: a real `WhatsUpReferee` fed by the table of
`whatsup_table` (cards tapped, keys pressed, the board going away), so every verdict, correction,
key and "waiting for" line on the scoreboard is the referee's own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from upref.board.model import FaultObservation
from upref.games.whatsup.engine import WhatsUpState
from upref.games.whatsup.panel import PANEL
from upref.games.whatsup.variant import Variant
from upref.games.whatsup.view import WhatsUpView
from upref.referee.inputs import BoardOnline, Observe
from upref.views.blocks import Scoreboard
from upref.views.scoreboard import scoreboard
from whatsup_table import Table, new_table


@dataclass
class Scene:
    tb: Table

    @property
    def game(self) -> WhatsUpState:
        return self.tb.game

    def view(self) -> WhatsUpView:
        v = self.tb.ref.view(None)
        assert isinstance(v, WhatsUpView)
        return v

    def board(self) -> Scoreboard:
        keys = tuple((k.key, k.label) for k in self.tb.ref.keys_now())
        return scoreboard(self.view(), self.tb.ref.status(), PANEL, keys=(*keys, ("q", "quit")))


def _first(seed: int = 1) -> Table:
    return new_table(variant=Variant(first_game=True), seed=seed, laid=False)


def state_setup() -> Scene:
    """First game, 12 of 30 cards laid: the rectangle fills row by row."""
    tb = _first()
    tb.lay_all(order=sorted(tb.game.unlaid(), reverse=True)[:12])
    return Scene(tb)


def state_free() -> Scene:
    """Free placement: all laid, Ann took a card, Bob's did not fit; Cy's turn."""
    tb = new_table(seed=2)
    tb.take()
    tb.miss()
    return Scene(tb)


def state_reserved() -> Scene:
    """First game: Ann took a card; Bob put his figurine on a card and flipped another that did
    not fit; Cy flipped Bob's card: refused (A-1), the correction outstanding."""
    tb = _first(4)
    tb.lay_all(seed=4)
    tb.take()
    wanted = tb.fitting(True)[0]
    tb.reserve(wanted)
    tb.miss()
    tb.tap(wanted)
    return Scene(tb)


def state_stall() -> Scene:
    """First game over: eight turns in a row without an addition after a few cards were taken."""
    tb = _first(3)
    tb.lay_all(seed=3)
    for take in (True, True, False, True, False):
        tb.take() if take and tb.fitting(True) else tb.miss()
    while tb.ref.phase != "over":
        tb.miss() if tb.fitting(False) else tb.take()
    return Scene(tb)


def state_rows() -> Scene:
    """Four players, free placement: Ann takes every card she can, the others never do, until
    Ann's two complete rows win at once."""
    tb = new_table(players=("Ann", "Bob", "Cy", "Dee"), seed=11)
    while tb.ref.phase != "over":
        ann = tb.game.current_player() == 0
        if ann and tb.fitting(True):
            tb.take()
        elif tb.fitting(False):
            tb.miss()
        else:
            tb.take()
    return Scene(tb)


def state_shared() -> Scene:
    """Two players stop the game (e) with one bird on one card each: a shared win."""
    tb = new_table(players=("Ann", "Bob"), seed=6)
    while tb.game.cards_of(0) == 0 or tb.game.cards_of(1) == 0:
        seat = tb.game.current_player()
        ones = [c for c in tb.fitting(True) if tb.game.down(c).count == 1]
        if tb.game.cards_of(seat) == 0 and ones:
            tb.tap(ones[0])
        else:
            tb.miss()
    tb.end()
    return Scene(tb)


def state_offline() -> Scene:
    """Mid-game, the reader reports a fault, then the board is gone."""
    tb = new_table(seed=5)
    tb.take()
    tb.feed(Observe(FaultObservation("rfid", True, "rfid", "rfid", "no answer"), tb.at()))
    tb.feed(BoardOnline(False, tb.at()))
    return Scene(tb)


STATES: dict[str, Callable[[], Scene]] = {
    "setup": state_setup,
    "free": state_free,
    "reserved": state_reserved,
    "stall": state_stall,
    "rows": state_rows,
    "shared": state_shared,
    "offline": state_offline,
}
