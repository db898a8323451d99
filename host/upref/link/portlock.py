"""Who has the board's port: the lock a program holds on it, and the mark a deploy holds on it.

A program talks to the board only while it holds the port alone. The link opens it with
pyserial's `exclusive=True`, which on POSIX is an advisory `flock` on the open device (a pty
included); mpremote, which `make deploy` runs, opens it the same way. So a second program that
opens the port is refused, and `holder` finds who holds it from `/proc/locks` (the process's pid
and command line), to say so in one line.

`make deploy` runs mpremote several times in a row and the port is free for a moment between
two runs; the board sits at its prompt meanwhile, on purpose. So a deploy also holds a *deploy
mark* for the port for its whole run (`mark`): a file in the runtime folder, flocked while the
deploy lives, naming it and its pid. A link that finds the mark held does not open the port,
and would not restart a board at its prompt (`Link` recovers a board it finds at its prompt only
when no mark is held). A mark whose process is gone is stale and ignored.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from upref import paths

__all__ = ["Holder", "describe_pid", "holder", "lock_holder", "mark", "mark_holder", "mark_path"]


@dataclass(frozen=True)
class Holder:
    """A program that has the port: its pid (None if unknown) and what it is."""

    pid: int | None
    what: str

    def text(self) -> str:
        if self.pid is None:
            return self.what
        return f"pid {self.pid}: {self.what}" if self.what else f"pid {self.pid}"


def _device(port: str) -> str | None:
    """The device node behind a port path (following the simulator's symlink), or None for a
    URL (socket://, rfc2217://, loop://)."""
    if "://" in port or not os.path.isabs(port):
        return None
    return os.path.realpath(port)


def describe_pid(pid: int) -> str:
    """What a process is, from its command line: `mpremote`, `upref watch`, `python3 foo.py`."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    args = [a.decode(errors="replace") for a in raw.split(b"\0") if a]
    if not args:
        return ""
    words: list[str] = []
    rest = args
    if re.match(r"python[0-9.]*$", os.path.basename(args[0])):
        rest = args[1:]
        if rest[:1] == ["-m"] and len(rest) > 1:
            words.append(rest[1].split(".")[0] if rest[1].startswith("upref.") else rest[1])
            rest = rest[2:]
    if not words:
        while rest and rest[0].startswith("-"):
            rest = rest[1:]
        if not rest:
            return os.path.basename(args[0])
        words.append(os.path.basename(rest[0]))
        rest = rest[1:]
    if rest and re.match(r"[a-z][a-z-]*$", rest[0]):
        words.append(rest[0])  # a subcommand: `upref watch`, `mpremote repl`
    return " ".join(words)


def lock_holder(port: str) -> Holder | None:
    """The process holding an flock on the port's device (from /proc/locks), or None."""
    dev = _device(port)
    if dev is None:
        return None
    try:
        st = os.stat(dev)
        locks = Path("/proc/locks").read_text()
    except OSError:
        return None
    want = (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    for line in locks.splitlines():
        parts = line.split()
        if len(parts) < 6 or parts[1] == "->" or parts[1] != "FLOCK":
            continue
        try:
            pid = int(parts[4])
            maj, mnr, ino = parts[5].split(":")
            where = (int(maj, 16), int(mnr, 16), int(ino))
        except ValueError:
            continue
        if where == want and pid != os.getpid():
            return Holder(pid, describe_pid(pid))
    return None


def mark_path(port: str) -> Path:
    """The deploy mark's file for a port, in the runtime folder."""
    dev = _device(port) or port
    key = re.sub(r"[^A-Za-z0-9]+", "-", dev).strip("-") or "port"
    return paths.runtime_dir() / f"port-{key}.deploy"


def mark_holder(port: str) -> Holder | None:
    """The live program that holds the port's deploy mark (`make deploy`), or None."""
    path = mark_path(port)
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            pass  # held: the mark is live
        else:
            return None  # nobody holds it: a mark left by a process that is gone
        try:
            data = json.loads(os.read(fd, 4096) or b"{}")
        except ValueError:
            data = {}
        pid = data.get("pid") if isinstance(data.get("pid"), int) else None
        if pid == os.getpid():
            return None  # this process's own deploy: its handshake may open the port
        return Holder(pid, str(data.get("what") or "another program"))
    finally:
        os.close(fd)


def holder(port: str) -> Holder | None:
    """Whoever has the port now: a program holding its lock, else a live deploy mark."""
    return lock_holder(port) or mark_holder(port)


@contextlib.contextmanager
def mark(port: str, what: str) -> Iterator[Path]:
    """Hold the port's deploy mark while the block runs (`make deploy`): links leave the port
    and a board at its prompt alone meanwhile."""
    path = mark_path(port)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps({"pid": os.getpid(), "what": what, "port": port}).encode())
        yield path
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
        os.close(fd)
