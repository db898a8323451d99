"""The game log: every input of a game, appended to SQLite the moment it happens.

One database file (default `data_dir()/games.sqlite`, WAL mode) holds many games. A *game* row
is one session at the table, from its StartGame on (a session may hold several games in a row,
NextGame); its *entries* are the referee's inputs in order, each committed before the referee
acts on it, so a crash of the host loses nothing and `upref.store.replay.resume` rebuilds the referee
exactly where it was. The same entries exported as JSON Lines are the test format of whole
games. docs/log-format.md describes the tables, the entry kinds and the JSONL form.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from upref.paths import data_dir

__all__ = [
    "FORMAT",
    "SCHEMA_VERSION",
    "Entry",
    "GameInfo",
    "GameLog",
    "GameLogError",
    "default_path",
    "list_games",
    "load_jsonl",
]

FORMAT = "upref-gamelog"
SCHEMA_VERSION = 1
PLAYING = "playing"
FINISHED = "finished"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    created  REAL NOT NULL,
    players  TEXT NOT NULL,
    variant  TEXT NOT NULL,
    seed     INTEGER NOT NULL,
    config   TEXT NOT NULL,
    status   TEXT NOT NULL,
    finished REAL,
    outcome  TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    game_id  INTEGER NOT NULL REFERENCES games(id),
    seq      INTEGER NOT NULL,
    t        REAL NOT NULL,
    kind     TEXT NOT NULL,
    payload  TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_by_game ON games (game, status, id);
"""


class GameLogError(ValueError):
    """A log that cannot be opened or read: no such game, a newer schema, bad JSON Lines."""


def default_path() -> Path:
    return data_dir() / "games.sqlite"


@dataclass(frozen=True)
class GameInfo:
    """A game's header row."""

    id: int
    game: str
    created: float
    players: tuple[str, ...]
    variant: dict[str, Any]
    seed: int
    config: dict[str, Any]
    status: str  # "playing" or "finished"
    finished: float | None = None
    outcome: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        """The JSONL header line."""
        return {
            "kind": "game",
            "format": FORMAT,
            "version": SCHEMA_VERSION,
            "id": self.id,
            "game": self.game,
            "created": self.created,
            "players": list(self.players),
            "variant": self.variant,
            "seed": self.seed,
            "status": self.status,
            "finished": self.finished,
            "outcome": self.outcome,
            "config": self.config,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameInfo:
        return cls(
            int(d["id"]),
            str(d["game"]),
            float(d["created"]),
            tuple(str(p) for p in d["players"]),
            dict(d.get("variant") or {}),
            int(d.get("seed", 0)),
            dict(d.get("config") or {}),
            str(d.get("status", PLAYING)),
            None if d.get("finished") is None else float(d["finished"]),
            d.get("outcome"),
        )


@dataclass(frozen=True)
class Entry:
    """One logged input: its number in the game (from 1), time, kind and fields."""

    seq: int
    t: float
    kind: str
    payload: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        """The JSONL line: {"seq", "t", "kind", fields...}."""
        return {"seq": self.seq, "t": self.t, "kind": self.kind, **self.payload}

    def input_dict(self) -> dict[str, Any]:
        """The JSON form of the input this entry records (a referee's `decode` reads it)."""
        return {"kind": self.kind, "t": self.t, **self.payload}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Entry:
        payload = {k: v for k, v in d.items() if k not in ("seq", "t", "kind")}
        return cls(int(d["seq"]), float(d["t"]), str(d["kind"]), payload)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _connect(path: Path | str, durable: bool) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None)  # autocommit: each INSERT commits
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=5000")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        conn.close()
        raise GameLogError(
            f"game log {str(path)!r} has schema version {version}; this upref reads up to "
            f"{SCHEMA_VERSION}: update upref"
        )
    if version < SCHEMA_VERSION:
        conn.executescript(_SCHEMA)
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    return conn


_COLUMNS = "id, game, created, players, variant, seed, config, status, finished, outcome"


def _info(row: tuple[Any, ...]) -> GameInfo:
    gid, game, created, players, variant, seed, config, status, finished, outcome = row
    return GameInfo(
        int(gid),
        str(game),
        float(created),
        tuple(json.loads(players)),
        json.loads(variant),
        int(seed),
        json.loads(config),
        str(status),
        finished,
        None if outcome is None else json.loads(outcome),
    )


