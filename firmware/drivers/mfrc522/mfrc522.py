# MFRC522 (NXP, datasheet rev 3.9) contactless reader driver: ISO/IEC 14443-3 type A card
# detection, anticollision and selection for cascade levels 1 to 3 (4-, 7- and 10-byte UIDs).
#
# The SPI bus and the pins are passed in; this module never builds machine.SPI or machine.Pin.
# Runs unchanged under MicroPython (ESP32, unix port) and CPython (with a micropython shim).
#
#   reader = MFRC522(spi, cs, rst)      # spi: write/readinto/write_readinto; cs/rst: Pin-like
#   reader.init()                       # OSError if the chip does not answer
#   uid = bytearray(10)
#   n = reader.read_uid(uid)            # 0: no card; else 4, 7 or 10 bytes in uid[:n]
#
# A read is a handful of exchanges with the card (WUPA, anticollision and SELECT per cascade
# level). A main loop that must not stall does them one at a time: read_start(), then
# read_step(uid) until it returns something other than BUSY. Each step is one exchange: at
# most the chip's timer (1 ms) plus about 14 register accesses. The UID is returned by the step
# of the last SELECT; the card is halted (HLTA) by the first step of the next read, so the
# caller can report the card before that exchange. The chip adds and checks the CRC_A of
# SELECT and HLTA itself (TxModeReg/RxModeReg TxCRCEn/RxCRCEn), and the FIFO is written and
# read in one SPI transaction each.
#
# Whether the chip also removes a checked CRC_A from the FIFO is not written in the datasheet
# (9.3.2.4 only says RxCRCEn enables the CRC check on reception), so the SAK is taken either
# way: one byte, or the SAK with its two CRC_A bytes, which are then checked here as well.
#
# A read that fails on the air (a garbled answer, a card that stops answering, two cards) is no
# exception: read_step() returns FAILED, and nothing on that path allocates, so a card at the
# edge of the field costs the loop no garbage. (A pre-allocated exception raised again and again
# would not do: MicroPython appends to its traceback at each raise until the heap is full.)
# OSError stays for a chip that does not answer; the blocking calls (request, select, read_uid)
# raise OSError for a failed read too, with error_text(). What a polling loop never calls (the
# making of a reader, request, select, calc_crc, the reasons in words) is in mfrc522_extra.py,
# loaded for the call and let go, so it takes no heap while the board runs.

import sys

import micropython
from micropython import const
import time


def _setup(name, *args):
    # The set-up code (mfrc522_setup.py: the resets, the timer, the antenna, the gain, and the
    # register access the calls a polling loop never makes go through) is imported for the call
    # and let go, so it takes no heap while the board runs. A re-init of a failed reader from
    # the main loop pays for its import (a few ms, in a pass that has a reader fault to report).
    import mfrc522_setup

    try:
        return getattr(mfrc522_setup, name)(*args)
    except OSError:
        args[0]._cs.value(1)  # (args[0] is the reader: CS back high after a bus that raised)
        raise
    finally:
        del sys.modules["mfrc522_setup"]


def _extra(name, *args):
    # The calls a polling loop never makes (blocking reads, the CRC coprocessor, the reason a
    # read failed in words) are in mfrc522_extra.py: imported for the call and let go.
    import mfrc522_extra

    try:
        return getattr(mfrc522_extra, name)(*args)
    except OSError:
        args[0]._cs.value(1)  # (args[0] is the reader: CS back high after a bus that raised)
        raise
    finally:
        for m in ("mfrc522_extra", "mfrc522_setup"):  # (calc_crc reads registers through the
            if m in sys.modules:  # set-up's; a call inside another has let them go already)
                del sys.modules[m]


# ---- Registers (datasheet 9.2, table 20) ----
# Page 0: command and status (9.3.1)
_COMMAND_REG = const(0x01)
_COM_IRQ_REG = const(0x04)
_DIV_IRQ_REG = const(0x05)
_ERROR_REG = const(0x06)
_FIFO_DATA_REG = const(0x09)
_FIFO_LEVEL_REG = const(0x0A)
_CONTROL_REG = const(0x0C)
_BIT_FRAMING_REG = const(0x0D)
_COLL_REG = const(0x0E)
# Page 1: communication (9.3.2)
_TX_MODE_REG = const(0x12)
_RX_MODE_REG = const(0x13)
_TX_CONTROL_REG = const(0x14)
# Page 2: configuration (9.3.3)
_CRC_RESULT_REG_H = const(0x21)
_CRC_RESULT_REG_L = const(0x22)
# Page 3: test (9.3.4)
_VERSION_REG = const(0x37)
# (the registers only set-up writes are in mfrc522_setup.py)

