# Cards read whatever the chip does with the CRC bytes of an answer, a card at the edge of the
# field is read or ignored and never taken for two cards, and a failed read allocates nothing.
# Plain test_* functions with assert: the same file runs under pytest (CPython) and under the
# MicroPython unix port (where heap_lock makes any allocation a MemoryError).


import app
from heap_lock import without_allocating
from cards import ARRIVED, LEFT, NONE, CardWatcher
from fake_spi import FakePin, FakeSPI, RegisterChip
from mfrc522 import FAILED, MFRC522
import mfrc522_extra
import mfrc522_model

A = b"\x04\x10\x20\x30\x40\x50\x60"
B = b"\x04\x91\xa2\xb3\xc4\xd5\xe6"
C4 = b"\xde\xad\xbe\xef"
C10 = b"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a"


def make(uids, keep_crc=False, real_air=True, seed=1):
    model = mfrc522_model.MFRC522Model(real_air=real_air, seed=seed, keep_crc=keep_crc)
    model.set_field(list(uids))
    reader = MFRC522(FakeSPI(model), FakePin(model.cs), FakePin(model.rst))
    reader.init()
    return model, reader


def test_a_chip_that_keeps_the_crc_in_the_fifo_reads_every_uid_size():
    for keep in (False, True):
        for uid in (C4, A, C10):
            model, reader = make([uid], keep_crc=keep)
            buf = bytearray(10)
            n = reader.read_uid(buf)
            assert bytes(buf[:n]) == uid, (keep, uid, bytes(buf[:n]))
            assert model.card_state(uid) == "HALT"
        model, reader = make([], keep_crc=keep)
        w = CardWatcher(reader, miss_limit=app.MISS_LIMIT)
        assert w.poll() == NONE
        model.set_field([A])
        assert w.poll() == ARRIVED and bytes(w.uid[:w.uid_len]) == A
        assert [w.poll() for _ in range(5)] == [NONE] * 5 and w.errors == 0


def test_the_sak_crc_the_driver_checks_is_the_one_the_chip_computes():
    # the kept CRC_A of a SAK is checked in software: the same value as CalcCRC (10.3.1.4)
    from mfrc522 import _crc_a1

    model, reader = make([])
    for b in (0x00, 0x04, 0x08, 0x20, 0x28, 0x88, 0xFF):
        assert _crc_a1(b) == mfrc522_extra.calc_crc(reader, bytes((b,))), b
    assert _crc_a1(0x08) == mfrc522_model.crc_a(b"\x08")


def test_a_marginal_card_is_read_or_ignored_never_two_cards():
    for keep in (False, True):
        for seed in (1, 2, 3):
            model, reader = make([], keep_crc=keep, seed=seed)
            w = CardWatcher(reader, miss_limit=app.MISS_LIMIT)
            model.set_field([A])
            model.set_bit_errors(A, 40)  # at the edge: weak answers, bits misread
            model.set_edge(A, 50)  # and unpowered now and then
            arrived = left = crowded = 0
            for _ in range(600):  # 12 s of polls every 20 ms
                ev = w.poll()
                arrived += ev == ARRIVED
                left += ev == LEFT
                crowded += w.crowded
            assert (arrived, left, crowded) == (1, 0, 0), (keep, seed, arrived, left, crowded)
            assert w.errors > 10 and w.ok and w.reinits == 0, (keep, seed, w.errors)
            assert bytes(w.uid[:w.uid_len]) == A


def test_two_cards_are_still_two_cards_whatever_the_chip_does_with_the_crc():
    for keep in (False, True):
        for seed in (1, 2, 3, 4):
            model, reader = make([A, B], keep_crc=keep, seed=seed)
            w = CardWatcher(reader, miss_limit=app.MISS_LIMIT)
            ev = [w.poll() for _ in range(40)]
            assert ARRIVED not in ev and w.crowded, (keep, seed, ev)
            model.set_field([A])
            assert w.poll() == ARRIVED and not w.crowded, (keep, seed)


def test_a_marginal_card_beside_another_is_still_two_cards():
    model, reader = make([A, C4], seed=5)
    model.set_bit_errors(A, 40)
    w = CardWatcher(reader, miss_limit=app.MISS_LIMIT)
    ev = [w.poll() for _ in range(40)]
    assert ARRIVED not in ev and w.crowded, ev