def list_games(path: Path | str | None = None, game: str | None = None) -> list[GameInfo]:
    """Every game in the database, oldest first (only `game`'s, if given)."""
    p = Path(path) if path is not None else default_path()
    if not p.exists():
        return []
    conn = _connect(p, durable=False)
    try:
        sql = f"SELECT {_COLUMNS} FROM games"
        args: tuple[Any, ...] = ()
        if game is not None:
            sql += " WHERE game = ?"
            args = (game,)
        return [_info(r) for r in conn.execute(sql + " ORDER BY id", args)]
    finally:
        conn.close()


class GameLog:
    """One game's log in a database. Build it with `create`, `open` or `open_latest`.

    Every `append` is its own committed transaction (autocommit; with `durable=True`, the
    default, SQLite also syncs it to disk), so another connection sees the entry at once and a
    crash of the host never loses it.
    """

    def __init__(self, conn: sqlite3.Connection, game_id: int, path: Path) -> None:
        self._conn = conn
        self.game_id = game_id
        self.path = path
        row = conn.execute("SELECT MAX(seq) FROM entries WHERE game_id = ?", (game_id,)).fetchone()
        self._seq = int(row[0] or 0)

    # --- opening ----------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: Path | str | None = None,
        *,
        game: str,
        players: Iterable[str],
        variant: Mapping[str, Any] | None = None,
        seed: int = 0,
        config: Mapping[str, Any] | None = None,
        created: float | None = None,
        durable: bool = True,
    ) -> GameLog:
        """A new game row: the game's name, its players, its variant and seed as data, and
        `config`, what a replay needs besides the inputs (the referee's `config()`); `created`
        defaults to now (wall clock)."""
        p = Path(path) if path is not None else default_path()
        conn = _connect(p, durable)
        var = dict(variant or {})
        cur = conn.execute(
            "INSERT INTO games (game, created, players, variant, seed, config, status) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                game,
                time.time() if created is None else float(created),
                _dumps(list(players)),
                _dumps(var),
                int(seed),
                _dumps(dict(config or {})),
                PLAYING,
            ),
        )
        assert cur.lastrowid is not None
        return cls(conn, int(cur.lastrowid), p)

    @classmethod
    def open(cls, path: Path | str | None, game_id: int, *, durable: bool = True) -> GameLog:
        """:raises GameLogError: when the database has no such game."""
        p = Path(path) if path is not None else default_path()
        if not p.exists():
            raise GameLogError(f"no game log at {str(p)!r}")
        conn = _connect(p, durable)
        if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            conn.close()
            raise GameLogError(f"game log {str(p)!r} has no game {game_id}")
        return cls(conn, game_id, p)

    @classmethod
    def open_latest(
        cls,
        path: Path | str | None = None,
        game: str | None = None,
        unfinished: bool = True,
        *,
        durable: bool = True,
    ) -> GameLog | None:
        """The newest game (of `game`, unless None; still playing, if `unfinished`), or None."""
        p = Path(path) if path is not None else default_path()
        if not p.exists():
            return None
        conn = _connect(p, durable)
        sql = "SELECT id FROM games WHERE 1=1"
        args: list[Any] = []
        if game is not None:
            sql += " AND game = ?"
            args.append(game)
        if unfinished:
            sql += " AND status = ?"
            args.append(PLAYING)
        row = conn.execute(sql + " ORDER BY id DESC LIMIT 1", args).fetchone()
        if row is None:
            conn.close()
            return None
        return cls(conn, int(row[0]), p)

    @classmethod
    def import_jsonl(
        cls, lines: Iterable[str], path: Path | str | None = None, *, durable: bool = True
    ) -> GameLog:
        """A new game row holding an exported game (header and entries; it gets a new id)."""
        info, entries = load_jsonl(lines)
        log = cls.create(
            path,
            game=info.game,
            players=info.players,
            variant=info.variant,
            seed=info.seed,
            config=info.config,
            created=info.created,
            durable=durable,
        )
        with log._transaction():
            for e in entries:
                log._insert(e.t, e.kind, e.payload)
        log._set_status(info.status, info.finished, info.outcome)
        return log

    # --- reading ------------------------------------------------------------------------------

    @property
    def header(self) -> GameInfo:
        row = self._conn.execute(
            f"SELECT {_COLUMNS} FROM games WHERE id = ?", (self.game_id,)
        ).fetchone()
        return _info(row)

    def entries(self, game_id: int | None = None) -> list[Entry]:
        """The game's entries in order (another game's of the same database with `game_id`)."""
        gid = self.game_id if game_id is None else game_id
        rows = self._conn.execute(
            "SELECT seq, t, kind, payload FROM entries WHERE game_id = ? ORDER BY seq", (gid,)
        )
        return [Entry(seq, t, kind, json.loads(payload)) for seq, t, kind, payload in rows]

    def __len__(self) -> int:
        return self._seq

    # --- writing -----------------------------------------------------------------------------

    def append(self, entry: Mapping[str, Any]) -> int:
        """Record one input, given in its JSON form ({"kind", "t", fields...}), committed at
        once; returns its seq."""
        d = dict(entry)
        kind = str(d.pop("kind"))
        t = float(d.pop("t"))
        return self._insert(t, kind, d)

    def append_many(self, entries: Iterable[Mapping[str, Any]]) -> int:
        """Record many inputs in one transaction (imports, benchmarks); returns the last seq."""
        with self._transaction():
            for entry in entries:
                self.append(entry)
        return self._seq

    def finish(self, outcome: Mapping[str, Any], t: float | None = None) -> None:
        """Mark the game finished, with its outcome and when (an input time; default now)."""
        self._set_status(FINISHED, time.time() if t is None else float(t), dict(outcome))

    def reopen(self) -> None:
        """Mark a finished game as playing again (an undo after the end, the next game)."""
        self._conn.execute(
            "UPDATE games SET status = ?, finished = NULL WHERE id = ?", (PLAYING, self.game_id)
        )

    def export_jsonl(self, game_id: int | None, out: IO[str]) -> int:
        """Write a game (this one with None) as JSON Lines: the header line, then one line per
        entry. Returns the number of lines."""
        gid = self.game_id if game_id is None else game_id
        row = self._conn.execute(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (gid,)).fetchone()
        if row is None:
            raise GameLogError(f"game log {str(self.path)!r} has no game {gid}")
        out.write(_dumps(_info(row).as_dict()) + "\n")
        n = 1
        for e in self.entries(gid):
            out.write(_dumps(e.as_dict()) + "\n")
            n += 1
        return n

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- internals ---------------------------------------------------------------------------

    def _insert(self, t: float, kind: str, payload: Mapping[str, Any]) -> int:
        seq = self._seq + 1
        self._conn.execute(
            "INSERT INTO entries (game_id, seq, t, kind, payload) VALUES (?, ?, ?, ?, ?)",
            (self.game_id, seq, float(t), kind, _dumps(payload)),
        )
        self._seq = seq
        return seq

    def _set_status(
        self, status: str, finished: float | None, outcome: Mapping[str, Any] | None
    ) -> None:
        self._conn.execute(
            "UPDATE games SET status = ?, finished = ?, outcome = ? WHERE id = ?",
            (status, finished, None if outcome is None else _dumps(outcome), self.game_id),
        )

    def _transaction(self) -> _Transaction:
        return _Transaction(self)


