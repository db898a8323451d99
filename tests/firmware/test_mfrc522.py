# MFRC522 driver against the register-level model. Plain test_* functions with assert: the same
# file runs under pytest (CPython) and under the MicroPython unix port.

from fake_spi import FakePin, FakeSPI, RegisterChip
from mfrc522 import MFRC522
import mfrc522_extra
import mfrc522_model
import mfrc522_setup

UID4 = b"\xde\xad\xbe\xef"
UID7 = b"\x04\xa1\xb2\xc3\xd4\xe5\x80"
UID10 = b"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a"


def make(uids=(), version=0x92, rst=True, init=True):
    model = mfrc522_model.MFRC522Model(version)
    model.set_field(list(uids))
    spi = FakeSPI(model)
    cs = FakePin(model.cs)
    rpin = FakePin(model.rst) if rst else None
    reader = MFRC522(spi, cs, rpin)
    if init:
        reader.init()
    return model, reader


def read(reader):
    buf = bytearray(10)
    n = reader.read_uid(buf)
    return bytes(buf[:n])


def raises(fn, exc=OSError):
    try:
        fn()
    except exc as e:
        return str(e)
    raise AssertionError("no %s raised" % exc.__name__)


class Rng:
    """Tiny LCG so the test does not depend on `random` (same sequence on both interpreters)."""

    def __init__(self, seed):
        self.x = seed

    def byte(self):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 16) & 0xFF


def test_read_4_byte_uid():
    model, reader = make([UID4])
    assert reader.version == 0x92
    assert read(reader) == UID4
    assert model.card_state(UID4) == "HALT"


def test_read_7_byte_uid():
    model, reader = make([UID7])
    assert read(reader) == UID7
    assert model.card_state(UID7) == "HALT"


def test_read_10_byte_uid():
    model, reader = make([UID10])
    assert read(reader) == UID10


def test_atqa_values():
    for uid, atqa in ((UID4, 0x0004), (UID7, 0x0044), (UID10, 0x0084)):
        model, reader = make([uid])
        assert mfrc522_extra.request(reader) == atqa


def test_no_card_returns_zero():
    model, reader = make([])
    buf = bytearray(10)
    assert reader.read_uid(buf) == 0
    assert mfrc522_extra.request(reader) is None
    assert mfrc522_extra.request(reader, wakeup=True) is None


def test_card_read_repeatedly_while_lying_there():
    model, reader = make([UID7])
    for _ in range(5):
        assert read(reader) == UID7


def test_halt_then_reqa_misses_and_wupa_finds():
    model, reader = make([UID4])
    assert read(reader) == UID4  # read_uid ends with HLTA
    assert mfrc522_extra.request(reader, wakeup=False) is None
    assert mfrc522_extra.request(reader, wakeup=True) == 0x0004
    buf = bytearray(10)
    assert mfrc522_extra.select(reader, buf) == 4 and bytes(buf[:4]) == UID4
    assert reader.halt() is True
    assert model.card_state(UID4) == "HALT"


def inventory(reader):
    """Select cards one at a time with REQA, halting each, until none answers."""
    found = []
    buf = bytearray(10)
    for _ in range(8):
        if mfrc522_extra.request(reader, wakeup=False) is None:
            break
        n = mfrc522_extra.select(reader, buf)
        found.append(bytes(buf[:n]))
        reader.halt()
    return found


def test_collision_selects_exactly_one_card():
    # first differing bit: byte 2 bit 2, UID B has the 1 there and wins (ISO typical choice)
    a = b"\x11\x22\x33\x44"
    b = b"\x11\x22\x37\x44"
    model, reader = make([a, b])
    assert read(reader) == b
    assert model.card_state(b) == "HALT"
    # the other card was left out of the SELECT; REQA wakes only it
    assert mfrc522_extra.request(reader, wakeup=False) == 0x0004
    buf = bytearray(10)
    n = mfrc522_extra.select(reader, buf)
    assert bytes(buf[:n]) == a
    reader.halt()
    assert mfrc522_extra.request(reader, wakeup=False) is None


def test_collision_inventory_many_pairs():
    rng = Rng(2024)
    for trial in range(40):
        uids = []
        count = 2 + trial % 3
        while len(uids) < count:
            size = (4, 7, 10)[rng.byte() % 3]
            if uids and trial % 4 == 0:
                # share a prefix with an earlier card so the collision comes late (or in CL2)
                base = uids[0]
                keep = min(len(base), size) - 1 - rng.byte() % 3
                u = bytearray(base[:keep])
                while len(u) < size:
                    u.append(rng.byte())
            else:
                u = bytearray(rng.byte() for _ in range(size))
            if size == 4 and u[0] == 0x88:
                u[0] = 0x08  # a single-size UID never starts with the cascade tag
            u = bytes(u)
            if u not in uids:
                uids.append(u)
        model, reader = make(uids)
        found = inventory(reader)
        assert sorted(found) == sorted(uids), (trial, uids, found)


def test_two_7_byte_cards_sharing_cl1_resolve_in_cl2():
    a = b"\x04\x11\x22\x30\x40\x50\x60"
    b = b"\x04\x11\x22\x30\x41\x50\x60"
    model, reader = make([a, b])
    found = inventory(reader)
    assert sorted(found) == sorted([a, b])


def test_wupa_with_two_cards_always_reads_the_same_one():
    a = b"\x11\x22\x33\x44"
    model, reader = make([a, UID7])
    first = read(reader)
    assert first in (a, UID7)
    for _ in range(3):
        assert read(reader) == first


def test_card_removed_mid_read_never_gives_a_wrong_uid():
    for uid in (UID4, UID7, UID10):
        # count the transceives of one clean read, then cut the card at each of them
        model, reader = make([uid])
        read(reader)
        total = model.transceives
        for k in range(1, total + 1):
            model, reader = make([uid])
            calls = [0]

            def hook(model=model, calls=calls, k=k):
                calls[0] += 1
                if calls[0] == k:
                    model.set_field([])

            model.on_transceive = hook
            buf = bytearray(10)
            try:
                n = reader.read_uid(buf)
                assert n == 0 or bytes(buf[:n]) == uid, (k, n, buf)
            except OSError:
                pass
            model.on_transceive = None
            model.set_field([uid])
            assert read(reader) == uid


def test_card_swapped_mid_read_gives_one_whole_uid_or_error():
    model, reader = make([UID7])
    read(reader)
    total = model.transceives
    for k in range(1, total + 1):
        model, reader = make([UID7])
        calls = [0]

        def hook(model=model, calls=calls, k=k):
            calls[0] += 1
            if calls[0] == k:
                model.set_field([UID10])

        model.on_transceive = hook
        buf = bytearray(10)
        try:
            n = reader.read_uid(buf)
            assert n == 0 or bytes(buf[:n]) in (UID7, UID10), (k, n, buf)
        except OSError:
            pass


def test_bad_bcc_is_an_error_not_a_uid():
    model, reader = make([UID7])
    card = model.card(UID7)
    cl2 = card.levels[1]
    card.levels[1] = cl2[:4] + bytes((cl2[4] ^ 0x01,))  # the card sends a wrong BCC in CL2
    msg = raises(lambda: reader.read_uid(bytearray(10)))
    assert "BCC" in msg and "CL2" in msg, msg


def test_dead_reader_reads_00():
    model, reader = make([UID4], version=0x00, init=False)
    msg = raises(reader.init)
    assert "not answering" in msg and "0x00" in msg, msg
    msg = raises(lambda: reader.read_uid(bytearray(10)))
    assert "not answering" in msg, msg


def test_dead_reader_reads_ff():
    model, reader = make([UID4], version=0xFF, init=False)
    msg = raises(reader.init)
    assert "not answering" in msg and "0xFF" in msg, msg
    msg = raises(lambda: reader.read_uid(bytearray(10)))
    assert "not answering" in msg, msg


def test_unknown_version_is_refused():
    model, reader = make([], version=0x42, init=False)
    msg = raises(reader.init)
    assert "0x42" in msg, msg


def test_clone_versions_accepted_without_rst():
    for v in (0x91, 0x88, 0x12, 0xB2):
        model, reader = make([UID4], version=v, rst=False)
        assert reader.version == v
        assert read(reader) == UID4


def test_uninitialised_chip_times_out_cleanly():
    # Without init() the timer is not armed (TAuto = 0): a request to an empty field gets
    # neither RxIRq nor TimerIRq and the driver's own bound must end it with OSError.
    model, reader = make([], init=False)
    msg = raises(lambda: mfrc522_extra.request(reader, True))
    assert "timed out" in msg, msg


