"""The hands at the table: the control verbs that change the physical world (pull, insert,
flip, move, tap, remove, button, magnet, sensor, rfid), carried out on the `physics.World` and
told to the firmware process as world records. A hand takes its time (a flip, a move, a click)
and a hole is busy while it does.

Each verb's handler is `verb_<name>(ok, *arguments)`, named in the board's table of handlers
(`SimBoard._verb_handlers`): the arguments as `verbs.parse_command` checked them; `ok(details)` answers (perhaps later, when the hand is done); an impossible action
raises physics.WorldError.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from upref.sim import physics
from upref.sim.firmware_process import encode_record, ticks_now

SENSOR_MODES = {"ok": 0, "float": 1, "rail": 2, "rail-low": 3}  # sim_world.MODE_*
MFRC522_VERSION = 0x92  # what a live reader's VersionReg holds

Ok = Callable[..., None]


class Hands:
    """send(records): to the firmware process (if one runs); at(delay, fn): later, on the
    board's loop."""

    def __init__(self, world: physics.World, send: Callable[[list[bytes]], None],
                 at: Callable[[float, Callable[[], Any]], None]) -> None:
        self.world = world
        self.send = send
        self.at = at
        self.busy: dict[int, str] = {}  # hole -> what a hand is doing there
        self.last_settled_ms = 0  # the last change's magnets are all in place this long after it
        self.hand: dict[str, str] = {}  # pair in a hand -> where it goes

    def records(self) -> list[bytes]:
        """The whole world as records, for a firmware process that starts."""
        w = self.world
        recs = [encode_record("V", w.vref_mv)]
        recs += [encode_record("L", k, uv, 0, 0) for k, uv in enumerate(w.volts())]
        recs += [encode_record("F", k, SENSOR_MODES[mode]) for k, mode in w.sensor_modes.items()]
        recs.append(encode_record("B", 1 if w.button else 0))
        recs.append(encode_record("K0"))
        recs += [encode_record("K+", uid) for uid in w.cards]
        recs.append(encode_record("R", MFRC522_VERSION if w.rfid_ok else 0))
        return recs

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

    def _set_button(self, pressed: bool) -> None:
        self.world.button = pressed
        self.send([encode_record("B", 1 if pressed else 0)])

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

        self.at(physics.FLIP_MS / 1000.0, back)

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

        self.at(physics.MOVE_MS / 1000.0, land)

    def verb_tap(self, ok: Ok, uid: str) -> None:
        w = self.world
        if uid in w.cards:
            raise physics.WorldError(f"card {uid} already lies on the reader: `remove {uid}` first")
        w.cards.append(uid)
        self.send([encode_record("K+", uid)])
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
        self.send([encode_record("K+", uid)])

        def away() -> None:
            if uid in w.cards:
                w.cards.remove(uid)
                self.send([encode_record("K-", uid)])
            self.at(physics.TOUCH_GAP_MS / 1000.0, lambda: ok(f"card {uid} tapped and taken away"))

        self.at(physics.TOUCH_MS / 1000.0, away)

    def verb_remix(self, ok: Ok, seed: int | None = None) -> None:
        """Every pair out, then after `REMIX_OUT_MS` all of them back into the holes in an
        order and with ends down drawn from `seed` (else from the hands' own stream)."""
        w = self.world
        if self.busy:
            hole, what = next(iter(self.busy.items()))
            raise physics.WorldError(f"hole {hole} is busy ({what} under way): try again in a second")
        rng = random.Random(seed if seed is not None else w.timing.getrandbits(32))
        changes: list[physics.Change] = []
        for hole in range(1, physics.HOLES + 1):
            if w.holes[hole - 1].pair is not None:
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

        self.at(physics.REMIX_OUT_MS / 1000.0, back)

    def verb_button(self, ok: Ok, action: str) -> None:
        if action == "click":
            self._set_button(True)

            def release() -> None:
                self._set_button(False)
                ok("button clicked")

            self.at(physics.CLICK_MS / 1000.0, release)
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