# ---- Register bits ----
# ComIrqReg (9.3.1.5); writing with bit 7 (Set1) clear clears the bits written as 1
_TX_IRQ = const(0x40)
_RX_IRQ = const(0x20)
_IDLE_IRQ = const(0x10)
_TIMER_IRQ = const(0x01)
_ALL_COM_IRQ = const(0x7F)
# TxModeReg (9.3.2.3) TxCRCEn, RxModeReg (9.3.2.4) RxCRCEn: the chip appends the CRC_A to what
# it sends and checks (and removes) it on what it receives; 106 kBd in both (bits 6..4 = 0)
_CRC_EN = const(0x80)
# TxControlReg (9.3.2.5): Tx1RFEn, Tx2RFEn drive the antenna
_TX_RF_EN = const(0x03)
# DivIrqReg (9.3.1.6)
_CRC_IRQ = const(0x04)
# ErrorReg (9.3.1.7)
_BUFFER_OVFL = const(0x10)
_COLL_ERR = const(0x08)
_CRC_ERR = const(0x04)
_PARITY_ERR = const(0x02)
_PROTOCOL_ERR = const(0x01)
# FIFOLevelReg (9.3.1.11)
_FLUSH_BUFFER = const(0x80)
_FIFO_LEVEL_MASK = const(0x7F)
# ControlReg (9.3.1.13)
_RX_LAST_BITS_MASK = const(0x07)
# BitFramingReg (9.3.1.14): StartSend, RxAlign in bits 6..4, TxLastBits in bits 2..0
_START_SEND = const(0x80)
# CollReg (9.3.1.15): ValuesAfterColl is cleared once, by init() (mfrc522_setup.py)
_COLL_POS_NOT_VALID = const(0x20)
_COLL_POS_MASK = const(0x1F)

# ---- Commands (10.3) ----
_CMD_IDLE = const(0x00)
_CMD_CALC_CRC = const(0x03)
_CMD_TRANSMIT = const(0x04)
_CMD_TRANSCEIVE = const(0x0C)

# ---- ISO/IEC 14443-3 type A (6.3, 6.4) ----
_PICC_REQA = const(0x26)  # 7-bit short frame
_PICC_WUPA = const(0x52)  # 7-bit short frame
_PICC_SEL_CL1 = const(0x93)  # SEL of cascade level n is 0x93 + 2 * (n - 1)
_PICC_HLTA = const(0x50)
_NVB_SELECT = const(0x70)  # 7 whole bytes: SEL, NVB, 4 UID bytes, BCC
_CASCADE_TAG = const(0x88)
_SAK_UID_NOT_COMPLETE = const(0x04)

# read_step() while a read goes on, and when the read failed on the air (error_text() says how)
BUSY = const(-1)
FAILED = const(-2)
_NO_ANSWER = const(-1)  # _transceive(): the timer ran out, no card answered
_SENT = const(-3)  # _transceive(): the frame went out ahead (ahead()), its answer comes later
# why the last read failed (error_text()); the texts are mfrc522_extra.py's _WHY, CL%d the cascade level
_W_RX = const(0)
_W_LONG = const(1)
_W_ATQA = const(2)
_W_AC_GONE = const(3)
_W_AC_LONG = const(4)
_W_AC_LEN = const(5)
_W_BCC = const(6)
_W_COLL_POS = const(7)
_W_SEL_GONE = const(8)
_W_SAK = const(9)
_W_SAK_CRC = const(10)
_W_CASCADE = const(11)
# the read's next exchange
_ST_IDLE = const(0)
_ST_WUPA = const(1)
_ST_ANTICOLL = const(2)
_ST_SELECT = const(3)
_ST_HALT = const(4)
# the FIFO moves in one SPI transaction of up to this many data bytes: the longest frame sent
# (SELECT without its CRC: 7 bytes), and the longest answer the reader reads itself
# (anticollision: 5 bytes; the status registers, 4); a sticker's longer answer is ntag.py's
_FIFO_TXN = const(7)
_FIFO_RX = const(5)

