"""The upref wire codec: pure functions over bytes, no I/O.

The frame format, the frame tables and the protocol version come from the one source of truth,
`firmware/lib/wire.py`, loaded here by path from the copy shipped in the package
(`upref.resources`; the firmware runs the same file). docs/protocol.md
describes every frame; tests/vectors/frames.json holds the test vectors.

- `LineSplitter.feed(data)` turns a byte stream into lines.
- `decode(line)` checks one line and returns its `Frame`, or raises `InvalidFrameError` whose
  `.kind` names the counter that drops it ("crc", "shape", "long", "unknown", "junk").
- `parse_event(frame)` turns a board frame into a typed event, or raises `InvalidFrameError`
  of kind "args" when its arguments are malformed.
- `encode_command(seq, type, *args)` builds a host command; `encode_frame` any frame and
  `encode_event(seq, event)` a board frame from a typed event (for fakes and round trips).
"""

from __future__ import annotations

import binascii
import importlib.util
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from types import ModuleType
from typing import Final, Literal

from upref import resources

__all__ = [
    "BOARD_FRAMES",
    "FAULT_KINDS",
    "HOST_FRAMES",
    "MAX_CODE",
    "EVENT_FRAMES",
    "MAX_LINE",
    "OLD_FRAMES",
    "POSITIONS",
    "PROTO_VERSION",
    "SUPPORTED_PROTOS",
    "Button",
    "CardArrived",
    "CardLeft",
    "Echo",
    "Err",
    "Event",
    "Fault",
    "FaultCleared",
    "Frame",
    "Heartbeat",
    "RESET_KINDS",
    "Hello",
    "HoleChanged",
    "InvalidFrameError",
    "LineSplitter",
    "Ok",
    "Old",
    "RawLevels",
    "Snapshot",
    "TagRecord",
    "crc16",
    "decode",
    "encode_command",
    "encode_event",
    "encode_frame",
    "parse_event",
    "rfid_text",
]


