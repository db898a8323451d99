"""The game logs as `upref play --resume` and `upref games` see them: which are unfinished,
which are being played elsewhere, and which one `--resume` continues.

`--resume` continues the game that matches the table. The candidates are the unfinished logs of
the game that no other process is playing (`upref.store.inuse`); with players' names, only the
logs of exactly those players (in any order and case): a change at the table is never booked to
a game whose players are not there. Without names, a log is left out when the table went on to
another game after it (`overtaken_by`: another log holds events of the same boot of the board
beyond the last one this log applied, or moves made after its last entry), so the table is no
longer as this log left it. One candidate left is continued; several are listed and the person
at the terminal is asked which (elsewhere `play` refuses and names `--game-id`).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from upref.commands.lang_option import said
from upref.registry import titles
from upref.store.gamelog import (
    CLOSED,
    FINISHED,
    PLAYING,
    GameLog,
    GameLogError,
    LogSummary,
    summaries,
)
from upref.store.inuse import held_elsewhere
from upref.text import Msg, Plural, and_join, join_words

__all__ = [
    "ELSEWHERE",
    "UNFINISHED",
    "Listed",
    "choose",
    "describe",
    "forget_abandoned",
    "listed",
    "named",
    "overtaken_by",
    "same_players",
]

ELSEWHERE = Msg("being played elsewhere")
UNFINISHED = Msg("unfinished")
_STATES = {PLAYING: UNFINISHED, FINISHED: Msg("finished"), CLOSED: Msg("closed without a result")}


@dataclass(frozen=True)
class Listed:
    """One log of the database as a list shows it: its summary and its state in words
    (finished, unfinished, closed without a result, being played elsewhere)."""

    summary: LogSummary
    state: str

    @property
    def number(self) -> int:
        return self.summary.info.id


def listed(db: Path, game: str | None = None, *, writer: bool = False) -> list[Listed]:
    """Every log of the database (of `game`, if given), oldest first, with its state (`writer`:
    read by a command that writes to the log, see `summaries`).

    :raises GameLogError: a file that is not an upref log, or is damaged.
    """
    out = []
    for s in summaries(db, game, writer=writer):
        state = _STATES.get(s.info.status, s.info.status)
        if s.info.status == PLAYING and held_elsewhere(db, s.info.id):
            state = ELSEWHERE
        out.append(Listed(s, state))
    return out


def describe(s: LogSummary) -> str:
    """'log 3: Up And Down, Ann, Bob and Cy, started 2026-12-06 20:15, 12 moves'."""
    return Msg("log {id}: {what}", id=s.info.id, what=_what(s))


def named(s: LogSummary) -> str:
    """'log 3 (Up And Down, Ann, Bob and Cy, started 2026-12-06 20:15, 12 moves)'."""
    return Msg("log {id} ({what})", id=s.info.id, what=_what(s))


def _what(s: LogSummary) -> str:
    info = s.info
    title = titles().get(info.game, info.game)
    when = datetime.fromtimestamp(info.created).strftime("%Y-%m-%d %H:%M")
    return Msg(
        "{title}, {players}, started {when}, {moves}",
        title=title,
        players=and_join(list(info.players)),
        when=when,
        moves=Plural("{n} move", "{n} moves", n=s.moves),
    )


def overtaken_by(s: LogSummary, others: Sequence[LogSummary]) -> LogSummary | None:
    """The game the table went on to after `s`, or None: a log that holds an event of the same
    boot of the board numbered beyond the last one `s` applied (the board's own word), else the
    latest log with a move whose last entry came after the last of `s` (the board may have
    been restarted in between)."""
    mark = s.last_mark
    if mark is not None:
        for o in others:
            if o.info.id != s.info.id and o.marks.get(mark[0], -1) > mark[1]:
                return o
    later = [o for o in others if o.info.id != s.info.id and o.moves and o.last_t > s.last_t]
    return max(later, key=lambda o: o.last_t, default=None)


def same_players(players: Sequence[str], names: Sequence[str]) -> bool:
    """Whether the names are the log's players, in any order and case."""

    def key(ns: Sequence[str]) -> list[str]:
        return sorted(n.strip().casefold() for n in ns)

    return key(players) == key(names)


Ask = Callable[[list[str]], str]
"""Shows the lines of a question and returns the answer typed (a terminal only)."""


def choose(
    game: str, db: Path, names: Sequence[str], ask: Ask | None, db_words: str = ""
) -> int:
    """The number of the log `--resume` continues (see the module's text).

    :param ask: the terminal's question, or None (not a terminal: several candidates refuse).
    :param db_words: ' --db PATH' for the commands the messages give.
    :raises GameLogError: none fits, several fit and none was chosen; saying why and what to do.
    """
    title = titles().get(game, game)
    every = listed(db, writer=True)
    own = [x for x in every if x.summary.info.game == game and x.state in (UNFINISHED, ELSEWHERE)]
    if names:
        own = [x for x in own if same_players(x.summary.info.players, names)]
    free = [x for x in own if x.state == UNFINISHED]
    fits = free
    if not names:
        sums = [x.summary for x in every]
        fits = [x for x in free if overtaken_by(x.summary, sums) is None]
    if len(fits) == 1:
        return fits[0].number
    if not fits:
        raise GameLogError(_none_fits(game, title, names, own, every, db_words))
    return _ask_which(game, title, fits, ask, db_words, named_players=bool(names))


def _none_fits(
    game: str, title: str, names: Sequence[str], own: list[Listed], every: list[Listed], db: str
) -> str:
    """Why no unfinished log fits the table, and what to do."""
    who = Msg(" of {players}", players=and_join(list(names))) if names else ""
    new_game = f"upref play {game} {shlex.join(names) or 'NAMES'}{db}"
    start = Msg("start one with {command}", command=new_game)
    if not own:
        return Msg(
            "there is no unfinished {title} game{who} to resume: {start}", title=title, who=who, start=start
        )
    busy = [x for x in own if x.state == ELSEWHERE]
    if len(busy) == len(own):
        return Plural(
            "the unfinished {title} game{who} ({logs}) is being played in another window: go on "
            "there, or {start}",
            "the unfinished {title} games{who} ({logs}) are being played in another window: go "
            "on there, or {start}",
            n=len(busy),
            title=title,
            who=who,
            logs=join_words("; ", [describe(x.summary) for x in busy]),
            start=start,
        )
    return Msg(
        "no unfinished {title} game fits the table: {why}. Otherwise start a new game with "
        "{command} (`upref games --close N{db}` closes an old one)",
        title=title,
        why=join_words("; ", _overtaken(game, own, every, db)),
        command=new_game,
        db=db,
    )


def _overtaken(game: str, own: list[Listed], every: list[Listed], db: str) -> list[str]:
    """For each free unfinished log of `own`: which game the board played since, and how to
    continue it all the same."""
    sums = [x.summary for x in every]
    parts: list[str] = []
    for x in own:
        if x.state == ELSEWHERE:
            continue
        later = overtaken_by(x.summary, sums)
        since = (
            Msg("log {id} ({players})", id=later.info.id, players=and_join(list(later.info.players)))
            if later
            else Msg("another game")
        )
        parts.append(
            Msg(
                "{log}: the board has played {since} since; if its players are at the table, "
                "continue it with upref play {game} {players} --resume{db}",
                log=named(x.summary),
                since=since,
                game=game,
                players=shlex.join(x.summary.info.players),
                db=db,
            )
        )
    return parts


def _ask_which(
    game: str, title: str, fits: list[Listed], ask: Ask | None, db: str, *, named_players: bool
) -> int:
    """The one of several fitting logs the person at the terminal chooses.

    :raises GameLogError: not a terminal, or no log chosen.
    """
    choices = join_words("; ", [describe(x.summary) for x in fits])
    how = f"upref play {game} --resume --game-id N{db}"
    if ask is None:
        raise GameLogError(
            Msg(
                "{n} unfinished {title} games could be the one at the table ({choices}): name "
                "one with --game-id ({how}){or_names}",
                n=len(fits),
                title=title,
                choices=choices,
                how=how,
                or_names="" if named_players else Msg(", or name its players"),
            )
        )
    head = Msg("{n} unfinished {title} games could be the one at the table:", n=len(fits), title=title)
    question = Msg("Which log goes on? Type its number and Enter (Enter alone: none) > ")
    lines = [said(head), *("  " + said(describe(x.summary)) for x in fits), said(question)]
    answer = ask(lines).strip()
    for x in fits:
        if answer == str(x.number):
            return x.number
    why = Msg("{answer!r} is none of them", answer=answer) if answer else Msg("none was chosen")
    raise GameLogError(Msg("no game resumed ({why}): choose again, or {how}", why=why, how=how))


def forget_abandoned(db: Path) -> list[int]:
    """Remove the unfinished logs in which no move was made and that no process plays (a start
    abandoned by a host that was killed before it could remove it itself); their numbers.

    :raises GameLogError: a log that cannot be read or written.
    """
    gone = []
    for x in listed(db, writer=True):
        if x.state == UNFINISHED and x.summary.moves == 0:
            log = GameLog.open(db, x.number)
            if log.mark_playing():  # nobody took it up meanwhile
                log.forget()
                gone.append(x.number)
            else:
                log.close()
    return gone
