"""The game log: every input of a game, appended to SQLite the moment it happens.

One database file (default `data_dir()/games.sqlite`, WAL mode) holds many games. A *game* row
is one session at the table, from its StartGame on (a session may hold several games in a row,
NextGame); its *entries* are the referee's inputs in order, each committed before the referee
acts on it, so a crash of the host loses nothing and `upref.store.replay.resume` rebuilds the referee
exactly where it was. The same entries exported as JSON Lines are the test format of whole
games. docs/log-format.md describes the tables, the entry kinds and the JSONL form.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from upref.paths import data_dir
from upref.store.inuse import PlayLock, held_elsewhere
from upref.store.whole import made_whole
from upref.text import Msg

__all__ = [
    "FORMAT",
    "PUBLIC_FORMAT",
    "SCHEMA_VERSION",
    "Entry",
    "GameInfo",
    "GameLog",
    "GameLogError",
    "LogStopped",
    "LogSummary",
    "check_writable",
    "default_path",
    "list_games",
    "load_jsonl",
    "read_connection",
    "summaries",
]

FORMAT = "upref-gamelog"
PUBLIC_FORMAT = "upref-public"
"""The format name of a game's public export: what the table saw, nothing hidden."""
SCHEMA_VERSION = 1
PLAYING = "playing"
FINISHED = "finished"
CLOSED = "closed"
"""A game closed by hand (`upref games --close`): ended without a result, never resumed."""
NOT_MOVES = ("tick", "online", "picture", "fault")
"""Entry kinds that are not something done at the table: a log with nothing but these after
its start holds no move."""

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
    """A log that cannot be opened, read or written: no such file or game, a file that is not
    an upref game log (or is damaged), a newer schema, a folder that cannot be written, bad
    JSON Lines. The message is one line: what is wrong, which file (game and entry where it
    applies), and what to do."""


class LogStopped(GameLogError):
    """A game's input, or its end, that the log cannot take while the game is played (a full
    disk, a disk gone read-only, a quota reached): the input is not acted on and the game stops
    at once, since nothing may be judged that a resume would not find. `path` and `why` say
    where and what happened; the message also says what to do (free space, then `resume`),
    and that the players' last move is safe: the board keeps the events a resumed host has not
    logged and gives them again (`SINCE`, docs/protocol.md)."""

    def __init__(self, path: Path, why: str, resume: str) -> None:
        self.path = path
        self.why = why
        super().__init__(
            f"the game log {path} cannot be written ({why}), so the game stops here; the last "
            f"move is kept on the board: free some space on that disk (or make it writable again), then "
            f"go on with `{resume}`"
        )


APPLICATION_ID = 0x75707266
"""`PRAGMA application_id` of a games database ("uprf"); files from before it have 0."""

_COLUMNS_OF = {
    "games": {"id", "game", "created", "players", "variant", "seed", "config", "status",
              "finished", "outcome"},
    "entries": {"game_id", "seq", "t", "kind", "payload"},
}
_SQLITE_MAGIC = b"SQLite format 3\x00"
_DAMAGED = Msg("restore it from a backup, or keep playing with a new log (--db NEW.sqlite)")
_NOT_OURS = Msg("name the games.sqlite that `upref play` wrote, or an exported .jsonl")


def default_path(create: bool = True) -> Path:
    """`data_dir()/games.sqlite` (the folder is created unless `create` is False)."""
    return data_dir(create) / "games.sqlite"


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
    status: str  # "playing", "finished" or "closed"
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


def _sqlite_header(p: Path) -> bytes:
    try:
        with p.open("rb") as f:
            return f.read(100)
    except OSError as exc:
        raise GameLogError(Msg("cannot read the game log {path}: {why}; check the file's permissions",
                               path=str(p), why=str(exc.strerror or exc))) from None


