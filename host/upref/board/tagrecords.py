"""Pieces that name themselves: the tag book, and beside it what the tags themselves say.

A sticker may carry its piece as an NDEF record (`upref:updown/T05`, docs/tags.md); the board
sends it just before the card's arrival (`TagRecord`, the TAG frame). `TagsAndRecords` is what a
referee looks tags up in (`lookup(uid)`, as the tag book's): the tag book's entry when it has
one, else the piece the tag's own record names, when that is a piece of the game at the table.

It knows no game: it is handed the catalogues (game name -> its pieces, as `upref enroll`
knows them from the game registry), the game being played, and the games' titles.

Nothing is trusted blindly. A record that is malformed, cut (longer than the board carries),
names a game upref does not know, a piece its game does not have, or a piece of another game
than the one at the table, is ignored and said in one line (`learn` returns the lines), once
per tag and record. When the tag book and the tag disagree, the tag book wins, and that is said
once too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from upref.board.ndef import RecordError, piece_of, piece_uri
from upref.board.simtags import Catalogues
from upref.link.protocol import TagRecord
from upref.text import Msg

__all__ = ["BookLike", "PieceTag", "TagsAndRecords"]


class _TagLike(Protocol):
    @property
    def game(self) -> str: ...

    @property
    def item(self) -> str: ...


class BookLike(Protocol):
    """The tag book as this reads it (`upref.store.tags.TagBook` fits)."""

    def lookup(self, uid: str) -> _TagLike | None: ...


@dataclass(frozen=True)
class PieceTag:
    """A tag known by the record it carries: its UID and the piece the record names."""

    uid: str
    game: str
    item: str


class TagsAndRecords:
    """Tag lookups from the tag book (`book`, None: no tag book at all) and from the records
    the tags carry (`learn`), for the game `game`."""

    def __init__(
        self,
        book: BookLike | None,
        catalogues: Catalogues,
        game: str,
        titles: Mapping[str, str] | None = None,
    ) -> None:
        self.book = book
        self.catalogues = catalogues
        self.game = game
        self.titles = dict(titles or {})
        self.pieces: dict[str, PieceTag] = {}  # uid -> the piece its record names
        self._said: set[tuple[str, str]] = set()

    def lookup(self, uid: str) -> _TagLike | PieceTag | None:
        """The tag book's entry for `uid`, else the piece its record named, else None."""
        entry = self._in_book(uid)
        if entry is not None:
            return entry
        return self.pieces.get(uid.upper())

    def learn(self, record: TagRecord) -> list[str]:
        """Take what a tag carries; the lines to say (each once): a record ignored and why, or
        the tag book and the tag disagreeing."""
        uid = record.uid.upper()
        if record.length == 0:
            return []  # a blank sticker: the tag book's business alone
        try:
            piece = self._piece(uid, record)
        except RecordError as exc:
            self.pieces.pop(uid, None)
            return self._once(uid, Msg("{why}: ignored ({advice})", why=_why(exc), advice=self._advice()))
        self.pieces[uid] = piece
        entry = self._in_book(uid)
        if entry is not None and (entry.game, entry.item) != (piece.game, piece.item):
            return self._once(
                uid,
                Msg(
                    "tag {uid} says it is {game} {item}, but the tag book has it as {book_game} "
                    "{book_item}: the tag book counts (write the sticker again with `upref tags write "
                    "{book_game} --force`, or forget the tag book's entry with `upref enroll "
                    "{book_game} --forget {uid}`)",
                    uid=uid, game=piece.game, item=piece.item, book_game=entry.game, book_item=entry.item,
                ),
            )
        return []

    def _piece(self, uid: str, record: TagRecord) -> PieceTag:
        """The piece the record names, for the game at the table.

        :raises RecordError: when it names none of its pieces, in words for the table.
        """
        if not record.whole:
            raise RecordError(
                Msg("tag {uid} carries a record of {size} bytes, more than the {read} the board reads",
                    uid=uid, size=record.length, read=len(record.data))
            )
        try:
            game, item = piece_of(record.data)
        except RecordError as exc:
            raise RecordError(Msg("tag {uid}: {why}", uid=uid, why=_why(exc))) from None
        uri = piece_uri(game, item)
        if game not in self.catalogues:
            raise RecordError(Msg("tag {uid} carries {uri}, a game upref does not know", uid=uid, uri=uri))
        if item not in {i for i, _label in self.catalogues[game]}:
            raise RecordError(Msg("tag {uid} carries {uri}, but {title} has no piece {item}", uid=uid, uri=uri,
                                  title=self._title(game), item=item))
        if game != self.game:
            raise RecordError(
                Msg("tag {uid} carries {uri}, a piece of {title}, not of {ours}", uid=uid, uri=uri,
                    title=self._title(game), ours=self._title(self.game))
            )
        return PieceTag(uid, game, item)

    def _in_book(self, uid: str) -> _TagLike | None:
        if self.book is None:
            return None
        try:
            return self.book.lookup(uid)
        except ValueError:  # a malformed UID: not in the book
            return None

    def _once(self, uid: str, line: str) -> list[str]:
        if (uid, line) in self._said:
            return []
        self._said.add((uid, line))
        return [line]

    def _title(self, game: str) -> str:
        return self.titles.get(game, game)

    def _advice(self) -> str:
        return Msg("write the sticker again with `upref tags write {game}`", game=self.game)


def _why(exc: BaseException) -> str:
    """What an error says, as raised: its sentence (still a catalogue's), or its text."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, str) else str(exc)
