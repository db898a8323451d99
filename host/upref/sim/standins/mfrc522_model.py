# Register-level model of an NXP MFRC522 (datasheet rev 3.9) with ISO/IEC 14443-3 type A cards.
#
# It plays the chip at the other end of the simulated SPI bus:
#   cs(level)    chip select; 0 starts an SPI transaction, 1 ends it
#   xfer(byte)   one byte each way, as in datasheet 8.1.2: an address byte ((addr << 1) & 7Eh,
#                bit 7 set to read), then data; when reading, the byte after each address byte
#                carries that register's value (continuous reads work)
#   rst(level)   NRSTPD: held low, the chip is in reset; low -> high resets every register
#   version      VersionReg (0x92 by default); 0x00 or 0xFF plays a dead reader or a bad
#                wiring: every byte read is that value and writes are lost
# Cards enter and leave the antenna field with set_field(uids), add_card(uid), remove_card(uid);
# cards_in_field() lists them, card(uid) is the Card object (its `levels` hold UID CLn + BCC
# as sent), card_state(uid) gives "IDLE", "READY", "ACTIVE" or "HALT",
# field_on() tells whether the antenna is on, peek(addr) reads a register without side effects.
# on_transceive, if set, is called with no arguments before each Transceive runs (tests use it
# to pull a card out in the middle of a read); `transceives` counts them.
#
# Modelled: the FIFO (64 bytes; FIFOLevelReg, FlushBuffer, BufferOvfl), the commands Idle, Mem,
# CalcCRC, Transmit, Receive, Transceive (runs when BitFramingReg StartSend is set) and
# SoftReset; ComIrqReg/DivIrqReg with Set1/Set2 write semantics; ErrorReg (CollErr, CRCErr,
# BufferOvfl); CollReg (CollPos counted from bit 0 of the first FIFO byte, RxAlign included;
# CollPosNotValid; ValuesAfterColl); BitFramingReg TxLastBits and RxAlign; ControlReg
# RxLastBits; TimerIRq when no card answers (TModeReg TAuto); TxControlReg (no field: no card
# answers, and cards lose power back to IDLE); TxASKReg (type A cards need 100 % ASK); RFCfgReg
# (stored only); CRCResultReg (CRC_A, ModeReg CRCPreset); Status1/2Reg; TxModeReg TxCRCEn and
# RxModeReg RxCRCEn. Without a clock everything is instant: a command is complete when the next
# byte moves; with one, Transmit and Transceive raise their IRQ bits when the air has taken its time.
# Not modelled: timing, analog behaviour, the self test, MIFARE Crypto1, a 4-byte card's memory.
#
# A 7-byte card is an NTAG213 (NXP datasheet rev 3.2): 45 pages of 4 bytes, the UID and its check
# bytes in pages 0 to 2 with the static lock bytes (page 2, bytes 2 and 3), the capability
# container E1 10 12 00 in page 3, user memory in pages 4 to 39 (blank: an empty NDEF TLV and
# the terminator, 03 00 FE), the dynamic lock bytes in page 40, configuration in 41 to 44 (PWD
# and PACK read as zeros). ACTIVE, it answers READ (30h addr, CRC_A: the 16 bytes of four
# pages from addr, rolling over from page 44 to page 0), FAST_READ (3Ah from to, CRC_A: the
# pages from..to, to at most 44) and WRITE (A2h addr d0..d3, CRC_A:
# the 4-bit ACK Ah). An address past page 44, a write to a page its lock bits lock (static:
# pages 3 to 15 one bit each; dynamic: pages 16 to 39 two at a time), to the UID pages, or a
# frame whose CRC_A is wrong, gets a 4-bit NAK (0h, CRC: 1h) and the card falls back to IDLE
# (or HALT). Lock bytes, the CC and the dynamic lock bytes are one-time programmable: a write
# ORs into them. memory(uid) is a card's memory, written in place (the simulated world writes
# a deck's stickers so, just before their card is laid). The model runs in the firmware's own
# heap under MicroPython, so it keeps a card's memory only while the card lies in the field,
# and, for a card that a WRITE changed (a sticker written on this board), after it too: taken
# away and laid again it still holds what was written.
#
# Cards: ISO/IEC 14443-3 states IDLE, READY, ACTIVE, HALT. REQA wakes IDLE cards, WUPA IDLE
# and HALT ones. 4-byte UIDs answer like a MIFARE Classic (ATQA 0004h, SAK 08h), 7-byte like an
# NTAG21x (ATQA 0044h, SAK 00h, CL1 = 88h + 3 bytes), 10-byte with ATQA 0084h, SAK 00h.
# Bit-oriented anticollision with NVB; answers of several cards are superposed bit by bit and
# the first bit where they differ is a collision. SELECT is checked with CRC_A; HLTA halts.
#
# The air (real_air=True, as the simulated board has it; off for the driver's own tests): on
# real air cards that answer together mostly give parity or CRC errors, not a clean collision,
# so answers that differ give a clean collision one time in four (CLEAN_COLLISION_PCT) and a
# parity error (CRC error with RxCRCEn) with their bits ORed otherwise; identical answers (two
# ATQAs of the same card type) add up cleanly. A card at the edge of the field
# (set_edge(uid, pct)) gets too little power now and then: at a REQA/WUPA it is unpowered with
# that chance (back to IDLE, silent for the whole read), never more than EDGE_MAX_MISSES reads
# in a row, which is what makes a card at the edge intermittent rather than gone. A marginal
# card (set_bit_errors(uid, pct), or bit_errors for every card) is powered but its answers are
# weak: each answer gets one bit wrong with that chance, which the PCD sees as a parity error
# (and a CRC error with RxCRCEn), never as a collision: a lone card cannot collide with itself.
# Chance comes from a seeded generator (`seed`), the same sequence under CPython and MicroPython.
#
# The CRC_A of a received frame with RxCRCEn: the chip checks it (CRCErr when wrong); whether it
# then also removes the two CRC bytes from the FIFO the datasheet does not say. keep_crc=False
# (the default) removes them, keep_crc=True leaves them after the data, so a driver can be
# proven against both.
#
# Runs under CPython and the MicroPython unix port alike (no typing, dataclasses or enum).

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# ---- registers (datasheet 9.2) ----
_COMMAND = const(0x01)
_COM_IEN = const(0x02)
_DIV_IEN = const(0x03)
_COM_IRQ = const(0x04)
_DIV_IRQ = const(0x05)
_ERROR = const(0x06)
_STATUS1 = const(0x07)
_STATUS2 = const(0x08)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_WATER_LEVEL = const(0x0B)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_MODE = const(0x12)
_RX_MODE = const(0x13)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_CRC_RESULT_H = const(0x21)
_CRC_RESULT_L = const(0x22)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
_VERSION = const(0x37)

