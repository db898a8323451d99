# CardWatcher: arrival/departure events from per-poll reads. Plain test_* functions with assert,
# run by pytest (CPython) and by the MicroPython unix port.

import micropython

from cards import ARRIVED, LEFT, NONE, CardWatcher
from fake_spi import FakePin, FakeSPI
from mfrc522 import MFRC522
import mfrc522_model

A = b"\x04\x10\x20\x30\x40\x50\x60"
B = b"\xca\xfe\xba\xbe"


class ScriptedReader:
    """A reader whose reads answer from a script: bytes = that card, None = no card,
    an OSError instance = raise it. init() raises while init_error is set. A read is one
    read_start() and one read_step() (the real driver's steps are tested with it below)."""

    def __init__(self, script=()):
        self.script = list(script)
        self.current = None  # answer when the script has run out
        self.inits = 0
        self.init_error = None
        self.init_waits = []

    def read_start(self):
        pass

    def ahead(self):  # no frame goes out ahead: each step is a whole exchange
        return False

    def read_step(self, into):
        return self.read_uid(into)

    def read_uid(self, into):
        answer = self.script.pop(0) if self.script else self.current
        if answer is None:
            return 0
        if isinstance(answer, OSError):
            raise answer
        for i in range(len(answer)):
            into[i] = answer[i]
        return len(answer)

    def init(self, wait_ms=50):
        self.inits += 1
        self.init_waits.append(wait_ms)
        if self.init_error is not None:
            raise self.init_error


def events(watcher, polls):
    return [watcher.poll() for _ in range(polls)]


def make_real(uids, version=0x92):
    model = mfrc522_model.MFRC522Model(version)
    model.set_field(uids)
    reader = MFRC522(FakeSPI(model), FakePin(model.cs), FakePin(model.rst))
    reader.init()
    return model, reader


def test_constants():
    assert (NONE, ARRIVED, LEFT) == (0, 1, 2)


def test_arrival_once_departure_once_with_real_driver():
    model, reader = make_real([])
    w = CardWatcher(reader)
    assert events(w, 5) == [NONE] * 5
    assert not w.present
    model.set_field([A])
    ev = events(w, 200)  # twenty seconds of a card lying there
    assert ev[0] == ARRIVED and ev[1:] == [NONE] * 199
    assert w.present and bytes(w.uid[:w.uid_len]) == A
    model.set_field([])
    ev = events(w, 50)
    assert ev.count(LEFT) == 1 and ev.count(ARRIVED) == 0
    assert ev.index(LEFT) == 1  # after miss_limit = 2 consecutive misses
    assert not w.present
    assert bytes(w.uid[:w.uid_len]) == A  # the card that just left
    assert w.errors == 0 and w.ok


def test_single_missed_read_causes_no_event():
    r = ScriptedReader([A, A, None, A, A, None, A])
    w = CardWatcher(r)
    assert events(w, 7) == [ARRIVED, NONE, NONE, NONE, NONE, NONE, NONE]
    assert w.present


def test_single_missed_read_with_real_driver():
    model, reader = make_real([A])
    w = CardWatcher(reader)
    assert w.poll() == ARRIVED
    model.set_field([])  # the card slid off for one read ...
    assert w.poll() == NONE
    model.set_field([A])  # ... and back; it enters the field IDLE again
    assert events(w, 10) == [NONE] * 10


def test_miss_limit_respected():
    r = ScriptedReader([B, None, None, None, None])
    w = CardWatcher(r, miss_limit=4)
    assert events(w, 5) == [ARRIVED, NONE, NONE, NONE, LEFT]


def test_card_swap_gives_left_then_arrived():
    model, reader = make_real([A])
    w = CardWatcher(reader)
    assert events(w, 3) == [ARRIVED, NONE, NONE]
    model.set_field([B])
    assert w.poll() == LEFT
    assert bytes(w.uid[:w.uid_len]) == A
    assert w.poll() == ARRIVED
    assert bytes(w.uid[:w.uid_len]) == B
    assert events(w, 5) == [NONE] * 5


