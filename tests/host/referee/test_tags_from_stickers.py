"""Pieces that name themselves at the table (docs/tags.md): on the host's own `Table`, a tap of
a sticker that carries its piece's record is judged with no tag book exactly as a tap of an
enrolled tag; the tag book wins where it disagrees with the sticker, which is said once; a
sticker that names a piece of another game is refused in one line and judged as not enrolled."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from fake_link import FakeLink
from full_board import pair_in_every_hole
from upref.board.codes import CodeTable
from upref.board.ndef import piece_message
from upref.board.simtags import sim_uid
from upref.commands.tag_lookup import tags_and_records
from upref.game import Game
from upref.link.notices import LinkItem, Online, Resynced
from upref.link.protocol import CardArrived, CardLeft, Hello, Snapshot, TagRecord
from upref.referee.inputs import StartGame
from upref.registry import find_game, games, titles
from upref.store.tags import TagBook
from upref.table import Table

CODES = CodeTable.load()
T = 1_000_000.0
GAMES = [g for g in games() if g.demo is not None]


HOLES = pair_in_every_hole(CODES)


class Host:
    """A `Table` over a link stand-in, its referee looking tags up in `book` (None: no tag
    book at all) and in what the stickers carry."""

    def __init__(self, game: Game, book: TagBook | None) -> None:
        assert game.demo is not None
        referee = game.referee(CODES, tags_and_records(game.name, book), titles=titles(), **game.demo.settings)
        self.link = FakeLink()
        self.said: list[str] = []
        self.table = Table(self.link, referee, CODES, clock=lambda: T,  # type: ignore[arg-type]
                           on_notice=self.said.append)
        hello = Hello("0.2.0", 2, "240AC4A236BB", len(HOLES), ("hall", "rfid", "since"), "92", "hard",
                      FakeLink.boot)
        self.feed(hello, Online("fake://"), Resynced(Snapshot(HOLES, None, False, (), 0), "connect"))
        variant = game.demo.variant(argparse.Namespace(**dict(game.short)))
        self.table.send(StartGame(game.demo.players, variant, game.demo.seed, T))

    def feed(self, *items: LinkItem) -> list[str]:
        start = len(self.table.replies)
        for item in items:
            self.link.events.put(item)
        while not self.link.events.empty():
            self.table.pump(0)
        return [v.text for _inp, reply in self.table.replies[start:] for v in reply.public]

    def tap(self, uid: str, game: str, item: str) -> list[str]:
        message = piece_message(game, item)
        return self.feed(TagRecord(uid, len(message), message), CardArrived(uid, seq=10))

    def close(self) -> None:
        self.table.close()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_sticker_s_record_is_judged_as_an_enrolled_tag(game: Game, tmp_path: Path) -> None:
    item = game.items()[0][0]
    uid = sim_uid(game.name, item)
    with TagBook(tmp_path / "tags.sqlite") as book:
        book.enroll(uid, game.name, item)
        enrolled = Host(game, book)
        expected = enrolled.feed(CardArrived(uid, seq=10))
        enrolled.close()
    assert expected and not any("not enrolled" in v for v in expected)
    bare = Host(game, None)
    assert bare.tap(uid, game.name, item) == expected
    assert bare.said == []
    bare.close()


def test_the_tag_book_wins_over_the_sticker_and_says_so_once(tmp_path: Path) -> None:
    game = find_game("updown")
    uid = "04A1B2C3D4E5F6"
    with TagBook(tmp_path / "tags.sqlite") as book:
        book.enroll(uid, "updown", "T02")
        plain = Host(game, book)
        expected = plain.feed(CardArrived(uid, seq=10))  # the tag book's T02, no record
        plain.close()
        host = Host(game, book)
        first = host.tap(uid, "updown", "T01")  # the sticker says T01
        host.feed(CardLeft(uid, seq=11))
        host.tap(uid, "updown", "T01")
        host.close()
    assert first == expected and first
    mismatch = [line for line in host.said if "says it is updown T01" in line]
    assert len(mismatch) == 1 and "tag book has it as updown T02" in mismatch[0]


def test_a_sticker_of_another_game_is_refused_in_one_line() -> None:
    game = find_game("updown")
    uid = "04A1B2C3D4E5F6"
    host = Host(game, None)
    other = next(g for g in GAMES if g.name != "updown")
    verdicts = host.tap(uid, other.name, other.items()[0][0])
    host.close()
    assert any("not enrolled" in v for v in verdicts)
    assert len(host.said) == 1 and f"a piece of {other.title}, not of {game.title}" in host.said[0]
    assert "ignored" in host.said[0]