def _check_file(p: Path, *, creating: bool) -> bool:
    """Judge the file from its first 100 bytes, without opening it with SQLite, so that a file
    that is not an upref log is never touched. True when it is still to be made (missing and
    `creating`): a file that exists, even an empty one, was made by someone else and is never
    turned into a log.

    :raises GameLogError: a missing file (when reading), or one that is not an upref games
        database: not SQLite, cut short, another program's database, a newer upref's.
    """
    if not p.exists():
        if creating:
            return True
        raise GameLogError(Msg("there is no game log at {path}: play a game first (upref play GAME NAMES), "
                               "or {todo}", path=str(p), todo=_NOT_OURS))
    if p.is_dir():
        raise GameLogError(Msg("{path} is a folder, not a game log: {todo}", path=str(p), todo=_NOT_OURS))
    head = _sqlite_header(p)
    if not head:
        if creating:
            raise GameLogError(Msg(
                "{path} is empty, not an upref game log, and upref leaves it untouched: give --db a file "
                "that does not exist yet (upref creates it), or the games.sqlite that `upref play` wrote",
                path=str(p),
            ))
        raise GameLogError(Msg("{path} is empty, not an upref game log: {todo}", path=str(p), todo=_NOT_OURS))
    if not head.startswith(_SQLITE_MAGIC):
        raise GameLogError(Msg("{path} is not an upref game log (not an SQLite database): {todo}",
                               path=str(p), todo=_NOT_OURS))
    if len(head) < 100:
        raise GameLogError(Msg("game log {path} is damaged: it is cut short ({size} bytes); {todo}",
                               path=str(p), size=len(head), todo=_DAMAGED))
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    counter_ok = head[24:28] == head[92:96]
    size = p.stat().st_size
    wal = p.with_name(p.name + "-wal")
    if counter_ok and pages and page * pages > size and not wal.exists():
        raise GameLogError(Msg("game log {path} is damaged: it is cut short ({size} of {whole} bytes); {todo}",
                               path=str(p), size=size, whole=page * pages, todo=_DAMAGED))
    version = int.from_bytes(head[60:64], "big")
    app = int.from_bytes(head[68:72], "big")
    if version > SCHEMA_VERSION and app in (0, APPLICATION_ID):
        raise GameLogError(Msg("game log {path} has schema version {version}; this upref reads up to "
                               "{known}: update upref", path=str(p), version=version, known=SCHEMA_VERSION))
    if app not in (0, APPLICATION_ID) or version != SCHEMA_VERSION:
        raise GameLogError(
            f"{p} is an SQLite database but not an upref game log (application id {app}, "
            f"schema version {version}); upref leaves it untouched: {_NOT_OURS}"
        )
    return False


def _check_schema(conn: sqlite3.Connection, p: Path) -> None:
    """:raises GameLogError: unless the database has upref's tables and columns."""
    missing = []
    for table, wanted in _COLUMNS_OF.items():
        have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if not wanted <= have:
            missing.append(table)
    if missing:
        raise GameLogError(
            f"{p} is an SQLite database but not an upref game log (no upref table "
            f"{' or '.join(missing)}); upref leaves it untouched: {_NOT_OURS}"
        )


def _check_whole(conn: sqlite3.Connection, p: Path) -> None:
    """SQLite's own check of every page (an index that lies would hide a game).

    :raises GameLogError: when it finds damage.
    """
    found = [str(r[0]) for r in conn.execute("PRAGMA integrity_check(1)")]
    if found != ["ok"]:
        raise GameLogError(Msg("game log {path} is damaged (SQLite's check: {found}); {todo}", path=str(p),
                               found=found[0] if found else Msg("no answer"), todo=_DAMAGED))


def _damaged(p: Path, exc: sqlite3.Error) -> GameLogError:
    return GameLogError(Msg("game log {path} cannot be read ({exc}): it is damaged; {todo}", path=str(p),
                            exc=str(exc), todo=_DAMAGED))


def _no_folder(p: Path, folder: Path) -> str:
    return Msg("cannot write the game log {path}: the folder {folder} does not exist; create it, or give --db "
               "a file in a folder that exists", path=str(p), folder=str(folder))


