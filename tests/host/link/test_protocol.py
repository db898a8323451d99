"""The host codec against the shared test vectors, plus properties with hypothesis."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from upref.link import protocol as p
from upref.link.protocol import (
    BOARD_FRAMES,
    DROP_KINDS,
    HOST_FRAMES,
    MAX_LINE,
    Frame,
    InvalidFrameError,
    LineSplitter,
    decode,
    encode_command,
    encode_event,
    encode_frame,
    parse_event,
)

VECTORS = json.loads(
    (Path(__file__).resolve().parents[2] / "vectors" / "frames.json").read_text(encoding="utf-8")
)
VALID = VECTORS["valid"]
INVALID = VECTORS["invalid"]
BOARD_VALID = [v for v in VALID if v["from"] == "board"]
HOST_VALID = [v for v in VALID if v["from"] == "host"]


def ident(v: dict) -> str:
    return v["meaning"]


def test_the_limits_come_from_the_firmware_and_the_type_tables_are_the_hosts() -> None:
    assert p.PROTO_VERSION == p.wire.PROTO_VERSION == VECTORS["proto"]
    assert p.MAX_LINE == p.wire.MAX_LINE == 200
    for v in VALID:  # every frame type the vectors hold is in its sender's table
        assert v["type"] in (p.BOARD_FRAMES if v["from"] == "board" else p.HOST_FRAMES), v["meaning"]
    assert set(p.EVENT_FRAMES) <= set(p.BOARD_FRAMES)
    # the board writes its frames and looks no type up: no table of them takes its heap
    assert not any(hasattr(p.wire, name) for name in ("BOARD_FRAMES", "HOST_FRAMES", "EVENT_FRAMES", "FAULT_KINDS"))


@pytest.mark.parametrize("v", VALID, ids=ident)
def test_valid_vector_decodes_to_its_meaning(v: dict) -> None:
    frames = BOARD_FRAMES if v["from"] == "board" else HOST_FRAMES
    frame = decode(v["bytes"].encode("ascii"), frames)
    assert (frame.seq, frame.type, list(frame.args)) == (v["seq"], v["type"], v["args"])


@pytest.mark.parametrize("v", HOST_VALID, ids=ident)
def test_encode_command_reproduces_the_exact_bytes(v: dict) -> None:
    assert encode_command(v["seq"], v["type"], *v["args"]) == v["bytes"].encode("ascii")


@pytest.mark.parametrize("v", BOARD_VALID, ids=ident)
def test_board_vector_parses_and_round_trips(v: dict) -> None:
    line = v["bytes"].encode("ascii")
    event = parse_event(decode(line))
    assert encode_event(v["seq"], event) == line
    assert encode_frame(v["seq"], v["type"], *v["args"]) == line


@pytest.mark.parametrize("v", INVALID, ids=ident)
def test_invalid_vector_raises_its_kind(v: dict) -> None:
    line = v["bytes"].encode("latin-1")
    with pytest.raises(InvalidFrameError) as info:
        decode(line)
    assert info.value.kind == v["error"]
    # the message shows the bad line
    assert repr(line.rstrip(b"\r\n")[:30])[2:-1] in str(info.value)


@pytest.mark.parametrize("v", INVALID, ids=ident)
def test_invalid_vector_through_the_splitter(v: dict) -> None:
    s = LineSplitter()
    lines = s.feed(v["bytes"].encode("latin-1"))
    assert len(lines) == 1
    with pytest.raises(InvalidFrameError) as info:
        decode(lines[0])
    assert info.value.kind == v["error"]
    assert s.overlong == (1 if v["error"] == "long" else 0)


def test_meaning_of_specific_vectors() -> None:
    events = {v["meaning"]: parse_event(decode(v["bytes"].encode())) for v in BOARD_VALID}
    hello = events["handshake at boot"]
    assert hello == p.Hello(
        "0.1.0", 1, "A4CF12345678", 10, ("hall", "rfid", "led", "buzzer", "button"), "92", "power"
    )
    snap = events["snapshot with a 7-byte card, button down, two faults"]
    assert snap == p.Snapshot(
        (13, 17, 23, 25, 26, 31, 35, 37, 39, 47), "04A1B2C3D4E5F6", True, ("s7", "h3"), presses=3
    )
    assert events["hole 4 now reads code 37"] == p.HoleChanged(4, 37)
    assert events["7-byte tag left"] == p.CardLeft("04A1B2C3D4E5F6")
    assert events["button pressed"] == p.Button(True)
    assert events["heartbeat"] == p.Heartbeat(12345, 1234, 100, 3, 0, 0, 0, 0)  # before 0.2
    assert events["heartbeat with the loop's timing"] == p.Heartbeat(
        2051, 205, 100, 3, 1, 0, 0, 0, late_ms=1, tscan_us=3480, tmax_us=4760, odrop=0)
    assert events["raw levels of hole 3"] == p.RawLevels(
        3, (32768, 45012, 20011, 32800), (32768, 32770, 32765, 32801)
    )
    assert events["command 7 done"] == p.Ok(7, "LED", "")
    err = events["calibration refused"]
    assert isinstance(err, p.Err) and err.cmd_seq == 8 and err.reason.startswith("hole 3 sensor 2")
    assert events["loopback answer"] == p.Echo(9, "hello board")
    t05 = p.TagRecord("04A1B2C3D4E5F6", 21, b"\xd1\x01\x11U\x00upref:updown/T05")
    assert events["the sticker of the card arriving next carries upref:updown/T05 (21 bytes, all read)"] == t05
    assert events["replayed: frame 0045, the record of the tag whose CARD + comes next"] == p.Old(0x45, 13020, t05)


def test_crc_is_ccitt_false_like_the_firmware() -> None:
    assert p.crc16(b"123456789") == 0x29B1
    data = b"002A HOLE 4 37"
    assert p.crc16(data) == p.wire.crc16(data, 0, len(data))


@pytest.mark.parametrize(
    "args",
    [
        ("HOLE", "x", "37"),
        ("HOLE", "4", "99"),
        ("HOLE", "11", "37"),
        ("HOLE", "0", "37"),
        ("HOLE", "4"),
        ("HOLE", "4", "-1"),
        ("CARD", "x", "DEADBEEF"),
        ("CARD", "+", "DEADBEE"),
        ("CARD", "+", "deadbeef"),
        ("BTN", "2"),
        ("HB", "up=1", "scans=0"),
        ("HB", "up=x", "scans=0", "sps=0", "cmd=0", "bad=0", "rfe=0", "rfr=0", "flt=0"),
        ("SNAP", "holes=1,2,3", "card=-", "btn=0", "faults=-"),
        ("SNAP", "holes=0,0,0,0,0,0,0,0,0,81", "card=-", "btn=0", "faults=-"),
        ("SNAP", "holes=0,0,0,0,0,0,0,0,0,0", "card=-", "btn=0"),
        ("SNAP", "holes=0,0,0,0,0,0,0,0,0,0", "card=-", "btn=0", "faults=s1,,h2"),
        ("RAW", "3", "1,2,3", "1,2,3,4"),
        ("RAW", "3", "1,2,3,70000", "1,2,3,4"),
        ("OK", "7", "LED"),
        ("OK", "0007"),
        ("ECHO",),
        ("FAULT", "sensor"),
        ("CLEAR", "sensor", "s7", "x"),
        ("HELLO", "fw=1", "proto=1"),
        ("HELLO", "fw=1", "proto=1", "board=B", "holes=0", "caps=", "rfid=92", "reset=power"),
        ("HELLO", "fw=1", "proto=1", "board=B", "holes=10", "caps=", "rfid=xyz", "reset=power"),
    ],
)
def test_malformed_arguments_raise_args(args: tuple[str, ...]) -> None:
    line = encode_frame(0x2A, *args)
    frame = decode(line)
    with pytest.raises(InvalidFrameError) as info:
        parse_event(frame)
    assert info.value.kind == "args"
    assert info.value.seq == 0x2A
    assert repr(line.rstrip(b"\r\n").decode()) in str(info.value)


def test_hole_range_follows_the_hello() -> None:
    frame = decode(encode_frame(1, "HOLE", 12, 37))
    assert parse_event(frame, holes=12) == p.HoleChanged(12, 37)
    with pytest.raises(InvalidFrameError):
        parse_event(frame, holes=10)


def test_unknown_type_keeps_its_sequence_number() -> None:
    with pytest.raises(InvalidFrameError) as info:
        decode(encode_frame(0x3C, "ZAP", 1))
    assert (info.value.kind, info.value.seq) == ("unknown", 0x3C)
    # a host command is unknown to the host's receiver, and the other way round
    with pytest.raises(InvalidFrameError):
        decode(encode_command(3, "CAL"))
    with pytest.raises(InvalidFrameError):
        decode(encode_frame(3, "HB", "up=1"), HOST_FRAMES)


@pytest.mark.parametrize(
    "call",
    [
        lambda: encode_command(0, "ZAP"),
        lambda: encode_command(0x10000, "SNAP"),
        lambda: encode_command(0, "ECHO", "two words"),
        lambda: encode_command(0, "ECHO", "a*b"),
        lambda: encode_command(0, "ECHO", ""),
        lambda: encode_command(0, "ECHO", "x" * 200),
        lambda: encode_frame(0, "lower"),
        lambda: encode_frame(0, "LED", True),
    ],
)
def test_encode_refuses_what_cannot_be_framed(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        call()


def test_splitter_line_ends_and_partial_lines() -> None:
    s = LineSplitter()
    assert s.feed(b"@0000 A") == []
    assert s.feed(b"*0000\r") == [b"@0000 A*0000"]
    assert s.feed(b"\nnext\nthird\r\r\nlast") == [b"next", b"third"]
    assert s.feed(b"\n") == [b"last"]


def test_splitter_cuts_over_long_lines_and_recovers() -> None:
    s = LineSplitter()
    good = encode_frame(1, "BTN", 1)
    lines = s.feed(b"@" + b"x" * 150)
    lines += s.feed(b"y" * 500)
    lines += s.feed(b"z\r\n" + good)
    assert len(lines) == 2
    assert len(lines[0]) == MAX_LINE - 1
    assert s.overlong == 1
    with pytest.raises(InvalidFrameError) as info:
        decode(lines[0])
    assert info.value.kind == "long"
    assert decode(lines[1]) == Frame(1, "BTN", ("1",))
    # a line of exactly MAX_LINE bytes with its \r\n is allowed
    one_x = len(encode_frame(2, "ECHO", "0001", "x"))
    exact = encode_frame(2, "ECHO", "0001", "x" * (MAX_LINE - one_x + 1))
    assert len(exact) == MAX_LINE
    assert decode(s.feed(exact)[0]).seq == 2


# -- properties ---------------------------------------------------------------------------------

VALID_BOARD_LINES = [v["bytes"].encode("ascii") for v in BOARD_VALID]


def _decode_all(data: bytes, chunks: list[int]) -> list[Frame | InvalidFrameError]:
    s = LineSplitter()
    out: list[Frame | InvalidFrameError] = []
    pos = 0
    for size in [*chunks, len(data)]:
        for line in s.feed(data[pos : pos + size]):
            try:
                frame = decode(line)
                parse_event(frame)
                out.append(frame)
            except InvalidFrameError as err:
                out.append(err)
        pos += size
    return out


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600), st.lists(st.integers(1, 64), max_size=8))
def test_random_bytes_are_dropped_line_by_line_each_under_one_counter(
    data: bytes, chunks: list[int]
) -> None:
    # Whatever arrives, however the port cuts it: nothing but InvalidFrameError is raised
    # (_decode_all lets anything else through), and every line the bytes end is accounted for
    # once, in order: a frame, or a drop under one of the receiver's counters whose message
    # shows the line. Noise without '@' counts as junk, a damaged frame as shape or crc.
    lines = [line for line in re.split(rb"[\r\n]", data)[:-1] if line]
    out = _decode_all(data, chunks)
    assert len(out) == len(lines)
    for line, item in zip(lines, out, strict=True):
        if isinstance(item, Frame):
            assert item == decode(line) and item.raw == line
            continue
        assert item.kind in DROP_KINDS
        if len(line) > MAX_LINE - 2:  # cut to MAX_LINE - 1 bytes by the splitter
            assert item.kind == "long" and item.line == line[: MAX_LINE - 1]
            assert repr(line[:40]) in str(item)
            continue
        assert item.line == line and repr(line) in str(item)
        if not line.startswith(b"@"):
            assert item.kind == "junk"
        else:
            assert item.kind in ("shape", "crc", "unknown", "args")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(VALID_BOARD_LINES),
            st.binary(max_size=40),
            st.just(b"\r\n"),
        ),
        max_size=12,
    ),
    st.lists(st.integers(1, 64), max_size=8),
)
def test_frames_survive_noise_between_them(pieces: list[bytes], chunks: list[int]) -> None:
    # valid frames sent after a line end always come through, whatever noise surrounds them
    data = b"".join(b"\n" + piece if piece in VALID_BOARD_LINES else piece for piece in pieces)
    frames = [x for x in _decode_all(data, chunks) if isinstance(x, Frame)]
    sent = [decode(piece) for piece in pieces if piece in VALID_BOARD_LINES]
    for frame in sent:
        assert frame in frames


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(VALID_BOARD_LINES), st.data())
def test_single_byte_mutation_is_never_accepted(line: bytes, data: st.DataObject) -> None:
    pos = data.draw(st.integers(0, len(line) - 1))
    byte = data.draw(st.integers(0, 255).filter(lambda b: b != line[pos]))
    mutated = line[:pos] + bytes([byte]) + line[pos + 1 :]
    original = decode(line)
    for item in _decode_all(mutated, []):
        # CRC-16 detects every single-byte error: the mutated frame is dropped, or it is the
        # untouched frame itself (a mutated line end)
        if isinstance(item, Frame):
            assert item == original
            assert pos >= len(line) - 2


_shaped = st.from_regex(rb"\A@[0-9A-F]{4} [A-Z][ -~]{0,40}\*[0-9A-F]{4}\Z")


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.binary(min_size=1, max_size=220), _shaped, st.sampled_from(VALID_BOARD_LINES)))
def test_decode_agrees_with_the_firmware_check(body: bytes) -> None:
    body = body.replace(b"\r", b"").replace(b"\n", b"")  # lines come without line ends
    for line in (body, b"@" + body):
        buf = bytearray(line)
        want = p.wire.check(buf, len(buf))
        try:
            decode(line)
            got = "ok"
        except InvalidFrameError as err:
            got = err.kind
        if want >= 0:
            assert got in ("ok", "unknown")
        elif want == p.wire.ERR_LONG:
            assert got == "long"
        elif want == p.wire.ERR_CRC:
            assert got == "crc"
        else:
            assert got in ("shape", "junk")


_token = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="@*,="),
    min_size=1,
    max_size=8,
).filter(lambda t: t != "-")
_words = st.lists(_token, max_size=5).map(" ".join)
_uid = st.sampled_from([8, 14, 20]).flatmap(
    lambda n: st.text(alphabet="0123456789ABCDEF", min_size=n, max_size=n)
)
_u16 = st.integers(0, 65535)
_events = st.one_of(
    st.builds(p.HoleChanged, st.integers(1, 10), st.integers(0, 80)),
    st.builds(p.CardArrived, _uid),
    st.builds(p.CardLeft, _uid),
    st.builds(p.Button, st.booleans()),
    st.builds(p.Heartbeat, *[st.integers(0, 2**32)] * 8),
    st.builds(
        p.RawLevels,
        st.integers(1, 10),
        st.tuples(_u16, _u16, _u16, _u16),
        st.tuples(_u16, _u16, _u16, _u16),
    ),
    st.builds(p.Fault, _token, _token, _words),
    st.builds(p.FaultCleared, _token, _token),
    st.builds(p.Ok, _u16, st.from_regex(r"[A-Z]{1,6}", fullmatch=True), _words),
    st.builds(p.Err, _u16, st.from_regex(r"[A-Z]{1,6}", fullmatch=True), _words),
    st.builds(p.Echo, _u16, _words),
    st.builds(
        p.Snapshot,
        st.tuples(*[st.integers(0, 80)] * 10),
        st.none() | _uid,
        st.booleans(),
        st.lists(_token, max_size=4).map(tuple),
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 0xFFFF), _events)
def test_encode_decode_round_trip(seq: int, event: p.Event) -> None:
    frame = decode(encode_event(seq, event))
    assert frame.seq == seq
    assert parse_event(frame) == event


def test_a_run_of_faulted_sensors_is_expanded_and_a_bad_run_refused() -> None:
    line = p.encode_frame(5, "SNAP", "holes=" + ",".join(["0"] * 10), "card=-", "btn=0", "presses=0", "faults=s1-3,s7,h2,rfid")
    snap = parse_event(decode(line))
    assert isinstance(snap, p.Snapshot)
    assert snap.faults == ("s1", "s2", "s3", "s7", "h2", "rfid")
    bad = p.encode_frame(5, "SNAP", "holes=" + ",".join(["0"] * 10), "card=-", "btn=0", "presses=0", "faults=s9-3")
    with pytest.raises(p.InvalidFrameError) as e:
        parse_event(decode(bad))
    assert e.value.kind == "args"
