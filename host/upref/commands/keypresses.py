"""Single key presses from the terminal, without Enter: what `play` and `doctor` read keys with."""

from __future__ import annotations

import contextlib
import os
import select
import sys
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def keys() -> Iterator[Callable[[], str | None]]:
    """A function giving the key pressed since its last call (None: none), read from a terminal
    in cbreak mode and restored after; on a non-terminal it never gives a key."""
    if not sys.stdin.isatty():
        yield lambda: None
        return
    import termios
    import tty

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:

        def read() -> str | None:
            if select.select([fd], [], [], 0)[0]:
                return os.read(fd, 1).decode(errors="replace")
            return None

        yield read
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
