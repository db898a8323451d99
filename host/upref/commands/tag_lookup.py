"""What a referee looks tags up in, for `play` and `demo`: the tag book, and beside it the pieces
the tags name themselves (`upref.board.tagrecords`, docs/tags.md), for the game at the table."""

from __future__ import annotations

from upref.board.simtags import Catalogues
from upref.board.tagrecords import BookLike, TagsAndRecords
from upref.registry import games, titles

__all__ = ["all_catalogues", "tags_and_records"]


def all_catalogues() -> Catalogues:
    """Every registered game's tagged pieces: game name -> (item id, label), in catalogue order."""
    return {game.name: tuple(game.items()) for game in games()}


def tags_and_records(game: str, book: BookLike | None) -> TagsAndRecords:
    """Lookups for `game`: `book`'s entries first (None: no tag book at all), then what the
    tags themselves carry."""
    return TagsAndRecords(book, all_catalogues(), game, titles())
