"""`upref tags write GAME --lang de` and the lines said at the table of what a sticker carries
(a record ignored, the tag book and the sticker disagreeing), in German with no English left;
in English, the very lines they were."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from still_english import missed, still_english
from test_tags_write import A, B, FakeLink, run, tap
from upref.board.ndef import piece_message
from upref.commands.tag_lookup import tags_and_records
from upref.link.protocol import TagRecord
from upref.registry import find_game
from upref.text import catalogue, in_lang

UPDOWN = find_game("updown")


@pytest.fixture(autouse=True)
def _own_misses() -> Iterator[None]:
    """Only this test's keys said in English count: what other tests of this process missed is
    put back after it."""
    earlier = set(catalogue.MISSED)
    catalogue.MISSED.clear()
    yield
    catalogue.MISSED.update(earlier)


def _ids(*words: str) -> list[str]:
    """What the word net leaves alone: the pieces' labels, ids and records are names."""
    return [*words, *(label for _, label in UPDOWN.items()), "upref:updown/T29", "upref:updown/T30",
            "upref:updown/T07", "fake://board", "updown", A, B]


def test_writing_a_deck_is_said_in_german() -> None:
    link = FakeLink(*tap(A, blank=True), *tap(B, "updown", "T30"))
    rc, out, err = run(link, "updown", "--from", "T29", "--lang", "de")
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Beschreibe die Chips von updown am Brett unter fake://board (Strg-C hält an)."
    assert f"  T29: upref:updown/T29 auf Chip {A} geschrieben und zur Probe gelesen." in lines
    assert f"  T30: Chip {B} trägt schon upref:updown/T30; übersprungen." in lines
    assert lines[1].startswith("Jetzt antippen: T29: 4 Schaufeln — ")
    assert "Fertig: 1 beschrieben, 1 stimmten schon." in lines
    assert still_english(lines, _ids()) == [] and missed("de") == []


def test_a_refused_write_and_an_unknown_piece_are_said_in_german() -> None:
    link = FakeLink(*tap(A), refuse="the sticker is locked")
    _, out, _ = run(link, "updown", "--from", "T30", "--lang", "de")
    assert f"  Chip {A} wurde nicht beschrieben: the sticker is locked. Nimm einen anderen Chip für T30." in out
    rc, _, err = run(FakeLink(), "updown", "--from", "T99", "--lang", "de")
    assert rc == 1 and err.startswith("upref tags: updown hat kein Teil 'T99': seine Teile gehen von ")
    assert still_english(err.splitlines(), _ids()) == []


@dataclass(frozen=True)
class Entry:
    game: str
    item: str


class Book:
    """A tag book that knows one tag."""

    def __init__(self, uid: str, game: str, item: str) -> None:
        self.entry = (uid, Entry(game, item))

    def lookup(self, uid: str) -> Entry | None:
        return self.entry[1] if uid == self.entry[0] else None


def _heard(records: list[TagRecord], book: Book | None = None) -> list[str]:
    tags = tags_and_records("updown", book)
    return [line for r in records for line in tags.learn(r)]


def _record(uid: str, message: bytes) -> TagRecord:
    return TagRecord(uid, len(message), message)


def test_what_the_table_says_of_a_sticker_is_said_in_german() -> None:
    other = next(g for g in ("upturn", "whatsup", "flipabird") if g != "updown")
    other_item = find_game(other).items()[0][0]
    said = _heard([
        _record(A, piece_message(other, other_item)),
        _record(B, piece_message("updown", "T99")),
        _record("04000000000001", b"\xd1\x01"),
        TagRecord("04000000000002", 300, bytes(10)),
    ]) + _heard([_record(A, piece_message("updown", "T01"))], Book(A, "updown", "T02"))
    assert len(said) == 5
    german = [in_lang(line, "de") for line in said]
    assert german[0].startswith(f"Chip {A} trägt upref:{other}/{other_item}, ein Teil von ")
    assert german[0].endswith("nicht beachtet (beschreib den Chip neu mit `upref tags write updown`)")
    assert german[4].startswith(f"Chip {A} sagt, er sei updown T01, aber im Chipbuch steht er als updown T02")
    names = _ids(f"upref:{other}/{other_item}", "upref:updown/T99", "upref:updown/T01", other, other_item)
    assert still_english([line.replace("`upref tags write updown`", "") for line in german], names) == []
    assert missed("de") == []
    assert said[4] == (  # English, as it was
        f"tag {A} says it is updown T01, but the tag book has it as updown T02: the tag book counts "
        "(write the sticker again with `upref tags write updown --force`, or forget the tag book's "
        f"entry with `upref enroll updown --forget {A}`)"
    )