def _load_wire() -> ModuleType:
    path = resources.wire_path()
    spec = importlib.util.spec_from_file_location("upref_firmware_wire", path)
    if spec is None or spec.loader is None:  # pragma: no cover - only with a broken installation
        raise ImportError(f"cannot load the wire format from {str(path)!r}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


wire: Final[ModuleType] = _load_wire()

PROTO_VERSION: Final[int] = int(wire.PROTO_VERSION)
MAX_LINE: Final[int] = int(wire.MAX_LINE)

# Frames the board sends. Keep in step with docs/protocol.md (and the
# firmware that writes them: firmware/app.py, lib/service.py).
BOARD_FRAMES: Final[tuple[str, ...]] = (
    "HELLO",  # handshake: fw= proto= board= holes= caps= rfid= reset=
    "SNAP",  # full snapshot: holes= card= btn= faults=
    "HOLE",  # a hole's code changed: <hole 1..N> <code 0..80>
    "CARD",  # + <uid hex> on arrival, - <uid hex> on departure
    "BTN",  # 1 pressed, 0 released
    "HB",  # heartbeat: up= scans= sps= cmd= bad= rfe= rfr= flt=
    "RAW",  # raw levels of one hole: <hole> <l1,l2,l3,l4> <z1,z2,z3,z4>
    "FAULT",  # <kind> <where> <words...>
    "CLEAR",  # <kind> <where>: a fault has gone
    "OK",  # <cmd seq> <command> [details]
    "ERR",  # <cmd seq> <command> <reason words...>
    "ECHO",  # <cmd seq> <text...>
    "OLD",  # <orig seq hex> <board ms> <TYPE> <args...>: a kept event replayed for SINCE (or a TAG, before its CARD +)
    "TAG",  # <uid hex> <length> <hex|->: the NDEF message of the card that arrives, before CARD +
)

# Commands the host sends, framed the same way with the host's own sequence numbers.
HOST_FRAMES: Final[tuple[str, ...]] = (
    "HELLO",  # ask for the handshake again
    "SNAP",  # ask for a snapshot
    "RAW",  # raw sensor levels of every hole, then OK
    "CAL",  # calibrate zero levels (board empty), persist, then OK or ERR
    "LED",  # <rrggbb> [ms]: status LED colour, for ms milliseconds or until changed
    "BEEP",  # <hz:ms,hz:ms,...>: beep pattern, hz 0 is a pause
    "SET",  # <key>=<value> ...: debounce=<ms>
    "ECHO",  # <text...>: loopback
    "REBOOT",  # reset the board after OK
    "SINCE",  # <seq hex> or all: replay the kept events after seq as OLD frames, then OK
    "TAGW",  # <uid hex> <hex>: write the sticker's user memory from page 4, read it back, OK/ERR
)

# Board frames that are events, kept in the board's ring for SINCE (firmware/lib/ring.py). A TAG
# is no event: the ring keeps the last tags' records beside it, replayed with their CARD +.
EVENT_FRAMES: Final[tuple[str, ...]] = ("HOLE", "CARD", "BTN", "FAULT", "CLEAR")
OLD_FRAMES: Final[tuple[str, ...]] = (*EVENT_FRAMES, "TAG")
"""The frames an OLD carries: the kept events, and a tag's record, kept beside the event ring
and replayed just before the CARD + it came with (firmware/lib/ring.py, Tags)."""

# Fault kinds in FAULT/CLEAR frames.
FAULT_KINDS: Final[tuple[str, ...]] = ("sensor", "hole", "rfid", "exc", "cal", "link")
SUPPORTED_PROTOS: Final[tuple[int, ...]] = (1, PROTO_VERSION)
"""The board protocols this host speaks: 2 (the event ring, SINCE), and 1, whose boards keep no
events (the host resyncs from snapshots alone, and says that taps may be lost)."""

POSITIONS: Final[int] = 4
"""Hall sensors per hole (magnet positions P1..P4 under a pair's base)."""
MAX_CODE: Final[int] = 3**POSITIONS - 1
"""The highest hole code: each position reads a trit (none, north, south)."""
MAX_HOLES: Final[int] = 64
MAX_LEVEL: Final[int] = 65535
UID_HEX_LENGTHS: Final[tuple[int, ...]] = (8, 14, 20)  # 4-, 7- and 10-byte UIDs

DropKind = Literal["crc", "shape", "long", "unknown", "junk", "args"]
DROP_KINDS: Final[tuple[str, ...]] = ("crc", "shape", "long", "unknown", "junk", "args")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xorout) of `data`."""
    return binascii.crc_hqx(data, 0xFFFF)


class InvalidFrameError(ValueError):
    """A line that is not a valid frame, or a frame with malformed arguments.

    `kind` names the receiver's counter that drops it: "crc", "shape", "long", "unknown",
    "junk" (from `decode`) or "args" (from `parse_event`). `line` is the offending line; `seq`
    the frame's sequence number when the frame itself was sound ("unknown", "args").
    """

    def __init__(self, kind: DropKind, message: str, line: bytes = b"", seq: int | None = None):
        super().__init__(message)
        self.kind: DropKind = kind
        self.line = line
        self.seq = seq


@dataclass(frozen=True)
class Frame:
    """One checked frame: sequence number, type and arguments (tokens between spaces)."""

    seq: int
    type: str
    args: tuple[str, ...] = ()
    raw: bytes = field(default=b"", compare=False, repr=False)

    def text(self) -> str:
        """The frame's line as received (or rebuilt), for messages."""
        if self.raw:
            return self.raw.decode("ascii", "replace")
        return " ".join((f"@{self.seq:04X}", self.type, *self.args))


# ---------------------------------------------------------------------------------------------
# Lines


class LineSplitter:
    """Splits a byte stream into lines, like pyserial's `threaded.Packetizer`.

    A line ends at `\\r\\n`, `\\n` or `\\r`; empty lines are skipped. A line longer than the
    protocol allows (MAX_LINE bytes with its line end) is cut: the rest of it is discarded up to
    its line end, it is counted in `overlong`, and its first MAX_LINE - 1 bytes are returned in
    its place, which `decode` always rejects as kind "long" (so the receiver counts and reports
    it in order with the other lines, and never acts on it). Memory use is bounded.
    """

    _BREAK = re.compile(rb"[\r\n]")

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self._limit = max_line - 2  # content bytes a line may hold without its \r\n
        self._buf = bytearray()
        self._skipping = False
        self.overlong = 0
        self.lines = 0

    def pending(self) -> bytes:
        """What has come of the line not yet ended (a prompt such as `>>> ` never ends)."""
        return b"" if self._skipping else bytes(self._buf)

    def feed(self, data: bytes) -> list[bytes]:
        """Add received bytes; return the lines they complete, in order."""
        pieces = self._BREAK.split(data)
        out: list[bytes] = []
        for piece in pieces[:-1]:
            if self._skipping:
                line: bytes = bytes(self._buf)
                self._skipping = False
                self.overlong += 1
            else:
                line = bytes(self._buf) + piece
                if len(line) > self._limit:
                    line = line[: self._limit + 1]
                    self.overlong += 1
            self._buf.clear()
            if line:
                self.lines += 1
                out.append(line)
        tail = pieces[-1]
        if tail and not self._skipping:
            self._buf += tail
            if len(self._buf) > self._limit:
                del self._buf[self._limit + 1 :]
                self._skipping = True
        return out

    def reset(self) -> None:
        """Forget a partial line (after a reconnect)."""
        self._buf.clear()
        self._skipping = False


