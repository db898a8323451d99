"""Replay and resume of game logs (the commands `upref replay` and `upref export` are in
`upref.commands.replay`).

A replay feeds a log's entries, in order, to a fresh referee built from the log's header (the
game's settings, code table, catalogue): time comes only from the entries and the seed from the
StartGame entry, and card entries carry what the registry said when they were logged, so every
verdict comes out exactly as it did at the table.

The store knows no game: whoever asks for a replay hands in `make`, which builds the right
referee from a log's header (`upref.registry.referee_for` does, for every registered game).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upref.referee.base import Referee, Reply
from upref.referee.feedback import Feedback
from upref.referee.inputs import Input
from upref.referee.status import Verdict
from upref.store.gamelog import (
    Entry,
    GameInfo,
    GameLog,
    GameLogError,
    load_jsonl,
)

__all__ = [
    "PUBLIC_FORMAT",
    "RefereeMaker",
    "Replayed",
    "load_log",
    "public_lines",
    "replay",
    "resume",
    "verdict_dict",
]

PUBLIC_FORMAT = "upref-public"
"""The format name of a game's public export: what the table saw, nothing hidden."""

RefereeMaker = Callable[[GameInfo], Referee]
"""Builds a fresh referee from a log's header (`GameLogError` for a game it does not know)."""


@dataclass(frozen=True)
class Replayed:
    """One entry and what the referee answered to it."""

    entry: Entry
    reply: Reply


def replay(info: GameInfo, entries: Iterable[Entry], make: RefereeMaker) -> Iterator[Replayed]:
    """Feed the entries to a fresh referee (`make(info)`); yield each entry with the referee's
    reply.

    :raises GameLogError: for an entry the game cannot read, naming the log, game and entry.
    """
    ref = make(info)
    for e in entries:
        yield Replayed(e, ref.handle(_decode(ref, info, e)))


def _decode(ref: Referee, info: GameInfo, e: Entry) -> Input:
    try:
        return ref.decode(e.input_dict())
    except ValueError as exc:
        raise GameLogError(f"game {info.id}, entry {e.seq}: {exc}") from None


def resume(
    log: GameLog,
    make: RefereeMaker,
    *,
    feedback: Callable[[Feedback], None] | None = None,
) -> Referee:
    """Rebuild the referee of an unfinished game from its log (after the host crashed or was
    closed) and attach the log, so that further inputs are appended to it. Send it a
    `Picture` of the board once the board model has its first snapshot: holes that changed
    while the host was away are then taken up.

    :raises GameLogError: for a log the game cannot read.
    """
    info = log.header
    ref = make(info)
    for e in log.entries():
        ref.handle(_decode(ref, info, e))
    ref.attach(log)
    ref.feedback_sink = feedback
    return ref


def load_log(path: str | Path, game_id: int | None = None) -> tuple[GameInfo, list[Entry]]:
    """A game's header and entries from a games database or a .jsonl export ('-': stdin).
    Without `game_id`, the newest game of the database.

    :raises GameLogError: when it cannot be read.
    """
    if str(path) == "-":
        return load_jsonl(sys.stdin)
    p = Path(path)
    if not p.exists():
        raise GameLogError(f"no game log at {str(p)!r}")
    with p.open("rb") as f:
        magic = f.read(16)
    if not magic.startswith(b"SQLite format 3"):
        with p.open(encoding="utf-8") as f:
            return load_jsonl(f)
    if game_id is None:
        log = GameLog.open_latest(p, game=None, unfinished=False, durable=False)
        if log is None:
            raise GameLogError(f"game log {str(p)!r} holds no game")
    else:
        log = GameLog.open(p, game_id, durable=False)
    with log:
        return log.header, log.entries()


def verdict_dict(seq: int, v: Verdict) -> dict[str, Any]:
    return {
        "seq": seq,
        "kind": v.kind,
        "text": v.text,
        "rule": v.rule,
        "correction": v.correction,
        "seat": v.seat,
    }


def public_lines(info: GameInfo, entries: Iterable[Entry], make: RefereeMaker) -> Iterator[dict[str, Any]]:
    """A game as everyone at the table saw it, for sharing: a header (the game, players,
    variant and result) and every public verdict with its entry's number and time. Nothing a
    player may not see gets in: no input (a tapped card's tag names a face-down card), no
    verdict addressed to one seat, no settings (a catalogue may hold a stack's order).

    :raises GameLogError: for a log the game cannot read.
    """
    yield {
        "kind": "game",
        "format": PUBLIC_FORMAT,
        "game": info.game,
        "id": info.id,
        "players": list(info.players),
        "variant": info.variant,
        "status": info.status,
        "outcome": info.outcome,
    }
    for r in replay(info, entries, make):
        for v in r.reply.public:
            line = verdict_dict(r.entry.seq, v)
            del line["seat"]
            yield {"t": r.entry.t, **line}
