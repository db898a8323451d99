"""The board's own figures, as a builder reads them: the heartbeats and the HELLO folded into
scan time, late scans, card reads per second, free heap and resets, each with its unit and,
when it is outside the range a working board shows, a plain word and what it means.

`upref doctor` shows them live; the bring-up suite (tests/real_board/) prints and checks them;
docs/build.md ("Bring-up") gives the same ranges with the reasons. The ranges live here once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from upref.link.notices import BoardReset
from upref.link.protocol import RESET_KINDS, CardArrived, Heartbeat, Hello
from upref.text import Msg

SCAN_PERIOD_MS = 10
"""The firmware scans the sensors every 10 ms (firmware/app.py SCAN_MS)."""
SPARE_SHARE = 1 / 3
"""A scan period should keep a third of its time to spare: a mean busier than two thirds of
the period leaves no room for a card read or a RAW reply."""
CARD_READS_MIN = 10.0
"""Reads per second of a card lying on the reader below which the reader is slow: the board
reads it again every 30 ms, so a loop that keeps up reads a lying card about 33 times a second."""
HEAP_LOW_KB = 16
"""Free heap below which a RAW reply, a SINCE replay or a calibration may fail for memory. It
is judged on the most free heap seen while watching: MicroPython counts garbage as used until
it collects it, so the free heap falls between collections and rises again after one, and its
highest reading is the room the board's live data leave."""


@dataclass(frozen=True)
class Figure:
    """One figure: its name, its value in words with its unit, and `trouble`: empty while it
    is in range, else a plain word and what it means."""

    name: str
    value: str
    trouble: str = ""


@dataclass
class BoardFigures:
    """The latest heartbeat and the one before it, the HELLO, and the resets seen meanwhile."""

    heartbeat: Heartbeat | None = None
    previous: Heartbeat | None = None
    hello: Hello | None = None
    late_seen: int = 0  # late scans in every heartbeat taken
    heap_most_kb: int | None = None  # the most free heap a heartbeat told while watching
    resets_seen: list[str] = field(default_factory=list)  # causes of resets seen while watching
    card_came: bool = False  # a card arrived in the last heartbeat's second (or the one before)
    _arrival: int = 0  # heartbeats still to come that may hold a card's arrival

    def take(self, item: object) -> None:
        """Fold one link item in: heartbeats, HELLO, and a reset the link noticed."""
        if isinstance(item, CardArrived):
            # an arriving card is read on past its scan period, by design (firmware/app.py
            # _RFID_ARRIVAL_US): that pass's time is told by the next heartbeat or the one after
            self._arrival = 2
        if isinstance(item, Heartbeat):
            self.card_came = self._arrival > 0
            self._arrival = max(0, self._arrival - 1)
            self.previous, self.heartbeat = self.heartbeat, item
            self.late_seen += item.nlate or 0
            if item.heap_kb is not None:
                self.heap_most_kb = max(item.heap_kb, self.heap_most_kb or 0)
        elif isinstance(item, Hello):
            self.hello = item
        elif isinstance(item, BoardReset):
            self.hello = item.hello
            self.resets_seen.append(item.hello.reset)
            self.previous = None  # its counters start again
            self.heap_most_kb = None

    def reads_per_s(self) -> float | None:
        """Card reads per second over the last heartbeat's interval (1 s when it is the first)."""
        hb = self.heartbeat
        if hb is None or hb.reads is None:
            return None
        span_s = 1.0
        if self.previous is not None:
            delta = hb.uptime_ms - self.previous.uptime_ms
            if 0 < delta < 10_000:
                span_s = delta / 1000
        return hb.reads / span_s

    def figures(self, card_present: bool) -> list[Figure]:
        """Every figure the board gives, in the order docs/build.md checks them."""
        out = [resets_figure(self.hello, self.resets_seen)]
        hb = self.heartbeat
        if hb is None:
            return [*out, Figure(Msg("heartbeat"), Msg("none yet (one comes every second)"))]
        out += [scan_figure(hb, self.card_came), late_figure(hb, self.late_seen)]
        rate = self.reads_per_s()
        if rate is not None:
            out.append(reads_figure(rate, card_present))
        if hb.heap_kb is not None and hb.heaplo_kb is not None:
            out.append(heap_figure(hb.heap_kb, hb.heaplo_kb, self.heap_most_kb or hb.heap_kb))
        return out


