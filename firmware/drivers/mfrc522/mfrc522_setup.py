# MFRC522 set-up (NXP datasheet rev 3.9): hard and soft reset, the timer, the modulation, the CRC
# preset, the antenna, the receiver gain, and the register access one register a transaction
# that the set-up, the CRC coprocessor (mfrc522_extra.py) and a sticker's writing
# (lib/ntag_write.py) go through. mfrc522.MFRC522 imports this module for each set-up call and
# lets it go afterwards, so it takes no heap while the board runs; the reader's own exchange
# (_transceive) speaks to the chip itself.

from micropython import const
import time

# ---- Registers (datasheet 9.2, table 20) ----
_COMMAND_REG = const(0x01)  # 9.3.1.2
_STATUS2_REG = const(0x08)  # 9.3.1.9
_MODE_REG = const(0x11)  # 9.3.2.2
_TX_MODE_REG = const(0x12)  # 9.3.2.3
_RX_MODE_REG = const(0x13)  # 9.3.2.4
_TX_CONTROL_REG = const(0x14)  # 9.3.2.5
_TX_ASK_REG = const(0x15)  # 9.3.2.6
_RF_CFG_REG = const(0x26)  # 9.3.3.6
_T_MODE_REG = const(0x2A)  # 9.3.3.10
_T_PRESCALER_REG = const(0x2B)
_T_RELOAD_REG_H = const(0x2C)
_T_RELOAD_REG_L = const(0x2D)
_VERSION_REG = const(0x37)  # 9.3.4.8
_COLL_REG = const(0x0E)  # 9.3.1.15

# ---- Register bits ----
_POWER_DOWN = const(0x10)  # CommandReg
_MF_CRYPTO1_ON = const(0x08)  # Status2Reg
_VALUES_AFTER_COLL = const(0x80)  # CollReg: clear, bits received after a collision read as 0
_MODE_CRC_6363 = const(0x3D)  # ModeReg: TxWaitRF, PolMFin, CRCPreset 01b (6363h, CRC_A)
_TX_RF_EN = const(0x03)  # TxControlReg: Tx1RFEn, Tx2RFEn drive the antenna
_FORCE_100_ASK = const(0x40)  # TxASKReg
_RX_GAIN_MASK = const(0x70)  # RFCfgReg RxGain, bits 6..4
_T_AUTO = const(0x80)  # TModeReg: the timer starts at the end of every transmission
# Timer (8.5): f_timer = 13.56 MHz / (2 * TPrescaler + 1); 169 gives 40 kHz, 25 us a tick
_T_PRESCALER = const(169)
_T_TICKS_PER_MS = const(40)
# What the timer waits for after each frame: the start of a card's answer. Every answer of type A
# (ATQA, anticollision, SAK, an NTAG READ) begins 86-91 us after the reader's frame (ISO/IEC
# 14443-3, the frame delay time), and with TAuto the timer stops at the answer's first bit
# (9.3.3.10), so 0.25 ms cuts no answer short; a WUPA that no card answers (the empty field,
# looked at every scan period) then ends after 0.25 ms rather than 1 ms. set_timeout() sets
# another wait (and init() keeps it).
_ANSWER_TICKS = const(10)
_DEFAULT_MS = const(1)  # mfrc522._DEFAULT_TIMEOUT_MS: the software's bound, no timeout set

_CMD_SOFT_RESET = const(0x0F)
_FIFO_LEVEL_REG = const(0x0A)  # 9.3.1.11
_FLUSH_BUFFER = const(0x80)
_CMD_IDLE = const(0x00)

# Versions known to answer like an MFRC522 (VersionReg, 9.3.4.8): 0x91 v1.0, 0x92 v2.0,
# 0x90 v0.0, 0x88 Fudan FM17522, 0x12 and 0xB2 common clones.
_KNOWN_VERSIONS = (0x91, 0x92, 0x90, 0x88, 0x12, 0xB2)


