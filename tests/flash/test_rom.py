"""The simulated ESP32 ROM and flasher stub (upref.sim.rom) on their own: SLIP requests in,
responses out, the SPI flash in a file. The end-to-end tests run the real esptool against it."""

from __future__ import annotations

import hashlib
import struct
import zlib
from pathlib import Path

import pytest
from upref.sim import rom


def request(op: int, data: bytes = b"", chk: int = 0) -> bytes:
    return rom.slip_encode(struct.pack("<BBHI", 0, op, len(data), chk) + data)


def responses(raw: bytes) -> list[tuple[int, int, bytes]]:
    """(op, value, data+status) of each response frame."""
    out = []
    for frame in rom.SlipDecoder().feed(raw):
        if len(frame) >= 8 and frame[0] == 1:
            _, op, size, value = struct.unpack_from("<BBHI", frame)
            out.append((op, value, frame[8 : 8 + size]))
    return out


@pytest.fixture
def chip(tmp_path: Path) -> rom.Rom:
    return rom.Rom(rom.SpiFlash(tmp_path / "flash.bin"), bytes.fromhex("240AC4123456"))


def run_stub(chip: rom.Rom) -> bytes:
    out = chip.feed(request(rom.MEM_BEGIN, struct.pack("<IIII", 4, 1, 0x1800, 0x40080000)))
    out += chip.feed(request(rom.MEM_DATA, struct.pack("<IIII", 4, 0, 0, 0) + b"\x01\x02\x03\x04", rom.checksum(b"\x01\x02\x03\x04")))
    out += chip.feed(request(rom.MEM_END, struct.pack("<II", 0, 0x40080000)))
    return out


def test_sync_is_answered_eight_times_by_the_rom_and_with_zero_by_the_stub(chip: rom.Rom) -> None:
    got = responses(chip.feed(request(rom.SYNC, rom.SYNC_DATA)))
    assert len(got) == 8 and {v for _, v, _ in got} == {0x20120707}
    assert all(d == b"\x00\x00\x00\x00" for _, _, d in got)  # 4 status bytes from the ROM
    assert b"OHAI" in run_stub(chip) and chip.stub
    got = responses(chip.feed(request(rom.SYNC, rom.SYNC_DATA)))
    assert len(got) == 8 and {v for _, v, _ in got} == {0} and got[0][2] == b"\x00\x00"  # 2 from the stub


def test_registers_say_classic_esp32_its_mac_and_a_40mhz_crystal(chip: rom.Rom) -> None:
    def reg(addr: int) -> int:
        return responses(chip.feed(request(rom.READ_REG, struct.pack("<I", addr))))[0][1]

    assert reg(0x40001000) == 0x00F01D83
    assert round(115200 * (reg(0x3FF40014) & 0xFFFFF) / 1e6) == 40
    w1, w2 = reg(rom.EFUSE_BASE + 4), reg(rom.EFUSE_BASE + 8)
    assert struct.pack(">II", w2, w1)[2:8] == bytes.fromhex("240AC4123456")  # as esptool decodes it
    # RDID through the SPI1 controller: command, USR bit, done, W0
    chip.feed(request(rom.WRITE_REG, struct.pack("<IIII", rom.SPI_USR2, (7 << 28) | 0x9F, 0xFFFFFFFF, 0)))
    chip.feed(request(rom.WRITE_REG, struct.pack("<IIII", rom.SPI_MISO_DLEN, 23, 0xFFFFFFFF, 0)))
    chip.feed(request(rom.WRITE_REG, struct.pack("<IIII", rom.SPI_CMD, rom.SPI_CMD_USR, 0xFFFFFFFF, 0)))
    assert reg(rom.SPI_CMD) & rom.SPI_CMD_USR == 0
    assert reg(rom.SPI_W0) == 0x1640C8  # GigaDevice, 4 MB


def test_unknown_and_stub_only_commands_answer_invalid_message(chip: rom.Rom) -> None:
    for op in (0x14, rom.ERASE_FLASH, rom.READ_FLASH):  # GET_SECURITY_INFO: not on an ESP32 ROM
        (got,) = responses(chip.feed(request(op)))
        assert got[0] == op and got[2][:2] == b"\x01\x05"
    assert chip.unknown == 3


def test_compressed_write_md5_and_read_back(chip: rom.Rom, tmp_path: Path) -> None:
    data = bytes(range(256)) * 40 + b"\xff" * 5000
    comp = zlib.compress(data, 9)
    out = chip.feed(request(rom.FLASH_DEFL_BEGIN, struct.pack("<IIII", 0x3000, 1, 0x4000, 0x1000)))
    assert responses(out)[0][2] == b"\x00\x00\x00\x00"
    bad = chip.feed(request(rom.FLASH_DEFL_DATA, struct.pack("<IIII", len(comp), 0, 0, 0) + comp, 0))
    assert responses(bad)[0][2][:2] == b"\x01\x07"  # checksum wrong: refused
    out = chip.feed(request(rom.FLASH_DEFL_DATA, struct.pack("<IIII", len(comp), 0, 0, 0) + comp, rom.checksum(comp)))
    assert responses(out)[0][2][:2] == b"\x00\x00"
    assert (tmp_path / "flash.bin").read_bytes()[0x1000 : 0x1000 + len(data)] == data
    md5 = chip.feed(request(rom.SPI_FLASH_MD5, struct.pack("<IIII", 0x1000, len(data), 0, 0)))
    assert responses(md5)[0][2][:32] == hashlib.md5(data).hexdigest().encode()  # ROM: hex text
    run_stub(chip)
    md5 = chip.feed(request(rom.SPI_FLASH_MD5, struct.pack("<IIII", 0x1000, len(data), 0, 0)))
    assert responses(md5)[0][2] == hashlib.md5(data).digest() + b"\x00\x00"  # stub: 16 raw bytes
    frames = list(rom.SlipDecoder().feed(chip.feed(request(rom.READ_FLASH, struct.pack("<IIII", 0x1000, 0x2000, 0x1000, 64)))))
    assert frames[1] + frames[2] == data[:0x2000] and frames[3] == hashlib.md5(data[:0x2000]).digest()
    chip.feed(request(rom.ERASE_REGION, struct.pack("<II", 0x1000, 0x1000)))
    assert chip.flash.read(0x1000, 0x1000) == b"\xff" * 0x1000
    assert ("erased", 0x1000, 0x2000) in chip.actions


def test_flash_end_leaves_download_mode_from_the_rom_and_reboots_into_it_from_the_stub(chip: rom.Rom) -> None:
    chip.feed(request(rom.FLASH_BEGIN, struct.pack("<IIII", 0, 0, 0x400, 0)))
    chip.feed(request(rom.FLASH_END, struct.pack("<I", 1)))
    assert chip.actions[-1] == ("run",)
    run_stub(chip)
    chip.feed(request(rom.FLASH_END, struct.pack("<I", 0)))
    assert chip.actions[-1] == ("rom",) and not chip.stub


def test_an_absent_flash_file_is_a_shipped_board_and_an_erased_one_is_not_bootable(tmp_path: Path) -> None:
    f = rom.SpiFlash(tmp_path / "f.bin")
    assert f.bootable() and not f.exists() and f.read(0x1000, 4) == b"\xff" * 4
    f.erase(0, 0x2000)
    assert f.exists() and not f.bootable() and f.header_word() == 0xFFFFFFFF
    f.write(0x1000, b"\xe9\x03")
    assert f.bootable()
    f.write(0x1000, b"\x0f")  # NOR flash: writing only clears bits
    assert f.read(0x1000, 1) == b"\x09"
