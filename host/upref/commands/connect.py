"""Connecting a command to the board: opening its link, or saying in one line why it cannot be
opened."""

from __future__ import annotations

import sys
from collections.abc import Callable

from upref.commands.lang_option import said, said_error
from upref.link.connection import Link
from upref.link.errors import LinkError

__all__ = ["open_link"]


def open_link(port: str | None, prog: str, opener: Callable[[str | None], Link]) -> Link | None:
    """Open the link, or print why not (to stderr, prefixed with `prog`) and return None."""
    try:
        return opener(port)
    except LinkError as exc:
        print(f"{prog}: " + said(said_error(exc)), file=sys.stderr)
        return None