def init(r, wait_ms):
    """Hard reset (if r has rst), check VersionReg, soft reset, timer, 100 % ASK, CRC preset
    6363h, antenna on. OSError when the chip does not answer within wait_ms of the reset."""
    r._init_version = -1  # until this init has succeeded
    rst = r._rst
    if rst is not None:
        rst.value(0)
        time.sleep_ms(1)
        rst.value(1)
    start = time.ticks_ms()
    while True:
        v = read_reg(r, _VERSION_REG)
        if v in _KNOWN_VERSIONS or rst is None or time.ticks_diff(time.ticks_ms(), start) >= wait_ms:
            break
        time.sleep_ms(1)  # oscillator still starting after the hard reset
    r.version = v
    if v not in _KNOWN_VERSIONS:
        raise OSError("MFRC522 not answering: VersionReg=0x%02X; check wiring of SPI, CS and 3.3 V" % v)
    # Soft reset (10.3.1.10): done when PowerDown has cleared and the command is Idle.
    write_reg(r, _COMMAND_REG, _CMD_SOFT_RESET)
    while read_reg(r, _COMMAND_REG) & (_POWER_DOWN | 0x0F):
        if time.ticks_diff(time.ticks_ms(), start) >= 2 * wait_ms:
            raise OSError("MFRC522 soft reset timed out: PowerDown still set")
    # Timer (8.5) starts at the end of each transmission: TimerIRq when no card answers.
    write_reg(r, _T_MODE_REG, _T_AUTO | (_T_PRESCALER >> 8))
    write_reg(r, _T_PRESCALER_REG, _T_PRESCALER & 0xFF)
    ms = r._timeout_ms
    _reload(r, _ANSWER_TICKS if ms == _DEFAULT_MS else ms * _T_TICKS_PER_MS)
    write_reg(r, _TX_MODE_REG, 0)  # 106 kBd; TxCRCEn/RxCRCEn off until a frame needs them
    write_reg(r, _RX_MODE_REG, 0)
    r._crc_on = False
    write_reg(r, _TX_ASK_REG, _FORCE_100_ASK)  # type A needs 100 % ASK
    write_reg(r, _MODE_REG, _MODE_CRC_6363)
    clear_bits(r, _STATUS2_REG, _MF_CRYPTO1_ON)
    clear_bits(r, _COLL_REG, _VALUES_AFTER_COLL)  # once here, not at every read's anticollision
    if r._gain >= 0:
        set_gain(r, r._gain)
    antenna(r, True)
    r._init_version = v


def antenna(r, on):
    """RF field on or off: TxControlReg Tx1RFEn, Tx2RFEn."""
    if on:
        set_bits(r, _TX_CONTROL_REG, _TX_RF_EN)
    else:
        clear_bits(r, _TX_CONTROL_REG, _TX_RF_EN)


def set_gain(r, level):
    """Receiver gain, RFCfgReg RxGain 0..7: 18, 23, 18, 23, 33, 38, 43, 48 dB."""
    if not isinstance(level, int) or level < 0 or level > 7:
        raise ValueError("invalid MFRC522 gain level: %r (0..7)" % (level,))
    r._gain = level
    v = read_reg(r, _RF_CFG_REG) & ~_RX_GAIN_MASK
    write_reg(r, _RF_CFG_REG, v | (level << 4))


def gain(r):
    return (read_reg(r, _RF_CFG_REG) & _RX_GAIN_MASK) >> 4


def set_timeout(r, ms):
    """How long the chip waits for a card's answer: 1..1600 ms."""
    if not isinstance(ms, int) or ms < 1 or ms > 1600:
        raise ValueError("invalid MFRC522 timeout: %r ms (1..1600)" % (ms,))
    r._timeout_ms = ms
    _reload(r, ms * _T_TICKS_PER_MS)


def _reload(r, ticks):
    # TReloadReg: the timer's wait in ticks of 25 us
    write_reg(r, _T_RELOAD_REG_H, ticks >> 8)
    write_reg(r, _T_RELOAD_REG_L, ticks & 0xFF)


# ---- register access (datasheet 8.1.2): the address byte (reg << 1) & 7Eh, bit 7 set to read ----


def read_reg(r, reg):
    """Register `reg` of reader r, read in one transaction."""
    tx = r._tx2
    tx[0] = ((reg << 1) & 0x7E) | 0x80
    tx[1] = 0
    r._x(tx, r._rx2)
    return r._rx2[1]


def write_reg(r, reg, value):
    """Register `reg` of reader r set to `value`, in one transaction."""
    tx = r._tx2
    tx[0] = (reg << 1) & 0x7E
    tx[1] = value
    r._x(tx)


def set_bits(r, reg, mask):
    write_reg(r, reg, read_reg(r, reg) | mask)


def clear_bits(r, reg, mask):
    write_reg(r, reg, read_reg(r, reg) & ~mask)


def load_fifo(r, txn, n):
    """Idle, flush, then the n data bytes of the FIFO transaction txn (the FIFO's address byte,
    then the data: 8.1.2.2, one transaction); OSError when the FIFO did not take them."""
    write_reg(r, _COMMAND_REG, _CMD_IDLE)
    write_reg(r, _FIFO_LEVEL_REG, _FLUSH_BUFFER)
    r._x(txn)
    level = read_reg(r, _FIFO_LEVEL_REG)
    if level != n:  # a dead bus reads 00h or FFh: the FIFO did not take the bytes
        raise OSError("MFRC522 not answering: FIFO holds %d bytes after writing %d; check wiring of SPI, CS and 3.3 V" % (level, n))


def read_fifo(r, n):
    """n bytes of the FIFO into r._rx[:n], in one transaction (8.1.2.1: the address n times,
    then 00h)."""
    rd = r._rdb
    rd[n] = 0
    try:
        r._x(r._rdv[n], r._rxv[n])
    finally:
        rd[n] = rd[0]