class AirChip(RegisterChip):
    """An MFRC522 whose card answers from a table prepared beforehand, one row per Transceive
    (ComIrqReg, ErrorReg, the answer's bytes), written not to allocate, so failed reads can
    run with the heap locked."""

    def __init__(self, rows):
        super().__init__()
        self.rows = rows
        self.row = 0
        self.level = 0
        self.data = b""
        self.pos = 0

    def _get(self, reg):
        if reg == 0x0A:
            return self.level
        if reg == 0x09:
            v = self.data[self.pos] if self.pos < len(self.data) else 0
            self.pos += 1
            return v
        return self.regs[reg]

    def _put(self, reg, v):
        if reg == 0x09:
            self.level += 1
        elif reg == 0x0A:
            if v & 0x80:
                self.level = 0
        elif reg == 0x04:
            self.regs[0x04] &= ~v & 0x7F  # Set1 = 0: clear the bits written as 1
        elif reg == 0x01:
            if v == 0x04:  # Transmit (HLTA): the frame is out
                self.regs[0x04] |= 0x40
        elif reg == 0x0D and v & 0x80:  # StartSend: the card's answer, from the table
            irq, err, data = self.rows[self.row]
            self.row = (self.row + 1) % len(self.rows)
            self.regs[0x04] |= irq
            self.regs[0x06] = err
            self.data = data
            self.level = len(data)
            self.pos = 0
        elif reg != 0x06:
            self.regs[reg] = v


_RX = 0x20  # RxIRq
_TIMER = 0x01  # TimerIRq
_PARITY = 0x02  # ErrorReg ParityErr
_ATQA = (_RX, 0, b"\x04\x00")
_CL = (_RX, 0, C4 + bytes((C4[0] ^ C4[1] ^ C4[2] ^ C4[3],)))
_SAK_CRC = mfrc522_model.crc_a(b"\x08")
# every way a read of one card fails on the air, then a clean read with the CRC kept in the FIFO
ROWS = (
    (_RX, _PARITY, b"\x04"),  # a garbled ATQA
    _ATQA, (_RX, _PARITY, b"\xde\xad"),  # a garbled anticollision answer
    _ATQA, (_TIMER, 0, b""),  # the card stopped answering in the anticollision
    _ATQA, (_RX, 0, C4 + b"\x00"),  # a wrong BCC
    _ATQA, (_RX, 0, b"\xde\xad\xbe"),  # an answer too short
    _ATQA, _CL, (_TIMER, 0, b""),  # the card stopped answering at SELECT
    _ATQA, _CL, (_RX, 0, bytes((0x08, _SAK_CRC & 0xFF, (_SAK_CRC >> 8) ^ 1))),  # SAK, bad CRC
    _ATQA, _CL, (_RX, 0, b"\x08\x00"),  # a SAK of two bytes
    _ATQA, _CL, (_RX, 0, bytes((0x08, _SAK_CRC & 0xFF, _SAK_CRC >> 8))),  # read, CRC kept
)


def test_failed_reads_allocate_nothing():
    chip = AirChip(ROWS)
    reader = MFRC522(FakeSPI(chip), FakePin(chip.cs))
    reader.init()
    w = CardWatcher(reader, miss_limit=app.MISS_LIMIT, error_limit=3)
    buf = bytearray(10)
    events = bytearray(9 * 4)
    # warm up outside the lock: the driver straight, then a whole round of the table
    reader.read_start()
    n = reader.read_step(buf)
    assert n == FAILED and "receive error" in reader.error_text(), (n, reader.error_text())
    chip.row = 0
    warm = [w.poll() for _ in range(9)]
    assert warm == [NONE] * 8 + [ARRIVED], warm

    def rounds():
        for i in range(len(events)):
            events[i] = w.poll()

    without_allocating(rounds)
    # each round of the table: eight failed reads, then the card, which stays (no event)
    assert list(events) == [NONE] * 36, list(events)
    assert w.present and bytes(w.uid[:w.uid_len]) == C4 and not w.crowded
    assert w.errors == 8 * 5 and w.ok and w.reinits == 0, (w.errors, w.reinits)
    assert "SAK at CL1" in w.last_error, w.last_error