# Time on the air, for a model that keeps time (clock given): ISO/IEC 14443-2/-3 type A at
# 106 kbit/s, a bit every 128/fc = 9.44 us, a parity bit per byte; a card answers after the
# frame delay time, (n * 128 + 84) / fc = 91 us for the commands read here; the MFRC522's timer
# counts at 13.56 MHz / (2 * TPrescaler + 1) from the end of the transmission (TAuto).
_BIT_NS = const(9440)
_FDT_US = const(91)
_FC_KHZ = const(13560)
# ---- commands (10.3) ----
_CMD_IDLE = const(0x00)
_CMD_MEM = const(0x01)
_CMD_CALC_CRC = const(0x03)
_CMD_TRANSMIT = const(0x04)
_CMD_NO_CMD_CHANGE = const(0x07)
_CMD_RECEIVE = const(0x08)
_CMD_TRANSCEIVE = const(0x0C)
_CMD_SOFT_RESET = const(0x0F)
# ---- bits ----
_RCV_OFF = const(0x20)
_POWER_DOWN = const(0x10)
_TX_IRQ = const(0x40)
_RX_IRQ = const(0x20)
_IDLE_IRQ = const(0x10)
_ERR_IRQ = const(0x02)
_TIMER_IRQ = const(0x01)
_CRC_IRQ = const(0x04)
_BUFFER_OVFL = const(0x10)
_COLL_ERR = const(0x08)
_CRC_ERR = const(0x04)
_START_SEND = const(0x80)
_VALUES_AFTER_COLL = const(0x80)
_COLL_POS_NOT_VALID = const(0x20)
_FORCE_100_ASK = const(0x40)
_T_AUTO = const(0x80)
_CRC_EN = const(0x80)  # TxModeReg TxCRCEn, RxModeReg RxCRCEn

