"""Connecting a command to the board: opening its link, or saying in one line why it cannot be
opened."""

from __future__ import annotations

import queue
import sys
from collections.abc import Callable
from typing import Protocol

from upref.commands.lang_option import said, said_error
from upref.link.connection import Link
from upref.link.errors import LinkError
from upref.link.notices import LinkItem
from upref.link.protocol import Echo, Err, Ok

__all__ = ["BoardLink", "open_link"]


class BoardLink(Protocol):
    """What a command that talks to the board needs of a `Link` (tests pass a fake)."""

    events: queue.Queue[LinkItem]
    url: str

    @property
    def error(self) -> LinkError | None: ...

    def command(
        self, ftype: str, *args: str | int, timeout: float = 1.0, retries: int = 2
    ) -> Ok | Err | Echo: ...



def open_link(port: str | None, prog: str, opener: Callable[[str | None], Link]) -> Link | None:
    """Open the link, or print why not (to stderr, prefixed with `prog`) and return None."""
    try:
        return opener(port)
    except LinkError as exc:
        print(f"{prog}: " + said(said_error(exc)), file=sys.stderr)
        return None