# ---------------------------------------------------------------------------------------------
# Frames

# '@' SSSS ' ' TYPE... '*' CCCC, where everything between '@' and '*' is printable ASCII
# (0x20..0x7E) other than '@' and '*', and the type starts with an upper-case letter.
_FRAME = re.compile(rb"@([0-9A-F]{4}) ([A-Z][\x20-\x29\x2B-\x3F\x41-\x7E]*)\*([0-9A-F]{4})")
_HEX4 = re.compile(rb"[0-9A-F]{4}")
_TYPE = re.compile(r"[A-Z]+")
_ARG = re.compile(r"[\x21-\x29\x2B-\x3F\x41-\x7E]+")


def _shape_problem(raw: bytes) -> str:
    """Why a line starting with '@' is not a well-shaped frame (for the error message)."""
    for i, c in enumerate(raw):
        if c < 0x20 or c > 0x7E:
            return f"byte 0x{c:02X} at offset {i} is not printable ASCII"
    if len(raw) < 12:
        return "too short for '@SSSS TYPE*CCCC'"
    if not _HEX4.fullmatch(raw[1:5]):
        return "sequence number is not 4 upper-case hex digits"
    if raw[5:6] != b" ":
        return "no space after the sequence number"
    if raw[-5:-4] != b"*":
        return "no '*' before the CRC"
    if not _HEX4.fullmatch(raw[-4:]):
        return "CRC is not 4 upper-case hex digits"
    if not 0x41 <= raw[6] <= 0x5A:
        return "type must start with an upper-case letter"
    return "'@' or '*' inside the frame"


def decode(line: bytes, frames: Collection[str] = BOARD_FRAMES) -> Frame:
    """Check one line (its line end optional) and return its frame.

    `frames` is the set of frame types this side knows: BOARD_FRAMES for what the host
    receives (the default), HOST_FRAMES for what the board receives.

    :raises InvalidFrameError: of kind "long" (over MAX_LINE bytes), "junk" (does not start
        with '@'), "shape", "crc" or "unknown" (a sound frame of a type not in `frames`).
    """
    raw = bytes(line).rstrip(b"\r\n")
    if len(raw) + 2 > MAX_LINE:
        raise InvalidFrameError("long", f"line over {MAX_LINE} bytes: {raw[:40]!r}...", raw)
    if not raw.startswith(b"@"):
        raise InvalidFrameError("junk", f"not a frame (no '@'): {raw!r}", raw)
    m = _FRAME.fullmatch(raw)
    if m is None:
        raise InvalidFrameError("shape", f"malformed frame, {_shape_problem(raw)}: {raw!r}", raw)
    want = int(m[3], 16)
    got = crc16(raw[1:-5])
    if got != want:
        raise InvalidFrameError(
            "crc", f"CRC mismatch (frame says {want:04X}, computed {got:04X}): {raw!r}", raw
        )
    seq = int(m[1], 16)
    parts = m[2].decode("ascii").split(" ")
    ftype = parts[0]
    if ftype not in frames:
        raise InvalidFrameError("unknown", f"unknown frame type {ftype!r}: {raw!r}", raw, seq)
    return Frame(seq, ftype, tuple(p for p in parts[1:] if p), raw)


def encode_frame(seq: int, ftype: str, *args: str | int) -> bytes:
    """Build one frame, line end included. Integer arguments are written in decimal.

    :raises ValueError: on a sequence number outside 0..0xFFFF, a type that is not an
        upper-case word, an empty argument or one with a space, '@', '*' or a byte outside
        printable ASCII, or a frame longer than MAX_LINE.
    """
    if not 0 <= seq <= 0xFFFF:
        raise ValueError(f"sequence number out of range 0..0xFFFF: {seq!r}")
    if not _TYPE.fullmatch(ftype):
        raise ValueError(f"frame type must be an upper-case word: {ftype!r}")
    tokens = [ftype]
    for a in args:
        if isinstance(a, bool) or not isinstance(a, int | str):
            raise ValueError(f"argument must be str or int: {a!r}")
        text = str(a)
        if not _ARG.fullmatch(text):
            raise ValueError(
                f"argument must be printable ASCII without spaces, '@' or '*': {text!r}"
            )
        tokens.append(text)
    body = f"{seq:04X} {' '.join(tokens)}".encode("ascii")
    line = b"@" + body + b"*" + f"{crc16(body):04X}".encode("ascii") + b"\r\n"
    if len(line) > MAX_LINE:
        raise ValueError(f"frame longer than {MAX_LINE} bytes ({len(line)}): {line[:40]!r}...")
    return line