def _unwritable(p: Path, exc: BaseException) -> GameLogError:
    why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return GameLogError(Msg("cannot write the game log {path} ({why}): make its folder writable and free "
                            "some space, or give --db a file in a folder you can write to", path=str(p), why=why))


def _why(exc: sqlite3.Error, p: Path) -> str:
    """What SQLite says went wrong, and that the disk is read-only when it is (SQLite's own
    words for a write refused there are only "disk I/O error")."""
    with contextlib.suppress(OSError):
        if os.statvfs(p.parent).f_flag & os.ST_RDONLY:
            return f"{exc}: its disk is read-only"
    return str(exc)


def _connect_read(path: Path | str) -> sqlite3.Connection:
    """A read-only connection to an upref games database, checked before anything else: it
    creates and changes nothing (no WAL switch, no tables), and it works in a read-only folder.

    :raises GameLogError: see `_check_file`; a damaged file.
    """
    p = Path(path)
    _check_file(p, creating=False)
    uri = p.resolve().as_uri()
    conn: sqlite3.Connection | None = None
    try:
        try:
            conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None)
            conn.execute("PRAGMA busy_timeout=5000")
            _check_schema(conn, p)
        except sqlite3.OperationalError:
            # a WAL database in a folder this process cannot write: SQLite cannot make the
            # shared-memory file, and nobody can be writing there either: read it as it is
            if conn is not None:
                conn.close()
            conn = sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None)
            _check_schema(conn, p)
    except sqlite3.Error as exc:
        if conn is not None:
            conn.close()
        raise _damaged(p, exc) from None
    except GameLogError:
        if conn is not None:
            conn.close()
        raise
    return conn


def read_connection(path: Path | str) -> sqlite3.Connection:
    """A read-only connection to an upref games database, for a reader that asks its own
    questions of the `games` table (`upref stats`): checked as every reader's is, and it
    changes nothing.

    :raises GameLogError: see `_check_file`; a damaged file.
    """
    return _connect_read(path)


def _connect(path: Path | str, durable: bool) -> sqlite3.Connection:
    """A connection to write: an existing file is checked first (an upref log, or refused
    untouched); a missing one is made whole with its schema (`_made`).

    :raises GameLogError: see `_check_file`; a folder that cannot be written.
    """
    return _connect_made(path, durable)[0]


def _connect_made(path: Path | str, durable: bool) -> tuple[sqlite3.Connection, bool]:
    """`_connect`, and whether this call made the file (so that a caller whose first write
    fails removes it again)."""
    p = Path(path)
    new = _check_file(p, creating=True)
    if not p.parent.is_dir():
        raise GameLogError(_no_folder(p, p.parent))
    made = new and _made(p)
    if new and not made:
        _check_file(p, creating=False)  # another process made it meanwhile: it must be a log
    conn: sqlite3.Connection | None = None
    try:
        conn = sqlite3.connect(str(p), isolation_level=None)  # autocommit: each INSERT commits
        conn.execute("PRAGMA busy_timeout=5000")
        _check_schema(conn, p)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        conn.execute("PRAGMA foreign_keys=ON")
    except (sqlite3.Error, OSError) as exc:
        if conn is not None:
            conn.close()
        if made:
            _remove_new(p)
        if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
            raise _damaged(p, exc) from None
        raise _unwritable(p, exc) from None
    except GameLogError:
        if conn is not None:
            conn.close()
        raise
    return conn, made


def _made(p: Path) -> bool:
    """Make a new, empty upref log at `p`: schema, version and WAL mode in a temporary file,
    put in place whole, so that a reader (`watch`, `replay`, a test) or a later command never
    finds an empty file or a header without its tables, and a full disk leaves nothing. False
    when another process made `p` first.

    :raises GameLogError: when it cannot be made (a full disk, a folder that cannot be written).
    """
    try:
        with made_whole(p) as conn:
            conn.executescript(
                f"BEGIN; PRAGMA application_id={APPLICATION_ID}; "
                f"PRAGMA user_version={SCHEMA_VERSION}; {_SCHEMA} COMMIT;"
            )
            conn.execute("PRAGMA journal_mode=WAL")
    except FileExistsError:
        return False
    except (sqlite3.Error, OSError) as exc:
        raise _unwritable(p, exc) from None
    return True


