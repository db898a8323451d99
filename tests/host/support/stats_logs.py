"""A fixture of game logs for `upref stats` and the page `/stats`: two evenings of a family's
games, written the way `upref play` writes them (a game row, its inputs, its declared result),
with what must not be counted beside them.

Evening of Friday 6 November 2026 (home.sqlite):
  1  20:00  Up And Down  Ann, Bob, Kid   Kid wins (3, 2, 5 shovels)
  2  20:40  Up And Down  Ann, Bob, Kid   Kid wins (4, 1, 6)
  3  21:30  Upturn       Ann, Kid        Ann and Kid share the win (2, 2 tiles)
  4  23:50  Up And Down  Mum, Kid        Mum wins (7, 3)
Evening of Saturday 7 November 2026:
  5  20:00  Up And Down  Mama, Kid, Ann  Kid wins (2, 5, 4)              (Mama is Mum)
  8  21:00  Up And Down  Bob, Kid        closed without a result
  10 22:00  Upturn       Kid, Bob        Bob wins (3, 1 tiles)           (club.sqlite)
  6  00:30  Up And Down  Ann, Bob, Kid   Ann wins (6, 5, 1): begun 23:30, the host crashed,
                                         resumed and finished; also imported into copy.sqlite
  7  01:00  Upturn       Ann, Kid        unfinished
  9  01:10  Up And Down  Ann, Bob        abandoned before a move
And from 2023, the golden session (tests/golden/updown/session.jsonl): Ann beats Bob twice in
one session (a short game, then the next game stopped early).
broken.sqlite is damaged; club.sqlite also holds a game whose header is damaged.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from upref.store.gamelog import GameLog

TESTS = Path(__file__).resolve().parents[2]
GOLDEN_SESSION = TESTS / "golden" / "updown" / "session.jsonl"


def at(day: int, hour: int, minute: int) -> float:
    """A local time in November 2026, as the log stores it."""
    return datetime(2026, 11, day, hour, minute).timestamp()


@dataclass(frozen=True)
class Logs:
    home: Path
    club: Path
    copy: Path
    broken: Path

    @property
    def all(self) -> list[Path]:
        return [self.home, self.club, self.copy, self.broken]


def _finished(db: Path, game: str, players: tuple[str, ...], t: float, winners: list[str],
              scores: list[int]) -> GameLog:
    log = GameLog.create(db, game=game, players=players, created=t - 1200, durable=False)
    log.append({"kind": "start", "t": t - 1200, "players": list(players), "variant": {}, "seed": 1})
    log.append({"kind": "key", "t": t - 600, "key": "draw"})
    log.finish({"game_number": 1, "termination": "stack-empty", "winners": winners,
                "scores": dict(zip(players, scores, strict=True))}, t)
    return log


def _playing(db: Path, game: str, players: tuple[str, ...], t: float, moves: int) -> GameLog:
    log = GameLog.create(db, game=game, players=players, created=t, durable=False)
    log.append({"kind": "start", "t": t, "players": list(players), "variant": {}, "seed": 1})
    for i in range(moves):
        log.append({"kind": "key", "t": t + 60 * (i + 1), "key": "draw"})
    return log


def _home(db: Path) -> None:
    _finished(db, "updown", ("Ann", "Bob", "Kid"), at(6, 20, 0), ["Kid"], [3, 2, 5]).close()
    _finished(db, "updown", ("Ann", "Bob", "Kid"), at(6, 20, 40), ["Kid"], [4, 1, 6]).close()
    _finished(db, "upturn", ("Ann", "Kid"), at(6, 21, 30), ["Ann", "Kid"], [2, 2]).close()
    _finished(db, "updown", ("Mum", "Kid"), at(6, 23, 50), ["Mum"], [7, 3]).close()
    _finished(db, "updown", ("Mama", "Kid", "Ann"), at(7, 20, 0), ["Kid"], [2, 5, 4]).close()
    crashed = _playing(db, "updown", ("Ann", "Bob", "Kid"), at(7, 23, 30), 3)
    crashed.close()  # the host died here; `upref play updown --resume` took it up again:
    with GameLog.open(db, crashed.game_id, durable=False) as resumed:
        resumed.append({"kind": "key", "t": at(8, 0, 20), "key": "draw"})
        resumed.finish({"game_number": 1, "termination": "stack-empty", "winners": ["Ann"],
                        "scores": {"Ann": 6, "Bob": 5, "Kid": 1}}, at(8, 0, 30))
    _playing(db, "upturn", ("Ann", "Kid"), at(8, 1, 0), 2).close()
    closed = _playing(db, "updown", ("Bob", "Kid"), at(7, 21, 0), 1)
    closed.close_unfinished(at(7, 21, 5))
    closed.close()
    _playing(db, "updown", ("Ann", "Bob"), at(8, 1, 10), 0).close()
    with GameLog.import_jsonl(GOLDEN_SESSION.read_text().splitlines(), db, durable=False):
        pass


def write_logs(folder: Path) -> Logs:
    """The fixture's four files in `folder`."""
    logs = Logs(folder / "home.sqlite", folder / "club.sqlite", folder / "copy.sqlite",
                folder / "broken.sqlite")
    _home(logs.home)
    _finished(logs.club, "upturn", ("Kid", "Bob"), at(7, 22, 0), ["Bob"], [3, 1]).close()
    _finished(logs.club, "updown", ("Ann", "Bob"), at(7, 22, 30), ["Ann"], [1, 0]).close()
    with sqlite3.connect(logs.club) as conn:  # the second game's header, damaged on disk
        conn.execute("UPDATE games SET players = '[\"Ann\", \"Bo' WHERE id = 2")
    conn.close()
    with GameLog.open(logs.home, 6, read_only=True) as resumed:
        lines = _export(resumed)
    GameLog.import_jsonl(lines, logs.copy, durable=False).close()
    whole = logs.copy.read_bytes()  # a copy cut short, as a full disk or a bad card leaves it
    logs.broken.write_bytes(whole[: len(whole) // 2])
    return logs


def _export(log: GameLog) -> list[str]:
    import io

    buf = io.StringIO()
    log.export_jsonl(None, buf)
    return buf.getvalue().splitlines()