def encode_command(seq: int, ftype: str, *args: str | int) -> bytes:
    """Build a host command frame (`ftype` one of HOST_FRAMES), line end included.

    :raises ValueError: on an unknown command or a bad argument (see `encode_frame`).
    """
    if ftype not in HOST_FRAMES:
        raise ValueError(f"unknown command {ftype!r}; the board knows {', '.join(HOST_FRAMES)}")
    return encode_frame(seq, ftype, *args)


# ---------------------------------------------------------------------------------------------
# Typed board events


@dataclass(frozen=True)
class Hello:
    """Handshake: sent at boot and when asked."""

    fw: str
    proto: int
    board: str
    holes: int
    caps: tuple[str, ...]
    rfid: str | None  # MFRC522 VersionReg in hex ("92" = v2.0), None when it does not answer
    reset: str
    boot: str | None = None  # 4 hex digits, random per boot (protocol 2); None from a proto 1 board
    resets: tuple[int, ...] | None = None  # since power-on: soft, hard, wdt, other (None: not kept)

    @property
    def keeps_events(self) -> bool:
        """Whether the board keeps its recent events for SINCE (protocol 2, caps `since`)."""
        return "since" in self.caps


@dataclass(frozen=True)
class Snapshot:
    """The whole physical picture: every hole's code (hole n at index n-1), the card in the
    field, the button and the current faults (s<k>, h<n>, rfid)."""

    holes: tuple[int, ...]
    card: str | None
    button: bool
    faults: tuple[str, ...] = ()
    presses: int = 0  # button presses since the board booted


@dataclass(frozen=True)
class HoleChanged:
    """A hole's code changed (HOLE). Every kept event (HOLE, CARD, BTN, FAULT, CLEAR) carries
    `seq` and `board_ms` as the link received it."""

    hole: int  # 1..N
    code: int  # 0..80, 0 = empty
    # where the link had it from (not part of the event's meaning): the frame's sequence
    # number, and for an event replayed from the board's memory its board time in ms
    seq: int | None = field(default=None, compare=False, repr=False)
    board_ms: int | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class CardArrived:
    uid: str  # upper-case hex
    # where the link had it from (not part of the event's meaning): the frame's sequence
    # number, and for an event replayed from the board's memory its board time in ms
    seq: int | None = field(default=None, compare=False, repr=False)
    board_ms: int | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class CardLeft:
    uid: str
    # where the link had it from (not part of the event's meaning): the frame's sequence
    # number, and for an event replayed from the board's memory its board time in ms
    seq: int | None = field(default=None, compare=False, repr=False)
    board_ms: int | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class TagRecord:
    """TAG: the NDEF message the card arriving next carries (sent just before its CARD +): the
    message's length as the tag says, and as much of it as the board read (`data`, at most
    64 bytes: a longer message arrives cut). The link carries the bytes; what they mean is the
    host's business (`upref.board.ndef`). Not an event of its own: the board keeps the last
    tags' records beside its event ring, and SINCE replays one (an `Old` carrying it) just
    before the CARD + it came with."""

    uid: str
    length: int
    data: bytes = b""

    @property
    def whole(self) -> bool:
        return len(self.data) == self.length


@dataclass(frozen=True)
class Button:
    pressed: bool
    # where the link had it from (not part of the event's meaning): the frame's sequence
    # number, and for an event replayed from the board's memory its board time in ms
    seq: int | None = field(default=None, compare=False, repr=False)
    board_ms: int | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Heartbeat:
    uptime_ms: int
    scans: int
    sps: int
    cmd: int
    bad: int
    rfe: int
    rfr: int
    flt: int
    # how the loop keeps up since the last heartbeat (firmware 0.2 on; None from older boards):
    late_ms: int | None = None  # worst lateness of a scan
    tscan_us: int | None = None  # mean time the loop was busy per scan period
    tmax_us: int | None = None  # the longest of those periods
    odrop: int | None = None  # frames dropped since boot because the output queue was full
    # the board's own figures for bring-up (None from a board without them):
    nlate: int | None = None  # scans begun half a period or more late, since the last heartbeat
    reads: int | None = None  # card reads that found a card, since the last heartbeat
    heap_kb: int | None = None  # free heap now, whole KB
    heaplo_kb: int | None = None  # the least free heap seen at a heartbeat since boot, whole KB


