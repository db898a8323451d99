"""What every game's demo shares: tags for its pieces, and players who stop while the board is
offline.

The tags here are numbered by catalogue order: the referee tests' tables (tests/host/support) use
them, and their golden logs hold them. The demos enrol the simulated board's own tags instead
(upref.board.simtags, through `upref.commands.scripted.enrol_all`), those a game by hand uses."""

from __future__ import annotations

import time
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from upref.table import Table

__all__ = ["OFFLINE_WAIT_S", "item_uid", "uids_for", "wait_for_offline", "wait_while_offline"]

OFFLINE_WAIT_S = 60.0
"""The longest the scripted players wait for a board the referee says is offline."""


def item_uid(game: str, n: int) -> str:
    """A 7-byte NTAG-like UID for piece number `n` of `game` (04 is NXP's manufacturer byte;
    the game's name picks the second byte, so two games' demo tags never collide)."""
    salt = zlib.crc32(game.encode()) & 0xFF
    return f"04{salt:02X}{n >> 8:02X}{n & 0xFF:02X}{(n * 37) & 0xFF:02X}D2E3"


def uids_for(game: str, items: Sequence[tuple[str, str]]) -> dict[str, str]:
    """item id -> UID for every piece of a catalogue, in its order."""
    return {item: item_uid(game, n) for n, (item, _label) in enumerate(items, start=1)}


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
