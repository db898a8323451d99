"""The stats as one piece of data, filtered by game, player and date: what `upref stats`
prints (text, `--json`, `--csv`) and what the page `/stats` draws.

Ratings follow every game up to `until`, whatever `since` says (a rating is the sum of a
player's history); the counts, runs and evenings are those of the games in the window.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from upref.games.base import counted_words
from upref.registry import UnknownGame, find_game
from upref.stats.names import Names
from upref.stats.ratings import Ratings, rate
from upref.stats.reading import harvest
from upref.stats.records import Harvest, NotCounted, Result
from upref.stats.tally import ALL, Evening, Line, evening_of, evenings, lines
from upref.text import Msg

__all__ = ["FORMAT", "GameKind", "Query", "Stats", "build", "from_logs", "game_kind"]

FORMAT = "upref-stats"


@dataclass(frozen=True)
class GameKind:
    """What a stats line says of a game: its title, what its score counts ('shovels') and
    whether the fewest win, as the game's own result words (`RESULT`) declare them."""

    title: str
    score: str
    fewest: bool


def game_kind(name: str) -> GameKind:
    """The game's kind by its registry entry; a game this upref does not know keeps its name."""
    try:
        game = find_game(name)
    except UnknownGame:
        return GameKind(name, "points", False)
    words = game.referee.RESULT
    return GameKind(game.title, counted_words(words.score), words.fewest)


@dataclass(frozen=True)
class Query:
    """Which games the stats are about: one game, some players, the evenings from `since` to
    `until` (both included), and how many of the last evenings to show."""

    game: str | None = None
    players: tuple[str, ...] = ()
    since: date | None = None
    until: date | None = None
    last: int = 5

    def keeps(self, t: float, game: str) -> bool:
        if self.game is not None and game != self.game:
            return False
        if self.since is None and self.until is None:
            return True
        day = evening_of(t)
        return (self.since is None or day >= self.since) and (self.until is None or day <= self.until)


@dataclass(frozen=True)
class Stats:
    """Everything `upref stats` shows."""

    query: Query
    lines: list[Line]
    ratings: Ratings
    evenings: list[Evening]
    not_counted: list[NotCounted]
    counted: int
    kinds: dict[str, GameKind]
    sources: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return _as_json(self)

    def csv(self) -> str:
        return _csv(self)


def build(harvest: Harvest, query: Query, names: Names, kind: Callable[[str], GameKind] = game_kind) -> Stats:
    """The stats of the harvest, names merged, as the query asks.

    :raises MergeError: when a merge makes one person of two players of one game.
    """
    merged: dict[tuple[str, ...], dict[str, str]] = {}
    results = [_merged(r, names, merged) for r in harvest.results]
    upto = [r for r in results if query.until is None or evening_of(r.t) <= query.until]
    kinds = {g: kind(g) for g in sorted({r.game for r in results} | {n.game for n in harvest.not_counted})}
    ratings = rate((r for r in upto if query.game is None or r.game == query.game),
                   lambda g: kinds[g].fewest)
    wanted = {names.shown(p) for p in query.players} or None
    kept = [r for r in upto if query.keeps(r.t, r.game) and (wanted is None or wanted & set(r.players))]
    open_games = [n.renamed(names.mapping(n.players)) for n in harvest.not_counted
                  if query.keeps(n.t, n.game)]
    if wanted is not None:
        open_games = [n for n in open_games if wanted & set(n.players)]
    return Stats(query, lines(kept, wanted), ratings, evenings(kept, open_games, query.last),
                 open_games, len(kept), kinds, list(harvest.sources), list(harvest.skipped),
                 list(harvest.unread))


def from_logs(dbs: list[Path], query: Query, names: Names) -> Stats:
    """The stats of the databases (and exported .jsonl files), as the query asks: what
    `upref stats` prints and the page `/stats` draws.

    :raises MergeError: when a merge makes one person of two players of one game.
    """
    return build(harvest(dbs), query, names)