def test_a_swap_reports_the_new_card_from_the_same_read():
    # one read finds B where A lay: LEFT now, ARRIVED at the very next step with no second read
    # (the script has run out: another read would find nothing), a poll period sooner
    r = ScriptedReader([A, B])
    w = CardWatcher(r)
    assert w.poll() == ARRIVED
    assert w.poll() == LEFT and bytes(w.uid[:w.uid_len]) == A
    assert w.reading  # the loop comes back at once
    assert w.step() == ARRIVED and bytes(w.uid[:w.uid_len]) == B
    assert not w.reading and w.present
    assert events(w, 3) == [NONE, LEFT, NONE]  # then gone after two missed reads


def test_same_card_back_after_leaving_arrives_again():
    r = ScriptedReader([A, None, None, A])
    w = CardWatcher(r)
    assert events(w, 4) == [ARRIVED, NONE, LEFT, ARRIVED]


def test_errors_are_neither_hits_nor_misses():
    err = OSError("card stopped answering")
    r = ScriptedReader([A, err, None, err, err, A, None, err, None])
    w = CardWatcher(r, miss_limit=2, error_limit=5)
    assert events(w, 9) == [ARRIVED, NONE, NONE, NONE, NONE, NONE, NONE, NONE, LEFT]
    assert w.errors == 4 and w.reinits == 0


def test_errors_trigger_reinit_after_limit():
    err = OSError("MFRC522 receive error: ErrorReg=0x01")
    r = ScriptedReader([err] * 4)
    w = CardWatcher(r, error_limit=5)
    assert events(w, 4) == [NONE] * 4
    assert w.reinits == 0 and w.ok  # a few failed reads are noise, not yet a reader fault
    assert "ErrorReg" in w.last_error
    r.script = [err]
    assert w.poll() == NONE
    assert w.reinits == 1 and r.inits == 1 and w.errors == 5 and not w.ok
    r.current = B
    assert w.poll() == ARRIVED
    assert w.ok
    # a good read resets the run: four more errors do not re-init
    r.script = [err] * 4
    events(w, 4)
    assert w.reinits == 1


def test_failing_reinit_is_retried_and_never_raises():
    err = OSError("MFRC522 not answering: FIFO holds 0 bytes after writing 1")
    r = ScriptedReader()
    r.current = err
    r.init_error = OSError("MFRC522 not answering: VersionReg=0x00")
    w = CardWatcher(r, error_limit=3)
    assert events(w, 30) == [NONE] * 30
    assert r.inits == 10 and w.reinits == 10
    assert w.errors == 40  # 30 failed reads + 10 failed re-inits
    assert not w.ok and "VersionReg=0x00" in w.last_error
    # the reader recovers
    r.init_error = None
    r.current = A
    assert w.poll() == ARRIVED and w.ok


def test_dead_reader_never_raises_out_of_poll():
    for version in (0x00, 0xFF):
        model = mfrc522_model.MFRC522Model(version)
        model.set_field([A])
        reader = MFRC522(FakeSPI(model), FakePin(model.cs))  # no RST: re-inits are instant
        w = CardWatcher(reader, error_limit=2)
        assert events(w, 24) == [NONE] * 24
        assert w.errors == 36 and w.reinits == 12  # 24 failed reads, 12 failed re-inits
        assert not w.ok and "not answering" in w.last_error
        # the wiring is fixed: the chip answers but is not set up (reads time out) until the
        # next re-init; then the card arrives
        model.version = 0x92
        ev = events(w, 4)
        assert ev.count(ARRIVED) == 1, ev
        assert w.ok and bytes(w.uid[:w.uid_len]) == A


def test_bad_limits_rejected():
    for kw in ({"miss_limit": 0}, {"error_limit": 0}):
        try:
            CardWatcher(ScriptedReader(), **kw)
        except ValueError:
            continue
        raise AssertionError("no ValueError for %r" % (kw,))


def test_steady_polls_do_not_allocate():
    r = ScriptedReader()
    w = CardWatcher(r)
    r.current = A
    w.poll()
    micropython.heap_lock()
    try:
        for _ in range(20):
            w.poll()
    finally:
        micropython.heap_unlock()
    r.current = None
    micropython.heap_lock()
    try:
        a = w.poll()
        b = w.poll()
        c = w.poll()
    finally:
        micropython.heap_unlock()
    assert (a, b, c) == (NONE, LEFT, NONE)
