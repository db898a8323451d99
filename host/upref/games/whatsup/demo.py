"""What's Up's demo: three players, the first game's rectangle. They lay out the thirty cards,
tapping each as they lay it; then each turn the player flips a card and taps it. The scripted
players have perfect memories (they read the referee's own record of the faces down), so the
story goes as planned: Ann takes a card; Bob puts his figurine on a card he wants and flips
another, which does not fit and stays; Cy tries to flip Bob's reserved card, is refused (A-1) and
turns it back, then takes a card; Bob takes his reserved card, and the figurine goes back into
the box; Ann takes a second card; then eight turns pass without an addition and the game ends
with the most birds winning.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from upref.board.model import CardObservation
from upref.game import DemoStep, StepPlan, StepTable, TableStep
from upref.games.whatsup.engine import WhatsUpState
from upref.games.whatsup.referee import FIGURINE_KEY
from upref.games.whatsup.variant import Variant
from upref.players import taps
from upref.referee.inputs import Key
from upref.text import Msg

if TYPE_CHECKING:
    from upref.sim.board import SimBoard
    from upref.table import Table

__all__ = ["STEPS", "WhatsUpDemo", "lay_step"]

TAP_S = 0.3
"""How long a card lies on the reader at least (the reader is polled ten times a second): the
step in which the referee's verdict arrives (`make bench` times it)."""
WAIT_S = 10.0
"""The longest wait for the referee to hear of a card (a busy machine, a noisy line whose lost
frames the link asks the board for again); the story goes on anyway and the scoreboard shows
what the referee saw."""


class WhatsUpDemo:
    """The scripted players (`upref.game.Demo`)."""

    players: tuple[str, ...] = ("Ann", "Bob", "Cy")
    seed = 5
    settings: dict[str, Any] = {}

    def variant(self, options: argparse.Namespace) -> Variant:
        return Variant(first_game=True)

    def script(self, board: SimBoard, table: Table, uid_of: dict[str, str]) -> Iterator[DemoStep]:
        yield from _Players(self, board, table, uid_of).play()


