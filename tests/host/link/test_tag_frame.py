"""TAG: the NDEF message of the card arriving next, carried as bytes (the link knows no game);
a malformed TAG is dropped as bad arguments."""

from __future__ import annotations

import pytest
from upref.link.protocol import (
    InvalidFrameError,
    TagRecord,
    decode,
    encode_event,
    encode_frame,
    parse_event,
)

UID = "04A1B2C3D4E5F6"
MESSAGE = b"\xd1\x01\x11U\x00upref:updown/T05"


def test_a_tag_record_round_trips_as_bytes() -> None:
    line = encode_frame(7, "TAG", UID, len(MESSAGE), MESSAGE.hex().upper())
    event = parse_event(decode(line))
    assert event == TagRecord(UID, len(MESSAGE), MESSAGE) and event.whole
    assert encode_event(7, event) == line


def test_a_blank_sticker_and_a_message_carried_cut() -> None:
    blank = parse_event(decode(encode_frame(1, "TAG", UID, 0, "-")))
    assert blank == TagRecord(UID, 0, b"") and blank.whole
    cut = parse_event(decode(encode_frame(2, "TAG", UID, 100, "00" * 64)))
    assert isinstance(cut, TagRecord) and cut.length == 100 and len(cut.data) == 64 and not cut.whole


def test_the_longest_record_the_board_sends_fits_a_frame() -> None:
    line = encode_frame(0xFFFF, "TAG", "04" * 10, 65535, "AB" * 64)
    assert len(line) <= 200


@pytest.mark.parametrize(
    "args",
    [
        (UID, "3"),  # no message
        (UID, "x", "00"),  # length not a number
        (UID, "3", "0"),  # half a byte
        (UID, "3", "zz"),  # not hex
        (UID, "1", "0000"),  # more bytes than it says
        ("04A1", "1", "00"),  # not a UID
    ],
)
def test_a_malformed_tag_frame_is_dropped_as_bad_arguments(args: tuple[str, ...]) -> None:
    with pytest.raises(InvalidFrameError) as info:
        parse_event(decode(encode_frame(3, "TAG", *args)))
    assert info.value.kind == "args"

