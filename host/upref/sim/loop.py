"""The simulated board's one I/O thread: a selector over its descriptors (the pty, the firmware
process's pipes, the control socket and its clients), timers, and calls handed in from other
threads. Everything that changes the board runs on this thread, so the board needs no locks.
"""

from __future__ import annotations

import collections
import contextlib
import heapq
import itertools
import logging
import os
import selectors
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

log = logging.getLogger("upref.sim")

IDLE_S = 0.05  # the longest the loop sleeps when nothing is due


class Loop:
    """One thread, one selector. `watch`, `unwatch` and `at` belong to the loop thread (or to
    set-up before `start`); `call_soon` and `call` may come from any thread."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._sel: selectors.BaseSelector | None = None
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._wake_r = self._wake_w = -1
        self._calls: collections.deque[Callable[[], None]] = collections.deque()
        self._timers: list[tuple[float, int, Callable[[], Any]]] = []
        self._seq = itertools.count()

    def open(self) -> None:
        """The selector and the wake-up pipe (watching may begin)."""
        self._sel = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._sel.register(self._wake_r, selectors.EVENT_READ, self._drain_wake)

    def start(self, pump: Callable[[float], None], due: Callable[[float], float]) -> None:
        """Run the thread: each turn waits for I/O (at most `due(now)` seconds, and never past
        the next timer), runs the handlers, the calls, the timers that are due, then `pump(now)`."""
        self._stopping = False
        self._thread = threading.Thread(target=self._run, args=(pump, due), name=self.name, daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """End the thread (after its current turn) and close the selector."""
        self._stopping = True
        self.wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=timeout)
        self._thread = None
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._wake_r = self._wake_w = -1
        if self._sel is not None:
            self._sel.close()
            self._sel = None
        self._calls.clear()
        self._timers.clear()

    def in_thread(self) -> bool:
        return self._thread is not None and threading.current_thread() is self._thread

    # ---- descriptors and timers (the loop thread) -----------------------------------------------

    def watch(self, fd: Any, handler: Callable[[int], None]) -> None:
        """Call handler(mask) whenever fd (a descriptor or a socket) can be read."""
        assert self._sel is not None, "Loop.open() first"
        self._sel.register(fd, selectors.EVENT_READ, handler)

    def unwatch(self, fd: Any) -> None:
        """Stop watching fd; fine if it was not watched (or is closed already)."""
        if self._sel is not None:
            with contextlib.suppress(KeyError, ValueError, OSError):
                self._sel.unregister(fd)

    def at(self, delay: float, fn: Callable[[], Any]) -> None:
        """Run fn on the loop thread `delay` seconds from now."""
        heapq.heappush(self._timers, (time.monotonic() + delay, next(self._seq), fn))

    # ---- from any thread ------------------------------------------------------------------------

    def wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")

    def call_soon(self, fn: Callable[[], None]) -> None:
        """Run fn on the loop thread at its next turn."""
        self._calls.append(fn)
        self.wake()

    def call(self, fn: Callable[[], Any], timeout: float = 30.0) -> Any:
        """Run fn on the loop thread and return its result (or raise its exception); directly
        when called from the loop thread itself."""
        if self.in_thread():
            return fn()
        fut: Future[Any] = Future()

        def run() -> None:
            try:
                fut.set_result(fn())
            except BaseException as e:  # noqa: BLE001 - handed to the caller
                fut.set_exception(e)

        self.call_soon(run)
        return fut.result(timeout)

    # ---- the thread -----------------------------------------------------------------------------

    def _drain_wake(self, mask: int) -> None:
        with contextlib.suppress(OSError):
            os.read(self._wake_r, 4096)

    def _run(self, pump: Callable[[float], None], due: Callable[[float], float]) -> None:
        sel = self._sel
        assert sel is not None
        while not self._stopping:
            now = time.monotonic()
            timeout = min(IDLE_S, due(now))
            if self._timers:
                timeout = min(timeout, self._timers[0][0] - now)
            try:
                events = sel.select(max(timeout, 0.0))
            except (OSError, ValueError):
                events = []
            for key, mask in events:
                try:
                    key.data(mask)
                except Exception:  # noqa: BLE001 - the board must keep running
                    log.exception("simulator I/O handler failed")
            while self._calls:
                fn = self._calls.popleft()
                try:
                    fn()
                except Exception:  # noqa: BLE001
                    log.exception("simulator call failed")
            now = time.monotonic()
            while self._timers and self._timers[0][0] <= now:
                _, _, fn = heapq.heappop(self._timers)
                try:
                    fn()
                except Exception:  # noqa: BLE001
                    log.exception("simulator timer failed")
            try:
                pump(time.monotonic())
            except Exception:  # noqa: BLE001
                log.exception("simulator line failed")
