"""A piece's name on its own tag: the NDEF record an NTAG213 sticker carries (docs/tags.md).

Pure bytes to words and back, no I/O, no game: which games and pieces exist is the caller's
business (`upref.board.tagrecords` is handed the catalogues).

The record upref writes is one NDEF message of one short URI record, the URI `upref:GAME/ITEM`
(`upref:updown/T05`) written whole (identifier code 00h: no abbreviation), which any phone's NFC
app writes and reads as "URI" or "custom URL". A Text record whose text is that same URI is
taken too (some apps offer only text), and so is a message whose first upref record follows
other records (an app that adds its own).

On the tag the message sits in an NDEF TLV at the start of the user memory (NFC Forum Type 2
Tag: page 4 on), `03 <length> <message> FE`; a message of up to 254 bytes takes a one-byte
length, which every record of upref does: `upref:updown/T05` is 21 bytes of message, 24 with the
TLV, 6 of the NTAG213's 36 user pages.

    message = piece_message("updown", "T05")   # b'\\xd1\\x01\\x11U\\x00upref:updown/T05'
    memory = user_memory(message)              # TLV + terminator, padded to whole pages
    game, item = piece_of(message)             # ('updown', 'T05'), or RecordError
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from upref.text import Msg

__all__ = [
    "MAX_MESSAGE",
    "PAGE",
    "SCHEME",
    "USER_BYTES",
    "USER_PAGE",
    "NdefRecord",
    "RecordError",
    "parse_message",
    "piece_message",
    "piece_of",
    "piece_uri",
    "user_memory",
]

SCHEME = "upref:"
"""Every upref record's URI begins so: `upref:GAME/ITEM`."""
PAGE = 4
"""Bytes in one page of an NTAG (the unit of READ's address and of WRITE)."""
USER_PAGE = 4
"""The first page of an NTAG213's user memory (NFC Forum Type 2 Tag: the data area)."""
USER_BYTES = 144
"""An NTAG213's user memory: pages 4 to 39."""
MAX_MESSAGE = 64
"""The longest message the board reads and sends whole (docs/protocol.md, TAG): a longer one
arrives cut, and is refused as too long."""

_TLV_NDEF = 0x03
_TLV_TERMINATOR = 0xFE
_TNF_WELL_KNOWN = 0x01
_MB = 0x80
_ME = 0x40
_SR = 0x10
_IL = 0x08
_TNF_MASK = 0x07
_URI_TYPE = b"U"
_TEXT_TYPE = b"T"
_URI_WHOLE = 0x00  # identifier code: no prefix abbreviated
_PIECE = re.compile(r"upref:([a-z][a-z0-9_]{0,31})/([A-Za-z0-9][A-Za-z0-9_.+-]{0,31})")


class RecordError(ValueError):
    """A tag's bytes that name no piece: malformed, cut, or no upref record. The message says
    what is wrong with them, in words for the table."""


@dataclass(frozen=True)
class NdefRecord:
    """One record of an NDEF message: its type name format, type and payload."""

    tnf: int
    type: bytes
    payload: bytes

    def uri(self) -> str | None:
        """The URI of a well-known URI record (abbreviated prefixes but 00h are not upref's:
        None), or the text of a well-known Text record; None for any other record."""
        if self.tnf != _TNF_WELL_KNOWN or not self.payload:
            return None
        if self.type == _URI_TYPE:
            if self.payload[0] != _URI_WHOLE:
                return None
            return self.payload[1:].decode("utf-8", "replace")
        if self.type == _TEXT_TYPE:
            lang = self.payload[0] & 0x3F
            if self.payload[0] & 0x80 or 1 + lang > len(self.payload):
                return None  # UTF-16, or a language code longer than the record
            return self.payload[1 + lang :].decode("utf-8", "replace")
        return None


def piece_uri(game: str, item: str) -> str:
    """`upref:updown/T05`: the URI naming piece `item` of `game`."""
    return f"{SCHEME}{game}/{item}"


