"""The simulated board's USB serial port: a pseudo-terminal the host opens like /dev/ttyUSB0,
and the serial line behind it, paced at the baud rate in both directions, with line noise.

  * the pty: the slave in raw mode (Ctrl-C and Ctrl-D travel as data) and kept open, so the
    master never reads EIO between clients; `path` is a stable symlink to the current
    /dev/pts/N, which disappears while the board is unplugged;
  * the line: bytes leave at `baud` (10 bits a byte) and, with noise, get one random bit
    flipped with that probability per byte (seeded);
  * what the board sends and nobody reads: once the pty's buffer is full, it is dropped after
    BLOCKED_DROP_S, as on a USB-serial bridge with no flow control and no one listening;
  * a program opening the port: the master runs in packet mode (TIOCPKT), so the input flush
    pyserial makes as it opens a port reaches the master as TIOCPKT_FLUSHREAD; `on_open` is then
    called. (A pty has no DTR or RTS: on a real board those are what an open may pulse, and
    whether this open resets the board is the board's setting, `SimSettings.reset_on_open`.)
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import os
import random
import struct
import termios
import time
import tty
from collections.abc import Callable
from typing import Any

BLOCKED_DROP_S = 0.5  # output nobody reads for this long is dropped
BUSY_S = 0.002  # how soon to look again while bytes wait for the pty or the firmware


class Line:
    """One direction of the serial line: bytes leave at `baud` (10 bits each), maybe flipped."""

    def __init__(self, baud: int, noise: float, rng: random.Random) -> None:
        self.byte_time = 10.0 / baud if baud else 0.0
        self.noise = noise
        self.rng = rng
        self.chunks: collections.deque[list[Any]] = collections.deque()  # [start, data, sent]
        self.free_at = 0.0
        self.pending = 0
        self.carried = 0
        self.flipped = 0

    def push(self, data: bytes, now: float) -> None:
        if not data:
            return
        start = max(now, self.free_at)
        self.chunks.append([start, bytes(data), 0])
        self.free_at = start + len(data) * self.byte_time
        self.pending += len(data)

    def due(self, now: float) -> bytes:
        out = bytearray()
        while self.chunks:
            c = self.chunks[0]
            start, data, sent = c
            if self.byte_time:
                n = min(len(data), int((now - start) / self.byte_time + 1e-6))
            else:
                n = len(data)
            if n > sent:
                out += data[sent:n]
                c[2] = n
            if c[2] < len(data):
                break
            self.chunks.popleft()
        self.pending -= len(out)
        self.carried += len(out)
        if self.noise > 0:
            for i in range(len(out)):
                if self.rng.random() < self.noise:
                    out[i] ^= 1 << self.rng.randrange(8)
                    self.flipped += 1
        return bytes(out)

    def next_due(self) -> float | None:
        if not self.chunks:
            return None
        start, _, sent = self.chunks[0]
        return start + (sent + 1) * self.byte_time

    def clear(self) -> None:
        self.chunks.clear()
        self.pending = 0


class Port:
    """The pty and the line both ways. `to_board` carries the host's bytes, `to_host` the
    board's. The owner watches the master with `watch`/`unwatch` (its loop) and calls `pump`
    each turn."""

    def __init__(self, path: str, baud: int, noise: float, seed: int,
                 watch: Callable[[int, Callable[[int], None]], None],
                 unwatch: Callable[[int], None]) -> None:
        self.path = path
        self.baud = baud  # as configured (0: no pacing at all)
        self.line_baud = baud  # the line's speed now (esptool can change it in download mode)
        rng = random.Random(f"upref-line-{seed}")
        self.h2b = Line(baud, noise, random.Random(rng.random()))
        self.b2h = Line(baud, noise, random.Random(rng.random()))
        self._watch = watch
        self._unwatch = unwatch
        self.master = self.slave = -1
        self.pty: str | None = None
        self.out_pending = b""
        self.blocked_since: float | None = None
        self.dropped = 0
        self.opens = 0  # times a program opened the port (as far as its input flush tells)
        self.on_open: Callable[[], None] | None = None  # called at each open

    @property
    def plugged(self) -> bool:
        return self.master >= 0

    def open(self) -> None:
        """A new pty behind `path` (the cable goes in)."""
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        # packet mode: each read of the master is a data packet (a 0 byte, then the data) or a
        # status byte, such as the flush of the slave's input that opening a port makes
        fcntl.ioctl(master, termios.TIOCPKT, struct.pack("i", 1))
        self.master, self.slave = master, slave
        self.pty = os.ttyname(slave)
        tmp = self.path + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(self.pty, tmp)
        os.replace(tmp, self.path)
        self._watch(master, self._on_master)

    def close(self) -> None:
        """The pty goes away and `path` with it (the cable comes out); what was on the line is lost."""
        if self.master >= 0:
            self._unwatch(self.master)
            with contextlib.suppress(OSError):
                os.close(self.master)
            with contextlib.suppress(OSError):
                os.close(self.slave)
            self.master = self.slave = -1
        with contextlib.suppress(FileNotFoundError):
            if os.path.islink(self.path):
                os.unlink(self.path)
        self.pty = None
        self.out_pending = b""
        self.h2b.clear()
        self.b2h.clear()

    def _on_master(self, mask: int) -> None:
        try:
            data = os.read(self.master, 4097)
        except OSError:
            return
        if not data:
            return
        if data[0] != termios.TIOCPKT_DATA:  # a status byte: the slave's state changed
            if data[0] & termios.TIOCPKT_FLUSHREAD:
                self.opens += 1
                if self.on_open is not None:
                    self.on_open()
            return
        if len(data) > 1:
            self.h2b.push(data[1:], time.monotonic())

    # ---- the line -------------------------------------------------------------------------------

    def to_host(self, data: bytes, now: float | None = None) -> None:
        """The board sends: the bytes leave at the line's pace."""
        self.b2h.push(data, time.monotonic() if now is None else now)

    def set_baud(self, baud: int) -> None:
        """The chip changes the line's speed (the ROM: esptool's CHANGE_BAUDRATE, a reset)."""
        self.line_baud = baud
        if self.baud:  # baud=0: no pacing at all, whatever the chip says
            for line in (self.h2b, self.b2h):
                line.byte_time = 10.0 / baud

    def set_noise(self, rate: float, way: str = "both") -> None:
        """way: "both", "to-board" or "from-board"."""
        if way in ("both", "to-board"):
            self.h2b.noise = rate
        if way in ("both", "from-board"):
            self.b2h.noise = rate

    @property
    def noise(self) -> float:
        return max(self.h2b.noise, self.b2h.noise)

    def sent_by(self) -> float:
        """When what the board has sent so far will have left (monotonic seconds)."""
        return self.b2h.free_at

    def backlog(self) -> int:
        """Bytes the board has sent that have not reached the pty yet."""
        return self.b2h.pending + len(self.out_pending)

    def drop_input(self) -> None:
        """What the host sent and the board has not taken yet is lost (the chip resets)."""
        self.h2b.clear()

    def from_host(self, now: float) -> bytes:
        """The host's bytes that have reached the board by now (after pacing and noise)."""
        return self.h2b.due(now)

    def deliver(self, now: float) -> None:
        """Hand the board's bytes that have crossed the line by now to the pty."""
        data = self.b2h.due(now)
        if data:
            self.out_pending += data
        if not self.out_pending or self.master < 0:
            return
        try:
            n = os.write(self.master, self.out_pending)
            self.out_pending = self.out_pending[n:]
            self.blocked_since = None
        except BlockingIOError:
            # the pty's buffer is full; if nobody drains it for a while the bytes are lost,
            # as on a USB-serial bridge with no flow control and no one listening
            if self.blocked_since is None:
                self.blocked_since = now
            elif now - self.blocked_since > BLOCKED_DROP_S:
                self.dropped += len(self.out_pending)
                self.out_pending = b""
                self.blocked_since = None
        except OSError:
            self.out_pending = b""

    def due(self, now: float) -> float:
        """How long until the line has something to move (for the loop's wait)."""
        timeout = float("inf")
        for line in (self.h2b, self.b2h):
            d = line.next_due()
            if d is not None:
                timeout = min(timeout, max(d - now, 0.001))
        if self.out_pending:
            timeout = min(timeout, BUSY_S)
        return timeout

    def stats(self) -> dict[str, Any]:
        """The line's part of the board's state."""
        return {"baud": self.baud, "noise_to_board": self.h2b.noise,
                "noise_from_board": self.b2h.noise, "to_board": self.h2b.carried,
                "from_board": self.b2h.carried,
                "flipped": self.h2b.flipped + self.b2h.flipped, "opens": self.opens}