def _merged(r: Result, names: Names, known: dict[tuple[str, ...], dict[str, str]]) -> Result:
    """The result under merged names; each table of players is checked once."""
    name_of = known.get(r.players)
    if name_of is None:
        names.check_table(r.players, Msg("log {id} of {source}", id=r.log, source=r.source))
        name_of = known[r.players] = names.mapping(r.players)
    return r.renamed(name_of)


def _stamp(t: float) -> str:
    return datetime.fromtimestamp(t).isoformat(timespec="seconds")


def result_dict(r: Result, kinds: dict[str, GameKind]) -> dict[str, Any]:
    """One result as data: the game, when it ended, who played, who won, the scores."""
    return {
        "log": r.log,
        "number": r.number,
        "game": r.game,
        "title": kinds[r.game].title,
        "ended": _stamp(r.t),
        "players": list(r.players),
        "winners": list(r.winners),
        "scores": dict(zip(r.players, r.scores, strict=True)) if r.scores else None,
        "stopped": r.stopped,
    }


def not_counted_dict(n: NotCounted, kinds: dict[str, GameKind]) -> dict[str, Any]:
    return {"log": n.log, "game": n.game, "title": kinds[n.game].title, "when": _stamp(n.t),
            "players": list(n.players), "state": n.state, "source": n.source}


def line_dict(x: Line, s: Stats) -> dict[str, Any]:
    rating = s.ratings.now(x.game, x.player) if x.game != ALL else None
    kind = s.kinds.get(x.game)
    return {
        "player": x.player,
        "game": x.game or None,
        "title": kind.title if kind else "all games",
        "played": x.played,
        "won": x.won,
        "shared": x.shared,
        "current_run": x.current_run,
        "longest_run": x.longest_run,
        "average": x.average,
        "score": kind.score if kind and x.average is not None else None,
        "fewest_win": kind.fewest if kind else None,
        "rating": None if rating is None else {"mu": round(rating.mu, 3), "sigma": round(rating.sigma, 3)},
    }


def _as_json(s: Stats) -> dict[str, Any]:
    q = s.query
    shown = {(x.game, x.player) for x in s.lines if x.game != ALL}
    return {
        "format": FORMAT,
        "version": 1,
        "sources": s.sources,
        "unread": s.unread,
        "skipped": s.skipped,
        "filters": {"game": q.game, "players": list(q.players),
                    "since": q.since.isoformat() if q.since else None,
                    "until": q.until.isoformat() if q.until else None},
        "counted": s.counted,
        "games": {g: {"title": k.title, "score": k.score, "fewest_win": k.fewest} for g, k in s.kinds.items()},
        "lines": [line_dict(x, s) for x in s.lines],
        "ratings": [
            {"player": p, "game": g, "history": [h.as_dict() for h in s.ratings.history[(g, p)]]}
            for (g, p) in sorted(shown) if (g, p) in s.ratings.history
        ],
        "evenings": [
            {"evening": e.day.isoformat(),
             "results": [result_dict(r, s.kinds) for r in e.results],
             "not_counted": [not_counted_dict(n, s.kinds) for n in e.not_counted]}
            for e in s.evenings
        ],
        "not_counted": [not_counted_dict(n, s.kinds) for n in s.not_counted],
    }


CSV_COLUMNS = ("player", "game", "played", "won", "shared", "current_run", "longest_run",
               "average", "score", "rating_mu", "rating_sigma")


def _csv(s: Stats) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for x in s.lines:
        d = line_dict(x, s)
        r = d["rating"] or {}
        w.writerow([d["player"], d["game"] or "all", d["played"], d["won"], d["shared"],
                    d["current_run"], d["longest_run"], "" if d["average"] is None else d["average"],
                    d["score"] or "", r.get("mu", ""), r.get("sigma", "")])
    return buf.getvalue()
