# The board's memory of its recent events, kept until the host has them (docs/protocol.md,
# "The event ring").
#
# A snapshot restores what is a state (a pair in a hole, a card on the reader); it cannot bring
# back what is over before it is taken: a card tapped and lifted, a click and its order against
# a tap. So every event frame (HOLE, CARD, BTN, FAULT, CLEAR) is also kept here, its body (the
# bytes between `@SSSS ` and `*`) with its frame number and the board's time in ms (the
# clock of the heartbeat's up=), in slots preallocated at boot. The host asks `SINCE <seq>`
# after anything it may have missed, and the board replays every kept event after that number,
# oldest first, as `OLD <seq> <ms> <TYPE> <args...>` frames, paced as the output queue has room
# (a few a pass, so the scan never waits), then answers `OK <cmd> SINCE n=<sent> lost=<k>`.
#
# A tag's record (the TAG frame sent just before its CARD +) does not fit a slot (a message of up
# to 64 bytes, 150 as hex), so it is kept beside the ring, in binary, in a pool of its own
# (TAG_BYTES bytes, the last TAGS records at most); the replay sends it, as
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

SLOTS = const(64)  # events kept
# bytes kept of a frame's body (CARD with a 10-byte UID: 27, a sensor's fault 30: "FAULT sensor
# s40 never settles"); a longer FAULT (the reader's error, an exception) is cut
BODY = const(30)
BITS = const(2048)  # frames the event bitmap remembers (half an hour of heartbeats)
_MASK = const(2047)
_SPACE = const(0x20)
# bytes kept of the tags' records (each its bytes and 3 more): the last 8 upref records of any
# game (16 to 28 bytes), 3 of 64; it divides 65536
TAG_BYTES = const(256)
TAGS = const(8)  # tag records kept at most


class Ring:
    """Ring(clock, slots=SLOTS, t0=0): the last `slots` event frames (BODY bytes of each), and
    beside them the records of the last TAGS tags that arrived, in a pool of TAG_BYTES.

    clock() gives the board's time in ms (the heartbeat's up=); with clock None, it is
    time.ticks_diff(time.ticks_ms(), t0). frame(buf, start, end, seq, fno, keep) is called
    for every frame written (fno counts frames since boot); tag(length, data, n) right after a
    TAG frame is written keeps its record. since.start() begins a replay for
    SINCE and since.step() writes it out a few frames at a time.
    """

    # made by making.ring (declared here for the type checker; MicroPython ignores these)
    slots: "int"
    body: "bytearray"  # slot k's body at k * BODY, a shorter one ended by a 0
    fnos: "array"  # frame numbers since boot (ages, not 16-bit seqs)
    times: "array"
    bits: "bytearray"  # bit f % BITS: frame f was an event
    # the tags' records: `tagbuf` a pool used as a ring, a record there the count of its bytes
    # carried (1 byte), the message's length as the tag says (2, big-endian), those bytes, the
    # next record right after it. Record i (of tag_n since boot; the last TAGS have their place)
    # came in TAG frame tag_fno[i % TAGS] and begins at byte tag_at[i % TAGS] of all written,
    # counted modulo 65536 (a multiple of TAG_BYTES): in tagbuf at that modulo TAG_BYTES, and
    # whole while no more than TAG_BYTES have been written from there on (since.py). (The fewer
    # attributes a Ring has, the smaller its dict.)
    tagbuf: "bytearray"
    tag_at: "array"
    tag_fno: "array"

    def __init__(self, clock, slots=SLOTS, t0=0):
        import making  # boot-only code (let go once the board is built)

        making.ring(self, slots, BODY, BITS, TAG_BYTES, TAGS)
        self.clear(clock, t0)

    def clear(self, clock, t0=0):
        """Forget every event: a new boot, timed by clock() (or from t0, see the class)."""
        self.clock = clock
        self.t0 = t0
        for i in range(len(self.bits)):
            self.bits[i] = 0
        self.total = 0  # events kept since boot; event i lies in slot i % slots
        self.last_gone = -1  # frame number of the last event pushed out of the ring
        self.frames = 0  # frames seen (frame number of the next one)
        self.seq = 0  # sequence number of the next frame
        self.replaying = False  # a replay goes on (since.py keeps where it is)
        self.tag_n = 0  # records kept since boot

    def tag(self, length, data, n):
        """The frame just written was a TAG (its record: the message's `length` as the tag says,
        data[:n] as read, n at most 64): kept for the CARD + that follows it, written over the
        oldest records. Allocates nothing."""
        b = self.tagbuf
        at = self.tag_at
        p = 0  # where it goes: right after the last one
        if self.tag_n > 0:
            p = at[(self.tag_n - 1) % TAGS]
            p = (p + b[p % TAG_BYTES] + 3) & 0xFFFF
        k = self.tag_n % TAGS
        at[k] = p
        self.tag_fno[k] = self.frames - 1
        b[p % TAG_BYTES] = n
        b[(p + 1) % TAG_BYTES] = (length >> 8) & 255
        b[(p + 2) % TAG_BYTES] = length & 255
        q = (p + 3) % TAG_BYTES
        first = TAG_BYTES - q if q + n > TAG_BYTES else n  # up to the pool's end, the rest from 0
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
        slots = self.slots
        k = self.total % slots
        if self.total >= slots:
            self.last_gone = self.fnos[k]
        n = end - start
        if n > BODY:
            n = BODY
        while n > 0 and buf[start + n - 1] == _SPACE:
            n -= 1  # a cut at a space would leave an empty argument
        base = k * BODY
        b = self.body
        copy_bytes(b, base, buf, start, n)
        if n < BODY:
            b[base + n] = 0  # a shorter body ends at a 0 (since.py reads it so)
        self.fnos[k] = fno
        c = self.clock
        self.times[k] = c() if c is not None else time.ticks_diff(time.ticks_ms(), self.t0)
        self.total += 1


# The board's ring, made when this module is first imported (app.py imports it at boot): its
# 2 KB must be one piece of heap, which is easiest to find before anything else fragments it.
_RING = Ring(None)


def boot_ring(boot_ms):
    """The board's ring, cleared, its times in ms since time.ticks_ms() was boot_ms."""
    _RING.clear(None, boot_ms)
    return _RING
