"""The results out of the game logs: every games database (or exported `.jsonl`) named, each
game once.

A session whose log says it finished its one game gives its result straight from the header
(one query for the whole file: 10 000 games read in a blink). A session of several games, or
one taken up again after its end, is replayed (`sessions`). A session that gave no result is
kept apart (`NotCounted`): unfinished, being played now, closed by hand, abandoned before a
move. A file or a game that cannot be read is named in one line and left out; the rest is read.
The same game read twice (a copy of a database, an export imported again) counts once.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from upref.stats.records import (
    ABANDONED,
    CLOSED,
    ELSEWHERE,
    UNFINISHED,
    Harvest,
    NotCounted,
    Result,
)
from upref.stats.sessions import replay_session
from upref.store.gamelog import (
    FINISHED,
    PLAYING,
    Entry,
    GameInfo,
    GameLog,
    GameLogError,
    load_jsonl,
    read_connection,
)
from upref.store.inuse import held_elsewhere
from upref.text import Msg

__all__ = ["harvest", "result_of"]

_RESTORE = Msg("restore the file from a backup to count it")
_ROWS = "SELECT id, game, created, players, seed, status, finished, outcome FROM games ORDER BY id"


def harvest(paths: Iterable[Path]) -> Harvest:
    """Read every file; a file that cannot be read is one line of `skipped`."""
    out = Harvest()
    seen: set[tuple[Any, ...]] = set()
    for p in paths:
        try:
            if p.suffix == ".jsonl":
                _read_jsonl(p, out, seen)
            else:
                _read_db(p, out, seen)
            out.sources.append(str(p))
        except GameLogError as exc:
            out.skipped.append(_left_out(exc))
            out.unread.append(str(p))
    out.results.sort(key=lambda r: (r.t, r.started, r.number))
    out.not_counted.sort(key=lambda n: n.t)
    return out


def _left_out(exc: GameLogError) -> str:
    """The line that names a file or game left out, and why (its sentence, as raised)."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return Msg("left out: {why}", why=first if isinstance(first, str) else str(exc))


def _read_db(p: Path, out: Harvest, seen: set[tuple[Any, ...]]) -> None:
    conn = read_connection(p)
    try:
        rows = conn.execute(_ROWS).fetchall()
        for row in rows:
            try:
                _take_row(p, conn, row, out, seen)
            except GameLogError as exc:
                out.skipped.append(_left_out(exc))
    except sqlite3.Error as exc:
        raise GameLogError(Msg("game log {path} cannot be read ({exc}): it is damaged; {todo}", path=str(p),
                               exc=str(exc), todo=_RESTORE)) from None
    finally:
        conn.close()


def _take_row(
    p: Path, conn: sqlite3.Connection, row: Sequence[Any], out: Harvest, seen: set[tuple[Any, ...]]
) -> None:
    gid, game, created, players, seed, status, finished, outcome = row
    try:
        names = tuple(str(x) for x in json.loads(players))
        result = None if outcome is None else json.loads(outcome)
        if status == FINISHED and isinstance(result, dict) and result.get("game_number", 1) == 1:
            _keep(out, seen, _plain_result(str(p), int(gid), str(game), float(created), names,
                                           float(finished or created), result))
            return
        head = GameInfo(int(gid), str(game), float(created), names, {}, int(seed), {}, str(status),
                        None if finished is None else float(finished), result)
    except (ValueError, TypeError, RecursionError) as exc:
        raise GameLogError(Msg("game log {path}, log {id}: its header is damaged ({exc}); {todo}", path=str(p),
                               id=gid, exc=str(exc), todo=_RESTORE)) from None
    if head.outcome is None:
        _not_counted(p, GameLog(conn, head.id, p, read_only=True), head, out, seen)
    else:
        with GameLog.open(p, head.id, read_only=True) as log:
            whole, entries = log.header, log.entries()
        _take_session(str(p), whole, entries, out, seen)


