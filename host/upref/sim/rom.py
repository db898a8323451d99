"""The simulated ESP32's ROM bootloader in download mode, and the flasher stub that esptool
uploads into it: the serial protocol esptool speaks (SLIP frames of commands and responses),
answered from a model of the chip's registers and its 4 MB SPI flash, kept as a file.

Pure: `Rom.feed(bytes)` takes what reached the chip and returns what it answers; what the
chip does beyond answering (change its baud rate, leave download mode, reboot into the ROM,
erase its filesystem) is queued in `Rom.actions` for the simulator (faces.RomFace) to carry out.

The wire (esptool's loader.py is the reference; docs/simulator.md the summary):
  request   c0 | 00 op len:u16 checksum:u32 data | c0        (0xc0 and 0xdb escaped: db dc, db dd)
  response  c0 | 01 op len:u16 value:u32 data status | c0     (status: 4 bytes from the ROM,
                                                              2 from the stub; 00 = success)
Commands: SYNC (answered eight times: 0x20120707 from the ROM, 0 from the stub, which is how
esptool tells a running stub), READ_REG/WRITE_REG (chip-detect magic, UART divider, eFuses
for revision, features, MAC and crystal; the SPI1 controller runs RDID, SFDP and status reads
when its USR bit is written), SPI_ATTACH, SPI_SET_PARAMS, CHANGE_BAUDRATE, MEM_BEGIN/DATA/END
(the stub: after MEM_END it greets with `OHAI`), FLASH_BEGIN/DATA/END and their DEFL (zlib)
variants, SPI_FLASH_MD5 (32 hex characters from the ROM, 16 raw bytes from the stub),
READ_FLASH_SLOW (ROM), ERASE_FLASH/ERASE_REGION/READ_FLASH (stub only). Anything else is
answered with status 01 05 ("received message is invalid"), as the real ROM does.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

FLASH_SIZE = 4 * 1024 * 1024
SECTOR = 0x1000
FS_START = 0x200000  # MicroPython ESP32_GENERIC: the `vfs` partition (its filesystem) starts here
BOOTLOADER_OFFSET = 0x1000  # where the ROM looks for the second-stage bootloader
IMAGE_MAGIC = 0xE9

# commands (esptool's ESPLoader.ESP_CMDS)
FLASH_BEGIN = 0x02
FLASH_DATA = 0x03
FLASH_END = 0x04
MEM_BEGIN = 0x05
MEM_END = 0x06
MEM_DATA = 0x07
SYNC = 0x08
WRITE_REG = 0x09
READ_REG = 0x0A
SPI_SET_PARAMS = 0x0B
SPI_ATTACH = 0x0D
READ_FLASH_SLOW = 0x0E
CHANGE_BAUDRATE = 0x0F
FLASH_DEFL_BEGIN = 0x10
FLASH_DEFL_DATA = 0x11
FLASH_DEFL_END = 0x12
SPI_FLASH_MD5 = 0x13
ERASE_FLASH = 0xD0
ERASE_REGION = 0xD1
READ_FLASH = 0xD2

# error codes in the second status byte
ERR_INVALID = 0x05  # received message is invalid (unknown command, bad parameters)
ERR_FAILED = 0x06  # failed to act on received message
ERR_CRC = 0x07  # invalid CRC (checksum) in message
ERR_FLASH_WRITE = 0x08
ERR_FLASH_READ = 0x09
ERR_DEFLATE = 0x0B

SYNC_DATA = b"\x07\x07\x12\x20" + b"\x55" * 32
ROM_SYNC_VALUE = 0x20120707
CHECKSUM_MAGIC = 0xEF

# registers (esptool targets/esp32.py)
CHIP_DETECT_MAGIC_REG = 0x40001000
ESP32_MAGIC = 0x00F01D83
UART_CLKDIV_REG = 0x3FF40014
EFUSE_BASE = 0x3FF5A000
APB_CTL_DATE = 0x3FF6607C
RTCCALICFG1 = 0x3FF5F06C
SPI_BASE = 0x3FF42000  # SPI1, the flash's controller
SPI_CMD = SPI_BASE + 0x00
SPI_ADDR = SPI_BASE + 0x04
SPI_USR = SPI_BASE + 0x1C
SPI_USR1 = SPI_BASE + 0x20
SPI_USR2 = SPI_BASE + 0x24
SPI_MOSI_DLEN = SPI_BASE + 0x28
SPI_MISO_DLEN = SPI_BASE + 0x2C
SPI_W0 = SPI_BASE + 0x80
SPI_CMD_USR = 1 << 18

JEDEC_ID = 0x1640C8  # GigaDevice GD25Q32: manufacturer c8, device 4016 (4 MB)
# the flash chip's SFDP table: signature, revision, one parameter header (JEDEC basic table)
SFDP = bytes.fromhex("53464450060101ff00060110300000ffc8000103600000ff") + b"\xff" * 8


def checksum(data: bytes, state: int = CHECKSUM_MAGIC) -> int:
    """The ROM's checksum of a data block: XOR of its bytes, seeded with 0xEF."""
    for b in data:
        state ^= b
    return state


