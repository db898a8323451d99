"""`make bench`'s figure for `upref stats`: how long it takes over a synthetic games database of
10 000 finished games (2 to 6 players of the five games, a config and 20 entries each as a real
log holds, and 1 % left unfinished), as a person types it (its own process, startup included)
with its wall clock and CPU time [goal < 1 s]."""

from __future__ import annotations

import json
import os
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from upref.registry import games
from upref.stats.names import Names
from upref.stats.report import Query, from_logs
from upref.store.gamelog import GameLog

__all__ = ["GAMES", "make_logs", "report"]

GAMES = 10_000
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Kid", "Mum", "Dad")


def _row(rng: random.Random, gid: int, game: str, config: str) -> tuple[object, ...]:
    players = rng.sample(NAMES, rng.randint(2, 6))
    scores = {p: rng.randint(0, 12) for p in players}
    best = max(scores.values())
    created = 1_700_000_000 + gid * 3_000.0
    unfinished = gid % 100 == 0
    outcome = {"game_number": 1, "termination": "end", "scores": scores,
               "winners": [p for p in players if scores[p] == best]}
    return (gid, game, created, json.dumps(players), "{}", gid, config,
            "playing" if unfinished else "finished", None if unfinished else created + 1_800,
            None if unfinished else json.dumps(outcome))


def make_logs(path: Path, n: int = GAMES, seed: int = 1) -> Path:
    """A games database of `n` games at `path` (made through the store, filled in bulk)."""
    GameLog.create(path, game="updown", players=("Ann", "Bob"), durable=False).forget()
    rng = random.Random(seed)
    names = [g.name for g in games()]
    config = json.dumps({"catalogue": [{"id": f"T{i:02}", "counts": [["R", 1]]} for i in range(40)]})
    with sqlite3.connect(path) as conn:
        conn.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (_row(rng, i, names[i % len(names)], config) for i in range(1, n + 1)))
        conn.executemany(
            "INSERT INTO entries VALUES (?, ?, ?, ?, ?)",
            ((i, s, 1_700_000_000 + i * 3_000.0 + s, "key" if s > 1 else "start", '{"key":"draw"}')
             for i in range(1, n + 1) for s in range(1, 21)))
    conn.close()
    return path


def _typed(db: Path, *options: str) -> tuple[float, float]:
    """`upref stats` run as a person types it: (wall seconds, CPU seconds of its process). Its
    modules' bytecode is kept as an installed upref keeps it (a first run writes it)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "upref", "stats", "--db", str(db), *options],
                   check=True, capture_output=True, timeout=300, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def report(quick: bool) -> list[str]:
    """The figures, one line each: the best of a few runs, wall clock and CPU (on a shared
    machine the wall clock waits for the CPU; the CPU time is what the command costs)."""
    runs = 3 if quick else 5
    out = []
    with tempfile.TemporaryDirectory(prefix="upref-bench-stats-") as tmp:
        db = make_logs(Path(tmp) / "games.sqlite")
        s = from_logs([db], Query(), Names())
        out.append(f"upref stats over {GAMES:,} games ({s.counted:,} finished, {len(s.not_counted)} unfinished), "
                   f"best of {runs}, Python's startup included [goal < 1 s]:")
        _typed(db)  # the first run writes the bytecode
        for options in ((), ("--json",), ("--csv",)):
            times = [_typed(db, *options) for _ in range(runs)]
            wall, cpu = min(t[0] for t in times), min(t[1] for t in times)
            out.append(f"  upref stats {' '.join(options) or '(the table)'}: {wall:.2f} s wall clock, {cpu:.2f} s CPU")
    return out
