"""Up And Down's demo: three players, a short game (first to two cards). They tap the card they
draw, pull pairs out and put them back turned (guided by their own card, through the solver's
hint), and one of them puts a pair into the wrong hole and corrects it when the referee says so.

After each thing they do, they wait until the referee has heard it (its observation is in the
table's replies), as people at a table wait for the referee's word before the next move: on a
noisy line a tap may reach the referee a second late, and a player who went on by the referee's
old picture would draw or turn the same thing twice.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from upref.board.codes import EMPTY
from upref.board.model import CardObservation, HoleObservation, Observation
from upref.game import DemoStep, StepPlan, StepTable, TableStep
from upref.games.updown.engine import UpDownState
from upref.games.updown.variant import Variant
from upref.games.updown.view import UpDownView
from upref.players import taps
from upref.text import Msg

if TYPE_CHECKING:
    from upref.sim.board import SimBoard
    from upref.table import Table

__all__ = ["SEEN_LIMIT_S", "STEPS", "UpDownDemo"]

SEEN_LIMIT_S = 10.0
"""The longest the players wait for the referee to hear what they did; then they go on by what
the referee says (a tap it never heard is made again, as the referee still asks for it)."""


def _seen(table: Table, mark: int, what: Callable[[Observation], bool]) -> bool:
    """Whether the referee has had, since reply `mark`, an observation `what` accepts."""
    for inp, _reply in table.replies[mark:]:
        obs = getattr(inp, "observation", None)
        if obs is not None and what(obs):
            return True
    return False


def _heard(table: Table, mark: int, *what: Callable[[Observation], bool]) -> Iterator[DemoStep]:
    """Let the table pump until the referee has had each observation in `what` since reply
    `mark` (at most `SEEN_LIMIT_S`)."""
    waited = 0.0
    while not all(_seen(table, mark, w) for w in what) and waited < SEEN_LIMIT_S:
        yield "", 0.05
        waited += 0.05


def _card(uid: str, arrived: bool) -> Callable[[Observation], bool]:
    return lambda o: isinstance(o, CardObservation) and o.arrived == arrived and o.uid.upper() == uid.upper()


def _hole(h: int, filled: bool) -> Callable[[Observation], bool]:
    return lambda o: isinstance(o, HoleObservation) and o.hole == h and (o.new_code != EMPTY) == filled


class UpDownDemo:
    """The scripted players (`upref.game.Demo`)."""

    players = ("Ann", "Bob", "Cy")
    seed = 7
    settings: dict[str, Any] = {"settle_s": 0.8}

    def variant(self, options: argparse.Namespace) -> Variant:
        target = getattr(options, "short", None)
        return Variant(short_game_target=target if target is not None else 2)

    def script(self, board: SimBoard, table: Table, uid_of: dict[str, str]) -> Iterator[DemoStep]:
        ref = table.referee
        # the referee says whether the wrong hole was tried already (a resumed game's table
        # starts with the log's replies)
        mistake_made = any(v.rule == "M-2" for _inp, reply in table.replies for v in reply.public)
        while True:
            if not ref.has_engine:
                return
            eng = ref.engine
            view = ref.view(None)
            if not isinstance(eng, UpDownState) or not isinstance(view, UpDownView):
                return
            if view.phase == "over" or ref.stopped is not None:
                return
            seat = view.to_move if view.drawing is None else view.drawing
            assert seat is not None
            name = self.players[seat]
            if view.phase == "draw":
                yield from _draw(board, table, uid_of[eng.stack[0]], name)  # the stack's top card
                continue
            todo = eng.hint() or ()
            if not todo:  # three turned: the referee ends the turn once the board is still
                yield "", 0.3
                continue
            if not mistake_made and view.turn >= 2 and len(todo) == 3:
                mistake_made = True
                b = next(h for h in range(1, 11) if h not in todo)
                yield from _wrong_hole(board, table, todo[0], b, name)
                continue
            yield from _turn(board, table, todo[0], name)


def _draw(board: SimBoard, table: Table, uid: str, name: str) -> Iterator[DemoStep]:
    """A player draws the card `uid` and taps it on the reader, then takes it off."""
    mark = len(table.replies)
    board.tap(uid)
    yield Msg("{name} draws a card and taps it on the reader", name=name), 0.5
    yield from _heard(table, mark, _card(uid, True))
    mark = len(table.replies)
    board.remove()
    yield "", 0.4
    yield from _heard(table, mark, _card(uid, False))


def _turn(board: SimBoard, table: Table, a: int, name: str) -> Iterator[DemoStep]:
    """A player pulls the pair out of hole `a` and puts it back turned (in a resumed game, the
    pair may be out already: the host went down while it was in the player's hand)."""
    pa = _hole_state(board, a)
    if not pa.get("pair"):
        yield from _put_back(board, table, a, name)
        return
    mark = len(table.replies)
    board.pull(a)
    yield "", 0.25
    yield from _heard(table, mark, _hole(a, False))
    mark = len(table.replies)
    board.insert(a, pa["pair"], pa["up"])
    yield Msg("{name} turns the pair in hole {hole}", name=name, hole=a), 0.5
    yield from _heard(table, mark, _hole(a, True))


def _put_back(board: SimBoard, table: Table, a: int, name: str) -> Iterator[DemoStep]:
    """The pair pulled out of hole `a` before a resume goes back turned: the referee's record of
    what stood up in the hole before it was pulled says which pair and which end."""
    pulled = next((obs.old.end for inp, _reply in reversed(table.replies)
                   if isinstance(obs := getattr(inp, "observation", None), HoleObservation)
                   and obs.hole == a and obs.new_code == EMPTY), None)
    if pulled is None:
        yield Msg(
            "(hole {hole} is empty and the referee never saw its pair leave: the demo stops)", hole=a
        ), 0.2
        return
    mark = len(table.replies)
    board.insert(a, pulled.pair_id, pulled.visible)
    yield Msg("{name} puts the pair in hand back into hole {hole}, turned", name=name, hole=a), 0.5
    yield from _heard(table, mark, _hole(a, True))


def _wrong_hole(board: SimBoard, table: Table, a: int, b: int, name: str) -> Iterator[DemoStep]:
    """The mistake: a player puts the pair of hole `a`, turned, into hole `b`; told by the
    referee (M-2), takes it out again, puts it back into `a` and `b`'s pair back as it was."""
    pa, pb = _hole_state(board, a), _hole_state(board, b)
    mark = len(table.replies)
    board.pull(a)
    board.pull(b)
    yield Msg("{name} pulls the pairs out of holes {a} and {b}...", name=name, a=a, b=b), 0.3
    yield from _heard(table, mark, _hole(a, False), _hole(b, False))
    mark = len(table.replies)
    board.insert(b, pa["pair"], pa["up"])
    yield Msg("...and puts the pair from hole {a} into hole {b}", a=a, b=b), 2.0
    yield from _heard(table, mark, _hole(b, True))
    mark = len(table.replies)
    board.pull(b)
    yield Msg("{name} takes it out of hole {hole} again...", name=name, hole=b), 0.3
    yield from _heard(table, mark, _hole(b, False))
    mark = len(table.replies)
    board.insert(a, pa["pair"], pa["up"])
    yield Msg("...and puts it back into hole {hole}, turned", hole=a), 0.6
    yield from _heard(table, mark, _hole(a, True))
    mark = len(table.replies)
    board.insert(b, pb["pair"], pb["down"])
    yield Msg("...and the other pair back into hole {hole} as it was", hole=b), 0.8
    yield from _heard(table, mark, _hole(b, True))


def _hole_state(board: SimBoard, h: int) -> dict[str, str]:
    """What the simulated board says lies in hole `h`: its pair and its sides."""
    st: dict[str, str] = board.state()["holes"][h - 1]
    return st


def draw_step(table: StepTable) -> StepPlan:
    """`upref simctl draw`: the player who draws now takes the stack's top card (by the
    referee's record of the stack) and taps it on the reader.

    :raises ValueError: when nobody draws now.
    """
    ref = table.referee
    view = ref.view(None) if ref.has_engine else None
    if not isinstance(view, UpDownView) or view.phase != "draw" or ref.stopped is not None:
        raise ValueError(
            Msg(
                "nobody draws a task card now: the scoreboard's 'Waiting for' line says what the "
                "table waits for"
            )
        )
    eng = ref.engine
    seat = view.to_move if view.drawing is None else view.drawing
    card = eng.stack[0]
    name = view.names[seat] if seat is not None else Msg("The player")
    words = eng.catalogue.card(card).describe()
    return StepPlan(
        taps(table.board, [table.uid_of[card]]),
        Msg(
            "{name} draws {card} ({what}) from the top of the stack and taps it on the reader.",
            name=name,
            card=card,
            what=words,
        ),
    )


STEPS = {
    "draw": TableStep(
        Msg("the player who draws takes the stack's top card and taps it"), draw_step
    ),
}
"""Up And Down's whole table steps by hand (`upref simctl draw`); re-mixing the pairs is the
simulator's own `remix`."""
