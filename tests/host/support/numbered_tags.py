"""The numbered tags of the referee tests' tables of Up and Upturn.

The package has one rule for simulated UIDs (`upref.board.simtags.sim_uid`, the simulated deck).
These tables were written before it and tag the pieces by their number in the catalogue; their
golden logs (`tests/golden/up/`, `tests/golden/upturn/`) hold those UIDs, so the tables keep
them: `04`, then the low byte of the CRC-32 of the game's name (two games' numbered tags never
collide), the number in two bytes, the number times 37 in one, and `D2E3`. No board, demo or
command uses them."""

from __future__ import annotations

import zlib
from collections.abc import Sequence


def numbered_uid(game: str, n: int) -> str:
    """The UID of the test tables' tag on piece number `n` (from 1) of `game`'s catalogue: 14
    upper-case hex digits."""
    salt = zlib.crc32(game.encode()) & 0xFF
    return f"04{salt:02X}{n >> 8:02X}{n & 0xFF:02X}{(n * 37) & 0xFF:02X}D2E3"


def numbered_uids(game: str, items: Sequence[tuple[str, str]]) -> dict[str, str]:
    """item id -> numbered UID for every piece of a catalogue, numbered in its order from 1."""
    return {item: numbered_uid(game, n) for n, (item, _label) in enumerate(items, start=1)}
