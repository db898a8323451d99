# Several cards on the reader as the host hears of them: a FAULT of the field while they lie
# there (and `cards` in the snapshot's faults), no card taken, and CLEAR before the card left
# is reported. The reader here answers as the MFRC522 driver does on real air with two cards
# (mostly garbled reads, and now and then a clean collision that one card wins; test_rfid_air.py
# runs the driver itself against the chip's model). Runs under pytest and under the MicroPython
# unix port.

import gc

import app
from fake_board import FakeHw
import service  # HELLO and SNAP are sent by the board's service side

B = b"\x04\x91\xa2\xb3\xc4\xd5\xe6"


class AirReader:
    """A reader whose reads, while `crowded`, fail garbled twice and then hear a clean
    collision that card B wins; else they find `card` (or nothing). The chip itself keeps
    answering (alive)."""

    def __init__(self):
        self.version = 0x92
        self.crowded = False
        self.card = None
        self.collided = False
        self.garbled = False
        self.reads = 0

    def error_text(self):
        return "MFRC522 receive error: parity, CRC or FIFO overflow (ErrorReg)"

    def init(self, wait_ms=50):
        pass

    def alive(self):
        return True

    def read_start(self):
        self.collided = False
        self.garbled = False

    def ahead(self):  # no frame goes out ahead: each step is a whole exchange
        return False

    def read_step(self, into):
        self.reads += 1
        if self.crowded and self.reads % 3:
            self.garbled = True
            return -2  # FAILED
        if self.crowded:
            self.collided = True
            for i in range(len(B)):
                into[i] = B[i]
            return len(B)
        if self.card is None:
            return 0
        for i in range(len(self.card)):
            into[i] = self.card[i]
        return len(self.card)


def test_two_cards_reach_the_host_as_a_fault_of_the_field_and_clear_when_one_is_taken():
    gc.collect()  # the MicroPython run's heap is capped near the board's
    hw = FakeHw()
    reader = AirReader()
    hw.reader = reader
    a = app.App(hw, calib_path="/tmp/upref-test-air-calib.json")
    a.boot()
    a.out.flush()
    hw.port.frames()
    reader.crowded = True
    for _ in range(30):
        a.poll_rfid()
    assert a.cards.ok and a.cards.reinits == 0  # the air's errors, not the reader's
    service.snapshot(a)
    a.out.flush()
    frames = hw.port.frames()
    assert frames[0] == ("FAULT", ["rfid", "field", "two", "cards", "on", "the", "reader"]), frames
    assert len(frames) == 2  # nothing else: no card taken
    snap = dict(x.split("=", 1) for x in frames[1][1])
    assert snap["faults"] == "cards" and snap["card"] == "-"
    reader.crowded = False
    reader.card = B
    for _ in range(5):
        a.poll_rfid()
    a.out.flush()
    assert hw.port.frames() == [("CLEAR", ["rfid", "field"]), ("CARD", ["+", "0491A2B3C4D5E6"])]
