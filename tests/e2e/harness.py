"""The host side of the end-to-end tests: a Link and a BoardModel, pumped by the test."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

import serial
from upref.board.codes import CodeTable
from upref.board.model import BoardModel
from upref.link.connection import Link, LinkSettings
from upref.link.protocol import Event, InvalidFrameError, LineSplitter, decode, parse_event
from upref.sim.board import SimBoard


class Host:
    """The host side: a Link and a BoardModel fed from its events, pumped by the test."""

    def __init__(self, port: str, **link_options: object) -> None:
        self.link = Link(port, LinkSettings(**link_options))  # type: ignore[arg-type]
        self.model = BoardModel(CodeTable.load())
        self.items: list[object] = []
        self.observations: list[object] = []

    def pump(self, until: Callable[[], bool] | None = None, timeout: float = 5.0) -> bool:
        """Apply link events to the model until `until()` holds (True) or timeout (False)."""
        deadline = time.monotonic() + timeout
        while True:
            if until is not None and until():
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return until is None
            try:
                item = self.link.events.get(timeout=min(left, 0.05))
            except queue.Empty:
                continue
            self.items.append(item)
            self.observations.extend(self.model.apply(item))

    def drain(self, seconds: float) -> None:
        self.pump(None, seconds)

    def codes(self) -> list[int]:
        return [self.model.holes[h].code for h in sorted(self.model.holes)]

    def of_type(self, name: str) -> list[object]:
        return [i for i in self.items if type(i).__name__ == name]

    def close(self) -> None:
        self.link.close()


class Listener:
    """A plain reader of the board's port (not a host: it asks for nothing, and a host that
    comes later asks SINCE as if no one had listened), keeping the events it hears."""

    def __init__(self, port: str) -> None:
        self.port = serial.serial_for_url(port, timeout=0.02)
        self.lines = LineSplitter()
        self.events: list[Event] = []

    def __enter__(self) -> Listener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.port.close()

    def listen(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for line in self.lines.feed(self.port.read(256)):
                try:
                    event = parse_event(decode(line))
                except InvalidFrameError:
                    continue
                self.events.append(event)

    def count(self, kind: type) -> int:
        """How many events of `kind` it heard."""
        return sum(isinstance(e, kind) for e in self.events)

    def until(self, done: Callable[[], bool], timeout: float) -> bool:
        end = time.monotonic() + timeout
        while not done():
            if time.monotonic() > end:
                return False
            self.listen(0.05)
        return True


def truth(board: SimBoard) -> list[int]:
    """The codes the physical world should read now (0 for an empty hole)."""
    return [h["code"] if h.get("pair") else 0 for h in board.state()["holes"]]