class _Players:
    """The three players at one table during the demo, their story told in steps: the cards
    laid out, then each turn (the figurine's reservation, the refused flip, the flips)."""

    def __init__(self, demo: WhatsUpDemo, board: SimBoard, table: Table, uid_of: dict[str, str]) -> None:
        self.demo, self.board, self.table, self.uid_of = demo, board, table, uid_of
        self.players = demo.players
        self.seed = demo.seed
        self.ref = table.referee
        self.phase = random.Random(self.seed + 1)

    def game(self) -> WhatsUpState | None:
        ref = self.ref
        if not ref.has_engine:
            return None
        eng = ref.engine
        return eng if isinstance(eng, WhatsUpState) else None

    def seen(self, uid: str, arrived: bool, mark: int) -> bool:
        """Whether the referee has had the card's arrival (or departure) since reply `mark`
        (not merely among the last few replies: on a noisy line other replies may come
        between, and an earlier tap of the same card is not this one)."""
        for inp, _ in self.table.replies[mark:]:
            obs = getattr(inp, "observation", None)
            if isinstance(obs, CardObservation) and (obs.uid, obs.arrived) == (uid, arrived):
                return True
        return False

    def settle(self, uid: str, arrived: bool, mark: int) -> None:
        """Let the table take in the card's arrival (or departure) before the story goes
        on, as people wait for the referee's word. This waits inside the step, so that
        `make bench` times only the taps."""
        end = time.monotonic() + WAIT_S
        while not self.seen(uid, arrived, mark) and time.monotonic() < end:
            self.table.pump(0.02)

    def tap(self, card: str) -> Iterator[DemoStep]:
        """A card onto the reader, its verdict, and the card off again once the board has
        reported it gone. People do not tap in step with the reader's polls: a random
        moment of its 100 ms period."""
        table = self.table
        uid = self.uid_of[card]
        table.pump(self.phase.uniform(0.0, 0.1))
        mark = len(table.replies)
        self.board.tap(uid)
        yield "", TAP_S
        self.settle(uid, True, mark)
        mark = len(table.replies)
        self.board.remove()
        self.settle(uid, False, mark)

    def pick(self, turn: int, what: str) -> random.Random:
        """The random choice of turn `turn` (`what`: which of its choices)."""
        return random.Random(f"{self.seed}/{turn}/{what}")

    def refused(self) -> bool:
        return any(v.rule == "A-1" for _inp, reply in self.table.replies for v in reply.public)

    def reserved_card(self, g: WhatsUpState) -> str | None:
        """The card a figurine stands on, if any."""
        for s in range(len(self.players)):
            where = g.figurine(s)
            if where not in (None, "spent"):
                return where
        return None

    def play(self) -> Iterator[DemoStep]:
        """The whole demo game: the lay-out, then turn after turn until the game is over."""
        eng = self.game()
        if eng is None:
            return
        yield from self.lay_out(eng)
        while (eng := self.game()) is not None and self.ref.phase == "play" and not eng.is_terminal():
            seat = eng.current_player()
            if seat < 0:
                yield "", 0.2
                continue
            yield from self.turn(eng, seat)

    def lay_out(self, eng: WhatsUpState) -> Iterator[DemoStep]:
        """The thirty cards laid out, each tapped as it is laid.

        The players ask the referee what is done (a resumed game's table starts with the
        log's replies): which cards are laid, where the figurines stand, whether the refusal
        came; each turn's choices are seeded by its number, so a resumed game chooses alike."""
        order = sorted({*eng.unlaid(), *eng.table()})
        random.Random(self.seed).shuffle(order)
        laid = set(eng.table())
        if len(laid) < len(order):
            yield Msg("The players lay out the 30 cards, 6 by 5, and tap each card as they lay it"), 0.1
        for card in order:
            if card not in laid:
                yield from self.tap(card)

    def turn(self, eng: WhatsUpState, seat: int) -> Iterator[DemoStep]:
        """One player's turn: Bob's reservation and his flip beside it on turn 2, else a
        flip (after trying someone's reserved card once, and being refused)."""
        name = self.players[seat]
        turn = eng.turn
        reserved = self.reserved_card(eng)
        free = [c for c in eng.flippable(seat) if c != reserved or eng.figurine_on(c) == seat]
        if turn == 2 and eng.figurine(seat) is None:
            yield from self.reserve(eng, seat, free)
            return
        if turn == 2 and reserved is not None and eng.figurine_on(reserved) == seat:
            choice = self.pick(turn, "flip").choice(_unfitting(eng, seat, [c for c in free if c != reserved]) or free)
            yield Msg("{name} flips another card and taps it", name=name), 0.0
            yield from self.tap(choice)
            return
        if reserved is not None and not self.refused() and eng.figurine_on(reserved) not in (None, seat):
            owner = self.players[eng.figurine_on(reserved) or 0]
            yield Msg("{name} flips {owner}'s reserved card", name=name, owner=owner), 0.0
            yield from self.tap(reserved)
            yield Msg("{name} turns it back as the referee says", name=name), 0.3
        if reserved is not None and eng.figurine_on(reserved) == seat:
            choice = reserved
        elif turn in (1, 3, 7):
            fit = _fitting(eng, seat, free)
            grows = [c for c in fit if eng.down(c).count > 1]  # a row's second card
            choice = self.pick(turn, "flip").choice(grows or fit or free)
        else:
            choice = self.pick(turn, "flip").choice(_unfitting(eng, seat, free) or free)
        yield Msg("{name} flips a card and taps it", name=name), 0.0
        yield from self.tap(choice)

    def reserve(self, eng: WhatsUpState, seat: int, free: list[str]) -> Iterator[DemoStep]:
        """Bob reserves a card whose other side he wants (he flips one that will not fit next)."""
        name = self.players[seat]
        target = self.pick(eng.turn, "reserve").choice(_fitting(eng, seat, free) or free)
        if self.ref.armed != seat:
            yield Msg("{name} presses f on the host for the figurine", name=name), 0.0
            self.table.send(Key(FIGURINE_KEY, self.table.clock()))
        yield Msg("{name} puts the figurine on a card and taps that card", name=name), 0.2
        yield from self.tap(target)


def _fitting(g: WhatsUpState, seat: int, cards: list[str]) -> list[str]:
    """The cards whose hidden side fits the seat's rows."""
    return [c for c in cards if g.fits(seat, g.down(c))]


def _unfitting(g: WhatsUpState, seat: int, cards: list[str]) -> list[str]:
    """The cards whose hidden side does not fit the seat's rows."""
    return [c for c in cards if not g.fits(seat, g.down(c))]


def lay_step(table: StepTable) -> StepPlan:
    """`upref simctl lay`: every card not laid out yet laid on the table, each tapped as it is
    laid (in an order drawn from the game's seed).

    :raises ValueError: when no game is being set up.
    """
    ref = table.referee
    eng = ref.engine if ref.has_engine else None
    if not isinstance(eng, WhatsUpState) or not eng.unlaid() or ref.stopped is not None:
        raise ValueError(
            Msg(
                "no card waits to be laid out: the lay-out is done (the game is on) or no game has "
                "begun (start one with upref play whatsup NAMES)"
            )
        )
    order = sorted(eng.unlaid())
    random.Random(table.seed).shuffle(order)
    return StepPlan(
        taps(table.board, [table.uid_of[c] for c in order]),
        Msg(
            "Laid out and tapped {n} cards, in this order: {order}. Each lies with the side the "
            "scoreboard names up.",
            n=len(order),
            order=", ".join(order),
        ),
    )


STEPS = {"lay": TableStep(Msg("lay out every card still to be laid, each tapped as it is laid"), lay_step)}
"""What's Up's whole table steps by hand (`upref simctl lay`); a flip is one `touch W05`."""
