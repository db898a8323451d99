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

from upref.commands.lang_option import add_lang_option, chosen_lang, said, said_error
from upref.registry import UnknownGame, find_game
from upref.stats.names import MergeError, Names, default_names_file
from upref.stats.records import Result
from upref.stats.report import Query, Stats, from_logs
from upref.stats.said import evening_words, state_words
from upref.stats.tally import ALL
from upref.store.gamelog import default_path
from upref.text import ENGLISH, Msg, Plural, and_join, in_lang

__all__ = ["main", "text_lines"]


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            said(Msg("{text!r} is not a date: give it as YYYY-MM-DD, e.g. 2026-11-30", text=text))
        ) from None


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="upref stats", description=said(Msg("Who wins what, from the game logs.")))
    ap.add_argument("--db", type=Path, action="append", metavar="PATH",
                    help=said(Msg("a games database or exported .jsonl, again for more (default: {path})",
                                  path=str(default_path(create=False)))))
    ap.add_argument("--game", help=said(Msg("only this game (updown, upturn, ...)")))
    ap.add_argument("--player", action="append", default=[], metavar="NAME",
                    help=said(Msg("only the games this player played (again for more players)")))
    ap.add_argument("--since", type=_day, metavar="YYYY-MM-DD", help=said(Msg("from this evening on")))
    ap.add_argument("--until", type=_day, metavar="YYYY-MM-DD", help=said(Msg("up to this evening")))
    ap.add_argument("--same", action="append", default=[], metavar="A=B",
                    help=said(Msg('two spellings of one person, shown as the first ("Mum=Mama")')))
    ap.add_argument("--names", type=Path, metavar="FILE",
                    help=said(Msg("the names file (default: {path})", path=str(default_names_file()))))
    ap.add_argument("--evenings", type=int, default=5, metavar="N",
                    help=said(Msg("how many of the last evenings (5)")))
    out = ap.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help=said(Msg("everything as one JSON object")))
    out.add_argument("--csv", action="store_true",
                     help=said(Msg("the table as CSV, one line per player and game")))
    add_lang_option(ap)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    args.lang = chosen_lang(args, "upref stats")
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
        print(said(Msg("upref stats: {why}", why=said_error(exc))), file=sys.stderr)
        return 1
    for line in s.skipped:
        print(said(Msg("upref stats: {why}", why=line)), file=sys.stderr)
    if not s.sources:
        return 1
    if args.json:
        print(json.dumps(s.as_json(), ensure_ascii=False))
    elif args.csv:
        sys.stdout.write(s.csv())
    else:
        print("\n".join(text_lines(s, args.lang)))
    return 0


def text_lines(s: Stats, lang: str = ENGLISH) -> list[str]:
    """The table, the last evenings and the games that gave no result, as lines said in `lang`."""
    if not s.lines:
        return [in_lang(x, lang) for x in [_nothing(s), *_open_lines(s)]]
    rows = [tuple(in_lang(h, lang) for h in HEADS)]
    for x in s.lines:
        kind = s.kinds.get(x.game)
        r = s.ratings.now(x.game, x.player) if x.game != ALL else None
        avg = "" if x.average is None or kind is None else Msg("{average:g} {score}", average=x.average,
                                                                 score=kind.score)
        rows.append(tuple(in_lang(c, lang) for c in (
            x.player, kind.title if kind else Msg("all games"), str(x.played), str(x.won),
            str(x.shared), str(x.current_run), str(x.longest_run), avg,
            "" if r is None else f"{r.mu:.1f} ± {r.sigma:.1f}")))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = [in_lang(Plural("{n} game counted, from {where}:", "{n} games counted, from {where}:",
                          n=s.counted, where=and_join(s.sources)), lang)]
    for r in rows:
        cells = [c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        out.append("  " + "  ".join(cells).rstrip())
    return out + [in_lang(x, lang) for x in _evening_lines(s) + _open_lines(s)]


HEADS = (Msg("player"), Msg("game"), Msg("played"), Msg("won"), Msg("shared"), Msg("run"),
         Msg("best run"), Msg("average"), Msg("rating"))
"""The text table's heads."""


def _nothing(s: Stats) -> str:
    where = and_join(s.sources)
    if s.query != Query(last=s.query.last):
        return Msg("No finished game in {where} matches: try fewer of --game, --player, --since, --until.",
                   where=where)
    return Msg("No finished game in {where} yet: play one (upref play GAME NAMES), then ask again.",
               where=where)


def _evening_lines(s: Stats) -> list[str]:
    out: list[str] = []
    for e in s.evenings:
        out += ["", Msg("Evening of {day}:", day=evening_words(e.day))]
        out += [_result_line(s, r) for r in e.results]
        out += [Msg("  {time:%H:%M}  {title} ({players}): {state}, not counted",
                    time=datetime.fromtimestamp(n.t), title=s.kinds[n.game].title,
                    players=", ".join(n.players), state=state_words(n.state)) for n in e.not_counted]
    return out


def _result_line(s: Stats, r: Result) -> str:
    kind = s.kinds[r.game]
    who = and_join(list(r.winners))
    if len(r.winners) > 1:
        said_ = Msg("{who} share the win", who=who)
    else:
        said_ = Msg("{who} wins", who=who) if who else Msg("nobody wins")
    scores = ", ".join(f"{p} {v}" for p, v in zip(r.players, r.scores, strict=True))
    if scores:
        said_ = Msg("{result} ({score}: {scores})", result=said_, score=kind.score, scores=scores)
    if r.stopped:
        said_ = Msg("{result} — stopped early", result=said_)
    return Msg("  {time:%H:%M}  {title}: {result}", time=datetime.fromtimestamp(r.t),
               title=kind.title, result=said_)


def _open_lines(s: Stats) -> list[str]:
    if not s.not_counted:
        return []
    states: dict[str, int] = {}
    for n in s.not_counted:
        states[n.state] = states.get(n.state, 0) + 1
    said_ = and_join([Msg("{n} {state}", n=n, state=state_words(state)) for state, n in sorted(states.items())])
    return ["", Msg("Not counted: {said} (`upref games` lists them).", said=said_)]