def piece_message(game: str, item: str) -> bytes:
    """The NDEF message of one short URI record naming the piece (what `upref tags write`
    writes and docs/tags.md shows)."""
    payload = bytes([_URI_WHOLE]) + piece_uri(game, item).encode()
    if len(payload) > 255:
        raise RecordError(Msg("the record for {game} {item} is {size} bytes, over 255", game=game, item=item,
                                  size=len(payload)))
    header = _MB | _ME | _SR | _TNF_WELL_KNOWN
    return bytes([header, len(_URI_TYPE), len(payload)]) + _URI_TYPE + payload


def user_memory(message: bytes) -> bytes:
    """The user memory that holds `message`: its NDEF TLV and the terminator TLV, padded with
    zeros to whole pages (from page 4)."""
    if len(message) > 254:
        raise RecordError(Msg("an NDEF message of {size} bytes needs a 3-byte TLV length", size=len(message)))
    data = bytes([_TLV_NDEF, len(message)]) + message + bytes([_TLV_TERMINATOR])
    data += bytes(-len(data) % PAGE)
    if len(data) > USER_BYTES:
        raise RecordError(Msg("{size} bytes do not fit an NTAG213's {room} of user memory", size=len(data),
                                  room=USER_BYTES))
    return data


def parse_message(data: bytes) -> list[NdefRecord]:
    """The records of an NDEF message, in order.

    :raises RecordError: for a message that is cut short or malformed (a record past the end,
        a first record without MB, bytes after the record marked ME).
    """
    records: list[NdefRecord] = []
    at = 0
    if not data:
        raise RecordError(Msg("the tag's NDEF message is empty"))
    while True:
        record, at, last = _record(data, at, first=not records)
        records.append(record)
        if last:
            break
        if at >= len(data):
            raise RecordError(Msg("the tag's NDEF message is cut short: its last record is not marked last"))
    if at != len(data):
        raise RecordError(Msg("the tag's NDEF message has {size} bytes after its last record", size=len(data) - at))
    return records


def _record(data: bytes, at: int, *, first: bool) -> tuple[NdefRecord, int, bool]:
    """The record at `at`, where the next one begins, and whether it is the last."""
    if at + 3 > len(data):
        raise RecordError(Msg("the tag's NDEF message is cut short in a record's header"))
    head = data[at]
    if bool(head & _MB) != first:
        raise RecordError(Msg("the tag's NDEF message does not begin its records where it says"))
    type_len = data[at + 1]
    at += 2
    if head & _SR:
        payload_len = data[at]
        at += 1
    else:
        if at + 4 > len(data):
            raise RecordError(Msg("the tag's NDEF message is cut short in a record's length"))
        payload_len = int.from_bytes(data[at : at + 4], "big")
        at += 4
    id_len = 0
    if head & _IL:
        if at >= len(data):
            raise RecordError(Msg("the tag's NDEF message is cut short in a record's id length"))
        id_len = data[at]
        at += 1
    end = at + type_len + id_len + payload_len
    if end > len(data):
        raise RecordError(
            Msg("the tag's NDEF record says it holds {size} bytes, more than the message has", size=payload_len)
        )
    rtype = bytes(data[at : at + type_len])
    payload = bytes(data[at + type_len + id_len : end])
    return NdefRecord(head & _TNF_MASK, rtype, payload), end, bool(head & _ME)


def piece_of(message: bytes) -> tuple[str, str]:
    """The game and item the message's first upref record names.

    :raises RecordError: for a malformed message, one with no upref record, or an upref record
        that does not read `upref:GAME/ITEM`.
    """
    for record in parse_message(message):
        uri = record.uri()
        if uri is None or not uri.startswith(SCHEME):
            continue
        m = _PIECE.fullmatch(uri)
        if m is None:
            shown = uri if len(uri) <= 40 else uri[:37] + "..."
            raise RecordError(Msg("the tag's record {shown!r} does not read upref:GAME/ITEM", shown=shown))
        return m.group(1), m.group(2)
    raise RecordError(Msg("the tag's NDEF message holds no upref record (upref:GAME/ITEM)"))
