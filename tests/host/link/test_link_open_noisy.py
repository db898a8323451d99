"""Opening the link through line noise (issue 32): a board whose answers come damaged is asked
again until one comes through whole, up to a clear deadline, with a line every few seconds
saying what the link sees; a silent board still fails soon.

The link runs on a clock of the test's own, which the scripted port moves on by a quarter of a
second each time the link reads it, so thirty seconds of the link's time pass in about a second
and a half, whatever the machine's speed.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

import pytest
from fake_serial import BoardFrames, FakeFactory, FakeSerial
from upref.link.connection import Link, LinkSettings, LinkTimeout
from upref.link.protocol import Frame, Snapshot

STEP = 0.25  # the link's seconds that pass at each read of the port


class Clock:
    def __init__(self) -> None:
        self._t = 1000.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._t

    def advance(self, dt: float) -> None:
        with self._lock:
            self._t += dt


class ClockedPort(FakeSerial):
    """A scripted port on which each read takes the link's clock a step further."""

    def __init__(self, clock: Clock) -> None:
        super().__init__()
        self.clock = clock

    def read(self, size: int = 1) -> bytes:
        self.clock.advance(STEP)
        return super().read(size)


def damaged(frame: bytes) -> bytes:
    """The frame with one byte of its arguments changed, as line noise does: its CRC fails."""
    at = frame.index(b" ", 6) + 1
    return frame[:at] + bytes([frame[at] ^ 0x01]) + frame[at + 1:]


class Noisy:
    """Answers to HELLO and SNAP that come damaged the first `bad` times each, then whole."""

    def __init__(self, board: BoardFrames, bad_hellos: int, bad_snaps: int = 0) -> None:
        self.board = board
        self.bad = {"HELLO": bad_hellos, "SNAP": bad_snaps}
        self.asked = {"HELLO": 0, "SNAP": 0}

    def __call__(self, frame: Frame) -> bytes:
        self.asked[frame.type] += 1
        whole = self.board.hello() if frame.type == "HELLO" else self.board.snap()
        if self.asked[frame.type] <= self.bad[frame.type]:
            return damaged(whole)
        return whole


def settings(clock: Clock, port: FakeSerial, lines: list[tuple[float, str]], **kw: Any) -> LinkSettings:
    base = LinkSettings(
        serial_factory=FakeFactory(port), connect_timeout=5.0, noisy_timeout=30.0,
        progress_every=3.0, progress=lambda line: lines.append((clock(), line)), clock=clock,
        heartbeat_timeout=600.0, hello_retry=0.5, snap_retry=0.5, poll=0.01,
    )
    return replace(base, **kw)


def noisy_port(clock: Clock, answers: Noisy) -> ClockedPort:
    port = ClockedPort(clock)
    port.on("HELLO", answers)
    port.on("SNAP", answers)
    return port


def test_a_hello_answered_damaged_again_and_again_is_asked_until_one_comes_whole() -> None:
    clock, lines = Clock(), []
    answers = Noisy(BoardFrames(), bad_hellos=20)
    port = noisy_port(clock, answers)
    start = clock()
    with Link("fake://board", settings(clock, port, lines)) as link:
        assert link.connected and link.snapshot == Snapshot((0,) * 10, None, False, ())
        assert answers.asked["HELLO"] == 21
        assert link.counters.crc == 20
    # twenty answers lost took the link well past the old three seconds, and past five
    assert clock() - start > 5.0
    assert lines, "no line said what the link was waiting for"
    for _, line in lines:
        assert line.startswith("still waiting for the board's answer to HELLO on fake://board"), line
        assert "CRC errors" in line and "line noise?" in line and "30 s" in line, line
    times = [t for t, _ in lines]
    assert times[0] - start == pytest.approx(3.0, abs=2 * STEP)
    for earlier, later in zip(times, times[1:], strict=False):
        assert later - earlier == pytest.approx(3.0, abs=2 * STEP)


def test_a_snap_answered_damaged_is_asked_until_one_comes_whole() -> None:
    clock, lines = Clock(), []
    answers = Noisy(BoardFrames(), bad_hellos=2, bad_snaps=15)
    with Link("fake://", settings(clock, noisy_port(clock, answers), lines)) as link:
        assert link.connected and link.snapshot is not None
        assert answers.asked["SNAP"] == 16
    assert any(line.startswith("still waiting for the board's SNAP on fake://") for _, line in lines)


def test_only_damaged_answers_until_the_deadline_fail_naming_what_was_seen() -> None:
    clock, lines = Clock(), []
    port = noisy_port(clock, Noisy(BoardFrames(), bad_hellos=10**6))
    start = clock()
    with pytest.raises(LinkTimeout) as info:
        Link("fake://board", settings(clock, port, lines))
    message = str(info.value)
    assert message.startswith("no HELLO from fake://board within 30 s (0 frames, "), message
    assert "CRC errors" in message and "(line noise?)" in message, message
    assert "check the cable" in message and "make deploy PORT=fake://board" in message, message
    assert 30.0 <= clock() - start < 31.0
    assert len(lines) == 9  # one every 3 s up to 27 s
    assert not port.is_open


def test_a_silent_board_still_fails_soon() -> None:
    clock, lines = Clock(), []
    port = ClockedPort(clock)
    port.on("HELLO", lambda frame: None)
    start = clock()
    with pytest.raises(LinkTimeout) as info:
        Link("fake://", settings(clock, port, lines))
    message = str(info.value)
    assert message.startswith("no answer from fake:// within 5 s"), message
    assert clock() - start < 6.0
    assert len(lines) == 1 and "0 frames, 0 CRC errors" in lines[0][1]


def test_a_board_that_falls_silent_while_opening_fails_soon() -> None:
    clock, lines = Clock(), []
    answers = Noisy(BoardFrames(), bad_hellos=10**6)
    port = ClockedPort(clock)
    port.on("HELLO", lambda frame: answers(frame) if answers.asked["HELLO"] < 4 else None)
    start = clock()
    with pytest.raises(LinkTimeout) as info:
        Link("fake://", settings(clock, port, lines))
    assert "no HELLO from fake://" in str(info.value) and "4 CRC errors" in str(info.value)
    assert clock() - start < 12.0