def _remove_new(p: Path) -> None:
    """Remove a log this process began to create and could not finish (a full disk): nothing
    is left behind, not even an empty file that a later command would refuse."""
    for name in (p.name, p.name + "-wal", p.name + "-shm", p.name + "-journal"):
        with contextlib.suppress(OSError):
            p.with_name(name).unlink()


def check_writable(path: Path | str) -> None:
    """Whether a log could be created at `path`, without creating anything: its folder exists
    and this process may write in it.

    :raises GameLogError: saying which folder and what to do.
    """
    p = Path(path)
    folder = p.parent
    if not folder.is_dir():
        raise GameLogError(_no_folder(p, folder))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise GameLogError(Msg(
            "cannot write the game log {path} (permission denied): make its folder writable, or give "
            "--db a file in a folder you can write to", path=str(p),
        ))


_COLUMNS = "id, game, created, players, variant, seed, config, status, finished, outcome"


def _info(row: tuple[Any, ...], p: Path | str = "") -> GameInfo:
    gid, game, created, players, variant, seed, config, status, finished, outcome = row
    try:
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
    except (ValueError, TypeError, RecursionError) as exc:
        raise GameLogError(
            f"game log {p}, game {gid}: its header is damaged ({exc}); {_DAMAGED}"
        ) from None


def list_games(path: Path | str | None = None, game: str | None = None) -> list[GameInfo]:
    """Every game in the database, oldest first (only `game`'s, if given); none when there is
    no database yet. Read-only.

    :raises GameLogError: a file that is not an upref log, or is damaged.
    """
    p = Path(path) if path is not None else default_path(create=False)
    if not p.exists():
        return []
    conn = _connect_read(p)
    try:
        sql = f"SELECT {_COLUMNS} FROM games"
        args: tuple[Any, ...] = ()
        if game is not None:
            sql += " WHERE game = ?"
            args = (game,)
        return [_info(r, p) for r in conn.execute(sql + " ORDER BY id", args)]
    except sqlite3.Error as exc:
        raise _damaged(p, exc) from None
    finally:
        conn.close()


@dataclass(frozen=True)
class LogSummary:
    """What a list of the logs says of one game row, read without replaying it.

    :param info: the header row.
    :param moves: what was done at the table after the first start (a hole's change, a tap,
        a press, a key, an undo...; not the ticks, the board going on- or offline, a picture
        or a fault): 0 for a start that was abandoned before anything was done.
    :param last_t: the time of the newest entry (the header's `created` when there is none).
    :param marks: for each boot of the board the log heard from, the highest sequence number
        of its events in the log (how far the board's kept events had got in this game).
    :param last_mark: (boot, board_seq) of the newest board event the log applied, or None.
    """

    info: GameInfo
    moves: int
    last_t: float
    marks: dict[str, int]
    last_mark: tuple[str, int] | None


def _is_move(kind: str, payload: str) -> bool:
    """Whether an entry is something done at the table: not a tick, the board going on- or
    offline, a picture or a fault, nor the second half of a tap or a press (a card leaving the
    reader, the button let go)."""
    if kind in NOT_MOVES:
        return False
    return not (kind in ("card", "button") and ('"arrived":false' in payload or '"pressed":false' in payload))


def summaries(
    path: Path | str | None = None, game: str | None = None, *, writer: bool = False
) -> list[LogSummary]:
    """Every game row of the database (only `game`'s, if given), oldest first, each with its
    moves and how far the board's events had got in it; none when there is no database yet.
    Reads only; `writer`: through a connection that may write, as a command that writes to the
    log next uses (the last connection to close then tidies the WAL files away).

    :raises GameLogError: a file that is not an upref log, or is damaged.
    """
    p = Path(path) if path is not None else default_path(create=False)
    infos = list_games(p, game)
    if not infos:
        return []
    conn = _connect(p, durable=True) if writer else _connect_read(p)
    try:
        _check_whole(conn, p)  # an index that lies would hide a game, or a game's entries
        return [_summary(conn, info, p) for info in infos]
    except sqlite3.Error as exc:
        raise _damaged(p, exc) from None
    finally:
        conn.close()


