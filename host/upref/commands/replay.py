"""`upref replay` and `upref export`: a saved game's verdicts, and a saved game as JSON Lines.

    upref replay [LOG] [--game ID] [--json]    every verdict (LOG: a games.sqlite or a .jsonl;
                                               default: the games database in the data folder);
                                               a line said to one player alone only with --private
                                               (or --json, which is data, not a screen)
    upref export [--db PATH] [--game ID] [-o FILE] [--list]

Both only read: a database is opened read-only (it works in a folder that cannot be written),
and a file that is not an upref game log is refused with one line, untouched. Options may come
before or after LOG.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from upref.commands.lang_option import add_lang_option, chosen_lang, said, said_error
from upref.referee.status import Verdict
from upref.registry import referee_for
from upref.store.gamelog import GameLog, GameLogError, default_path, list_games
from upref.store.replay import load_log, public_lines, replay, verdict_dict
from upref.text import Msg, in_lang

__all__ = ["export_main", "main", "replay_main"]


def _replay_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="upref replay",
        description=said(Msg("Replay a game log through the referee and print every verdict.")),
    )
    parser.add_argument(
        "log",
        nargs="?",
        help=said(
            Msg(
                "a games database (games.sqlite) or an exported .jsonl ('-': stdin); default: {path}",
                path=default_path(create=False),
            )
        ),
    )
    parser.add_argument(
        "--game", type=int, help=said(Msg("the game's id in the database (default: newest)"))
    )
    parser.add_argument("--json", action="store_true", help=said(Msg("one JSON object per verdict")))
    parser.add_argument(
        "--private",
        action="store_true",
        help=said(
            Msg(
                "also show what was said to one player alone (a hint, a task card): not on a "
                "screen the players share"
            )
        ),
    )
    add_lang_option(parser)
    return parser


def replay_main(argv: list[str] | None = None) -> int:
    args = _replay_parser().parse_intermixed_args(argv)
    lang = chosen_lang(args, "upref replay")
    source = args.log if args.log is not None else str(default_path(create=False))
    try:
        info, entries = load_log(source, args.game)
        replayed = list(replay(info, entries, referee_for, source))
    except GameLogError as exc:
        print("upref replay: " + said(said_error(exc)), file=sys.stderr)
        return 1
    out = sys.stdout
    if not args.json:
        players = ", ".join(info.players)
        out.write(f"# game {info.id} ({info.game}): {players}; {len(entries)} entries\n")
    for r in replayed:
        for v in r.reply.verdicts:
            if args.json:
                out.write(json.dumps(verdict_dict(r.entry.seq, v), ensure_ascii=False) + "\n")
            else:
                out.write(_verdict_lines(r.entry.seq, v, info.players, args.private, lang))
    return 0


def _verdict_lines(seq: int, v: Verdict, players: Sequence[str], private: bool, lang: str) -> str:
    """A verdict as `upref replay` prints it, in `lang` (a line for one player alone only with
    `private`)."""
    who = players[v.seat] if v.seat is not None and v.seat < len(players) else v.seat
    if v.seat is not None and not private:
        alone = Msg("(a line for {who} alone: --private shows it)", who=who)
        return f"{seq:>5} {'PRIVATE':<7} {in_lang(alone, lang)}\n"
    line = f"{seq:>5} {v.kind.upper():<7} {in_lang(v.text, lang)}"
    if v.rule:
        line += f" [{v.rule}]"
    if v.seat is not None:
        line += " " + in_lang(Msg("(to {who} only)", who=who), lang)
    line += "\n"
    if v.correction and v.correction not in v.text:
        line += f"{'':>13} -> {in_lang(v.correction, lang)}\n"
    return line


def export_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="upref export", description="Write a logged game as JSON Lines (header line first)."
    )
    parser.add_argument("--db", help=f"the games database (default: {default_path(create=False)})")
    parser.add_argument("--game", type=int, help="the game's id (default: newest)")
    parser.add_argument("-o", "--output", help="write to this file (default: stdout)")
    parser.add_argument("--list", action="store_true", help="list the games instead")
    parser.add_argument(
        "--public",
        action="store_true",
        help="only what the table saw (the public verdicts), to share: nothing hidden, not replayable",
    )
    args = parser.parse_intermixed_args(argv)
    db = Path(args.db) if args.db else default_path(create=False)
    try:
        if args.list:
            _list_games(db)
            return 0
        if not db.exists():
            raise GameLogError(
                Msg(
                    "there is no game log at {db}: play a game first (upref play GAME NAMES), or "
                    "give --db the games.sqlite to export from",
                    db=db,
                )
            )
        if args.game is None:
            log = GameLog.open_latest(db, game=None, unfinished=False, read_only=True)
            if log is None:
                raise GameLogError(Msg("game log {db} holds no game yet: play one first", db=db))
        else:
            log = GameLog.open(db, args.game, read_only=True)
        with log:
            try:
                out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
            except OSError as exc:
                raise GameLogError(
                    Msg(
                        "cannot write {path}: {why}; give -o a file in a folder you can write to "
                        "(or leave -o out for standard output)",
                        path=args.output,
                        why=exc.strerror or str(exc),
                    )
                ) from None
            try:
                if args.public:
                    for line in public_lines(log.header, log.entries(), referee_for, db):
                        out.write(json.dumps(line, ensure_ascii=False) + "\n")
                else:
                    log.export_jsonl(None, out)
            finally:
                if out is not sys.stdout:
                    out.close()
    except GameLogError as exc:
        print("upref export: " + said(said_error(exc)), file=sys.stderr)
        return 1
    return 0


def _list_games(db: Path) -> None:
    """`upref export --list`: each game of the database, one line."""
    listed = list_games(db)
    if not listed:
        print("upref export: " + said(Msg("no games in {db} yet", db=db)), file=sys.stderr)
    for g in listed:
        outcome = ""  # a game still playing has no winners yet (an earlier game's stay in the log)
        if g.outcome and g.status == "finished":
            won = g.outcome.get("winners", [])
            outcome = f" winners {', '.join(won)}" if won else " no winner"
        print(f"{g.id:>5} {g.game:<8} {g.status:<9} {', '.join(g.players)}{outcome}")


def main(argv: list[str] | None = None) -> int:
    """`upref replay ...`; also `python -m upref.commands.replay [replay|export] ...`."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "export":
        return export_main(args[1:])
    if args and args[0] == "replay":
        args = args[1:]
    return replay_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
