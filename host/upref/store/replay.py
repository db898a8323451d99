"""Replay and resume of game logs (the commands `upref replay` and `upref export` are in
`upref.commands.replay`).

A replay feeds a log's entries, in order, to a fresh referee built from the log's header (the
game's settings, code table, catalogue): time comes only from the entries and the seed from the
StartGame entry, and card entries carry what the tag book said when they were logged, so every
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
from upref.referee.status import Verdict
from upref.store.gamelog import (
    PUBLIC_FORMAT,
    Entry,
    GameInfo,
    GameLog,
    GameLogError,
    load_jsonl,
)
from upref.text import Msg

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


RefereeMaker = Callable[[GameInfo], Referee]
"""Builds a fresh referee from a log's header (`GameLogError` for a game it does not know)."""


@dataclass(frozen=True)
class Replayed:
    """One entry and what the referee answered to it."""

    entry: Entry
    reply: Reply


def replay(
    info: GameInfo, entries: Iterable[Entry], make: RefereeMaker, source: str | Path | None = None
) -> Iterator[Replayed]:
    """Feed the entries to a fresh referee (`make(info)`); yield each entry with the referee's
    reply. `source` names the log in messages.

    :raises GameLogError: for an entry the game cannot read, naming the log, game and entry.
    """
    ref = make(info)
    for e in entries:
        yield Replayed(e, _handle(ref, info, e, source))


def _handle(ref: Referee, info: GameInfo, e: Entry, source: str | Path | None) -> Reply:
    """The referee's reply to one entry; an entry it cannot take (an unknown kind, a bad
    payload) is a `GameLogError` that names the log, the game and the entry."""
    where = Msg("game log {source}, game {id}", source=str(source), id=info.id) if source is not None \
        else Msg("game {id}", id=info.id)
    try:
        inp = ref.decode(e.input_dict())
    except (ValueError, KeyError, TypeError) as exc:
        raise GameLogError(Msg(
            "{where}, entry {seq}: {game} cannot read it ({exc}); it was written by a newer upref "
            "(update upref) or the log is damaged (restore it from a backup)",
            where=where, seq=e.seq, game=info.game, exc=str(exc),
        )) from None
    try:
        return ref.handle(inp)
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise GameLogError(Msg(
            "{where}, entry {seq} ({kind}): the referee cannot take it ({exc}); the log is damaged: "
            "restore it from a backup", where=where, seq=e.seq, kind=e.kind, exc=repr(exc),
        )) from None


def resume(
    log: GameLog,
    make: RefereeMaker,
    *,
    feedback: Callable[[Feedback], None] | None = None,
) -> Referee:
    """Rebuild the referee of an unfinished game from its log (after the host crashed or was
    closed) and attach the log, so that further inputs are appended to it. Send it a
    `BoardPicture` of the board once the board model has its first snapshot: holes that changed
    while the host was away are then taken up.

    :raises GameLogError: for a log the game cannot read, naming the file, game and entry.
    """
    info = log.header
    ref = make(info)
    for e in log.entries():
        _handle(ref, info, e, log.path)
    ref.attach(log)
    ref.feedback_sink = feedback
    return ref


def load_log(path: str | Path, game_id: int | None = None) -> tuple[GameInfo, list[Entry]]:
    """A game's header and entries from a games database or a .jsonl export ('-': stdin).
    Without `game_id`, the newest game of the database. Reads only: a database is opened
    read-only, and a file that is not an upref log is refused untouched.

    :raises GameLogError: when it cannot be read, saying what is wrong, where, and what to do.
    """
    if str(path) == "-":
        return load_jsonl(sys.stdin, "standard input")
    p = Path(path)
    if p.exists() and not p.is_dir():
        try:
            with p.open("rb") as f:
                magic = f.read(16)
        except OSError as exc:
            raise GameLogError(Msg(
                "cannot read the game log {path}: {why}; check the file's permissions",
                path=str(p), why=str(exc.strerror or exc),
            )) from None
        if magic and not magic.startswith(b"SQLite format 3"):
            return load_jsonl(_text_lines(p), str(p))
    if game_id is None:
        if not p.exists():
            raise GameLogError(Msg(
                "there is no game log at {path}: play a game first (upref play GAME NAMES), or name a "
                "games.sqlite or an exported .jsonl", path=str(p),
            ))
        log = GameLog.open_latest(p, game=None, unfinished=False, read_only=True)
        if log is None:
            raise GameLogError(Msg(
                "game log {path} holds no game yet: play one first (upref play GAME NAMES)", path=str(p)
            ))
    else:
        log = GameLog.open(p, game_id, read_only=True)
    with log:
        return log.header, log.entries()


def _text_lines(p: Path) -> list[str]:
    """The lines of a file that should be a JSON Lines export.

    :raises GameLogError: for a file that is not UTF-8 text (random bytes, another format).
    """
    try:
        return p.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise GameLogError(Msg(
            "{path} is not an upref game log (neither an SQLite games database nor JSON Lines text): "
            "name the games.sqlite that `upref play` wrote, or an exported .jsonl", path=str(p),
        )) from None
    except OSError as exc:
        raise GameLogError(Msg("cannot read the game log {path}: {why}", path=str(p),
                               why=str(exc.strerror or exc))) from None


def verdict_dict(seq: int, v: Verdict) -> dict[str, Any]:
    return {
        "seq": seq,
        "kind": v.kind,
        "text": v.text,
        "rule": v.rule,
        "correction": v.correction,
        "seat": v.seat,
    }


def public_lines(
    info: GameInfo, entries: Iterable[Entry], make: RefereeMaker, source: str | Path | None = None
) -> Iterator[dict[str, Any]]:
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
    for r in replay(info, entries, make, source):
        for v in r.reply.public:
            line = verdict_dict(r.entry.seq, v)
            del line["seat"]
            yield {"t": r.entry.t, **line}