def _summary(conn: sqlite3.Connection, info: GameInfo, p: Path) -> LogSummary:
    rows = conn.execute(
        "SELECT seq, t, kind, payload FROM entries WHERE game_id = ? ORDER BY seq", (info.id,)
    ).fetchall()
    moves, started, last_t = 0, False, info.created
    marks: dict[str, int] = {}
    last_mark: tuple[str, int] | None = None
    for _seq, t, kind, payload in rows:
        last_t = float(t)
        moves += started and _is_move(kind, payload)
        started = started or kind == "start"
        if '"boot"' not in payload:
            continue
        try:
            fields = json.loads(payload)
        except (ValueError, RecursionError):
            raise GameLogError(
                f"game log {p}, game {info.id}, entry {_seq}: its payload is damaged; {_DAMAGED}"
            ) from None
        boot, board_seq = fields.get("boot"), fields.get("board_seq")
        if isinstance(boot, str) and isinstance(board_seq, int):
            marks[boot] = max(marks.get(boot, board_seq), board_seq)
            last_mark = (boot, board_seq)
    return LogSummary(info, moves, last_t, marks, last_mark)


class GameLog:
    """One game's log in a database. Build it with `create`, `open` or `open_latest`.

    Every `append` is its own committed transaction (autocommit; with `durable=True`, the
    default, SQLite also syncs it to disk), so another connection sees the entry at once and a
    crash of the host never loses it. Opened with `read_only=True`, it changes nothing, not
    even the file's journal mode, and works in a folder that cannot be written.

    Every error of SQLite becomes a `GameLogError` naming the file and what to do.
    """

    def __init__(
        self, conn: sqlite3.Connection, game_id: int, path: Path, *, read_only: bool = False
    ) -> None:
        self._conn = conn
        self.game_id = game_id
        self.path = path
        self.read_only = read_only
        self._play_lock: PlayLock | None = None
        row = self._row("SELECT MAX(seq) FROM entries WHERE game_id = ?", (game_id,))
        try:
            self._seq = int(row[0] or 0) if row is not None else 0
        except (TypeError, ValueError):
            conn.close()
            raise GameLogError(
                f"game log {path}, game {game_id}: its entries are numbered wrongly: it is "
                f"damaged; {_DAMAGED}"
            ) from None

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
        defaults to now (wall clock).

        :raises GameLogError: a file that is not an upref log, or a folder that cannot be
            written.
        """
        p = Path(path) if path is not None else _default_for_writing()
        conn, made = _connect_made(p, durable)
        var = dict(variant or {})
        try:
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
        except sqlite3.Error as exc:
            conn.close()
            if made:  # a log holding no game is not left behind
                _remove_new(p)
            raise _unwritable(p, exc) from None
        assert cur.lastrowid is not None
        return cls(conn, int(cur.lastrowid), p)

    @classmethod
    def prepare(cls, path: Path | str | None = None) -> Path:
        """Make sure a log can be written at `path` (default: the data folder's), before a
        session starts: an existing file must be an upref log, a missing one is created with
        its schema. Returns the path.

        :raises GameLogError: a file that is not an upref log, or a folder that cannot be
            written.
        """
        p = Path(path) if path is not None else _default_for_writing()
        _connect(p, durable=True).close()
        return p

    @classmethod
    def open(
        cls, path: Path | str | None, game_id: int, *, durable: bool = True, read_only: bool = False
    ) -> GameLog:
        """:raises GameLogError: when the database has no such game (or cannot be opened)."""
        p = Path(path) if path is not None else default_path(create=not read_only)
        conn = _connect_read(p) if read_only else _connect(p, durable)
        try:
            row = conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        except sqlite3.Error as exc:
            conn.close()
            raise _damaged(p, exc) from None
        if row is None:
            conn.close()
            raise GameLogError(Msg("game log {path} has no game {id}: `upref export --db {path} --list` lists "
                                   "its games", path=str(p), id=game_id))
        return cls(conn, game_id, p, read_only=read_only)

    @classmethod
    def open_latest(
        cls,
        path: Path | str | None = None,
        game: str | None = None,
        unfinished: bool = True,
        *,
        durable: bool = True,
        read_only: bool = False,
    ) -> GameLog | None:
        """The newest game (of `game`, unless None; still playing, if `unfinished`), or None
        (also when there is no database yet).

        :raises GameLogError: a file that is not an upref log, or is damaged.
        """
        p = Path(path) if path is not None else default_path(create=False)
        if not p.exists():
            return None
        conn = _connect_read(p) if read_only else _connect(p, durable)
        sql = "SELECT id FROM games WHERE 1=1"
        args: list[Any] = []
        if game is not None:
            sql += " AND game = ?"
            args.append(game)
        if unfinished:
            sql += " AND status = ?"
            args.append(PLAYING)
        try:
            row = conn.execute(sql + " ORDER BY id DESC LIMIT 1", args).fetchone()
            if row is None:
                _check_whole(conn, p)
        except sqlite3.Error as exc:
            conn.close()
            raise _damaged(p, exc) from None
        except GameLogError:
            conn.close()
            raise
        if row is None:
            conn.close()
            return None
        return cls(conn, int(row[0]), p, read_only=read_only)

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
        row = self._row(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (self.game_id,))
        if row is None:
            raise GameLogError(
                f"game log {self.path}: the header of game {self.game_id} cannot be found: it is "
                f"damaged; {_DAMAGED}"
            )
        return _info(row, self.path)

    def entries(self, game_id: int | None = None) -> list[Entry]:
        """The game's entries in order (another game's of the same database with `game_id`).

        :raises GameLogError: for an entry whose payload is not a JSON object, naming it.
        """
        gid = self.game_id if game_id is None else game_id
        rows = self._rows(
            "SELECT seq, t, kind, payload FROM entries WHERE game_id = ? ORDER BY seq", (gid,)
        )
        out = []
        for seq, t, kind, payload in rows:
            try:
                fields = json.loads(payload)
                if not isinstance(fields, dict):
                    raise ValueError(f"a JSON object was expected, not {payload[:40]!r}")
                out.append(Entry(int(seq), float(t), str(kind), fields))
            except (ValueError, TypeError, RecursionError) as exc:
                raise GameLogError(
                    f"game log {self.path}, game {gid}, entry {seq}: its payload is damaged "
                    f"({exc}); {_DAMAGED}"
                ) from None
        return out

    def __len__(self) -> int:
        return self._seq

    def moves(self) -> int:
        """What was done at the table after the game's first start (see `LogSummary.moves`)."""
        rows = self._rows(
            "SELECT kind, payload FROM entries WHERE game_id = ? ORDER BY seq", (self.game_id,)
        )
        started, moves = False, 0
        for kind, payload in rows:
            moves += started and _is_move(kind, payload)
            started = started or kind == "start"
        return moves

    # --- writing -----------------------------------------------------------------------------

    def append(self, entry: Mapping[str, Any]) -> int:
        """Record one input, given in its JSON form ({"kind", "t", fields...}), committed at
        once; returns its seq.

        :raises LogStopped: when it cannot be written: the input must then not be acted on, and
            the game stops.
        """
        d = dict(entry)
        kind = str(d.pop("kind"))
        t = float(d.pop("t"))
        return self._insert(t, kind, d, playing=True)

    def append_many(self, entries: Iterable[Mapping[str, Any]]) -> int:
        """Record many inputs in one transaction (imports, benchmarks); returns the last seq."""
        with self._transaction():
            for entry in entries:
                self.append(entry)
        return self._seq

    def finish(self, outcome: Mapping[str, Any], t: float | None = None) -> None:
        """Mark the game finished, with its outcome and when (an input time; default now).

        :raises LogStopped: when it cannot be written (the game stops; a resume finishes it).
        """
        self._set_status(FINISHED, time.time() if t is None else float(t), dict(outcome), playing=True)

    def reopen(self) -> None:
        """Mark a finished game as playing again (an undo after the end, the next game)."""
        self._write(
            "UPDATE games SET status = ?, finished = NULL WHERE id = ?",
            (PLAYING, self.game_id),
            playing=True,
        )

    def close_unfinished(self, t: float | None = None) -> None:
        """Mark an unfinished game closed by hand: ended without a result (its last result,
        if a game of the match had one, stays in `outcome`); it is no longer resumed.

        :raises GameLogError: when the game is not unfinished, or the log cannot be written.
        """
        info = self.header
        if info.status != PLAYING:
            raise GameLogError(Msg("game {id} in {path} is {status}, not unfinished", id=info.id,
                                   path=str(self.path), status=info.status))
        self._write(
            "UPDATE games SET status = ?, finished = ? WHERE id = ?",
            (CLOSED, time.time() if t is None else float(t), self.game_id),
        )

    def forget(self) -> None:
        """Remove this game from the database, its entries with it, in one transaction; the
        log is closed after it.

        :raises GameLogError: when it cannot be written.
        """
        with self._transaction():
            self._write("DELETE FROM entries WHERE game_id = ?", (self.game_id,))
            self._write("DELETE FROM games WHERE id = ?", (self.game_id,))
        self.close()

    def export_jsonl(self, game_id: int | None, out: IO[str]) -> int:
        """Write a game (this one with None) as JSON Lines: the header line, then one line per
        entry. Returns the number of lines."""
        gid = self.game_id if game_id is None else game_id
        row = self._row(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (gid,))
        if row is None:
            raise GameLogError(Msg("game log {path} has no game {id}", path=str(self.path), id=gid))
        out.write(_dumps(_info(row, self.path).as_dict()) + "\n")
        n = 1
        for e in self.entries(gid):
            out.write(_dumps(e.as_dict()) + "\n")
            n += 1
        return n

    def mark_playing(self) -> bool:
        """Mark this game as being played by this process, for as long as the log is open
        (or the process lives): other processes then see it as played elsewhere
        (`upref.store.inuse`). False when another process plays it already."""
        if self._play_lock is None:
            self._play_lock = PlayLock.take(self.path, self.game_id)
        return self._play_lock is not None

    def played_elsewhere(self) -> bool:
        """Whether another process is playing this game now."""
        return self._play_lock is None and held_elsewhere(self.path, self.game_id)

    def close(self) -> None:
        if self._play_lock is not None:
            self._play_lock.release()
            self._play_lock = None
        self._conn.close()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- internals ---------------------------------------------------------------------------

    def _rows(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> list[Any]:
        """Every row of a query (SQLite finds damage while it reads them, not only at once)."""
        try:
            return self._conn.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise _damaged(self.path, exc) from None

    def _row(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> Any:
        rows = self._rows(sql, args)
        return rows[0] if rows else None

    def _write(
        self, sql: str, args: tuple[Any, ...] | list[Any] = (), *, playing: bool = False
    ) -> sqlite3.Cursor:
        """Run one change; `playing`: a change the game at the table makes, whose failure
        stops the game (`LogStopped`), where any other is refused (`GameLogError`)."""
        if self.read_only:
            raise GameLogError(f"game log {self.path} was opened to read only: nothing is written")
        try:
            return self._conn.execute(sql, args)
        except sqlite3.Error as exc:
            if playing:
                raise LogStopped(self.path, _why(exc, self.path), self._resume_words()) from None
            raise _unwritable(self.path, exc) from None

    def _resume_words(self) -> str:
        """The command that goes on with this game once the log can be written again."""
        game = "GAME"
        with contextlib.suppress(sqlite3.Error, TypeError):
            row = self._conn.execute("SELECT game FROM games WHERE id = ?", (self.game_id,)).fetchone()
            game = str(row[0])
        db = "" if self.path == default_path(create=False) else f" --db {self.path}"
        return f"upref play {game} --resume{db}"

    def _insert(self, t: float, kind: str, payload: Mapping[str, Any], *, playing: bool = False) -> int:
        seq = self._seq + 1
        self._write(
            "INSERT INTO entries (game_id, seq, t, kind, payload) VALUES (?, ?, ?, ?, ?)",
            (self.game_id, seq, float(t), kind, _dumps(payload)),
            playing=playing,
        )
        self._seq = seq
        return seq

    def _set_status(
        self,
        status: str,
        finished: float | None,
        outcome: Mapping[str, Any] | None,
        *,
        playing: bool = False,
    ) -> None:
        self._write(
            "UPDATE games SET status = ?, finished = ?, outcome = ? WHERE id = ?",
            (status, finished, None if outcome is None else _dumps(outcome), self.game_id),
            playing=playing,
        )

    def _transaction(self) -> _Transaction:
        return _Transaction(self)


def _default_for_writing() -> Path:
    try:
        return default_path(create=True)
    except OSError as exc:
        raise _unwritable(default_path(create=False), exc) from None


class _Transaction:
    def __init__(self, log: GameLog) -> None:
        self._log = log
        self._seq = log._seq

    def __enter__(self) -> None:
        self._log._write("BEGIN")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self._log._write("COMMIT")
        else:
            self._log._write("ROLLBACK")
            self._log._seq = self._seq


def load_jsonl(lines: Iterable[str], source: str = "the JSON Lines") -> tuple[GameInfo, list[Entry]]:
    """Read an exported game: (header, entries). `source` names the file in messages.

    :raises GameLogError: for text that is not an upref game log, naming the line.
    """
    numbered: Iterator[tuple[int, str]] = (
        (n, line) for n, line in enumerate(lines, start=1) if line.strip()
    )
    todo = f"export the game again with `upref export`, or {_NOT_OURS}"
    try:
        _, first = next(numbered)
    except StopIteration:
        raise GameLogError(Msg("{path} is empty, not an upref game log: {todo}", path=source,
                               todo=_NOT_OURS)) from None
    try:
        head = json.loads(first)
    except (json.JSONDecodeError, RecursionError):
        raise GameLogError(Msg("{path} is not an upref game log (its first line is not JSON): {todo}",
                               path=source, todo=_NOT_OURS)) from None
    if isinstance(head, dict) and head.get("format") == PUBLIC_FORMAT:
        game = head.get("id")
        raise GameLogError(Msg(
            "{path} is a public export (only the verdicts the table saw, without the inputs they came "
            "from), and a replay needs the inputs: export the game in full, without --public (`upref "
            "export --game {id} -o game.jsonl`), and replay that",
            path=source, id=game if isinstance(game, int) else "ID",
        ))
    if not isinstance(head, dict) or head.get("kind") != "game" or head.get("format") != FORMAT:
        raise GameLogError(Msg(
            "{path} is not an upref game log (its first line is not an upref game header): {todo}",
            path=source, todo=_NOT_OURS,
        ))
    try:
        version = int(head.get("version", 0))
        info = GameInfo.from_dict(head)
    except (KeyError, TypeError, ValueError) as exc:
        raise GameLogError(f"{source}, line 1: the game header is damaged ({exc!r}); {todo}") from None
    if version > SCHEMA_VERSION:
        raise GameLogError(Msg(
            "{path} is a game log of version {version}; this upref reads up to {known}: update upref",
            path=source, version=version, known=SCHEMA_VERSION,
        ))
    entries = []
    for number, line in numbered:
        try:
            d = json.loads(line)
            if not isinstance(d, dict):
                raise TypeError("not a JSON object")
            entries.append(Entry.from_dict(d))
        except RecursionError:
            raise GameLogError(
                f"{source}, line {number}: not a game log entry (JSON nested too deep to read); "
                f"{todo}"
            ) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise GameLogError(
                f"{source}, line {number}: not a game log entry ({exc!r}); {todo}"
            ) from None
    return info, entries
