# The wire format of the upref link: one source of truth for the board and the host.
#
# A frame is one line of printable ASCII:
#
#     @SSSS TYPE arg arg ...*CCCC\r\n
#
# SSSS is the sender's sequence number (4 upper-case hex digits, wraps at 0xFFFF), TYPE an
# upper-case word, the arguments are space-separated tokens of printable ASCII without '@' and
# '*', and CCCC is the CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xorout)
# of every byte between '@' and '*', both excluded, in 4 upper-case hex digits. The whole line,
# '@' to '\n', is at most MAX_LINE bytes. docs/protocol.md describes every frame.
#
# This file runs unchanged on MicroPython (the board) and CPython (the host imports it), so it
# uses only what both have. FrameWriter allocates nothing after construction: the scan loop
# reports hole changes through it. The CRC and the writer's byte work run for every byte of every
# frame (a heartbeat is about 8 000 bytecode operations): they are compiled to native code on the
# board (@micropython.native, docs/build.md "Native code"), and are plain functions elsewhere.

try:
    import micropython  # type: ignore
    from micropython import const  # type: ignore
except ImportError:  # CPython

    def const(x):  # type: ignore[no-redef]
        return x

    class micropython:  # type: ignore[no-redef]  # the compiler's decorators: no-ops here
        @staticmethod
        def native(f):
            return f

        viper = native


PROTO_VERSION = const(2)  # 2: the event ring (SINCE, OLD, HELLO boot=)
MAX_LINE = const(200)
_MAX_ARGS_LEN = const(186)  # MAX_LINE - len("@SSSS ") - len("*CCCC\r\n") - 1

_AT = const(0x40)
_STAR = const(0x2A)
_SPACE = const(0x20)
_CR = const(0x0D)
_LF = const(0x0A)
_TILDE = const(0x7E)
_QUESTION = const(0x3F)
# the longest reason safe_text() keeps: an ERR frame's reason fits whole, so a calibration that
# names all ten holes is not cut
_TEXT_MAX = const(170)

# The tables of frame types (which frames the board sends, which the host, which are events,
# the fault kinds) are the receiver's: the host's link/protocol.py holds them. The board writes
# its frames and never looks a type up, and a tuple of strings here would take about 1 KB of its
# heap for good.

_HEX = b"0123456789ABCDEF"

# check() results below zero
ERR_SHAPE = const(-1)
ERR_CRC = const(-2)
ERR_LONG = const(-3)


def ptr8(buf):
    """Viper's cast to a byte pointer, where crc16 runs as plain Python (CPython, a build
    without native code): the buffer itself, indexed alike."""
    return buf


ptr16 = ptr8  # and to a pointer to 16-bit words (holes.py's arrays)


@micropython.viper
def crc16(buf, start: int, end: int) -> int:
    """CRC-16/CCITT-FALSE of buf[start:end] (a bytearray or bytes); allocates nothing. Viper:
    machine integers and a raw pointer into the buffer (the CRC never leaves 16 bits, so it
    reads as the same number in Python's integers), and no bounds check: the callers' end is
    never past the bytes they hold. A byte at a time with no table (the polynomial 0x1021's
    terms x^12, x^5 and 1 folded in: x ^= x >> 4 makes the four high bits' share), where a
    table took 512 bytes of heap and more machine code."""
    crc = 0xFFFF
    p = ptr8(buf)
    for i in range(start, end):
        x = ((crc >> 8) ^ p[i]) & 0xFF
        x ^= x >> 4
        crc = ((crc << 8) ^ (x << 12) ^ (x << 5) ^ x) & 0xFFFF
    return crc


@micropython.viper
def copy_bytes(dst, at: int, src, start: int, n: int):
    """dst[at:at + n] = src[start:start + n] without making a slice (nothing allocated): a
    frame's words into the frame, a kept frame into the event ring (ring.py). Viper: byte
    pointers, no bounds check (the callers' n is what both hold)."""
    d = ptr8(dst)
    s = ptr8(src)
    i = 0
    while i < n:
        d[at + i] = s[start + i]
        i += 1


def _hexval(c):
    if 0x30 <= c <= 0x39:
        return c - 0x30
    if 0x41 <= c <= 0x46:
        return c - 0x37
    return -1


