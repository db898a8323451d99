"""Tiny ESP-IDF-format images built here, byte by byte, with valid header checksums and
appended SHA-256 digests: a merged binary as MicroPython ships for ESP32_GENERIC (second-stage
bootloader at 0x1000, partition table at 0x8000, application at 0x10000; the file starts at
0x1000). esptool's own image reader must accept them; the tests then damage them."""

from __future__ import annotations

import hashlib
import struct

ESP32 = 0
ESP32_S3 = 9

BOOTLOADER_AT = 0x1000  # flash offset of the file's first byte
PARTITIONS_AT = 0x8000
APP_AT = 0x10000


def esp_image(chip_id: int, entry: int, segments: list[tuple[int, bytes]]) -> bytes:
    """One ESP-IDF image: common header, extended header, segments, checksum, SHA-256."""
    out = bytearray(struct.pack("<BBBBI", 0xE9, len(segments), 2, 0x20, entry))  # DIO, 4MB, 40m
    out += struct.pack("<BBBBHBHH4BB", 0xEE, 0, 0, 0, chip_id, 0, 0, 0, 0, 0, 0, 0, 1)
    chk = 0xEF
    for addr, data in segments:
        assert len(data) % 4 == 0
        out += struct.pack("<II", addr, len(data)) + data
        for b in data:
            chk ^= b
    out += b"\x00" * (15 - len(out) % 16)
    out.append(chk)
    out += hashlib.sha256(out).digest()
    return bytes(out)


def partition_table(app_offset: int = APP_AT, app_size: int = 0x1F0000) -> bytes:
    def entry(ptype: int, subtype: int, offset: int, size: int, label: str) -> bytes:
        return struct.pack("<2sBBII16sI", b"\xaa\x50", ptype, subtype, offset, size,
                           label.encode().ljust(16, b"\x00"), 0)

    body = (entry(1, 2, 0x9000, 0x6000, "nvs") + entry(1, 1, 0xF000, 0x1000, "phy_init")
            + entry(0, 0, app_offset, app_size, "factory") + entry(1, 0x81, 0x200000, 0x200000, "vfs"))
    md5 = b"\xeb\xeb" + b"\xff" * 14 + hashlib.md5(body).digest()
    return (body + md5).ljust(0xC00, b"\xff")


def app_desc(version: str = "v1.29.0", project: str = "micropython") -> bytes:
    """esp_app_desc_t, which starts the application's first DROM segment."""
    d = struct.pack("<IIII", 0xABCD5432, 0, 0, 0)
    d += version.encode().ljust(32, b"\x00") + project.encode().ljust(32, b"\x00")
    d += b"00:00:00".ljust(16, b"\x00") + b"Jan  1 2026".ljust(16, b"\x00")
    d += b"v5.4".ljust(32, b"\x00") + b"\x00" * 32
    return d.ljust(256, b"\x00")


def merged_image(chip_id: int = ESP32, app_payload: bytes = b"") -> bytes:
    """A merged binary that starts at 0x1000: bootloader, partition table, application."""
    boot = esp_image(chip_id, 0x40080400, [(0x3FFF0030, b"\x11" * 64), (0x40078000, b"\x22" * 128)])
    payload = app_payload or bytes(range(256)) * 8
    app = esp_image(chip_id, 0x400D1000, [(0x3F400020, app_desc() + payload), (0x400D0020, b"\x33" * 512)])
    image = bytearray(b"\xff" * (APP_AT - BOOTLOADER_AT + len(app)))
    image[0 : len(boot)] = boot
    pt = partition_table()
    image[PARTITIONS_AT - BOOTLOADER_AT : PARTITIONS_AT - BOOTLOADER_AT + len(pt)] = pt
    image[APP_AT - BOOTLOADER_AT :] = app
    return bytes(image)


def app_byte_offset() -> int:
    """A file offset inside the application's first segment data (to damage it)."""
    return APP_AT - BOOTLOADER_AT + 24 + 8 + 300
