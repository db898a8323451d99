"""What answers on the simulated board's port besides the firmware: the ESP32's ROM and
MicroPython's REPL, as far as they live in the board process.

  * the firmware's own faces run in the firmware process (runtime.py): `firmware` (main.py),
    `repl` (the friendly REPL), `raw` (the raw REPL and raw-paste mode, rawrepl.py) and `run`
    (a line or an exec running); the board only turns their LF into CR LF (`Cooker`);
  * `halted`: the firmware process died by itself; `HaltedRepl` shows a prompt that only
    reboots;
  * `download` and `no-firmware`: the ROM bootloader (`RomFace`): download mode answers esptool
    (rom.py), an erased flash prints `invalid header` and waits;
  * the ROM's boot text before every hard start (`rom_banner`), and the reset causes it names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from upref.sim import rom

# machine.reset_cause() values
PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5
CAUSE_NAMES = {PWRON_RESET: "power", HARD_RESET: "hard", WDT_RESET: "wdt",
               DEEPSLEEP_RESET: "deepsleep", SOFT_RESET: "soft"}
# what the ESP32 ROM prints as rst: for each
ROM_RST = {PWRON_RESET: "0x1 (POWERON_RESET)", HARD_RESET: "0xc (SW_CPU_RESET)",
           WDT_RESET: "0xc (SW_CPU_RESET)", DEEPSLEEP_RESET: "0x5 (DEEPSLEEP_RESET)"}

BANNER = (b"MicroPython v1.29.0 on 2026-08-29; Generic ESP32 module with ESP32\r\n"
          b'Type "help()" for more information.\r\n')
SOFT_REBOOT = b"MPY: soft reboot\r\n"
COOKED_FACES = ("repl", "raw", "run", "halted")  # MicroPython's REPL prints LF as CR LF
PROMPT_FACES = ("repl", "raw")  # a REPL waits for a line: Ctrl-C is a key there


def rom_banner(cause: int) -> bytes:
    """What the ESP32's ROM bootloader prints at 115200 baud when the chip starts."""
    return (
        "ets Jul 29 2019 12:21:46\r\n\r\n"
        f"rst:{ROM_RST.get(cause, '0x1 (POWERON_RESET)')},boot:0x13 (SPI_FAST_FLASH_BOOT)\r\n"
        "configsip: 0, SPIWP:0xee\r\n"
        "clk_drv:0x00,q_drv:0x00,d_drv:0x00,cs0_drv:0x00,hd_drv:0x00,wp_drv:0x00\r\n"
        "mode:DIO, clock div:2\r\n"
        "load:0x3fff0030,len:4728\r\n"
        "load:0x40078000,len:14888\r\n"
        "load:0x40080400,len:3368\r\n"
        "entry 0x400805cc\r\n"
    ).encode()


def watchdog_text(uptime_ms: int) -> bytes:
    """What the ESP-IDF prints when its task watchdog fires, before the chip resets."""
    return (
        f"E ({uptime_ms}) task_wdt: Task watchdog got triggered. The following tasks did not "
        f"reset the watchdog in time:\r\nE ({uptime_ms}) task_wdt:  - mp_task (CPU 0)\r\n"
        "Rebooting...\r\n"
    ).encode()


class Cooker:
    """LF -> CR LF, as MicroPython's REPL prints text (CR LF stays as it is)."""

    def __init__(self) -> None:
        self.last_was_cr = False

    def reset(self) -> None:
        self.last_was_cr = False

    def __call__(self, data: bytes) -> bytes:
        out = bytearray()
        for b in data:
            if b == 0x0A and not self.last_was_cr:
                out += b"\r"
            out.append(b)
            self.last_was_cr = b == 0x0D
        return bytes(out)


class HaltedRepl:
    """A minimal REPL after the firmware process died by itself: it echoes, and Ctrl-D on an
    empty line reboots."""

    def __init__(self) -> None:
        self.line = bytearray()

    @staticmethod
    def greeting(last_words: str) -> bytes:
        """The dead firmware's last words, the banner and a prompt."""
        return b"\r\n" + last_words.encode(errors="replace") + b"\r\n" + BANNER + b">>> "

    def feed(self, data: bytes) -> tuple[bytes, bool]:
        """The host's bytes -> (the echo, whether to soft-reboot now)."""
        out = bytearray()
        for b in data:
            if b == 0x04 and not self.line:
                return bytes(out) + b"\r\n", True
            if b in (0x03, 0x0D):
                self.line.clear()
                out += b"\r\n>>> "
            elif b in (0x08, 0x7F):
                if self.line:
                    self.line.pop()
                    out += b"\x08 \x08"
            elif 0x20 <= b < 0x7F:
                self.line.append(b)
                out.append(b)
        return bytes(out), False


