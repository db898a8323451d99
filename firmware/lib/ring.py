# The board's memory of its recent events, kept until the host has them (docs/protocol.md,
# "The event ring").
#
# A snapshot restores what is a state (a pair in a hole, a card on the reader); it cannot bring
# back what is over before it is taken: a card tapped and lifted, a click and its order against
# a tap. So every event frame (HOLE, CARD, BTN, FAULT, CLEAR) is also kept here, its body (the
# bytes between `@SSSS ` and `*`) with its frame number and the board's time in ms (the
# clock of the heartbeat's up=), preallocated at boot: the last _SLOTS events.
#
# The bodies are kept packed, one record after the other in a pool of _SLOTS * _REC bytes used
# as a ring: a record is its length (1 byte) and what it holds. The events of a game take a few
# bytes in binary: a HOLE its hole and code (3 bytes with its kind), a BTN 2, a CARD its UID's
# bytes (up to 11), a sensor's or a hole's FAULT or CLEAR its kind, number and reason (4). The
# loop says which with the frame (`code`: app.py, before it ends the frame), but for a CARD,
# which is read from its text; any other body (the reader's error, an exception) is kept as
# its text, its first _BODY bytes (a cut at a space would leave an empty argument: the spaces
# at its end go). So every event but such a text takes at most _REC bytes with its length, and
# the pool keeps the last _SLOTS of them whatever they are; a text takes up to _BODY + 1 and
# pushes older events out sooner (the count of the lost stays exact). since.py writes the
# bodies back as they were sent.

# A tag's record (the TAG frame sent just before its CARD +) does not fit a slot (a message of up
# to 64 bytes, 150 as hex), so it is kept beside the ring, in binary, in a pool of its own
# (_TAG_BYTES bytes, the last _TAGS records at most); the replay sends it, as
# `OLD <seq> <ms> TAG <uid> <length> <hex|->`, just before the CARD + it came with. A TAG is no
# event: the bitmap does not count it, nor does `lost`.
#
# A frame's sequence number is its frame number's, moved by what the writer began with (on the
# board, nothing: both start at 0 at boot and advance together), so the ring keeps the frame
# numbers only.
#
# `lost` is exact: a bitmap of the last 2048 frames says which were events, so the events that
# fell out of the ring after <seq> can be counted. When <seq> lies further back than that,
# lost is given as `>N` (at least N).
#
# Pure logic, no `machine`: FrameWriter.end() calls frame() for every frame it writes, which
# copies an event's body byte by byte and allocates nothing. The replay itself (SINCE, the
# count of what was lost, the OLD frames) is in since.py, loaded while a replay goes on, so
# its code takes no heap the rest of the time.

import time
from array import array

from micropython import const

from wire import copy_bytes

_SLOTS = const(64)  # events kept
_BODY = const(30)  # bytes kept of a body kept as text (a longer FAULT is cut)
_REC = const(12)  # pool bytes an event takes at most, its length with it (a CARD, a 10-byte UID)
_BITS = const(2048)  # frames the event bitmap remembers (half an hour of heartbeats)
_MASK = const(2047)
_SPACE = const(0x20)
# bytes kept of the tags' records (each its bytes and 3 more): the last 8 upref records of any
# game (16 to 28 bytes), 3 of 64; it divides 65536
_TAG_BYTES = const(256)
_TAGS = const(8)  # tag records kept at most
# what a record holds: its first byte, one of these (app.py and since.py have them too), or (32
# and above) the body's own text
_HOLE = const(1)  # hole, code
_BTN = const(2)  # 0 or 1
_CARD_IN = const(3)  # the UID's bytes: CARD +
_CARD_OUT = const(4)  # CARD -
_FAULT = const(5)  # kind (holes.KIND_WORDS), number, reason (holes.REASON_WORDS)
_CLEAR = const(6)  # kind, number