def scan_figure(hb: Heartbeat, card_came: bool = False) -> Figure:
    """The time the loop was busy per scan period: mean and worst since the last heartbeat. A
    card that arrived then was read on past its period, by design: no trouble while no scan was
    a period late."""
    name = Msg("scan time")
    if hb.tscan_us is None or hb.tmax_us is None:
        return Figure(name, Msg("not told by this firmware (make deploy brings it)"))
    mean, worst = hb.tscan_us / 1000, hb.tmax_us / 1000
    value = Msg("{mean} ms mean, {worst} ms worst per {period} ms period", mean=format(mean, ".1f"),
                worst=format(worst, ".1f"), period=SCAN_PERIOD_MS)
    if worst > SCAN_PERIOD_MS and card_came and (hb.late_ms or 0) <= SCAN_PERIOD_MS:
        return Figure(name, value + Msg(" (a card arrived: its read runs past its period)"))
    if worst > SCAN_PERIOD_MS:
        return Figure(name, value, Msg("TOO SLOW: a pass overran its period, so scans "
                                       "start late and holes are read late"))
    if mean > SCAN_PERIOD_MS * (1 - SPARE_SHARE):
        return Figure(name, value, Msg("TIGHT: less than a third of the period to spare; "
                                       "card reads will wait"))
    return Figure(name, value)


def late_figure(hb: Heartbeat, seen: int) -> Figure:
    """Scans that began half a period or more late, in the last second and since watching."""
    name = Msg("late scans")
    if hb.nlate is None:
        late = Msg("worst {ms} ms behind", ms=hb.late_ms) if hb.late_ms is not None else Msg("not told")
        return Figure(name, late + Msg(" (this firmware does not count them)"))
    value = Msg("{late} in the last second ({seen} while watching), worst {ms} ms behind",
                late=hb.nlate, seen=seen, ms=hb.late_ms or 0)
    if hb.late_ms is not None and hb.late_ms > SCAN_PERIOD_MS:
        return Figure(name, value, Msg("FALLING BEHIND: a scan began more than a whole "
                                       "period late"))
    if hb.nlate:
        return Figure(name, value, Msg("LATE: the loop was held up (a long command, a "
                                       "stalled read, a slow flash import)"))
    return Figure(name, value)


def reads_figure(rate: float, card_present: bool) -> Figure:
    """Card reads per second; judged only while a card lies on the reader."""
    name = Msg("card reads")
    value = (Msg("{rate} a second", rate=format(rate, ".0f")) if card_present
             else Msg("{rate} a second (no card on the reader)", rate=format(rate, ".0f")))
    if card_present and rate < CARD_READS_MIN:
        return Figure(name, value, Msg("SLOW: under {least} a second with a card lying there "
                                       "(expect about 50): reads fail or wait for the scan",
                                       least=format(CARD_READS_MIN, ".0f")))
    return Figure(name, value)


def heap_figure(heap_kb: int, low_kb: int, most_kb: int) -> Figure:
    """Free heap now, the least since boot and the most while watching (garbage counts as used
    until it is collected); judged on the most."""
    value = Msg("{now} KB free now, {low} KB at the least, {most} KB at the most",
                now=heap_kb, low=low_kb, most=most_kb)
    if most_kb < HEAP_LOW_KB:
        return Figure(Msg("heap"), value, Msg("LOW: under {least} KB free even after a "
                                              "collection; a RAW reply or a replay may fail "
                                              "for memory", least=HEAP_LOW_KB))
    return Figure(Msg("heap"), value)


def resets_figure(hello: Hello | None, seen: list[str]) -> Figure:
    """Why the board last started, its resets since power-on by cause, and those seen here."""
    name = Msg("resets")
    if hello is None:
        return Figure(name, Msg("no HELLO yet"))
    value: str = Msg("last start: {cause}", cause=hello.reset)
    if hello.resets is None:
        value += Msg("; counts since power-on not kept by this board")
        counts = dict.fromkeys(RESET_KINDS, 0)
    else:
        counts = dict(zip(RESET_KINDS, hello.resets, strict=True))
        value += Msg("; since power-on: {counts}",
                     counts=", ".join(f"{k} {n}" for k, n in counts.items()))
    if seen:
        value += Msg("; seen here: {causes}", causes=", ".join(seen))
    if counts["wdt"] or hello.reset == "wdt":
        return Figure(name, value, Msg("WATCHDOG: the loop stalled for 8 s and the chip was "
                                       "reset (a read or a command that never ended)"))
    if counts["other"]:
        return Figure(name, value, Msg("BROWN-OUT OR PANIC: check the supply (USB cable, "
                                       "the reader's 3.3 V) and the faults the board reported"))
    return Figure(name, value)
