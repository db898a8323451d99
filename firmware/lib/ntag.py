# The NDEF message on an NTAG213 sticker, read right after the card's SELECT (docs/tags.md).
#
# A sticker may carry its piece as an NDEF record (NFC Forum Type 2 Tag): the capability
# container in page 3 (E1h: NDEF data), the user memory from page 4, and in it TLV blocks: 00h
# (NULL, one byte), 03h (the NDEF message: a length, 1 byte or FFh and 2 bytes, then the
# message), FEh (the terminator), any other (lock or memory control: skipped by its length).
# The board does not read the message, it carries it: the host parses it (upref/board/ndef.py).
#
# NTAG FAST_READ (3Ah, the first and the last page, the chip's CRC_A) answers the pages between
# (NTAG213 datasheet 10.3), NTAG READ (30h, a page) the 16 bytes of four pages (10.2), each with
# its CRC_A, or a 4-bit NAK. The first exchange is a FAST_READ of pages 3 to 10: the CC and 28
# bytes of user memory, where a piece's record (24 bytes with its TLVs) is whole; a longer
# message takes a READ of 16 more at each next exchange, up to 76 bytes, until it is whole or
# the terminator comes. Each exchange (the FAST_READ about 3.5 ms on the air, a READ 2 ms) is
# one step of the card watcher (cards.CardWatcher), so the loop's scans go on between them. Nothing here allocates after __init__: the buffers and their views are made
# once, and a failed READ (a NAK, a garbled answer, the card gone) ends the read with no
# message, never an exception. OSError from a dead chip ends it the same way: the next read of
# the field finds the fault.
#
# It speaks to the MFRC522 driver (drivers/mfrc522) through the driver's exchange (_transceive)
# and its SPI bus for the long answer's FIFO read; the frames of a read of the UID stay the
# driver's own.
#
#   tags = NtagReader(reader)
#   if tags.start(uid_len): tags.step() until it returns NONE
#   tags.length: the message's length as its TLV says (-1: none), tags.buf[:tags.n] its bytes

from micropython import const

BUSY = const(-1)
NONE = const(0)  # step(): the read is over
_MAX_MESSAGE = const(64)  # the most of a message carried to the host (a TAG frame fits 200 bytes)
_MEM_BYTES = const(76)  # user memory read at most: 12 bytes with the CC, then 4 READs of 16

# ---- NTAG213 and the Type 2 Tag data area ----
_NTAG_READ = const(0x30)
_NTAG_FAST_READ = const(0x3A)  # pages from..to in one answer (NTAG213 datasheet 10.3)
_FAST_LAST = const(10)  # the first exchange: pages 3 to 10, the CC and 28 bytes of user memory
_CC_PAGE = const(3)
_NDEF_MAGIC = const(0xE1)  # CC byte 0: the tag holds NDEF data
_SAK_TYPE2 = const(0x00)  # SAK of an NTAG21x / Ultralight: no ISO/IEC 14443-4, no MIFARE Classic
_TLV_NULL = const(0x00)
_TLV_NDEF = const(0x03)
_TLV_TERMINATOR = const(0xFE)
_TLV_LONG = const(0xFF)  # a 3-byte length follows
_READ_BYTES = const(16)
_SENT = const(-3)  # mfrc522._SENT: the reader's exchange sent its frame ahead, the answer comes later
_FIRST_BYTES = const(28)  # user memory in the FAST_READ's answer (pages 4 to 10)


class NtagReader:
    """Reads the NDEF message of the card the MFRC522 `reader` has just selected. (Its
    attributes reuse names the firmware has already where they mean alike: every new name takes
    room in MicroPython's table of names.)"""

    # made by making.ntag_reader (declared here for the type checker; MicroPython ignores these)
    buf: "bytearray"  # the message, as much of it as is carried
    length: "int"  # the message's length as its TLV says; -1: no message
    n: "int"  # bytes of it in buf
    _memx: "bytearray"  # the X byte of a FIFO read, the CC (page 3), then the user memory
    _mem: "memoryview"  # user memory as read, from page 4: _memx[5:]
    _have: "int"  # bytes of it read
    _level: "int"  # the page the next exchange reads from
    _txb: "bytearray"  # the FIFO's address byte, then READ (FAST_READ) and its pages
    _txv: "tuple[memoryview, ...]"  # the transaction of k data bytes
    _rdb: "bytearray"  # the FIFO's read address, n times, then 00h
    # the views of a READ's 16-byte answer and a FAST_READ's 32, each also with the CRC_A the
    # chip may leave in the FIFO: made once
    _rdv: "tuple[memoryview, ...]"
    _rxv: "tuple[memoryview, ...]"

    def __init__(self, reader):
        import making  # boot-only code (let go once the board is built)

        making.ntag_reader(self, _MAX_MESSAGE, _MEM_BYTES)
        self._r = reader

    def start(self, uid_len):
        """A read of the card just selected begins when it may be an NTAG (a 7-byte UID and
        SAK 00h): True then, and step() goes on with it; False for any other card."""
        self.length = -1
        self.n = 0
        if uid_len != 7 or self._r.sak != _SAK_TYPE2:
            return False
        self._level = _CC_PAGE
        self._have = 0
        return True

    def step(self):
        """One exchange: FAST_READ of pages 3 to 10 first (a piece's record is whole in it), a
        READ of four pages after; BUSY while more is to be read, NONE when the read is over
        (`length` and `buf[:n]` say what it found). Each answer is read from the FIFO straight
        to its place in the memory (_mem is a view of _memx, behind the X byte and the CC)."""
        first = self._level == _CC_PAGE
        n = self._have
        try:
            ok = self._read(self._level, _FAST_LAST if first else 0, 1 if first else 2 + (n - _FIRST_BYTES) // _READ_BYTES)
        except OSError:
            self._r._cs.value(1)  # (a bus that raised left it low)
            ok = False
        if ok is None:
            return BUSY  # the frame went out ahead (ahead()): the next step takes the answer
        if not ok:
            self.length = -1
            self.n = 0
            return NONE
        if first and self._memx[1] != _NDEF_MAGIC:
            return NONE  # not formatted for NDEF
        n += _FIRST_BYTES if first else _READ_BYTES
        self._have = n
        self._level += _FAST_LAST - _CC_PAGE + 1 if first else 4
        if self.scan() == BUSY and n < _MEM_BYTES:
            return BUSY
        return NONE

    def scan(self):
        # The TLVs of the memory read so far: NONE when the message is whole (or as much of it
        # as is carried: then `length` and `msg` are set), or there is none; BUSY when more must
        # be read to tell.
        buf = self._mem
        n = self._have
        i = 0
        while i < n:
            t = buf[i]
            if t == _TLV_NULL:
                i += 1
                continue
            if t == _TLV_TERMINATOR:
                return NONE
            if i + 1 >= n:
                return BUSY
            size = buf[i + 1]
            head = 2
            if size == _TLV_LONG:
                if i + 3 >= n:
                    return BUSY
                size = (buf[i + 2] << 8) | buf[i + 3]
                head = 4
            if t != _TLV_NDEF:
                i += head + size
                continue
            at = i + head
            want = size if size < _MAX_MESSAGE else _MAX_MESSAGE
            if at + want > n and n < _MEM_BYTES:
                return BUSY
            got = n - at if at + want > n else want
            for k in range(got):
                self.buf[k] = buf[at + k]
            self.length = size
            self.n = got
            return NONE
        return BUSY

    def _read(self, page, last=0, j=0):
        # NTAG READ of four pages from `page`, or with `last` FAST_READ of pages page..last (8
        # pages: 32 bytes). The answer lands in _memx where view j puts it: 0 (a READ) and 1 (the
        # FAST_READ) at _memx[1:], 2, 3 and 4 the READs after the FAST_READ, each at its place in
        # the memory. True, or False when the card gave no good answer (a NAK, nothing, a garbled
        # or short answer). The exchange is the reader's (_transceive: the chip adds the CRC_A to
        # READ and checks the answer's); the answer, longer than the reader's own buffer, is
        # left in the FIFO for _fifo().
        r = self._r
        tx = self._txb
        tx[1] = _NTAG_FAST_READ if last else _NTAG_READ
        tx[2] = page
        tx[3] = last
        count = r._transceive(self._txv[3 if last else 2], 0, True, 2 * _READ_BYTES + 2)
        if count == _SENT:
            return None
        if count < 0 or r._coll or r._rx_bits:
            return False  # a NAK's 4 bits fail the CRC check too
        return self._fifo(count, 2 * _READ_BYTES if last else _READ_BYTES, j)

    def ahead(self):
        """The next step sends its READ (FAST_READ) and returns BUSY at once; the step after
        takes the answer (the reader's ahead(), for the sticker's exchanges)."""
        r = self._r
        r._ahead = r._sent_at is None

    def _fifo(self, count, size, j):
        # The FIFO's `count` bytes, an answer of `size` bytes with or without its CRC_A (the
        # chip may leave it there: then it is checked here), read in one SPI transaction
        # (8.1.2.1: the address byte count times, then 00h) into view j of _memx; the byte the
        # transaction's first (X) byte lands on is put back. True when whole and good.
        if count == size:
            k = 0
        elif count == size + 2:
            k = 1
        else:
            return False
        r = self._r
        rd = self._rdb
        rx = self._rxv[2 * j + k]
        keep = rx[0]
        last = rd[count]
        rd[count] = 0
        r._cs.value(0)
        try:
            r._spi.write_readinto(self._rdv[k if size == _READ_BYTES else 2 + k], rx)
        finally:
            r._cs.value(1)
            rd[count] = last
            rx[0] = keep
        return not k or _crc_a(rx, 1, size + 1) == rx[size + 1] | (rx[size + 2] << 8)


def _crc_a(buf, start, end):
    crc = 0x6363
    for i in range(start, end):
        crc ^= buf[i]
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc
