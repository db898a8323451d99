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
from pathlib import Path

from upref.registry import referee_for
from upref.store.gamelog import GameLog, GameLogError, default_path, list_games
from upref.store.replay import load_log, public_lines, replay, verdict_dict

__all__ = ["export_main", "main", "replay_main"]


def replay_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="upref replay",
        description="Replay a game log through the referee and print every verdict.",
    )
    parser.add_argument(
        "log",
        nargs="?",
        help="a games database (games.sqlite) or an exported .jsonl ('-': stdin); default: "
        f"{default_path(create=False)}",
    )
    parser.add_argument("--game", type=int, help="the game's id in the database (default: newest)")
    parser.add_argument("--json", action="store_true", help="one JSON object per verdict")
    parser.add_argument(
        "--private",
        action="store_true",
        help="also show what was said to one player alone (a hint, a task card): not on a "
        "screen the players share",
    )
    args = parser.parse_intermixed_args(argv)
    source = args.log if args.log is not None else str(default_path(create=False))
    try:
        info, entries = load_log(source, args.game)
        replayed = list(replay(info, entries, referee_for, source))
    except GameLogError as exc:
        print(f"upref replay: {exc}", file=sys.stderr)
        return 1
    out = sys.stdout
    if not args.json:
        players = ", ".join(info.players)
        out.write(f"# game {info.id} ({info.game}): {players}; {len(entries)} entries\n")
    for r in replayed:
        for v in r.reply.verdicts:
            if args.json:
                out.write(json.dumps(verdict_dict(r.entry.seq, v), ensure_ascii=False) + "\n")
                continue
            who = info.players[v.seat] if v.seat is not None and v.seat < len(info.players) else v.seat
            if v.seat is not None and not args.private:
                out.write(f"{r.entry.seq:>5} {'PRIVATE':<7} (a line for {who} alone: --private shows it)\n")
                continue
            line = f"{r.entry.seq:>5} {v.kind.upper():<7} {v.text}"
            if v.rule:
                line += f" [{v.rule}]"
            if v.seat is not None:
                line += f" (to {who} only)"
            out.write(line + "\n")
            if v.correction and v.correction not in v.text:
                out.write(f"{'':>13} -> {v.correction}\n")
    return 0


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
            listed = list_games(db)
            if not listed:
                print(f"upref export: no games in {db} yet", file=sys.stderr)
            for g in listed:
                outcome = ""  # a game still playing has no winners yet (an earlier game's stay in the log)
                if g.outcome and g.status == "finished":
                    won = g.outcome.get("winners", [])
                    outcome = f" winners {', '.join(won)}" if won else " no winner"
                print(f"{g.id:>5} {g.game:<8} {g.status:<9} {', '.join(g.players)}{outcome}")
            return 0
        if not db.exists():
            raise GameLogError(
                f"there is no game log at {db}: play a game first (upref play GAME NAMES), or "
                "give --db the games.sqlite to export from"
            )
        if args.game is None:
            log = GameLog.open_latest(db, game=None, unfinished=False, read_only=True)
            if log is None:
                raise GameLogError(f"game log {db} holds no game yet: play one first")
        else:
            log = GameLog.open(db, args.game, read_only=True)
        with log:
            try:
                out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
            except OSError as exc:
                raise GameLogError(
                    f"cannot write {args.output}: {exc.strerror or exc}; give -o a file in a "
                    "folder you can write to (or leave -o out for standard output)"
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
        print(f"upref export: {exc}", file=sys.stderr)
        return 1
    return 0


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
