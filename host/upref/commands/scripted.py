"""What the commands that play a game at the table share, beside its screens: `upref demo`,
`upref play --resume`, `make faults` and the bench. The tags of the simulated board enrolled for
a game's pieces, how long a demo's script may run, and where a resumed game's link asks the
board to begin.
"""

from __future__ import annotations

from upref.board.simtags import sim_uids
from upref.game import Game
from upref.store.gamelog import GameLog
from upref.store.tags import TagBook

__all__ = ["DEADLINE_S", "enrol_all", "since_of"]

DEADLINE_S = 600.0
"""A demo that has not ended after this long stops (a script that never ends is a bug)."""


def enrol_all(game: Game, tag_book: TagBook) -> dict[str, str]:
    """Enrol the simulated board's tag of every piece of the game's catalogue (the UIDs of
    upref.board.simtags, as `upref enroll GAME --simulated` does); item id -> UID."""
    uid_of = sim_uids(game.name, game.items())
    for item, uid in uid_of.items():
        tag_book.enroll(uid, game.name, item)
    return uid_of


def since_of(log: GameLog) -> tuple[str, int] | None:
    """(boot id, board sequence number) of the last board event the log applied, for
    `LinkSettings(since=...)`; None when the log has none."""
    for entry in reversed(log.entries()):
        boot, seq = entry.payload.get("boot"), entry.payload.get("board_seq")
        if isinstance(boot, str) and isinstance(seq, int):
            return boot, seq
    return None
