# SINCE: the board replays the events its ring keeps (ring.py, docs/protocol.md "The event
# ring"). start() finds the first kept event after the host's sequence number and counts the
# events after it that the ring no longer holds; step() writes the OLD frames a few a pass, as
# the output queue has room, then the closing `OK <cmd> SINCE n=<sent> lost=<k>`. A CARD +
# whose tag's record the ring still keeps beside it (its pool of records) is preceded by that
# record, as `OLD <seq> <ms> TAG <uid> <length> <hex|->`: the TAG frame's own sequence number
# (the one before its CARD +'s), the CARD's time. n counts the events, not their records.
#
# app.App loads this module for a SINCE and lets it go when the replay is over, so its code,
# and the state of the replay under way (this module's globals; the ring says only whether one
# goes on, `replaying`), take no heap while a game runs without one. step() allocates nothing.

from micropython import const

from holes import KIND_WORDS, REASON_WORDS

# ring.py's: the frames its bitmap remembers, the bytes and the count of the tags' records
_BITS = const(2048)
_TAG_BYTES = const(256)
_TAGS = const(8)
_PER_PASS = const(2)  # OLD frames written at most per pass of the loop
_ROOM = const(400)  # output queue bytes left free for live frames while replaying
_MASK = const(2047)
_TAG_ROOM = const(200)  # output queue bytes an OLD TAG may take (a frame is at most 200)
# what a record of the ring holds (ring.py's): its first byte, or (32 and above) the body's text
_HOLE = const(1)
_BTN = const(2)
_CARD_IN = const(3)
_CARD_OUT = const(4)
_FAULT = const(5)

# the replay under way: the next event's index in the ring and where its record is, the end,
# the SINCE's command number, events sent, events lost (at least, when `_more`), the next
# event's TAG sent
_i = 0
_at = 0
_end = 0
_cmd = 0
_n = 0
_lost = 0
_more = False
_tag = False


def begin(r, seq, args):
    """SINCE <seq> (4 hex digits) or SINCE all, asked with sequence number `seq`: start() on
    ring r; ValueError saying what is wrong with the arguments."""
    if len(args) != 1 or not (args[0] == "all" or len(args[0]) == 4):
        raise ValueError("SINCE needs a sequence number (4 hex digits) or all")
    start(r, seq, None if args[0] == "all" else int(args[0], 16))


def oldest(r):
    """Index of the oldest event still kept in ring r."""
    return r.first


def _next(r, p):
    """Where the record after the one at p in ring r's pool begins."""
    return (p + r.body[p] + 1) % len(r.body)


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
    global _i, _at, _end, _cmd, _n, _lost, _more, _tag
    slots = r.slots
    lo = oldest(r)
    _lost = 0
    _more = False
    _at = r.at
    if since is None:
        first = lo
        _lost = lo
    else:
        age = (r.seq - since) & 0xFFFF  # frames written since `since`, itself included
        f_since = r.frames - age  # the frame number that bore `since`
        first = lo
        while first < r.total and r.fnos[first % slots] <= f_since:
            first += 1
            _at = _next(r, _at)
        if lo > 0 and r.last_gone > f_since:  # events after `since` fell out of the ring
            reach = r.frames - _BITS
            if reach < 0:
                reach = 0
            hi = r.fnos[first % slots] if first < r.total else r.last_gone + 1
            if f_since + 1 >= reach:
                _lost = _count(r, f_since + 1, hi)
            else:
                n = _count(r, reach, hi) if hi > reach else 0
                _lost = n if n > 0 else 1
                _more = True
    _i = first
    _end = r.total
    _cmd = cmd_seq
    _n = 0
    _tag = False
    r.replaying = True


