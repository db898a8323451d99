"""The serial link to the board: a thin transport over any pyserial URL.

`Link` opens the port, does the handshake (HELLO, protocol check, SNAP), and then a reader
thread turns lines into typed events and puts them, with the link's own notices, on the
`events` queue. It keeps the host's picture exact (docs/protocol.md, "Keeping the host's
picture exact"): a sequence gap, a CRC or shape error, malformed arguments, an unrequested
HELLO (the board reset), a reconnect or the board coming back online makes it ask for a fresh
SNAP, sent again every 500 ms until answered. No frame for 3 s marks the board offline. When
the port fails or its device vanishes it reopens it with back-off, with no step by the user.
Dropped lines are counted and reported (`Dropped`), never acted on.

Opening keeps asking (HELLO, then SNAP) while the board sends frames, whole or damaged, up to
`LinkSettings.noisy_timeout` (30 s), with a line to `LinkSettings.progress` every few seconds
saying what it has seen; a silent board, or one that sends only text, fails after
`connect_timeout` (5 s).

Commands (`command`) are matched to their OK/ERR/ECHO by sequence number and sent again when
unanswered.

The port is held alone (pyserial's `exclusive=True`: an flock on POSIX): a second program that
opens it is refused with `PortBusy`, naming the holder when it can be found (`portlock`). It is
opened with DTR and RTS held inactive, set before the port opens (`hold_control_lines`): on
most ESP32 boards those lines reach EN and GPIO0 through the USB bridge (CP2102, CH340), and
a program that lets them toggle on open resets the board, emptying the events it kept.

A board found at its MicroPython prompt (a stray Ctrl-C, a firmware that stopped with a
traceback, a raw REPL left behind) is restarted: the link sends Ctrl-C, Ctrl-B and Ctrl-D (a
soft reset from the friendly prompt), puts a `Recovered` notice on `events` once the board's
HELLO comes back, and resyncs from its snapshot as after any reset. Not while a deploy's
mark on the port is held (`portlock.mark`: the prompt is on purpose then), and not for
ever: a board that stops at its prompt again each time it restarts, before its firmware sends a
single frame, is left there with a notice saying so.
"""

from __future__ import annotations

import errno
import os
import queue
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Literal, Protocol

try:
    import serial
except ImportError as exc:  # the one part of upref that needs pyserial: say so, and what to do
    raise ImportError(
        f"upref.link.connection (the serial link to the board) needs pyserial, which cannot be "
        f"imported ({exc}): install it with `pip install pyserial==3.5`, or install upref with its "
        "dependencies; the board model, referees, replay and views work without it"
    ) from exc

from upref.link import discovery, portlock
from upref.link.errors import LinkError, LinkTimeout, PortBusy, PortNotOpen, ProtocolMismatch
from upref.link.notices import (
    BoardReset,
    Dropped,
    EventsLost,
    LinkItem,
    NoMemory,
    Notice,
    Offline,
    Online,
    Recovered,
    Resynced,
)
from upref.link.protocol import (
    EVENT_FRAMES,
    HOST_FRAMES,
    SUPPORTED_PROTOS,
    Echo,
    Err,
    Event,
    Frame,
    Heartbeat,
    Hello,
    InvalidFrameError,
    LineSplitter,
    Ok,
    Old,
    RawLevels,
    Snapshot,
    TagRecord,
    decode,
    encode_command,
    parse_event,
)
from upref.text import Msg, Plural

__all__ = [
    "BoardReset",
    "Dropped",
    "Link",
    "LinkCounters",
    "LinkError",
    "LinkItem",
    "LinkSettings",
    "LinkTimeout",
    "Notice",
    "Offline",
    "Online",
    "PortBusy",
    "PortNotOpen",
    "ProtocolMismatch",
    "Recovered",
    "Resynced",
]


@dataclass
class LinkCounters:
    """What the link has seen since it was made (across reconnects)."""

    frames: int = 0  # valid frames received and delivered
    crc: int = 0  # well-shaped lines with a wrong CRC, dropped
    shape: int = 0  # lines starting with '@' that are not frames, dropped
    long: int = 0  # over-long lines, dropped
    unknown: int = 0  # sound frames of an unknown type, dropped
    junk: int = 0  # lines not starting with '@' (REPL text, boot messages), dropped
    args: int = 0  # frames with malformed arguments, dropped
    gaps: int = 0  # sequence gaps
    resyncs: int = 0  # snapshots asked for to resynchronise
    reconnects: int = 0  # times the port was reopened after it failed
    offline: int = 0  # times the board went offline (silent, or its port lost)
    commands: int = 0  # frames sent to the board (commands, HELLO and SNAP requests)
    retries: int = 0  # frames sent again because their answer did not come
    recoveries: int = 0  # times the board was found at its prompt and restarted
    since: int = 0  # SINCE requests sent (the board's kept events asked for again)
    replayed: int = 0  # events delivered from the board's memory (OLD frames)
    lost: int = 0  # events the board's memory no longer held when asked


# What the ESP32 prints when its supply sagged below the brown-out detector's level, before it
# restarts (ESP-IDF's brownout handler); MicroPython then reports the reset as a power-on.
BROWNOUT_LINE = b"Brownout detector was triggered"
BROWNOUT_ADVICE = Msg(
    "the board restarted because its supply dropped for a moment (brown-out): check the USB "
    "cable and the port or hub it is plugged into; a short cable on a powered hub or straight "
    "into the computer helps"
)


