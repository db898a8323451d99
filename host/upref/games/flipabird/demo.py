"""Flip a Bird's demo: three players, a short game (a draw pile of 15 cards). The table deals,
taps the draw pile card by card as it stacks it (the set-up scan), and plays: each player draws
and taps the card they play, claims when their guess of the row's birds is over the limit (by
the button or the key), taps a tip card or presses a key for their tip, and taps the cards they
take. Bob draws two cards on his first turn and plays the second: the referee refuses it by the
scan, he puts it back and plays from his hand. At the end every player taps their won cards.

The players only guess the row (face-up birds plus two a face-down card), so claims go either
way; the deal (the demo's seed) was chosen so that one claim proves red right, another green
right, and the all-face-up rule removes a row.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from upref.board.model import ButtonObservation, CardObservation
from upref.game import DemoStep, StepPlan, StepTable, TableStep
from upref.games.flipabird.actions import Claim, Pass, Play, Take, Tip
from upref.games.flipabird.cards import Catalogue, load_catalogue
from upref.games.flipabird.engine import FlipABirdState
from upref.games.flipabird.position import deal
from upref.games.flipabird.referee import FlipReferee
from upref.games.flipabird.variant import Variant
from upref.games.flipabird.words import colour_word, face_word
from upref.players import taps
from upref.referee.inputs import Key, Observe
from upref.text import Msg

if TYPE_CHECKING:
    from upref.sim.board import SimBoard
    from upref.table import Table

__all__ = ["STEPS", "FlipDemo", "events", "guess", "pick_take", "scan_step", "wants_claim"]

PILE = 15
TAP_S = 0.3  # a card on the reader: the reader is polled ten times a second
OFF_S = 0.1


def guess(eng: FlipABirdState) -> int:
    """A player's guess of the row: the birds on face-up bird cards, two for a face-down card."""
    total = 0
    for r in eng.row:
        if not r.up:
            total += 2
            continue
        card = eng.catalogue.card(r.card)
        total += card.birds
    return total


def wants_claim(eng: FlipABirdState) -> bool:
    return bool(eng.row) and guess(eng) > eng.limit


def pick_take(eng: FlipABirdState, seat: int) -> str:
    """The card a taker chooses: a bird card of the colour they have fewest of (sets of four
    colours score), else a special card, else the first left."""
    claim = eng.claim_state
    assert claim is not None
    have: dict[str | None, int] = {}
    for c in eng.won(seat):
        have[c.colour] = have.get(c.colour, 0) + 1
    cards = [eng.catalogue.card(x) for x in claim.left]
    birds = [c for c in cards if c.is_bird]
    if birds:
        return min(birds, key=lambda c: (have.get(c.colour, 0), -c.birds)).id
    return cards[0].id


class FlipDemo:
    """The scripted players (`upref.game.Demo`)."""

    players = ("Ann", "Bob", "Cy")
    seed = 1965
    settings: dict[str, Any] = {}

    def variant(self, options: argparse.Namespace) -> Variant:
        pile = getattr(options, "pile", None)
        return Variant(pile=pile if pile is not None else PILE)

    def script(self, board: SimBoard, table: Table, uid_of: dict[str, str]) -> Iterator[DemoStep]:
        yield from _Players(self, board, table, uid_of).play()


