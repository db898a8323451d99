"""`upref tags write GAME`: write on each sticker the record that names its piece (docs/tags.md).

Piece by piece, it asks for a tap ("Tap T05: 1 shovel — black 2"), writes the record
`upref:GAME/ITEM` on the sticker through the board (TAGW: written from page 4 and read back
there), and waits for the piece to be lifted before the next. A sticker that already holds the
right record is skipped; one that names another piece is refused unless `--force`; a locked or
full sticker, or a card that is no NTAG, gets a line that says so, and the same piece is asked
for again (another sticker). Nothing goes into the tag book: the deck now names itself on any
board.

    upref tags write updown                 # every card of Up And Down, in catalogue order
    upref tags write updown --from T20      # from T20 on
    upref tags write updown --force         # overwrite stickers that name another piece
"""

from __future__ import annotations

import argparse
import queue
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from upref.board.ndef import RecordError, piece_message, piece_of, piece_uri, user_memory
from upref.commands.connect import BoardLink
from upref.commands.lang_option import add_lang_option, chosen_lang, said, said_error
from upref.link.connection import Link, LinkError
from upref.link.notices import LinkItem
from upref.link.protocol import CardArrived, CardLeft, Err, TagRecord
from upref.registry import UnknownGame, find_game, games
from upref.text import ENGLISH, Msg, in_lang

__all__ = ["TagWriting", "main"]

_WRITE_TIMEOUT_S = 3.0  # a record of a dozen pages takes the board well under 0.2 s


@dataclass
class _Tap:
    """A card that arrived: its UID and what its sticker carries (None: no NDEF message)."""

    uid: str
    record: TagRecord | None


class TagWriting:
    """Writes the records of `items` (game `game`), one tap each, over `link`."""

    def __init__(
        self, link: BoardLink, game: str, items: list[tuple[str, str]], *, force: bool = False,
        out: TextIO = sys.stdout, poll: float = 0.2, lang: str = ENGLISH,
    ) -> None:
        self.link = link
        self.game = game
        self.items = items
        self.force = force
        self.out = out
        self.poll = poll
        self.lang = lang
        self.written = 0
        self.skipped = 0
        self._records: dict[str, TagRecord] = {}
        self._in_field: str | None = None

    def run(self) -> int:
        for item, label in self.items:
            while not self._piece(item, label):
                pass
        self.say(Msg("Done: {written} written, {skipped} already right.", written=self.written,
                     skipped=self.skipped))
        return 0

    def _piece(self, item: str, label: str) -> bool:
        """One tap for `item`: True once its sticker holds its record, False to ask again."""
        self.say(Msg("Tap {label}.", label=label) if label.startswith(item)
                 else Msg("Tap {item}: {label}.", item=item, label=label))
        tap = self._wait_for_tap()
        done = self._write(tap, item)
        self._wait_until_lifted(tap.uid)
        return done

    def _write(self, tap: _Tap, item: str) -> bool:
        message = piece_message(self.game, item)
        uri = piece_uri(self.game, item)
        rec = tap.record
        if rec is not None and rec.whole and rec.data == message:
            self.skipped += 1
            self.say(Msg("  {item}: sticker {uid} already holds {uri}; skipped.", item=item, uid=tap.uid, uri=uri))
            return True
        other = _names(rec)
        if other is not None and other != uri and not self.force:
            self.say(Msg(
                "  sticker {uid} already holds {other}: not overwritten. Tap {item}'s own sticker, or "
                "run again with --force to overwrite it.", uid=tap.uid, other=other, item=item,
            ))
            return False
        reply = self.link.command(
            "TAGW", tap.uid, user_memory(message).hex().upper(), timeout=_WRITE_TIMEOUT_S, retries=1
        )
        if isinstance(reply, Err):
            self.say(Msg("  sticker {uid} was not written: {reason}. Use another sticker for {item}.",
                         uid=tap.uid, reason=reply.reason, item=item))
            return False
        self.written += 1
        self.say(Msg("  {item}: {uri} written on sticker {uid} and read back.", item=item, uri=uri, uid=tap.uid))
        return True

    def _wait_for_tap(self) -> _Tap:
        while True:
            item = self._next()
            if isinstance(item, CardArrived):
                return _Tap(item.uid, self._records.pop(item.uid, None))

    def _wait_until_lifted(self, uid: str) -> None:
        if self._in_field == uid:
            self.say(Msg("  Lift it."))
        while self._in_field == uid:
            self._next()

    def _next(self) -> LinkItem | None:
        error = self.link.error
        if error is not None:
            raise error
        try:
            item = self.link.events.get(timeout=self.poll)
        except queue.Empty:
            return None
        match item:
            case TagRecord():
                self._records[item.uid] = item
            case CardArrived(uid=uid):
                self._in_field = uid
            case CardLeft(uid=uid):
                if self._in_field == uid:
                    self._in_field = None
        return item

    def say(self, text: str) -> None:
        print(in_lang(text, self.lang), file=self.out, flush=True)


