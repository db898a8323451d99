# The board's memory of its recent events, kept until the host has them (docs/protocol.md,
# "The event ring").
#
# A snapshot restores what is a state (a pair in a hole, a card on the reader); it cannot bring
# back what is over before it is taken: a card tapped and lifted, a click and its order against
# a tap. So every event frame (HOLE, CARD, BTN, FAULT, CLEAR) is also kept here, its body (the
# bytes between `@SSSS ` and `*`) with its sequence number and the board's time in ms (the
# clock of the heartbeat's up=), in slots preallocated at boot. The host asks `SINCE <seq>`
# after anything it may have missed, and the board replays every kept event after that number,
# oldest first, as `OLD <seq> <ms> <TYPE> <args...>` frames, paced as the output queue has room
# (a few a pass, so the scan never waits), then answers `OK <cmd> SINCE n=<sent> lost=<k>`.
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

SLOTS = const(64)  # events kept
BODY = const(32)  # bytes kept of a frame's body (CARD with a 10-byte UID: 27); a longer FAULT is cut
BITS = const(2048)  # frames the event bitmap remembers (half an hour of heartbeats)
_MASK = const(2047)
_SPACE = const(0x20)


class Ring:
    """Ring(clock, slots=SLOTS, body=BODY, t0=0): the last `slots` event frames.

    clock() gives the board's time in ms (the heartbeat's up=); with clock None, it is
    time.ticks_diff(time.ticks_ms(), t0). frame(buf, start, end, seq, fno, keep) is called
    for every frame written (fno counts frames since boot). since.start() begins a replay for
    SINCE and since.step() writes it out a few frames at a time.
    """

    # made by making.ring (declared here for the type checker; MicroPython ignores these)
    slots: "int"
    width: "int"  # bytes kept of a frame's body
    body: "bytearray"  # slot k's body at k * width
    lens: "bytearray"
    seqs: "array"
    fnos: "array"  # frame numbers since boot (ages, not 16-bit seqs)
    times: "array"
    bits: "bytearray"  # bit f % BITS: frame f was an event

    def __init__(self, clock, slots=SLOTS, body=BODY, t0=0):
        import making  # boot-only code (let go once the board is built)

        making.ring(self, slots, body, BITS)
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
        # the replay under way (since.py): next event index, end, command, sent, lost
        self.replaying = False
        self.r_i = 0
        self.r_end = 0
        self.r_cmd = 0
        self.r_n = 0
        self.r_lost = 0
        self.r_more = False

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
        if n > self.width:
            n = self.width
        while n > 0 and buf[start + n - 1] == _SPACE:
            n -= 1  # a cut at a space would leave an empty argument
        base = k * self.width
        b = self.body
        for j in range(n):
            b[base + j] = buf[start + j]
        self.lens[k] = n
        self.seqs[k] = seq
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