def _body(r, w, p):
    """Write ' ' and the body of the event whose record is at p in ring r's pool, as it was
    first sent. Allocates nothing."""
    b = r.body
    size = len(b)
    n = b[p]
    kind = b[(p + 1) % size]
    if kind >= 0x20:  # its text, in one piece or two (the pool's end between)
        w.arg(b"")
        s = (p + 1) % size
        if s + n <= size:
            w.copy(b, s, s + n)
        else:
            w.copy(b, s, size)
            w.copy(b, 0, s + n - size)
    elif kind == _HOLE or kind == _BTN:
        w.arg(b"HOLE" if kind == _HOLE else b"BTN")
        for j in range(2, n + 1):
            w.arg_int(b[(p + j) % size])
    elif kind == _CARD_IN or kind == _CARD_OUT:
        w.arg(b"CARD")
        w.arg(b"+" if kind == _CARD_IN else b"-")
        _uid(r, w, p)
    else:
        k = b[(p + 2) % size]
        w.arg(b"FAULT" if kind == _FAULT else b"CLEAR")
        w.arg(KIND_WORDS[k])
        w.arg(b"s" if k == 0 else b"h")  # holes.SENSOR, holes.HOLE
        w.int(b[(p + 3) % size])
        if kind == _FAULT:
            w.arg(REASON_WORDS[b[(p + 4) % size]])


def _uid(r, w, p):
    """Write ' ' and the UID of the CARD whose record is at p in ring r's pool."""
    b = r.body
    w.arg(b"")
    for j in range(2, b[p] + 1):
        w.hex(b[(p + j) % len(b)], 2)


def _seq(r, k):
    """The sequence number of the event in slot k of ring r (ring.py: from its frame number)."""
    return (r.seq - r.frames + r.fnos[k]) & 0xFFFF


def _record(r, fno):
    """Where ring r keeps the record of TAG frame `fno` (its index in tag_at), or -1 when it
    keeps it no more: later records have been written over it (ring.Ring.tag)."""
    n = r.tag_n
    if n == 0:
        return -1
    at = r.tag_at
    last = at[(n - 1) % _TAGS]
    end = last + r.tagbuf[last % _TAG_BYTES] + 3  # where the next record goes
    i = n - _TAGS if n > _TAGS else 0
    while i < n:
        k = i % _TAGS
        if r.tag_fno[k] == fno:
            return k if (end - at[k]) & 0xFFFF <= _TAG_BYTES else -1
        i += 1
    return -1


def _old_tag(r, w, k, i):
    """Write the OLD TAG of the CARD + in slot k of ring r (its record at _at), from its tag's
    record i (its index in tag_at). Allocates nothing."""
    b = r.tagbuf
    size = _TAG_BYTES
    p = r.tag_at[i]
    n = b[p % size]
    w.begin(b"OLD")
    w.arg(b"")
    w.hex((_seq(r, k) - 1) & 0xFFFF, 4)
    w.arg_int(r.times[k])
    w.arg(b"TAG")
    _uid(r, w, _at)
    w.arg_int((b[(p + 1) % size] << 8) | b[(p + 2) % size])
    w.arg(b"" if n else b"-")
    for j in range(n):
        w.hex(b[(p + 3 + j) % size], 2)
    w.end()


def step(r, w, free):
    """Write ring r's next OLD frames through FrameWriter `w` while the output queue has `free`
    bytes to spare, then the closing OK. Allocates nothing."""
    global _i, _at, _n, _lost, _tag
    slots = r.slots
    sent = 0
    while r.replaying and sent < _PER_PASS and free >= _ROOM:
        lo = oldest(r)
        if _i < lo:  # pushed out while the replay went on
            _lost += lo - _i
            _i = lo
            _at = r.at
            _tag = False
        if _i >= _end:
            w.begin(b"OK")
            w.arg(b"")
            w.hex(_cmd, 4)
            w.arg(b"SINCE")
            w.kv(b"n", _n)
            w.arg(b"lost=")
            if _more:
                w.raw(b">")
            w.int(_lost)
            w.end()
            r.replaying = False
            return
        k = _i % slots
        if not _tag:  # first the record of the tag that came with this event, if kept
            _tag = True
            i = _record(r, r.fnos[k] - 1)
            if i >= 0:
                _old_tag(r, w, k, i)
                sent += 1
                free -= _TAG_ROOM
                continue
        w.begin(b"OLD")
        w.arg(b"")
        w.hex(_seq(r, k), 4)
        w.arg_int(r.times[k])
        _body(r, w, _at)
        w.end()
        _at = _next(r, _at)
        _i += 1
        _tag = False
        _n += 1
        sent += 1
        free -= 100