def slip_encode(packet: bytes) -> bytes:
    return b"\xc0" + packet.replace(b"\xdb", b"\xdb\xdd").replace(b"\xc0", b"\xdb\xdc") + b"\xc0"


class SlipDecoder:
    """Splits a byte stream into SLIP packets; bytes outside a frame are ignored."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._in = False
        self._esc = False

    def reset(self) -> None:
        self._buf.clear()
        self._in = False
        self._esc = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        for b in data:
            if b == 0xC0:
                if self._in and self._buf:
                    yield bytes(self._buf)
                    self._buf.clear()
                    self._in = True  # a c0 may end one frame and start the next
                else:
                    self._in = True
                self._esc = False
            elif not self._in:
                continue
            elif self._esc:
                self._esc = False
                if b == 0xDC:
                    self._buf.append(0xC0)
                elif b == 0xDD:
                    self._buf.append(0xDB)
                else:  # a broken escape: drop the frame
                    self._buf.clear()
                    self._in = False
            elif b == 0xDB:
                self._esc = True
            else:
                self._buf.append(b)


def esp32_efuses(mac: bytes) -> dict[int, int]:
    """eFuse words of a classic ESP32-D0WD-V3 (revision v3.0), dual core, BT, 40 MHz crystal,
    with this base MAC, as esptool reads and decodes them."""
    if len(mac) != 6:
        raise ValueError("a MAC has 6 bytes")
    w1 = int.from_bytes(mac[2:6], "big")
    crc = 0
    for b in mac:  # the MAC CRC8 is stored beside it; esptool does not check it
        crc ^= b
    w2 = (crc << 16) | int.from_bytes(mac[0:2], "big")
    word3 = (1 << 9) | (1 << 15)  # package D0WD; revision bit 0
    word4 = 40  # CK8M frequency calibration (with RTCCALICFG1: the ROM's crystal estimate)
    word5 = 1 << 20  # revision bit 1 (minor revision 0, default SPI pads)
    return {EFUSE_BASE + 4 * i: w for i, w in enumerate([0, w1, w2, word3, word4, word5, 0])}


class SpiFlash:
    """The ESP32's 4 MB SPI NOR flash, kept in a file that appears on the first write or erase.

    A board whose file does not exist yet is as it left the factory (this simulator counts it as
    holding MicroPython); it reads as erased (0xff). Writes can only clear bits, as on NOR flash:
    what is written over unerased bytes is ANDed with them."""

    def __init__(self, path: str | os.PathLike[str], size: int = FLASH_SIZE) -> None:
        self.path = Path(path)
        self.size = size
        self._data: bytearray | None = None
        self._fd = -1

    def exists(self) -> bool:
        return self.path.exists()

    def _load(self) -> bytearray:
        if self._data is None:
            data = bytearray(b"\xff" * self.size)
            with contextlib.suppress(FileNotFoundError):
                got = self.path.read_bytes()[: self.size]
                data[: len(got)] = got
            self._data = data
        return self._data

    def _file(self) -> int:
        if self._fd < 0:
            data = self._load()
            fresh = not self.path.exists()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            if fresh or os.fstat(self._fd).st_size != self.size:
                os.pwrite(self._fd, bytes(data), 0)
        return self._fd

    def close(self) -> None:
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = -1
        self._data = None  # read again from the file next time (a test may have changed it)

    def check(self, offset: int, length: int) -> bool:
        return 0 <= offset and length >= 0 and offset + length <= self.size

    def read(self, offset: int, length: int) -> bytes:
        return bytes(self._load()[offset : offset + length])

    def write(self, offset: int, data: bytes) -> None:
        if not data:
            return
        buf = self._load()
        old = buf[offset : offset + len(data)]
        new = bytes(a & b for a, b in zip(old, data, strict=True)) if old.count(0xFF) != len(old) else data
        buf[offset : offset + len(data)] = new
        os.pwrite(self._file(), new, offset)

    def erase(self, offset: int, length: int) -> tuple[int, int]:
        """Erase the sectors covering [offset, offset+length); returns the erased range."""
        start = offset - offset % SECTOR
        end = min(self.size, -(-(offset + length) // SECTOR) * SECTOR)
        if end <= start:
            return start, start
        buf = self._load()
        buf[start:end] = b"\xff" * (end - start)
        os.pwrite(self._file(), b"\xff" * (end - start), start)
        return start, end

    def bootable(self) -> bool:
        """Would the ROM find a second-stage bootloader? (True while the file does not exist:
        the board as shipped.)"""
        if not self.exists():
            return True
        return self.header_word() & 0xFF == IMAGE_MAGIC

    def header_word(self) -> int:
        """The first word at the bootloader's offset, as the ROM reads it (from the file)."""
        try:
            with open(self.path, "rb") as f:
                f.seek(BOOTLOADER_OFFSET)
                word = f.read(4)
        except OSError:
            word = b""
        return int.from_bytes(word.ljust(4, b"\xff"), "little")


