# Fast card reads and what the air does to them: the chip's own CRC_A and one-transaction FIFO
# writes, the UID from the last SELECT with the halt left to the next read, several cards on
# the reader (a clean collision, or garbled answers as on real air), a card at the edge of the
# field, receive errors that are not a reader fault. Plain test_* functions with assert: the
# same file runs under pytest (CPython) and under the MicroPython unix port.

import app
from cards import ARRIVED, LEFT, NONE, CardWatcher
from fake_spi import FakePin, FakeSPI
from mfrc522 import BUSY, MFRC522
import mfrc522_model

A = b"\x04\x10\x20\x30\x40\x50\x60"
B = b"\x04\x91\xa2\xb3\xc4\xd5\xe6"
C4 = b"\xde\xad\xbe\xef"
_FIFO_WRITE = (0x09 << 1) & 0x7E  # FIFODataReg, written
_CMD_WRITE = (0x01 << 1) & 0x7E  # CommandReg, written
_TX_MODE_WRITE = (0x12 << 1) & 0x7E
_RX_MODE_WRITE = (0x13 << 1) & 0x7E


class RecordingSPI(FakeSPI):
    def __init__(self, model):
        FakeSPI.__init__(self, model)
        self.sent = []

    def write(self, buf):
        self.sent.append(bytes(buf))
        FakeSPI.write(self, buf)

    def write_readinto(self, tx, rx):
        self.sent.append(bytes(tx))
        FakeSPI.write_readinto(self, tx, rx)


def make(uids, real_air=False, seed=1, record=False):
    model = mfrc522_model.MFRC522Model(real_air=real_air, seed=seed)
    model.set_field(list(uids))
    spi = RecordingSPI(model) if record else FakeSPI(model)
    reader = MFRC522(spi, FakePin(model.cs), FakePin(model.rst))
    reader.init()
    spi.sent = []
    return model, reader, spi


def polls(w, n):
    return [w.poll() for _ in range(n)]


def test_select_and_halt_leave_the_crc_to_the_chip():
    model, reader, spi = make([A], record=True)
    buf = bytearray(10)
    assert reader.read_uid(buf) == 7 and bytes(buf[:7]) == A
    assert model.card_state(A) == "HALT"
    assert b"\x02\x03" not in spi.sent  # CommandReg never set to CalcCRC during a read
    assert bytes((_TX_MODE_WRITE, 0x80)) in spi.sent and bytes((_RX_MODE_WRITE, 0x80)) in spi.sent
    assert bytes((_TX_MODE_WRITE, 0x00)) in spi.sent  # and off again for WUPA and anticollision


def test_the_fifo_is_written_in_one_transaction():
    model, reader, spi = make([A], record=True)
    reader.read_uid(bytearray(10))
    writes = [t for t in spi.sent if t[0] == _FIFO_WRITE]
    # WUPA, anticollision CL1, SELECT CL1, anticollision CL2, SELECT CL2, HLTA
    assert [len(t) - 1 for t in writes] == [1, 2, 7, 2, 7, 2], writes
    assert writes[2][1:3] == b"\x93\x70" and writes[4][1:3] == b"\x95\x70"


def test_the_uid_comes_with_the_last_select_and_the_next_read_halts_the_card():
    model, reader, spi = make([A], record=True)
    buf = bytearray(10)
    reader.read_start()
    steps = 1
    while True:
        n = reader.read_step(buf)
        if n != BUSY:
            break
        steps += 1
    assert n == 7 and bytes(buf[:7]) == A and steps == 5  # WUPA, AC1, SEL1, AC2, SEL2
    assert model.card_state(A) == "ACTIVE"  # not halted yet: the UID can be sent first
    reader.read_start()
    assert reader.read_step(buf) == BUSY and model.card_state(A) == "HALT"
    while True:
        n = reader.read_step(buf)
        if n != BUSY:
            break
    assert n == 7 and bytes(buf[:7]) == A
    assert b"\x02\x04" in spi.sent  # HLTA is sent with Transmit: no answer is waited for


def test_two_cards_in_a_clean_collision_are_named_not_one_chosen():
    model, reader, spi = make([A, B])
    w = CardWatcher(reader, miss_limit=3)
    assert polls(w, 5) == [NONE] * 5
    assert w.crowded and not w.present and w.ok and w.reinits == 0
    model.set_field([B])
    assert w.poll() == ARRIVED and bytes(w.uid[:w.uid_len]) == B
    assert not w.crowded


def test_two_cards_on_real_air_garble_the_answers_and_are_named_not_a_reader_fault():
    for seed in (1, 2, 3, 4):
        model, reader, spi = make([A, B], real_air=True, seed=seed)
        w = CardWatcher(reader, miss_limit=3)
        ev = polls(w, 40)
        assert ARRIVED not in ev, (seed, ev)
        assert w.crowded, seed
        assert w.ok and w.reinits == 0, (seed, w.errors, w.last_error)
        model.set_field([A])
        ev = polls(w, 3)
        assert ev[0] == ARRIVED and not w.crowded, (seed, ev)


def test_a_second_card_laid_on_the_first_keeps_it_and_is_named():
    model, reader, spi = make([A], real_air=True)
    w = CardWatcher(reader, miss_limit=3)
    assert w.poll() == ARRIVED
    model.set_field([A, C4])
    ev = polls(w, 20)
    assert ev == [NONE] * 20 and w.present and w.crowded
    model.set_field([A])
    assert polls(w, 5) == [NONE] * 5 and w.present and not w.crowded


def test_a_card_at_the_edge_of_the_field_never_flaps_with_three_misses():
    model, reader, spi = make([A], real_air=True, seed=7)
    model.set_edge(A, 60)  # unpowered at more than half the reads, never three in a row
    w = CardWatcher(reader, miss_limit=app.MISS_LIMIT)
    arrived = left = 0
    for _ in range(600):  # 12 s of polls every 20 ms
        ev = w.poll()
        arrived += ev == ARRIVED
        left += ev == LEFT
    assert arrived == 1 and left == 0
    assert w.present and w.ok
    model.set_field([])
    ev = polls(w, app.MISS_LIMIT)
    assert ev.count(LEFT) == 1  # within MISS_LIMIT polls of its going


def test_receive_errors_while_the_chip_answers_are_not_a_reader_fault():
    model, reader, spi = make([A, B], real_air=True)
    w = CardWatcher(reader, error_limit=2)
    polls(w, 30)
    assert w.errors > 2 and w.ok and w.reinits == 0
    # the chip resets itself (a brown-out of the reader): its antenna is off, the reads time
    # out, and that is a fault that re-initialises it
    model.rst(0)
    model.rst(1)
    polls(w, 6)
    assert w.reinits >= 1
    model.set_field([A])
    assert ARRIVED in polls(w, 4) and w.ok
