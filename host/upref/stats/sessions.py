"""The results of a session that held more than one game, or whose last game was taken up
again: the log's header keeps only the latest result, so the session is replayed through its
game's referee, which declares each game's end as it did at the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from upref.referee.base import OVER
from upref.registry import referee_for
from upref.store.gamelog import Entry, GameInfo, GameLogError
from upref.text import Msg

__all__ = ["Replayed", "replay_session"]


@dataclass
class _Recorder:
    """Stands where the referee's log would be: it keeps each game's declared result, and
    forgets one taken back by an undo after the end."""

    results: dict[int, tuple[dict[str, Any], float]] = field(default_factory=dict)
    kind: str = ""
    latest: int = 0
    next_asked: bool = False

    def append(self, entry: Mapping[str, Any]) -> int:
        return 0

    def finish(self, outcome: Mapping[str, Any], t: float | None = None) -> None:
        number = int(outcome.get("game_number", 1))
        self.results[number] = (dict(outcome), float(t or 0.0))
        self.latest = number
        self.next_asked = False

    def reopen(self) -> None:
        if self.kind == "undo":  # the end was taken back: that game is being played again
            self.results.pop(self.latest, None)
        else:  # the next game of the session was asked for
            self.next_asked = True


@dataclass(frozen=True)
class Replayed:
    """Each game's declared result by its number in the session, and whether the session
    ends with a game under way (begun or asked for, without a result)."""

    results: dict[int, tuple[dict[str, Any], float]]
    open_game: bool


def replay_session(info: GameInfo, entries: Sequence[Entry], source: str) -> Replayed:
    """Replay a session's entries and collect what its referee declared.

    :raises GameLogError: for a game this upref does not know, or an entry it cannot take.
    """
    ref = referee_for(info)
    rec = _Recorder()
    ref.attach(rec)
    for e in entries:
        rec.kind = e.kind
        try:
            ref.handle(ref.decode(e.input_dict()))
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise GameLogError(Msg(
                "game log {path}, log {id}, entry {seq} ({kind}): {game} cannot take it ({exc}); restore "
                "the file from a backup to count it, or update upref if a newer one wrote it",
                path=source, id=info.id, seq=e.seq, kind=e.kind, game=info.game, exc=str(exc),
            )) from None
    current = ref.engine.game_number if ref.has_engine else 0
    ended = ref.phase == OVER and current in rec.results
    return Replayed(rec.results, rec.next_asked or not ended)
