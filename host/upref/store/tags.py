"""The tag book: which physical card or tile each NFC tag is stuck on, for all five games.

One SQLite table, `data_dir()/tags.sqlite` by default: a tag's UID (upper-case hex, 4, 7 or
10 bytes) -> (game, item id, when it was enrolled). A tag belongs to one item of one game (a
sticker sits on one card). An item has **one** tag: giving it another (the card was lost and
replaced, or re-stickered) must be asked for with `replace=True`, which drops the old tag, so a
stale sticker never keeps meaning the card. Every change is committed at once.

The tag book knows no game: a game is a name (`updown`, `upturn` ...) and an item an id from
that game's catalogue; which names and ids exist is the game registry's business
(`upref.registry`), asked by the commands before they enrol anything.
"""

from __future__ import annotations

import contextlib
import csv
import re
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from upref.link.protocol import UID_HEX_LENGTHS
from upref.paths import data_dir
from upref.store.whole import made_whole

__all__ = [
    "CSV_COLUMNS",
    "Enrolled",
    "ImportResult",
    "ItemTaken",
    "TagBookError",
    "Tag",
    "TagBook",
    "TagTaken",
    "check_game",
    "default_path",
    "normalize_uid",
]

_SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS tags (
    uid TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    item TEXT NOT NULL,
    enrolled_at TEXT NOT NULL,
    UNIQUE (game, item)
);
"""
_ITEM = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,31}")
_UID_SEPARATORS = re.compile(r"[\s:.-]")


class TagBookError(ValueError):
    """A tag book operation that cannot be done: a bad UID, game or item, a tag or item already
    taken, or a tag book file that cannot be read. The message says what to do."""


class TagTaken(TagBookError):
    """The tag is already enrolled as another item (`existing`)."""

    def __init__(self, existing: Tag, wanted_game: str, wanted_item: str) -> None:
        self.existing = existing
        super().__init__(
            f"tag {existing.uid} is already enrolled as {existing.game} {existing.item}"
            f" (not {wanted_game} {wanted_item}); remove it first with "
            f"`upref enroll {existing.game} --forget {existing.uid}`"
        )


class ItemTaken(TagBookError):
    """The item already has another tag (`existing`); enrolling a new one needs replace=True."""

    def __init__(self, existing: Tag, new_uid: str) -> None:
        self.existing = existing
        super().__init__(
            f"{existing.game} {existing.item} is already enrolled with tag {existing.uid}, not "
            f"{new_uid}; if the card was replaced or re-stickered, give it the new tag with "
            f"`upref enroll {existing.game} --replace` (the old tag is then forgotten)"
        )


CSV_COLUMNS = ("uid", "game", "item", "enrolled_at")


@dataclass
class ImportResult:
    """What `TagBook.import_csv` did: tags added, rows already enrolled as they are, and
    the rows refused, each with its line and why."""

    added: int = 0
    unchanged: int = 0
    refused: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Tag:
    uid: str
    game: str
    item: str
    enrolled_at: str = field(default="", compare=False)


@dataclass(frozen=True)
class Enrolled:
    """What `TagBook.enroll` did: `created` is False when the tag was already this item
    (nothing changed); `replaced` is the item's previous tag, forgotten for this one."""

    tag: Tag
    created: bool
    replaced: Tag | None = None


OLD_NAME = "registry.sqlite"
"""The tag book's file name before it was called the tag book: still used where it exists."""


def default_path(create: bool = True) -> Path:
    """`data_dir()/tags.sqlite` (the folder is created unless `create` is False); the file of
    an older upref, `registry.sqlite`, while it is there and `tags.sqlite` is not, so that the
    tags a table enrolled are never left behind (it is not renamed: SQLite's journal files
    would stay behind under the old name)."""
    folder = data_dir(create)
    old = folder / OLD_NAME
    new = folder / "tags.sqlite"
    return old if old.exists() and not new.exists() else new


def normalize_uid(text: str) -> str:
    """'04:a1:b2:c3:d4:e5:f6' -> '04A1B2C3D4E5F6' (spaces, colons, dots and dashes are dropped).

    :raises TagBookError: unless it is 4, 7 or 10 bytes of hex.
    """
    if not isinstance(text, str):
        raise TagBookError(f"a tag UID is text in hex, not {text!r}")
    uid = _UID_SEPARATORS.sub("", text).upper()
    lengths = ", ".join(str(n) for n in UID_HEX_LENGTHS)
    if not uid or not all(c in "0123456789ABCDEF" for c in uid):
        raise TagBookError(
            f"not a tag UID: {text!r}; a UID is hex digits 0-9 A-F, e.g. 04A1B2C3D4E5F6"
        )
    if len(uid) not in UID_HEX_LENGTHS:
        raise TagBookError(
            f"not a tag UID: {text!r} has {len(uid)} hex digits; UIDs are 4, 7 or 10 bytes "
            f"({lengths} hex digits), e.g. 04A1B2C3D4E5F6 (NTAG) or DEADBEEF"
        )
    return uid


