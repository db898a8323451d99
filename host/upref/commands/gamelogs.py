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

from upref.commands.lang_option import add_lang_option, chosen_lang, said, said_error
from upref.commands.unfinished import ELSEWHERE, UNFINISHED, Listed, listed, named
from upref.registry import titles
from upref.store.gamelog import GameLog, GameLogError, default_path
from upref.text import Msg, Plural

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="upref games",
        description=said(Msg("List the game logs; close or forget one by its number.")),
    )
    ap.add_argument("game", nargs="?", help=said(Msg("list only this game's logs (updown, up, ...)")))
    ap.add_argument(
        "--db",
        type=Path,
        help=said(Msg("the games database (default: {path})", path=default_path(create=False))),
    )
    which = ap.add_mutually_exclusive_group()
    which.add_argument(
        "--close",
        type=int,
        metavar="N",
        help=said(Msg("end unfinished log N without a result (it is kept)")),
    )
    which.add_argument(
        "--forget", type=int, metavar="N", help=said(Msg("remove log N and all its entries"))
    )
    add_lang_option(ap)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_intermixed_args(argv)
    chosen_lang(args, "upref games")
    db = args.db if args.db is not None else default_path(create=False)
    db_words = f" --db {args.db}" if args.db is not None else ""
    try:
        if args.close is not None:
            print(said(_close(db, args.close, db_words)))
        elif args.forget is not None:
            print(said(_forget(db, args.forget, db_words)))
        else:
            _list(db, args.game)
    except GameLogError as exc:
        print("upref games: " + said(said_error(exc)), file=sys.stderr)
        return 1
    return 0


def _list(db: Path, game: str | None) -> None:
    logs = listed(db, game)
    if not logs:
        none = (
            Msg("no {title} game logs in {db} yet", title=titles().get(game, game), db=db)
            if game
            else Msg("no game logs in {db} yet", db=db)
        )
        print("upref games: " + said(none), file=sys.stderr)
        return
    heads = (Msg("log"), Msg("game"), Msg("players"), Msg("started"), Msg("moves"), Msg("state"))
    rows = [tuple(said(h) for h in heads)]
    for x in logs:
        info = x.summary.info
        rows.append(
            (
                str(info.id),
                titles().get(info.game, info.game),
                ", ".join(info.players),
                datetime.fromtimestamp(info.created).strftime("%Y-%m-%d %H:%M"),
                str(x.summary.moves),
                said(x.state),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    print(said(Msg("Game logs in {db}:", db=db)))
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
                    Msg(
                        "{log} is being played in another window: quit it there first (q), then "
                        "try again",
                        log=named(x.summary),
                    )
                )
            return x
    there = ", ".join(str(x.number) for x in logs) or Msg("none yet")
    raise GameLogError(
        Msg(
            "there is no log {number} in {db} (its logs: {there}): `upref games{words}` lists them",
            number=number,
            db=db,
            there=there,
            words=db_words,
        )
    )


def _close(db: Path, number: int, db_words: str) -> str:
    x = _find(db, number, db_words)
    if x.state != UNFINISHED:
        raise GameLogError(
            Msg(
                "{log} is {state} already: there is nothing to close",
                log=named(x.summary),
                state=x.state,
            )
        )
    with _held(db, number) as log:
        log.close_unfinished()
    return Msg(
        "Closed without a result: {log}. --resume no longer offers it; `upref replay{words} "
        "--game {number}` still shows its verdicts.",
        log=named(x.summary),
        words=db_words,
        number=number,
    )


def _forget(db: Path, number: int, db_words: str) -> str:
    x = _find(db, number, db_words)
    with _held(db, number) as log:
        log.forget()
    left = len(listed(db, writer=True))
    return Plural(
        "Forgotten: {log}. {n} log left in {db}.",
        "Forgotten: {log}. {n} logs left in {db}.",
        n=left,
        log=named(x.summary),
        db=db,
    )


class _held:
    """The log opened to write and marked as played by this process, so that no `play`
    takes it up while it is closed or forgotten."""

    def __init__(self, db: Path, number: int) -> None:
        self._log = GameLog.open(db, number)

    def __enter__(self) -> GameLog:
        if not self._log.mark_playing():
            self._log.close()
            raise GameLogError(
                Msg(
                    "log {id} in {path} has just been taken up in another window: quit it there "
                    "first (q), then try again",
                    id=self._log.game_id,
                    path=self._log.path,
                )
            )
        return self._log

    def __exit__(self, *exc: object) -> None:
        self._log.close()  # after forget, closing again does nothing
