"""Up's demo, and the people at an Up table as a script.

The cards really lie somewhere: a dealt-by-the-engine `UpState` (the *table*, seeded) holds every
card, and sensible players (`choose`) pick their plays from it. What they do is turned into what
the referee sees (`steps_for`): card taps, the board's button, keys at the host. The demo plays
one round (the evening's only round) for three players on the simulated board: the deal's
face-up cards are tapped, one player tries a face-up card in the first turn and takes it back
(U-12), the first "last card" is forgotten (U-11), and the round ends with the count and the
evening's winner (`--rounds N`: N rounds, the mistakes in the first). Tests feed a referee the
same way without a board.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from upref.board.model import ButtonObservation, CardObservation
from upref.game import DemoStep, StepPlan, StepTable, TableStep
from upref.games.up.actions import DOWN, HAND, UP, Action, Call, Cut, DirtyOne, Pass, Play
from upref.games.up.cards import DISPOSAL, MINUS2, NUMBER
from upref.games.up.engine import UpState
from upref.games.up.scoring import EVENING_OVER
from upref.games.up.state import FACE_UP
from upref.games.up.variant import Variant
from upref.players import taps
from upref.referee.inputs import Key, NextGame

if TYPE_CHECKING:
    from upref.sim.board import SimBoard
    from upref.table import Table

__all__ = ["STEPS", "Step", "UpDemo", "choose", "count_steps", "deal_step", "deal_steps", "steps_for"]


@dataclass(frozen=True)
class Step:
    """One thing a person does: `tap` a card (its id), press a `key` (its input name, with an
    answer `arg`), or `press` the board's button."""

    kind: str
    what: str = ""
    arg: str | None = None


def deal_steps(table: UpState) -> list[Step]:
    """The face-up cards tapped as they are dealt (the table's round just cut): one card to each
    player from the dealer's left, four times."""
    n = table.num_players()
    order = [(table.leader + i) % n for i in range(n)]
    return [Step("tap", table.face_up(p)[k]) for k in range(4) for p in order]


def steps_for(table: UpState, action: Action) -> list[Step]:
    """What people do at the table for `action` (on `table` before it is applied): a kept cut
    card is announced with k and tapped; a face-down card is announced with b; each added equal
    card with +."""
    if isinstance(action, Cut):
        return [] if action.card is None else [Step("key", "keep"), Step("tap", action.card)]
    if isinstance(action, Play):
        first, *rest = action.cards
        steps = [Step("key", "blind")] if action.source == DOWN else []
        steps.append(Step("tap", first))
        for card in rest:
            steps += [Step("key", "join"), Step("tap", card)]
        return steps
    if isinstance(action, Call):
        return [Step("press")]
    if isinstance(action, Pass):
        return [Step("key", "pass")]
    if isinstance(action, DirtyOne):
        return [Step("key", "dirty")]
    raise ValueError(f"no table steps for {action!r}")


def count_steps(table: UpState, seat: int, known: set[str]) -> list[Step]:
    """At the count: `seat` taps the cards still held that the referee has not seen (`known`:
    the cards the referee has placed)."""
    cards = (*table.hand(seat), *table.face_down(seat))
    return [Step("tap", c) for c in cards if c not in known]


def choose(table: UpState, rng: random.Random, *, call: bool = True) -> Action:
    """A sensible player's action on `table` (dealt by the engine): the cut card kept when
    allowed; "last card" called when due (unless `call` is False: forgotten); else the play
    that gets rid of the most cards without bringing the tower down (face-up first, so that the
    face-down cards come into play), then a disposal card, then a -2 that keeps the tower, then
    a blind card, and only then a card that brings the tower down (the lowest)."""
    acts = table.legal_actions()
    if not acts:
        raise ValueError(f"nothing to do in {table!r}")
    cuts = [a for a in acts if isinstance(a, Cut)]
    if cuts:
        return max(cuts, key=lambda a: a.card is not None)
    calls = [a for a in acts if isinstance(a, Call)]
    if calls and call:
        return calls[0]
    plays = [a for a in acts if isinstance(a, Play)]
    if not plays:
        passes = [a for a in acts if isinstance(a, Pass)]
        return passes[0] if passes else rng.choice(acts)
    if rng.random() < 0.2:  # people are not machines: now and then any card will do
        return rng.choice(plays)
    cat = table.catalogue
    threshold = table.threshold
    founding = table.founding

    def card(a: Play) -> Any:
        return cat.card(a.cards[0])

    def keeps(a: Play) -> bool:
        c = card(a)
        if c.kind == NUMBER:
            return founding or (threshold is not None and c.value <= threshold)
        if c.kind == MINUS2:
            return threshold is not None and threshold - 2 * len(a.cards) >= 1
        return False

    def rank(a: Play) -> tuple[int, int, int, float]:
        src = {UP: 2, HAND: 1, DOWN: 0}[a.source]
        return (len(a.cards), src, card(a).value, rng.random())

    numbers = [a for a in plays if card(a).kind == NUMBER and a.source != DOWN and keeps(a)]
    if numbers:
        return max(numbers, key=rank)
    disposals = [a for a in plays if card(a).kind == DISPOSAL and a.source != DOWN]
    if disposals and not founding:
        return disposals[0]
    minus = [a for a in plays if card(a).kind == MINUS2 and a.source != DOWN and keeps(a)]
    if minus:
        return min(minus, key=lambda a: len(a.cards))
    blind = [a for a in plays if a.source == DOWN]
    if blind:
        return rng.choice(blind)
    if disposals:
        return disposals[0]
    return min(plays, key=lambda a: (card(a).value if card(a).kind == NUMBER else 99, -len(a.cards)))


class UpDemo:
    """The scripted players (`upref.game.Demo`)."""

    players = ("Ann", "Bob", "Cy")
    seed = 23
    settings: dict[str, Any] = {}

    def variant(self, options: argparse.Namespace) -> Variant:
        rounds = getattr(options, "rounds", None)
        return Variant(rounds=rounds if rounds is not None else 1)

    def script(self, board: SimBoard, table: Table, uid_of: dict[str, str]) -> Iterator[DemoStep]:
        yield from _Players(self, board, table, uid_of).play()


class _Players:
    """The people at one Up table during the demo, their story told in steps: each round's cut
    and deal, its turns (with the first round's mistakes), the count and the next round. The
    cards lie in `truth`, the table as the script knows it."""

    def __init__(self, demo: UpDemo, board: SimBoard, table: Table, uid_of: dict[str, str]) -> None:
        self.board, self.table, self.uid_of = board, table, uid_of
        self.ref = ref = table.referee
        variant = ref.engine.variant if ref.has_engine else demo.variant(argparse.Namespace())
        self.truth = UpState.new(demo.players, rng=demo.seed, variant=variant)
        self.rng = random.Random(demo.seed)
        self.names = demo.players
        self.faces = self.truth.catalogue
        # a resumed game's table starts with the log's replies: the players go through the story
        # without doing anything for the steps the referee has had (one input each), and go on
        # from there, be it in the middle of a play (a host killed between a card and the next)
        self.skip = sum(1 for inp, _reply in table.replies if _is_step(inp))
        self.live = self.skip == 0

    def catch_up(self) -> None:
        """A resumed game's players do things from the first step the referee has not had."""
        if not self.live and self.skip <= 0:
            self.live = True

    def do(self, steps: list[Step], who: str) -> Iterator[DemoStep]:
        """The steps done at the table (nothing while the players catch up with a resumed
        game): taps waited on until the referee has them, keys, the button."""
        board, table = self.board, self.table
        for st in steps:
            if not self.live:  # a step the referee has had already
                self.skip -= 1
                self.catch_up()
                continue
            mark = len(table.replies)
            if st.kind == "tap":
                uid = self.uid_of[st.what]
                board.tap(uid)
                # long enough for the verdict to come (the bench times tap -> verdict here)
                yield f"{who} taps the {self.faces.card(st.what).face}", 0.2
                yield from _wait_seen(table, mark, uid)
                mark = len(table.replies)
                board.remove()
                yield "", 0.05
                yield from _wait_seen(table, mark, uid, arrived=False)
            elif st.kind == "key":
                table.send(Key(st.what, table.clock(), st.arg))
                yield f"{who} presses the '{st.what}' key", 0.05
            else:
                board.button("click")
                yield f"{who} presses the button: 'last card'!", 0.05
                yield from _wait_seen(table, mark, None)

    def play(self) -> Iterator[DemoStep]:
        """The evening: round after round until the referee says it is over."""
        first = True
        while True:
            cut = choose(self.truth, self.rng)
            yield from self.do(steps_for(self.truth, cut), self.names[self.truth.cutter])
            self.truth.play(cut)
            yield from self.do(deal_steps(self.truth), self.names[self.truth.dealer] + " deals;")
            self.catch_up()
            if not (yield from self.turns(first)):
                return
            if not self.live and self.ref.has_engine and self.ref.engine.phase == "count":
                self.live = True  # resumed during the count: what is left is the referee's to say
            if not self.live:
                yield "the script never came to the referee's table: the demo stops", 0.1
                return
            eng = self.ref.engine
            if not (yield from self.count(eng)):
                return
            out = eng.outcome()
            if out is None or out.termination in EVENING_OVER or self.ref.stopped is not None:
                return
            self.table.send(NextGame(self.table.clock()))
            yield "The next round", 0.1
            self.truth = self.truth.next_round()
            first = False

    def turns(self, first: bool) -> Generator[DemoStep, None, bool]:
        """A round's turns until it is over; in the `first` round one player tries a face-up
        card too early and the first "last card" is forgotten. False: the referee sees another
        table than the script, and the demo stops."""
        truth, names = self.truth, self.names
        forgot = tried = not first  # the mistakes are made in the first round
        second = (truth.leader + 1) % len(names)
        while not truth.is_terminal():
            seat = truth.current_player()
            action = choose(truth, self.rng, call=forgot)
            if isinstance(action, Play | Pass) and truth.call_due not in (None, action.seat):
                forgot = True  # nobody remembered 'last card' this time
            if not tried and seat == second and truth.first_turn(seat) and truth.face_up(seat):
                tried = True
                wrong = truth.face_up(seat)[-1]
                yield from self.do([Step("tap", wrong)], names[seat] + " tries a face-up card:")
                yield f"{names[seat]} takes the card back", 0.2
            yield from self.do(steps_for(truth, action), names[getattr(action, "seat", seat)])
            truth.play(action)
            self.catch_up()
            if self.live and not _agrees(self.ref, truth):
                yield "the referee sees another table than the script: the demo stops", 0.1
                return False
        return True

    def count(self, eng: UpState) -> Generator[DemoStep, None, bool]:
        """The count: each seat the referee counts taps the cards it has not seen, one at a
        time. False: a seat has nothing left to tap, and the demo stops."""
        while eng.phase == "count" and eng.counting is not None:
            seat = eng.counting
            known = {c for c in self.truth.deck if eng.locate(c)[0] != "unseen"}
            steps = count_steps(self.truth, seat, known)
            if not steps:
                return False
            yield from self.do(steps[:1], self.names[seat] + " counts:")
        return True

def _seen(table: Table, mark: int, uid: str | None, arrived: bool = True) -> bool:
    """Whether the referee has had, since reply `mark`, the card `uid` arrive (or leave) on the
    reader (`uid` None: a button press)."""
    for inp, _reply in table.replies[mark:]:
        obs = getattr(inp, "observation", None)
        if uid is None and isinstance(obs, ButtonObservation) and obs.pressed:
            return True
        if uid is not None and isinstance(obs, CardObservation) and obs.arrived == arrived:
            if obs.uid.upper() == uid.upper():
                return True
    return False


def _wait_seen(
    table: Table, mark: int, uid: str | None, *, arrived: bool = True, limit_s: float = 10.0
) -> Iterator[DemoStep]:
    """Let the table pump until the referee has had the card `uid` arrive (or leave; `uid`
    None: a button press) since reply `mark`, at most `limit_s`: what people do next (a key, the
    same card tapped again) then comes after it, as at the table."""
    waited = 0.0
    while not _seen(table, mark, uid, arrived) and waited < limit_s:
        yield "", 0.05
        waited += 0.05


def _is_step(inp: object) -> bool:
    """Whether `inp` is what one of the players' steps gives the referee: a card arriving on
    the reader, a key, the button pressed."""
    obs = getattr(inp, "observation", None)
    return isinstance(inp, Key) or (isinstance(obs, CardObservation) and obs.arrived) or (
        isinstance(obs, ButtonObservation) and obs.pressed)


def _agrees(ref: Any, truth: UpState) -> bool:
    """Whether the referee's round shows what the table shows (tower, cards by source)."""
    view, want = ref.view(None), truth.view(None)
    if view is None:
        return False
    if view.phase == "count" and want.phase == "over":
        return True
    same = view.tower == want.tower and view.to_move == want.to_move
    return same and all(
        (a.hand, a.up, a.down, a.skip) == (b.hand, b.up, b.down, b.skip)
        for a, b in zip(view.players, want.players, strict=True)
    )


def deal_step(table: StepTable) -> StepPlan:
    """`upref simctl deal`: the rest of the deal's face-up cards, tapped as they are dealt, one
    to each player from the dealer's left (cards the referee has not seen, drawn from the
    game's seed and round). At the cut it means nobody keeps a cut card.

    :raises ValueError: when no deal is under way.
    """
    ref = table.referee
    eng = ref.engine if ref.has_engine else None
    if not isinstance(eng, UpState) or eng.phase not in ("cut", "deal") or ref.stopped is not None:
        raise ValueError(
            "no deal is under way: the scoreboard's 'Waiting for' line says what the table "
            "waits for"
        )
    n = eng.num_players()
    dealt = eng.view(None).dealt if eng.phase == "deal" else 0
    first = (eng.dealer + 1 + dealt) % n
    unseen = sorted(c for c in eng.deck if eng.locate(c)[0] == "unseen")
    random.Random(f"{table.seed}/{eng.round}").shuffle(unseen)
    cards = unseen[: FACE_UP * n - dealt]
    faces = eng.catalogue
    who = [eng.players[(first + i) % n] for i in range(len(cards))]
    told = "; ".join(f"{w} {c} ({faces.card(c).face})" for w, c in zip(who, cards, strict=True))
    return StepPlan(
        taps(table.board, [table.uid_of[c] for c in cards]),
        f"Dealt and tapped {len(cards)} face-up cards: {told}.",
    )


STEPS = {"deal": TableStep("deal the face-up cards still to deal, each tapped as it is dealt", deal_step)}
"""Up's whole table steps by hand (`upref simctl deal`); a play is one `touch A7`."""
