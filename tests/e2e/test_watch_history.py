"""`upref watch --history` asks the board what happened before anyone was watching: the events
it still keeps come first, marked as from its memory with the board's own time, then it goes
on live (issue 24)."""

from __future__ import annotations

import io
import queue
import threading
import time
from typing import Any

from upref.commands import watch
from upref.link.connection import Link

UID7 = "04A1B2C3D4E5F6"


class _Stoppable:
    """A real Link whose `events.get` raises KeyboardInterrupt once `stop` is set: Ctrl-C for a
    `upref watch` running in a thread."""

    def __init__(self, port: str | None, stop: threading.Event) -> None:
        self._link = Link(port)
        self._stop = stop
        real = self._link.events

        class Events:
            def get(self, timeout: float | None = None) -> Any:
                if stop.is_set():
                    raise KeyboardInterrupt
                return real.get(timeout=timeout)

        self.events = Events()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._link, name)

    def __enter__(self) -> _Stoppable:
        return self

    def __exit__(self, *exc: object) -> None:
        self._link.close()


def test_watch_history_prints_what_the_board_kept_then_goes_on_live(make_board) -> None:  # type: ignore[no-untyped-def]
    board = make_board(seed=5)
    board.tap(UID7)
    time.sleep(0.4)  # the board reads the card on its own: nobody is watching yet
    board.remove(UID7)
    time.sleep(0.4)
    board.button("click")
    time.sleep(0.4)

    out = io.StringIO()
    stop = threading.Event()
    done: queue.Queue[int] = queue.Queue()
    worker = threading.Thread(
        target=lambda: done.put(
            watch.main(["--port", board.port, "--history"], opener=lambda p: _Stoppable(p, stop), out=out)  # type: ignore[arg-type,return-value]
        ),
        daemon=True,
    )
    worker.start()

    def lines() -> list[str]:
        return out.getvalue().splitlines()

    deadline = time.monotonic() + 15
    while sum("from the board's memory" in ln for ln in lines()) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    kept = [ln for ln in lines() if "from the board's memory" in ln]
    assert any(f"+ {UID7}" in ln for ln in kept) and any(f"- {UID7}" in ln for ln in kept), lines()
    assert any("pressed" in ln for ln in kept) and any("released" in ln for ln in kept), lines()
    def first(text: str) -> int:
        return next(i for i, ln in enumerate(kept) if text in ln)

    # in the order they happened on the board
    assert first(f"+ {UID7}") < first(f"- {UID7}") < first("pressed") < first("released"), kept

    board.button("click")  # and live after it
    deadline = time.monotonic() + 10
    while not any("pressed" in ln and "memory" not in ln for ln in lines()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert any("pressed" in ln and "memory" not in ln for ln in lines()), lines()
    stop.set()
    assert done.get(timeout=10) == 0