@dataclass(frozen=True)
class RomHooks:
    """How the ROM face acts on the board."""

    to_host: Callable[[bytes], None]
    later: Callable[[float, Callable[[], Any]], None]  # after a delay, unless the chip restarted
    sent_in: Callable[[], float]  # seconds until what the board sent so far has left the line
    set_baud: Callable[[int | None], None]  # the line's speed (None: as configured)
    boot: Callable[[], None]  # leave the ROM: reset and run what the flash holds
    wipe: Callable[[], None]  # the filesystem partition was erased
    log: Callable[[str], None]


class RomFace:
    """The ESP32's ROM bootloader on the port: download mode (rom.Rom answers esptool over
    SLIP), or the complaint of a chip whose flash holds no bootloader."""

    def __init__(self, spi: rom.SpiFlash, mac: bytes, hooks: RomHooks, show_banner: bool) -> None:
        self.spi = spi
        self.rom = rom.Rom(spi, mac)
        self.hooks = hooks
        self.show_banner = show_banner
        self.face = ""  # "download", "no-firmware", or "" while the ROM is not on the port

    def leave(self) -> None:
        self.face = ""

    def enter_download(self, cause: int) -> None:
        """GPIO0 was low at reset: the ROM waits for esptool."""
        self.face = "download"
        self.rom.reset()
        self.spi.close()  # read the file afresh: it may have been changed meanwhile
        self.hooks.to_host(rom.download_banner(ROM_RST.get(cause, "0x1 (POWERON_RESET)")))
        self.hooks.log(f"download mode ({CAUSE_NAMES[cause]} reset, BOOT held)")

    def no_firmware(self, cause: int) -> None:
        """The flash holds no bootloader (erased): the ROM says so, over and over."""
        self.face = "no-firmware"
        word = self.spi.header_word()
        self.hooks.log(f"no bootloader in the flash (header {word:#010x}): nothing to run")
        banner = rom_banner(cause).split(b"configsip")[0] if self.show_banner else b""

        def again() -> None:
            if self.face != "no-firmware":
                return
            self.hooks.to_host(f"invalid header: {word:#010x}\r\n".encode())
            self.hooks.later(1.0, again)

        self.hooks.to_host(banner)
        again()

    def feed(self, data: bytes) -> None:
        """The host's bytes in download mode: esptool's requests, answered; then what they did
        to the chip (its baud rate, a run, a reset by the stub, an erase)."""
        h = self.hooks
        out = self.rom.feed(data)
        if out:
            h.to_host(out)
        actions, self.rom.actions = self.rom.actions, []
        for act in actions:
            kind = act[0]
            if kind == "baud":
                # the answer leaves at the old speed; then both ends talk at the new one
                new = int(act[1])  # type: ignore[call-overload]
                h.later(h.sent_in(), lambda n=new: h.set_baud(n))
                h.log(f"download mode: baud rate {new}")
            elif kind == "run":
                h.log("download mode: the ROM runs the firmware in flash")
                h.later(h.sent_in() + 0.01, h.boot)
            elif kind == "rom":
                h.log("download mode: the flasher stub reset the chip into the ROM")
                h.to_host(rom.download_banner("0xc (SW_CPU_RESET)"))
                # the ROM detects the host's speed again from the next SYNC
                h.later(h.sent_in(), lambda: h.set_baud(None))
            elif kind == "erased":
                start, end = int(act[1]), int(act[2])  # type: ignore[call-overload]
                h.log(f"download mode: erased {start:#x}..{end:#x}")
                if end > rom.FS_START:
                    h.wipe()

    def stats(self) -> dict[str, Any]:
        """The ROM's part of the board's state."""
        return {"stub": self.rom.stub, "commands": self.rom.commands, "unknown": self.rom.unknown,
                "spi_flash": str(self.spi.path)}