def _names(record: TagRecord | None) -> str | None:
    """The upref URI a sticker's record holds (None: none, or one that names nothing)."""
    if record is None or not record.whole or not record.data:
        return None
    try:
        game, item = piece_of(record.data)
    except RecordError:
        return None
    return piece_uri(game, item)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="upref tags",
        description=said(Msg("Write on each sticker the record that names its piece (docs/tags.md).")),
    )
    verbs = parser.add_subparsers(dest="verb", required=True)
    write = verbs.add_parser("write", help=said(Msg("write a game's deck, one tap a piece")))
    write.add_argument("game", choices=[g.name for g in games()], help=said(Msg("the game whose deck to write")))
    write.add_argument("--port", metavar="URL",
                       help=said(Msg("device path or pyserial URL (default: find the board)")))
    write.add_argument("--from", dest="start", metavar="ITEM", help=said(Msg("begin with this piece")))
    write.add_argument(
        "--force", action="store_true", help=said(Msg("overwrite a sticker that names another piece"))
    )
    add_lang_option(write)
    return parser


def _items(game: str, start: str | None) -> list[tuple[str, str]]:
    """The pieces to write, from `start` on.

    :raises ValueError: for a piece the game does not have.
    """
    items = list(find_game(game).items())
    if start is None:
        return items
    ids = [i for i, _ in items]
    if start not in ids:
        raise ValueError(Msg("{game} has no piece {start!r}: its pieces run {first} to {last}", game=game,
                             start=start, first=ids[0], last=ids[-1]))
    return items[ids.index(start):]


def main(
    argv: list[str] | None = None,
    *,
    opener: Callable[[str | None], BoardLink] = Link,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    args = _parser().parse_args(argv)
    lang = chosen_lang(args, "upref tags")
    stream = out if out is not None else sys.stdout
    errs = err if err is not None else sys.stderr
    try:
        items = _items(args.game, args.start)
        link = opener(args.port)
    except (UnknownGame, ValueError, LinkError) as exc:
        print(said(Msg("upref tags: {why}", why=said_error(exc))), file=errs)
        return 1
    print(said(Msg("Writing {game}'s stickers on the board at {url} (Ctrl-C stops).", game=args.game, url=link.url)),
          file=stream, flush=True)
    writing = TagWriting(link, args.game, items, force=args.force, out=stream, lang=lang)
    try:
        return writing.run()
    except KeyboardInterrupt:
        stopped = Msg("Stopped: {written} written, {skipped} already right.", written=writing.written,
                      skipped=writing.skipped)
        print("\n" + said(stopped), file=stream)
        return 0
    except LinkError as exc:
        print(said(Msg("upref tags: {why}", why=said_error(exc))), file=errs)
        return 1
    finally:
        close = getattr(link, "close", None)
        if close is not None:
            close()
