"""Tags numbered by catalogue order: the referee tests' tables (tests/host/support) use them,
and their golden logs hold them. The demos enrol the simulated board's own tags instead
(upref.board.simtags, through `upref.commands.demo.enrol_all`), those a game by hand uses."""

from __future__ import annotations

import zlib
from collections.abc import Sequence

__all__ = ["item_uid", "uids_for"]


def item_uid(game: str, n: int) -> str:
    """A 7-byte NTAG-like UID for piece number `n` of `game` (04 is NXP's manufacturer byte;
    the game's name picks the second byte, so two games' demo tags never collide)."""
    salt = zlib.crc32(game.encode()) & 0xFF
    return f"04{salt:02X}{n >> 8:02X}{n & 0xFF:02X}{(n * 37) & 0xFF:02X}D2E3"


def uids_for(game: str, items: Sequence[tuple[str, str]]) -> dict[str, str]:
    """item id -> UID for every piece of a catalogue, in its order."""
    return {item: item_uid(game, n) for n, (item, _label) in enumerate(items, start=1)}