def check(buf, n):
    """Validate the frame in buf[0:n] (line end already stripped).

    Returns the index of '*' when the frame is whole and its CRC matches, otherwise a negative
    error code: ERR_SHAPE (not '@SSSS TYPE...*CCCC', or a byte that is not printable ASCII),
    ERR_CRC (well shaped, wrong CRC), ERR_LONG (over MAX_LINE).
    """
    if n + 2 > MAX_LINE:
        return ERR_LONG
    if n < 12 or buf[0] != _AT or buf[5] != _SPACE or buf[n - 5] != _STAR:
        return ERR_SHAPE
    star = n - 5
    for i in range(1, star):
        c = buf[i]
        if c < 0x20 or c > 0x7E or c == _AT or c == _STAR:
            return ERR_SHAPE
    for i in range(1, 5):
        if _hexval(buf[i]) < 0:
            return ERR_SHAPE
    want = 0
    for i in range(star + 1, n):
        v = _hexval(buf[i])
        if v < 0:
            return ERR_SHAPE
        want = (want << 4) | v
    c = buf[6]
    if c < 0x41 or c > 0x5A:
        return ERR_SHAPE
    if crc16(buf, 1, star) != want:
        return ERR_CRC
    return star



def split(buf, star):
    """Split a checked frame into (seq, type, args): int, str, list of str. Allocates."""
    seq = 0
    for i in range(1, 5):
        seq = (seq << 4) | _hexval(buf[i])
    body = bytes(buf[6:star]).decode()
    parts = body.split(" ")
    return seq, parts[0], [p for p in parts[1:] if p]


def safe_text(text):
    """Text made safe as frame arguments: printable ASCII, no '@' or '*' (each other byte
    becomes '?'), at most _TEXT_MAX characters, never empty ("-"). The board's reasons (ERR,
    FAULT) go through it. Allocates."""
    # one small buffer, changed in place: a list of one-character strings took a kilobyte
    b = bytearray(text[:_TEXT_MAX].encode())
    for i in range(len(b)):
        o = b[i]
        if o < _SPACE or o > _TILDE or o == _AT or o == _STAR:
            b[i] = _QUESTION
    s = b.decode().strip()
    return s if s else "-"


