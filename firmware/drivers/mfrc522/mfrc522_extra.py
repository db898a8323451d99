# MFRC522 calls a scanning loop never makes (NXP datasheet rev 3.9, ISO/IEC 14443-3): the
# making of a reader (make: its buffers and state, once), the blocking request and select, the
# CRC coprocessor (calc_crc) and the failed read's reason in words (error_text, for reports).
# mfrc522.MFRC522 imports this module for each such call and lets it go afterwards, so its
# code and texts take no heap while a board only polls (read_start/read_step, read_uid).
# Everything goes through the reader's own methods.

from micropython import const
import time

# as in mfrc522.py (a const() is not a module attribute: each module has its own)
_COMMAND_REG = const(0x01)
_DIV_IRQ_REG = const(0x05)
_CRC_RESULT_REG_H = const(0x21)
_CRC_RESULT_REG_L = const(0x22)
_CRC_IRQ = const(0x04)  # DivIrqReg CRCIRq
_CMD_IDLE = const(0x00)
_CMD_CALC_CRC = const(0x03)
_CRC_MS = const(10)  # CRC coprocessor, a few bytes take microseconds
_FIFO_BYTES = const(64)
_BUSY = const(-1)  # mfrc522.BUSY
_FAILED = const(-2)  # mfrc522.FAILED
_NO_ANSWER = const(-1)  # mfrc522._transceive(): the timer ran out, no card answered
_ST_IDLE = const(0)
_UID_BYTES = const(10)
_FIFO_DATA_REG = const(0x09)
_FIFO_TXN = const(7)  # the longest FIFO transaction's data (mfrc522.py says why)
_FIFO_RX = const(5)  # the longest answer read into the reader's own buffer (mfrc522.py)
_DEFAULT_TIMEOUT_MS = const(1)
_W_RX = const(0)  # the first reason of _WHY
_W_ATQA = const(2)  # mfrc522._W_ATQA
_PICC_REQA = const(0x26)  # 7-bit short frames (ISO/IEC 14443-3 6.3)
_PICC_WUPA = const(0x52)
_TX_IRQ = const(0x40)  # ComIrqReg TxIRq

# why a read failed, by mfrc522's _W_* numbers
_WHY = (
    "MFRC522 receive error: parity, CRC or FIFO overflow (ErrorReg)",
    "MFRC522 receive error: an answer longer than any of type A",
    "bad ATQA",
    "card stopped answering in anticollision CL%d",
    "anticollision answer too long in CL%d",
    "anticollision answer of wrong length in CL%d",
    "BCC mismatch in CL%d",
    "collision at impossible position in CL%d",
    "card stopped answering at SELECT CL%d",
    "no valid SAK at CL%d",
    "SAK with a wrong CRC_A at CL%d",
    "SAK and cascade tag disagree at CL%d",
)


def make(r):
    """MFRC522 `r` (its bus and pins set): its buffers (allocated once) and a read's state."""
    r.version = 0  # VersionReg as read by init()
    r._init_version = -1  # VersionReg of the last init() that succeeded
    r._gain = -1  # RxGain to re-apply on init(); -1 keeps the chip's default
    r._timeout_ms = _DEFAULT_TIMEOUT_MS
    # scratch buffers, allocated once
    r._tx2 = bytearray(2)
    r._rx2 = bytearray(2)
    # FIFO transactions: the address byte, then the data. A frame is built in _tx, the
    # data part of _txb; _txv[n] is the transaction that writes n bytes of it (views made
    # once: a slice at run time would allocate). Reads send the address byte n times then
    # 00h (_rdb, _rdv[n]) and receive X, d0 .. d(n-1) into _rxb, whose data part is _rx.
    r._txb = bytearray(1 + _FIFO_TXN)
    r._txb[0] = (_FIFO_DATA_REG << 1) & 0x7E
    r._rdb = bytearray(1 + _FIFO_RX)
    r._rxb = bytearray(1 + _FIFO_RX)
    for i in range(1 + _FIFO_RX):
        r._rdb[i] = ((_FIFO_DATA_REG << 1) & 0x7E) | 0x80
    t = memoryview(r._txb)
    d = memoryview(r._rdb)
    x = memoryview(r._rxb)
    r._tx = t[1:]
    r._rx = x[1:]
    r._txv = tuple(t[0:k + 1] for k in range(1 + _FIFO_TXN))
    r._rdv = tuple(d[0:k + 1] for k in range(1 + _FIFO_RX))
    r._rxv = tuple(x[0:k + 1] for k in range(1 + _FIFO_RX))
    r._crc_on = False  # TxCRCEn/RxCRCEn as last written (init() writes them off)
    r._cl = t[3:8]  # UID CLn and BCC of the cascade level in progress, in place in _tx[2:7]
    r._rx_bits = 0  # valid bits in the last received byte, 0 = all 8
    r._coll = 0  # CollPos of the last reception: 1..32; 0 none; -1 not valid
    # a read in steps: its next exchange, cascade level, UID bytes so far, known bits
    r._st = _ST_IDLE
    r._level = 0
    r._size = 0
    r._known = 0
    r._sent_at = None  # ticks_ms when a frame sent ahead went out (ahead()); None: none is
    r._ahead = False
    r._halt_due = False  # the card read last is still ACTIVE: the next read halts it
    r._stale = False  # the last read may have left cards READY: WUPA twice if need be
    r.collided = False
    r.garbled = False
    r.sak = 0x08  # the SAK of the card selected last (a 4-byte MIFARE Classic's until one is)
    r._why = _W_RX  # why the last failed read failed (_WHY below says it in words)
    r._cs.value(1)