class _Transaction:
    def __init__(self, log: GameLog) -> None:
        self._log = log
        self._seq = log._seq

    def __enter__(self) -> None:
        self._log._conn.execute("BEGIN")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self._log._conn.execute("COMMIT")
        else:
            self._log._conn.execute("ROLLBACK")
            self._log._seq = self._seq


def load_jsonl(lines: Iterable[str]) -> tuple[GameInfo, list[Entry]]:
    """Read an exported game: (header, entries).

    :raises GameLogError: for a file that is not an upref game log.
    """
    it: Iterator[str] = (line for line in lines if line.strip())
    try:
        head = json.loads(next(it))
    except StopIteration:
        raise GameLogError("empty game log") from None
    except json.JSONDecodeError as exc:
        raise GameLogError(f"game log header is not JSON: {exc}") from None
    if not isinstance(head, dict) or head.get("kind") != "game" or head.get("format") != FORMAT:
        raise GameLogError("not an upref game log: the first line must be its game header")
    if int(head.get("version", 0)) > SCHEMA_VERSION:
        raise GameLogError(f"game log version {head['version']} is newer than this upref reads")
    try:
        info = GameInfo.from_dict(head)
        entries = []
        for number, line in enumerate(it, start=2):
            try:
                entries.append(Entry.from_dict(json.loads(line)))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise GameLogError(f"game log line {number}: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, GameLogError):
            raise
        raise GameLogError(f"bad game log header: {exc}") from None
    return info, entries
