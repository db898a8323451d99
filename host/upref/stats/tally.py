"""Counting the results: per player and game (and per player over every game), and by evening.

A *win* is a game the player won alone; a *shared* win is one whose win they shared. A run of
wins counts both, game after game in the order they ended, and ends at the first game the
player did not win; the current run is the one still going at the player's latest game. The
average score is over the games that keep a score. An *evening* is a calendar day from 6 in the
morning to 6 the next morning (local time), so a game that ends after midnight belongs to the
evening it was played in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from upref.stats.records import NotCounted, Result

__all__ = ["ALL", "Evening", "Line", "evening_of", "evenings", "lines"]

ALL = ""
"""The game of a line over every game."""
EVENING_STARTS = timedelta(hours=6)


@dataclass(frozen=True)
class Line:
    """One player in one game (`ALL`: over every game)."""

    player: str
    game: str
    played: int
    won: int
    shared: int
    current_run: int
    longest_run: int
    average: float | None


@dataclass(frozen=True)
class Evening:
    """One evening's results, in the order they ended, and its games that gave none."""

    day: date
    results: tuple[Result, ...]
    not_counted: tuple[NotCounted, ...]


def _line(player: str, game: str, results: Sequence[Result]) -> Line:
    won = shared = run = longest = 0
    scores: list[int] = []
    for r in results:
        if player in r.winners:
            won += len(r.winners) == 1
            shared += len(r.winners) > 1
            run += 1
            longest = max(longest, run)
        else:
            run = 0
        if r.scores and game != ALL:  # scores of different games do not add up
            scores.append(r.scores[r.players.index(player)])
    average = round(sum(scores) / len(scores), 2) if scores else None
    return Line(player, game, len(results), won, shared, run, longest, average)


def lines(results: Iterable[Result], players: set[str] | None = None) -> list[Line]:
    """A line per player and game, then one per player over every game (for a player of more
    than one game), by game, then most wins first; only `players`' when given."""
    by: dict[tuple[str, str], list[Result]] = {}
    for r in results:
        for p in r.players:
            if players is None or p in players:
                by.setdefault((r.game, p), []).append(r)
                by.setdefault((ALL, p), []).append(r)
    games_of: dict[str, int] = {}
    for game, p in by:
        games_of[p] = games_of.get(p, 0) + (game != ALL)
    out = [_line(p, g, rs) for (g, p), rs in by.items() if g != ALL or games_of[p] > 1]
    out.sort(key=lambda x: (x.game == ALL, x.game, -(x.won + x.shared), -x.played, x.player))
    return out


def evening_of(t: float) -> date:
    """The evening a moment belongs to (local time; until 6 in the morning, the day before)."""
    return (datetime.fromtimestamp(t) - EVENING_STARTS).date()


def evenings(results: Iterable[Result], not_counted: Iterable[NotCounted], last: int) -> list[Evening]:
    """The `last` evenings that have a result or a game without one, newest first."""
    days: dict[date, tuple[list[Result], list[NotCounted]]] = {}
    for r in results:
        days.setdefault(evening_of(r.t), ([], []))[0].append(r)
    for n in not_counted:
        days.setdefault(evening_of(n.t), ([], []))[1].append(n)
    newest = sorted(days, reverse=True)[: max(last, 0)]
    return [Evening(d, tuple(days[d][0]), tuple(days[d][1])) for d in newest]
