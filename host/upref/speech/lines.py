"""What is said, and the queue that decides what is still worth saying.

A `Line` is one thing to say, with its class: a **refusal** (an illegal move, a board
problem: never dropped, the table must put it right), **whose turn** (only the newest one
counts: a newer one replaces one not yet spoken) or **news** (a solved card, a claim, the end:
dropped when it has waited too long or when the queue is full, so the voice never falls
behind the table).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from upref.referee.status import BOARD, END, ILLEGAL, OK, SOLVED, TURN, Verdict

__all__ = [
    "NEWS",
    "REFUSAL",
    "WHOSE_TURN",
    "Line",
    "LineQueue",
    "Said",
    "lines_for",
]

REFUSAL = "refusal"
WHOSE_TURN = "turn"
NEWS = "news"

SPOKEN_KINDS = frozenset({ILLEGAL, BOARD, TURN, SOLVED, END})
"""The verdict kinds `--speak` says (with `--speak=all`, every kind that has a spoken form)."""


@dataclass(frozen=True)
class Line:
    """One thing to say: its words, its class (`REFUSAL`, `WHOSE_TURN`, `NEWS`) and when it
    was offered (the clock of the queue)."""

    text: str
    kind: str
    offered: float = 0.0


class Said(Protocol):
    """What the referee said to one input: the table's frame after a reply
    (`upref.views.frame.Frame`), or the reply itself: its verdicts in order, and whose turn it
    is when the reply passed the turn (else None)."""

    @property
    def verdicts(self) -> tuple[Verdict, ...]: ...

    @property
    def turn(self) -> str | None: ...


def lines_for(reply: Said, everything: bool = False, now: float = 0.0) -> list[Line]:
    """The lines a reply (or the frame after it) gives, in order: each public verdict's spoken
    form (with `everything`, the ok and info ones too), then whose turn it is when the turn
    passed."""
    out = []
    for v in reply.verdicts:
        if v.seat is not None or not v.spoken:
            continue
        undo = v.kind == OK and v.rule == "undo"  # its corrections are heard like a refusal's
        if not (everything or undo or v.kind in SPOKEN_KINDS):
            continue
        kind = REFUSAL if v.kind in (ILLEGAL, BOARD) or undo else NEWS
        out.append(Line(v.spoken, kind, now))
    if reply.turn:
        out.append(Line(reply.turn, WHOSE_TURN, now))
    return out


class LineQueue:
    """A bounded queue of lines with the drop and keep rules of the module's docstring.

    :param size: how many news and turn lines may wait (refusals always get in).
    :param max_wait_s: a news line that waited longer than this is dropped when it comes up.
    :param keep_all: drop nothing (writing files: there is no voice to fall behind).
    :param clock: the time, for `offered` and for the wait.
    """

    def __init__(
        self,
        size: int = 4,
        max_wait_s: float = 6.0,
        *,
        keep_all: bool = False,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.size = size
        self.max_wait_s = max_wait_s
        self.keep_all = keep_all
        self.clock = clock or time.monotonic
        self._lines: deque[Line] = deque()
        self._cond = threading.Condition()
        self._closed = False
        self.dropped: list[Line] = []

    def put(self, lines: Iterable[Line]) -> None:
        """Queue lines (at once: never waits for the voice)."""
        with self._cond:
            for line in lines:
                self._put(line)
            self._cond.notify_all()

    def _put(self, line: Line) -> None:
        if self.keep_all:
            self._lines.append(line)
            return
        if line.kind == WHOSE_TURN:
            for old in [x for x in self._lines if x.kind == WHOSE_TURN]:
                self._lines.remove(old)
                self.dropped.append(old)
        self._lines.append(line)
        while sum(1 for x in self._lines if x.kind != REFUSAL) > self.size:
            old = next(
                (x for x in self._lines if x.kind == NEWS),
                next(x for x in self._lines if x.kind != REFUSAL),
            )
            self._lines.remove(old)
            self.dropped.append(old)

    def get(self, timeout: float | None = None) -> Line | None:
        """The next line worth saying, waiting up to `timeout` (None: until one comes or the
        queue is closed); None when there is none."""
        with self._cond:
            while True:
                while self._lines:
                    line = self._lines.popleft()
                    if self._stale(line):
                        self.dropped.append(line)
                        continue
                    self._cond.notify_all()
                    return line
                if self._closed:
                    return None
                if not self._cond.wait(timeout):
                    return None

    def _stale(self, line: Line) -> bool:
        return (
            not self.keep_all
            and line.kind == NEWS
            and self.clock() - line.offered > self.max_wait_s
        )

    def pending(self) -> list[Line]:
        """The lines waiting, oldest first."""
        with self._cond:
            return list(self._lines)

    def close(self) -> None:
        """No more lines: `get` returns what waits, then None."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
