# A sticker's NDEF message read as its card arrives (ntag.py behind cards.CardWatcher): the
# driver against the chip's model with NTAG213 memory, a 4-byte card and a blank sticker that
# carry nothing, a message too long to carry whole, random user memory that never breaks a read,
# and the read itself run with the heap locked against a hand-written chip. Plain test_*
# functions with assert: the same file runs under pytest and under the MicroPython unix port.

import gc

from cards import ARRIVED, LEFT, NONE, CardWatcher
from fake_spi import FakePin, FakeSPI, RegisterChip
from heap_lock import without_allocating
from mfrc522 import MFRC522
import mfrc522_model
from ntag import BUSY, NtagReader

A = b"\x04\x10\x20\x30\x40\x50\x60"
B = b"\x04\x91\xa2\xb3\xc4\xd5\xe6"
C4 = b"\xde\xad\xbe\xef"
# the NDEF message of one short URI record, upref:updown/T05 (docs/tags.md)
T05 = b"\xd1\x01\x11U\x00upref:updown/T05"


def make(uids, keep_crc=False):
    model = mfrc522_model.MFRC522Model(keep_crc=keep_crc)
    model.set_field(list(uids))
    spi = FakeSPI(model)
    reader = MFRC522(spi, FakePin(model.cs), FakePin(model.rst))
    reader.init()
    return model, reader, CardWatcher(reader, miss_limit=3, tags=NtagReader(reader))


def write_user(model, uid, data, at=16):
    """data into the NTAG's memory from byte `at` (page 4 by default)."""
    m = model.memory(uid)
    for i in range(len(data)):
        m[at + i] = data[i]


def arrive(w, limit=20):
    for _ in range(limit):
        ev = w.poll()
        if ev != NONE:
            return ev
    return NONE


def test_a_sticker_s_record_arrives_with_its_card():
    model, reader, w = make([A])
    write_user(model, A, b"\x03" + bytes((len(T05),)) + T05 + b"\xfe")
    assert arrive(w) == ARRIVED
    assert bytes(w.uid[:w.uid_len]) == A
    assert w.tags.length == len(T05) and bytes(w.tags.buf[:w.tags.n]) == T05
    assert model.card_state(A) == "ACTIVE"  # read, and halted by the next read as any card
    for _ in range(5):
        assert w.poll() == NONE  # it lies there: read again, not arriving again
    model.set_field([])
    assert [w.poll() for _ in range(3)][-1] == LEFT


def test_null_and_lock_control_tlvs_before_the_message_are_skipped():
    model, reader, w = make([A])
    # a NULL TLV, a Lock Control TLV (01h, 3 bytes), then the message
    write_user(model, A, b"\x00\x01\x03\xa0\x0c\x34\x03" + bytes((len(T05),)) + T05 + b"\xfe")
    assert arrive(w) == ARRIVED
    assert bytes(w.tags.buf[:w.tags.n]) == T05


def test_a_blank_sticker_and_a_mifare_card_carry_nothing():
    model, reader, w = make([A])
    assert arrive(w) == ARRIVED
    assert w.tags.length == 0 and w.tags.n == 0  # a blank NTAG213: 03 00 FE
    model, reader, w = make([C4])
    before = model.transceives
    assert arrive(w) == ARRIVED
    assert w.tags.length == -1
    assert model.transceives - before == 3  # WUPA, anticollision, SELECT: no READ


def test_a_sticker_not_formatted_for_ndef_carries_nothing():
    model, reader, w = make([A])
    write_user(model, A, b"\x00\x00\x00\x00", at=12)  # no capability container
    assert arrive(w) == ARRIVED and w.tags.length == -1


def test_a_message_too_long_to_carry_arrives_cut_with_its_length():
    model, reader, w = make([A])
    long = bytes(range(100))
    write_user(model, A, b"\x03" + bytes((len(long),)) + long + b"\xfe")
    assert arrive(w) == ARRIVED
    assert w.tags.length == 100 and w.tags.n == 64 and bytes(w.tags.buf[:64]) == long[:64]


def test_a_message_read_over_every_read_arrives_whole_whether_the_chip_keeps_the_crc_or_not():
    # 60 bytes behind a TLV and before the terminator: the FAST_READ's 28 bytes, then a READ of
    # 16 at each of the three places after it; with the CRC_A left in the FIFO it is checked and
    # no byte of the memory is lost to it
    message = bytes((7 * i + 3) & 0xFF for i in range(60))
    for keep in (False, True):
        model, reader, w = make([A], keep_crc=keep)
        write_user(model, A, b"\x03" + bytes((len(message),)) + message + b"\xfe")
        assert arrive(w) == ARRIVED, keep
        assert w.tags.length == 60 and bytes(w.tags.buf[:60]) == message, keep


