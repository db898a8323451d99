"""A tag's record replayed with its card (issue 35): the board keeps the last tags' records
beside its event ring and replays one, as `OLD <seq> <ms> TAG ...`, just before the CARD + it
came with. The link says it as it says a live TAG, before the card, and never twice for a card
the host already has."""

from __future__ import annotations

from dataclasses import replace

from fake_serial import BoardFrames, FakeFactory, FakeSerial
from serial_helpers import events_until
from upref.board.tagrecords import PieceTag, TagsAndRecords
from upref.link.connection import Link, LinkSettings
from upref.link.notices import Resynced
from upref.link.protocol import (
    CardArrived,
    Frame,
    Hello,
    Old,
    TagRecord,
    decode,
    encode_command,
    encode_event,
    parse_event,
)

HOLES = 10
WAIT = 2.0
CALM = LinkSettings(
    connect_timeout=WAIT, heartbeat_timeout=60.0, snap_retry=60.0, hello_retry=60.0,
    backoff_start=0.01, backoff_max=0.05, poll=0.01,
)
UID = "04A1B2C3D4E5F6"
T05 = b"\xd1\x01\x11U\x00upref:updown/T05"
RECORD = TagRecord(UID, len(T05), T05)


def _hello(board: BoardFrames) -> bytes:
    return board.event(Hello(
        fw="0.2.0", proto=2, board="A4CF12345678", holes=HOLES,
        caps=("hall", "rfid", "led", "buzzer", "button", "since"), rfid="92", reset="power",
        boot="1A2B",
    ))


def _linked() -> tuple[FakeSerial, BoardFrames, Link]:
    """A link opened on a fake board with an empty reader, past its first resync."""
    fake, board = FakeSerial(), BoardFrames()
    fake.expect(encode_command(0, "HELLO"), _hello(board))
    fake.expect(encode_command(1, "SNAP"), board.snap())
    link = Link("fake://", replace(CALM, serial_factory=FakeFactory(fake)))
    try:
        _items(link, Resynced)
    except AssertionError:
        link.close()
        raise
    return fake, board, link


def _items(link: Link, until: type, timeout: float = WAIT) -> list[object]:
    return events_until(link, until, timeout)


def _replayer(board: BoardFrames, tag_seq: int, ms: int) -> object:
    """The board's answer to SINCE: the kept tap (its record, then its CARD +) when it lies
    after the frame asked from, then OK."""

    def since(frame: Frame) -> list[bytes]:
        start = int(frame.args[0], 16)
        out = []
        if tag_seq + 1 > start:
            out.append(board.event(Old(tag_seq, ms, RECORD)))
            out.append(board.event(Old(tag_seq + 1, ms, CardArrived(UID))))
        out.append(board.frame("OK", f"{frame.seq:04X}", "SINCE", f"n={len(out) // 2}", "lost=0"))
        return out

    return since


def test_an_old_tag_frame_reads_as_the_record_it_replays() -> None:
    line = encode_event(0x50, Old(0x41, 12345, RECORD))
    assert line.startswith(b"@0050 OLD 0041 12345 TAG 04A1B2C3D4E5F6 21 D1011155007570726566")
    assert parse_event(decode(line)) == Old(0x41, 12345, RECORD)


def test_the_longest_replayed_record_fits_a_frame() -> None:
    longest = Old(0xFFFF, 2**31 - 1, TagRecord("04" * 10, 0xFFFF, b"\xab" * 64))
    line = encode_event(0xFFFF, longest)
    assert len(line) <= 200 and parse_event(decode(line)) == longest


def test_a_resumed_host_hears_the_record_of_a_tap_made_while_it_was_away_before_the_card() -> None:
    fake, board = FakeSerial(), BoardFrames(seq=0x40)
    last = 0x3F  # the last event the log applied
    tag_seq = board.seq  # the tap made while no host listened: TAG, CARD +
    board.seq += 2
    fake.expect(encode_command(0, "HELLO"), _hello(board))
    fake.expect(encode_command(1, "SNAP"), board.snap(card=UID))
    fake.on("SINCE", _replayer(board, tag_seq, 4321))  # type: ignore[arg-type]
    fake.on("SNAP", lambda _f: board.snap(card=UID))
    link = Link("fake://", replace(CALM, serial_factory=FakeFactory(fake), since=("1A2B", last)))
    try:
        items = _items(link, Resynced)
        taps = [i for i in items if isinstance(i, TagRecord | CardArrived)]
        assert taps == [RECORD, CardArrived(UID)], items  # the record first, as live
        card = taps[1]
        assert isinstance(card, CardArrived) and (card.seq, card.board_ms) == (tag_seq + 1, 4321)
        # with no tag book at all (`--no-tag-book`), the record names the piece
        tags = TagsAndRecords(None, {"updown": [("T05", "1 shovel")]}, "updown")
        assert tags.learn(taps[0]) == []  # type: ignore[arg-type]
        assert tags.lookup(UID) == PieceTag(UID, "updown", "T05")
    finally:
        link.close()


def test_the_record_of_a_card_the_host_already_has_is_not_said_again() -> None:
    fake, board, link = _linked()
    try:
        tag_seq = board.seq
        fake.feed(board.event(RECORD) + board.event(CardArrived(UID)))  # heard live
        live = _items(link, CardArrived)
        assert [i for i in live if isinstance(i, TagRecord)] == [RECORD]
        fake.on("SINCE", _replayer(board, tag_seq, 100))  # type: ignore[arg-type]
        fake.on("SNAP", lambda _f: board.snap(card=UID))
        board.seq += 1  # a frame lost on the line: the host asks what it missed
        fake.feed(board.hb())
        again = _items(link, Resynced)
        assert fake.wait_command("SINCE")  # the replay came, from the card the host has
        assert not [i for i in again if isinstance(i, TagRecord | CardArrived)], again
    finally:
        link.close()


def test_a_record_lost_on_the_line_comes_back_with_its_card() -> None:
    fake, board, link = _linked()
    try:
        tag_seq = board.seq
        board.seq += 1  # the TAG frame, lost on the line
        fake.on("SINCE", _replayer(board, tag_seq, 100))  # type: ignore[arg-type]
        fake.on("SNAP", lambda _f: board.snap(card=UID))
        fake.feed(board.event(CardArrived(UID)))  # its card, held back for the round
        items = _items(link, Resynced)
        taps = [i for i in items if isinstance(i, TagRecord | CardArrived)]
        assert taps == [RECORD, CardArrived(UID)], items  # each once, the record first
    finally:
        link.close()
