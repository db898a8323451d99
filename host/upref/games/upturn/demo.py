"""Upturn's demo: three players, a short game (5 tiles each) from a prepared deal, so that one
scripted game shows every part of the referee: an action tile turned up as the Starting tile
and sent back (T-1), a tile laid against the direction and taken back, a draw, a Joker with its
extra tile, a Twin run with its gift, a Skip, a Penalty tile's gift, a "one tile left" call in
time and one missed (with its three-tile penalty), and the first empty rack winning.

The players tap each tile as they lay it, use the host's keys for the draw and the gifts
(accepting each prompt's default, as Enter does) and the board's button for the call.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

from upref.board.model import ButtonObservation, CardObservation
from upref.game import DemoStep
from upref.games.upturn.variant import Variant
from upref.referee.inputs import Key, Observe
from upref.text import Msg

if TYPE_CHECKING:
    from upref.sim.board import SimBoard
    from upref.table import Table

__all__ = ["DEAL", "RACKS", "STEPS", "UpturnDemo", "steps_done"]

DEAL = 5
"""Tiles each player takes in the demo (the scripted game needs exactly this many)."""
SETTLE_STEPS = 200
"""How many short waits (0.05 s) a step allows the board's report to reach the referee (10 s: a
busy machine, a noisy line whose lost frames the link asks the board for again)."""

RACKS: dict[str, tuple[str, ...]] = {
    "Ann": ("N52", "JOKER2", "N58", "N18", "N2"),
    "Bob": ("N31", "N63", "SKIP1", "N21", "N8"),
    "Cy": ("N33", "N56", "N41", "N27", "N12"),
}
"""The prepared deal: what each player takes onto their rack."""
TURNED_UP = ("JOKER1", "N40")
"""The tiles turned up for the Starting tile, in order (the Joker goes back, T-1)."""

Step = tuple[Literal["tap", "key", "button"], str, str]
STEPS: tuple[Step, ...] = (
    ("tap", "JOKER1", Msg("The tile turned up for the Starting tile is a Joker: it is tapped")),
    ("tap", "N40", Msg("The Joker goes back; the next tile turned up, 40, is tapped")),
    ("tap", "N52", Msg("Ann makes the first move: 52")),
    ("tap", "N31", Msg("Bob lays 31")),
    ("tap", "N63", Msg("Bob takes 31 back and lays 63")),
    ("key", "d", Msg("Cy cannot play: Cy draws a tile and keeps it (d, Enter)")),
    ("tap", "JOKER2", Msg("Ann lays a Joker")),
    ("tap", "N58", Msg("...and 58 as its extra tile")),
    ("tap", "N33", Msg("Cy lays the Twin 33")),
    ("tap", "N56", Msg("...adds 56 to the run")),
    ("tap", "N41", Msg("...and 41")),
    ("key", "g", Msg("Cy gives the three tiles to the next player (g, Enter)")),
    ("tap", "SKIP1", Msg("Bob lays a Skip")),
    ("tap", "N27", Msg("Cy lays 27, a Penalty tile")),
    ("key", "g", Msg("Cy gives the penalty's tile to the next player (g, Enter)")),
    ("tap", "N21", Msg("Bob lays 21")),
    ("tap", "N18", Msg("Ann lays 18")),
    ("button", "", Msg("Ann presses the button: 'one tile left!'")),
    ("tap", "N12", Msg("Cy lays 12 and forgets to call")),
    ("tap", "N8", Msg("Bob lays 8")),
    ("tap", "N2", Msg("Ann lays her last tile, 2")),
)
"""The scripted game: each tap, key and press in order, with what the players do in words."""


def steps_done(table: Table) -> int:
    """How many of the STEPS the referee has had: each is one tile arriving on the reader, one
    key or one press of the button (a resumed game's table starts with the log's replies, so
    the players go on where the game is)."""
    done = 0
    for inp, _reply in table.replies:
        obs = getattr(inp, "observation", None)
        if isinstance(inp, Key) or (isinstance(obs, CardObservation) and obs.arrived) or (
            isinstance(obs, ButtonObservation) and obs.pressed
        ):
            done += 1
    return done


class UpturnDemo:
    """The scripted players (`upref.game.Demo`)."""

    players: tuple[str, ...] = ("Ann", "Bob", "Cy")
    seed = 9
    settings: dict[str, Any] = {}

    def variant(self, options: argparse.Namespace) -> Variant:
        """Always 5 tiles each: the prepared deal is scripted for that."""
        return Variant(deal=DEAL)

    def script(self, board: SimBoard, table: Table, uid_of: dict[str, str]) -> Iterator[DemoStep]:
        ref = table.referee

        def seen(what: object) -> bool:
            """Whether the referee's latest board observation is `what` (keys go straight to
            the referee, so they wait until the taps before them have come through)."""
            for inp, _reply in reversed(table.replies):
                if isinstance(inp, Observe):
                    return inp.observation == what
            return False

        def until(what: object) -> Iterator[DemoStep]:
            for _ in range(SETTLE_STEPS):
                if seen(what):
                    return
                yield "", 0.05

        for kind, what, words in STEPS[steps_done(table):]:
            if ref.stopped is not None:
                return
            if kind == "tap":
                uid = uid_of[what]
                board.tap(uid)
                yield words, 0.5
                yield from until(CardObservation(True, uid))
                board.remove()
                yield "", 0.2
                yield from until(CardObservation(False, uid))
            elif kind == "button":
                board.button("click")
                yield words, 0.5
                yield from until(ButtonObservation(False))
            else:
                offer = next((o for o in ref.keys_now() if o.key == what), None)
                if offer is None:  # the referee does not offer it: the script is off track
                    yield Msg("(the key {key} is not offered now: the demo stops)", key=what), 0.2
                    return
                yield words, 0.05
                table.send(offer.make(table.clock(), offer.default))
                yield "", 0.4