CLEAN_COLLISION_PCT = 25
EDGE_MAX_MISSES = 2
_PARITY_ERR = const(0x02)

# Reset values (9.3) as (register, value) pairs; the others reset to 00h.
_RESET_VALUES = (
    0x01, 0x20, 0x02, 0x80, 0x04, 0x14, 0x07, 0x21, 0x0B, 0x08, 0x0C, 0x10, 0x0E, 0xA0,
    0x11, 0x3F, 0x14, 0x80, 0x16, 0x10, 0x17, 0x84, 0x18, 0x84, 0x19, 0x4D, 0x1C, 0x62,
    0x1F, 0xEB, 0x21, 0xFF, 0x22, 0xFF, 0x24, 0x26, 0x26, 0x48, 0x27, 0x88, 0x28, 0x20,
    0x29, 0x20, 0x33, 0x80, 0x36, 0x40,
)
_CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)  # ModeReg CRCPreset
# Registers the host cannot write (read-only or reserved).
_READ_ONLY = (0x00, 0x06, 0x07, 0x10, 0x20, 0x21, 0x22, 0x2E, 0x2F, 0x30, 0x37)

# ---- ISO/IEC 14443-3 type A ----
IDLE = 0
READY = 1
ACTIVE = 2
HALT = 3
STATE_NAMES = ("IDLE", "READY", "ACTIVE", "HALT")


def crc_a(data, crc=0x6363):
    # CRC_A, ISO/IEC 14443-3 annex B; the low byte of the result is sent first.
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc


def _to_bits(data, nbits):
    # The first nbits bits of data, least significant bit of each byte first (air order), one
    # byte each: the model runs in the firmware's own heap under MicroPython, where a list of
    # an NTAG READ's 144 bits would take a block of over 1 KB at each answer.
    bits = bytearray(nbits)
    for i in range(nbits):
        bits[i] = (data[i >> 3] >> (i & 7)) & 1
    return bits


def _from_bits(bits, offset=0):
    # Pack bits into bytes, the first at bit `offset` of the first byte.
    out = bytearray((offset + len(bits) + 7) >> 3)
    for i in range(len(bits)):
        p = offset + i
        out[p >> 3] |= bits[i] << (p & 7)
    return out


def _with_crc(data):
    c = crc_a(data)
    return bytes(data) + bytes((c & 0xFF, c >> 8))


# ---- NTAG213 (NXP NTAG213/215/216 datasheet: 8.5 memory organisation, 10 commands) ----
NTAG_PAGES = 45
_NTAG_READ = const(0x30)
_NTAG_WRITE = const(0xA2)
_NTAG_FAST_READ = const(0x3A)
_NTAG_ACK = const(0x0A)
_NTAG_NAK_ARG = const(0x00)
_NTAG_NAK_CRC = const(0x01)
_LAST_USER_PAGE = const(39)
_DYN_LOCK_PAGE = const(40)
_PWD_PAGE = const(43)
_OTP_PAGES = (2, 3, 40)  # lock bytes and the CC: a write ORs into them


def ntag_memory(uid):
    # A blank NTAG213's 180 bytes: UID and check bytes, no locks, the CC, an empty NDEF TLV.
    m = bytearray(NTAG_PAGES * 4)
    m[0:3] = uid[0:3]
    m[3] = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
    m[4:8] = uid[3:7]
    m[8] = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
    m[9] = 0x48
    m[12:16] = b"\xe1\x10\x12\x00"
    m[16:19] = b"\x03\x00\xfe"
    m[41 * 4:42 * 4] = b"\x04\x00\x00\xff"  # CFG0: AUTH0 FFh, no page behind a password
    return m


def ntag_locked(m, page):
    # Whether the lock bits in memory m keep page from being written.
    if page < 3:
        return page < 2
    if page < 8:
        return bool(m[10] >> page & 1)
    if page < 16:
        return bool(m[11] >> (page - 8) & 1)
    if page <= _LAST_USER_PAGE:
        bit = (page - 16) >> 1
        return bool(m[_DYN_LOCK_PAGE * 4 + (bit >> 3)] >> (bit & 7) & 1)
    return False


