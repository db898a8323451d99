"""The tag registry: which physical card or tile each NFC tag is stuck on, for all five games.

One SQLite table, `data_dir()/registry.sqlite` by default: a tag's UID (upper-case hex, 4, 7 or
10 bytes) -> (game, item id, when it was enrolled). A tag belongs to one item of one game (a
sticker sits on one card). An item has **one** tag: giving it another (the card was lost and
replaced, or re-stickered) must be asked for with `replace=True`, which drops the old tag, so a
stale sticker never keeps meaning the card. Every change is committed at once.

`catalogue_items(game)` lists the items a game's catalogue has, with a label a person can match
against the printed card ("T07: 2 shovels — black 3, red 1").
"""

from __future__ import annotations

import contextlib
import itertools
import re
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from upref.games import GAME_TITLES, GAMES
from upref.link.protocol import UID_HEX_LENGTHS
from upref.paths import data_dir

__all__ = [
    "GAMES",
    "GAME_TITLES",
    "CatalogueUnavailable",
    "Enrolled",
    "ItemTaken",
    "RegistryError",
    "Tag",
    "TagRegistry",
    "TagTaken",
    "catalogue_items",
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


class RegistryError(ValueError):
    """A registry operation that cannot be done: a bad UID, game or item, a tag or item already
    taken, or a registry file that cannot be read. The message says what to do."""


class TagTaken(RegistryError):
    """The tag is already enrolled as another item (`existing`)."""

    def __init__(self, existing: Tag, wanted_game: str, wanted_item: str) -> None:
        self.existing = existing
        super().__init__(
            f"tag {existing.uid} is already enrolled as {existing.game} {existing.item}"
            f" (not {wanted_game} {wanted_item}); remove it first with "
            f"`upref enroll {existing.game} --forget {existing.uid}`"
        )


class ItemTaken(RegistryError):
    """The item already has another tag (`existing`); enrolling a new one needs replace=True."""

    def __init__(self, existing: Tag, new_uid: str) -> None:
        self.existing = existing
        super().__init__(
            f"{existing.game} {existing.item} is already enrolled with tag {existing.uid}, not "
            f"{new_uid}; if the card was replaced or re-stickered, give it the new tag with "
            f"`upref enroll {existing.game} --replace` (the old tag is then forgotten)"
        )


class CatalogueUnavailable(RegistryError):
    """The game's catalogue of items is not available (yet)."""


@dataclass(frozen=True)
class Tag:
    uid: str
    game: str
    item: str
    enrolled_at: str = field(default="", compare=False)


@dataclass(frozen=True)
class Enrolled:
    """What `TagRegistry.enroll` did: `created` is False when the tag was already this item
    (nothing changed); `replaced` is the item's previous tag, forgotten for this one."""

    tag: Tag
    created: bool
    replaced: Tag | None = None


def default_path() -> Path:
    return data_dir() / "registry.sqlite"


def normalize_uid(text: str) -> str:
    """'04:a1:b2:c3:d4:e5:f6' -> '04A1B2C3D4E5F6' (spaces, colons, dots and dashes are dropped).

    :raises RegistryError: unless it is 4, 7 or 10 bytes of hex.
    """
    if not isinstance(text, str):
        raise RegistryError(f"a tag UID is text in hex, not {text!r}")
    uid = _UID_SEPARATORS.sub("", text).upper()
    lengths = ", ".join(str(n) for n in UID_HEX_LENGTHS)
    if not uid or not all(c in "0123456789ABCDEF" for c in uid):
        raise RegistryError(
            f"not a tag UID: {text!r}; a UID is hex digits 0-9 A-F, e.g. 04A1B2C3D4E5F6"
        )
    if len(uid) not in UID_HEX_LENGTHS:
        raise RegistryError(
            f"not a tag UID: {text!r} has {len(uid)} hex digits; UIDs are 4, 7 or 10 bytes "
            f"({lengths} hex digits), e.g. 04A1B2C3D4E5F6 (NTAG) or DEADBEEF"
        )
    return uid


def check_game(game: str) -> str:
    """:raises RegistryError: for a name that is not one of `GAMES`."""
    if game not in GAMES:
        raise RegistryError(f"unknown game {game!r}; the games are {', '.join(GAMES)}")
    return game


def _check_item(item: str) -> str:
    if not isinstance(item, str) or not _ITEM.fullmatch(item):
        raise RegistryError(
            f"not an item id: {item!r}; ids are 1 to 32 letters, digits and _.+- "
            "(e.g. T07, W12, S-NC1)"
        )
    return item


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class TagRegistry:
    """The enrolled tags, in an SQLite file shared by all games (and by several processes: a
    referee may read while `upref enroll` writes).

    :param path: the database file (default `data_dir()/registry.sqlite`); created on first use.
    :raises RegistryError: when the file cannot be opened or is not a registry.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > _SCHEMA_VERSION:
                self._db.close()
                raise RegistryError(
                    f"the tag registry {self.path} was written by a newer upref (schema "
                    f"{version}, this one knows {_SCHEMA_VERSION}): update upref"
                )
            self._db.executescript(_SCHEMA)
            if version < _SCHEMA_VERSION:
                self._db.execute(f"PRAGMA user_version = {_SCHEMA_VERSION}")
        except (sqlite3.Error, OSError) as exc:
            raise RegistryError(f"cannot open the tag registry {self.path}: {exc}") from None

    # -- reading ------------------------------------------------------------------------------

    def lookup(self, uid: str) -> Tag | None:
        """The tag's enrolment, or None for a tag never enrolled.

        :raises RegistryError: for a malformed UID.
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

    def missing(self, game: str, all_items: Iterable[str] | None = None) -> list[str]:
        """The items of `all_items` (default: the game's catalogue) with no tag, in their order."""
        if all_items is None:
            all_items = [item for item, _ in catalogue_items(game)]
        have = self.items(game)
        return [item for item in all_items if item not in have]

    # -- changing -----------------------------------------------------------------------------

    def enroll(self, uid: str, game: str, item: str, *, replace: bool = False) -> Enrolled:
        """Record that tag `uid` is on `item` of `game`, committed at once.

        The same tag as the same item again changes nothing (`created` False).

        :raises TagTaken: the tag is enrolled as another item (of any game): forget it first.
        :raises ItemTaken: the item has another tag and `replace` is False. With `replace`, the
            old tag is forgotten and reported in `replaced`.
        :raises RegistryError: a malformed UID, an unknown game, a malformed item id.
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
                self._db.execute("DELETE FROM tags WHERE uid = ?", (replaced.uid,))
            tag = Tag(uid, game, item, _now())
            self._db.execute(
                "INSERT INTO tags (uid, game, item, enrolled_at) VALUES (?, ?, ?, ?)",
                (tag.uid, tag.game, tag.item, tag.enrolled_at),
            )
        return Enrolled(tag, created=True, replaced=replaced)

    def forget(self, uid: str) -> Tag | None:
        """Remove the tag's enrolment; returns what it was, or None if it was not enrolled.

        :raises RegistryError: for a malformed UID.
        """
        uid = normalize_uid(uid)
        with self._transaction():
            row = self._one("SELECT uid, game, item, enrolled_at FROM tags WHERE uid = ?", (uid,))
            if row is None:
                return None
            self._db.execute("DELETE FROM tags WHERE uid = ?", (uid,))
        return Tag(*row)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> TagRegistry:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction, taken at once so no other process writes in between."""
        self._exec("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:  # Ctrl-C included: nothing half-written stays
            self._exec("ROLLBACK")
            raise
        self._exec("COMMIT")

    def _exec(self, sql: str) -> None:
        try:
            self._db.execute(sql)
        except sqlite3.Error as exc:
            raise RegistryError(f"tag registry {self.path}: {exc}") from None

    def _one(self, sql: str, args: tuple[str, ...]) -> tuple[str, str, str, str] | None:
        rows = self._all(sql, args)
        return rows[0] if rows else None

    def _all(self, sql: str, args: tuple[str, ...]) -> list[tuple[str, str, str, str]]:
        try:
            return list(self._db.execute(sql, args).fetchall())
        except sqlite3.Error as exc:
            raise RegistryError(f"tag registry {self.path}: {exc}") from None


# --- catalogues ------------------------------------------------------------------------------


def catalogue_items(game: str) -> list[tuple[str, str]]:
    """(item id, label) for every item of the game that carries a tag, in catalogue order.

    :raises RegistryError: for an unknown game.
    :raises CatalogueUnavailable: for a game whose item ids are not fixed yet.
    :raises ValueError: when the game's catalogue data file is invalid.
    """
    check_game(game)
    if game == "updown":
        return list(_updown_items())
    if game == "whatsup":
        return list(_whatsup_items())
    if game == "flipabird":
        return list(_flipabird_items())
    why = {
        "up": "RULINGS.md §2.1 gives the cards (13 per colour set, one set per player) but no "
        "tag ids for them",
        "upturn": "RULINGS.md §5.1 gives the tiles (80 numbered, 26 action) but no tag ids, and "
        "the real set of numbers is not known",
    }[game]
    ready = ", ".join(g for g in GAMES if g not in ("up", "upturn"))
    raise CatalogueUnavailable(
        f"the {GAME_TITLES[game]} ({game}) catalogue is not available yet: {why}. "
        f"Enrolment works for {ready}"
    )


def _updown_items() -> Iterator[tuple[str, str]]:
    from upref.games.updown.cards import colour_name, load_catalogue

    for card in load_catalogue().cards:
        counts = ", ".join(f"{colour_name(c)} {n}" for c, n in card.counts)
        plural = "" if card.shovels == 1 else "s"
        yield card.id, f"{card.id}: {card.shovels} shovel{plural} — {counts}"


# What's Up (RULINGS.md §1.1): the 30 cards are the 30 edges of the rook's graph on the faces
# (count x colour), listed in the order of the table there: faces ordered by count then colour.
_WHATSUP_COLOURS = ("red", "yellow", "green", "purple")


def _whatsup_items() -> Iterator[tuple[str, str]]:
    faces = [(n, c) for n in (1, 2, 3) for c in _WHATSUP_COLOURS]
    cards = [
        (a, b) for a, b in itertools.combinations(faces, 2) if (a[0] == b[0]) != (a[1] == b[1])
    ]
    for i, ((n1, c1), (n2, c2)) in enumerate(cards, start=1):
        yield f"W{i:02d}", f"W{i:02d}: {n1} {c1} / {n2} {c2}"


# Flip a Bird (RULINGS.md §3.1, default catalogue): 48 bird cards and 12 special cards.
_FLIP_COLOURS = {"B": "blue", "G": "green", "R": "red", "Y": "yellow"}
_FLIP_SPECIALS = (
    ("S-NC1", "Special cards do not count", "open"),
    ("S-NC2", "Special cards do not count", "covered"),
    ("S-NB1", "Neighbour cards do not count", "open"),
    ("S-NB2", "Neighbour cards do not count", "covered"),
    ("S-NOT-B", "Blue does not count", "open"),
    ("S-NOT-R", "Red does not count", "open"),
    ("S-NOT-G", "Green does not count", "covered"),
    ("S-NOT-Y", "Yellow does not count", "covered"),
    ("S-DBL-G", "Green counts double", "open"),
    ("S-DBL-Y", "Yellow counts double", "open"),
    ("S-DBL-B", "Blue counts double", "covered"),
    ("S-DBL-R", "Red counts double", "covered"),
)


def _flipabird_items() -> Iterator[tuple[str, str]]:
    for letter, colour in _FLIP_COLOURS.items():
        for birds in (1, 2, 3):
            for copy in "abcd":
                back = "open" if copy in "ab" else "covered"
                item = f"{letter}{birds}{copy}"
                plural = "" if birds == 1 else "s"
                yield item, f"{item}: {colour}, {birds} bird{plural}, {back} cage on the back"
    for item, text, back in _FLIP_SPECIALS:
        yield item, f"{item}: {text}, {back} cage on the back"