@dataclass(frozen=True)
class RawLevels:
    hole: int
    levels: tuple[int, ...]  # four ADC read_u16 values, P1..P4
    zeros: tuple[int, ...]  # their calibrated zeros


@dataclass(frozen=True)
class Fault:
    kind: str  # sensor, hole, rfid, exc, cal, ...
    where: str  # s<k>, h<n>, reader, loop, -
    text: str = ""
    # where the link had it from (not part of the event's meaning): the frame's sequence
    # number, and for an event replayed from the board's memory its board time in ms
    seq: int | None = field(default=None, compare=False, repr=False)
    board_ms: int | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class FaultCleared:
    kind: str
    where: str
    # where the link had it from (not part of the event's meaning): the frame's sequence
    # number, and for an event replayed from the board's memory its board time in ms
    seq: int | None = field(default=None, compare=False, repr=False)
    board_ms: int | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Ok:
    cmd_seq: int
    command: str
    detail: str = ""


@dataclass(frozen=True)
class Err:
    cmd_seq: int
    command: str
    reason: str = ""


@dataclass(frozen=True)
class Echo:
    cmd_seq: int
    text: str


@dataclass(frozen=True)
class Old:
    """A kept event replayed by the board for SINCE: the event, the sequence number it was
    first sent with, and the board's time of it in ms since boot (the heartbeat's up=). A
    `TagRecord` comes just before the CARD + it came with, timed as that card."""

    seq: int
    board_ms: int
    event: HoleChanged | CardArrived | CardLeft | Button | Fault | FaultCleared | TagRecord


Event = (
    Hello
    | Snapshot
    | HoleChanged
    | CardArrived
    | CardLeft
    | Button
    | Heartbeat
    | RawLevels
    | Fault
    | FaultCleared
    | Ok
    | Err
    | Echo
    | Old
    | TagRecord
)

_UINT = re.compile(r"[0-9]{1,10}")
_UID = re.compile(r"[0-9A-F]+")
_HEXBYTE = re.compile(r"[0-9A-F]{1,2}")
_TOKEN_LIST = re.compile(r"[^,]+(,[^,]+)*")


class _Args:
    """Argument checks for one frame; every failure is an InvalidFrameError of kind "args"."""

    def __init__(self, frame: Frame) -> None:
        self.frame = frame

    def bad(self, why: str) -> InvalidFrameError:
        f = self.frame
        return InvalidFrameError(
            "args", f"bad {f.type} frame, {why}: {f.text()!r}", f.raw or f.text().encode(), f.seq
        )

    def count(self, lo: int, hi: int | None = None) -> tuple[str, ...]:
        args = self.frame.args
        if len(args) < lo or (hi is not None and len(args) > hi):
            want = str(lo) if hi == lo else f"{lo}.." + ("" if hi is None else str(hi))
            raise self.bad(f"{len(args)} arguments where {want} are expected")
        return args

    def uint(self, text: str, what: str, lo: int = 0, hi: int | None = None) -> int:
        if not _UINT.fullmatch(text):
            raise self.bad(f"{what} is not a decimal number: {text!r}")
        v = int(text)
        if v < lo or (hi is not None and v > hi):
            raise self.bad(f"{what} {v} out of range {lo}..{'' if hi is None else hi}")
        return v

    def ints(self, text: str, what: str, n: int, hi: int) -> tuple[int, ...]:
        parts = text.split(",")
        if len(parts) != n:
            raise self.bad(f"{len(parts)} {what} where {n} are expected")
        return tuple(self.uint(p, what, 0, hi) for p in parts)

    def hole(self, text: str, holes: int) -> int:
        return self.uint(text, "hole", 1, holes)

    def cmd_seq(self, text: str) -> int:
        if not _HEX4.fullmatch(text.encode()):
            raise self.bad(f"command sequence is not 4 upper-case hex digits: {text!r}")
        return int(text, 16)

    def uid(self, text: str) -> str:
        if not _UID.fullmatch(text) or len(text) not in UID_HEX_LENGTHS:
            raise self.bad(f"UID is not 4, 7 or 10 bytes in upper-case hex: {text!r}")
        return text

    def kv(self, keys: tuple[str, ...]) -> dict[str, str]:
        out: dict[str, str] = {}
        for a in self.frame.args:
            key, eq, value = a.partition("=")
            if not eq or not key:
                raise self.bad(f"expected key=value, got {a!r}")
            if key in out:
                raise self.bad(f"{key}= given twice")
            out[key] = value
        missing = [k for k in keys if k not in out]
        if missing:
            raise self.bad(f"missing {', '.join(k + '=' for k in missing)}")
        return out

    def token_list(self, text: str, what: str) -> tuple[str, ...]:
        if text in ("-", ""):
            return ()
        if not _TOKEN_LIST.fullmatch(text):
            raise self.bad(f"{what} is not a comma list: {text!r}")
        return tuple(text.split(","))


