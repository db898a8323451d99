"""A piece's record on its sticker (upref.board.ndef) and the lookups beside the tag book
(upref.board.tagrecords): what a phone writes is read, what is wrong is refused in words, and
random bytes never raise anything but the refusal."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from upref.board.ndef import (
    RecordError,
    parse_message,
    piece_message,
    piece_of,
    user_memory,
)
from upref.board.simtags import sim_memory
from upref.board.tagrecords import TagsAndRecords
from upref.link.protocol import TagRecord

CATALOGUES = {
    "updown": (("T05", "1 shovel"), ("T06", "2 shovels")),
    "upturn": (("N12", "12"),),
}
TITLES = {"updown": "Up And Down", "upturn": "Upturn"}
UID = "04A1B2C3D4E5F6"


def test_the_record_of_a_piece_is_a_short_uri_record_any_phone_reads() -> None:
    message = piece_message("updown", "T05")
    # MB ME SR, TNF well-known; type 'U'; identifier code 00h (nothing abbreviated)
    assert message == b"\xd1\x01\x11U\x00upref:updown/T05"
    assert piece_of(message) == ("updown", "T05")
    memory = user_memory(message)
    assert memory[:2] == bytes([0x03, len(message)]) and memory[2 : 2 + len(message)] == message
    assert memory[2 + len(message)] == 0xFE and len(memory) % 4 == 0
    assert sim_memory("updown", "T05") == memory


def _text_record(text: str, lang: bytes = b"en") -> bytes:
    payload = bytes([len(lang)]) + lang + text.encode()
    return bytes([0xD1, 1, len(payload)]) + b"T" + payload


def _uri_record(uri: str, *, first: bool = True, last: bool = True) -> bytes:
    payload = b"\x00" + uri.encode()
    head = 0x11 | (0x80 if first else 0) | (0x40 if last else 0)
    return bytes([head, 1, len(payload)]) + b"U" + payload


def test_a_text_record_and_an_upref_record_after_another_one_are_read_too() -> None:
    assert piece_of(_text_record("upref:updown/T06")) == ("updown", "T06")
    two = _uri_record("https://example.org/", last=False) + _uri_record("upref:upturn/N12", first=False)
    assert len(parse_message(two)) == 2
    assert piece_of(two) == ("upturn", "N12")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "empty"),
        (b"\xd1\x01", "cut short"),
        (b"\xd1\x01\x30U\x00upref:updown/T05", "more than the message has"),
        (piece_message("updown", "T05") + b"\x00\x00", "after its last record"),
        (b"\x91\x01\x01U\x00", "not marked last"),
        (_uri_record("https://example.org/"), "no upref record"),
        (_uri_record("upref:updown"), "does not read upref:GAME/ITEM"),
        (_uri_record("upref:Up Down/T05"), "does not read upref:GAME/ITEM"),
    ],
)
def test_what_names_no_piece_is_refused_in_words(data: bytes, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        piece_of(data)


def _record(message: bytes, length: int | None = None) -> TagRecord:
    return TagRecord(UID, len(message) if length is None else length, message)


@dataclass(frozen=True)
class Entry:
    game: str
    item: str


class Book:
    def __init__(self, entries: dict[str, Entry]) -> None:
        self.entries = entries

    def lookup(self, uid: str) -> Entry | None:
        if len(uid) not in (8, 14, 20):
            raise ValueError(f"bad UID {uid!r}")
        return self.entries.get(uid)


def test_with_no_tag_book_the_piece_comes_from_its_sticker() -> None:
    tags = TagsAndRecords(None, CATALOGUES, "updown", TITLES)
    assert tags.lookup(UID) is None
    assert tags.learn(_record(piece_message("updown", "T05"))) == []
    found = tags.lookup(UID)
    assert found is not None and (found.game, found.item) == ("updown", "T05")


def test_the_tag_book_wins_and_the_disagreement_is_said_once() -> None:
    tags = TagsAndRecords(Book({UID: Entry("updown", "T06")}), CATALOGUES, "updown", TITLES)
    record = _record(piece_message("updown", "T05"))
    lines = tags.learn(record)
    assert len(lines) == 1 and "says it is updown T05" in lines[0] and "tag book has it as updown T06" in lines[0]
    assert "--force" in lines[0] and f"--forget {UID}" in lines[0]
    assert tags.learn(record) == []  # once
    found = tags.lookup(UID)
    assert found is not None and found.item == "T06"


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (_record(piece_message("updown", "T99")), "Up And Down has no piece T99"),
        (_record(piece_message("chess", "K1")), "a game upref does not know"),
        (_record(piece_message("upturn", "N12")), "a piece of Upturn, not of Up And Down"),
        (_record(piece_message("updown", "T05")[:20], 90), "90 bytes, more than the 20"),
        (_record(b"\xd1\x01\x30U\x00upref"), "more than the message has"),
    ],
)
def test_a_record_for_no_piece_of_this_game_is_ignored_with_one_line(record: TagRecord, words: str) -> None:
    tags = TagsAndRecords(None, CATALOGUES, "updown", TITLES)
    lines = tags.learn(record)
    assert len(lines) == 1 and words in lines[0] and "ignored" in lines[0]
    assert "upref tags write updown" in lines[0]
    assert tags.learn(record) == []  # said once
    assert tags.lookup(UID) is None


def test_a_blank_sticker_says_nothing_and_a_sticker_written_again_counts_anew() -> None:
    tags = TagsAndRecords(None, CATALOGUES, "updown", TITLES)
    assert tags.learn(TagRecord(UID, 0, b"")) == []
    assert tags.lookup(UID) is None
    tags.learn(_record(piece_message("updown", "T05")))
    tags.learn(_record(b"\xd1\x01"))  # rewritten with garbage: the old piece no longer counts
    assert tags.lookup(UID) is None


def test_random_bytes_on_a_sticker_never_raise() -> None:
    rng = random.Random(35)
    tags = TagsAndRecords(Book({}), CATALOGUES, "updown", TITLES)
    for _ in range(3000):
        n = rng.randrange(0, 65)
        data = bytes(rng.randrange(256) for _ in range(n))
        if rng.random() < 0.3 and n > 4:  # mostly well-formed headers, to reach deeper
            data = bytes([0xD1, 1, n - 4]) + b"U" + data[4:]
        lines = tags.learn(TagRecord(UID, n + rng.choice((0, 0, 5)), data))
        assert all(isinstance(line, str) and line for line in lines)
        with pytest.raises(RecordError) if n == 0 else _maybe():
            piece_of(data)


class _maybe:
    """A context that lets a RecordError through and nothing else."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> bool:
        return kind is not None and issubclass(kind, RecordError)