def test_gain_readback():
    model, reader = make([UID4])
    assert mfrc522_setup.gain(reader) == 4  # reset value of RFCfgReg is 48h
    for level in range(8):
        mfrc522_setup.set_gain(reader, level)
        assert mfrc522_setup.gain(reader) == level
        assert model.peek(0x26) == (level << 4) | 0x08
    mfrc522_setup.set_gain(reader, 6)
    reader.init()  # a re-init keeps the chosen gain
    assert mfrc522_setup.gain(reader) == 6
    raises(lambda: mfrc522_setup.set_gain(reader, 8), ValueError)
    raises(lambda: mfrc522_setup.set_gain(reader, -1), ValueError)


def test_crc_a_vectors_through_coprocessor():
    model, reader = make([])
    assert mfrc522_extra.calc_crc(reader, b"\x00\x00") == 0x1EA0  # sent as A0 1E
    assert mfrc522_extra.calc_crc(reader, b"\x12\x34") == 0xCF26  # sent as 26 CF
    assert mfrc522_extra.calc_crc(reader, b"\x50\x00") == 0xCD57  # HLTA: 50 00 57 CD
    rng = Rng(7)
    for n in (1, 5, 16, 64):
        data = bytes(rng.byte() for _ in range(n))
        assert mfrc522_extra.calc_crc(reader, data) == mfrc522_model.crc_a(data)
    raises(lambda: mfrc522_extra.calc_crc(reader, bytes(65)), ValueError)


def test_antenna_off_no_card():
    model, reader = make([UID4])
    mfrc522_setup.antenna(reader, False)
    assert read(reader) == b""
    mfrc522_setup.antenna(reader, True)
    assert read(reader) == UID4


def test_timeout_setting():
    model, reader = make([UID4])
    mfrc522_setup.set_timeout(reader, 5)
    assert model.peek(0x2C) == 0 and model.peek(0x2D) == 200  # TReloadReg: 5 ms of 25 us ticks
    assert read(reader) == UID4
    raises(lambda: mfrc522_setup.set_timeout(reader, 0), ValueError)


def test_small_uid_buffer_rejected():
    model, reader = make([UID4])
    msg = raises(lambda: reader.read_uid(bytearray(7)), ValueError)
    assert "7" in msg


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


def test_spi_address_bytes_and_cs_framing():
    model = mfrc522_model.MFRC522Model()
    spi = RecordingSPI(model)
    levels = []

    def on_cs(v):
        levels.append(v)
        model.cs(v)

    reader = MFRC522(spi, FakePin(on_cs))
    reader.init()
    assert spi.sent[0] == b"\xee\x00"  # read VersionReg 37h: (37h << 1) | 80h
    assert spi.sent[1] == b"\x02\x0f"  # write CommandReg 01h: SoftReset
    assert levels[-1] == 1  # CS released
    # idle high, then every transaction framed: low, high, low, high ...
    assert levels[0] == 1 and levels[1:] == [0, 1] * ((len(levels) - 1) // 2)


class QuietChip(RegisterChip):
    """An MFRC522 with an empty field, written not to allocate: every Transceive ends in
    TimerIRq. Lets the driver's no-card poll run with the heap locked."""

    def __init__(self):
        super().__init__()
        self.regs[0x04] = 0x01  # ComIrqReg: TimerIRq, always
        self.fifo = 0

    def _get(self, reg):
        return self.fifo if reg == 0x0A else self.regs[reg]

    def _put(self, reg, v):
        if reg == 0x09:
            self.fifo += 1
        elif reg == 0x0A:
            if v & 0x80:
                self.fifo = 0
        elif reg != 0x01 and reg != 0x04:
            self.regs[reg] = v


def test_no_card_poll_does_not_allocate():
    import micropython

    chip = QuietChip()
    reader = MFRC522(FakeSPI(chip), FakePin(chip.cs))
    reader.init()
    buf = bytearray(10)
    assert reader.read_uid(buf) == 0
    # the loop's poll of an empty field: a read begun and stepped (read_uid, a blocking read,
    # loads its module for the call)
    results = bytearray(10)
    micropython.heap_lock()
    try:
        for i in range(10):
            reader.read_start()
            results[i] = reader.read_step(buf) + 1
    finally:
        micropython.heap_unlock()
    assert results == bytearray(b"\x01" * 10)
