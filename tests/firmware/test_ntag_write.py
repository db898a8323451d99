# TAGW's writing of a sticker (ntag_write.py) against the chip's model with NTAG213 memory: a
# record written and read back, then read as the card arrives; a locked page, a read-only or a
# full sticker, a card that is no NTAG, or another card on the reader, each refused in words.
# Plain test_* functions with assert: the same file runs under pytest and under the MicroPython
# unix port.

from cards import ARRIVED, NONE, CardWatcher
from fake_spi import FakePin, FakeSPI
from mfrc522 import MFRC522
import mfrc522_model
from ntag import NtagReader
import ntag_write

A = b"\x04\x10\x20\x30\x40\x50\x60"
A_HEX = "04102030405060"
C4 = b"\xde\xad\xbe\xef"
T05 = b"\xd1\x01\x11U\x00upref:updown/T05"
MEMORY = b"\x03" + bytes((len(T05),)) + T05 + b"\xfe"  # 24 bytes: 6 whole pages


class Board:
    """What ntag_write reads of the App: the reader and the card watcher with its tags."""

    def __init__(self, uids):
        self.model = mfrc522_model.MFRC522Model()
        self.model.set_field(list(uids))
        self.reader = MFRC522(FakeSPI(self.model), FakePin(self.model.cs), FakePin(self.model.rst))
        self.reader.init()
        self.cards = CardWatcher(self.reader, miss_limit=3, tags=NtagReader(self.reader))

    def arrive(self):
        for _ in range(20):
            ev = self.cards.poll()
            if ev != NONE:
                return ev
        return NONE


def test_a_record_is_written_read_back_and_then_read_as_the_card_arrives():
    b = Board([A])
    assert b.arrive() == ARRIVED and b.cards.tags.length == 0  # blank
    assert ntag_write.write(b, A_HEX, MEMORY) is None
    assert bytes(b.model.memory(A)[16:16 + len(MEMORY)]) == MEMORY
    b.model.set_field([])
    for _ in range(4):
        b.cards.poll()
    b.model.set_field([A])
    assert b.arrive() == ARRIVED
    assert bytes(b.cards.tags.buf[:b.cards.tags.n]) == T05


def test_a_locked_page_is_refused_and_named():
    b = Board([A])
    b.model.memory(A)[10] |= 1 << 5  # static lock bit L5
    why = ntag_write.write(b, A_HEX, MEMORY)
    assert why is not None and "locked" in why and "page 5" in why, why


def test_a_read_only_or_a_full_sticker_is_refused():
    b = Board([A])
    b.model.memory(A)[15] = 0x0F  # CC: no write access
    why = ntag_write.write(b, A_HEX, MEMORY)
    assert why is not None and "read-only" in why, why
    b = Board([A])
    b.model.memory(A)[14] = 0x02  # CC: a data area of 16 bytes
    why = ntag_write.write(b, A_HEX, MEMORY)
    assert why is not None and "full" in why and "16 bytes" in why and "24" in why, why


def test_no_card_another_card_or_no_ntag_is_refused():
    why = ntag_write.write(Board([]), A_HEX, MEMORY)
    assert why is not None and "no card" in why, why
    why = ntag_write.write(Board([C4]), A_HEX, MEMORY)
    assert why is not None and "DEADBEEF lies on the reader, not " + A_HEX in why, why
    why = ntag_write.write(Board([C4]), "DEADBEEF", MEMORY)
    assert why is not None and "not an NTAG" in why, why
