"""The current physical picture of the board, kept from snapshots and events.

`BoardModel.apply(item)` takes what the link delivers (board events and link notices) and
returns the observations it makes: what changed, in order. A snapshot is diffed against the
picture, so a change lost on the wire still comes out as an observation (a card now present
that the picture lacks gives an arrival; a card that came and went unseen gives nothing).
Codes are mapped to mole ends through the code table; an invalid code is named invalid, never
taken for another pair.

A board that has just booted (a reset, an unplug and replug) sends its first snapshot before its
reader has looked at the field: that snapshot says "no card" even when a card lies there, and
the reader then reports the card as an arrival. So a card the picture held when the board booted
is kept, with no observation, until the new boot's reader has spoken: the same card arriving
gives nothing (it lay there throughout), another card is the first one's departure and the new
one's arrival (a tap made during the reset counts), and when the board has run `READER_LOOK_MS`
with no word of a card, the card left during the reset. Holes need none of this: the board
settles its holes before its first snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass

from upref.board.codes import EMPTY, CodeTable, MoleEnd
from upref.link.notices import BoardReset, LinkItem, Offline, Online, Resynced
from upref.link.protocol import (
    Button,
    CardArrived,
    CardLeft,
    Fault,
    FaultCleared,
    Heartbeat,
    Hello,
    HoleChanged,
    Snapshot,
)
from upref.text import Msg

# Fault kinds whose state the snapshot carries (faults=s<k>,h<n>,rfid,cards). Others (exc, cal,
# ...) are events of a moment: observed, not kept.
PERSISTENT_FAULT_KINDS = ("sensor", "hole", "rfid")

READER_LOOK_MS = 2000
"""Board time after a boot by which its reader has surely reported a card lying on it (it reads
the field 50 times a second; a heartbeat comes every second). Until then a card the picture held
before the boot is not taken as gone; a heartbeat with this uptime or more settles it."""


def fault_key(kind: str, where: str) -> str | None:
    """The snapshot's name for a fault (`s7`, `h3`, `rfid`; `cards` for several cards on the
    reader, FAULT rfid field), or None for a momentary one."""
    if kind in ("sensor", "hole"):
        return where
    if kind == "rfid":
        return "cards" if where == "field" else "rfid"
    return None


def fault_advice(kind: str, where: str, text: str = "", per_hole: int = 4) -> str:
    """A fault in words for the people at the table: what, where, and what to do."""
    if kind == "sensor" and where[1:].isdigit():
        k = int(where[1:]) - 1
        place = Msg(
            "sensor {sensor} (hole {hole}, position P{position})",
            sensor=k + 1,
            hole=k // per_hole + 1,
            position=k % per_hole + 1,
        )
        return Msg(
            "{place} reads {what}: a floating, shorted or broken input. Check its wiring and its "
            "multiplexer channel (upref doctor shows its level); the hole keeps its last reading "
            "until the sensor reads sanely again",
            place=place,
            what=text or Msg("outside every band"),
        )
    if kind == "hole" and where[1:].isdigit():
        return Msg(
            "hole {hole} {what}: its code keeps changing. Seat the pair firmly and keep hands "
            "off; if it goes on, check that hole's sensors with upref doctor",
            hole=where[1:],
            what=text or Msg("never settles"),
        )
    if kind == "rfid" and where == "field":
        return Msg("two cards on the reader: tap one at a time")
    if kind == "rfid":
        return Msg(
            "RFID reader: {what}. Check the MFRC522's SPI wiring and its 3.3 V supply; the board "
            "keeps retrying by itself",
            what=text or Msg("not answering"),
        )
    if kind == "exc":
        return Msg(
            "the board's main loop failed ({text}) and restarted itself; if it repeats, run "
            "upref doctor and report the message",
            text=text,
        )
    return f"{kind} {where}: {text}".strip()


def _kind_of_key(key: str) -> tuple[str, str]:
    if key == "rfid":
        return "rfid", "reader"
    if key == "cards":
        return "rfid", "field"
    if key.startswith("s"):
        return "sensor", key
    if key.startswith("h"):
        return "hole", key
    return "other", key


@dataclass(frozen=True)
class HoleState:
    """What one hole reads: its code, the mole end it stands for (None when empty or invalid)
    and whether the code is valid (empty or in the table)."""

    code: int
    end: MoleEnd | None
    valid: bool

    @property
    def empty(self) -> bool:
        return self.code == EMPTY


@dataclass(frozen=True)
class HoleObservation:
    hole: int
    old_code: int
    new_code: int
    old: HoleState
    new: HoleState


@dataclass(frozen=True)
class CardObservation:
    arrived: bool  # True: arrived in the field; False: left it
    uid: str


@dataclass(frozen=True)
class ButtonObservation:
    pressed: bool


@dataclass(frozen=True)
class FaultObservation:
    key: str  # s7, h3, rfid, or kind:where for a momentary fault
    raised: bool  # True: appeared; False: cleared
    kind: str
    where: str
    text: str = ""


Observation = HoleObservation | CardObservation | ButtonObservation | FaultObservation


class BoardModel:
    """The board as the host believes it is.

    - `holes[n]` for hole n = 1..N: a `HoleState`
    - `card`: UID (upper-case hex) of the card in the reader's field, or None
    - `button`: pressed or not
    - `faults`: the current faults by their snapshot names (`s7`, `h3`, `rfid`); the text of
      each, when a FAULT frame gave one, in `fault_texts`
    - `online`: whether the link reports the board online
    - `unread`: the card the picture held when the board booted, while the new boot's reader
      has not reported it (see the module's docstring), else None
    """

    def __init__(self, codes: CodeTable, holes: int = 10) -> None:
        self.codes = codes
        self.holes: dict[int, HoleState] = {}
        self.card: str | None = None
        self.button = False
        self.presses: int | None = None  # presses since the board booted; None: not known yet
        self.faults: set[str] = set()
        self.fault_texts: dict[str, str] = {}
        self.online = False
        self.hello: Hello | None = None
        self.unread: str | None = None
        self._unread_denied = False  # a snapshot since the boot said the field is empty
        self._resize(holes)

    def _resize(self, n: int) -> None:
        self.holes = {h: self.holes.get(h, self.state_of(EMPTY)) for h in range(1, n + 1)}

    def state_of(self, code: int) -> HoleState:
        """The HoleState a code stands for."""
        return HoleState(code, self.codes.lookup(code), self.codes.is_valid(code))

    def apply(self, item: LinkItem) -> list[Observation]:
        """Take one board event or link notice into the picture; return what changed, in order.

        Events that change nothing (a repeated card arrival, a HOLE with the code already
        known) give no observation. Items the picture does not hold (heartbeats, replies,
        dropped lines) give none either.
        """
        match item:
            case HoleChanged(hole=hole, code=code):
                return self._set_hole(hole, code)
            case CardArrived(uid=uid):
                self._read()
                return self._set_card(uid)
            case CardLeft(uid=uid):
                # The board says the field is empty now. If the picture held another card, that
                # one left unseen; the departing card's own arrival was lost, which is nothing.
                self._read()
                return self._set_card(None)
            case Heartbeat(uptime_ms=uptime_ms):
                return self._heartbeat(uptime_ms)
            case Button(pressed=pressed):
                return self._set_button(pressed)
            case Fault(kind=kind, where=where, text=text):
                return self._raise_fault(kind, where, text)
            case FaultCleared(kind=kind, where=where):
                return self._clear_fault(kind, where)
            case Snapshot():
                return self._apply_snapshot(item)
            case Resynced(snapshot=snapshot, reason=reason):
                if reason == "connect":
                    self.presses = None  # a new host: presses before it came are not its business
                return self._apply_snapshot(snapshot)
            case Hello():
                if self.hello is not None and (item.boot is None or item.boot != self.hello.boot):
                    self._booted()  # another boot (or a board that cannot say: perhaps one)
                self._take_hello(item)
                return []
            case BoardReset(hello=hello):
                self._booted()
                self._take_hello(hello)
                self.presses = 0  # the board counts presses from its boot
                return []
            case Online():
                self.online = True
                return []
            case Offline():
                self.online = False
                return []
        return []

    def _heartbeat(self, uptime_ms: int) -> list[Observation]:
        """A heartbeat: after a boot, the reader's first look that found no card says that the
        card the picture held has left."""
        if self.unread is None or not self._unread_denied or uptime_ms < READER_LOOK_MS:
            return []
        self._read()  # the reader has had its look and found nothing: the card left
        return self._set_card(None)

    def _set_button(self, pressed: bool) -> list[Observation]:
        if pressed == self.button:
            return []
        self.button = pressed
        if pressed and self.presses is not None:
            self.presses += 1
        return [ButtonObservation(pressed)]

    def _raise_fault(self, kind: str, where: str, text: str) -> list[Observation]:
        """A fault reported: new once per key (its text kept up to date); one the picture does
        not know how to key is passed on each time."""
        key = fault_key(kind, where)
        if key is None:
            return [FaultObservation(f"{kind}:{where}", True, kind, where, text)]
        self.fault_texts[key] = text
        if key in self.faults:
            return []
        self.faults.add(key)
        return [FaultObservation(key, True, kind, where, text)]

    def _clear_fault(self, kind: str, where: str) -> list[Observation]:
        key = fault_key(kind, where)
        if key is None or key not in self.faults:
            return []
        self.faults.discard(key)
        self.fault_texts.pop(key, None)
        return [FaultObservation(key, False, kind, where)]

    def _booted(self) -> None:
        """The board has booted: its reader has not yet looked at the card the picture holds."""
        self.unread = self.card
        self._unread_denied = False

    def _read(self) -> None:
        """The new boot's reader has spoken about the field (or has had time to)."""
        self.unread = None
        self._unread_denied = False

    def _take_hello(self, hello: Hello) -> None:
        self.hello = hello
        if hello.holes != len(self.holes):
            self._resize(hello.holes)

    def _set_hole(self, hole: int, code: int) -> list[Observation]:
        if hole not in self.holes:
            self._resize(max(hole, len(self.holes)))
        old = self.holes[hole]
        if old.code == code:
            return []
        new = self.state_of(code)
        self.holes[hole] = new
        return [HoleObservation(hole, old.code, code, old, new)]

    def _set_card(self, uid: str | None) -> list[Observation]:
        if uid == self.card:
            return []
        out: list[Observation] = []
        if self.card is not None:
            out.append(CardObservation(False, self.card))
        if uid is not None:
            out.append(CardObservation(True, uid))
        self.card = uid
        return out

    def _apply_snapshot(self, snap: Snapshot) -> list[Observation]:
        if len(snap.holes) != len(self.holes):
            self._resize(len(snap.holes))
        out: list[Observation] = []
        for hole, code in enumerate(snap.holes, start=1):
            out += self._set_hole(hole, code)
        if snap.card is None and self.unread is not None:
            self._unread_denied = True  # taken before the reader looked: not yet a departure
        else:
            if snap.card is not None:
                self._read()
            out += self._set_card(snap.card)
        if self.presses is not None and snap.presses > self.presses:
            # presses lost on the wire: the press we saw (if any) has ended, each lost whole
            # click is a press and a release, and a press still held comes out just below
            if self.button:
                out.append(ButtonObservation(False))
                self.button = False
            clicks = snap.presses - self.presses - (1 if snap.button else 0)
            for _ in range(min(clicks, 10)):
                out += [ButtonObservation(True), ButtonObservation(False)]
        self.presses = snap.presses
        if snap.button != self.button:
            self.button = snap.button
            out.append(ButtonObservation(snap.button))
        now = set(snap.faults)
        for key in sorted(now - self.faults):
            kind, where = _kind_of_key(key)
            out.append(FaultObservation(key, True, kind, where))
        for key in sorted(self.faults - now):
            kind, where = _kind_of_key(key)
            out.append(FaultObservation(key, False, kind, where))
            self.fault_texts.pop(key, None)
        self.faults = now
        return out
