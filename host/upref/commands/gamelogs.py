"""`upref games`: the game logs of the games database, and closing or forgetting one.

    upref games [--db PATH] [GAME]      every log (of GAME): number, game, players, when it
                                        started, moves, and its state: finished, unfinished,
                                        closed without a result, being played elsewhere
    upref games --close N               an unfinished log ends without a result (kept, no
                                        longer offered to --resume)
    upref games --forget N              a log is removed with all its entries

A log being played in another window (`upref play` holds its mark) is neither closed nor
forgotten; a number the database does not hold is refused with the numbers it does.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from upref.commands.unfinished import ELSEWHERE, UNFINISHED, Listed, listed, named
from upref.registry import titles
from upref.store.gamelog import GameLog, GameLogError, default_path
from upref.text import count

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="upref games",
        description="List the game logs; close or forget one by its number.",
    )
    ap.add_argument("game", nargs="?", help="list only this game's logs (updown, up, ...)")
    ap.add_argument("--db", type=Path, help=f"the games database (default: {default_path(create=False)})")
    which = ap.add_mutually_exclusive_group()
    which.add_argument(
        "--close", type=int, metavar="N", help="end unfinished log N without a result (it is kept)"
    )
    which.add_argument("--forget", type=int, metavar="N", help="remove log N and all its entries")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_intermixed_args(argv)
    db = args.db if args.db is not None else default_path(create=False)
    db_words = f" --db {args.db}" if args.db is not None else ""
    try:
        if args.close is not None:
            print(_close(db, args.close, db_words))
        elif args.forget is not None:
            print(_forget(db, args.forget, db_words))
        else:
            _list(db, args.game)
    except GameLogError as exc:
        print(f"upref games: {exc}", file=sys.stderr)
        return 1
    return 0


def _list(db: Path, game: str | None) -> None:
    logs = listed(db, game)
    if not logs:
        which = f"{titles().get(game, game)} " if game else ""
        print(f"upref games: no {which}game logs in {db} yet", file=sys.stderr)
        return
    rows = [("log", "game", "players", "started", "moves", "state")]
    for x in logs:
        info = x.summary.info
        rows.append(
            (
                str(info.id),
                titles().get(info.game, info.game),
                ", ".join(info.players),
                datetime.fromtimestamp(info.created).strftime("%Y-%m-%d %H:%M"),
                str(x.summary.moves),
                x.state,
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    print(f"Game logs in {db}:")
    for r in rows:
        cells = [r[0].rjust(widths[0])] + [c.ljust(w) for c, w in zip(r[1:4], widths[1:4], strict=True)]
        cells += [r[4].rjust(widths[4]), r[5]]
        print("  " + "  ".join(cells).rstrip())


def _find(db: Path, number: int, db_words: str) -> Listed:
    """:raises GameLogError: no such log (naming those there are), or one played elsewhere."""
    logs = listed(db, writer=True)
    for x in logs:
        if x.number == number:
            if x.state == ELSEWHERE:
                raise GameLogError(
                    f"{named(x.summary)} is being played in another window: quit it there "
                    "first (q), then try again"
                )
            return x
    there = ", ".join(str(x.number) for x in logs) or "none yet"
    raise GameLogError(
        f"there is no log {number} in {db} (its logs: {there}): `upref games{db_words}` lists them"
    )


def _close(db: Path, number: int, db_words: str) -> str:
    x = _find(db, number, db_words)
    if x.state != UNFINISHED:
        raise GameLogError(f"{named(x.summary)} is {x.state} already: there is nothing to close")
    with _held(db, number) as log:
        log.close_unfinished()
    return (
        f"Closed without a result: {named(x.summary)}. --resume no longer offers it; "
        f"`upref replay{db_words} --game {number}` still shows its verdicts."
    )


def _forget(db: Path, number: int, db_words: str) -> str:
    x = _find(db, number, db_words)
    with _held(db, number) as log:
        log.forget()
    left = len(listed(db, writer=True))
    return f"Forgotten: {named(x.summary)}. {count(left, 'log')} left in {db}."


class _held:
    """The log opened to write and marked as played by this process, so that no `play`
    takes it up while it is closed or forgotten."""

    def __init__(self, db: Path, number: int) -> None:
        self._log = GameLog.open(db, number)

    def __enter__(self) -> GameLog:
        if not self._log.mark_playing():
            self._log.close()
            raise GameLogError(
                f"log {self._log.game_id} in {self._log.path} has just been taken up in another "
                "window: quit it there first (q), then try again"
            )
        return self._log

    def __exit__(self, *exc: object) -> None:
        self._log.close()  # after forget, closing again does nothing
