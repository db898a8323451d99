"""A scripted stand-in for a pyserial port, and a builder of board frames.

    fake = FakeSerial()
    board = BoardFrames()
    fake.expect(encode_command(0, "HELLO"), board.hello())   # when the host sends this, answer
    fake.on("SNAP", lambda frame: board.snap())              # answer every SNAP (unordered)
    fake.feed(board.frame("HOLE", 4, 37))                     # the board speaks unasked
    fake.fail()                                               # the next read raises (unplugged)
    fake.assert_done()                                        # every expectation met, no surprise

Writes are checked byte for byte, in order, against `expect`; a write that matches no
expectation goes to a handler registered with `on` for its frame type, else it is recorded in
`unexpected` (and `assert_done` fails). Reads block on a condition with the port's timeout,
never on sleeps.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

import serial
from upref.link.protocol import (
    HOST_FRAMES,
    Event,
    Frame,
    Hello,
    InvalidFrameError,
    Snapshot,
    decode,
    encode_event,
    encode_frame,
)

Replies = bytes | Iterable[bytes]
Handler = Callable[[Frame], Replies | None]


def _as_list(replies: Replies | None) -> list[bytes]:
    if replies is None:
        return []
    if isinstance(replies, bytes | bytearray):
        return [bytes(replies)]
    return [bytes(r) for r in replies]


class FakeSerial:
    """The pyserial subset the link uses: read, write, in_waiting, timeout, close, is_open."""

    def __init__(self, url: str = "fake://", **kwargs: Any) -> None:
        self.port = url
        self.kwargs = kwargs
        self.timeout: float | None = kwargs.get("timeout", 0.05)
        self.baudrate = kwargs.get("baudrate", 115200)
        self.is_open = True
        self.written: list[bytes] = []
        self.unexpected: list[bytes] = []
        self._cv = threading.Condition()
        self._rx = bytearray()
        self._expect: deque[tuple[bytes, list[bytes]]] = deque()
        self._handlers: dict[str, Handler] = {}
        self._fail: BaseException | None = None

    # -- scripting --------------------------------------------------------------------------

    def expect(self, sent: bytes, replies: Replies | None = ()) -> FakeSerial:
        """The next unmatched write must be exactly `sent`; then `replies` become readable."""
        with self._cv:
            self._expect.append((bytes(sent), _as_list(replies)))
        return self

    def on(self, ftype: str, handler: Handler) -> FakeSerial:
        """Answer every command of type `ftype` that no expectation matches with
        `handler(frame)` (bytes, a list of bytes, or None for silence)."""
        with self._cv:
            self._handlers[ftype] = handler
        return self

    def feed(self, data: bytes) -> None:
        """Make `data` readable now, as if the board sent it unasked."""
        with self._cv:
            self._rx += data
            self._cv.notify_all()

    def fail(self, exc: BaseException | None = None) -> None:
        """Every read from now on raises `exc` (default: a SerialException, as on unplugging)."""
        with self._cv:
            self._fail = exc or serial.SerialException(
                "device reports readiness to read but returned no data (device disconnected?)"
            )
            self._cv.notify_all()

    def assert_done(self) -> None:
        with self._cv:
            left = [sent for sent, _ in self._expect]
            unexpected = list(self.unexpected)
        assert not left, f"expected writes that never came: {left!r}"
        assert not unexpected, f"unexpected writes: {unexpected!r}"

    def wait_written(self, predicate: Callable[[bytes], bool], timeout: float = 2.0) -> bytes:
        """Block until a write satisfies `predicate`; return it (AssertionError on timeout)."""
        deadline = time.monotonic() + timeout
        with self._cv:
            while True:
                for w in self.written:
                    if predicate(w):
                        return w
                remaining = deadline - time.monotonic()
                assert remaining > 0, (
                    f"no matching write within {timeout} s; written {self.written!r}"
                )
                self._cv.wait(remaining)

    def wait_command(self, ftype: str, count: int = 1, timeout: float = 2.0) -> list[Frame]:
        """Block until the host has sent `count` commands of type `ftype`; return them all."""
        deadline = time.monotonic() + timeout
        with self._cv:
            while True:
                found = [f for f in self.commands() if f.type == ftype]
                if len(found) >= count:
                    return found
                remaining = deadline - time.monotonic()
                assert remaining > 0, (
                    f"{len(found)} {ftype} commands within {timeout} s, wanted {count}; "
                    f"written {self.written!r}"
                )
                self._cv.wait(remaining)

    def commands(self) -> list[Frame]:
        """Every write, decoded as a host command."""
        with self._cv:
            return [decode(w, HOST_FRAMES) for w in self.written]

    # -- the pyserial side ------------------------------------------------------------------

    @property
    def in_waiting(self) -> int:
        with self._cv:
            if self._fail is not None:
                raise self._fail
            return len(self._rx)

    def read(self, size: int = 1) -> bytes:
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        with self._cv:
            while True:
                if not self.is_open:
                    raise serial.PortNotOpenError()
                if self._fail is not None:
                    raise self._fail
                if self._rx:
                    data = bytes(self._rx[:size])
                    del self._rx[:size]
                    return data
                if deadline is None:
                    self._cv.wait()
                    continue
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return b""
                self._cv.wait(remaining)

    def write(self, data: bytes) -> int:
        data = bytes(data)
        with self._cv:
            if not self.is_open:
                raise serial.PortNotOpenError()
            self.written.append(data)
            if self._expect and self._expect[0][0] == data:
                _, replies = self._expect.popleft()
                for r in replies:
                    self._rx += r
            else:
                handler = None
                try:
                    handler = self._handlers.get(decode(data, HOST_FRAMES).type)
                except InvalidFrameError:
                    pass
                if handler is None:
                    self.unexpected.append(data)
                else:
                    for r in _as_list(handler(decode(data, HOST_FRAMES))):
                        self._rx += r
            self._cv.notify_all()
        return len(data)

    def flush(self) -> None:
        pass

    def reset_input_buffer(self) -> None:
        with self._cv:
            self._rx.clear()

    def close(self) -> None:
        with self._cv:
            self.is_open = False
            self._cv.notify_all()


class FakeFactory:
    """A `serial_factory` that hands out the given ports (or raises the given exceptions) in
    turn, and remembers the URLs it was asked for. Past the end it raises SerialException."""

    def __init__(self, *ports: FakeSerial | BaseException) -> None:
        self._items: deque[FakeSerial | BaseException] = deque(ports)
        self.urls: list[str] = []
        self._lock = threading.Lock()

    def add(self, item: FakeSerial | BaseException) -> None:
        with self._lock:
            self._items.append(item)

    def __call__(self, url: str, **kwargs: Any) -> FakeSerial:
        with self._lock:
            self.urls.append(url)
            item = self._items.popleft() if self._items else None
        if item is None:
            raise serial.SerialException(f"[Errno 2] could not open port {url}: no such device")
        if isinstance(item, BaseException):
            raise item
        item.kwargs = kwargs
        item.timeout = kwargs.get("timeout", item.timeout)
        return item


class BoardFrames:
    """Builds board frames with the board's consecutive sequence numbers."""

    def __init__(self, seq: int = 0, holes: int = 10) -> None:
        self.seq = seq
        self.holes = holes

    def _next(self) -> int:
        seq = self.seq
        self.seq = (seq + 1) & 0xFFFF
        return seq

    def frame(self, ftype: str, *args: str | int) -> bytes:
        return encode_frame(self._next(), ftype, *args)

    def event(self, event: Event) -> bytes:
        return encode_event(self._next(), event)

    def hello(
        self, proto: int = 1, reset: str = "power", rfid: str | None = "92"
    ) -> bytes:  # a protocol 1 board by default: it keeps no events, the link asks no SINCE
        return self.event(
            Hello(
                fw="0.1.0",
                proto=proto,
                board="A4CF12345678",
                holes=self.holes,
                caps=("hall", "rfid", "led", "buzzer", "button"),
                rfid=rfid,
                reset=reset,
            )
        )

    def snap(
        self,
        holes: Iterable[int] | None = None,
        card: str | None = None,
        button: bool = False,
        faults: Iterable[str] = (),
    ) -> bytes:
        codes = tuple(holes) if holes is not None else (0,) * self.holes
        return self.event(Snapshot(codes, card, button, tuple(faults)))

    def hb(self, up: int = 1000) -> bytes:
        return self.frame(
            "HB", f"up={up}", "scans=100", "sps=100", "cmd=0", "bad=0", "rfe=0", "rfr=0", "flt=0"
        )
