"""MicroPython's `os` and `open` as code typed at the simulated board's REPL (or sent by
mpremote) sees them when the board runs under CPython: the board's flash folder is `/`.

`board_builtins(root)` gives the builtins for the REPL's globals: `open` resolves board paths
(absolute ones too) inside the flash folder, and `import os` (or `uos`) gives a module with
MicroPython's functions and shapes: `ilistdir` yielding (name, type, inode, size), `stat` as a
10-tuple of ints, `statvfs`, `mkdir`, `rmdir`, `remove`, `rename`, `chdir`, `getcwd`,
`listdir`, `uname`, `urandom`, `sync`, `dupterm`, `sep`. Errors are `OSError(errno, "ENOENT")`,
which runtime.format_exception prints as MicroPython does: `OSError: [Errno 2] ENOENT`.
Nothing reaches outside the folder: `..` stops at its root, symlinks out of it are refused.
"""

from __future__ import annotations

import builtins
import errno
import os as _os
import stat as _stat
import types
from collections.abc import Iterator
from typing import Any

S_IFDIR = 0x4000
S_IFREG = 0x8000


def _error(code: int) -> OSError:
    return OSError(code, errno.errorcode.get(code, str(code)))


class BoardFS:
    """Board paths onto a host folder, with a current directory of the board's own."""

    def __init__(self, root: str | _os.PathLike[str]) -> None:
        self.root = _os.path.realpath(_os.fspath(root))
        self.cwd = "/"

    def board_path(self, path: object) -> str:
        if isinstance(path, bytes):
            path = path.decode()
        if not isinstance(path, str):
            raise TypeError("can't convert to str implicitly")
        full = path if path.startswith("/") else self.cwd.rstrip("/") + "/" + path
        parts: list[str] = []
        for seg in full.split("/"):
            if seg in ("", "."):
                continue
            if seg == "..":
                if parts:
                    parts.pop()
                continue
            parts.append(seg)
        return "/" + "/".join(parts)

    def host(self, path: object) -> str:
        host = _os.path.join(self.root, *self.board_path(path).split("/")[1:])
        real = _os.path.realpath(host)
        if real != self.root and not real.startswith(self.root + _os.sep):
            raise _error(errno.EACCES)
        return host

    def _call(self, fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except OSError as e:
            raise _error(e.errno or errno.EIO) from None

    # ---- the os module's functions -----------------------------------------------------------

    def ilistdir(self, path: object = "") -> Iterator[tuple[str, int, int, int]]:
        host = self.host(path or ".")
        names = sorted(self._call(_os.listdir, host))

        def gen() -> Iterator[tuple[str, int, int, int]]:
            for name in names:
                try:
                    st = _os.stat(_os.path.join(host, name))
                except OSError:
                    continue
                kind = S_IFDIR if _stat.S_ISDIR(st.st_mode) else S_IFREG
                yield (name, kind, 0, 0 if kind == S_IFDIR else st.st_size)

        return gen()

    def listdir(self, path: object = "") -> list[str]:
        return [t[0] for t in self.ilistdir(path)]

    def stat(self, path: object) -> tuple[int, ...]:
        st = self._call(_os.stat, self.host(path))
        mode = S_IFDIR if _stat.S_ISDIR(st.st_mode) else S_IFREG
        t = int(st.st_mtime)
        return (mode, 0, 0, 0, 0, 0, 0 if mode == S_IFDIR else st.st_size, t, t, t)

    def statvfs(self, path: object = "/") -> tuple[int, ...]:
        self.stat(path)
        # a 2 MB littlefs partition with 4 KB blocks, as on ESP32_GENERIC
        used = 0
        for dirpath, _dirs, files in _os.walk(self.root):
            for f in files:
                try:
                    used += -(-_os.path.getsize(_os.path.join(dirpath, f)) // 4096)
                except OSError:
                    pass
        free = max(0, 512 - used)
        return (4096, 4096, 512, free, free, 0, 0, 0, 0, 255)

    def mkdir(self, path: object) -> None:
        self._call(_os.mkdir, self.host(path))

    def rmdir(self, path: object) -> None:
        self._call(_os.rmdir, self.host(path))

    def remove(self, path: object) -> None:
        host = self.host(path)
        if _os.path.isdir(host):
            raise _error(errno.EISDIR)
        self._call(_os.remove, host)

    unlink = remove

    def rename(self, old: object, new: object) -> None:
        self._call(_os.replace, self.host(old), self.host(new))

    def chdir(self, path: object) -> None:
        target = self.board_path(path)
        if not _os.path.isdir(self.host(target)):
            raise _error(errno.ENOENT)
        self.cwd = target

    def getcwd(self) -> str:
        return self.cwd

    def open(self, file: object, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, int):
            return builtins.open(file, mode, *args, **kwargs)
        return builtins.open(self.host(file), mode, *args, **kwargs)

    def module(self) -> types.ModuleType:
        m = types.ModuleType("os")
        calls = {"ilistdir": self.ilistdir, "listdir": self.listdir, "stat": self.stat,
                 "statvfs": self.statvfs, "mkdir": self.mkdir, "rmdir": self.rmdir,
                 "remove": self.remove, "unlink": self.unlink, "rename": self.rename,
                 "chdir": self.chdir, "getcwd": self.getcwd}
        m.__dict__.update(calls)
        m.sep = "/"  # type: ignore[attr-defined]
        m.uname = _uname  # type: ignore[attr-defined]
        m.urandom = _os.urandom  # type: ignore[attr-defined]
        m.sync = lambda: None  # type: ignore[attr-defined]
        m.dupterm = lambda *a: None  # type: ignore[attr-defined]
        return m


def _uname() -> tuple[str, ...]:
    return ("esp32", "esp32", "1.29.0", "v1.29.0 on 2026-08-29", "Generic ESP32 module with ESP32")


def board_builtins(root: str | _os.PathLike[str]) -> dict[str, Any]:
    """The builtins for code run at the board's REPL: `open` and `import os` see the flash."""
    fs = BoardFS(root)
    os_module = fs.module()
    real_import = builtins.__import__

    def board_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        if level == 0 and name in ("os", "uos"):
            return os_module
        return real_import(name, globals, locals, fromlist, level)

    b = dict(builtins.__dict__)
    b["__import__"] = board_import
    b["open"] = fs.open
    return b