class FrameWriter:
    """Builds frames in one preallocated buffer and writes them to `out` with
    out.write(buf, n), which writes the first n bytes of buf: MicroPython streams take that
    length argument and so need no slice (a slice or memoryview would allocate).
    begin/arg*/end allocate nothing; the sequence number advances per frame. A frame whose
    arguments would overflow MAX_LINE is cut at the limit, still well formed.

    With a `ring` (the board's ring.Ring), end() tells it of every frame, and it keeps those
    begun with keep=True (the events) for SINCE.
    """

    def __init__(self, out, ring=None):
        self._out = out
        self.buf = bytearray(MAX_LINE)
        self.n = 0
        self.seq = 0
        self.frames = 0
        self.ring = ring
        self._keep = False

    def _byte(self, c):
        n = self.n
        if n < MAX_LINE - 7:
            self.buf[n] = c
            self.n = n + 1

    def _bytes(self, data, start=0, end=-1):
        # data[start:end] (all of it by default) appended, cut at the line's room, without
        # making the slice
        n = self.n
        k = (len(data) if end < 0 else end) - start
        room = MAX_LINE - 7 - n
        if k > room:
            k = room if room > 0 else 0
        copy_bytes(self.buf, n, data, start, k)
        self.n = n + k

    @micropython.viper
    def _hex(self, v: int, width: int):
        # viper: machine integers and byte pointers (v is a byte, a sequence number or a CRC:
        # 16 bits at most, the same number as Python's)
        n = int(self.n)
        if n + width > MAX_LINE - 7:
            return
        b = ptr8(self.buf)
        h = ptr8(_HEX)
        i = n + width - 1
        while i >= n:
            b[i] = h[v & 0xF]
            v >>= 4
            i -= 1
        self.n = n + width

    @micropython.viper
    def hexbytes(self, src, k: int):
        """Append src[0:k] as 2k upper-case hex digits, no separator (a UID, a sticker's
        record): one call, not one a byte. Viper: byte pointers."""
        n = int(self.n)
        end = n + 2 * k
        if end > MAX_LINE - 7:
            end = n
        b = ptr8(self.buf)
        s = ptr8(src)
        h = ptr8(_HEX)
        i = 0
        while n < end:
            v = s[i]
            b[n] = h[v >> 4]
            b[n + 1] = h[v & 0xF]
            n += 2
            i += 1
        self.n = n

    @micropython.viper
    def _dec(self, v: int):
        # viper: machine integers (what the board counts stays below 2**30) and a byte pointer
        b = ptr8(self.buf)
        n = int(self.n)
        if v < 0:
            if n < MAX_LINE - 7:
                b[n] = 0x2D
                n += 1
            v = 0 - v
        if v == 0:
            if n < MAX_LINE - 7:
                b[n] = 0x30
                n += 1
            self.n = n
            return
        # digits are written backwards after the current end, then reversed in place
        i = n
        while v != 0 and n < MAX_LINE - 7:
            b[n] = 0x30 + v % 10
            n += 1
            v = v // 10
        self.n = n
        j = n - 1
        while i < j:
            t = b[i]
            b[i] = b[j]
            b[j] = t
            i += 1
            j -= 1

    def begin(self, ftype, keep=False):
        """Start a frame of type `ftype` (bytes, e.g. b"HOLE"); `keep`: an event, which the
        ring keeps."""
        self._keep = keep
        self.buf[0] = _AT
        self.n = 1
        self._hex(self.seq, 4)
        self._byte(_SPACE)
        self._bytes(ftype)

    def arg(self, data):
        """Append ' ' + data (bytes or bytearray)."""
        self._byte(_SPACE)
        self._bytes(data)

    # raw(data): append data with no separator (continues the current token); int(v): a
    # decimal integer with no separator; hex(v, width): v as `width` upper-case hex digits with
    # no separator; copy(data, start, end): data[start:end] so. They are the writers themselves
    # (int and hex viper code, raw and copy one viper copy), not a call around them: a frame (a
    # heartbeat's figures, a replay's kept bodies) calls them often, and each call of bytecode
    # around them cost the chip more than the writing
    raw = _bytes
    copy = _bytes
    int = _dec
    hex = _hex

    def arg_int(self, v):
        self._byte(_SPACE)
        self._dec(v)

    def kv(self, key, v):
        """Append ' key=<decimal v>'; key is bytes."""
        self._byte(_SPACE)
        self._bytes(key)
        self._byte(0x3D)
        self._dec(v)

    def end(self):
        """Close the frame with its CRC and line end, write it out, advance the sequence."""
        n = self.n
        if self.ring is not None:
            self.ring.frame(self.buf, 6, n, self.seq, self.frames, self._keep)
        crc = crc16(self.buf, 1, n)
        b = self.buf
        b[n] = _STAR
        self.n = n + 1
        self._hex_force(crc)
        b[self.n] = _CR
        b[self.n + 1] = _LF
        self.n += 2
        self._out.write(self.buf, self.n)
        self.seq = (self.seq + 1) & 0xFFFF
        self.frames += 1

    def _hex_force(self, v):
        # the CRC's four hex digits, written out (a loop of four cost as much again)
        b = self.buf
        n = self.n
        h = _HEX
        b[n] = h[(v >> 12) & 0xF]
        b[n + 1] = h[(v >> 8) & 0xF]
        b[n + 2] = h[(v >> 4) & 0xF]
        b[n + 3] = h[v & 0xF]
        self.n = n + 4


class LineReader:
    """Collects bytes into lines. feed(c) returns True when buf[0:n] holds a whole line
    (without its line end). Over-long lines are discarded up to their end and counted.
    """

    def __init__(self):
        self.buf = bytearray(MAX_LINE)
        self.n = 0
        self.ready = False
        self._skipping = False
        self.overlong = 0

    def at_start(self):
        """True when nothing of a line has come since the last line end (or ever)."""
        return self.ready or (self.n == 0 and not self._skipping)

    def drop(self):
        """Drop the line being received: what follows is skipped up to its line end."""
        self.n = 0
        self.ready = False
        self._skipping = True

    def feed(self, c):
        if self.ready:
            self.n = 0
            self.ready = False
        if c == _LF or c == _CR:
            if self._skipping:
                self._skipping = False
                self.n = 0
                return False
            if self.n == 0:
                return False
            self.ready = True
            return True
        if self._skipping:
            return False
        if self.n >= MAX_LINE - 2:
            self._skipping = True
            self.overlong += 1
            self.n = 0
            return False
        self.buf[self.n] = c
        self.n += 1
        return False
