"""What `make bench` times as a game's action -> verdict (upref.commands.bench_game): a press
answered while the simulated hand still holds the button is timed at once, not when the hand lets
go; a verdict that comes after the step's wait still counts; what the table says by itself
answers no action; a step that acts twice is timed from its last action; and each action is
timed stage by stage from the board's own dates, as the card's arrival is."""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from upref.commands import bench_game
from upref.commands.bench_latency import USB_MS, Arrivals
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

    def frame(f: Frame, heard: bool, seq: int | None) -> None:
        before = len(watch.out)
        timed(f, heard, seq)
        if len(watch.out) > before:
            events.append("verdict timed")

    watch.frame = frame  # type: ignore[method-assign]
    table.on_frame = lambda f: watch.frame(f, not isinstance(table.replies[-1][0], Tick), None)
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
    watch.start(0.0, 0.0, -1)
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
    watch.start(0.0, 0.0, -1)
    acts = bench_game._Acts(HoldingHand(table, events), watch, table.pump)
    acts.remove()  # a second action: the first is no longer waited for
    assert watch.pending is not None and watch.pending[0] > 0.0


def _answer(seq: int | None, reports: int, drawn: float = 10.050) -> bench_game._Answer:
    return bench_game._Answer(wall=99.0, drawn=drawn, seq=seq, reports=reports)


def _arrived(**at: float) -> Arrivals:
    arrivals = Arrivals()
    arrivals.at.update({int(k[1:], 16): v for k, v in at.items()})
    return arrivals


# the board's reports, as SimBoard.probe keeps them: a magnet of an earlier pull, its ramp at
# its end at 1.005 s; a card laid at 1.000 s on the chip's clock; the card's frame out at
# 1.030 s; then the button, after the frame
TAP = [
    ["L", "9", "1005000"],
    ["K", "04A1B2C3D4E5F6", "1000000"],
    ["tx", "1026000", "1030000", "@0012", "CARD", "+", "04A1B2C3D4E5F6*1234"],
    ["B", "1", "1040000"],
]


def test_a_tap_is_timed_from_the_card_laid_to_its_frame_then_on_the_hosts_clock() -> None:
    # the frame's bytes read at 10.040 s on the host's clock, its verdict drawn at 10.050 s
    ms = bench_game._staged(_answer(0x12, 1), TAP, 0, _arrived(x12=10.040))
    assert ms is not None
    assert abs(ms - (30.0 + USB_MS + 10.0)) < 1e-6  # 30 ms on the chip, the bridge, 10 ms here


def test_only_changes_after_the_action_began_and_before_its_frame_count() -> None:
    # the tap began after the pull's report came: the card dates it, not the magnet; and the
    # button, pressed after the frame left, is nothing the frame says
    tap = bench_game._staged(_answer(0x12, 1), TAP, 0, _arrived(x12=10.040))
    assert tap is not None and abs(tap - (30.0 + USB_MS + 10.0)) < 1e-6
    # an action begun before the pull's report: the latest change before the frame dates it
    pulled = bench_game._staged(_answer(0x12, 0), TAP, 0, _arrived(x12=10.040))
    assert pulled is not None and abs(pulled - (25.0 + USB_MS + 10.0)) < 1e-6


def test_what_the_board_did_not_date_is_left_to_the_hosts_clock() -> None:
    arrivals = _arrived(x12=10.040)
    assert bench_game._staged(_answer(None, 0), TAP, 0, arrivals) is None  # a key
    assert bench_game._staged(_answer(0x13, 0), TAP, 0, arrivals) is None  # no frame 0x13 reported
    assert bench_game._staged(_answer(0x12, 2), TAP, 0, arrivals) is None  # no change before it
    assert bench_game._staged(_answer(0x12, 0), TAP, 1, arrivals) is None  # its first reports dropped
    assert bench_game._staged(_answer(0x12, 0), TAP, 0, _arrived()) is None  # never read
    assert bench_game._staged(_answer(0x12, 0, drawn=10.0), TAP, 0, arrivals) is None  # read after


@pytest.mark.board
def test_a_games_actions_on_a_board_are_timed_both_ways(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The demo of a game played on the simulated board: each tap's verdict is dated by the
    board, and its stages add up to no more than the host's clock saw plus the bridge."""
    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(tmp_path))  # the bench sets its own: put back after
    game = find_game("flipabird")
    timed = bench_game.bench_game_stages(game, 10.0)
    dated = [t for t in timed if t.staged is not None]
    assert timed and len(dated) >= len(timed) // 2, timed
    for t in dated:
        assert 0 < t.staged < t.wall + USB_MS + 15.0, t  # type: ignore[operator]