class Card:
    # One ISO/IEC 14443-3 type A PICC: the UID, the activation state machine, and for a 7-byte
    # UID an NTAG213's memory.

    def __init__(self, uid, memory=None):
        uid = bytes(uid)
        n = len(uid)
        tag = b"\x88"  # cascade tag
        if n == 4:
            parts = (uid,)
            self.atqa, self.sak = 0x0004, 0x08
        elif n == 7:
            parts = (tag + uid[0:3], uid[3:7])
            self.atqa, self.sak = 0x0044, 0x00
        elif n == 10:
            parts = (tag + uid[0:3], tag + uid[3:6], uid[6:10])
            self.atqa, self.sak = 0x0084, 0x00
        else:
            raise ValueError("UID must be 4, 7 or 10 bytes, got %d" % n)
        self.uid = uid
        # UID CLn + BCC of each cascade level
        self.levels = [p + bytes((p[0] ^ p[1] ^ p[2] ^ p[3],)) for p in parts]
        self.edge = 0  # chance in % of being unpowered at a REQA/WUPA (0: well inside the field)
        self.edge_run = 0  # reads missed in a row
        self.bit_errors = 0  # chance in % that an answer has one bit wrong (a marginal card)
        self.memory = memory if memory is not None or n != 7 else ntag_memory(uid)
        self.written = False  # a WRITE changed its memory: the model keeps it when it leaves
        self.power_off()

    def power_off(self):
        self.state = IDLE
        self.level = 0
        self.from_halt = False

    def _fall_back(self):
        # ISO/IEC 14443-3 6.3: an unexpected frame sends the card back to IDLE, or to HALT if
        # WUPA woke it from there.
        self.state = HALT if self.from_halt else IDLE
        self.level = 0

    def receive(self, bits):
        # One frame from the PCD (a list of bits); returns the answer's bits or None.
        n = len(bits)
        state = self.state
        if n == 7:
            cmd = _from_bits(bits)[0]
            if (cmd == 0x26 and state == IDLE) or (cmd == 0x52 and state in (IDLE, HALT)):
                self.from_halt = state == HALT
                self.state = READY
                self.level = 0
                return _to_bits((self.atqa & 0xFF, self.atqa >> 8), 16)
        elif state == READY and n >= 16:
            return self._anticollision(bits)
        elif state == ACTIVE and n == 32 and _from_bits(bits[0:8])[0] == 0x50:
            data = _from_bits(bits)
            if data[1] == 0 and crc_a(data[0:2]) == data[2] | (data[3] << 8):
                self.state = HALT  # HLTA: no answer
                return None
        elif state == ACTIVE and self.memory is not None and n & 7 == 0 and n >= 32:
            return self._ntag(_from_bits(bits))
        elif state == ACTIVE:
            return None  # other commands are not modelled: no answer
        if state == READY or state == ACTIVE:
            self._fall_back()
        return None

    def _ntag(self, data):
        # READ or WRITE of an ACTIVE NTAG213: the answer's bits (a NAK sends the card back).
        if crc_a(data[0:-2]) != data[-2] | (data[-1] << 8):
            return self._nak(_NTAG_NAK_CRC)
        cmd = data[0]
        addr = data[1]
        m = self.memory
        if cmd == _NTAG_READ and len(data) == 4 and addr < NTAG_PAGES:
            return self._pages(addr, 4, True)
        if cmd == _NTAG_FAST_READ and len(data) == 5 and addr <= data[2] < NTAG_PAGES:
            return self._pages(addr, data[2] - addr + 1, False)
        if cmd == _NTAG_WRITE and len(data) == 8 and addr < NTAG_PAGES and not ntag_locked(m, addr):
            at = addr * 4
            for i in range(4):
                if addr in _OTP_PAGES:
                    if addr != 2 or i >= 2:
                        m[at + i] |= data[2 + i]
                else:
                    m[at + i] = data[2 + i]
            self.written = True
            return _to_bits((_NTAG_ACK,), 4)
        return self._nak(_NTAG_NAK_ARG)

    def _pages(self, addr, count, roll):
        # `count` pages from `addr` with their CRC_A (READ rolls over from page 44 to page 0).
        m = self.memory
        n = count * 4
        out = bytearray(n)
        for i in range(n):
            page = addr + (i >> 2)
            if roll:
                page %= NTAG_PAGES
            out[i] = 0 if page >= _PWD_PAGE else m[page * 4 + (i & 3)]
        return _to_bits(_with_crc(out), (n + 2) * 8)

    def _nak(self, code):
        self._fall_back()
        return _to_bits((code,), 4)

    def _anticollision(self, bits):
        head = _from_bits(bits[0:16])
        nvb = head[1]
        if head[0] != 0x93 + 2 * self.level:  # SEL of this cascade level
            self._fall_back()
            return None
        cl = self.levels[self.level]
        n = len(bits)
        if nvb == 0x70:  # SELECT: SEL, NVB, UID CLn, BCC, CRC_A
            data = _from_bits(bits)
            if n != 72 or crc_a(data[0:7]) != data[7] | (data[8] << 8) or bytes(data[2:7]) != cl:
                self._fall_back()
                return None
            if self.level + 1 < len(self.levels):
                sak = 0x04  # UID not complete
                self.level += 1
            else:
                sak = self.sak
                self.state = ACTIVE
            return _to_bits(_with_crc(bytes((sak,))), 24)
        known = (nvb >> 4) * 8 + (nvb & 0x0F) - 16
        if nvb < 0x20 or nvb & 0x0F > 7 or known != n - 16 or known >= 40:
            self._fall_back()
            return None
        mine = _to_bits(cl, 40)
        if bits[16:] != mine[0:known]:
            return None  # not this card: silent, stays READY
        return mine[known:]


