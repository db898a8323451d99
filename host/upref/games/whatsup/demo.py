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
from upref.game import DemoStep
from upref.games.whatsup.engine import WhatsUpState
from upref.games.whatsup.referee import FIGURINE_KEY
from upref.games.whatsup.variant import Variant
from upref.referee.inputs import Key

if TYPE_CHECKING:
    from upref.sim.board import SimBoard
    from upref.table import Table

__all__ = ["WhatsUpDemo"]

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
        ref = table.referee

        def game() -> WhatsUpState | None:
            if not ref.has_engine:
                return None
            eng = ref.engine
            return eng if isinstance(eng, WhatsUpState) else None

        def seen(uid: str, arrived: bool, mark: int) -> bool:
            """Whether the referee has had the card's arrival (or departure) since reply `mark`
            (not merely among the last few replies: on a noisy line other replies may come
            between, and an earlier tap of the same card is not this one)."""
            for inp, _ in table.replies[mark:]:
                obs = getattr(inp, "observation", None)
                if isinstance(obs, CardObservation) and (obs.uid, obs.arrived) == (uid, arrived):
                    return True
            return False

        def settle(uid: str, arrived: bool, mark: int) -> None:
            """Let the table take in the card's arrival (or departure) before the story goes
            on, as people wait for the referee's word. This waits inside the step, so that
            `make bench` times only the taps."""
            end = time.monotonic() + WAIT_S
            while not seen(uid, arrived, mark) and time.monotonic() < end:
                table.pump(0.02)

        phase = random.Random(self.seed + 1)

        def tap(card: str) -> Iterator[DemoStep]:
            """A card onto the reader, its verdict, and the card off again once the board has
            reported it gone. People do not tap in step with the reader's polls: a random
            moment of its 100 ms period."""
            uid = uid_of[card]
            table.pump(phase.uniform(0.0, 0.1))
            mark = len(table.replies)
            board.tap(uid)
            yield "", TAP_S
            settle(uid, True, mark)
            mark = len(table.replies)
            board.remove()
            settle(uid, False, mark)

        eng = game()
        if eng is None:
            return
        # the players ask the referee what is done (a resumed game's table starts with the
        # log's replies): which cards are laid, where the figurines stand, whether the refusal
        # came; each turn's choices are seeded by its number, so a resumed game chooses alike
        order = sorted({*eng.unlaid(), *eng.table()})
        random.Random(self.seed).shuffle(order)
        laid = set(eng.table())
        if len(laid) < len(order):
            yield "The players lay out the 30 cards, 6 by 5, and tap each card as they lay it", 0.1
        for card in order:
            if card not in laid:
                yield from tap(card)

        def pick(turn: int, what: str) -> random.Random:
            """The random choice of turn `turn` (`what`: which of its choices)."""
            return random.Random(f"{self.seed}/{turn}/{what}")

        def refused() -> bool:
            return any(v.rule == "A-1" for _inp, reply in table.replies for v in reply.public)

        def reserved_card(g: WhatsUpState) -> str | None:
            """The card a figurine stands on, if any."""
            for s in range(len(self.players)):
                where = g.figurine(s)
                if where not in (None, "spent"):
                    return where
            return None

        while (eng := game()) is not None and ref.phase == "play" and not eng.is_terminal():
            seat = eng.current_player()
            if seat < 0:
                yield "", 0.2
                continue
            name = self.players[seat]
            turn = eng.turn
            reserved = reserved_card(eng)
            free = [c for c in eng.flippable(seat) if c != reserved or eng.figurine_on(c) == seat]

            def fitting(cards: list[str], g: WhatsUpState = eng, s: int = seat) -> list[str]:
                return [c for c in cards if g.fits(s, g.down(c))]

            def unfitting(cards: list[str], g: WhatsUpState = eng, s: int = seat) -> list[str]:
                return [c for c in cards if not g.fits(s, g.down(c))]

            if turn == 2 and eng.figurine(seat) is None:
                # Bob reserves a card whose other side he wants, then flips one that will not fit
                target = pick(turn, "reserve").choice(fitting(free) or free)
                if ref.armed != seat:
                    yield f"{name} presses f on the host for the figurine", 0.0
                    table.send(Key(FIGURINE_KEY, table.clock()))
                yield f"{name} puts the figurine on a card and taps that card", 0.2
                yield from tap(target)
                continue
            if turn == 2 and reserved is not None and eng.figurine_on(reserved) == seat:
                choice = pick(turn, "flip").choice(unfitting([c for c in free if c != reserved]) or free)
                yield f"{name} flips another card and taps it", 0.0
                yield from tap(choice)
                continue
            if reserved is not None and not refused() and eng.figurine_on(reserved) not in (None, seat):
                yield f"{name} flips {self.players[eng.figurine_on(reserved) or 0]}'s reserved card", 0.0
                yield from tap(reserved)
                yield f"{name} turns it back as the referee says", 0.3
            if reserved is not None and eng.figurine_on(reserved) == seat:
                choice = reserved
            elif turn in (1, 3, 7):
                fit = fitting(free)
                grows = [c for c in fit if eng.down(c).count > 1]  # a row's second card
                choice = pick(turn, "flip").choice(grows or fit or free)
            else:
                choice = pick(turn, "flip").choice(unfitting(free) or free)
            yield f"{name} flips a card and taps it", 0.0
            yield from tap(choice)