def _expand_faults(a: _Args, tokens: tuple[str, ...]) -> tuple[str, ...]:
    """'s3-5' (a run of faulted sensors, as the board sends them) -> 's3', 's4', 's5'."""
    out: list[str] = []
    for t in tokens:
        if t.startswith("s") and "-" in t:
            lo, _, hi = t[1:].partition("-")
            if not (lo.isdigit() and hi.isdigit() and 0 < int(lo) <= int(hi) <= 255):
                raise a.bad(f"faults has a bad sensor run: {t!r}")
            out += [f"s{k}" for k in range(int(lo), int(hi) + 1)]
        else:
            out.append(t)
    return tuple(out)


def _hello(a: _Args, holes: int) -> Hello:
    kv = a.kv(("fw", "proto", "board", "holes", "caps", "rfid", "reset"))
    for key in ("fw", "board", "reset"):
        if not kv[key]:
            raise a.bad(f"{key}= is empty")
    rfid = kv["rfid"]
    if rfid != "none" and not _HEXBYTE.fullmatch(rfid):
        raise a.bad(f"rfid= is neither a hex byte nor 'none': {rfid!r}")
    return Hello(
        fw=kv["fw"],
        proto=a.uint(kv["proto"], "proto"),
        board=kv["board"],
        holes=a.uint(kv["holes"], "holes", 1, MAX_HOLES),
        caps=a.token_list(kv["caps"], "caps"),
        rfid=None if rfid == "none" else rfid,
        reset=kv["reset"],
        boot=_boot(a, kv.get("boot")),
        resets=_resets(a, kv.get("resets")),
    )


RESET_KINDS: Final[tuple[str, ...]] = ("soft", "hard", "wdt", "other")
"""The causes HELLO's resets= counts, in its order."""


