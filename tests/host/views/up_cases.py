"""Scenes for Up's scoreboard tests: a real `UpReferee` fed by the physical table of `up_table`
(cards tapped, the button, keys), so every verdict, correction and "waiting for" line on the
scoreboard is the referee's own."""

from __future__ import annotations

from collections.abc import Callable

from up_table import UpTable
from upref.games.up.panel import PANEL
from upref.games.up.variant import Variant, card_points
from upref.games.up.view import UpView
from upref.views.blocks import Scoreboard
from upref.views.scoreboard import scoreboard

TEN = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")


def board(tb: UpTable) -> Scoreboard:
    keys = tuple((o.key, o.label) for o in tb.ref.keys_now())
    view = tb.view()
    assert isinstance(view, UpView)
    return scoreboard(view, tb.ref.status(), PANEL, keys=keys)


def state_cut() -> UpTable:
    """Round 1 asked for: Bob cuts, Cy deals, nothing tapped yet."""
    tb = UpTable(seed=1)
    tb.start()
    return tb


def state_deal() -> UpTable:
    """The cut kept a card (k and a tap), five face-up cards tapped as they were dealt."""
    tb = UpTable(seed=1)
    tb.start()
    tb.key("keep")
    tb.tap("B-2")
    for card in ("A7", "C11", "B3", "A1", "C5"):
        tb.tap(card)
    return tb


def state_illegal() -> UpTable:
    """Bob, in his first turn, tapped one of his face-up cards: refused (U-12), to be put back."""
    tb = UpTable(seed=2)
    tb.start()
    tb.cut_and_deal(keep=False)
    tb.move()  # Ann leads
    bob = tb.truth.to_move
    tb.tap(tb.truth.face_up(bob)[-1])
    return tb


def state_owes_call() -> UpTable:
    """Mid-round: a play has just left someone one card; 'last card' is owed."""
    tb = UpTable(("Ann", "Bob", "Cy", "Dee"), seed=7)
    tb.start()
    tb.cut_and_deal()
    while tb.truth.call_due is None:
        tb.move()
        assert not tb.truth.is_terminal(), "nobody came down to one card"
    return tb


def state_skip() -> UpTable:
    """'Last card' was forgotten: the next card came first, a skipped turn is to come."""
    tb = UpTable(("Ann", "Bob", "Cy", "Dee"), seed=7)
    tb.start()
    tb.cut_and_deal()
    while tb.truth.call_due is None:
        tb.move()
    due = tb.truth.call_due
    while not tb.truth.view(None).players[due].skip:
        tb.move(call=False)
        assert not tb.truth.is_terminal(), "the forgotten call was never caught"
    return tb


def state_count() -> UpTable:
    """The round is over; the remaining players tap what they still hold (the count)."""
    tb = UpTable(seed=10)
    tb.start()
    tb.cut_and_deal()
    while not tb.truth.is_terminal():
        tb.move()
    return tb


def state_round_over() -> UpTable:
    """Round 2 of an evening scored: at the count, the first player counted typed in the points
    of the cards left (counted by hand), the next tapped them."""
    tb = UpTable(seed=5)
    tb.start()
    tb.cut_and_deal()
    tb.play_round()
    tb.next_round()
    tb.cut_and_deal()
    while not tb.truth.is_terminal():
        tb.move()
    eng = tb.engine
    seat = eng.counting
    assert seat is not None, "the round ended without a count"
    untapped = [c for c in (*tb.truth.hand(seat), *tb.truth.face_down(seat)) if eng.locate(c)[0] == "unseen"]
    tb.key("points", str(sum(card_points(eng.catalogue.card(c)) for c in untapped)))
    tb.count()
    return tb


def state_up300() -> UpTable:
    """Ten players, Up300: the evening ends after the round in which a total passed 300."""
    tb = UpTable(TEN, seed=0, variant=Variant(up300=True))
    tb.start()
    while True:
        tb.cut_and_deal()
        tb.play_round(check=False)
        out = tb.engine.outcome()
        assert out is not None
        if out.termination == "up300":
            return tb
        tb.next_round()


STATES: dict[str, Callable[[], UpTable]] = {
    "cut": state_cut,
    "deal": state_deal,
    "illegal": state_illegal,
    "owes_call": state_owes_call,
    "skip": state_skip,
    "count": state_count,
    "round_over": state_round_over,
    "up300": state_up300,
}