class Ring:
    """Ring(clock, slots=_SLOTS, t0=0): the last `slots` event frames, packed (above), and
    beside them the records of the last _TAGS tags that arrived, in a pool of _TAG_BYTES.

    clock() gives the board's time in ms (the heartbeat's up=); with clock None, it is
    time.ticks_diff(time.ticks_ms(), t0). What it counts (making.ring_clear says each) starts
    from nothing. frame(buf, start, end, seq, fno, keep) is called
    for every frame written (fno counts frames since boot); tag(length, data, n) right after a
    TAG frame is written keeps its record. since.start() begins a replay for
    SINCE and since.step() writes it out a few frames at a time.
    """

    # made by making.ring (declared here for the type checker; MicroPython ignores these)
    slots: "int"
    body: "bytearray"  # the records, slots * _REC bytes used as a ring
    rec: "bytearray"  # the record being made (_BODY bytes)
    fnos: "array"  # event i's frame number since boot (ages, not 16-bit seqs) at i % slots
    times: "array"
    bits: "bytearray"  # bit f % _BITS: frame f was an event
    # the tags' records: `tagbuf` a pool used as a ring, a record there the count of its bytes
    # carried (1 byte), the message's length as the tag says (2, big-endian), those bytes, the
    # next record right after it. Record i (of tag_n since boot; the last _TAGS have their place)
    # came in TAG frame tag_fno[i % _TAGS] and begins at byte tag_at[i % _TAGS] of all written,
    # counted modulo 65536 (a multiple of _TAG_BYTES): in tagbuf at that modulo _TAG_BYTES, and
    # whole while no more than _TAG_BYTES have been written from there on (since.py). (The fewer
    # attributes a Ring has, the smaller its dict.)
    tagbuf: "bytearray"
    tag_at: "array"
    tag_fno: "array"
    # set by making.ring_clear (which says what each counts)
    clock: "object"  # the board's clock() in ms, or None
    t0: "int"
    total: "int"
    first: "int"
    at: "int"
    put: "int"
    last_gone: "int"
    frames: "int"
    seq: "int"
    replaying: "bool"
    tag_n: "int"
    code: "int"

    def __init__(self, clock, slots=_SLOTS, t0=0):
        import making  # boot-only code (let go once the board is built)

        making.ring(self, slots, _REC, _BODY, _BITS, _TAG_BYTES, _TAGS)
        making.ring_clear(self, clock, t0)

    def tag(self, length, data, n):
        """The frame just written was a TAG (its record: the message's `length` as the tag says,
        data[:n] as read, n at most 64): kept for the CARD + that follows it, written over the
        oldest records. Allocates nothing."""
        b = self.tagbuf
        at = self.tag_at
        p = 0  # where it goes: right after the last one
        if self.tag_n > 0:
            p = at[(self.tag_n - 1) % _TAGS]
            p = (p + b[p % _TAG_BYTES] + 3) & 0xFFFF
        k = self.tag_n % _TAGS
        at[k] = p
        self.tag_fno[k] = self.frames - 1
        b[p % _TAG_BYTES] = n
        b[(p + 1) % _TAG_BYTES] = (length >> 8) & 255
        b[(p + 2) % _TAG_BYTES] = length & 255
        q = (p + 3) % _TAG_BYTES
        first = _TAG_BYTES - q if q + n > _TAG_BYTES else n  # up to the pool's end, the rest from 0
        copy_bytes(b, q, data, 0, first)
        copy_bytes(b, 0, data, first, n - first)
        self.tag_n += 1

    def frame(self, buf, start, end, seq, fno, keep):
        """A frame was written: buf[start:end] is its body. Kept when `keep` (an event)."""
        i = fno & _MASK
        m = 1 << (i & 7)
        bits = self.bits
        if keep:
            bits[i >> 3] |= m
        else:
            bits[i >> 3] &= 255 ^ m
        self.frames = fno + 1
        self.seq = (seq + 1) & 0xFFFF
        if not keep:
            return
        n = self._pack(buf, start, end)
        b = self.body
        size = len(b)
        while self.first < self.total and (
            self.total - self.first >= self.slots or (self.put - self.at) % size + n + 1 >= size
        ):
            self.last_gone = self.fnos[self.first % self.slots]  # the oldest goes
            self.at = (self.at + b[self.at] + 1) % size
            self.first += 1
        p = self.put
        b[p] = n
        for j in range(n):
            p = (p + 1) % size
            b[p] = self.rec[j]
        self.put = (p + 1) % size
        k = self.total % self.slots
        self.fnos[k] = fno
        c = self.clock
        self.times[k] = c() if c is not None else time.ticks_diff(time.ticks_ms(), self.t0)  # type: ignore
        self.total += 1

    def _pack(self, buf, s, e):
        """The record of event body buf[s:e] into self.rec (above); its length."""
        r = self.rec
        c = self.code
        if c:  # the loop said what it is: its kind and up to three numbers
            self.code = 0
            for j in range(4):
                r[j] = c & 255
                c >>= 8
            return 4 if r[0] == _FAULT else 2 if r[0] == _BTN else 3
        m = buf[s + 5] if e - s > 8 else 0
        if buf[s] == 0x43 and buf[s + 1] == 0x41 and (m == 0x2B or m == 0x2D) and e - s <= 27 and (e - s) & 1:
            n = 1  # CARD <+|-> <uid>: the UID's hex digits as bytes
            i = s + 7
            while i < e:
                hi = _hexval(buf[i])
                lo = _hexval(buf[i + 1])
                if hi < 0 or lo < 0:
                    break
                r[n] = (hi << 4) | lo
                n += 1
                i += 2
            if i == e:
                r[0] = _CARD_IN if m == 0x2B else _CARD_OUT
                return n
        n = e - s if e - s < _BODY else _BODY
        while n > 0 and buf[s + n - 1] == _SPACE:
            n -= 1
        for j in range(n):
            r[j] = buf[s + j]
        return n


def _hexval(c):
    """An upper-case hex digit's value (a UID's, as FrameWriter.hex writes it), or -1."""
    if 0x30 <= c <= 0x39:
        return c - 0x30
    return c - 0x37 if 0x41 <= c <= 0x46 else -1


# The board's ring, made when this module is first imported (app.py imports it at boot): its
# buffers want whole pieces of heap, which are easiest to find before anything else fragments it.
_RING = Ring(None)


def boot_ring(boot_ms):
    """The board's ring, cleared (a new boot: every event forgotten), its times in ms since
    time.ticks_ms() was boot_ms. Boot-only: the clearing is making.py's."""
    import making

    making.ring_clear(_RING, None, boot_ms)
    return _RING