def _plain_result(
    source: str, gid: int, game: str, created: float, names: tuple[str, ...], t: float, o: dict[str, Any]
) -> Result:
    """The result of one finished game as its header declares it (most rows: kept quick).

    :raises GameLogError: for a result that does not say who played and who won.
    """
    try:
        scores = o.get("scores") or {}
        points = tuple(int(scores[n]) for n in names) if scores else ()
        winners = tuple(str(w) for w in o.get("winners", ()))
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise GameLogError(Msg("game log {path}, log {id}: its result is damaged ({exc}); {todo}", path=source,
                               id=gid, exc=repr(exc), todo=_RESTORE)) from None
    if not set(winners) <= set(names):
        raise GameLogError(Msg(
            "game log {path}, log {id}: its result names a winner who did not play ({who}); {todo}",
            path=source, id=gid, who=", ".join(sorted(set(winners) - set(names))), todo=_RESTORE,
        ))
    return Result(source, gid, 1, game, t, names, winners, points, str(o.get("termination", "")), created)


def _plain(head: GameInfo) -> bool:
    """One game, finished, its result in the header: nothing to replay."""
    return (
        head.status == FINISHED
        and isinstance(head.outcome, dict)
        and int(head.outcome.get("game_number", 1)) == 1
    )


def _not_counted(p: Path, log: GameLog, head: GameInfo, out: Harvest, seen: set[tuple[Any, ...]]) -> None:
    """A session without a result; `log` reads its moves on the connection already open."""
    state = CLOSED
    if head.status == PLAYING:
        state = ELSEWHERE if held_elsewhere(p, head.id) else UNFINISHED
        if state == UNFINISHED and not log.moves():
            state = ABANDONED
    key = ("open", head.game, head.created, head.players)
    if key not in seen:
        seen.add(key)
        out.not_counted.append(NotCounted(str(p), head.id, head.game, head.created, head.players, state))


def _take_session(
    source: str, head: GameInfo, entries: Sequence[Entry], out: Harvest, seen: set[tuple[Any, ...]]
) -> None:
    replayed = replay_session(head, entries, source)
    for number, (outcome, t) in sorted(replayed.results.items()):
        _keep(out, seen, result_of(head, source, number, t, outcome))
    if head.status != FINISHED and replayed.open_game:
        state = CLOSED if head.status != PLAYING else UNFINISHED
        if state == UNFINISHED and held_elsewhere(source, head.id):
            state = ELSEWHERE
        last = entries[-1].t if entries else head.created
        key = ("open", head.game, head.created, head.players)
        if key not in seen:
            seen.add(key)
            out.not_counted.append(NotCounted(source, head.id, head.game, last, head.players, state))


def _read_jsonl(p: Path, out: Harvest, seen: set[tuple[Any, ...]]) -> None:
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise GameLogError(f"cannot read {p} ({exc}): check the file and its permissions") from None
    head, entries = load_jsonl(lines, str(p))
    if _plain(head):
        _keep(out, seen, result_of(head, str(p), 1, float(head.finished or head.created)))
    elif head.outcome is None:
        state = CLOSED if head.status != PLAYING else UNFINISHED
        out.not_counted.append(NotCounted(str(p), head.id, head.game, head.created, head.players, state))
    else:
        _take_session(str(p), head, entries, out, seen)


def _keep(out: Harvest, seen: set[tuple[Any, ...]], result: Result) -> None:
    if result.key() not in seen:
        seen.add(result.key())
        out.results.append(result)


def result_of(
    head: GameInfo, source: str, number: int, t: float, outcome: dict[str, Any] | None = None
) -> Result:
    """One game's result from what its log declared (the header's outcome by default).

    :raises GameLogError: for an outcome that does not say who played and who won.
    """
    o = head.outcome if outcome is None else outcome
    if not isinstance(o, dict):
        raise GameLogError(Msg("game log {path}, log {id}: its result is damaged ({exc}); {todo}", path=source,
                               id=head.id, exc=repr(o)[:40], todo=_RESTORE))
    r = _plain_result(source, head.id, head.game, head.created, head.players, t, o)
    return Result(r.source, r.log, number, r.game, r.t, r.players, r.winners, r.scores,
                  r.termination, r.started)