_GAME = re.compile(r"[a-z][a-z0-9]{0,31}")


def check_game(game: str) -> str:
    """:raises TagBookError: for text that cannot be a game's name (lower-case letters and
    digits, as `upref play` takes them)."""
    if not isinstance(game, str) or not _GAME.fullmatch(game):
        raise TagBookError(f"not a game's name: {game!r} (names are like updown, upturn)")
    return game


def _check_item(item: str) -> str:
    if not isinstance(item, str) or not _ITEM.fullmatch(item):
        raise TagBookError(
            f"not an item id: {item!r}; ids are 1 to 32 letters, digits and _.+- "
            "(e.g. T07, W12, S-NC1)"
        )
    return item


def _csv_rows(lines: Iterable[str]) -> list[list[str]]:
    """The rows of a CSV text.

    :raises TagBookError: for text the CSV reader refuses (a field longer than it takes, a
        stray NUL), naming the line.
    """
    reader = csv.reader(lines)
    rows: list[list[str]] = []
    try:
        for row in reader:
            rows.append(row)
    except csv.Error as exc:
        raise TagBookError(
            f"tag list line {reader.line_num}: not a tag list ({exc}); give the CSV that "
            "`upref enroll GAME --export FILE` writes"
        ) from None
    return rows


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class TagBook:
    """The enrolled tags, in an SQLite file shared by all games (and by several processes: a
    referee may read while `upref enroll` writes).

    :param path: the database file (default `data_dir()/tags.sqlite`); created on first use.
    :raises TagBookError: when the file cannot be opened or is not a tag book.
    """

    def __init__(self, path: str | Path | None = None, *, read_only: bool = False) -> None:
        self.path = Path(path) if path is not None else default_path(create=not read_only)
        self.read_only = read_only
        self._db: sqlite3.Connection | None = None
        self._depth = 0  # transactions open, one inside another (`batch`)
        if read_only:
            self._open_read_only()
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise self._cannot_open(exc) from None
        if self.path.exists():
            self._open_writable()
        # else it is made at the first change, whole (`_made`): a book that is only read, or
        # whose first change is refused or fails, leaves no file behind

    def _open_writable(self) -> None:
        """:raises TagBookError: when the file cannot be opened or is a newer upref's."""
        try:
            self._db = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > _SCHEMA_VERSION:
                self._db.close()
                self._db = None
                raise TagBookError(
                    f"the tag book {self.path} was written by a newer upref (schema "
                    f"{version}, this one knows {_SCHEMA_VERSION}): update upref"
                )
            self._db.executescript(_SCHEMA)
            if version < _SCHEMA_VERSION:
                self._db.execute(f"PRAGMA user_version = {_SCHEMA_VERSION}")
        except (sqlite3.Error, OSError) as exc:
            raise self._cannot_open(exc) from None

    def _cannot_open(self, exc: sqlite3.Error | OSError) -> TagBookError:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return TagBookError(
            f"cannot open the tag book {self.path} ({why}): make its folder writable and free "
            "some space, or give --tags a file in a folder you can write to"
        )

    def _open_read_only(self) -> None:
        """Open to look tags up only: nothing is created or changed, a missing file is an empty
        tag_book, and a folder that cannot be written is no obstacle."""
        if not self.path.exists():
            return
        uri = self.path.resolve().as_uri()
        try:
            try:
                self._db = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=5.0)
                self._check_read_only()
            except sqlite3.OperationalError:
                if self._db is not None:
                    self._db.close()
                self._db = sqlite3.connect(f"{uri}?immutable=1", uri=True)
                self._check_read_only()
        except sqlite3.Error as exc:
            if self._db is not None:
                self._db.close()
            raise TagBookError(
                f"cannot read the tag book {self.path} ({exc}): it is damaged or not a tag "
                "tag book; give --tags the tags.sqlite that `upref enroll` wrote"
            ) from None

    def _check_read_only(self) -> None:
        assert self._db is not None
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tags)")}
        if version > _SCHEMA_VERSION:
            raise TagBookError(
                f"the tag book {self.path} was written by a newer upref (schema "
                f"{version}, this one knows {_SCHEMA_VERSION}): update upref"
            )
        if not {"uid", "game", "item", "enrolled_at"} <= columns:
            raise TagBookError(
                f"{self.path} is not an upref tag book (no tags table); give --tags the "
                "tags.sqlite that `upref enroll` wrote"
            )

    # -- reading ------------------------------------------------------------------------------

    def lookup(self, uid: str) -> Tag | None:
        """The tag's enrolment, or None for a tag never enrolled.

        :raises TagBookError: for a malformed UID.
        """
        row = self._one(
            "SELECT uid, game, item, enrolled_at FROM tags WHERE uid = ?", (normalize_uid(uid),)
        )
        return Tag(*row) if row else None

    def tag_of(self, game: str, item: str) -> Tag | None:
        """The tag enrolled for this item, or None."""
        row = self._one(
            "SELECT uid, game, item, enrolled_at FROM tags WHERE game = ? AND item = ?",
            (game, item),
        )
        return Tag(*row) if row else None

    def tags(self, game: str | None = None) -> list[Tag]:
        """Every enrolled tag (of one game), ordered by game then item."""
        sql = "SELECT uid, game, item, enrolled_at FROM tags"
        args: tuple[str, ...] = ()
        if game is not None:
            sql += " WHERE game = ?"
            args = (game,)
        return [Tag(*r) for r in self._all(sql + " ORDER BY game, item", args)]

    def items(self, game: str) -> dict[str, str]:
        """item -> uid for every enrolled item of `game`."""
        return {t.item: t.uid for t in self.tags(game)}

    def missing(self, game: str, all_items: Iterable[str]) -> list[str]:
        """The items of `all_items` (the game's catalogue) with no tag, in their order."""
        have = self.items(game)
        return [item for item in all_items if item not in have]

    # -- changing -----------------------------------------------------------------------------

    def enroll(self, uid: str, game: str, item: str, *, replace: bool = False) -> Enrolled:
        """Record that tag `uid` is on `item` of `game`, committed at once.

        The same tag as the same item again changes nothing (`created` False).

        :raises TagTaken: the tag is enrolled as another item (of any game): forget it first.
        :raises ItemTaken: the item has another tag and `replace` is False. With `replace`, the
            old tag is forgotten and reported in `replaced`.
        :raises TagBookError: a malformed UID, an unknown game, a malformed item id.
        """
        uid = normalize_uid(uid)
        check_game(game)
        _check_item(item)
        with self._transaction():
            row = self._one("SELECT uid, game, item, enrolled_at FROM tags WHERE uid = ?", (uid,))
            if row is not None:
                existing = Tag(*row)
                if (existing.game, existing.item) == (game, item):
                    return Enrolled(existing, created=False)
                raise TagTaken(existing, game, item)
            row = self._one(
                "SELECT uid, game, item, enrolled_at FROM tags WHERE game = ? AND item = ?",
                (game, item),
            )
            replaced = Tag(*row) if row is not None else None
            if replaced is not None:
                if not replace:
                    raise ItemTaken(replaced, uid)
                self._change("DELETE FROM tags WHERE uid = ?", (replaced.uid,))
            tag = Tag(uid, game, item, _now())
            self._change(
                "INSERT INTO tags (uid, game, item, enrolled_at) VALUES (?, ?, ?, ?)",
                (tag.uid, tag.game, tag.item, tag.enrolled_at),
            )
        return Enrolled(tag, created=True, replaced=replaced)

    def forget(self, uid: str) -> Tag | None:
        """Remove the tag's enrolment; returns what it was, or None if it was not enrolled.

        :raises TagBookError: for a malformed UID.
        """
        uid = normalize_uid(uid)
        with self._transaction():
            row = self._one("SELECT uid, game, item, enrolled_at FROM tags WHERE uid = ?", (uid,))
            if row is None:
                return None
            self._change("DELETE FROM tags WHERE uid = ?", (uid,))
        return Tag(*row)

    # -- sharing: CSV --------------------------------------------------------------------------

    def export_csv(self, out: TextIO, game: str | None = None) -> int:
        """Write the enrolled tags (of one game) as CSV with a header row
        `uid,game,item,enrolled_at`, so a club can share one set of stickered cards; returns
        the number of tags written."""
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        tags = self.tags(game)
        for t in tags:
            writer.writerow((t.uid, t.game, t.item, t.enrolled_at))
        return len(tags)

    def import_csv(self, lines: Iterable[str], *, replace: bool = False) -> ImportResult:
        """Enrol every row of a CSV written by `export_csv` (the `enrolled_at` column is
        optional). Rows already enrolled as they are change nothing; a row whose tag or item
        is taken otherwise is refused and reported with its line number, unless `replace`
        lets an item take the new tag. All rows are checked first: a malformed file changes
        nothing; the rows are enrolled together (a full disk half-way changes nothing either).

        :raises TagBookError: for a file that is not such a CSV (naming the line).
        """
        rows = _csv_rows(lines)
        if not rows or [c.strip().lower() for c in rows[0][:3]] != list(CSV_COLUMNS[:3]):
            raise TagBookError(
                "not a tag list: the first line must be the header "
                f"{','.join(CSV_COLUMNS)} (as `upref enroll GAME --export FILE` writes it)"
            )
        wanted: list[tuple[int, str, str, str]] = []
        for number, row in enumerate(rows[1:], start=2):
            if not any(cell.strip() for cell in row):
                continue
            if len(row) < 3:
                raise TagBookError(f"tag list line {number}: {row!r} needs uid, game and item")
            try:
                uid = normalize_uid(row[0].strip())
                game = check_game(row[1].strip())
                item = _check_item(row[2].strip())
            except TagBookError as exc:
                raise TagBookError(f"tag list line {number}: {exc}") from None
            wanted.append((number, uid, game, item))
        result = ImportResult()
        if not wanted:
            return result
        with self.batch():
            for number, uid, game, item in wanted:
                try:
                    done = self.enroll(uid, game, item, replace=replace)
                except (TagTaken, ItemTaken) as exc:
                    result.refused.append(f"line {number}: {exc}")
                    continue
                if done.created:
                    result.added += 1
                else:
                    result.unchanged += 1
        return result

    def close(self) -> None:
        if self._db is not None:
            self._db.close()

    def __enter__(self) -> TagBook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ----------------------------------------------------------------------------

    def batch(self) -> contextlib.AbstractContextManager[None]:
        """Changes made inside are committed together, or none of them: a whole deck enrolled
        at once, or a tag list imported (a full disk half-way changes nothing)."""
        return self._transaction()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction, taken at once so no other process writes in between; inside
        another, part of it. A book not made yet is made whole with its first change."""
        if self._depth:
            yield
            return
        if self._db is None and not self.read_only:
            if not self.path.exists():
                with self._made():
                    yield
                return
            self._open_writable()  # another process made it meanwhile
        self._depth += 1
        try:
            self._exec("BEGIN IMMEDIATE")
            try:
                yield
                self._exec("COMMIT")
            except BaseException:  # Ctrl-C included: nothing half-written stays
                with contextlib.suppress(TagBookError):  # the first error is the one to tell
                    self._exec("ROLLBACK")
                raise
        finally:
            self._depth -= 1

    @contextlib.contextmanager
    def _made(self) -> Iterator[None]:
        """The book's first change, made in a new file put in place once it is committed.

        :raises TagBookError: when it cannot be written; nothing is left behind.
        """
        self._depth += 1
        try:
            with made_whole(self.path) as db:
                self._db = db
                db.executescript(f"{_SCHEMA} PRAGMA user_version = {_SCHEMA_VERSION};")
                db.execute("BEGIN IMMEDIATE")
                yield
                db.execute("COMMIT")
        except FileExistsError:
            raise TagBookError(
                f"another upref made the tag book {self.path} meanwhile: nothing was changed; "
                "try again"
            ) from None
        except (sqlite3.Error, OSError) as exc:
            raise self._unwritable(exc) from None
        finally:
            self._depth -= 1
            self._db = None
        self._open_writable()

    def _unwritable(self, exc: sqlite3.Error | OSError) -> TagBookError:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return TagBookError(
            f"cannot change the tag book {self.path} ({why}): nothing was changed; make "
            "the file and its folder writable and free some space, then try again"
        )

    def _change(self, sql: str, args: tuple[str, ...]) -> None:
        """One change inside a transaction.

        :raises TagBookError: when the file cannot be written (a read-only folder, a full
            disk), saying what to do; the transaction is then rolled back, nothing changed.
        """
        assert self._db is not None
        try:
            self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise self._unwritable(exc) from None

    def _exec(self, sql: str) -> None:
        if self._db is None or self.read_only:
            raise TagBookError(f"the tag book {self.path} was opened to read only")
        try:
            self._db.execute(sql)
        except sqlite3.Error as exc:
            raise self._unwritable(exc) from None

    def _one(self, sql: str, args: tuple[str, ...]) -> tuple[str, str, str, str] | None:
        rows = self._all(sql, args)
        return rows[0] if rows else None

    def _all(self, sql: str, args: tuple[str, ...]) -> list[tuple[str, str, str, str]]:
        if self._db is None and self.path.exists():  # made since: another process enrolled
            if self.read_only:
                self._open_read_only()
            else:
                self._open_writable()
        if self._db is None:
            return []  # no tag book file yet: nothing is enrolled
        try:
            return list(self._db.execute(sql, args).fetchall())
        except sqlite3.Error as exc:
            raise TagBookError(f"tag book {self.path}: {exc}") from None