class _Write:
    """A FLASH_BEGIN/DATA or FLASH_DEFL_BEGIN/DATA session."""

    def __init__(self, offset: int, size: int, blocks: int, block_size: int, deflate: bool) -> None:
        self.offset = offset
        self.size = size
        self.blocks = blocks
        self.block_size = block_size
        self.next_seq = 0
        self.written = 0  # bytes written so far (deflate: decompressed)
        self.inflate = zlib.decompressobj() if deflate else None


class Rom:
    """The chip in download mode: the ROM bootloader, then (after MEM_END) the flasher stub.

    actions (drained by the simulator after each feed):
      ("baud", n)           the chip now talks at n baud (after this response has left)
      ("run",)              the ROM leaves download mode and boots from flash
      ("rom",)              the stub reset the chip: back to the ROM, still in download mode
      ("erased", start, end)  a flash range was erased
      ("wrote", start, end)   a flash range was written
    """

    def __init__(self, flash: SpiFlash, mac: bytes) -> None:
        self.flash = flash
        self.mac = mac
        self.stub = False
        self.actions: list[tuple[object, ...]] = []
        self.commands = 0
        self.unknown = 0
        self._slip = SlipDecoder()
        self._regs: dict[int, int] = {}
        self._write: _Write | None = None
        self._mem: tuple[int, int] | None = None  # (size, received) of a MEM_BEGIN session
        self.reset()

    def reset(self) -> None:
        """Power-on or EN reset: the ROM again, registers at their reset values."""
        self.stub = False
        self._slip.reset()
        self._write = None
        self._mem = None
        self._regs = {
            CHIP_DETECT_MAGIC_REG: ESP32_MAGIC,
            UART_CLKDIV_REG: 347,  # 115200 baud from a 40 MHz crystal: esptool computes 40 MHz
            APB_CTL_DATE: 1 << 31,  # revision bit 2
            RTCCALICFG1: 2560 << 7,  # with eFuse CK8M 40: the ROM's crystal estimate is 40 MHz
            SPI_CMD: 0,
        }
        self._regs.update(esp32_efuses(self.mac))

    # ---- the wire -----------------------------------------------------------------------------

    def feed(self, data: bytes) -> bytes:
        out = bytearray()
        for pkt in self._slip.feed(data):
            out += self._packet(pkt)
        return bytes(out)

    def _status_len(self) -> int:
        return 2 if self.stub else 4

    def _resp(self, op: int, value: int = 0, data: bytes = b"", error: int = 0) -> bytes:
        status = bytes([1 if error else 0, error]) + b"\x00" * (self._status_len() - 2)
        body = data + status
        return slip_encode(struct.pack("<BBHI", 1, op, len(body), value & 0xFFFFFFFF) + body)

    def _packet(self, pkt: bytes) -> bytes:
        if len(pkt) < 8 or pkt[0] != 0x00:
            return b""  # not a request (e.g. the host's acknowledgements during READ_FLASH)
        op, size, chk = struct.unpack_from("<BHI", pkt, 1)
        data = pkt[8 : 8 + size]
        if len(data) != size:
            return self._resp(op, error=ERR_INVALID)
        self.commands += 1
        handler = _HANDLERS.get(op)
        if handler is None or (op in _STUB_ONLY and not self.stub):
            self.unknown += 1
            return self._resp(op, error=ERR_INVALID)
        try:
            return handler(self, op, data, chk)
        except (struct.error, ValueError, IndexError):
            return self._resp(op, error=ERR_INVALID)

    # ---- commands -----------------------------------------------------------------------------

    def _sync(self, op: int, data: bytes, chk: int) -> bytes:
        if data != SYNC_DATA:
            return self._resp(op, error=ERR_INVALID)
        value = 0 if self.stub else ROM_SYNC_VALUE
        return self._resp(op, value) * 8

    def _read_reg(self, op: int, data: bytes, chk: int) -> bytes:
        (addr,) = struct.unpack_from("<I", data)
        return self._resp(op, self._regs.get(addr, 0))

    def _write_reg(self, op: int, data: bytes, chk: int) -> bytes:
        if len(data) % 16:
            return self._resp(op, error=ERR_INVALID)
        for i in range(0, len(data), 16):
            addr, value, mask, _delay = struct.unpack_from("<IIII", data, i)
            old = self._regs.get(addr, 0)
            self._regs[addr] = (old & ~mask | value & mask) & 0xFFFFFFFF
            if addr == SPI_CMD and self._regs[addr] & SPI_CMD_USR:
                self._spi_command()
        return self._resp(op)

    def _spi_command(self) -> None:
        """The SPI1 controller runs a "user" command on the flash chip and reports it done."""
        command = self._regs.get(SPI_USR2, 0) & 0xFF
        read_bits = (self._regs.get(SPI_MISO_DLEN, 0) & 0xFFFFFF) + 1
        mask = (1 << min(read_bits, 32)) - 1
        if command == 0x9F:  # RDID
            result = JEDEC_ID
        elif command == 0x5A:  # RDSFDP: 24-bit address, left-aligned in the address register
            addr = self._regs.get(SPI_ADDR, 0) >> 8
            result = int.from_bytes(SFDP[addr : addr + 4].ljust(4, b"\xff"), "little")
        else:  # status registers (05, 35, 15), reset (66, 99), anything else: 0
            result = 0
        self._regs[SPI_W0] = result & mask
        self._regs[SPI_CMD] = 0  # done

    def _ok(self, op: int, data: bytes, chk: int) -> bytes:  # SPI_ATTACH, SPI_SET_PARAMS
        return self._resp(op)

    def _change_baud(self, op: int, data: bytes, chk: int) -> bytes:
        new, _old = struct.unpack_from("<II", data)
        if not 300 <= new <= 5_000_000:
            return self._resp(op, error=ERR_INVALID)
        self.actions.append(("baud", new))
        return self._resp(op)

    def _mem_begin(self, op: int, data: bytes, chk: int) -> bytes:
        size, _blocks, _block_size, _offset = struct.unpack_from("<IIII", data)
        self._mem = (size, 0)
        return self._resp(op)

    def _mem_data(self, op: int, data: bytes, chk: int) -> bytes:
        size, _seq, _, _ = struct.unpack_from("<IIII", data)
        payload = data[16:]
        if self._mem is None or len(payload) != size:
            return self._resp(op, error=ERR_INVALID)
        if checksum(payload) != chk & 0xFF:
            return self._resp(op, error=ERR_CRC)
        total, got = self._mem
        self._mem = (total, got + size)
        return self._resp(op)

    def _mem_end(self, op: int, data: bytes, chk: int) -> bytes:
        no_run, _entry = struct.unpack_from("<II", data)
        out = self._resp(op)
        self._mem = None
        if not no_run:
            # what esptool uploads and starts is its flasher stub: it greets, then answers
            self.stub = True
            out += slip_encode(b"OHAI")
        return out

    def _flash_begin(self, op: int, data: bytes, chk: int) -> bytes:
        size, blocks, block_size, offset = struct.unpack_from("<IIII", data)
        deflate = op == FLASH_DEFL_BEGIN
        if not self.flash.check(offset, 0) or (size and not self.flash.check(offset, size)) or block_size == 0:
            return self._resp(op, error=ERR_INVALID)
        self._write = _Write(offset, size, blocks, block_size, deflate)
        if size:
            start, end = self.flash.erase(offset, size)  # the ROM erases up front; so does this stub
            self.actions.append(("erased", start, end))
        return self._resp(op)

    def _flash_data(self, op: int, data: bytes, chk: int) -> bytes:
        size, seq, _, _ = struct.unpack_from("<IIII", data)
        payload = data[16:]
        w = self._write
        deflate = op == FLASH_DEFL_DATA
        if w is None or len(payload) != size or (w.inflate is not None) != deflate:
            return self._resp(op, error=ERR_INVALID)
        if checksum(payload) != chk & 0xFF:
            return self._resp(op, error=ERR_CRC)
        if seq < w.next_seq:
            return self._resp(op)  # sent again after a lost answer: already written
        if seq != w.next_seq:
            return self._resp(op, error=ERR_INVALID)
        if w.inflate is not None:
            try:
                chunk = w.inflate.decompress(payload)
            except zlib.error:
                return self._resp(op, error=ERR_DEFLATE)
            start = w.offset + w.written
        else:
            chunk = payload
            start = w.offset + seq * w.block_size
        if not self.flash.check(start, len(chunk)):
            return self._resp(op, error=ERR_FLASH_WRITE)
        self.flash.write(start, chunk)
        w.written += len(chunk)
        w.next_seq += 1
        if chunk:
            self.actions.append(("wrote", start, start + len(chunk)))
        return self._resp(op)

    def _flash_end(self, op: int, data: bytes, chk: int) -> bytes:
        (stay,) = struct.unpack_from("<I", data) if len(data) >= 4 else (0,)
        self._write = None
        out = self._resp(op)
        if self.stub:
            if not stay:  # the stub resets the chip: the ROM, still in download mode
                self.stub = False
                self.actions.append(("rom",))
        else:
            self.actions.append(("run",))  # the ROM leaves download mode (reboot or run user code)
        return out

    def _md5(self, op: int, data: bytes, chk: int) -> bytes:
        addr, size, _, _ = struct.unpack_from("<IIII", data)
        if not self.flash.check(addr, size):
            return self._resp(op, error=ERR_FLASH_READ)
        digest = hashlib.md5(self.flash.read(addr, size))
        return self._resp(op, data=digest.digest() if self.stub else digest.hexdigest().encode())

    def _erase_flash(self, op: int, data: bytes, chk: int) -> bytes:
        start, end = self.flash.erase(0, self.flash.size)
        self.actions.append(("erased", start, end))
        return self._resp(op)

    def _erase_region(self, op: int, data: bytes, chk: int) -> bytes:
        offset, size = struct.unpack_from("<II", data)
        if offset % SECTOR or size % SECTOR or not self.flash.check(offset, size):
            return self._resp(op, error=ERR_INVALID)
        start, end = self.flash.erase(offset, size)
        self.actions.append(("erased", start, end))
        return self._resp(op)

    def _read_flash(self, op: int, data: bytes, chk: int) -> bytes:
        offset, length, block, _in_flight = struct.unpack_from("<IIII", data)
        if not self.flash.check(offset, length) or block == 0:
            return self._resp(op, error=ERR_INVALID)
        content = self.flash.read(offset, length)
        out = bytearray(self._resp(op))
        # the stub streams the data in blocks (the host acknowledges each; acknowledgements
        # are not requests and are ignored here), then the MD5 of all of it
        for i in range(0, length, block):
            out += slip_encode(content[i : i + block])
        out += slip_encode(hashlib.md5(content).digest())
        return bytes(out)

    def _read_flash_slow(self, op: int, data: bytes, chk: int) -> bytes:
        offset, length = struct.unpack_from("<II", data)
        if length > 64 or not self.flash.check(offset, length):
            return self._resp(op, error=ERR_INVALID)
        return self._resp(op, data=self.flash.read(offset, length).ljust(64, b"\xff"))


