"""What every game's demo players share: they stop while the board is offline.

The tags here are numbered by catalogue order: the referee tests' tables (tests/host/support) use
them, and their golden logs hold them. The demos enrol the simulated board's own tags instead
(upref.board.simtags, through `upref.commands.scripted.enrol_all`), those a game by hand uses."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from upref.table import Table

__all__ = ["OFFLINE_WAIT_S", "taps", "wait_for_offline", "wait_while_offline"]

OFFLINE_WAIT_S = 60.0
"""The longest the scripted players wait for a board the referee says is offline."""


def wait_while_offline(table: Table, limit: float = OFFLINE_WAIT_S) -> bool:
    """People at a table stop when the referee says the board is offline: the players' next
    action waits until it says the board is back (at most `limit` seconds); False if it never
    came back."""
    end = time.monotonic() + limit
    while not table.referee.online:
        if time.monotonic() > end:
            return False
        table.pump(0.1)
    return True


def wait_for_offline(table: Table, limit: float) -> bool:
    """After the cable is pulled, the players wait (at most `limit` seconds) until the referee
    says the board is offline, as people who saw it happen would; False if it never said so."""
    end = time.monotonic() + limit
    while table.referee.online:
        if time.monotonic() > end:
            return False
        table.pump(0.1)
    return True


def taps(board: Mapping[str, Any], uids: Sequence[str]) -> tuple[str, ...]:
    """A whole step's taps as the simulated board's own verbs (`upref.game.StepPlan.lines`):
    whatever lies on the reader taken off first, then each card tapped and taken away in turn
    (`touch`)."""
    clear = ("remove",) if board.get("cards") else ()
    return (*clear, *(f"touch {uid}" for uid in uids))