def test_a_read_whose_frames_go_out_ahead_reads_the_same_card_and_record_with_no_exchange_more():
    # the board's loop, out of time before its next scan, sends the read's next frame ahead
    # (CardWatcher.ahead) and takes the answer at its next step: each exchange, the sticker's
    # FAST_READ among them, then has its frame's time on the air behind it
    for keep in (False, True):
        model, reader, w = make([A], keep_crc=keep)
        write_user(model, A, b"\x03" + bytes((len(T05),)) + T05 + b"\xfe")
        plain = model.transceives
        assert arrive(w) == ARRIVED and w.tags.length == len(T05)
        plain = model.transceives - plain
        model.set_field([])
        while w.poll() != LEFT:
            pass
        model, reader, w = make([A], keep_crc=keep)
        write_user(model, A, b"\x03" + bytes((len(T05),)) + T05 + b"\xfe")
        start, ahead, ev = model.transceives, 0, NONE
        for _ in range(20):
            ev = w.step()
            if ev != BUSY:
                break
            sent = model.transceives
            w.ahead()  # the next frame out, and back at once: its answer is the next step's
            assert reader._sent_at is not None or reader._st == 0, keep  # out, or no exchange came next
            ahead += model.transceives - sent
        assert ev == ARRIVED and bytes(w.uid[:w.uid_len]) == A, (keep, ev)
        assert w.tags.length == len(T05) and bytes(w.tags.buf[:w.tags.n]) == T05, keep
        assert model.transceives - start == plain and ahead >= 4, (keep, plain, ahead)


def test_no_frame_goes_out_ahead_when_no_read_is_under_way_or_the_next_frame_wants_no_answer():
    model, reader, w = make([A])
    assert not reader.ahead()  # no read begun
    assert arrive(w) == ARRIVED
    assert not reader.ahead()  # the read is over
    reader.read_start()  # the card read last is halted first: HLTA is answered by no card
    assert not reader.ahead() and reader._sent_at is None
    before = model.transceives
    w.ahead()  # a watcher with no read under way sends nothing
    assert model.transceives == before


def test_a_card_gone_in_the_middle_of_its_read_still_arrives_without_a_message():
    model, reader, w = make([A])
    write_user(model, A, b"\x03" + bytes((len(T05),)) + T05 + b"\xfe")
    reads = []

    def pull():
        reads.append(1)
        if len(reads) == 6:  # WUPA, 2 anticollisions, 2 SELECTs, then the first READ
            model.set_field([])

    model.on_transceive = pull
    assert arrive(w) == ARRIVED
    assert w.tags.length == -1


def test_random_user_memory_never_breaks_a_read():
    model, reader, w = make([B])
    seed = 12345
    for round_ in range(60):
        m = model.memory(B)
        for i in range(12, 160):  # the CC, the user memory and the dynamic lock bytes
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            m[i] = (seed >> 16) & 0xFF
        if round_ % 3 == 0:
            m[12] = 0xE1  # mostly a valid CC, so the TLVs are read
            m[16] = 0x03
        model.set_field([B])
        assert arrive(w) == ARRIVED, round_
        assert -1 <= w.tags.length <= 0xFFFF and 0 <= w.tags.n <= 64
        assert w.tags.n <= w.tags.length or w.tags.length == -1
        model.set_field([])
        assert arrive(w) == LEFT, round_
    gc.collect()


class NtagChip(RegisterChip):
    """A hand-written MFRC522 with one NTAG in the field that answers READ and FAST_READ only,
    written not to allocate: proves the read of a sticker's memory allocates nothing."""

    def __init__(self, memory):
        RegisterChip.__init__(self)
        self.mem = memory
        self.fifo = bytearray(64)
        self.level = 0
        self.out = 0

    def _get(self, reg):
        if reg == 0x09:
            v = self.fifo[self.out]
            self.out += 1
            return v
        if reg == 0x0A:
            return self.level - self.out
        return self.regs[reg]

    def _put(self, reg, v):
        if reg == 0x0A:
            if v & 0x80:
                self.level = 0
                self.out = 0
        elif reg == 0x09:
            self.fifo[self.level] = v
            self.level += 1
        elif reg == 0x04:
            self.regs[4] = 0 if not v & 0x80 else self.regs[4] | (v & 0x7F)
        else:
            self.regs[reg] = v
            if reg == 0x0D and v & 0x80 and self.regs[1] == 0x0C:
                self._answer()

    def _answer(self):
        page = self.fifo[1]
        n = 4 * (self.fifo[2] - page + 1) if self.fifo[0] == 0x3A else 16
        for i in range(n):
            self.fifo[i] = self.mem[(page * 4 + i) % 180]
        self.level = n
        self.out = 0
        self.regs[0x04] = 0x30  # RxIRq, IdleIRq
        self.regs[0x06] = 0
        self.regs[0x0C] = 0


def test_reading_a_sticker_allocates_nothing():
    memory = bytearray(180)
    memory[12] = 0xE1
    memory[16] = 0x03
    memory[17] = len(T05)
    for i in range(len(T05)):
        memory[18 + i] = T05[i]
    memory[18 + len(T05)] = 0xFE
    chip = NtagChip(memory)
    reader = MFRC522(FakeSPI(chip), FakePin(chip.cs), FakePin())
    reader.sak = 0
    tags = NtagReader(reader)
    steps = [0]

    def read():
        if tags.start(7):
            while tags.step() == BUSY:
                steps[0] += 1

    read()  # once outside the lock: every path taken
    without_allocating(read)
    assert tags.length == len(T05) and bytes(tags.buf[:tags.n]) == T05
    assert steps[0] == 0  # one exchange: pages 3 to 10 hold a piece's record whole
    long = bytes(range(40))
    memory[17] = len(long)
    for i in range(len(long)):
        memory[18 + i] = long[i]
    memory[18 + len(long)] = 0xFE
    without_allocating(read)  # and a longer message: READs of four pages after it
    assert tags.length == 40 and bytes(tags.buf[:tags.n]) == long
    assert steps[0] == 1
    gc.collect()