class _Players:
    """The three players at one table during the demo, their story told in steps: the deal and
    the set-up scan, then each turn (tips, a take, a pass, a claim, a play), then the won cards
    tapped at the end."""

    def __init__(self, demo: FlipDemo, board: SimBoard, table: Table, uid_of: dict[str, str]) -> None:
        self.board, self.table, self.uid_of = board, table, uid_of
        self.ref = table.referee
        cat = getattr(self.ref, "catalogue", None) or load_catalogue()
        variant = demo.variant(argparse.Namespace())
        self.pile, self.hands, self.box = deal(len(demo.players), random.Random(demo.seed), variant, cat)
        self.mistake = False

    def play(self) -> Iterator[DemoStep]:
        """The whole demo game, from the deal to the won cards."""
        ref = self.ref
        yield from self.scan()
        self.mistake = any(v.kind == "illegal" for _i, reply in self.table.replies for v in reply.public)
        for _ in range(600):
            if not ref.has_engine or ref.phase != "play":
                break
            yield from self.step(ref.engine)
        if not ref.has_engine or ref.engine.outcome() is None:
            return
        yield from self.count_won(ref.engine)

    def hand_of(self, eng: FlipABirdState, seat: int) -> list[str]:
        """What the player holds, oldest first, as the engine knows it (a resumed game's
        players go on with what they hold): the dealt cards not played yet (the players
        play their oldest card first) and the cards they drew."""
        dealt = list(self.hands[seat])
        left = eng.unknown(seat)
        return dealt[len(dealt) - left:] + list(eng.hand(seat))

    def tap(self, card: str, what: str) -> Iterator[DemoStep]:
        """Tap a card and take it off once the referee has it (or after 10 s: a busy
        machine, a noisy line whose lost frames the link asks the board for again)."""
        table = self.table
        uid = self.uid_of[card]
        seen = len(table.replies)
        self.board.tap(uid)
        yield what, TAP_S
        for _ in range(200):
            if any(
                isinstance(i, Observe)
                and isinstance(i.observation, CardObservation)
                and i.observation.arrived
                and i.observation.uid == uid
                for i, _r in table.replies[seen:]
            ):
                break
            yield "", 0.05
        self.board.remove()
        yield "", OFF_S

    def press(self, what: str) -> Iterator[DemoStep]:
        """Click the button and wait until the referee has the press (at most 10 s): a
        claim the referee has not heard yet is not made twice."""
        table = self.table
        seen = len(table.replies)
        self.board.button("click")
        yield what, 0.4
        for _ in range(200):
            if any(
                isinstance(i, Observe)
                and isinstance(i.observation, ButtonObservation)
                and i.observation.pressed
                for i, _r in table.replies[seen:]
            ):
                break
            yield "", 0.05

    def key(self, what: str, name: str, arg: str | None = None) -> Iterator[DemoStep]:
        """Say what a player does, then press the key `name` at the host (timed after the
        words, as a person's press is)."""
        yield what, 0.05
        self.table.send(Key(name, self.table.clock(), arg))
        yield "", 0.3

    def scan(self) -> Iterator[DemoStep]:
        """The deal, then the draw pile tapped card by card as it is stacked (the cards the
        referee has already had, in a resumed game, are not tapped again)."""
        ref, pile = self.ref, self.pile
        yield (
            Msg(
                "The table shuffles and deals two cards to each player; {n} cards go back in the box",
                n=len(self.box),
            ),
            0.2,
        )
        seen_cards = {
            i.observation.uid
            for i, _r in self.table.replies
            if isinstance(i, Observe) and isinstance(i.observation, CardObservation) and i.observation.arrived
        }
        scanned = ref.has_engine and ref.engine.scanned
        for k, card in enumerate(reversed(pile), start=1):
            if scanned or self.uid_of[card] in seen_cards:
                continue  # the referee has it (a resumed game)
            said = Msg("Scan: card {k} of {n} onto the draw pile", k=k, n=len(pile)) if k in (1, len(pile)) else ""
            yield from self.tap(card, said)

    def step(self, eng: FlipABirdState) -> Iterator[DemoStep]:
        """One step of play: the tips, a take, or the turn of the player to move."""
        if eng.phase == "tips":
            yield from self.tips(eng)
            return
        if eng.phase == "take":
            seat = eng.taker()
            assert seat is not None
            card = pick_take(eng, seat)
            yield from self.tap(card, Msg("{name} takes {card}", name=eng.players[seat], card=card))
            return
        yield from self.turn(eng)

    def tips(self, eng: FlipABirdState) -> Iterator[DemoStep]:
        """Every player without a tip gives one: odd seats tap a tip card, even seats key it."""
        names = eng.players
        tips = eng.tips() or ()
        for seat, tip in enumerate(tips):
            if tip is None:
                red = wants_claim(eng)
                colour = "red" if red else "green"
                if seat % 2:
                    yield from self.tap(f"TIP-{'R' if red else 'G'}{seat + 1}", _tapped_tip(names[seat], red))
                else:
                    said = Msg(
                        "{name} reveals {colour}; the tip is entered with key {key}",
                        name=names[seat],
                        colour=colour_word(colour),
                        key=seat + 1,
                    )
                    yield from self.key(said, "tip", f"{seat + 1} {colour}")

    def turn(self, eng: FlipABirdState) -> Iterator[DemoStep]:
        """The player to move passes, claims (by the button or the key) or draws and plays,
        Bob once drawing two cards by mistake."""
        seat = eng.current_player()
        name = eng.players[seat]
        if eng.can_pass():
            yield from self.key(Msg("{name} has no card left and does not claim (key p)", name=name), "pass")
            return
        if wants_claim(eng):
            if eng.turn % 2:
                yield from self.press(Msg("{name} presses the button: \"Bei dir piept's wohl!\"", name=name))
            else:
                said = Msg("{name} claims with the key c: \"Bei dir piept's wohl!\"", name=name)
                yield from self.key(said, "claim")
            return
        hand = self.hand_of(eng, seat)
        stack = list(eng.pile or ())
        if not eng.final:
            hand.append(stack.pop(0))
        if not self.mistake and seat == 1 and len(stack) >= 2:
            self.mistake = True
            yield from self.tap(stack[0], Msg("{name} draws two cards by mistake and plays the second", name=name))
            yield Msg("{name} puts it back on the pile", name=name), 0.3
        card = hand.pop(0)
        yield from self.tap(card, Msg("{name} draws and plays a card", name=name))

    def count_won(self, eng: FlipABirdState) -> Iterator[DemoStep]:
        """At the end every player taps their won cards and presses the button (in a resumed
        game, from the seat and the card the referee has got to)."""
        ref = self.ref
        for seat, name in enumerate(eng.players):
            if getattr(ref, "confirming", seat) != seat:
                continue  # confirmed before the host went down
            for c in eng.won(seat):
                if c.id in getattr(ref, "confirmed", ()):
                    continue  # tapped before the host went down
                yield from self.tap(c.id, "")
            yield from self.press(Msg("{name} has tapped their won cards and presses the button", name=name))