# ---- Timeouts ----
_RESET_MS = const(50)  # soft reset / oscillator start-up
_CRC_MS = const(10)  # CRC coprocessor, a few bytes take microseconds
_IRQ_MARGIN_MS = const(3)  # software bound beyond the chip's own timer (a chip that stopped)
# ISO/IEC 14443-3: a card answers REQA/WUPA, anticollision and SELECT about 91 us after the
# reader's frame ends (FDT = (n * 128 + 84) / fc): the chip's timer waits 1 ms, ten times that.
# HLTA is sent without waiting for an answer (6.4.3: the card never gives one).
_DEFAULT_TIMEOUT_MS = const(1)


# One MFRC522 on an SPI bus.
#   spi: write(buf), readinto(buf), write_readinto(tx, rx) (machine.SPI: mode 0, MSB first,
#        up to 10 MHz); cs: chip-select Pin, active low; rst: optional Pin on NRSTPD.
# Device faults and timeouts raise OSError("..."), bad arguments ValueError("...").
# Public: init(), version, alive(), halt(), read_uid(into), read_start(), read_step(into),
# ahead(), and after a read: collided (several cards answered at once), garbled
# (the read failed on a corrupt answer: parity, CRC, BCC, a collision it could not resolve) and
# error_text() (why the last read failed). What a board's loop never calls is a function of the
# reader in a module of its own, imported for it (each method a class keeps takes heap for
# good): mfrc522_setup.antenna(r, on), set_gain(r, level), gain(r), set_timeout(r, ms);
# mfrc522_extra.request(r, wakeup), select(r, into), calc_crc(r, data).
class MFRC522:
    # made by mfrc522_extra.make (declared here for the type checker; MicroPython ignores these)
    _tx2: "bytearray"
    _rx2: "bytearray"
    _txb: "bytearray"
    _rdb: "bytearray"
    _rxb: "bytearray"
    _cl: "memoryview"
    _tx: "memoryview"
    _rx: "memoryview"
    _txv: "tuple[memoryview, ...]"
    _rdv: "tuple[memoryview, ...]"
    _rxv: "tuple[memoryview, ...]"
    version: "int"
    _init_version: "int"
    _gain: "int"
    _timeout_ms: "int"
    _rx_bits: "int"
    _coll: "int"
    _st: "int"
    _level: "int"
    _size: "int"
    _known: "int"
    _why: "int"
    _crc_on: "bool"
    _halt_due: "bool"
    _ahead: "bool"  # the next exchange's frame goes out ahead
    _stale: "bool"
    collided: "bool"
    garbled: "bool"
    sak: "int"

    def __init__(self, spi, cs, rst=None):
        self._spi = spi
        self._cs = cs
        self._rst = rst
        # the buffers, views and state of a reader: made once, by code that is let go again
        # (mfrc522_extra.make says what each is)
        _extra("make", self)

    # ---- bus access: the only methods that touch SPI (datasheet 8.1.2) ----
    # Address byte (8.1.2.3): (addr << 1) & 7Eh, bit 7 set for a read.

    @micropython.native
    def _x(self, txn, into=None):
        # One SPI transaction. A write (8.1.2.2): the address byte, then data bytes all for that
        # register. With `into` a read (8.1.2.1): each byte MOSI sends names the next register
        # to read (00h ends it), and MISO answers X, then each one's value, into `into`. (A bus
        # that raises leaves CS low: the callers put it back, _transceive's `finally`, the
        # set-up's and the rare calls' wrappers, read_step's error path.)
        cs = self._cs
        cs.value(0)
        if into is None:
            self._spi.write(txn)
        else:
            self._spi.write_readinto(txn, into)
        cs.value(1)

    # ---- set-up ----

    # Set-up: the code of these is loaded from mfrc522_setup.py at the first call (at boot) and
    # kept, so re-initialising a failed reader from the main loop reads nothing from flash.

    def init(self, wait_ms=_RESET_MS):
        # Hard reset (if rst), check VersionReg, soft reset, timer, 100 % ASK, CRC preset
        # 6363h, antenna on. OSError when the chip does not answer within wait_ms of the
        # reset (a main loop re-initialising a failed reader passes a short wait).
        self._st = _ST_IDLE
        self._sent_at = None
        self._ahead = False
        return _setup("init", self, wait_ms)

    # ---- chip commands ----

    def _crc_mode(self, on):
        # TxCRCEn and RxCRCEn on (SELECT, HLTA, READ) or off (REQA/WUPA, anticollision), written
        # only when they change: TxModeReg (12h) and RxModeReg (13h), 106 kBd both ways.
        if on != self._crc_on:
            self._x(b"\x24\x80" if on else b"\x24\x00")
            self._x(b"\x26\x80" if on else b"\x26\x00")
            self._crc_on = on

    # _transceive(txn, framing, crc, most): send the frame of the FIFO transaction txn (its
    # address byte, then the frame's bytes; self._txv[n] sends self._tx[:n]), BitFramingReg's
    # RxAlign and TxLastBits in framing, the chip's CRC_A after it when crc (which the chip then
    # checks on the answer). Returns the answer's byte count, its bytes in self._rx when at most
    # _FIFO_RX (a longer one stays in the FIFO for the caller), _NO_ANSWER when no card answered
    # before the timer ran out, FAILED on a receive error other than a collision or an answer
    # longer than `most` (garbled is set then), or _SENT when ahead() asked for the frame alone
    # (the next call takes its answer). Sets _rx_bits and _coll. OSError on a dead chip.
    #
    # The whole exchange in one native call, a register a transaction (8.1.2.2: a write's data
    # bytes all go to its address): requests cleared, the FIFO flushed, the frame, Transceive,
    # StartSend; then ComIrqReg, ErrorReg, FIFOLevelReg and ControlReg read in one transaction
    # (8.1.2.1: each byte MOSI sends names the next register to read) until the answer or the
    # timer, Idle and StartSend off. The chip is left so, its FIFO read, and the next exchange
    # starts with its requests cleared. The write transactions are constants: (reg << 1), data.
    # (The frame's transactions and the polls are written out, the rest are _x() calls: each
    # call costs as much again as the transaction's own code, and a call's code takes less of
    # the scarce executable memory.)
    @micropython.native
    def _transceive(self, txn, framing, crc, most):
        fr = self._tx2
        fr[0] = _BIT_FRAMING_REG << 1
        fr[1] = _START_SEND | framing
        st = self._rxv[4]  # X, ComIrqReg, ErrorReg, FIFOLevelReg, ControlReg
        limit = self._timeout_ms + _IRQ_MARGIN_MS + (most >> 3)  # a long answer's time on the air besides
        spi, cs = self._spi, self._cs  # (a bus that raises leaves CS low: read_step's, ntag's and _extra's error paths raise it)
        start = self._sent_at
        if start is None:  # (else the frame went out ahead: its answer is what is waited for)
            if crc != self._crc_on:
                self._crc_mode(crc)
            self._x(b"\x08\x7f")  # ComIrqReg (04h): Set1 = 0 clears every request
            self._x(b"\x14\x80")  # FIFOLevelReg (0Ah): FlushBuffer
            cs.value(0)
            spi.write(txn)
            cs.value(1)
            cs.value(0)
            spi.write(b"\x02\x0c")  # CommandReg (01h): Transceive
            cs.value(1)
            cs.value(0)
            spi.write(fr)  # BitFramingReg: StartSend (10.3.1.8: Transceive sends on StartSend)
            cs.value(1)
            start = time.ticks_ms()
            if self._ahead:  # ahead(): the answer is taken by the next call
                self._ahead = False
                self._sent_at = start
                return _SENT
        self._sent_at = None
        while True:
            cs.value(0)
            spi.write_readinto(b"\x88\x8c\x94\x98\x00", st)  # 04h, 06h, 0Ah, 0Ch read
            cs.value(1)
            irq = st[1]
            if irq & (_RX_IRQ | _IDLE_IRQ | _TIMER_IRQ) or time.ticks_diff(time.ticks_ms(), start) >= limit:
                break
        self._x(b"\x02\x00")  # CommandReg: Idle
        self._x(b"\x1a\x00")  # BitFramingReg: StartSend off before the next Transceive
        err = st[2]
        count = st[3] & _FIFO_LEVEL_MASK
        self._rx_bits = st[4] & _RX_LAST_BITS_MASK
        if irq & (_RX_IRQ | _IDLE_IRQ) and 0 < count <= _FIFO_RX and err != 0xFF:
            rd = self._rdb  # the FIFO's address count times, then 00h (8.1.2.1)
            rd[count] = 0
            self._x(self._rdv[count], self._rxv[count])
            rd[count] = rd[0]
        if err == 0xFF or not irq & (_RX_IRQ | _IDLE_IRQ | _TIMER_IRQ):
            _extra("dead", self, irq, err, limit)  # OSError: how the chip is not there
        if not irq & (_RX_IRQ | _IDLE_IRQ):
            return _NO_ANSWER
        coll = 0
        if err & _COLL_ERR and not err & _BUFFER_OVFL:
            self._x(b"\x9c\x00", self._rx2)  # CollReg (0Eh) read
            coll = -1 if self._rx2[1] & _COLL_POS_NOT_VALID else ((self._rx2[1] & _COLL_POS_MASK) or 32)
            self.collided = True
        elif err & (_BUFFER_OVFL | _PROTOCOL_ERR | _PARITY_ERR | _CRC_ERR):
            return self._fail(_W_RX)
        self._coll = coll
        if count > most:  # no answer the caller waits for is this long: noise, or several cards
            return self._fail(_W_LONG)
        return count

    def _fail(self, why):
        # A corrupt answer: parity, CRC, BCC, a collision in the wrong place. On real air
        # overlapping cards give these more often than clean collisions, and so does a card at
        # the edge of the field. Nothing is allocated: the reason is a number (error_text()).
        self.garbled = True
        self._why = why
        return FAILED

    def error_text(self):
        # Why the last failed read failed, in words (allocates: for reports, not the loop).
        return _extra("error_text", self)

    # ---- ISO/IEC 14443-3 type A ----

    def _begin_select(self):
        # Cascade level 1's anticollision next. (UID CLn is not cleared, here or at the next
        # level: the first anticollision of a level sends none of it, and its answer, or the
        # bits before a collision, fill it before any of it is sent.)
        self._level = 0
        self._size = 0
        self._known = 0  # UID CLn bits already fixed
        self._st = _ST_ANTICOLL

    def _select_step(self, into):
        # One exchange of anticollision or SELECT (ISO/IEC 14443-3 6.4.3); BUSY until the UID
        # is complete, then its length (the UID is in `into`), or FAILED.
        if self._st == _ST_ANTICOLL:
            return self._anticoll_step()
        sak = self._select_cl()
        if sak < 0:
            return BUSY if sak == _SENT else FAILED
        level = self._level
        cl = self._cl
        size = self._size
        more = sak & _SAK_UID_NOT_COMPLETE
        tagged = cl[0] == _CASCADE_TAG
        if not more and not tagged:
            self.sak = sak  # what the card is (00h: an NTAG, whose memory ntag.py reads)
            for i in range(4):
                into[size + i] = cl[i]
            return size + 4
        if not (more and tagged) or level == 2:
            return self._fail(_W_CASCADE)
        for i in range(3):
            into[size + i] = cl[i + 1]
        self._size = size + 3
        self._level = level + 1
        self._known = 0  # the next level's anticollision
        self._st = _ST_ANTICOLL
        return BUSY

    def _anticoll_step(self):
        # One ANTICOLLISION exchange of the current level: fixes more UID bits; when the whole
        # UID CLn and its BCC are known, the next step is SELECT. BUSY, or FAILED.
        level = self._level
        cl = self._cl
        tx = self._tx
        rx = self._rx
        known = self._known
        nbytes = known >> 3
        nbits = known & 7
        nsend = nbytes + (1 if nbits else 0)
        tx[0] = _PICC_SEL_CL1 + 2 * level
        tx[1] = ((2 + nbytes) << 4) | nbits  # NVB: whole bytes and bits sent (cl is tx[2:7])
        n = self._transceive(self._txv[2 + nsend], (nbits << 4) | nbits, False, 5)
        if n < 0:
            if n == _NO_ANSWER:  # the card stopped answering (it left the field, or lost its
                self._why = _W_AC_GONE  # power at its edge): no corrupt answer, the read ends
                return FAILED
            return BUSY if n == _SENT else n
        if nbytes + n > 5:
            return self._fail(_W_AC_LONG)
        # The first bit received sits at bit nbits of rx[0], after the bits we sent.
        keep = (1 << nbits) - 1
        if n:
            cl[nbytes] = (cl[nbytes] & keep) | (rx[0] & ~keep)
        for i in range(1, n):
            cl[nbytes + i] = rx[i]
        c = self._coll
        if c == 0:
            if nbytes + n != 5 or self._rx_bits:
                return self._fail(_W_AC_LEN)
            if cl[0] ^ cl[1] ^ cl[2] ^ cl[3] != cl[4]:
                return self._fail(_W_BCC)
            self._st = _ST_SELECT
            return BUSY
        # CollPos counts from bit 0 of the first FIFO byte, RxAlign included (1 = first).
        pos = (nbytes << 3) + c - 1
        if c < 0 or pos < known or pos >= 32:
            return self._fail(_W_COLL_POS)
        # Keep the bits before the collision, choose 1 for the collided bit (6.4.3.1
        # step 7), clear the rest, and ask again with one more known bit.
        j = pos >> 3
        m = 1 << (pos & 7)
        cl[j] = (cl[j] & (m - 1)) | m
        for i in range(j + 1, 5):
            cl[i] = 0
        self._known = pos + 1
        return BUSY

    def _select_cl(self):
        # SELECT: SEL, NVB = 70h, UID CLn, BCC, and the chip's CRC_A; the answer is SAK and
        # CRC_A, which the chip checks. Returns SAK, or FAILED. Some chips leave the CRC_A in
        # the FIFO: then the answer is three bytes, and their CRC_A is checked here too.
        tx = self._tx
        tx[0] = _PICC_SEL_CL1 + 2 * self._level
        tx[1] = _NVB_SELECT  # the UID CLn and its BCC are there already: cl is tx[2:7]
        n = self._transceive(self._txv[7], 0, True, 3)
        if n < 0:
            if n == _NO_ANSWER:  # the card stopped answering
                self._why = _W_SEL_GONE
                return FAILED
            return n
        rx = self._rx
        if self._coll or self._rx_bits or (n != 1 and n != 3):
            return self._fail(_W_SAK)
        if n == 3 and _crc_a1(rx[0]) != rx[1] | (rx[2] << 8):
            return self._fail(_W_SAK_CRC)
        return rx[0]

    def halt(self):
        # HLTA (50h 00h and the chip's CRC_A), sent with Transmit: a card never answers HLTA
        # (ISO/IEC 14443-3 6.4.3), so nothing is waited for but the frame itself (about
        # 0.4 ms), not a timer; Transmit ends by itself. True once the frame is out.
        self._halt_due = False
        tx = self._tx
        tx[0] = _PICC_HLTA
        tx[1] = 0
        rx = self._rx2
        self._crc_mode(True)
        self._x(b"\x08\x7f")  # ComIrqReg (04h): Set1 = 0 clears every request
        self._x(b"\x14\x80")  # FIFOLevelReg (0Ah): FlushBuffer
        self._x(self._txv[2])
        self._x(b"\x02\x04")  # CommandReg (01h): Transmit
        start = time.ticks_ms()
        while True:
            self._x(b"\x88\x00", rx)  # ComIrqReg read
            if rx[1] & _TX_IRQ:
                return True
            if time.ticks_diff(time.ticks_ms(), start) >= _IRQ_MARGIN_MS:
                self._x(b"\x02\x00")  # CommandReg: Idle
                raise OSError("MFRC522 transmit timed out: no TxIRq in %d ms" % _IRQ_MARGIN_MS)

    def alive(self):
        # True when the chip still answers its VersionReg as at the last good init() and its
        # antenna is still on (a chip that reset itself has it off): receive errors then come
        # from the air (cards at the edge, several cards), not from the reader.
        v = self._init_version
        if v < 0:
            return False
        rx = self._rxv[2]  # X, VersionReg (37h), TxControlReg (14h): read in one transaction
        self._x(b"\xee\xa8\x00", rx)
        return rx[1] == v and rx[2] & _TX_RF_EN == _TX_RF_EN

    def read_start(self):
        # Begin a read: the next read_step() sends WUPA (after halting the card the last read
        # selected, if it is still ACTIVE).
        self._st = _ST_HALT if self._halt_due else _ST_WUPA
        self.collided = False
        self.garbled = False
        self._sent_at = None

    def ahead(self):
        # The read under way sends its next exchange's frame at its next step and returns BUSY
        # at once; the step after takes the answer. A loop that must stop reading for a while
        # (its next scan is due) lets the frame's time on the air and the card's answer pass
        # meanwhile. False when the next exchange is not one that waits for an answer, or a
        # frame is out already.
        st = self._st
        self._ahead = self._sent_at is None and (st == _ST_WUPA or st == _ST_ANTICOLL or st == _ST_SELECT)
        return self._ahead

    def read_step(self, into):
        # One exchange of the read begun by read_start(). Returns BUSY while the read goes on,
        # 0 when no card answered, else the UID's length (4, 7 or 10) with the UID in `into`
        # (a bytearray of at least 10), from the step of the last SELECT: the card stays
        # ACTIVE until the next read halts it. FAILED when the read failed on the air once a
        # card answered (a garbled answer: parity, CRC, BCC; the card stopped answering);
        # OSError when the chip does not answer. The read is over then. After a read,
        # `collided` tells whether several cards answered at once, `garbled` whether an answer
        # was corrupt, error_text() why it failed.
        if len(into) < 10:
            raise ValueError("UID buffer too small: %d bytes (need 10)" % len(into))
        st = self._st
        try:
            if st == _ST_HALT:
                self._st = _ST_WUPA
                try:
                    self.halt()  # housekeeping: the last UID was complete and checked
                except OSError:
                    pass
                return BUSY
            if st == _ST_WUPA:
                n = self._wupa_step()
            elif st == _ST_ANTICOLL or st == _ST_SELECT:
                n = self._select_step(into)
                if n > 0:
                    self._st = _ST_IDLE
                    self._halt_due = True
                    self._stale = self.collided  # a card that lost the anticollision is READY
            else:
                raise ValueError("no read under way: call read_start() first")
        except OSError:
            self._st = _ST_IDLE
            self._stale = True  # a read cut short may leave cards READY
            self._cs.value(1)  # (a bus that raised left it low)
            raise
        if n == FAILED:
            self._st = _ST_IDLE
            self._stale = True  # a read cut short may leave cards READY
        return n

    def _wupa_step(self):
        # The read's WUPA (_request(True), written out: the empty field's look, every period)
        self._tx[0] = _PICC_WUPA
        n = self._transceive(self._txv[1], 7, False, 2)
        if n == FAILED or n == _SENT:
            return BUSY if n == _SENT else FAILED
        if n == _NO_ANSWER:
            if self._stale:
                # cards the last read left READY took this WUPA as a stray frame and went back
                # to IDLE (ISO/IEC 14443-3 6.2): the next one wakes them
                self._stale = False
                return BUSY
            self._st = _ST_IDLE
            return 0
        if n != 2 or (self._rx_bits and not self._coll):
            return self._fail(_W_ATQA)
        self._stale = True  # until the read is done cleanly
        self._begin_select()
        return BUSY

    def read_uid(self, into):
        # WUPA, anticollision and SELECT of all cascade levels, HLTA, all at once. Writes the
        # UID into `into` (a bytearray of at least 10) and returns its length (4, 7 or 10), or
        # 0 when no card answers. OSError when the read fails (error_text()) or the chip does
        # not answer. (A blocking read: mfrc522_extra.py's, loaded for the call. A loop that
        # polls uses read_start() and read_step(), which allocate nothing.)
        return _extra("read_uid", self, into)


def _crc_a1(b):
    # CRC_A (ISO/IEC 14443-3 annex B: CRC-16 CCITT, polynomial 1021h taken LSB first, so 8408h
    # reflected, preset 6363h, no final XOR) of the one byte b, as the chip's CalcCRC gives it
    # in CRCResultRegH/L (datasheet 10.3.1.4): low byte first on the air. Small ints only, no
    # allocation; checks the SAK when the chip leaves its CRC_A in the FIFO.
    crc = 0x6363 ^ b
    for _ in range(8):
        crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc
