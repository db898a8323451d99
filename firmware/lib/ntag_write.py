# TAGW: write a sticker's user memory (its NDEF record) from page 4, and read it back
# (docs/tags.md, `upref tags write`). Loaded for the command and let go afterwards (service.py),
# so its code takes no heap while a game runs; it is blocking, about 5 ms a page: nothing is
# played while a deck is written.
#
# NTAG WRITE (A2h, a page, 4 bytes, CRC_A) answers a 4-bit ACK (Ah) or NAK (NTAG213 datasheet
# 10.4); a locked page or an address outside the memory gets a NAK, and the card falls back to
# IDLE. The capability container (page 3) says whether the tag holds NDEF data (E1h), how big
# its data area is (byte 2, in 8-byte units) and whether it may be written (byte 3, 00h).

from micropython import const
import time

from mfrc522_setup import load_fifo, read_fifo, read_reg, write_reg  # let go with this module

_COMMAND_REG = const(0x01)
_COM_IRQ_REG = const(0x04)
_FIFO_LEVEL_REG = const(0x0A)
_CONTROL_REG = const(0x0C)
_BIT_FRAMING_REG = const(0x0D)
_TX_MODE_REG = const(0x12)
_RX_MODE_REG = const(0x13)
_CMD_IDLE = const(0x00)
_CMD_TRANSCEIVE = const(0x0C)
_START_SEND = const(0x80)
_CRC_EN = const(0x80)
_RX_IRQ = const(0x20)
_IDLE_IRQ = const(0x10)
_TIMER_IRQ = const(0x01)
_ALL_COM_IRQ = const(0x7F)
_WRITE_MS = const(12)  # the NTAG's EEPROM takes 4.1 ms to write a page; the chip's timer
# waits 1 ms for the answer's start, so a longer timer for WRITE
_NTAG_WRITE = const(0xA2)
_ACK = const(0x0A)
_CC_PAGE = const(3)
_USER_PAGE = const(4)
_NDEF_MAGIC = const(0xE1)
_STEPS = const(12)  # a read of the UID takes at most this many exchanges


def command(a, seq, args):
    """TAGW <uid> <hex>: answered OK with the pages written, or ERR with why not."""
    if len(args) != 2 or len(args[1]) % 8 or not args[1] or len(args[1]) > 128:
        raise ValueError("TAGW needs a UID and 1 to 16 whole pages of hex")
    data = bytes(int(args[1][i:i + 2], 16) for i in range(0, len(args[1]), 2))
    why = write(a, args[0], data)
    if why:
        a.reply_err(seq, "TAGW", why)
    else:
        a.reply_ok(seq, "TAGW", "pages=%d" % (len(data) // 4))


def write(a, uid, data):
    """Write `data` (whole pages) from page 4 of the card `uid` (hex) that lies on the reader,
    read it back; None when done, else the reason in words."""
    r = a.reader
    tags = a.cards.tags
    if tags is None:
        return "this board reads no stickers' memory"
    why = _select(a, r, uid)
    if why:
        return why
    if not tags._read(_CC_PAGE):
        return "the sticker did not answer a READ: it is not an NTAG, or it left the field"
    cc = tags._memx
    if cc[1] != _NDEF_MAGIC:
        return "the sticker is not formatted for NDEF (its capability container is %02X%02X%02X%02X)" % (
            cc[1], cc[2], cc[3], cc[4])
    if cc[4] & 0x0F:  # byte 3: read access in the high nibble, write access in the low
        return "the sticker is locked: its capability container says read-only"
    if len(data) > cc[3] * 8:
        return "the sticker is full: it holds %d bytes, the record needs %d" % (cc[3] * 8, len(data))
    for k in range(0, len(data), 4):
        page = _USER_PAGE + k // 4
        if not _write_page(r, page, data, k):
            return "the sticker is locked: page %d refused the write" % page
    for k in range(0, len(data), 16):
        page = _USER_PAGE + k // 4
        if not tags._read(page):
            return "the sticker stopped answering while it was read back"
        rx = tags._memx
        for i in range(min(16, len(data) - k)):
            if rx[1 + i] != data[k + i]:
                return "page %d reads back other bytes than written" % (page + i // 4)
    return None


def _select(a, r, uid):
    # The card that lies on the reader, woken and selected (ACTIVE): None, or why not.
    w = a.cards
    w.reading = False  # a read of the watcher's under way starts again after this one
    buf = bytearray(10)
    r.read_start()
    n = -1
    for _ in range(_STEPS):
        n = r.read_step(buf)
        if n != -1:
            break
    if n == 0:
        return "no card lies on the reader"
    if n < 0:
        return "the card could not be read: " + r.error_text()
    got = "".join("%02X" % buf[i] for i in range(n))
    if got != uid:
        return "card %s lies on the reader, not %s" % (got, uid)
    if r.sak != 0:
        return "card %s is not an NTAG (SAK %02X): upref writes NTAG213 stickers" % (uid, r.sak)
    return None


def _write_page(r, page, data, k):
    # WRITE of page `page` with data[k:k+4]; True on the card's ACK.
    write_reg(r, _TX_MODE_REG, _CRC_EN)  # the chip adds the CRC_A; the 4-bit ACK has none
    write_reg(r, _RX_MODE_REG, 0)
    tx = r._tx
    tx[0] = _NTAG_WRITE
    tx[1] = page
    for i in range(4):
        tx[2 + i] = data[k + i]
    write_reg(r, _COM_IRQ_REG, _ALL_COM_IRQ)
    load_fifo(r, r._txv[6], 6)
    write_reg(r, _COMMAND_REG, _CMD_TRANSCEIVE)
    write_reg(r, _BIT_FRAMING_REG, _START_SEND)
    start = time.ticks_ms()
    irq = 0
    while time.ticks_diff(time.ticks_ms(), start) < _WRITE_MS:
        irq = read_reg(r, _COM_IRQ_REG)
        if irq & (_RX_IRQ | _IDLE_IRQ):
            break
    write_reg(r, _COMMAND_REG, _CMD_IDLE)
    write_reg(r, _BIT_FRAMING_REG, 0)
    write_reg(r, _TX_MODE_REG, 0)
    r._crc_on = False  # both off, as the driver's cache says
    if not irq & (_RX_IRQ | _IDLE_IRQ):
        return False
    if read_reg(r, _FIFO_LEVEL_REG) != 1 or read_reg(r, _CONTROL_REG) & 0x07 != 4:
        return False
    read_fifo(r, 1)
    return r._rx[0] & 0x0F == _ACK
