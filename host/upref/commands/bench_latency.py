"""`make bench`'s hole seated -> host event and card arrival -> host event, stage by stage
(docs/simulator.md, "What `make bench` prints").

Each sample is timed in three stages: on the chip's clock, from the change (the last magnet of a
pair in place or gone, a card in the field) to the last byte of its frame leaving the UART (the
simulated board reports both dates: `upref/sim/standins/probe.py`); the USB bridge, modelled
(`USB_MS`); on the host's clock, from the frame's bytes read by the link to its event taken from
the link's queue. A board whose chip counts every operation needs half a
core or more: on a loaded machine it falls behind, and its chip's clock waits with it, so a
figure on the chip's clock is what the chip does, whatever else the machine runs. The host's own
stage is taken at its median (`Latencies.total`). The same change timed on the host's clock
alone (from the hand to the event) is kept beside it, with the load in it (and, between the
simulated chip's sleeps, its clock running ahead of the machine's: its process runs the firmware
faster than the slow chip would, and waits only at a sleep). A sample whose window held a jump
of the chip's clock (the machine held the board up a quarter of a second or more) is left out
and counted."""

from __future__ import annotations

import os
import queue
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import serial

from upref.link.protocol import LineSplitter

__all__ = ["USB_MS", "Arrivals", "Latencies", "bench_latency"]

USB_MS = 1.0
"""The USB bridge's share (a CP2102 or CH340 behind the ESP32's UART): a full-speed bulk IN
endpoint is polled once a 1 ms frame, so a frame's last byte reaches the host's driver within
1 ms of leaving the UART; taken whole, as the worst case."""
EVENT_WAIT_S = 2.0  # a change not reported by then is counted as missed
CARD_WAIT_S = 1.0  # a tap not reported by then is counted as never reported
PROBE_WAIT_S = 2.0  # the board's dates of a frame the host has heard come by then


@dataclass
class Latencies:
    """One kind of change's samples (ms): `chip` (the change to the frame's last byte on the
    UART, the chip's clock), `host` (the frame's bytes read to its event taken, the host's
    clock), `wall` (the hand to the event, on the host's clock alone); `missed` changes never
    reported, `jumped` samples left out (a jump of the chip's clock in their window), `undated`
    samples whose dates did not come (the probe's reports)."""

    chip: list[float] = field(default_factory=list)
    host: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    missed: int = 0
    jumped: int = 0
    undated: int = 0

    def add(self, chip_ms: float, host_ms: float, wall_ms: float) -> None:
        self.chip.append(chip_ms)
        self.host.append(host_ms)
        self.wall.append(wall_ms)

    @property
    def total(self) -> list[float]:
        """Each sample's chip stage, with the USB bridge's and the host's own time (its median:
        what the host does with a frame; the machine's load holds its thread up now and then,
        which no host at a table shares, and its p95 is printed beside it)."""
        if not self.host:
            return []
        host = statistics.median(self.host)
        return [c + USB_MS + host for c in self.chip]


class Arrivals:
    """When the link read each frame's last byte (the host's clock), by sequence number: a
    serial factory whose ports stamp what they read."""

    def __init__(self) -> None:
        self.at: dict[int, float] = {}
        self._lines = LineSplitter()

    def factory(self, url: str, **kwargs: Any) -> Any:
        port = serial.serial_for_url(url, **kwargs)
        read = port.read

        def stamped(size: int = 1) -> bytes:
            data = read(size)
            if data:
                now = time.monotonic()
                for line in self._lines.feed(data):
                    if line[:1] == b"@" and len(line) > 5:
                        try:
                            self.at[int(line[1:5], 16)] = now
                        except ValueError:
                            continue
            return data

        port.read = stamped
        return port


def _wait(events: queue.Queue[object], kind: str, pred: Callable[[Any], bool], timeout: float) -> tuple[float, Any] | None:
    """(when, event): the first event of type `kind` that `pred` accepts, within `timeout`."""
    end = time.monotonic() + timeout
    while (left := end - time.monotonic()) > 0:
        try:
            item = events.get(timeout=left)
        except queue.Empty:
            return None
        if type(item).__name__ == kind and pred(item):
            return time.monotonic(), item
    return None


def _frame_out(board: Any, seq: int) -> list[str] | None:
    """The probe's report of the frame of sequence number `seq` (its words after `probe`), once
    it has come."""
    tag = f"@{seq:04X}"
    end = time.monotonic() + PROBE_WAIT_S
    while time.monotonic() < end:
        for words in list(board.probe):
            if words[0] == "tx" and len(words) > 3 and words[3] == tag:
                return words
        time.sleep(0.005)
    return None


def _sample(board: Any, arrivals: Arrivals, out: Latencies, start: Callable[[list[list[str]]], int | None],
            got: tuple[float, Any], t_hand: float, jumps: int) -> None:
    """One reported change into `out`: `start(reports)` is the chip's time of the change (us)."""
    when, event = got
    words = _frame_out(board, event.seq)  # the board's reports come in order: a jump before it is counted
    if board.clock_jumps != jumps:
        out.jumped += 1
        return
    began = start(list(board.probe))
    arrived = arrivals.at.get(event.seq)
    if words is None or began is None or arrived is None:
        out.undated += 1
        return
    out.add((int(words[2]) - began) / 1000, (when - arrived) * 1000, (when - t_hand) * 1000)


def _placed_at(hole: int) -> Callable[[list[list[str]]], int | None]:
    """The chip's time the last magnet of the hole's change is in place (or gone: a pull)."""
    def start(reports: list[list[str]]) -> int | None:
        ends = [int(w[2]) for w in reports if w[0] == "L" and int(w[1]) // 4 == hole - 1]
        return max(ends) if ends else None
    return start


def _landed_at(uid: str) -> Callable[[list[list[str]]], int | None]:
    def start(reports: list[list[str]]) -> int | None:
        return next((int(w[2]) for w in reports if w[0] == "K" and w[1] == uid), None)
    return start


def _holes(board: Any, link: Any, arrivals: Arrivals, changes: int) -> tuple[Latencies, Latencies]:
    """`changes` pairs pulled and put back, hole after hole: (seated, emptied)."""
    seated, emptied = Latencies(), Latencies()
    placed = {h["hole"]: (h["pair"], h["down"]) for h in board.state()["holes"]}
    for i in range(changes):
        hole = i // 2 % 10 + 1
        out = emptied if i % 2 == 0 else seated
        board.probe.clear()
        jumps = board.clock_jumps
        t0 = time.monotonic()
        if out is emptied:
            board.pull(hole)
        else:
            board.insert(hole, *placed[hole])
        t_hand = t0 + board.hands.last_settled_ms / 1000
        got = _wait(link.events, "HoleChanged", lambda e, h=hole: e.hole == h, EVENT_WAIT_S)
        if got is None:
            out.missed += 1
        else:
            _sample(board, arrivals, out, _placed_at(hole), got, t_hand, jumps)
        time.sleep(random.uniform(0.0, 0.02))  # the next hand at a random scan phase
    return seated, emptied


def _cards(board: Any, link: Any, arrivals: Arrivals, cards: int) -> Latencies:
    out = Latencies()
    phase = random.Random(7)
    for i in range(cards):
        # taps at random moments: right after a departure the next poll is a whole period
        # away, which would measure the worst case every time
        time.sleep(phase.uniform(0.0, 0.1))
        uid = f"04{i:012X}"
        board.probe.clear()
        jumps = board.clock_jumps
        t0 = time.monotonic()
        board.tap(uid)
        got = _wait(link.events, "CardArrived", lambda e, u=uid: e.uid == u, CARD_WAIT_S)
        if got is None:
            out.missed += 1
        else:
            _sample(board, arrivals, out, _landed_at(uid), got, t0, jumps)
        board.remove()
        if got is not None:
            _wait(link.events, "CardLeft", lambda e: True, CARD_WAIT_S)
    return out


def bench_latency(changes: int, cards: int, settings: dict[str, object]) -> dict[str, Latencies]:
    """Hole changes (`changes` of them: half pairs pulled, half put back) and card taps on a
    simulated board of `settings` (SimSettings' keywords: the chip's end and the count):
    {"seated": pairs put in, "emptied": pairs pulled, "card": cards tapped}."""
    from upref.link.connection import Link, LinkSettings
    from upref.sim.board import SimBoard, SimSettings

    with tempfile.TemporaryDirectory(prefix="upref-bench-") as tmp:
        os.environ["UPREF_RUNTIME_DIR"] = str(Path(tmp) / "run")
        with SimBoard(SimSettings(seed=1, name="bench", flash_dir=Path(tmp) / "flash",
                                  **settings)) as board:  # type: ignore[arg-type]
            arrivals = Arrivals()
            link = Link(board.port, LinkSettings(serial_factory=arrivals.factory))
            try:
                time.sleep(1.0)
                while not link.events.empty():
                    link.events.get_nowait()
                seated, emptied = _holes(board, link, arrivals, changes)
                return {"seated": seated, "emptied": emptied, "card": _cards(board, link, arrivals, cards)}
            finally:
                link.close()
