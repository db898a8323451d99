"""What `make bench` times as a game's action -> verdict (upref.commands.bench_game): a press
answered while the simulated hand still holds the button is timed at once, not when the hand lets
go; a verdict that comes after the step's wait still counts; what the table says by itself
answers no action; a step that acts twice is timed from its last action."""

from __future__ import annotations

import io
import threading
from typing import Any

from rich.console import Console
from upref.commands import bench_game
from upref.referee.inputs import Observe, Tick
from upref.referee.status import Verdict
from upref.registry import find_game
from upref.views.frame import Frame

HOLD_CAP_S = 10.0  # the fake hand lets go by itself after this long, should nobody pump the table


class FakeTable:
    """A table whose board answers the `answer_after`-th pump after a press with a verdict."""

    def __init__(self, answer_after: int = 3) -> None:
        self.replies: list[tuple[object, object]] = []
        self.on_frame: Any = None
        self.pressed = False
        self.answered = threading.Event()
        self._left = answer_after

    def pump(self, seconds: float) -> None:
        if self.pressed and not self.answered.is_set():
            self._left -= 1
            if self._left <= 0:
                self.publish(Observe(None, 0.0), Verdict("ok", "Ann claims."))  # type: ignore[arg-type]
                self.answered.set()

    def publish(self, inp: object, *verdicts: Verdict) -> None:
        self.replies.append((inp, None))
        self.on_frame(Frame("flipabird", "Flip a Bird", verdicts=verdicts))


class HoldingHand:
    """The simulated board's button: a click holds until the table has answered the press (as
    the real hand holds until the firmware has seen the release), then lets go."""

    def __init__(self, table: FakeTable, events: list[str]) -> None:
        self.table, self.events = table, events

    def button(self, action: str) -> str:
        self.table.pressed = True
        self.table.answered.wait(HOLD_CAP_S)
        self.events.append("hand lets go")
        return "ok button clicked"

    def remove(self) -> str:
        return "ok"


def watched(table: FakeTable, events: list[str]) -> bench_game._Stopwatch:
    watch = bench_game._Stopwatch(find_game("flipabird"), Console(file=io.StringIO(), width=100), None, "en")
    timed = watch.frame

    def frame(f: Frame, heard: bool) -> None:
        before = len(watch.out)
        timed(f, heard)
        if len(watch.out) > before:
            events.append("verdict timed")

    watch.frame = frame  # type: ignore[method-assign]
    table.on_frame = lambda f: watch.frame(f, not isinstance(table.replies[-1][0], Tick))
    return watch


def test_a_press_is_answered_while_the_hand_still_holds_the_button() -> None:
    table, events = FakeTable(), []
    watch = watched(table, events)
    acts = bench_game._Acts(HoldingHand(table, events), watch, table.pump)
    assert acts.button("click") == "ok button clicked"
    assert events == ["verdict timed", "hand lets go"]
    assert len(watch.out) == 1


def test_a_late_verdict_counts_and_the_tables_own_words_answer_no_action() -> None:
    table, events = FakeTable(), []
    watch = watched(table, events)
    watch.start(0.0, 0.0)
    table.publish(Observe(None, 0.0))  # type: ignore[arg-type] # the card's arrival, no verdict yet
    table.publish(Tick(1.0), Verdict("turn", "Bob's turn."))  # the table's own: no action's verdict
    assert watch.out == []
    table.publish(Observe(None, 0.0), Verdict("ok", "Ann plays R1."))  # type: ignore[arg-type]
    assert len(watch.out) == 1
    table.publish(Observe(None, 0.0), Verdict("ok", "again"))  # type: ignore[arg-type]
    assert len(watch.out) == 1  # one verdict an action


def test_a_step_that_acts_twice_is_timed_from_its_last_action() -> None:
    table, events = FakeTable(), []
    watch = watched(table, events)
    watch.start(0.0, 0.0)
    acts = bench_game._Acts(HoldingHand(table, events), watch, table.pump)
    acts.remove()  # a second action: the first is no longer waited for
    assert watch.pending is not None and watch.pending[0] > 0.0
