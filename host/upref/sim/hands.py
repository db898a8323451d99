"""The hands at the table: the control verbs that change the physical world (pull, insert,
flip, move, tap, remove, button, magnet, sensor, rfid), carried out on the `physics.World` and
told to the firmware process as world records. A hand takes its time (a flip, a move, a click)
and a hole is busy while it does.

Each verb's handler is `verb_<name>(ok, *arguments)`, named in the board's table of handlers
(`SimBoard._verb_handlers`): the arguments as `verbs.parse_command` checked them; `ok(details)` answers (perhaps later, when the hand is done); an impossible action
raises physics.WorldError.
"""

from __future__ import annotations

import collections
import random
import time
from collections.abc import Callable
from typing import Any

from upref.link.protocol import (
    Button,
    CardArrived,
    CardLeft,
    Event,
    Heartbeat,
    HoleChanged,
    InvalidFrameError,
    LineSplitter,
    decode,
    parse_event,
)
from upref.sim import physics
from upref.sim.firmware_process import encode_record, ticks_now

SENSOR_MODES = {"ok": 0, "float": 1, "rail": 2, "rail-low": 3}  # sim_world.MODE_*
MFRC522_VERSION = 0x92  # what a live reader's VersionReg holds

Ok = Callable[..., None]

HOLD_CAP_S = 5.0
"""The longest a hand waits, beyond its own time, for the firmware to tell what it did: past
it the hand goes on (a firmware stopped at its REPL, a dead sensor or reader tells nothing)."""
HEARD_BEATS = 2
"""Heartbeats after a change by which the firmware has surely scanned past it (a heartbeat
period is about 100 scans), when no event of its own says so (a change it does not report)."""
SILENT_S = 10.0
"""A firmware that has sent no frame for this long (it sends a heartbeat every second) is not
heard: hands hold for their own
time only."""
_LOOK_S = 0.01


class Heard:
    """What the firmware has said on its UART, read as it leaves the chip (before the line's
    noise or an unplug touches it): a hand that holds something for a while waits until the
    firmware has seen it, so that a loaded machine, whose firmware scans late, only slows the
    hands down and never makes them quicker than the chip (a tap it never saw)."""

    def __init__(self) -> None:
        self._lines = LineSplitter()
        self._events: collections.deque[Event] = collections.deque(maxlen=256)
        self._count = 0
        self._said_at = -1e9  # when the firmware's latest frame was heard (the machine's clock)

    def speaking(self) -> bool:
        """Whether the firmware tells its story now: a frame within `SILENT_S` (a firmware of
        other words, at its REPL, or not running tells nothing, and a hand does not wait for
        it)."""
        return time.monotonic() - self._said_at < SILENT_S

    def feed(self, data: bytes) -> None:
        """The firmware's output, as it comes."""
        for line in self._lines.feed(data):
            try:
                event = parse_event(decode(line))
            except InvalidFrameError:
                continue  # text, a reply: nothing a hand waits for
            self._events.append(event)
            self._count += 1
            self._said_at = time.monotonic()

    def mark(self) -> int:
        """Where the firmware's story is now, for `since`."""
        return self._count

    def since(self, mark: int) -> list[Event]:
        """The events the firmware told after `mark` (the latest 256 at most)."""
        n = min(self._count - mark, len(self._events))
        return list(self._events)[len(self._events) - n:] if n > 0 else []

    def seen(self, mark: int, wanted: Callable[[Event], bool]) -> bool:
        """Whether the firmware has told what the hand waits for since `mark`, or has scanned
        past it without a word (`HEARD_BEATS` heartbeats)."""
        told = self.since(mark)
        beats = sum(isinstance(e, Heartbeat) for e in told)
        return beats >= HEARD_BEATS or any(wanted(e) for e in told)


def hole_empty(hole: int) -> Callable[[Event], bool]:
    return lambda e: isinstance(e, HoleChanged) and e.hole == hole and e.code == 0


