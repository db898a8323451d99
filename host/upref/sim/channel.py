"""The simulated board's control channel, both ends: one command line per line over a Unix
socket, each answered with one line, `ok [details]` or `error <what was wrong and what to do>`
(a newline in the details travels as verbs.ANSWER_NEWLINE).

  * `ControlServer` listens on runtime_dir()/sim-<name>.sock, on the board's loop, and hands
    each line to the board; a client's lines are answered in order, one at a time;
  * `SimControl` is the client: the control verbs as methods (written once in verbs.Verbs, the
    same as SimBoard's), each sending its line;
  * `find_running`/`find_one` find running simulators through their registry files
    runtime_dir()/sim-<name>.json.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import socket
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from upref import paths
from upref.sim.loop import Loop
from upref.sim.verbs import Verbs, one_line, split_answer

Execute = Callable[[str, Callable[[str], None]], None]  # (line, answer) on the loop thread


class SimControlError(RuntimeError):
    """The simulator answered `error ...` (the message is its text), or could not be reached."""


# ---- the board's end ----------------------------------------------------------------------------


class _Client:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buf = b""
        self.queue: collections.deque[str] = collections.deque()
        self.busy = False  # a line of this client is being carried out


class ControlServer:
    """The listening socket and its clients, on the board's loop; `execute(line, answer)`
    carries out a line and calls answer(text) when done (perhaps later: a flip takes time)."""

    def __init__(self, path: str, loop: Loop, execute: Execute) -> None:
        self.path = path
        self.loop = loop
        self.execute = execute
        self._listener: socket.socket | None = None
        self._clients: dict[int, _Client] = {}

    def open(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISSOCK(os.lstat(self.path).st_mode):
                os.unlink(self.path)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(self.path)
        os.chmod(self.path, 0o600)
        s.listen(8)
        s.setblocking(False)
        self._listener = s
        self.loop.watch(s, self._on_accept)

    def close(self) -> None:
        if self._listener is not None:
            self.loop.unwatch(self._listener)
            self._listener.close()
            self._listener = None
        for c in list(self._clients.values()):
            self._close_client(c)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)

    def _on_accept(self, mask: int) -> None:
        assert self._listener is not None
        try:
            conn, _ = self._listener.accept()
        except OSError:
            return
        conn.setblocking(False)
        client = _Client(conn)
        self._clients[id(client)] = client
        self.loop.watch(conn, lambda m, cl=client: self._on_client(cl))

    def _on_client(self, client: _Client) -> None:
        try:
            data = client.sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._close_client(client)
            return
        client.buf += data
        while b"\n" in client.buf:
            line, _, client.buf = client.buf.partition(b"\n")
            client.queue.append(line.decode(errors="replace").strip())
        self._serve(client)

    def _serve(self, client: _Client) -> None:
        while client.queue and not client.busy:
            line = client.queue.popleft()
            if not line:
                continue
            client.busy = True

            def answer(text: str, cl: _Client = client) -> None:
                cl.busy = False
                with contextlib.suppress(OSError):
                    cl.sock.setblocking(True)
                    cl.sock.sendall(one_line(text).encode() + b"\n")
                    cl.sock.setblocking(False)
                self._serve(cl)

            self.execute(line, answer)

    def _close_client(self, client: _Client) -> None:
        self.loop.unwatch(client.sock)
        self._clients.pop(id(client), None)
        with contextlib.suppress(OSError):
            client.sock.close()


# ---- finding running simulators ---------------------------------------------------------------


def registry_path(name: str) -> Path:
    return paths.runtime_dir() / f"sim-{name}.json"


def find_running(name: str | None = None) -> list[dict[str, Any]]:
    """Registry entries of the simulators running now (all, or the one called `name`)."""
    out = []
    pattern = f"sim-{name}.json" if name else "sim-*.json"
    for p in sorted(paths.runtime_dir().glob(pattern)):
        try:
            entry = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(entry, dict) and paths.pid_alive(int(entry.get("pid", 0))):
            out.append(entry)
    return out


def find_one(name: str | None = None) -> dict[str, Any]:
    """The registry entry of the simulator to talk to.

    :raises SimControlError: when none, or (without a name) several, are running.
    """
    found = find_running(name)
    if not found:
        if name:
            raise SimControlError(f"no simulated board named {name!r} is running: start it with `upref sim --name {name}`")
        raise SimControlError("no simulated board is running: start one with `upref sim`")
    if len(found) > 1:
        names = ", ".join(str(e.get("name")) for e in found)
        raise SimControlError(f"several simulated boards are running ({names}): pick one with --sim NAME")
    return found[0]


# ---- the client's end ----------------------------------------------------------------------------


class SimControl(Verbs):
    """Client of a simulator's control socket. The control verbs (pull, insert, ..., state,
    help) are methods written once in `verbs.Verbs`: each sends its command line, returns the
    details of the `ok` answer and raises SimControlError with the text of an `error` answer."""

    def __init__(self, path: str | os.PathLike[str], timeout: float = 15.0) -> None:
        self.path = str(path)
        self.timeout = timeout
        self._sock: socket.socket | None = None
        self._buf = b""

    @classmethod
    def find(cls, name: str | None = None, timeout: float = 15.0) -> SimControl:
        """Connect to the running simulator (the only one, or the one called name)."""
        return cls(find_one(name)["control"], timeout)

    def _connect(self) -> socket.socket:
        if self._sock is None:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(self.timeout)
            try:
                s.connect(self.path)
            except OSError as e:
                s.close()
                raise SimControlError(
                    f"cannot reach the simulator's control socket {self.path}: {e.strerror or e}; "
                    "is `upref sim` running?"
                ) from None
            self._sock = s
        return self._sock

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self) -> SimControl:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def raw(self, line: str) -> str:
        """Send one command line, return the whole answer line (`ok ...` or `error ...`)."""
        s = self._connect()
        try:
            s.sendall(line.strip().encode() + b"\n")
            while b"\n" not in self._buf:
                chunk = s.recv(65536)
                if not chunk:
                    raise SimControlError("the simulator closed the control connection")
                self._buf += chunk
        except OSError as e:
            self.close()
            raise SimControlError(f"control connection failed: {e}") from None
        answer, _, self._buf = self._buf.partition(b"\n")
        return answer.decode(errors="replace")

    def command(self, line: str) -> str:
        """Send one command line; the details of its `ok` answer.

        :raises SimControlError: with the text of an `error` answer.
        """
        return split_answer(self.raw(line), SimControlError)

    def _verb(self, line: str) -> str:
        return self.command(line)
