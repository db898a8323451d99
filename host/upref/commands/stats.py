"""`upref stats`: who wins what, read back from the game logs.

    upref stats                          every player in every game: played, won, shared,
                                         runs of wins, average score, rating; the last evenings
    upref stats --game updown --player Kid
    upref stats --since 2026-11-01 --until 2026-11-30
    upref stats --same "Mum=Mama"        two spellings of one person (or the names file)
    upref stats --json | --csv           for programs and spreadsheets
    upref stats --db club.sqlite --db home.sqlite    several databases (or exported .jsonl)

A file or game that cannot be read is named in one line and left out; the rest is counted.
docs/stats.md says what is counted and how.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from datetime import date, datetime
from pathlib import Path

from upref.registry import UnknownGame, find_game
from upref.stats.names import MergeError, Names, default_names_file
from upref.stats.report import Query, Stats, from_logs
from upref.stats.tally import ALL
from upref.store.gamelog import default_path
from upref.text import and_join, count

__all__ = ["main", "text_lines"]


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date: give it as YYYY-MM-DD, e.g. 2026-11-30") from None


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="upref stats", description="Who wins what, from the game logs.")
    ap.add_argument("--db", type=Path, action="append", metavar="PATH",
                    help=f"a games database or exported .jsonl, again for more (default: {default_path(create=False)})")
    ap.add_argument("--game", help="only this game (updown, upturn, ...)")
    ap.add_argument("--player", action="append", default=[], metavar="NAME",
                    help="only the games this player played (again for more players)")
    ap.add_argument("--since", type=_day, metavar="YYYY-MM-DD", help="from this evening on")
    ap.add_argument("--until", type=_day, metavar="YYYY-MM-DD", help="up to this evening")
    ap.add_argument("--same", action="append", default=[], metavar="A=B",
                    help='two spellings of one person, shown as the first ("Mum=Mama")')
    ap.add_argument("--names", type=Path, metavar="FILE", help=f"the names file (default: {default_names_file()})")
    ap.add_argument("--evenings", type=int, default=5, metavar="N", help="how many of the last evenings (5)")
    out = ap.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="everything as one JSON object")
    out.add_argument("--csv", action="store_true", help="the table as CSV, one line per player and game")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    gc.disable()  # a short run that makes ten thousands of objects and frees them at exit
    try:
        return _run(args)
    finally:
        gc.enable()


def _run(args: argparse.Namespace) -> int:
    try:
        game = find_game(args.game).name if args.game else None
        names = Names.from_file(args.names or default_names_file(), args.same)
        dbs = args.db or [default_path(create=False)]
        s = from_logs(dbs, Query(game, tuple(args.player), args.since, args.until, args.evenings), names)
    except (UnknownGame, MergeError) as exc:
        print(f"upref stats: {exc}", file=sys.stderr)
        return 1
    for line in s.skipped:
        print(f"upref stats: {line}", file=sys.stderr)
    if not s.sources:
        return 1
    if args.json:
        print(json.dumps(s.as_json(), ensure_ascii=False))
    elif args.csv:
        sys.stdout.write(s.csv())
    else:
        print("\n".join(text_lines(s)))
    return 0


def text_lines(s: Stats) -> list[str]:
    """The table, the last evenings and the games that gave no result, as lines."""
    if not s.lines:
        return [_nothing(s), *_open_lines(s)]
    rows = [("player", "game", "played", "won", "shared", "run", "best run", "average", "rating")]
    for x in s.lines:
        kind = s.kinds.get(x.game)
        r = s.ratings.now(x.game, x.player) if x.game != ALL else None
        avg = "" if x.average is None or kind is None else f"{x.average:g} {kind.score}"
        rows.append((x.player, kind.title if kind else "all games", str(x.played), str(x.won),
                     str(x.shared), str(x.current_run), str(x.longest_run), avg,
                     "" if r is None else f"{r.mu:.1f} ± {r.sigma:.1f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = [f"{count(s.counted, 'game')} counted, from {and_join(s.sources)}:"]
    for r in rows:
        cells = [c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        out.append("  " + "  ".join(cells).rstrip())
    return out + _evening_lines(s) + _open_lines(s)


def _nothing(s: Stats) -> str:
    where = and_join(s.sources)
    if s.query != Query(last=s.query.last):
        return f"No finished game in {where} matches: try fewer of --game, --player, --since, --until."
    return f"No finished game in {where} yet: play one (upref play GAME NAMES), then ask again."


def _evening_lines(s: Stats) -> list[str]:
    out: list[str] = []
    for e in s.evenings:
        out += ["", f"Evening of {e.day:%A} {e.day.day} {e.day:%B %Y}:"]
        for r in e.results:
            kind = s.kinds[r.game]
            who = and_join(list(r.winners)) or "nobody"
            verb = "share the win" if len(r.winners) > 1 else "wins"
            scores = ", ".join(f"{p} {v}" for p, v in zip(r.players, r.scores, strict=True))
            tail = f" ({kind.score}: {scores})" if scores else ""
            stop = " — stopped early" if r.stopped else ""
            out.append(f"  {datetime.fromtimestamp(r.t):%H:%M}  {kind.title}: {who} {verb}{tail}{stop}")
        out += [f"  {datetime.fromtimestamp(n.t):%H:%M}  {s.kinds[n.game].title} "
                f"({', '.join(n.players)}): {n.state}, not counted" for n in e.not_counted]
    return out


def _open_lines(s: Stats) -> list[str]:
    if not s.not_counted:
        return []
    states: dict[str, int] = {}
    for n in s.not_counted:
        states[n.state] = states.get(n.state, 0) + 1
    said = and_join([f"{n} {state}" for state, n in sorted(states.items())])
    return ["", f"Not counted: {said} (`upref games` lists them)."]