class MFRC522Model:
    # clock: None (every command is done at once), or a function giving the chip's time in us:
    # then a transceive's IRQ bits appear only once the frame, the card's answer or the timer
    # has taken its time on that clock.
    # keep_crc: with RxCRCEn the checked CRC_A stays in the FIFO after the data (else removed).
    # bit_errors: chance in % that any card's answer has one bit wrong (every card marginal).
    def __init__(self, version=0x92, clock=None, real_air=False, seed=1, keep_crc=False):
        self.version = version
        self.clock = clock
        self.real_air = real_air
        self.keep_crc = keep_crc
        self.bit_errors = 0
        self._corrupt = False  # an answer of this transceive got a bit wrong
        self._rng = seed & 0x7FFFFFFF or 1
        self._irq_pending = 0
        self._irq_at = 0
        self.on_transceive = None
        self.transceives = 0
        self._cards = []
        self._memories = {}  # uid -> an NTAG's memory, kept while its card is away
        self._regs = bytearray(64)
        self._fifo = bytearray(64)
        self._fifo_len = 0
        self._mem = bytearray(25)  # the Mem command's internal buffer; survives resets
        self._cs = 1
        self._rst = 1
        self._first = True
        self._reading = False
        self._addr = 0
        self._pending = -1
        self._pd_reads = 0
        self._crc = 0
        self._crc_ok = False
        self._field = False
        self._reset()

    # ---- pins and SPI ----

    def cs(self, level):
        if not level:
            if self._cs:
                self._first = True
        self._pending = -1
        self._cs = 1 if level else 0

    def rst(self, level):
        if not level:
            self._field_off()
        elif not self._rst:
            self._reset()
        self._rst = 1 if level else 0

    def xfer(self, b):
        if self._cs:
            return 0xFF  # not selected: MISO floats
        if self.version == 0x00 or self.version == 0xFF:
            return self.version
        if not self._rst:
            return 0x00  # held in reset
        out = 0
        if self._pending >= 0:
            out = self._read(self._pending)
            self._pending = -1
        addr = (b >> 1) & 0x3F
        if self._first:
            self._first = False
            self._reading = bool(b & 0x80)
            if self._reading:
                self._pending = addr
            else:
                self._addr = addr
        elif self._reading:
            if b & 0x80:
                self._pending = addr
            # else: the closing 00h of a read
        else:
            self._write(self._addr, b & 0xFF)
        return out

    # ---- the field ----

    def set_field(self, uids):
        # The cards now in the field: those staying keep their state, new ones start IDLE.
        cards = []
        for uid in uids:
            uid = bytes(uid)
            card = None
            for c in self._cards:
                if c.uid == uid:
                    card = c
            cards.append(card or self._new_card(uid))
        for c in self._cards:
            if c not in cards:
                self._forget(c)
        self._cards = cards

    def add_card(self, uid):
        if bytes(uid) not in self.cards_in_field():
            self._cards.append(self._new_card(bytes(uid)))

    def _new_card(self, uid):
        card = Card(uid, self._memories.get(uid))
        if card.memory is not None:
            self._memories[uid] = card.memory
        return card

    def memory(self, uid):
        # An NTAG's memory (180 bytes, written in place): the card's in the field, or what the
        # card will hold when it is laid next; None for a 4- or 10-byte UID.
        uid = bytes(uid)
        if uid not in self._memories:
            if len(uid) != 7:
                return None
            self._memories[uid] = ntag_memory(uid)
        return self._memories[uid]

    def remove_card(self, uid):
        uid = bytes(uid)
        for c in self._cards:
            if c.uid == uid:
                self._forget(c)
        self._cards = [c for c in self._cards if c.uid != uid]

    def _forget(self, card):
        # A card leaves the field: its memory goes with it unless a WRITE changed it.
        if not card.written:
            self._memories.pop(card.uid, None)

    def set_edge(self, uid, pct):
        # The card lies at the edge of the field: unpowered at a REQA/WUPA with this chance (%).
        c = self.card(uid)
        if c is not None:
            c.edge = pct
            c.edge_run = 0

    def set_bit_errors(self, uid, pct):
        # A marginal card: each of its answers gets one bit wrong with this chance (%).
        c = self.card(uid)
        if c is not None:
            c.bit_errors = pct

    def _chance(self, pct):
        self._rng = (self._rng * 1103515245 + 12345) & 0x7FFFFFFF
        return (self._rng >> 16) % 100 < pct

    def cards_in_field(self):
        return [c.uid for c in self._cards]

    def card(self, uid):
        # The Card object in the field with this UID, or None (tests may tamper with it).
        uid = bytes(uid)
        for c in self._cards:
            if c.uid == uid:
                return c
        return None

    def card_state(self, uid):
        c = self.card(uid)
        return None if c is None else STATE_NAMES[c.state]

    def field_on(self):
        return self._field

    def peek(self, addr):
        # A register's stored value, without the side effects of an SPI read (tests).
        return self._regs[addr & 0x3F]

    # ---- registers ----

    def _reset(self):
        regs = self._regs
        for i in range(64):
            regs[i] = 0
        for i in range(0, len(_RESET_VALUES), 2):
            regs[_RESET_VALUES[i]] = _RESET_VALUES[i + 1]
        self._fifo_len = 0
        self._crc_ok = False
        self._field_off()

    def _field_off(self):
        self._field = False
        for c in self._cards:
            c.power_off()

    def _read(self, addr):
        regs = self._regs
        if self._irq_pending and self.clock() - self._irq_at >= 0:
            regs[_COM_IRQ] |= self._irq_pending
            self._irq_pending = 0
        if addr == _FIFO_DATA:
            if not self._fifo_len:
                return 0
            v = self._fifo[0]
            self._drop(1)
            return v
        if addr == _FIFO_LEVEL:
            return self._fifo_len
        if addr == _VERSION:
            return self.version
        if addr == _COMMAND and self._pd_reads:
            self._pd_reads -= 1
            return regs[_COMMAND] | _POWER_DOWN  # still waking up after a soft reset
        if addr == _STATUS1:
            water = regs[_WATER_LEVEL] & 0x3F
            v = 0x20  # CRCReady: the coprocessor is never busy here
            if self._fifo_len <= water:
                v |= 0x01  # LoAlert
            if 64 - self._fifo_len <= water:
                v |= 0x02  # HiAlert
            if regs[_COM_IRQ] & regs[_COM_IEN] & 0x7F or regs[_DIV_IRQ] & regs[_DIV_IEN] & 0x14:
                v |= 0x10  # IRq
            if self._crc_ok:
                v |= 0x40  # CRCOk
            return v
        return regs[addr]

    def _write(self, addr, v):
        regs = self._regs
        if addr == _COMMAND:
            self._command(v)
        elif addr == _COM_IRQ or addr == _DIV_IRQ:
            if v & 0x80:
                regs[addr] |= v & 0x7F  # Set1/Set2: set the bits written as 1
            else:
                regs[addr] &= ~v & 0x7F  # else clear them
        elif addr == _FIFO_DATA:
            self._push(v)
            if regs[_COMMAND] & 0x0F == _CMD_CALC_CRC:
                self._run_crc()  # CalcCRC keeps taking what is written
        elif addr == _FIFO_LEVEL:
            if v & 0x80:  # FlushBuffer
                self._fifo_len = 0
                regs[_ERROR] &= ~_BUFFER_OVFL
        elif addr == _BIT_FRAMING:
            regs[addr] = v
            if v & _START_SEND and regs[_COMMAND] & 0x0F == _CMD_TRANSCEIVE:
                self._transceive()
        elif addr == _CONTROL:
            pass  # TStopNow/TStartNow: timer not modelled; RxLastBits is read-only
        elif addr == _COLL:
            regs[addr] = (regs[addr] & 0x7F) | (v & _VALUES_AFTER_COLL)
        elif addr == _TX_CONTROL:
            regs[addr] = v
            self._field = bool(v & 0x03)
            if not self._field:
                self._field_off()
        elif addr == _STATUS2:
            regs[addr] = (v & 0xC0) | (regs[addr] & v & 0x08)  # MFCrypto1On: clear only
        elif addr not in _READ_ONLY:
            regs[addr] = v

    def _drop(self, k):
        fifo = self._fifo
        n = self._fifo_len - k
        for i in range(n):
            fifo[i] = fifo[i + k]
        self._fifo_len = n

    def _push(self, v):
        if self._fifo_len >= 64:
            self._regs[_ERROR] |= _BUFFER_OVFL
        else:
            self._fifo[self._fifo_len] = v
            self._fifo_len += 1

    # ---- commands ----

    def _command(self, v):
        regs = self._regs
        self._irq_pending = 0  # a new command: what the last one had yet to raise is moot
        cmd = v & 0x0F
        if cmd == _CMD_SOFT_RESET:
            self._reset()
            self._pd_reads = 2
            return
        if cmd == _CMD_NO_CMD_CHANGE:
            cmd = regs[_COMMAND] & 0x0F
        regs[_COMMAND] = (v & 0x30) | cmd
        if cmd == _CMD_MEM:
            if self._fifo_len >= 25:
                for i in range(25):
                    self._mem[i] = self._fifo[i]
                self._drop(25)
            else:
                for b in self._mem:
                    self._push(b)
            self._done()
        elif cmd == _CMD_CALC_CRC:
            self._crc = _CRC_PRESETS[regs[_MODE] & 0x03]
            self._run_crc()
        elif cmd == _CMD_TRANSMIT:
            tx = self._take_tx()
            self._send(tx)
            regs[_COMMAND] &= 0x30
            self._later(_TX_IRQ | _IDLE_IRQ, self._tx_us(tx))
        elif cmd == _CMD_TRANSCEIVE:
            if regs[_BIT_FRAMING] & _START_SEND:
                self._transceive()
        elif cmd != _CMD_IDLE and cmd != _CMD_RECEIVE:
            self._done()  # GenerateRandomID, MFAuthent: not modelled, done at once
        # Idle set by the host raises no IdleIRq; Receive waits: cards never talk first.

    def _done(self):
        self._regs[_COMMAND] &= 0x30
        self._regs[_COM_IRQ] |= _IDLE_IRQ

    def _run_crc(self):
        self._crc = crc_a(self._fifo[0:self._fifo_len], self._crc)
        self._fifo_len = 0
        self._regs[_CRC_RESULT_H] = self._crc >> 8
        self._regs[_CRC_RESULT_L] = self._crc & 0xFF
        self._regs[_DIV_IRQ] |= _CRC_IRQ

    def _take_tx(self):
        # The FIFO as bits to transmit (TxLastBits, TxCRCEn); empties the FIFO.
        regs = self._regs
        data = bytes(self._fifo[0:self._fifo_len])
        self._fifo_len = 0
        last = regs[_BIT_FRAMING] & 0x07
        if regs[_TX_MODE] & _CRC_EN:
            data = _with_crc(data)
            last = 0
        n = len(data)
        return _to_bits(data, (n - 1) * 8 + last if last and n else n * 8)

    def _send(self, bits):
        # Transmit into the field; returns the answers of the cards that heard the frame.
        if not self._field or not self._regs[_TX_ASK] & _FORCE_100_ASK or not bits:
            return []
        answers = []
        for card in self._cards:
            if card.edge and len(bits) == 7:
                if card.edge_run < EDGE_MAX_MISSES and self._chance(card.edge):
                    card.edge_run += 1
                    card.power_off()
                    continue
                card.edge_run = 0
            a = card.receive(bits)
            if a:
                pct = card.bit_errors or self.bit_errors
                if pct and self._chance(pct):
                    self._rng = (self._rng * 1103515245 + 12345) & 0x7FFFFFFF
                    a[(self._rng >> 16) % len(a)] ^= 1  # one bit of the weak answer misread
                    self._corrupt = True
                answers.append(a)
        return answers

    def _later(self, bits, after_us):
        # IRQ bits that the chip raises after_us from now (at once without a clock)
        if self.clock is None:
            self._regs[_COM_IRQ] |= bits
        else:
            self._irq_pending |= bits
            self._irq_at = self.clock() + after_us

    def _timer_us(self):
        regs = self._regs
        presc = ((regs[_T_MODE] & 0x0F) << 8) | regs[_T_PRESCALER]
        reload = (regs[_T_RELOAD_H] << 8) | regs[_T_RELOAD_L]
        return reload * (2 * presc + 1) * 1000 // _FC_KHZ

    def _tx_us(self, tx):
        # a frame of these bits on the air: data, a parity bit per byte, start and end
        return (len(tx) + len(tx) // 8 + 2) * _BIT_NS // 1000

    def _superpose(self, answers, length, keep_after):
        # The answers superposed, bit by bit: where cards disagree the PCD sees a collision (the
        # first one's index; bits after it read 0 unless ValuesAfterColl), or on real air mostly
        # a garbled frame. Returns (bits, collision index or -1, garbled).
        garble = False
        if self.real_air and len(answers) > 1:
            for a in answers:
                if a != answers[0]:
                    garble = not self._chance(CLEAN_COLLISION_PCT)
                    break
        if len(answers) == 1:
            return answers[0], -1, False  # one card: its answer as it is
        bits = bytearray(length)
        coll = -1
        for i in range(length):
            seen = 0
            for a in answers:
                if i < len(a):
                    seen |= 2 if a[i] else 1
            if garble:
                bits[i] = 1 if seen & 2 else 0
                continue
            if seen == 3 and coll < 0:
                coll = i
            bits[i] = 0 if coll >= 0 and not keep_after else seen >> 1
        return bits, coll, garble

    def _transceive(self):
        self.transceives += 1
        if self.on_transceive is not None:
            self.on_transceive()
        regs = self._regs
        rx_align = (regs[_BIT_FRAMING] >> 4) & 0x07
        tx = self._take_tx()
        tx_us = self._tx_us(tx)
        self._corrupt = False
        answers = self._send(tx)
        regs[_ERROR] = 0
        regs[_COLL] = (regs[_COLL] & _VALUES_AFTER_COLL) | _COLL_POS_NOT_VALID
        regs[_COM_IRQ] |= _TX_IRQ
        self._crc_ok = False
        if not answers or regs[_COMMAND] & _RCV_OFF:
            if regs[_T_MODE] & _T_AUTO:
                self._later(_TIMER_IRQ, tx_us + self._timer_us())
            return
        length = max(len(a) for a in answers)
        bits, coll, garble = self._superpose(answers, length, regs[_COLL] & _VALUES_AFTER_COLL)
        rx = _from_bits(bits, rx_align)
        total = rx_align + length
        err = 0
        if coll >= 0:
            err = _COLL_ERR
            pos = rx_align + coll + 1  # 1 = bit 0 of the first FIFO byte; 32 reads as 0
            if pos <= 32:
                regs[_COLL] = (regs[_COLL] & _VALUES_AFTER_COLL) | (pos & 0x1F)
        if garble:
            err = _PARITY_ERR
        if self._corrupt:
            err |= _PARITY_ERR  # a bit misread breaks its byte's odd parity
        if regs[_RX_MODE] & _CRC_EN:
            crc = _CRC_PRESETS[regs[_MODE] & 3]
            if total & 7 == 0 and len(rx) >= 3 and crc_a(rx[0:-2], crc) == rx[-2] | (rx[-1] << 8):
                if not self.keep_crc:
                    rx = rx[0:-2]
                self._crc_ok = True
            else:
                err |= _CRC_ERR
        for b in rx:
            self._push(b)
        regs[_CONTROL] = (regs[_CONTROL] & 0xF8) | (total & 7)
        regs[_ERROR] |= err
        rx_us = _FDT_US + (length + length // 8 + 2) * _BIT_NS // 1000
        self._later(_RX_IRQ | (_ERR_IRQ if regs[_ERROR] else 0), tx_us + rx_us)
