# The firmware side of the wire format against the shared test vectors (tests/vectors/frames.json),
# which the host tests read too. Runs under pytest and under the MicroPython unix port.
import json

import wire
from fake_hall import root

with open(root() + "/tests/vectors/frames.json") as _f:
    VECTORS = json.load(_f)


class Sink:
    def __init__(self):
        self.data = bytearray()

    def write(self, buf, n):
        self.data.extend(buf[:n])


def encode(seq, ftype, args):
    s = Sink()
    w = wire.FrameWriter(s)
    w.seq = seq
    w.begin(ftype.encode())
    for a in args:
        w.arg(a.encode())
    w.end()
    return bytes(s.data)


def test_every_valid_vector_encodes_byte_for_byte():
    for v in VECTORS["valid"]:
        got = encode(v["seq"], v["type"], v["args"])
        assert got == v["bytes"].encode(), (v["meaning"], got)


def test_every_valid_vector_checks_and_splits_to_its_meaning():
    for v in VECTORS["valid"]:
        line = v["bytes"].encode().rstrip(b"\r\n")
        buf = bytearray(line)
        star = wire.check(buf, len(buf))
        assert star > 0, v["meaning"]
        seq, ftype, args = wire.split(buf, star)
        assert seq == v["seq"] and ftype == v["type"] and args == v["args"], v["meaning"]


def test_invalid_vectors_are_refused_with_the_right_error():
    want = {"crc": wire.ERR_CRC, "shape": wire.ERR_SHAPE, "long": wire.ERR_LONG}
    for v in VECTORS["invalid"]:
        line = v["bytes"].encode().rstrip(b"\r\n")
        buf = bytearray(line)
        got = wire.check(buf, len(buf))
        if v["error"] in want:
            assert got == want[v["error"]], (v["meaning"], got)
        elif v["error"] == "junk":
            assert got == wire.ERR_SHAPE, v["meaning"]  # not a frame at all
        elif v["error"] == "unknown":
            assert got > 0, v["meaning"]  # well formed; the receiver's type table refuses it
            _, ftype, _ = wire.split(buf, got)  # (the host's tables: tests/host/link/test_protocol.py)
            assert ftype not in [w["type"] for w in VECTORS["valid"]], v["meaning"]


def test_line_reader_splits_lines_and_drops_overlong_ones():
    r = wire.LineReader()
    got = []
    data = b"@0001 SNAP*ABCD\r\n" + b"x" * 300 + b"\n\r\n@0002 HELLO*0000\n"
    for c in data:
        if r.feed(c):
            got.append(bytes(r.buf[: r.n]))
    assert got == [b"@0001 SNAP*ABCD", b"@0002 HELLO*0000"]
    assert r.overlong == 1


def test_frame_writer_cuts_an_oversized_frame_but_keeps_it_well_formed():
    s = Sink()
    w = wire.FrameWriter(s)
    w.begin(b"ECHO")
    w.arg(b"y" * 400)
    w.end()
    line = bytes(s.data)
    assert len(line) <= wire.MAX_LINE
    buf = bytearray(line.rstrip(b"\r\n"))
    assert wire.check(buf, len(buf)) > 0


def test_sequence_numbers_advance_and_wrap():
    s = Sink()
    w = wire.FrameWriter(s)
    w.seq = 0xFFFF
    w.begin(b"BTN")
    w.arg_int(1)
    w.end()
    w.begin(b"BTN")
    w.arg_int(0)
    w.end()
    lines = bytes(s.data).split(b"\r\n")
    assert lines[0].startswith(b"@FFFF BTN 1*")
    assert lines[1].startswith(b"@0000 BTN 0*")


def test_numbers_encode_in_decimal_including_zero_and_negatives():
    s = Sink()
    w = wire.FrameWriter(s)
    w.begin(b"HB")
    w.kv(b"a", 0)
    w.kv(b"b", 1073741823)
    w.kv(b"c", -42)
    w.end()
    assert bytes(s.data).startswith(b"@0000 HB a=0 b=1073741823 c=-42*")


def test_frame_writer_allocates_nothing_with_the_heap_locked():
    import micropython

    class NullOut:
        def __init__(self):
            self.n = 0

        def write(self, buf, n):
            self.n += n

    out = NullOut()
    w = wire.FrameWriter(out)
    micropython.heap_lock()
    try:
        for i in range(50):
            w.begin(b"HOLE")
            w.arg_int(i % 10 + 1)
            w.arg_int(i)
            w.end()
    finally:
        micropython.heap_unlock()
    assert w.frames == 50 and out.n > 50 * 12