def _tapped_tip(name: str, red: bool) -> str:
    if red:
        return Msg("{name} reveals a red tip card and taps it", name=name)
    return Msg("{name} reveals a green tip card and taps it", name=name)


def events(seed: int, catalogue: Catalogue | None = None) -> set[str]:
    """What the demo's players would bring about with this deal, played on the engine alone
    (to choose the demo's seed): 'red', 'green', 'F-9', 'end'."""
    cat = catalogue or load_catalogue()
    demo = FlipDemo()
    pile, hands, _box = deal(3, random.Random(seed), demo.variant(argparse.Namespace()), cat)
    eng = FlipABirdState.new(demo.players, pile=pile, variant=demo.variant(argparse.Namespace()), catalogue=cat)
    seats = [list(h) for h in hands]
    stack = list(pile)
    seen: set[str] = set()
    for _ in range(1000):
        if eng.outcome() is not None:
            seen.add("end")
            break
        if eng.phase == "tips":
            tips = eng.tips() or ()
            for seat, tip in enumerate(tips):
                if tip is None:
                    eng.play(Tip(seat, wants_claim(eng)))
            ev = eng.evaluation
            if ev is not None:
                seen.add(ev.right)
            continue
        if eng.phase == "take":
            seat = eng.taker()
            assert seat is not None
            eng.play(Take(pick_take(eng, seat)))
            continue
        seat = eng.current_player()
        if eng.can_pass():
            eng.play(Pass())
            continue
        if wants_claim(eng):
            eng.play(Claim())
            continue
        if not eng.final:
            seats[seat].append(stack.pop(0))
        card = seats[seat].pop(0)
        text = eng.play(Play(card, bool(eng.required_face())))
        if "(F-9)" in text:
            seen.add("F-9")
    return seen



def scan_step(table: StepTable) -> StepPlan:
    """`upref simctl scan`: the rest of the pile scan, the draw pile built card by card, each
    tapped as it is laid on the pile (cards not tapped yet, drawn from the game's seed; the
    cards dealt to the players are those left over). The last card tapped is the top card.

    :raises ValueError: when no pile scan is under way.
    """
    ref = table.referee
    if not isinstance(ref, FlipReferee) or not ref.scanning:
        raise ValueError(
            Msg(
                "no pile scan is under way: the scan comes at the start of each game (n starts the "
                "next); the scoreboard's 'Waiting for' line says what the table waits for"
            )
        )
    done = set(ref.scanned)
    left = sorted(c.id for c in ref.catalogue.cards if c.id not in done)
    random.Random(f"{table.seed}/{len(done)}").shuffle(left)
    cards = left[: ref.scan_target - len(done)]
    return StepPlan(
        taps(table.board, [table.uid_of[c] for c in cards]),
        Msg(
            "Scanned {n} cards onto the draw pile, each tapped as it was laid; {top} lies on top. "
            "The other cards are the players' hands (2 each) and the box's.",
            n=len(cards),
            top=cards[-1] if cards else Msg("none"),
        ),
    )


def play_step(table: StepTable) -> StepPlan:
    """`upref simctl play`: the player to move draws and plays a card that can be in their
    hand by the referee's record (one of them, drawn from the game's seed and the turn), face
    up or down as the pile's back says, and taps it.

    :raises ValueError: when nobody plays a card now.
    """
    ref = table.referee
    eng = ref.engine if ref.has_engine else None
    plays = sorted({a for a in eng.legal_actions() if isinstance(a, Play)}) if eng else []
    if not isinstance(eng, FlipABirdState) or ref.phase != "play" or not plays:
        raise ValueError(
            Msg(
                "nobody plays a card now: the scoreboard's 'Waiting for' line says what the table "
                "waits for (a claim's tips are keys at the host)"
            )
        )
    pick = random.Random(f"{table.seed}/{ref.plays}").choice(plays)
    name = eng.players[eng.current_player()]
    return StepPlan(
        taps(table.board, [table.uid_of[pick.card]]),
        Msg("{name} plays {card} {face} and taps it.", name=name, card=pick.card, face=face_word(pick.up)),
    )


STEPS = {
    "scan": TableStep(Msg("build the draw pile, each card tapped as it is laid (the pile scan)"), scan_step),
    "play": TableStep(Msg("the player to move plays a card that can be in their hand, and taps it"), play_step),
}
"""Flip a Bird's whole table steps by hand (`upref simctl scan`); a play is one `touch R1a`."""
