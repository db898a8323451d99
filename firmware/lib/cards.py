# Card arrival and departure from an RFID reader polled every 10 to 30 ms.
#
# Pure logic, no `import machine`: the reader is anything with read_start(), read_step(buf) ->
# BUSY (-1) while a read goes on, else a length (0 when no card answers) or FAILED (-2: the read
# failed on the air; error_text() says why), OSError on a fault, and init(wait_ms) (the MFRC522
# driver in drivers/mfrc522). A reader that can also tell whether it still answers (alive())
# and what its last read heard (collided: several cards answered at once; garbled: the read
# failed on a corrupt answer) lets the watcher tell the air from the reader: errors while the
# chip answers are not a reader fault, and several cards are named.
#
# Only a collision names several cards. A garbled answer is what two overlapping cards mostly
# give on real air, but a single card at the edge of the field gives it too (bit errors on a
# weak answer), and three garbled reads in a row from such a card once made it "two cards".
# Two cards give a clean collision often enough (each read that reaches the anticollision may
# see one) that they are named within a few reads; a lone card never collides with itself.
#
#   watcher = CardWatcher(reader)
#   ev = watcher.poll()          # a whole read: ARRIVED, LEFT or NONE
#   ev = watcher.step()          # one exchange of it: BUSY until the read is over, then as poll()
#   watcher.ahead()              # the read's next frame sent now, its answer taken by step()
#   watcher.uid[:watcher.uid_len] is the card that arrived, lies there, or just left.
#
# Given `tags` (an ntag.NtagReader), a card that arrives is not reported at once: while it is
# still ACTIVE after its SELECT, the watcher reads its NDEF message first, one READ a step
# (BUSY meanwhile), and then reports ARRIVED with `tags.length` and `tags.msg` saying what the
# card carries (`tags.buf[:tags.n]`). A card that lies there is read once, when it arrives.

from micropython import const

from wire import copy_bytes

NONE = const(0)
ARRIVED = const(1)
LEFT = const(2)
BUSY = const(-1)
FAILED = const(-2)
_REINIT_WAIT_MS = const(3)  # a re-init from the main loop waits this long for the chip at most


class CardWatcher:
    """Turns per-poll reads into one ARRIVED and one LEFT per card, however long it lies there.

    A card is reported gone only after `miss_limit` consecutive polls without it, so a missed
    read (a card at the edge of the field answers only now and then: the board uses 3) never
    produces LEFT then ARRIVED. A poll that raises is neither a hit nor a miss. After `error_limit`
    consecutive errors the reader is a fault and re-initialised (and again after each further
    `error_limit` errors while it keeps failing) unless it still answers its version register
    (alive()): then the errors come from the air. poll() never raises OSError.

    Several cards on the reader: a read that heard a collision sets `crowded`, and does not
    count as a card arriving or leaving. A read that failed on a garbled answer (two cards on
    real air, or one card at the edge of the field) is neither a hit, a miss, nor crowding. The
    first clean read (one card, or none) clears it. Failed reads allocate nothing: the watcher
    keeps the exception or the reader's reason, and `last_error` words it when asked.
    """

    # made by making.card_watcher (declared here for the type checker; MicroPython ignores these)
    uid: "bytearray"  # the current card, or the one that just left
    uid_len: "int"
    present: "bool"  # a card is in the field (as far as the last good reads tell)
    errors: "int"  # OSErrors from the reader, including failed re-inits
    reinits: "int"  # calls to reader.init() made by the watcher
    ok: "bool"  # False after error_limit errors in a row, until a read succeeds
    _last_exc: "OSError | None"  # the last OSError, or None when the last error was a FAILED read
    _failed_read: "bool"  # an error seen: the reader's error_text() tells the last one
    _reinit_failed: "bool"  # the last error was a re-init's
    _buf: "bytearray"
    _next: "bytearray"  # a card that replaced the last one, read but not yet reported
    _next_len: "int"  # -1: the card in `uid` is read and its sticker's memory is being read
    _misses: "int"
    reads: "int"  # reads that found one card, read whole (the board's reads= figure)
    _error_run: "int"
    reading: "bool"  # a read is under way (step() continues it)
    crowded: "bool"  # several cards on the reader, as the last reads tell
    _hears: "bool"  # the reader says what its reads heard (collided, garbled)
    _miss_limit: "int"
    _error_limit: "int"

    def __init__(self, reader, miss_limit=2, error_limit=5, tags=None):
        # the checks and the rest of the state: boot-only code, in making.py (let go once the
        # board is built)
        import making

        making.card_watcher(self, reader, miss_limit, error_limit)
        self._reader = reader
        self.tags = tags  # reads an arriving card's NDEF message (ntag.NtagReader), or None

    def poll(self):
        """Read the field once, all at once. Returns ARRIVED, LEFT or NONE."""
        while True:
            ev = self.step()
            if ev != BUSY:
                return ev

    def ahead(self):
        """The read under way sends its next frame and returns at once (BUSY); the next step()
        takes the answer. For a caller about to stop reading for a while (the board's loop, for
        its scan): the frame's time on the air and the card's answer pass meanwhile. Nothing
        when no read is under way or its next exchange waits for no answer."""
        if not self.reading or self._next_len > 0:
            return
        t = self.tags
        if self._next_len and t is not None:
            t.ahead()  # the arriving card's sticker
        elif not self._reader.ahead():
            return
        self.step()

    def step(self):
        """One exchange with the field, a read begun if none is under way: BUSY while it goes
        on, then ARRIVED, LEFT or NONE."""
        n = self._next_len
        if n > 0:  # the card that replaced the last one, read by the step before
            self._next_len = 0
            self.reading = False
            return self._arrive(self._next, n)
        t = self.tags
        if n and t is not None:  # the arriving card's sticker, a READ a step
            if t.step() == BUSY:  # (n is -1 here: its UID is read)
                return BUSY
            self._next_len = 0
            self.reading = False
            self.present = True
            return ARRIVED
        r = self._reader
        try:
            if not self.reading:
                r.read_start()
                self.reading = True
            n = r.read_step(self._buf)
        except OSError as e:
            self.reading = False
            self._failed(e)
            return NONE
        if n == BUSY:
            return BUSY
        self.reading = False
        if n < 0:  # FAILED: the read failed on the air, but a card answered (or began to): the
            self._failed(None)  # field is not empty
            self._misses = 0
            return NONE
        self._error_run = 0
        self.ok = True
        if self._hears and r.collided:  # one card won the anticollision, but another answered
            self.crowded = True  # too: no card is taken
            return NONE
        self.crowded = False
        if n == 0:
            if not self.present:
                return NONE
            self._misses += 1
            if self._misses < self._miss_limit:
                return NONE
            self._misses = 0
            self.present = False
            return LEFT
        self._misses = 0
        self.reads += 1
        if self.present and self._same(n):
            return NONE
        if self.present:  # another card replaced it: its departure now, the new one's arrival
            self.present = False  # at the next step, from this read (the loop comes back at once)
            copy_bytes(self._next, 0, self._buf, 0, n)
            self._next_len = n
            self.reading = True
            return LEFT
        return self._arrive(self._buf, n)

    def _arrive(self, src, n):
        copy_bytes(self.uid, 0, src, 0, n)
        self.uid_len = n
        t = self.tags
        if t is not None and t.start(n):
            self._next_len = -1  # not reported until its sticker is read
            self.reading = True
            return BUSY
        self.present = True
        return ARRIVED

    def _same(self, n):
        if n != self.uid_len:
            return False
        buf = self._buf
        uid = self.uid
        for i in range(n):
            if buf[i] != uid[i]:
                return False
        return True

    @property
    def last_error(self):
        """The last error in words ("" before any); builds the text, so only for reports."""
        e = self._last_exc
        if e is not None:
            text = str(e)
        elif self._failed_read:
            text = self._reader.error_text()
        else:
            return ""
        return "re-init failed: " + text if self._reinit_failed else text

    def _failed(self, e):
        # A read that failed (e: its OSError, or None for FAILED): a collision heard on the way
        # names several cards; a garbled answer alone does not (a lone card at the edge of the
        # field gives those too).
        if self._hears and self._reader.collided:
            self.crowded = True
        self._last_exc = e
        self._failed_read = True
        self._reinit_failed = False
        self._fault()

    def _fault(self):
        # One failed read is noise on the air; error_limit in a row is a reader fault.
        self.errors += 1
        self._error_run += 1
        if self._error_run < self._error_limit:
            return
        self._error_run = 0
        if self._hears:
            try:
                if self._reader.alive():
                    return  # the chip answers: the errors are the air's, not the reader's
            except OSError:
                pass
        self.ok = False
        self.reinits += 1
        try:
            self._reader.init(_REINIT_WAIT_MS)
        except OSError as e2:
            self.errors += 1
            self._last_exc = e2
            self._reinit_failed = True