def _resets(a: _Args, text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    return a.ints(text, "resets", len(RESET_KINDS), 255)


def _boot(a: _Args, text: str | None) -> str | None:
    if text is None:
        return None
    if not _HEX4.fullmatch(text.encode()):
        raise a.bad(f"boot= is not 4 upper-case hex digits: {text!r}")
    return text


def _snap(a: _Args, holes: int) -> Snapshot:
    kv = a.kv(("holes", "card", "btn", "presses", "faults"))
    codes = a.ints(kv["holes"], "hole codes", holes, MAX_CODE)
    card = kv["card"]
    btn = kv["btn"]
    if btn not in ("0", "1"):
        raise a.bad(f"btn= is not 0 or 1: {btn!r}")
    return Snapshot(
        holes=codes,
        card=None if card == "-" else a.uid(card),
        button=btn == "1",
        faults=_expand_faults(a, a.token_list(kv["faults"], "faults")),
        presses=a.uint(kv["presses"], "presses"),
    )


def _hole(a: _Args, holes: int) -> HoleChanged:
    h, code = a.count(2, 2)
    return HoleChanged(a.hole(h, holes), a.uint(code, "code", 0, MAX_CODE))


def _card(a: _Args, holes: int) -> CardArrived | CardLeft:
    sign, uid = a.count(2, 2)
    if sign == "+":
        return CardArrived(a.uid(uid))
    if sign == "-":
        return CardLeft(a.uid(uid))
    raise a.bad(f"expected '+' or '-', got {sign!r}")


_HEX_BYTES = re.compile(r"(?:[0-9A-F]{2})+")
_MAX_TAG_LENGTH = 0xFFFF


def _tag(a: _Args, holes: int) -> TagRecord:
    uid, length, data = a.count(3, 3)
    n = a.uint(length, "message length", 0, _MAX_TAG_LENGTH)
    if data == "-":
        raw = b""
    elif _HEX_BYTES.fullmatch(data):
        raw = bytes.fromhex(data)
    else:
        raise a.bad(f"message is neither '-' nor upper-case hex bytes: {data[:20]!r}")
    if len(raw) > n:
        raise a.bad(f"{len(raw)} bytes of a message that says it has {n}")
    return TagRecord(a.uid(uid), n, raw)


def _btn(a: _Args, holes: int) -> Button:
    (state,) = a.count(1, 1)
    if state not in ("0", "1"):
        raise a.bad(f"button state is not 0 or 1: {state!r}")
    return Button(state == "1")


_HB_KEYS = ("up", "scans", "sps", "cmd", "bad", "rfe", "rfr", "flt")


_HB_OPTIONAL = ("late", "tscan", "tmax", "odrop", "nlate", "reads", "heap", "heaplo")


def _hb(a: _Args, holes: int) -> Heartbeat:
    kv = a.kv(_HB_KEYS)
    v = [a.uint(kv[k], k + "=") for k in _HB_KEYS]
    extra = [a.uint(kv[k], k + "=") if k in kv else None for k in _HB_OPTIONAL]
    return Heartbeat(*v, *extra)


def _raw(a: _Args, holes: int) -> RawLevels:
    h, levels, zeros = a.count(3, 3)
    return RawLevels(
        a.hole(h, holes),
        a.ints(levels, "levels", POSITIONS, MAX_LEVEL),
        a.ints(zeros, "zeros", POSITIONS, MAX_LEVEL),
    )


def _fault(a: _Args, holes: int) -> Fault:
    args = a.count(2)
    return Fault(args[0], args[1], " ".join(args[2:]))


def _clear(a: _Args, holes: int) -> FaultCleared:
    kind, where = a.count(2, 2)
    return FaultCleared(kind, where)


def _ok(a: _Args, holes: int) -> Ok:
    args = a.count(2)
    return Ok(a.cmd_seq(args[0]), args[1], " ".join(args[2:]))


def _err(a: _Args, holes: int) -> Err:
    args = a.count(2)
    return Err(a.cmd_seq(args[0]), args[1], " ".join(args[2:]))


def _echo(a: _Args, holes: int) -> Echo:
    args = a.count(1)
    return Echo(a.cmd_seq(args[0]), " ".join(args[1:]))


def _old(a: _Args, holes: int) -> Old:
    args = a.count(3)
    seq = a.cmd_seq(args[0])
    ms = a.uint(args[1], "board time")
    inner_type = args[2]
    if inner_type not in OLD_FRAMES:
        raise a.bad(f"{inner_type!r} is not a kept event ({', '.join(OLD_FRAMES)})")
    inner = Frame(seq, inner_type, args[3:], a.frame.raw)
    event = _PARSERS[inner_type](_Args(inner), holes)
    return Old(seq, ms, event)  # type: ignore[arg-type]


_PARSERS: dict[str, Callable[[_Args, int], Event]] = {
    "HELLO": _hello,
    "SNAP": _snap,
    "HOLE": _hole,
    "CARD": _card,
    "BTN": _btn,
    "HB": _hb,
    "RAW": _raw,
    "FAULT": _fault,
    "CLEAR": _clear,
    "OK": _ok,
    "ERR": _err,
    "ECHO": _echo,
    "OLD": _old,
    "TAG": _tag,
}
if set(_PARSERS) != set(BOARD_FRAMES):  # pragma: no cover - caught by the tests at once
    raise ImportError(f"protocol.py parses {sorted(_PARSERS)}, wire.py has {sorted(BOARD_FRAMES)}")


def parse_event(frame: Frame, *, holes: int = 10) -> Event:
    """The typed event of a board frame; `holes` is the board's hole count (from HELLO).

    :raises InvalidFrameError: kind "args" when the arguments are malformed (a hole outside
        1..holes, a code over 80, a missing key, a non-number...); kind "unknown" when the
        frame is not a board frame.
    """
    parser = _PARSERS.get(frame.type)
    if parser is None:
        raise InvalidFrameError(
            "unknown",
            f"not a board frame type {frame.type!r}: {frame.text()!r}",
            frame.raw,
            frame.seq,
        )
    return parser(_Args(frame), holes)


def _words(text: str) -> list[str]:
    return text.split()


def _hello_args(event: Hello) -> list[str]:
    """HELLO's arguments: firmware, protocol, board id, holes, capabilities, reader, reset
    cause and, from protocol 2, the boot id."""
    return [
        f"fw={event.fw}",
        f"proto={event.proto}",
        f"board={event.board}",
        f"holes={event.holes}",
        f"caps={','.join(event.caps)}",
        f"rfid={event.rfid or 'none'}",
        f"reset={event.reset}",
        *([f"boot={event.boot}"] if event.boot is not None else []),
        *([f"resets={','.join(map(str, event.resets))}"] if event.resets is not None else []),
    ]


def _snap_args(event: Snapshot) -> list[str]:
    """SNAP's arguments: every hole's code, the card, the button, its presses, the faults."""
    return [
        "holes=" + ",".join(str(c) for c in event.holes),
        f"card={event.card or '-'}",
        f"btn={int(event.button)}",
        f"presses={event.presses}",
        "faults=" + (",".join(event.faults) or "-"),
    ]


def _heartbeat_args(event: Heartbeat) -> list[str]:
    """HB's arguments: the counters every heartbeat has, then the optional timings it carries."""
    values = (
        event.uptime_ms,
        event.scans,
        event.sps,
        event.cmd,
        event.bad,
        event.rfe,
        event.rfr,
        event.flt,
    )
    extra = (event.late_ms, event.tscan_us, event.tmax_us, event.odrop,
             event.nlate, event.reads, event.heap_kb, event.heaplo_kb)
    return [
        *(f"{k}={v}" for k, v in zip(_HB_KEYS, values, strict=True)),
        *(f"{k}={v}" for k, v in zip(_HB_OPTIONAL, extra, strict=True) if v is not None),
    ]


def _old_args(event: Old) -> list[str | int]:
    """OLD's arguments: the kept event's sequence number and board time, then that event's own
    frame type and arguments."""
    inner = decode(encode_event(event.seq, event.event))
    return [f"{event.seq:04X}", event.board_ms, inner.type, *inner.args]


def encode_event(seq: int, event: Event) -> bytes:
    """The board frame that carries `event` (the inverse of decode + parse_event).

    :raises ValueError: when a field cannot be written as a frame argument.
    """
    match event:
        case Hello():
            return encode_frame(seq, "HELLO", *_hello_args(event))
        case Snapshot():
            return encode_frame(seq, "SNAP", *_snap_args(event))
        case HoleChanged():
            return encode_frame(seq, "HOLE", event.hole, event.code)
        case CardArrived():
            return encode_frame(seq, "CARD", "+", event.uid)
        case CardLeft():
            return encode_frame(seq, "CARD", "-", event.uid)
        case Button():
            return encode_frame(seq, "BTN", int(event.pressed))
        case Heartbeat():
            return encode_frame(seq, "HB", *_heartbeat_args(event))
        case RawLevels():
            levels, zeros = ",".join(map(str, event.levels)), ",".join(map(str, event.zeros))
            return encode_frame(seq, "RAW", event.hole, levels, zeros)
        case Fault():
            return encode_frame(seq, "FAULT", event.kind, event.where, *_words(event.text))
        case FaultCleared():
            return encode_frame(seq, "CLEAR", event.kind, event.where)
        case Ok():
            return encode_frame(
                seq, "OK", f"{event.cmd_seq:04X}", event.command, *_words(event.detail)
            )
        case Err():
            return encode_frame(
                seq, "ERR", f"{event.cmd_seq:04X}", event.command, *_words(event.reason)
            )
        case Echo():
            return encode_frame(seq, "ECHO", f"{event.cmd_seq:04X}", *_words(event.text))
        case Old():
            return encode_frame(seq, "OLD", *_old_args(event))
        case TagRecord():
            return encode_frame(seq, "TAG", event.uid, event.length, event.data.hex().upper() or "-")
    raise ValueError(f"not a board event: {event!r}")  # pragma: no cover


# MFRC522 VersionReg values seen on modules
RFID_VERSIONS = {
    "91": "MFRC522 v1.0",
    "92": "MFRC522 v2.0",
    "88": "FM17522 (MFRC522 clone)",
    "B2": "FM17522 (MFRC522 clone)",
    "12": "MFRC522 clone",
}


def rfid_text(version: str | None) -> str:
    """The RFID reader from HELLO's rfid=: 'MFRC522 v2.0 (0x92)', or 'not answering'."""
    if version is None:
        return "not answering"
    return f"{RFID_VERSIONS.get(version, 'unknown chip')} (0x{version})"
