# The making of the objects the loop keeps: the card watcher, the feedback, the output queue, the
# event ring (and its clearing at boot) and the sticker reader. Each class's __init__ hands its arguments here, so the code
# that checks them and sets the attributes up, run once at boot, takes no heap afterwards:
# service.init and board.Board let this module go once the board is built (a test that builds
# more keeps it loaded). What each attribute means is said in its class, where it is declared.
#
# Pure logic, no `machine`; nothing here imports app.py.

from array import array

from micropython import const

_NO_MESSAGE = const(-1)  # ntag: NtagReader.length before a message is read
_CC_PAGE = const(3)  # ntag: the page of the capability container, where a read begins
_BEEP_STEPS = const(8)  # feedback.MAX_STEPS
_FIFO_ADDR = const(0x12)  # the MFRC522's FIFODataReg (09h) as an SPI address byte: (09h << 1) & 7Eh
_NTAG_READ = const(16)  # ntag._READ_BYTES: the bytes of a READ's answer


def card_watcher(w, reader, miss_limit, error_limit):
    """cards.CardWatcher(reader, miss_limit, error_limit, tags), but its reader and tags."""
    if not isinstance(miss_limit, int) or miss_limit < 1:
        raise ValueError("miss_limit must be >= 1: %r" % (miss_limit,))
    if not isinstance(error_limit, int) or error_limit < 1:
        raise ValueError("error_limit must be >= 1: %r" % (error_limit,))
    w._miss_limit = miss_limit
    w._error_limit = error_limit
    w.uid = bytearray(10)
    w.uid_len = 0
    w.present = False
    w.errors = 0
    w.reinits = 0
    w.ok = True
    w._last_exc = None
    w._failed_read = False
    w._reinit_failed = False
    w._buf = bytearray(10)
    w._next = bytearray(10)
    w._next_len = 0
    w._misses = 0
    w.reads = 0
    w._error_run = 0
    w.reading = False
    w.crowded = False
    w._hears = hasattr(reader, "collided")


def feedback(f):
    """feedback.Feedback's state: no beep pattern, the LED not timed."""
    f._hz = [0] * _BEEP_STEPS
    f._ms = [0] * _BEEP_STEPS
    f._steps = 0
    f._step = -1
    f._step_end = 0
    f._led_until = 0
    f._led_timed = False


def frame_queue(q, size, fifo, bytes_per_s):
    """frame_queue.FrameQueue(port, size, fifo, bytes_per_s) but its port and clock."""
    if size < 1 or fifo < 1 or bytes_per_s < 1:
        raise ValueError("invalid output queue: size %d, FIFO %d, %d bytes/s" % (size, fifo, bytes_per_s))
    q._buf = bytearray(size)
    q._size = size
    q._head = 0
    q.queued = 0
    q._fifo = fifo
    q._rate = bytes_per_s
    q._level = 0
    q.dropped = 0
    q.peak = 0


def ring(r, slots, rec, body, bits, tag_bytes, tags):
    """ring.Ring's buffers: a pool of `rec` bytes an event for the last `slots` (and the record
    being made, `body` bytes), their frame numbers and times, a bitmap of `bits` frames, and
    the pool of the last `tags` tags' records, `tag_bytes` in all."""
    if slots < 1:
        raise ValueError("invalid event ring: %d slots" % slots)
    r.slots = slots
    r.body = bytearray(max(slots * rec, body + 1) + 1)  # a byte left free: see Ring.clear
    r.rec = bytearray(body)
    r.fnos = array("i", [0] * slots)
    r.times = array("i", [0] * slots)
    r.bits = bytearray(bits // 8)
    r.tagbuf = bytearray(tag_bytes)
    r.tag_at = array("H", [0] * tags)
    r.tag_fno = array("i", [0] * tags)


def ring_clear(r, clock, t0):
    """ring.Ring `r` with every event forgotten (a new boot), timed by clock() (or from t0)."""
    r.clock = clock
    r.t0 = t0
    for i in range(len(r.bits)):
        r.bits[i] = 0
    r.total = 0  # events kept since boot; event i's frame number and time at i % slots
    # the oldest event kept, its record at `at` in body; `put` where the next goes (a byte is
    # always left free, so put == at says the pool is empty)
    r.first = 0
    r.at = 0
    r.put = 0
    r.last_gone = -1  # frame number of the last event pushed out of the ring
    r.frames = 0  # frames seen (frame number of the next one)
    r.seq = 0  # sequence number of the next frame
    r.replaying = False  # a replay goes on (since.py keeps where it is)
    r.tag_n = 0  # records kept since boot
    r.code = 0  # the next event's record, as the loop gives it (ring.py), or 0


def ntag_reader(t, message, memory):
    """ntag.NtagReader(reader) but its reader: a message buffer of `message` bytes, `memory`
    bytes of user memory behind the X byte and the CC (with room for a CRC_A after), the FIFO
    transactions of a READ and a FAST_READ and the views their answers land in."""
    t.buf = bytearray(message)
    t.length = _NO_MESSAGE
    t.n = 0
    t._memx = bytearray(5 + memory + 2)
    m = memoryview(t._memx)
    t._mem = m[5:5 + memory]
    t._have = 0
    t._level = _CC_PAGE
    t._txb = bytearray(4)
    t._txb[0] = _FIFO_ADDR
    v = memoryview(t._txb)
    t._txv = (v[0:1], v[0:2], v[0:3], v[0:4])
    n = 2 * _NTAG_READ + 3
    rd = bytearray(n)
    for i in range(n):
        rd[i] = _FIFO_ADDR | 0x80
    t._rdb = rd
    rv = memoryview(rd)
    # the X byte, then a READ's 16 bytes, with the CRC_A 18, a FAST_READ's 32, with the CRC_A 34
    t._rdv = (rv[0:17], rv[0:19], rv[0:33], rv[0:35])
    # where answers land (ntag.NtagReader._read's j): a READ and the FAST_READ at the start,
    # then the READs after the FAST_READ at their places in the memory (the X byte on the byte
    # before, which the read puts back), each without and with its CRC_A
    views = [m[0:17], m[0:19], m[0:33], m[0:35]]
    for at in range(4 + 28, 4 + memory, _NTAG_READ):
        views.append(m[at:at + 17])
        views.append(m[at:at + 19])
    t._rxv = tuple(views)
