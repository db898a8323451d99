"""What the bring-up suite (test_real_board.py) measures on a board, and how it says so: the
link's items folded into the board model and the board's own figures, watched for a while, and
one printed line per measurement. docs/build.md, "Bring-up", gives each figure's range and what
another figure means."""

from __future__ import annotations

import queue
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from upref.board.codes import CodeTable
from upref.board.model import BoardModel
from upref.commands.board_figures import BoardFigures, Figure
from upref.link.connection import Link
from upref.link.protocol import Heartbeat

GENUINE_VERSIONS = {"91": "MFRC522 v1.0", "92": "MFRC522 v2.0"}
"""The MFRC522's VersionReg (datasheet 9.3.4.8): 0x91 for version 1.0, 0x92 for version 2.0."""
CLONE_VERSIONS = {"88": "a clone (Fudan FM17522)", "12": "a counterfeit MFRC522"}
"""Values read on modules sold as RC522 whose chip is not NXP's: they read cards, often with
a shorter range."""


def say(step: str, text: str) -> None:
    """One line of what a step measured, shown as it happens (pytest -s)."""
    print(f"bring-up {step}: {text}", file=sys.stdout, flush=True)


@dataclass
class Watch:
    """The board as the link reports it, folded as it comes: the picture and the figures."""

    link: Link
    model: BoardModel = field(default_factory=lambda: BoardModel(CodeTable.load()))
    figures: BoardFigures = field(default_factory=BoardFigures)
    heartbeats: list[Heartbeat] = field(default_factory=list)
    steady: list[bool] = field(default_factory=list)  # each heartbeat's: no card arrived near it

    def __post_init__(self) -> None:
        self.figures.hello = self.link.hello
        if self.link.snapshot is not None:
            self.model.apply(self.link.snapshot)

    def pump(self, until: Callable[[], bool], timeout_s: float) -> bool:
        """Take the link's items until `until()` holds (True) or `timeout_s` passed (False)."""
        end = time.monotonic() + timeout_s
        while not until():
            left = end - time.monotonic()
            if left <= 0:
                return False
            try:
                item = self.link.events.get(timeout=min(left, 0.1))
            except queue.Empty:
                continue
            self.model.apply(item)
            self.figures.take(item)
            if isinstance(item, Heartbeat):
                # an arriving card is read on past its period (firmware/app.py,
                # _RFID_ARRIVAL_US), and what came before the watch began is not known: the
                # figures say which seconds a card arrived near, and the first two are not steady
                self.heartbeats.append(item)
                self.steady.append(len(self.heartbeats) > 2 and not self.figures.card_came)
        return True

    def next_heartbeats(self, n: int, timeout_s: float = 15.0) -> list[Heartbeat]:
        """The next `n` heartbeats (one comes every second)."""
        start = len(self.heartbeats)
        self.pump(lambda: len(self.heartbeats) >= start + n, timeout_s)
        got = self.heartbeats[start:]
        assert len(got) >= n, f"{len(got)} heartbeats in {timeout_s:.0f} s where {n} were due: " \
            "the board's loop has stopped or the line drops frames (upref doctor shows which)"
        return got

    def next_steady_heartbeats(self, n: int, timeout_s: float = 20.0) -> list[Heartbeat]:
        """The next `n` heartbeats whose seconds held no card's arrival."""
        start = len(self.heartbeats)

        def steady() -> list[Heartbeat]:
            return [hb for hb, ok in zip(self.heartbeats[start:], self.steady[start:], strict=True) if ok]

        self.pump(lambda: len(steady()) >= n, timeout_s)
        got = steady()
        assert len(got) >= n, f"{len(got)} heartbeats without a card arriving in {timeout_s:.0f} s where {n} " \
            "were due: the board's loop has stopped, the line drops frames, or a card comes and goes " \
            "(leave it lying on the reader, or take it away)"
        return got

    def figure(self, name: str) -> Figure:
        card = self.model.card is not None
        found = [f for f in self.figures.figures(card_present=card) if f.name == name]
        assert found, f"the board gives no {name!r} figure: its firmware predates the bring-up " \
            "figures (make deploy brings them)"
        return found[0]


def version_words(rfid: str | None) -> tuple[str, bool]:
    """What the reader's version register says, and whether the step passes."""
    if rfid is None:
        return ("no answer (VersionReg read 0x00 or 0xFF): the reader is unpowered or its SPI "
                "wiring (SCK, MOSI, MISO, SDA/CS, RST) is wrong", False)
    key = rfid.upper()
    if key in GENUINE_VERSIONS:
        return f"0x{key}: {GENUINE_VERSIONS[key]}", True
    if key in CLONE_VERSIONS:
        return f"0x{key}: {CLONE_VERSIONS[key]}; it reads cards, check the card step", True
    return (f"0x{key}: no MFRC522 answers with this; a bit error on SPI (long wires, a loose "
            "MISO) or another chip", False)


def sensor_deltas(levels: tuple[int, ...], zeros: tuple[int, ...]) -> list[int]:
    return [level - zero for level, zero in zip(levels, zeros, strict=True)]