_HANDLERS = {
    SYNC: Rom._sync,
    READ_REG: Rom._read_reg,
    WRITE_REG: Rom._write_reg,
    SPI_ATTACH: Rom._ok,
    SPI_SET_PARAMS: Rom._ok,
    CHANGE_BAUDRATE: Rom._change_baud,
    MEM_BEGIN: Rom._mem_begin,
    MEM_DATA: Rom._mem_data,
    MEM_END: Rom._mem_end,
    FLASH_BEGIN: Rom._flash_begin,
    FLASH_DATA: Rom._flash_data,
    FLASH_END: Rom._flash_end,
    FLASH_DEFL_BEGIN: Rom._flash_begin,
    FLASH_DEFL_DATA: Rom._flash_data,
    FLASH_DEFL_END: Rom._flash_end,
    SPI_FLASH_MD5: Rom._md5,
    READ_FLASH_SLOW: Rom._read_flash_slow,
    ERASE_FLASH: Rom._erase_flash,
    ERASE_REGION: Rom._erase_region,
    READ_FLASH: Rom._read_flash,
}
_STUB_ONLY = {ERASE_FLASH, ERASE_REGION, READ_FLASH}


def download_banner(cause_text: str = "0x1 (POWERON_RESET)") -> bytes:
    """What the ROM prints when the chip starts with GPIO0 (BOOT) held low."""
    return (
        "ets Jul 29 2019 12:21:46\r\n\r\n"
        f"rst:{cause_text},boot:0x3 (DOWNLOAD_BOOT(UART0/UART1/SDIO_REI_REO_V2))\r\n"
        "waiting for download\r\n"
    ).encode()