def holes_empty(holes: list[int]) -> Callable[[Event], bool]:
    """Every one of `holes` told empty (the events are looked at in order, each once or more)."""
    left = set(holes)

    def wanted(e: Event) -> bool:
        if isinstance(e, HoleChanged) and e.code == 0:
            left.discard(e.hole)
        return not left

    return wanted


def card_is(uid: str, arrived: bool) -> Callable[[Event], bool]:
    kind = CardArrived if arrived else CardLeft
    return lambda e: isinstance(e, kind) and e.uid == uid


def button_is(pressed: bool) -> Callable[[Event], bool]:
    return lambda e: isinstance(e, Button) and e.pressed == pressed


class Hands:
    """send(records): to the firmware process (if one runs); at(delay, fn): later, on the
    board's loop; heard: what the firmware says, and running() whether it runs (a hand that
    holds something waits for the firmware to have seen it, see `Heard`; without them, or with
    no firmware running, it holds for its own time only)."""

    def __init__(self, world: physics.World, send: Callable[[list[bytes]], None],
                 at: Callable[[float, Callable[[], Any]], None], heard: Heard | None = None,
                 running: Callable[[], bool] = lambda: False) -> None:
        self.world = world
        self.send = send
        self.at = at
        self.heard = heard
        self.running = running
        self.busy: dict[int, str] = {}  # hole -> what a hand is doing there
        self.last_settled_ms = 0  # the last change's magnets are all in place this long after it
        self.hand: dict[str, str] = {}  # pair in a hand -> where it goes
        # the simulated deck's stickers: UID -> its user memory from page 4 (the record that
        # names its piece, docs/tags.md), written into the firmware process's reader each time
        # the card is laid (the reader's model keeps no card's memory once it has left)
        self.deck: dict[str, bytes] = {}

    def records(self) -> list[bytes]:
        """The whole world as records, for a firmware process that starts."""
        w = self.world
        recs = [encode_record("V", w.vref_mv)]
        recs += [encode_record("L", k, uv, 0, 0) for k, uv in enumerate(w.volts())]
        recs += [encode_record("F", k, SENSOR_MODES[mode]) for k, mode in w.sensor_modes.items()]
        recs.append(encode_record("B", 1 if w.button else 0))
        recs.append(encode_record("K0"))
        for uid in w.cards:
            recs += self.lay(uid)
        recs.append(encode_record("R", MFRC522_VERSION if w.rfid_ok else 0))
        return recs

    def lay(self, uid: str) -> list[bytes]:
        """The records that lay card `uid` on the reader: a deck's sticker's memory first (page
        by page from page 4), then the card."""
        recs: list[bytes] = []
        memory = self.deck.get(uid)
        if memory is not None:
            recs += [
                encode_record("KW", uid, 4 + k // 4, memory[k : k + 4].hex().upper())
                for k in range(0, len(memory), 4)
            ]
        return [*recs, encode_record("K+", uid, ticks_now())]

    def _sensors(self, changes: list[physics.Change]) -> None:
        # when the last magnet of this change is seated (or gone): ms after now (for make bench)
        self.last_settled_ms = max((c.delay_ms + c.ramp_ms for c in changes), default=0)
        stamp = ticks_now()
        self.send([encode_record("L", c.k, c.uv, c.ramp_ms, c.delay_ms, stamp) for c in changes])

    def _check_idle(self, hole: int) -> None:
        if hole in self.busy:
            raise physics.WorldError(f"hole {hole} is busy ({self.busy[hole]} under way): try again in a second")

    def _take(self, hole: int, pid: str, what: str) -> None:
        self.busy[hole] = what
        self.hand[pid] = what

    def _put(self, hole: int, pid: str) -> None:
        self.busy.pop(hole, None)
        self.hand.pop(pid, None)

    def _hold(self, seconds: float, wanted: Callable[[Event], bool], then: Callable[[], Any]) -> None:
        """`then()` once the hand has held for `seconds` and the firmware has told `wanted`
        (or scanned past it): a hold counts in what the chip has seen, not in the machine's
        time alone. At most `HOLD_CAP_S` more."""
        heard = self.heard
        if heard is None:
            self.at(seconds, then)
            return
        mark, cap = heard.mark(), time.monotonic() + seconds + HOLD_CAP_S

        def look() -> None:
            if not (self.running() and heard.speaking()) or heard.seen(mark, wanted) or time.monotonic() >= cap:
                then()
            else:
                self.at(_LOOK_S, look)

        self.at(seconds, look)

    def _set_button(self, pressed: bool) -> None:
        self.world.button = pressed
        self.send([encode_record("B", 1 if pressed else 0, ticks_now())])

    # ---- the verbs ------------------------------------------------------------------------------

    def verb_pull(self, ok: Ok, hole: int) -> None:
        w = self.world
        self._check_idle(hole)
        pid = w.holes[hole - 1].pair
        vis = w.visible(hole - 1)
        self._sensors(w.pull(hole))
        ok(f"pulled {pid} ({physics.colour_name(vis or '?')} was up) out of hole {hole}")

    def verb_insert(self, ok: Ok, hole: int, pid: str, down: str) -> None:
        w = self.world
        self._check_idle(hole)
        self._sensors(w.insert(hole, pid, down))
        ok(f"hole {hole}: {pid} with {physics.colour_name(w.pairs[pid].other(down))} up")

    def verb_flip(self, ok: Ok, hole: int) -> None:
        w = self.world
        self._check_idle(hole)
        h = w.holes[hole - 1]
        if h.pair is None or h.down is None:
            raise physics.WorldError(f"hole {hole} is empty: nothing to flip (see `state`)")
        pid, new_down = h.pair, w.pairs[h.pair].other(h.down)
        self._sensors(w.pull(hole))
        self._take(hole, pid, "flip")

        def back() -> None:
            self._put(hole, pid)
            self._sensors(w.insert(hole, pid, new_down))
            ok(f"hole {hole}: {pid} turned over, {physics.colour_name(w.pairs[pid].other(new_down))} up")

        self._hold(physics.FLIP_MS / 1000.0, hole_empty(hole), back)

    def verb_move(self, ok: Ok, src: int, dst: int) -> None:
        w = self.world
        self._check_idle(src)
        self._check_idle(dst)
        h = w.holes[src - 1]
        if h.pair is None or h.down is None:
            raise physics.WorldError(f"hole {src} is empty: nothing to move (see `state`)")
        if w.holes[dst - 1].pair is not None:
            raise physics.WorldError(f"hole {dst} already holds {w.holes[dst - 1].pair}: pull {dst} first")
        pid, down = h.pair, h.down
        self._sensors(w.pull(src))
        self._take(dst, pid, "move")

        def land() -> None:
            self._put(dst, pid)
            self._sensors(w.insert(dst, pid, down))
            ok(f"moved {pid} from hole {src} to hole {dst}, {physics.colour_name(w.pairs[pid].other(down))} up")

        self._hold(physics.MOVE_MS / 1000.0, hole_empty(src), land)

    def verb_tap(self, ok: Ok, uid: str) -> None:
        w = self.world
        if uid in w.cards:
            raise physics.WorldError(f"card {uid} already lies on the reader: `remove {uid}` first")
        w.cards.append(uid)
        self.send(self.lay(uid))
        ok(f"card {uid} in the field" + (f" with {len(w.cards) - 1} other" if len(w.cards) > 1 else ""))

    def verb_remove(self, ok: Ok, uid: str | None = None) -> None:
        w = self.world
        if not w.cards:
            raise physics.WorldError("no card lies on the reader: nothing to remove")
        if uid is not None:
            if uid not in w.cards:
                raise physics.WorldError(f"card {uid} is not on the reader; there: {', '.join(w.cards)}")
            gone = [uid]
        else:
            gone = list(w.cards)
        for u in gone:
            w.cards.remove(u)
            self.send([encode_record("K-", u)])
        ok("removed " + ", ".join(gone))

    def verb_touch(self, ok: Ok, uid: str) -> None:
        """A tap as a hand makes it: the card on the reader for `TOUCH_MS`, then taken away;
        answered `TOUCH_GAP_MS` later, so the next tap is a card of its own."""
        w = self.world
        if w.cards:
            raise physics.WorldError(
                f"card {', '.join(w.cards)} lies on the reader: `remove` it first"
            )
        w.cards.append(uid)
        self.send(self.lay(uid))

        def away() -> None:
            if uid in w.cards:
                w.cards.remove(uid)
                self.send([encode_record("K-", uid)])
            self._hold(physics.TOUCH_GAP_MS / 1000.0, card_is(uid, False),
                       lambda: ok(f"card {uid} tapped and taken away"))

        self._hold(physics.TOUCH_MS / 1000.0, card_is(uid, True), away)

    def verb_remix(self, ok: Ok, seed: int | None = None) -> None:
        """Every pair out, then after `REMIX_OUT_MS` all of them back into the holes in an
        order and with ends down drawn from `seed` (else from the hands' own stream)."""
        w = self.world
        if self.busy:
            hole, what = next(iter(self.busy.items()))
            raise physics.WorldError(f"hole {hole} is busy ({what} under way): try again in a second")
        rng = random.Random(seed if seed is not None else w.timing.getrandbits(32))
        changes: list[physics.Change] = []
        pulled = [hole for hole in range(1, physics.HOLES + 1) if w.holes[hole - 1].pair is not None]
        for hole in pulled:
            changes += w.pull(hole)
        self._sensors(changes)
        pids = sorted(w.pairs)[: physics.HOLES]
        rng.shuffle(pids)
        for hole, pid in enumerate(pids, start=1):
            self._take(hole, pid, "remix")

        def back() -> None:
            placed: list[physics.Change] = []
            said = []
            for hole, pid in enumerate(pids, start=1):
                self._put(hole, pid)
                down = rng.choice(w.pairs[pid].colours)
                placed += w.insert(hole, pid, down)
                said.append(f"{hole}: {pid} {physics.colour_name(w.pairs[pid].other(down))} up")
            self._sensors(placed)
            ok("re-mixed, hole " + "; ".join(said))

        self._hold(physics.REMIX_OUT_MS / 1000.0, holes_empty(pulled), back)

    def verb_button(self, ok: Ok, action: str) -> None:
        if action == "click":
            self._set_button(True)

            def release() -> None:
                self._set_button(False)
                self._hold(0.0, button_is(False), lambda: ok("button clicked"))

            self._hold(physics.CLICK_MS / 1000.0, button_is(True), release)
        else:
            self._set_button(action == "press")
            ok(f"button {'pressed' if action == 'press' else 'released'}")

    def verb_magnet(self, ok: Ok, hole: int, position: int, strength: float) -> None:
        self._sensors(self.world.set_magnet(hole, position, strength))
        ok(f"hole {hole} position {position}: magnet strength {strength:g}")

    def verb_sensor(self, ok: Ok, k: int, mode: str) -> None:
        w = self.world
        if mode == "ok":
            w.sensor_modes.pop(k - 1, None)
        else:
            w.sensor_modes[k - 1] = mode
        self.send([encode_record("F", k - 1, SENSOR_MODES[mode])])
        hole, pos = divmod(k - 1, physics.POSITIONS)
        ok(f"sensor s{k} (hole {hole + 1} position {pos + 1}): {mode}")

    def verb_rfid(self, ok: Ok, mode: str) -> None:
        w = self.world
        w.rfid_ok = mode == "ok"
        self.send([encode_record("R", MFRC522_VERSION if w.rfid_ok else 0)])
        ok(f"RFID reader {'answers' if w.rfid_ok else 'dead'}")
