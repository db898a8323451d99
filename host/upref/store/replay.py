"""Replay, resume and export of game logs; `upref replay` and `upref export`.

A replay feeds a log's entries, in order, to a fresh referee built from the log's header
(settle time, hints, code table, catalogue): time comes only from the entries and the seed
from the StartGame entry, and card entries carry what the registry said when they were
logged, so every verdict comes out exactly as it did at the table.

    upref replay LOG [--game ID] [--json]      every verdict (LOG: a games.sqlite or a .jsonl)
    upref export [--db PATH] [--game ID] [-o FILE] [--list]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upref.referee.feedback import Feedback
from upref.referee.status import Verdict
from upref.referee.updown import GAME, Reply, TagLookup, UpDownReferee
from upref.store.gamelog import (
    Entry,
    GameInfo,
    GameLog,
    GameLogError,
    default_path,
    list_games,
    load_jsonl,
)

__all__ = [
    "Replayed",
    "export_main",
    "load_log",
    "main",
    "referee_for",
    "replay",
    "replay_main",
    "resume",
    "verdict_dict",
]


@dataclass(frozen=True)
class Replayed:
    """One entry and what the referee answered to it."""

    entry: Entry
    reply: Reply


def referee_for(info: GameInfo, registry: TagLookup | None = None) -> UpDownReferee:
    """A fresh referee set up as the log's header says.

    :raises GameLogError: for a game this upref cannot referee.
    """
    if info.game != GAME:
        raise GameLogError(f"game {info.id} is a {info.game!r} game; only {GAME!r} can be replayed")
    return UpDownReferee.from_config(info.config, registry)


def replay(
    info: GameInfo, entries: Iterable[Entry], registry: TagLookup | None = None
) -> Iterator[Replayed]:
    """Feed the entries to a fresh referee; yield each entry with the referee's reply."""
    ref = referee_for(info, registry)
    codes = ref.codes
    for e in entries:
        yield Replayed(e, ref.handle(e.input(codes)))


def resume(
    log: GameLog,
    registry: TagLookup | None = None,
    *,
    feedback: Callable[[Feedback], None] | None = None,
) -> UpDownReferee:
    """Rebuild the referee of an unfinished game from its log (after the host crashed or was
    closed) and attach the log, so that further inputs are appended to it. Send it a
    `Picture` of the board once the board model has its first snapshot: holes that changed
    while the host was away are then taken up."""
    ref = referee_for(log.header, registry)
    for inp in log.inputs(ref.codes):
        ref.handle(inp)
    ref.attach(log)
    ref.feedback_sink = feedback
    return ref


def load_log(path: str | Path, game_id: int | None = None) -> tuple[GameInfo, list[Entry]]:
    """A game's header and entries from a games database or a .jsonl export ('-': stdin).
    Without `game_id`, the newest game of the database.

    :raises GameLogError: when it cannot be read.
    """
    if str(path) == "-":
        return load_jsonl(sys.stdin)
    p = Path(path)
    if not p.exists():
        raise GameLogError(f"no game log at {str(p)!r}")
    with p.open("rb") as f:
        magic = f.read(16)
    if not magic.startswith(b"SQLite format 3"):
        with p.open(encoding="utf-8") as f:
            return load_jsonl(f)
    if game_id is None:
        log = GameLog.open_latest(p, game=None, unfinished=False, durable=False)
        if log is None:
            raise GameLogError(f"game log {str(p)!r} holds no game")
    else:
        log = GameLog.open(p, game_id, durable=False)
    with log:
        return log.header, log.entries()


def verdict_dict(seq: int, v: Verdict) -> dict[str, Any]:
    return {
        "seq": seq,
        "kind": v.kind,
        "text": v.text,
        "rule": v.rule,
        "correction": v.correction,
        "seat": v.seat,
    }


# --- CLI ---------------------------------------------------------------------------------------


def replay_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="upref replay",
        description="Replay a game log through the referee and print every verdict.",
    )
    parser.add_argument(
        "log", help="a games database (games.sqlite) or an exported .jsonl ('-': stdin)"
    )
    parser.add_argument("--game", type=int, help="the game's id in the database (default: newest)")
    parser.add_argument("--json", action="store_true", help="one JSON object per verdict")
    args = parser.parse_args(argv)
    try:
        info, entries = load_log(args.log, args.game)
        replayed = list(replay(info, entries))
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
            line = f"{r.entry.seq:>5} {v.kind.upper():<7} {v.text}"
            if v.rule:
                line += f" [{v.rule}]"
            if v.seat is not None:
                line += (
                    f" (to {info.players[v.seat] if v.seat < len(info.players) else v.seat} only)"
                )
            out.write(line + "\n")
            if v.correction and v.correction not in v.text:
                out.write(f"{'':>13} -> {v.correction}\n")
    return 0


def export_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="upref export", description="Write a logged game as JSON Lines (header line first)."
    )
    parser.add_argument("--db", help=f"the games database (default: {default_path()})")
    parser.add_argument("--game", type=int, help="the game's id (default: newest)")
    parser.add_argument("-o", "--output", help="write to this file (default: stdout)")
    parser.add_argument("--list", action="store_true", help="list the games instead")
    args = parser.parse_args(argv)
    db = Path(args.db) if args.db else default_path()
    try:
        if args.list:
            for g in list_games(db):
                outcome = ""
                if g.outcome:
                    outcome = f" winners {', '.join(g.outcome.get('winners', []))}"
                print(f"{g.id:>5} {g.game:<8} {g.status:<9} {', '.join(g.players)}{outcome}")
            return 0
        if not db.exists():
            raise GameLogError(f"no game log at {str(db)!r}")
        if args.game is None:
            log = GameLog.open_latest(db, game=None, unfinished=False, durable=False)
            if log is None:
                raise GameLogError(f"game log {str(db)!r} holds no game")
        else:
            log = GameLog.open(db, args.game, durable=False)
        with log:
            if args.output:
                with open(args.output, "w", encoding="utf-8") as f:
                    log.export_jsonl(None, f)
            else:
                log.export_jsonl(None, sys.stdout)
    except GameLogError as exc:
        print(f"upref export: {exc}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """`upref replay ...`; also `python -m upref.store.replay [replay|export] ...`."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "export":
        return export_main(args[1:])
    if args and args[0] == "replay":
        args = args[1:]
    return replay_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
