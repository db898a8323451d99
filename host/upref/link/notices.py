"""What the link itself has to say, delivered on `Link.events` with the board's events.

Pure data, no transport: the board model, the referee side and replay read these without
pyserial (`link.connection` makes them; everything else only reads them).
"""

from __future__ import annotations

from dataclasses import dataclass

from upref.link.protocol import Event, Hello, Snapshot

__all__ = [
    "BoardReset",
    "Dropped",
    "EventsLost",
    "LinkItem",
    "NoMemory",
    "Notice",
    "Offline",
    "Online",
    "Recovered",
    "Resynced",
]


@dataclass(frozen=True)
class Online:
    """Frames flow from the board (after the handshake, or after silence)."""

    url: str


@dataclass(frozen=True)
class Offline:
    """The board went silent or its port was lost; `reason` says which."""

    reason: str


@dataclass(frozen=True)
class Resynced:
    """A snapshot taken to resynchronise (on connect, after a gap, an error, a reset...);
    apply it like any Snapshot."""

    snapshot: Snapshot
    reason: str = ""


@dataclass(frozen=True)
class BoardReset:
    """The board sent a HELLO nobody asked for: it has rebooted. A resync follows. `advice`
    says what to do when the reboot tells of a cause (a brown-out), else it is empty."""

    hello: Hello
    advice: str = ""


@dataclass(frozen=True)
class Recovered:
    """The board had stopped at its MicroPython prompt (`what`: "prompt", "raw REPL",
    "traceback") and the link restarted it; `text` says so in one line. A resync follows. With
    `gave_up` the link did not restart it (it keeps stopping), and `text` says what to do."""

    what: str
    text: str
    gave_up: bool = False


@dataclass(frozen=True)
class Dropped:
    """A line that was dropped and counted under `kind` (never acted on)."""

    kind: str
    line: bytes
    reason: str = ""


@dataclass(frozen=True)
class EventsLost:
    """The board's memory no longer reached back to where the host lost the thread: `count`
    events (at least, with `at_least`) are gone; `text` says so in one line. The snapshot that
    follows brings the board's picture as it is now."""

    count: int
    at_least: bool
    text: str


@dataclass(frozen=True)
class NoMemory:
    """The board keeps no events (protocol 1): what the link missed is taken from snapshots
    alone. Said once per link, in one line (`text`)."""

    text: str


Notice = Online | Offline | Resynced | BoardReset | Recovered | Dropped | EventsLost | NoMemory
LinkItem = Event | Notice
