# SINCE: the board replays the events its ring keeps (ring.py, docs/protocol.md "The event
# ring"). start() finds the first kept event after the host's sequence number and counts the
# events after it that the ring no longer holds; step() writes the OLD frames a few a pass, as
# the output queue has room, then the closing `OK <cmd> SINCE n=<sent> lost=<k>`.
#
# app.App loads this module for a SINCE and lets it go when the replay is over, so its code
# takes no heap while a game runs without one. step() allocates nothing.

from micropython import const

from ring import BITS

_PER_PASS = const(2)  # OLD frames written at most per pass of the loop
_ROOM = const(400)  # output queue bytes left free for live frames while replaying
_MASK = const(2047)


def begin(r, seq, args):
    """SINCE <seq> (4 hex digits) or SINCE all, asked with sequence number `seq`: start() on
    ring r; ValueError saying what is wrong with the arguments."""
    if len(args) != 1 or not (args[0] == "all" or len(args[0]) == 4):
        raise ValueError("SINCE needs a sequence number (4 hex digits) or all")
    start(r, seq, None if args[0] == "all" else int(args[0], 16))


def oldest(r):
    """Index of the oldest event still kept in ring r."""
    return r.total - r.slots if r.total > r.slots else 0


def _count(r, lo, hi):
    """Events among frames lo..hi-1 (all within the bitmap's reach)."""
    bits = r.bits
    n = 0
    f = lo
    while f < hi:
        i = f & _MASK
        b = bits[i >> 3]
        if (i & 7) == 0 and f + 8 <= hi:
            while b:  # the bits set in a whole byte
                b &= b - 1
                n += 1
            f += 8
            continue
        if b & (1 << (i & 7)):
            n += 1
        f += 1
    return n


def start(r, cmd_seq, since):
    """SINCE: replay every event of ring r after sequence number `since` (an int), or every
    kept event when `since` is None. "After" is counted back from now: the events written
    since the frame that bore `since`, within the last 65535 frames."""
    slots = r.slots
    lo = oldest(r)
    r.r_lost = 0
    r.r_more = False
    if since is None:
        first = lo
        r.r_lost = lo
    else:
        age = (r.seq - since) & 0xFFFF  # frames written since `since`, itself included
        f_since = r.frames - age  # the frame number that bore `since`
        first = r.total
        i = lo
        while i < r.total:
            if r.fnos[i % slots] > f_since:
                first = i
                break
            i += 1
        if lo > 0 and r.last_gone > f_since:  # events after `since` fell out of the ring
            reach = r.frames - BITS
            if reach < 0:
                reach = 0
            hi = r.fnos[first % slots] if first < r.total else r.last_gone + 1
            if f_since + 1 >= reach:
                r.r_lost = _count(r, f_since + 1, hi)
            else:
                n = _count(r, reach, hi) if hi > reach else 0
                r.r_lost = n if n > 0 else 1
                r.r_more = True
    r.r_i = first
    r.r_end = r.total
    r.r_cmd = cmd_seq
    r.r_n = 0
    r.replaying = True


def step(r, w, free):
    """Write ring r's next OLD frames through FrameWriter `w` while the output queue has `free`
    bytes to spare, then the closing OK. Allocates nothing."""
    slots = r.slots
    sent = 0
    while r.replaying and sent < _PER_PASS and free >= _ROOM:
        lo = oldest(r)
        if r.r_i < lo:  # pushed out while the replay went on
            r.r_lost += lo - r.r_i
            r.r_i = lo
        if r.r_i >= r.r_end:
            w.begin(b"OK")
            w.arg(b"")
            w.hex(r.r_cmd, 4)
            w.arg(b"SINCE")
            w.kv(b"n", r.r_n)
            w.arg(b"lost=")
            if r.r_more:
                w.raw(b">")
            w.int(r.r_lost)
            w.end()
            r.replaying = False
            return
        k = r.r_i % slots
        base = k * r.width
        w.begin(b"OLD")
        w.arg(b"")
        w.hex(r.seqs[k], 4)
        w.arg_int(r.times[k])
        w.arg(b"")
        w.copy(r.body, base, base + r.lens[k])
        w.end()
        r.r_i += 1
        r.r_n += 1
        sent += 1
        free -= 100