def error_text(r):
    """Why reader r's last failed read failed, in words."""
    text = _WHY[r._why]
    return text % (r._level + 1) if "%d" in text else text


def _error(r):
    return OSError(error_text(r))


def request(r, wakeup=False):
    """REQA (IDLE cards) or WUPA (IDLE and HALT cards): the ATQA as an int (first byte low),
    or None when no card answers; OSError on a garbled answer."""
    r._tx[0] = _PICC_WUPA if wakeup else _PICC_REQA
    n = r._transceive(r._txv[1], 7, False, 2)
    if n == _NO_ANSWER:
        return None
    if n == _FAILED or n != 2 or (r._rx_bits and not r._coll):
        if n != _FAILED:
            r._fail(_W_ATQA)
        raise _error(r)
    return r._rx[0] | (r._rx[1] << 8)


def read_uid(r, into):
    """WUPA, anticollision and SELECT of all cascade levels, HLTA, all at once: the UID's
    length (0: no card), the UID in `into`; OSError when the read fails."""
    r.read_start()
    while True:
        n = r.read_step(into)
        if n != _BUSY:
            break
    if n == _FAILED:
        raise _error(r)
    if r._halt_due:
        try:
            r.halt()
        except OSError:
            pass
    return n


def dead(r, irq, err, limit):
    """The exchange found no chip: OSError saying how (the status reader r's bus gave)."""
    if err == 0xFF:  # bit 5 of ErrorReg is reserved and reads 0: a bus that reads FFh is dead
        raise OSError("MFRC522 not answering: its registers read 0xFF; check wiring of SPI, CS and 3.3 V")
    if irq & _TX_IRQ:  # the frame went out, but the chip's timer never ran out
        raise OSError("MFRC522 transceive timed out: no RxIRq or TimerIRq in %d ms" % limit)
    raise OSError("MFRC522 not answering: no frame sent in %d ms (ComIrqReg 0x%02X); check wiring of SPI, CS and 3.3 V" % (limit, irq))


def select(r, into):
    """Anticollision and SELECT of every cascade level: the UID into `into`, its length."""
    if len(into) < _UID_BYTES:
        raise ValueError("UID buffer too small: %d bytes (need 10)" % len(into))
    r._begin_select()
    while True:
        n = r._select_step(into)
        if n != _BUSY:
            r._st = _ST_IDLE
            if n == _FAILED:
                raise _error(r)
            return n


def calc_crc(r, data):
    """CRC_A (ISO/IEC 14443-3 annex B) of up to 64 bytes by the coprocessor (CalcCRC,
    10.3.1.4), as an int, low byte first on air."""
    from mfrc522_setup import load_fifo, read_reg, write_reg  # (let go by the reader's _extra)

    n = len(data)
    if n > _FIFO_BYTES:
        raise ValueError("CRC input longer than the FIFO: %d bytes" % n)
    txn = bytearray(n + 1)  # one transaction: the FIFO's address byte, then the data
    txn[0] = r._txb[0]
    txn[1:] = data
    load_fifo(r, txn, n)
    write_reg(r, _DIV_IRQ_REG, _CRC_IRQ)  # Set2 = 0: clear CRCIRq
    write_reg(r, _COMMAND_REG, _CMD_CALC_CRC)
    start = time.ticks_ms()
    while not (read_reg(r, _DIV_IRQ_REG) & _CRC_IRQ):
        if time.ticks_diff(time.ticks_ms(), start) >= _CRC_MS:
            write_reg(r, _COMMAND_REG, _CMD_IDLE)
            raise OSError("MFRC522 CRC coprocessor timed out: no CRCIRq")
    write_reg(r, _COMMAND_REG, _CMD_IDLE)
    return read_reg(r, _CRC_RESULT_REG_L) | (read_reg(r, _CRC_RESULT_REG_H) << 8)
