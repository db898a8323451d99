"""A physical Up table for tests: where every card really is (an `UpState` dealt by the engine
from a seed: the *truth*), the people at it (sensible players from `upref.games.up.demo`, or the
test's own moves) and what their actions show a real `UpReferee`: card taps (arriving, then
leaving the reader), the board's button, keys at the host. A real tag book (SQLite in a
temporary folder) knows every card. No sleeps: time is a number the table moves on."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from pathlib import Path

from numbered_tags import numbered_uids
from tag_books import filled_book
from upref.board.codes import CodeTable
from upref.board.model import ButtonObservation, CardObservation
from upref.games.up import items
from upref.games.up.actions import Action, Call, DirtyOne, Pass
from upref.games.up.cards import Card
from upref.games.up.demo import Step, choose, count_steps, deal_steps, steps_for
from upref.games.up.engine import UpState
from upref.games.up.referee import UpReferee
from upref.games.up.variant import Variant, card_points
from upref.games.up.view import UpView
from upref.referee.base import Reply
from upref.referee.inputs import EndGame, Input, Key, NextGame, Observe, StartGame, Undo
from upref.referee.status import Verdict
from upref.registry import titles
from upref.store.tags import TagBook

CODES = CodeTable.load()
UID = numbered_uids("up", items())
"""card id -> the UID of its tag."""
ITEM = {uid: item for item, uid in UID.items()}
PLAYERS = ("Ann", "Bob", "Cy")


def enrolled_tags(path: Path | None = None) -> TagBook:
    """A real tag book with every card of the catalogue enrolled under `UID`."""
    def fill(reg: TagBook) -> None:
        for item, uid in UID.items():
            reg.enroll(uid, "up", item)

    return filled_book("upref-test-up-", fill, path)


_REGISTRY: TagBook | None = None


def shared_registry() -> TagBook:
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = enrolled_tags()
    return _REGISTRY


class UpTable:
    """The cards, the people and the referee they feed.

    :param truth_seed: the seed of the table's shuffles (the referee's start gets `seed`).
    """

    def __init__(
        self,
        players: Sequence[str] = PLAYERS,
        variant: Variant | None = None,
        *,
        seed: int = 1,
        ref: UpReferee | None = None,
        log: object = None,
        t0: float = 1000.0,
        step: float = 0.25,
    ) -> None:
        self.ref = ref or UpReferee(CODES, shared_registry(), titles=titles(), log=log)  # type: ignore[arg-type]
        self.players = tuple(players)
        self.variant = variant or Variant()
        self.seed = seed
        self.truth = UpState.new(self.players, rng=seed, variant=self.variant)
        self.rng = random.Random(seed)
        self.t = t0
        self.step = step
        self.replies: list[tuple[Input, Reply]] = []
        self.inputs: list[Input] = []
        self.forgotten = 0  # 'last card' calls forgotten in the last `play_round`

    # --- plumbing ---------------------------------------------------------------------------

    def at(self) -> float:
        self.t = round(self.t + self.step, 6)
        return self.t

    def feed(self, inp: Input) -> list[Verdict]:
        reply = self.ref.handle(inp)
        self.inputs.append(inp)
        self.replies.append((inp, reply))
        return list(reply.verdicts)

    def start(self) -> list[Verdict]:
        return self.feed(StartGame(self.players, self.variant, self.seed, self.at()))

    @property
    def engine(self) -> UpState:
        return self.ref.engine

    def view(self) -> UpView:
        v = self.ref.view(None)
        assert isinstance(v, UpView)
        return v

    # --- physical actions -----------------------------------------------------------------------

    def tap(self, card: str) -> list[Verdict]:
        """The card arrives on the reader, then leaves it."""
        uid = UID[card]
        out = self.feed(Observe(CardObservation(True, uid), self.at()))
        return out + self.feed(Observe(CardObservation(False, uid), self.at()))

    def tap_uid(self, uid: str) -> list[Verdict]:
        out = self.feed(Observe(CardObservation(True, uid), self.at()))
        return out + self.feed(Observe(CardObservation(False, uid), self.at()))

    def press(self) -> list[Verdict]:
        out = self.feed(Observe(ButtonObservation(True), self.at()))
        return out + self.feed(Observe(ButtonObservation(False), self.at()))

    def key(self, name: str, arg: str | None = None) -> list[Verdict]:
        return self.feed(Key(name, self.at(), arg))

    def undo(self) -> list[Verdict]:
        return self.feed(Undo(self.at()))

    def end(self) -> list[Verdict]:
        return self.feed(EndGame(self.at()))

    def do(self, steps: Iterable[Step]) -> list[Verdict]:
        out: list[Verdict] = []
        for st in steps:
            if st.kind == "tap":
                out += self.tap(st.what)
            elif st.kind == "key":
                out += self.key(st.what, st.arg)
            else:
                out += self.press()
        return out

    # --- playing ------------------------------------------------------------------------------

    def act(self, action: Action) -> list[Verdict]:
        """People do `action` at the table (the truth follows); the referee's verdicts."""
        out = self.do(steps_for(self.truth, action))
        self.truth.play(action)
        return out

    def cut_and_deal(self, keep: bool = True) -> list[Verdict]:
        """The cut (the uncovered card kept when it may be and `keep`), the deal's face-up taps."""
        acts = self.truth.legal_actions()
        cut = max(acts, key=lambda a: keep and getattr(a, "card", None) is not None)
        out = self.act(cut)
        return out + self.do(deal_steps(self.truth))

    def move(self, *, call: bool = True) -> tuple[Action, list[Verdict]]:
        """The player to move (or the one owing 'last card') does what a sensible player would."""
        action = choose(self.truth, self.rng, call=call)
        return action, self.act(action)

    def count(self) -> list[Verdict]:
        """The count: each remaining player taps the cards the referee has not seen."""
        out: list[Verdict] = []
        eng = self.engine
        while eng.phase == "count" and eng.counting is not None:
            seat = eng.counting
            known = {c for c in self.truth.deck if eng.locate(c)[0] != "unseen"}
            steps = count_steps(self.truth, seat, known)
            assert steps, f"{self.players[seat]} has nothing left to tap: {eng!r}"
            out += self.do(steps[:1])
        return out

    def play_round(self, *, forget: int = 0, check: bool = True) -> list[Verdict]:
        """Play the round to its end (and the count): sensible players; the first `forget`
        'last card' calls are forgotten. With `check`, the referee's public view agrees with the
        table's after every move."""
        out: list[Verdict] = []
        forgotten = 0
        self.forgotten = 0
        for _ in range(5000):
            if self.truth.is_terminal():
                break
            due = self.truth.call_due
            call = forgotten >= forget
            action, vs = self.move(call=call)
            if due is not None and not isinstance(action, Call) and getattr(action, "seat", due) != due:
                forgotten += 1
                self.forgotten += 1
            out += vs
            if check:
                assert_agrees(self)
        else:
            raise AssertionError(f"round not over after 5000 moves: {self.truth!r}")
        return out + self.count()

    def next_round(self) -> list[Verdict]:
        out = self.feed(NextGame(self.at()))
        self.truth = self.truth.next_round()
        return out


def truth_card(table: UpTable, cid: str) -> Card:
    return table.truth.catalogue.card(cid)


def public(view: UpView) -> tuple[object, ...]:
    """What both the referee and the table show everyone (not the referee's own counts)."""
    return (
        view.phase,
        view.tower,
        view.to_beat,
        view.to_move,
        view.founding,
        view.call_due,
        view.removed,
        tuple((p.hand, p.up, p.down, p.total, p.skip, p.owes_call, p.out) for p in view.players),
    )


def assert_agrees(table: UpTable) -> None:
    ref = table.view()
    truth = table.truth.view(None)
    if ref.phase == "count" and truth.phase == "over":
        return
    assert public(ref) == public(truth), (table.engine, table.truth, ref.verdict)


def texts(verdicts: Iterable[Verdict]) -> str:
    return "\n".join(f"[{v.kind}{' ' + v.rule if v.rule else ''}] {v.text}" for v in verdicts)




class Chaos:
    """A table that also does what it should not: cards of another player or another set,
    cards tapped twice, a face-up card in a first turn, the button and keys out of place, undo,
    a round stopped; and forgets 'last card' now and then. Refused actions change nothing, so
    the table (the truth) stays in step with the referee; after an undo the table is put back
    as the referee then has it."""

    def __init__(self, table: UpTable, seed: int) -> None:
        self.tb = table
        self.rng = random.Random(seed)
        self.marks: list[tuple[int, int]] = []  # (referee engine's actions, the table's) in step

    def _ref_len(self) -> int:
        return len(self.tb.engine._undo_stack)

    def mark(self) -> None:
        self.marks.append((self._ref_len(), len(self.tb.truth._undo_stack)))

    def step(self) -> list[Verdict]:
        tb, rng = self.tb, self.rng
        ref = tb.ref
        if not ref.has_engine:
            return tb.start()
        eng = ref.engine
        if ref.phase == "over":
            self.marks = []
            return tb.next_round()
        if eng.phase == "cut":
            out = tb.cut_and_deal(keep=rng.random() < 0.7)
            self.mark()
            return out
        if eng.phase == "deal":  # after an undo in the deal: deal on from where the referee is
            steps = deal_steps(tb.truth)[eng.view(None).dealt :]
            out = tb.do(steps)
            self.mark()
            return out
        if eng.phase == "count":
            known = {c for c in tb.truth.deck if eng.locate(c)[0] != "unseen"}
            assert eng.counting is not None
            steps = count_steps(tb.truth, eng.counting, known)
            r = rng.random()
            if r < 0.05:  # counted by hand, honestly (or mistyped)
                honest = sum(card_points(truth_card(tb, st.what), eng.dirty()) for st in steps)
                return tb.key("points", rng.choice([str(honest), "x", "-3"]))
            if r < 0.1:
                return tb.tap(rng.choice([c for c in tb.truth.deck if c in known]))
            return tb.do(steps[:1])
        r = rng.random()
        if r < 0.02:
            out = tb.undo()
            self.after_undo()
            return out
        if r < 0.025:
            return tb.end()
        if r < 0.1:
            return self.noise()
        _action, out = tb.move(call=rng.random() < 0.8)
        self.mark()
        return out

    def noise(self) -> list[Verdict]:
        """Something the referee refuses or notes, and that changes nothing."""
        tb, rng = self.tb, self.rng
        eng = tb.engine
        truth = tb.truth
        seat = truth.to_move
        last = eng.last_play
        n = truth.num_players()
        r = rng.randrange(8)
        if r == 0 and truth.tower:
            return tb.tap(rng.choice(truth.tower))  # on the tower already
        if r == 1 and truth.removed:
            return tb.tap(rng.choice(truth.removed))  # out of the game
        if r == 2:
            others = [
                c for p in range(n) if p != seat and (last is None or p != last[0])
                for c in truth.face_up(p)
            ]
            if others:
                return tb.tap(rng.choice(others))  # another player's face-up card
        if r == 3 and n < 10:
            return tb.tap(f"{'ABCDEFGHIJ'[n]}{rng.randint(1, 11)}")  # a set not in play
        if r == 4:
            return tb.tap_uid("04DEADBEEF0001")  # not enrolled
        if r == 5 and truth.call_due is None:
            return tb.press()
        if r == 6:
            name = rng.choice(["dirty", "pass", "points", "keep"])
            if not (name == "dirty" and eng.is_legal(DirtyOne(seat))) and not (
                name == "pass" and eng.founding and eng.is_legal(Pass(seat))
            ):
                return tb.key(name, "3")
        if r == 7 and truth.first_turn(seat) and truth.face_up(seat) and (last is None or last[0] != seat):
            return tb.tap(rng.choice(truth.face_up(seat)))  # U-12
        return []

    def after_undo(self) -> None:
        """Put the table back as the referee has it after an undo."""
        tb = self.tb
        ref_len = self._ref_len()
        while self.marks and self.marks[-1][0] > ref_len:
            self.marks.pop()
        if tb.engine.phase == "deal" or not self.marks:
            truth_len = 1  # the cut: the cards lie dealt
        else:
            assert self.marks[-1][0] == ref_len, (self.marks, ref_len, tb.engine)
            truth_len = self.marks[-1][1]
        while len(tb.truth._undo_stack) > truth_len:
            tb.truth.undo()


__all__ = [
    "CODES",
    "Chaos",
    "ITEM",
    "PLAYERS",
    "UID",
    "UpTable",
    "assert_agrees",
    "public",
    "shared_registry",
    "enrolled_tags",
    "texts",
]