class SerialPort(Protocol):
    """The subset of pyserial's `Serial` the link uses."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


SerialFactory = Callable[..., SerialPort]

State = Literal["closed", "hello", "snap", "ready"]


@dataclass
class _Pending:
    command: str
    seqs: list[int] = field(default_factory=list)
    reply: Ok | Err | Echo | None = None
    error: LinkError | None = None
    done: threading.Event = field(default_factory=threading.Event)


def hold_control_lines(port: object) -> None:
    """DTR and RTS inactive on a port not yet open, so that opening it pulses neither.

    On an ESP32 board the USB bridge's DTR and RTS drive EN and GPIO0 through two transistors
    (the circuit esptool's reset uses): RTS active with DTR inactive holds EN low, the chip in
    reset. pyserial sets the lines it was given as it opens the port, so with both inactive from
    the start the board runs on. A pty has no such lines and refuses the ioctl (ENOTTY, or
    EINVAL): nothing to hold there. A port object without the lines (a test's fake) is left be.
    """
    for line in ("dtr", "rts"):
        if not hasattr(port, line):
            continue
        try:
            setattr(port, line, False)
        except OSError as exc:
            if exc.errno not in (errno.ENOTTY, errno.EINVAL):
                raise


def _is_device_path(url: str) -> bool:
    return "://" not in url and os.path.isabs(url)


REPL_PAUSE = 0.3  # a traceback or banner with no frame after it this long: the board stopped
RECOVER_LIMIT = 3  # restarts in a row with no frame from the firmware: leave the board be
RECOVER_KEYS = b"\x03\x03\x02\x04"  # Ctrl-C (twice), Ctrl-B (leave raw REPL), Ctrl-D (soft reset)
SINCE_RETRY = 1.0  # a SINCE unanswered this long is sent again
SINCE_AGAIN = 0.1  # a round that lost a frame asks again this soon, without waiting for its end
SINCE_QUIET = 0.3  # a SINCE followed by no frame at all this long is taken as lost, and sent again
DELIVERED_KEPT = 1024  # event sequence numbers remembered, so that each is delivered once
NO_MEMORY_TEXT = Msg(
    "this board's firmware keeps no events (protocol 1): taps made while the link is down may "
    "be lost; `make deploy` brings firmware that keeps them"
)


def _lost_words(count: int, at_least: bool) -> str:
    """The line that says events the board no longer keeps are gone."""
    if at_least:
        return Msg(
            "the board's memory no longer reaches back: at least {n} events while the link was "
            "down are gone; going on from the board as it is now",
            n=count,
        )
    return Plural(
        "the board's memory no longer reaches back: {n} event while the link was down is gone; "
        "going on from the board as it is now",
        "the board's memory no longer reaches back: {n} events while the link was down are "
        "gone; going on from the board as it is now",
        n=count,
    )


_ERROR_LINE = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*(Error|Exception|Interrupt|Exit)\b")


def _busy(exc: BaseException) -> bool:
    """Did opening fail because another program holds the port? (pyserial's exclusive open
    fails with EWOULDBLOCK from flock; a device may also answer EBUSY.)"""
    low = str(exc).lower()
    return "exclusively lock" in low or "resource temporarily unavailable" in low or "busy" in low


def _repl_kind(line: bytes) -> str | None:
    """What a line that is not a frame says about a board at its MicroPython prompt."""
    if line.startswith(b"Traceback (most recent call last)"):
        return "traceback"
    if line.startswith(b"raw REPL; CTRL-B to exit"):
        return "raw REPL"
    if line.startswith(b">>> ") or line == b">>>":
        return "prompt"
    if line.startswith(b"MicroPython v") or line.startswith(b'Type "help()" for more'):
        return "banner"
    return None


def _open_advice(url: str, exc: BaseException) -> str:
    text = f"cannot open {url}: {exc}"
    low = str(exc).lower()
    if "permission denied" in low:
        text += "; your user may not use serial ports: `sudo usermod -aG dialout $USER`, then log in again"
    elif "busy" in low:
        text += "; another program (mpremote, a serial monitor, another upref) has the port open"
    elif "no such file" in low or "could not open port" in low:
        text += (
            "; is the board plugged in? `upref doctor` lists the ports it sees, "
            "`upref sim` starts a simulated board"
        )
    return text


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@dataclass(frozen=True)
class LinkSettings:
    """How a `Link` opens its port, how long it waits and how often it tries again.

    :param serial_factory: called as `serial_factory(url, baudrate=, timeout=, write_timeout=)`
        to open the port (tests pass a fake).
    :param locate: finds the board when the link's url is None (default: `discovery.find_board`,
        by USB id or a running simulated board); called again on every reconnect.
    :param baudrate: the port's speed.
    :param connect_timeout: how long opening may take while nothing like a frame comes from the
        board (a silent port, or text only), and how long the board may fall silent once it
        sent frames, before `LinkTimeout`.
    :param noisy_timeout: how long opening keeps asking (HELLO, then SNAP) while the board sends
        frames but the handshake's answers do not come through whole (line noise).
    :param progress_every: while opening, a line to `progress` this often saying what was seen.
    :param progress: where those lines go (default: standard error), called from the thread
        that opens the link.
    :param clock: the link's clock, in seconds (tests pass one they advance themselves).
    :param heartbeat_timeout: silence after which the board is reported offline.
    :param snap_retry: a SNAP request unanswered this long is sent again.
    :param hello_retry: a HELLO unanswered this long is sent again (doubling to `backoff_max`).
    :param backoff_start, backoff_max: reconnect delays, doubling from start to max.
    :param poll: read timeout of the reader thread; timers are checked at least this often.
    :param write_timeout: how long a write to the port may block.
    :param since: (boot id, sequence number) of the last event a previous host applied (a
        resumed game's log): when the board's HELLO has that boot id, the events after it are
        asked for (SINCE) once the handshake is done, and come on `events` in order before the
        first snapshot (`Resynced`), which is taken after them.
    """

    serial_factory: SerialFactory = serial.serial_for_url
    locate: Callable[[], str] = discovery.find_board
    baudrate: int = 115200
    connect_timeout: float = 5.0
    noisy_timeout: float = 30.0
    progress_every: float = 5.0
    progress: Callable[[str], None] = _to_stderr
    clock: Callable[[], float] = time.monotonic
    heartbeat_timeout: float = 3.0
    snap_retry: float = 0.5
    hello_retry: float = 0.5
    backoff_start: float = 0.2
    backoff_max: float = 2.0
    poll: float = 0.05
    write_timeout: float = 1.0
    since: tuple[str, int] | None = None


class Link:
    """A connection to one board. Construction opens the port and completes the handshake.

    :param url: a device path or any pyserial URL (`socket://`, `rfc2217://`, `loop://`, a
        simulator's pty); None finds the board (`settings.locate`), again on each reconnect.
    :param settings: how it opens, waits and retries (`LinkSettings`; its defaults when None).
    :raises LinkError: no board found, or the port cannot be opened.
    :raises ProtocolMismatch: the board speaks another protocol version.
    :raises LinkTimeout: the board did not complete the handshake in time.
    """

    def __init__(self, url: str | None = None, settings: LinkSettings | None = None) -> None:
        self._settings = settings if settings is not None else LinkSettings()
        self.events: queue.Queue[LinkItem] = queue.Queue()
        self.hello: Hello | None = None
        self.snapshot: Snapshot | None = None
        self.heartbeat: Heartbeat | None = None
        self.boot: str | None = None  # the board's boot id, from its HELLO
        self.hello_count = 0  # HELLOs taken
        self._init_transport()
        self._init_recovery()
        self._init_kept_events()
        self._url_given = url
        self.url: str = url if url is not None else self._settings.locate()
        port = self._open_first(self.url)
        self._thread = threading.Thread(
            target=self._run, name=f"upref-link {self.url}", daemon=True
        )
        with self._cv:
            self._port = port
            now = self._settings.clock()
            self._start_handshake(now)
            self._opening = (now, now + self._settings.progress_every)
        self._thread.start()
        self._await_handshake()

    def _init_transport(self) -> None:
        """The port, the handshake and the frames' sequence numbers, before the port opens."""
        self._lock = threading.RLock()
        self._cv = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._c = LinkCounters()
        self._raw: dict[int, RawLevels] = {}
        self._port: SerialPort | None = None
        self._state: State = "closed"
        self._online = False
        self._closed = False
        self._fatal: LinkError | None = None
        self._broken: str | None = None
        self._opening: tuple[float, float] | None = None  # first open: its start, its next line
        self._open_lines: list[str] = []  # what the first open sees, for the opener to say
        self._tx_seq = 0
        self._rx_expected: int | None = None
        self._holes = 10
        self._splitter = LineSplitter()
        self._pending: dict[int, _Pending] = {}
        self._snap_pending = False
        self._snap_reason = ""
        self._snap_sent = 0.0
        self._hello_sent = 0.0
        self._hello_interval = self._settings.hello_retry
        self._hello_outstanding = 0
        self._connect_reason = "connect"
        self._last_frame = 0.0
        self._next_path_check = 0.0
        self._backoff = self._settings.backoff_start
        self._rx_bytes = 0
        self._last_rx = 0.0  # when a byte last came from the board
        self._last_dropped: bytes | None = None
        self._last_error = ""

    def _init_recovery(self) -> None:
        """A board at its MicroPython prompt: what was seen, when, and the restarts tried."""
        self._repl_kind: str | None = None
        self._repl_prompt = False
        self._repl_since = 0.0
        self._repl_last = ""  # the last line of text it printed (the error of a traceback)
        self._typed = False  # the traceback being read is of a line typed at the REPL
        self._recover_sent = 0.0
        self._recover_streak = 0  # restarts since the firmware last sent a frame
        self._recovered: Recovered | None = None  # the notice, sent once the board is back
        self._brownout = False  # the ROM said "Brownout detector was triggered" before a reboot
        self._gave_up = False
        self._left_alone = False

    def _init_kept_events(self) -> None:
        """The board's kept events (protocol 2): what was delivered, from where to ask again."""
        self._keeps = False  # the board keeps events (caps since)
        self._anchor: int | None = None  # every event up to this frame has been delivered
        self._delivered: set[int] = set()
        self._delivered_order: list[int] = []
        self._since_pending = False
        self._since_seqs: set[int] = set()
        self._since_latest: int | None = None  # the SINCE whose replay the board runs now
        self._since_sent = 0.0
        self._since_clean = True  # the OLD frames still fit: no frame lost since the last one
        self._since_again = False  # this round lost a frame: ask again soon
        self._since_overlap = False  # asked from just before the last event delivered
        self._held: set[int] = set()  # live events held back during the round
        self._board_idle = True  # no replay can be under way on the board
        self._last_event: int | None = None  # the last event delivered
        self._since_reason = ""
        self._since_told = False  # this recovery's EventsLost said
        self._after_ready: tuple[int | None, str] | None = None  # SINCE due once ready
        self._no_memory_told = False
        self._resume = self._settings.since

    def _open_first(self, url: str) -> SerialPort:
        """Open the port the first time: refused while a deploy holds it or another program has
        it open, with advice when it cannot be opened at all."""
        mark = portlock.mark_holder(url)
        if mark is not None:
            raise PortBusy(url, mark.text())
        try:
            return self._open(url)
        except (serial.SerialException, OSError, ValueError) as exc:
            if _busy(exc):
                who = portlock.holder(url)
                raise PortBusy(url, who.text() if who else None) from None
            raise LinkError(_open_advice(url, exc)) from None

    def _await_handshake(self) -> None:
        """Wait for the reader thread to finish the handshake, saying the lines it notes every
        few seconds of what it sees; close and raise if it fails or the board does not answer
        in time. The reader judges each read at the time it read it (`_judge_open`), so the
        verdict and the lines keep to the link's clock however late this thread wakes."""
        s = self._settings
        # a bound on the wait in real time too, should the link's clock stop
        real_start = time.monotonic()
        real_end = real_start + s.connect_timeout + s.noisy_timeout + 5.0
        while True:
            with self._cv:
                self._cv.wait_for(
                    lambda: self._state == "ready" or self._fatal is not None or bool(self._open_lines),
                    s.poll,
                )
                lines, self._open_lines = self._open_lines, []
                fatal = self._fatal
                done = self._state == "ready" or fatal is not None
                message = None
                if not done and time.monotonic() >= real_end:
                    message = self._handshake_failure(time.monotonic() - real_start)
                if done:
                    self._opening = None
            for line in lines:
                s.progress(line)
            if message is not None:
                self.close()
                raise LinkTimeout(message)
            if done:
                break
        if fatal is not None:
            self.close()
            raise fatal

    def _judge_open(self, now: float) -> None:
        """While the link first opens (the reader thread, holding the lock): give up, with the
        opener's LinkTimeout, or note a line saying what the link sees, at `now`."""
        if self._opening is None or self._state == "ready" or self._fatal is not None:
            return
        start, next_line = self._opening
        message = self._open_verdict(start, now)
        if message is not None:
            self._fatal = LinkTimeout(message)  # the reader stops here: the opener closes
            self._cv.notify_all()
        elif now >= next_line:
            self._open_lines.append(self._open_progress(now - start))
            self._opening = (start, now + self._settings.progress_every)
            self._cv.notify_all()

    def _speaks_frames(self) -> bool:
        """Has anything like a frame come from the board, whole or damaged?"""
        c = self._c
        return c.frames + c.crc + c.shape + c.args + c.unknown > 0

    def _open_verdict(self, start: float, now: float) -> str | None:
        """Why opening gives up now, or None while it keeps trying: a board that sends frames,
        however damaged, is asked again until `noisy_timeout`; a silent one, or one that sends
        only text, or one that falls silent, fails after `connect_timeout`."""
        s = self._settings
        elapsed = now - start
        quiet = now - max(start, self._last_rx)
        if elapsed >= s.noisy_timeout:
            return self._handshake_failure(s.noisy_timeout)
        if elapsed >= s.connect_timeout and not self._speaks_frames():
            return self._handshake_failure(s.connect_timeout)
        if quiet >= s.connect_timeout:
            return self._handshake_failure(elapsed)
        return None

    def _open_progress(self, elapsed: float) -> str:
        c = self._c
        waiting = "the board's SNAP" if self.hello is not None else "the board's answer to HELLO"
        return (
            f"still waiting for {waiting} on {self.url} after {elapsed:.0f} s: {c.frames} frames, "
            f"{c.crc} CRC errors, {c.shape + c.args} malformed so far (line noise?); asking "
            f"again until {self._settings.noisy_timeout:g} s (check the USB cable if this goes on)"
        )

    # -- public ------------------------------------------------------------------------------

    @property
    def counters(self) -> LinkCounters:
        """A copy of the counters."""
        with self._lock:
            return replace(self._c)

    @property
    def raw(self) -> dict[int, RawLevels]:
        """The latest RAW levels per hole (filled by `command("RAW")`)."""
        with self._lock:
            return dict(self._raw)

    @property
    def online(self) -> bool:
        with self._lock:
            return self._online

    @property
    def caught_up(self) -> bool:
        """True while nothing is being recovered: the board is online and no `SINCE` round or
        snapshot is on its way (what a frame lost just now did is known only once the next
        frame, a heartbeat at the latest, shows the gap)."""
        with self._lock:
            return (
                self._state == "ready" and self._online
                and not self._since_pending and not self._snap_pending
            )

    @property
    def error(self) -> LinkError | None:
        """The error that stopped the link for good (a protocol mismatch), or None."""
        with self._lock:
            return self._fatal

    @property
    def connected(self) -> bool:
        """True while the port is open and the board has answered HELLO."""
        with self._lock:
            return self._port is not None and self._state in ("snap", "ready")

    def command(
        self, ftype: str, *args: str | int, timeout: float = 1.0, retries: int = 2
    ) -> Ok | Err | Echo:
        """Send a command and wait for its OK, ERR or ECHO (matched by sequence number).

        An unanswered command is sent again, with a new sequence number, up to `retries` times;
        an answer to any of its copies counts. ERR is returned, not raised. While the link
        reconnects, waits up to `timeout` for it to come back.

        :raises ValueError: an unknown command, HELLO or SNAP (use `request_snapshot`), or an
            argument that cannot be framed.
        :raises LinkTimeout: no answer after all tries.
        :raises PortNotOpen: the link is closed, or the board stays disconnected.
        :raises ProtocolMismatch: the board turned out to speak another protocol.
        """
        if ftype not in HOST_FRAMES:
            raise ValueError(f"unknown command {ftype!r}; the board knows {', '.join(HOST_FRAMES)}")
        if ftype in ("HELLO", "SNAP"):
            raise ValueError(
                f"{ftype} is answered by a {ftype} frame, not OK: use Link.request_snapshot() "
                "and the link's `hello`/`snapshot`"
            )
        encode_command(0, ftype, *args)  # bad arguments raise ValueError here, before sending
        pending = _Pending(ftype)
        tries = retries + 1
        for attempt in range(tries):
            with self._cv:
                self._wait_usable(timeout)
                seq = self._send(ftype, *args)
                if attempt:
                    self._c.retries += 1
                pending.seqs.append(seq)
                self._pending[seq] = pending
            if pending.done.wait(timeout):
                break
        with self._lock:
            for s in pending.seqs:
                self._pending.pop(s, None)
        if pending.error is not None:
            raise pending.error
        if pending.reply is None:
            raise LinkTimeout(
                f"no answer to {ftype} from the board at {self.url} after {tries} "
                f"tr{'y' if tries == 1 else 'ies'} of {timeout:g} s: is it still running the upref "
                "firmware? `upref doctor` shows the link's counters"
            )
        return pending.reply

    def echo(self, text: str, *, timeout: float = 1.0) -> str:
        """Loopback: the board sends `text` back (words separated by single spaces).

        :raises LinkError: as `command`, or when the board answers with something else.
        """
        reply = self.command("ECHO", *text.split(), timeout=timeout)
        if not isinstance(reply, Echo):
            raise LinkError(f"the board answered ECHO with {reply!r}")
        return reply.text

    def ask_history(self) -> bool:
        """Ask the board for every event it still keeps (`SINCE all`, for `upref watch
        --history`): they come on `events` with their board time. False when it keeps none."""
        with self._lock:
            if self._state != "ready" or not self._keeps:
                return False
            self._since(None, "history")
            return True

    def request_snapshot(self, reason: str = "asked") -> None:
        """Ask for a fresh SNAP; it arrives on `events` as `Resynced`."""
        with self._lock:
            if self._port is not None and self._state in ("snap", "ready"):
                self._resync(reason, force=True)

    def close(self) -> None:
        """Stop the reader thread and close the port. Safe to call twice."""
        with self._cv:
            if self._closed:
                return
            self._closed = True
            self._stop.set()
            self._cv.notify_all()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=5)
        with self._cv:
            port, self._port = self._port, None
            self._state = "closed"
            self._fail_pending(PortNotOpen(f"the link to {self.url} is closed"))
            self._cv.notify_all()
        if port is not None:
            _close_quietly(port)

    def __enter__(self) -> Link:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Link {self.url} {self._state}{' online' if self._online else ''}>"

    # -- the reader thread ---------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set() and self._fatal is None:
                port = self._port
                if port is None:
                    self._reconnect_step()
                    with self._cv:
                        self._judge_open(self._settings.clock())
                    continue
                try:
                    waiting = port.in_waiting
                    data = port.read(waiting if waiting > 0 else 1)
                except (serial.SerialException, OSError) as exc:
                    if self._stop.is_set():
                        break
                    with self._cv:
                        self._lost(f"read failed: {exc}")
                    continue
                with self._cv:
                    if self._stop.is_set():
                        break
                    now = self._settings.clock()
                    if data:
                        self._rx_bytes += len(data)
                        self._last_rx = now
                        for line in self._splitter.feed(data):
                            self._on_line(line, now)
                            if self._port is not port:
                                break
                        if self._port is port:
                            self._prompt_pending(self._splitter.pending(), now)
                    if self._port is port:
                        self._tick(now)
                    self._judge_open(now)
        except Exception as exc:  # a bug in the link: report it, never die silently
            with self._cv:
                self._fail(LinkError(f"the link's reader stopped on an internal error: {exc!r}"))

    def _open(self, url: str) -> SerialPort:
        port = self._settings.serial_factory(
            url,
            baudrate=self._settings.baudrate,
            timeout=self._settings.poll,
            write_timeout=self._settings.write_timeout,
            exclusive=True,
            do_not_open=True,
        )
        hold_control_lines(port)
        if not getattr(port, "is_open", True):
            port.open()  # type: ignore[attr-defined]  # pyserial applies DTR and RTS as it opens
        return port

    def _reconnect_step(self) -> None:
        if self._stop.wait(self._backoff):
            return
        url = self._url_given
        try:
            if url is None:
                url = self._settings.locate()
            mark = portlock.mark_holder(url)
            if mark is not None:
                raise PortBusy(url, mark.text())  # a deploy has it: leave it alone
            try:
                port = self._open(url)
            except (serial.SerialException, OSError) as exc:
                if _busy(exc):
                    who = portlock.holder(url)
                    raise PortBusy(url, who.text() if who else None) from None
                raise
        except (LinkError, serial.SerialException, OSError, ValueError) as exc:
            with self._cv:
                self._last_error = str(exc)
                self._backoff = min(self._backoff * 2, self._settings.backoff_max)
            return
        with self._cv:
            if self._stop.is_set():
                _close_quietly(port)
                return
            self.url = url
            self._port = port
            self._c.reconnects += 1
            self._backoff = self._settings.backoff_start
            self._connect_reason = "reconnect"
            self._start_handshake(self._settings.clock())

    # Everything below runs with the lock held.

    def _start_handshake(self, now: float) -> None:
        self._splitter = LineSplitter()
        self._repl_kind = None
        self._recover_sent = 0.0
        self._rx_expected = None
        self._state = "hello"
        self._online = False
        self._snap_pending = False
        self._hello_outstanding = 0
        self._hello_interval = self._settings.hello_retry
        self._after_ready = None  # the new HELLO says whether a SINCE is due
        self._last_frame = now
        self._next_path_check = now
        self._send_hello(now)
        self._cv.notify_all()

    def _emit(self, item: LinkItem) -> None:
        self.events.put(item)

    def _send(self, ftype: str, *args: str | int) -> int:
        port = self._port
        if port is None:
            raise PortNotOpen(f"the board at {self.url} is not connected")
        seq = self._tx_seq
        data = encode_command(seq, ftype, *args)
        self._tx_seq = (seq + 1) & 0xFFFF
        try:
            port.write(data)
        except (serial.SerialException, OSError) as exc:
            self._broken = f"write failed: {exc}"
            raise PortNotOpen(f"cannot write to {self.url}: {exc}") from None
        self._c.commands += 1
        return seq

    def _send_quiet(self, ftype: str) -> None:
        try:
            self._send(ftype)
        except PortNotOpen:
            pass  # the reader notices `_broken` and reconnects

    def _send_hello(self, now: float) -> None:
        self._hello_sent = now
        self._hello_outstanding += 1
        self._send_quiet("HELLO")

    def _request_snap(self, reason: str, now: float) -> None:
        self._snap_pending = True
        self._snap_reason = reason
        self._snap_sent = now
        self._send_quiet("SNAP")

    def _resync(self, reason: str, force: bool = False) -> None:
        if self._state in ("closed", "hello"):
            return  # the handshake takes a snapshot anyway
        if self._snap_pending and not force:
            return  # the snapshot on its way is newer than whatever was lost
        self._c.resyncs += 1
        self._request_snap(reason, self._settings.clock())

    # -- the board's kept events (SINCE, OLD) ---------------------------------------------------

    def _trouble(self, reason: str) -> None:
        """Something may have been lost (a gap, a bad frame, the board back online): ask the
        board for its kept events after the last one delivered, then a snapshot; a board that
        keeps none gives only the snapshot."""
        if self._state != "ready" or not self._keeps or self._anchor is None:
            if self._state == "ready" and not self._keeps and not self._no_memory_told:
                self._no_memory_told = True  # said once: the first time something was missed
                self._emit(NoMemory(NO_MEMORY_TEXT))
            self._resync(reason)
            return
        if self._since_pending:
            self._since_clean = False  # the OLD frames after this one may not follow on
            self._since_again = True  # ask again from the last event delivered, soon
            return
        self._since(self._anchor, reason)

    def _since(self, since: int | None, reason: str) -> None:
        """Ask the board for its kept events after frame `since` (None: all it keeps).

        When an event has been delivered up to `since`, the board is asked from just before
        the last one, so that the replay starts with an event the host has: OLD frames that
        follow it without a frame lost in between are the next events, whatever replay the
        board was running when this SINCE reached it."""
        self._since_pending = True
        self._since_again = False
        last = self._last_event
        self._since_overlap = (
            since is not None and last is not None and last in self._delivered
            and (since - last) & 0xFFFF < 0x8000
        )
        if self._since_overlap:
            assert last is not None
            since = (last - 1) & 0xFFFF
        else:
            self._anchor = since  # a resume, a history or a new boot: from there on, in order
            self._since_clean = self._board_idle  # the first OLD to come is this replay's first
        if reason:
            self._since_reason = reason
            self._since_told = False
        self._since_sent = self._settings.clock()
        self._c.since += 1
        try:
            seq = self._send("SINCE", "all" if since is None else f"{since:04X}")
        except PortNotOpen:
            return
        self._board_idle = False
        self._since_latest = seq
        self._since_seqs.add(seq)

    def _done(self, seq: int) -> bool:
        """Was event `seq` delivered (or does it lie before the anchor, all delivered)?"""
        if seq in self._delivered:
            return True
        anchor = self._anchor
        return anchor is not None and (anchor - seq) & 0xFFFF < 0x8000

    def _on_old(self, old: Old) -> None:
        if not self._since_pending:
            return  # the rest of a replay no longer asked for
        if isinstance(old.event, TagRecord):
            # the record of the card whose CARD + comes next: said as live, unless the host had
            # it (the board replays it with that CARD + whenever it replays the card). No event:
            # it neither moves the anchor nor counts as delivered.
            if self._since_clean and not self._done(old.seq):
                self._emit(old.event)
            return
        if self._done(old.seq):
            # an event the host has: the OLD frames after it, none lost between, are the events
            # after it in order
            self._since_clean = True
            return
        if not self._since_clean:
            return  # a frame was lost since the last OLD: it may have been an event
        self._anchor = old.seq
        self._mark_delivered(old.seq)
        self._c.replayed += 1
        self._emit(replace(old.event, seq=old.seq, board_ms=old.board_ms))  # type: ignore[type-var]

    def _on_since_answer(self, answer: Ok | Err, frame: Frame) -> None:
        self._since_seqs.discard(answer.cmd_seq)
        if not self._since_pending or answer.cmd_seq != self._since_latest:
            return  # an earlier round's end: the board runs the latest one's replay now
        self._since_latest = None
        self._board_idle = True
        if isinstance(answer, Err):  # a board that cannot: the snapshot alone, as protocol 1
            self._since_pending = False
            self._keeps = False
            self._resync(self._since_reason)
            return
        words = dict(w.partition("=")[::2] for w in answer.detail.split())
        lost = words.get("lost", "0")
        at_least = lost.startswith(">")
        count = int(lost.lstrip(">")) if lost.lstrip(">").isdigit() else 0
        if self._since_overlap and count:
            count -= 1  # the event asked for again, delivered already, has left the ring
        if count and not self._since_told:
            self._since_told = True
            self._c.lost += count
            self._emit(EventsLost(count, at_least, _lost_words(count, at_least)))
        held = {s for s in self._held if s not in self._delivered}
        self._held = held
        if self._since_clean and not held:
            self._since_pending = False
            self._since_seqs.clear()
            self._anchor = frame.seq
            self._resync(self._since_reason, force=True)  # check the picture
        else:
            self._since(self._anchor, "")  # the rest, from the last event delivered in order

    def _mark_delivered(self, seq: int) -> None:
        self._last_event = seq
        if seq in self._delivered:
            return
        self._delivered.add(seq)
        self._delivered_order.append(seq)
        if len(self._delivered_order) > DELIVERED_KEPT:
            old = self._delivered_order[: DELIVERED_KEPT // 2]
            del self._delivered_order[: DELIVERED_KEPT // 2]
            self._delivered.difference_update(old)

    def _forget_delivered(self) -> None:
        """A new boot: its sequence numbers start again."""
        self._delivered.clear()
        self._delivered_order.clear()
        self._since_pending = False
        self._since_seqs.clear()
        self._since_latest = None
        self._held.clear()
        self._last_event = None
        self._board_idle = True

    @property
    def applied(self) -> tuple[str | None, int | None]:
        """(boot id, sequence number) up to which every event of the board has been delivered:
        what a resumed host asks SINCE from."""
        with self._lock:
            return self.boot, self._anchor

    def _wait_usable(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self._fatal is not None:
                raise self._fatal
            if self._closed:
                raise PortNotOpen(f"the link to {self.url} is closed")
            if self._port is not None and self._state in ("snap", "ready"):
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                why = f": {self._last_error}" if self._last_error else ""
                raise PortNotOpen(
                    f"the board at {self.url} is not connected{why}; the link keeps trying to reconnect"
                )
            self._cv.wait(remaining)

    def _fail_pending(self, error: LinkError) -> None:
        for pending in list(self._pending.values()):
            if pending.reply is None and pending.error is None:
                pending.error = error
                pending.done.set()
        self._pending.clear()

    def _lost(self, reason: str) -> None:
        port, self._port = self._port, None
        if port is None:
            return
        _close_quietly(port)
        was_online = self._online
        self._online = False
        self._state = "closed"
        self._snap_pending = False
        self._since_pending = False
        self._since_seqs.clear()
        self._since_latest = None
        self._held.clear()
        self._board_idle = False  # a replay the board began may still be under way
        self._last_error = reason
        self._backoff = self._settings.backoff_start
        self._fail_pending(PortNotOpen(f"lost the board at {self.url}: {reason}"))
        if was_online:
            self._c.offline += 1
        self._emit(Offline(f"lost the port {self.url} ({reason}); reconnecting"))
        self._cv.notify_all()

    def _fail(self, error: LinkError) -> None:
        self._fatal = error
        port, self._port = self._port, None
        if port is not None:
            _close_quietly(port)
        if self._online:
            self._c.offline += 1
        self._online = False
        self._state = "closed"
        self._fail_pending(error)
        self._emit(Offline(str(error)))
        self._cv.notify_all()

    def _tick(self, now: float) -> None:
        if self._broken is not None:
            reason, self._broken = self._broken, None
            self._lost(reason)
            return
        if _is_device_path(self.url) and now >= self._next_path_check:
            self._next_path_check = now + 0.25
            if not os.path.exists(self.url):
                self._lost(f"{self.url} has vanished")
                return
        if self._state == "hello" and now - self._hello_sent >= self._hello_interval:
            self._c.retries += 1
            if self._last_rx >= self._hello_sent and self._speaks_frames():
                # the board speaks frames, but no HELLO came through whole: ask again as often
                self._hello_interval = self._settings.hello_retry
            else:
                most = max(self._settings.backoff_max, self._settings.hello_retry)
                self._hello_interval = min(self._hello_interval * 2, most)
            self._send_hello(now)
        if self._since_pending and self._online and (
            now - self._since_sent >= SINCE_RETRY
            or (self._since_again and now - self._since_sent >= SINCE_AGAIN)
            or (now - self._since_sent >= SINCE_QUIET and self._last_frame < self._since_sent)
        ):
            self._c.retries += 1
            self._since(self._anchor, "")
        if (
            self._snap_pending
            and not self._since_pending
            and (self._online or self._state == "snap")  # the handshake's SNAP: until it comes
            and now - self._snap_sent >= self._settings.snap_retry
        ):
            self._c.retries += 1
            self._snap_sent = now
            self._send_quiet("SNAP")
        if self._online and now - self._last_frame >= self._settings.heartbeat_timeout:
            self._online = False
            self._c.offline += 1
            self._emit(Offline(f"no frame from the board for {now - self._last_frame:.1f} s"))
        if self._repl_kind is not None and (
            self._repl_prompt or now - self._repl_since >= REPL_PAUSE
        ):
            self._recover(now)

    # -- a board at its MicroPython prompt ----------------------------------------------------

    _REPL_RANK = {"banner": 0, "prompt": 1, "raw REPL": 2, "traceback": 3}

    def _repl_seen(self, kind: str, now: float) -> None:
        """Text that only MicroPython's REPL prints: remember what it says (a traceback says
        most); a prompt means the board waits there now."""
        if self._recover_sent and now - self._recover_sent < 2.0:
            return  # the REPL's own answers to the keys just sent (its banner, a prompt)
        if self._repl_kind is None:
            self._repl_since = now
            self._repl_prompt = False
            self._repl_kind = kind
        elif self._REPL_RANK[kind] > self._REPL_RANK[self._repl_kind]:
            self._repl_kind = kind
        if kind in ("prompt", "raw REPL"):
            self._repl_prompt = True

    def _prompt_pending(self, pending: bytes, now: float) -> None:
        if pending in (b">>> ", b"... ") or (pending == b">" and self._repl_kind == "raw REPL"):
            self._repl_seen("prompt" if pending != b">" else "raw REPL", now)

    def _recover(self, now: float) -> None:
        """Restart a board found at its prompt (soft reset), unless a deploy has the port or
        the board keeps stopping there."""
        kind, self._repl_kind = self._repl_kind, None
        if kind is None or self._gave_up:
            return
        mark = portlock.mark_holder(self.url)
        if mark is not None:
            if not self._left_alone:
                self._left_alone = True
                left = Msg(
                    "the board is at its MicroPython prompt under {holder}: left alone",
                    holder=mark.text(),
                )
                self._emit(Recovered(kind, left, gave_up=True))
            return
        last = f" ({self._repl_last})" if self._repl_last else ""
        if self._recover_streak >= RECOVER_LIMIT:
            self._gave_up = True
            deploy = f"make deploy PORT={self.url}"
            self._emit(Recovered(kind, Msg(
                "the board stops at its MicroPython prompt each time it restarts{last}: its "
                "firmware does not start; deploy it again with `{deploy}`",
                last=last, deploy=deploy), gave_up=True))
            return
        port = self._port
        if port is None:
            return
        try:
            port.write(RECOVER_KEYS)
        except (serial.SerialException, OSError) as exc:
            self._broken = f"write failed: {exc}"
            return
        self._c.recoveries += 1
        self._recover_streak += 1
        self._recover_sent = now
        if kind == "raw REPL":
            text = Msg("the board had been left in MicroPython's raw REPL; restarted it")
        elif kind == "traceback" and self._repl_last.startswith("KeyboardInterrupt"):
            text = Msg("the board had stopped at its prompt (a Ctrl-C reached it); restarted it")
        elif kind == "traceback":
            text = Msg("the board's firmware had stopped with an error{last}; restarted it", last=last)
        else:
            text = Msg("the board had stopped at its prompt; restarted it")
        self._recovered = Recovered(kind, text)

    def _drop(self, err: InvalidFrameError, line: bytes) -> None:
        setattr(self._c, err.kind, getattr(self._c, err.kind) + 1)
        self._last_dropped = line
        self._emit(Dropped(err.kind, bytes(line), str(err)))
        if err.kind == "junk":
            if BROWNOUT_LINE in line:
                self._brownout = True
            kind = _repl_kind(line)
            if kind is not None:
                self._repl_seen(kind, self._settings.clock())
            if line.startswith(b"Traceback"):
                self._typed = False
            elif b'File "<stdin>"' in line:
                self._typed = True  # the REPL ran a line typed at it (our own frames): not news
            text = line.decode("ascii", "replace").strip()
            if _ERROR_LINE.match(text) and not self._typed:
                self._repl_last = text[:100]

    def _on_line(self, line: bytes, now: float) -> None:
        try:
            frame = decode(line)
        except InvalidFrameError as err:
            self._drop(err, line)
            if err.seq is not None:  # a sound frame of a type we do not know: the board is alive
                self._heard(err.seq, now, False)
            elif err.kind in ("crc", "shape") or (err.kind == "long" and line[:1] == b"@"):
                self._trouble(f"{err.kind} error")
            return
        is_hello = frame.type == "HELLO"
        expected_before = self._rx_expected
        self._repl_kind = None  # the firmware speaks: not at a prompt
        if not is_hello:
            self._recover_streak = 0
            self._gave_up = False
            self._left_alone = False
        anchor = self._anchor
        self._heard(frame.seq, now, is_hello)
        try:
            event = parse_event(frame, holes=self._holes)
        except InvalidFrameError as err:
            proto = _raw_proto(frame) if is_hello else None
            if proto is not None and proto not in SUPPORTED_PROTOS:
                self._fail(ProtocolMismatch(self.url, proto))
                return
            if not self._since_pending:
                self._anchor = anchor  # not taken: it may have been an event, asked for again
            self._drop(err, line)
            self._trouble(f"malformed {frame.type}")
            return
        self._c.frames += 1
        self._dispatch(event, frame, expected_before, now)

    def _heard(self, seq: int, now: float, is_hello: bool) -> None:
        self._last_frame = now
        if not self._online and self._state == "ready":
            self._online = True
            self._emit(Online(self.url))
            self._trouble("back online")
        if self._rx_expected is not None and seq != self._rx_expected and not is_hello:
            self._c.gaps += 1
            self._trouble(f"sequence gap: expected {self._rx_expected:04X}, got {seq:04X}")
        elif not self._since_pending and not is_hello and self._state == "ready":
            self._anchor = seq  # every frame up to here has come
        self._rx_expected = (seq + 1) & 0xFFFF

    def _dispatch(
        self, event: Event, frame: Frame, expected_before: int | None, now: float
    ) -> None:
        if isinstance(event, Hello):
            self._on_hello(event, frame, expected_before, now)
            return
        if self._state == "hello":
            return  # before the handshake: the snapshot that follows covers it
        if isinstance(event, Old):
            self._on_old(event)
            return
        if frame.type in EVENT_FRAMES:
            event = replace(event, seq=frame.seq)  # type: ignore[type-var]
            if self._since_pending or (self._state == "snap" and self._after_ready is not None):
                if frame.seq not in self._delivered:
                    self._held.add(frame.seq)  # the board keeps it: a SINCE brings it in order
                return
            self._mark_delivered(frame.seq)
        if isinstance(event, Snapshot):
            if self._since_pending and self._state == "ready":
                # taken before the replayed events are all in: diffed against the picture now,
                # it would bring again what they bring. The round asks for a fresh one.
                return
            self.snapshot = event
            if self._state == "snap" and self._after_ready is not None:
                # the board kept what it sensed while no host listened: those events come first,
                # in order, and then the round's own snapshot; this one, newer than all of them,
                # is not the picture yet (an event older than the picture must never follow it)
                self._state = "ready"
                self._cv.notify_all()
                self._snap_pending = False
                (since, reason), self._after_ready = self._after_ready, None
                self._anchor = since
                self._since(since, reason)
                return
            if self._snap_pending:
                self._snap_pending = False
                self._emit(Resynced(event, self._snap_reason))
            else:
                self._emit(event)
            if self._state == "snap":
                self._state = "ready"
                self._cv.notify_all()
                self._anchor = frame.seq
            return
        if isinstance(event, Heartbeat):
            self.heartbeat = event
        elif isinstance(event, RawLevels):
            self._raw[event.hole] = event
        elif isinstance(event, Ok | Err) and event.cmd_seq in self._since_seqs:
            self._on_since_answer(event, frame)
            return
        elif isinstance(event, Ok | Err | Echo):
            pending = self._pending.get(event.cmd_seq)
            if pending is not None and pending.reply is None and pending.error is None:
                pending.reply = event
                pending.done.set()
        self._emit(event)

    def _on_hello(
        self, hello: Hello, frame: Frame, expected_before: int | None, now: float
    ) -> None:
        if hello.proto not in SUPPORTED_PROTOS:
            self._fail(ProtocolMismatch(self.url, hello.proto))
            return
        self.hello = hello
        self._holes = hello.holes
        booted = frame.seq == 0 and expected_before not in (None, 0)
        same_boot = hello.boot is not None and hello.boot == self.boot
        first = self.boot is None and self.hello_count == 0
        self.hello_count += 1
        self.boot = hello.boot
        self._keeps = hello.keeps_events

        if self._recovered is not None:
            notice, self._recovered = self._recovered, None
            self._recover_sent = 0.0
            self._emit(notice)
        if self._state == "hello":
            self._hello_outstanding = max(0, self._hello_outstanding - 1)
            if self._keeps:
                if first and self._resume is not None and self._resume[0] == hello.boot:
                    self._after_ready = (self._resume[1], "resume")
                elif not first and same_boot and self._anchor is not None:
                    self._after_ready = (self._anchor, "reconnect")
                elif not first:
                    self._forget_delivered()
                    self._after_ready = (None, "reconnect to a restarted board")
            self._state = "snap"
            self._emit(hello)
            self._online = True
            self._emit(Online(self.url))
            self._request_snap(self._connect_reason, now)
            self._cv.notify_all()
        elif self._hello_outstanding > 0 and not booted:
            self._hello_outstanding -= 1  # the answer to a HELLO sent twice
            self._emit(hello)
        else:
            self._hello_outstanding = 0
            brownout = self._brownout and hello.reset == "power"
            self._brownout = False
            self._emit(BoardReset(hello, BROWNOUT_ADVICE if brownout else ""))
            self._forget_delivered()
            if self._keeps and self._state == "ready":
                self._anchor = None
                self._since(None, "board reset")  # what it sensed since it booted, in order
            else:
                self._resync("board reset", force=True)

    def _handshake_failure(self, elapsed: float) -> str:
        url = self.url
        timeout = round(elapsed, 1)
        deploy = f"deploy the firmware with `make deploy PORT={url}`"
        c = self._c
        if self.hello is not None:
            bad = f" ({c.args} malformed frames dropped)" if c.args else ""
            if c.crc or c.shape:
                bad = f" ({c.crc} CRC errors, {c.shape + c.args} malformed: line noise?)"
            return (
                f"the board at {url} answered HELLO but sent no valid SNAP within {timeout:g} s"
                f"{bad}; check the USB cable, or its firmware may be broken or of another "
                f"version: {deploy}"
            )
        if self._rx_bytes == 0:
            extra = f" (last error: {self._last_error})" if self._last_error else ""
            return (
                f"no answer from {url} within {timeout:g} s{extra}: is the board powered and "
                f"running the upref firmware? Press its reset button, or {deploy}"
            )
        if c.recoveries:
            last = f" ({self._repl_last})" if self._repl_last else ""
            return (
                f"the board at {url} was at its MicroPython prompt{last} and sent no HELLO within "
                f"{timeout:g} s of being restarted ({c.recoveries} soft reset"
                f"{'s' if c.recoveries > 1 else ''}): its firmware does not start; {deploy}"
            )
        if c.frames == 0 and c.junk:
            return (
                f"{url} sends text but no upref frames within {timeout:g} s "
                f"({c.junk} lines, the last {self._last_dropped!r}): the board may be at the "
                f"MicroPython REPL or running other code; reset it, or {deploy}"
            )
        noisy = " (line noise?)" if c.crc or c.shape else ""
        return (
            f"no HELLO from {url} within {timeout:g} s ({c.frames} frames, {c.crc} CRC errors, "
            f"{c.shape} malformed, {c.junk} other lines){noisy}: check the cable (a short one, "
            f"straight into the computer) and the baud rate (115200), or {deploy}"
        )


def _raw_proto(frame: Frame) -> int | None:
    """The proto= of a HELLO whose other arguments did not parse (a board of another version)."""
    for a in frame.args:
        if a.startswith("proto="):
            value = a[6:]
            if value.isdigit():
                return int(value)
    return None


def _close_quietly(port: SerialPort) -> None:
    try:
        port.close()
    except Exception:  # closing a failed port may fail again; nothing to do about it
        pass


def counter_names() -> list[str]:
    """The counters' names, in display order."""
    return [f.name for f in fields(LinkCounters)]
