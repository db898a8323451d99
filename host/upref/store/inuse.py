"""Which game logs are being played now: a lock the playing process holds on each.

`upref play` holds, for the game it plays, an OS file lock (`flock`) on a small file of the
runtime folder named for the database and the game's number. The lock lives exactly as long as
the process: it is let go when the game closes, and the kernel lets it go when the process dies
(a crash, `kill -9`), so a log is never left marked by a program that is gone. Another process
that finds the lock held knows the game is being played elsewhere: it does not offer it for
resume, and refuses to close or forget it.

The lock file names nothing secret (the database's path is hashed) and is left in place: an
unlocked file means nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from pathlib import Path

from upref import paths

__all__ = ["PlayLock", "held_elsewhere", "lock_path"]


def lock_path(db: Path | str, game_id: int) -> Path:
    """The lock file of one game of a database, in the runtime folder."""
    key = hashlib.sha256(str(Path(db).resolve()).encode()).hexdigest()[:16]
    return paths.runtime_dir() / f"log-{key}-{int(game_id)}.lock"


class PlayLock:
    """The lock of a game being played in this process; `release` (or the process's end) lets
    it go."""

    def __init__(self, fd: int | None, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path

    @classmethod
    def take(cls, db: Path | str, game_id: int) -> PlayLock | None:
        """Hold the game's lock; None when another process holds it (the game is being played
        there). When the runtime folder cannot be written, the lock holds nothing (the game is
        played, unmarked)."""
        path = lock_path(db, game_id)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return cls(None, path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        return cls(fd, path)

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


def held_elsewhere(db: Path | str, game_id: int) -> bool:
    """Whether another process (or another lock of this one) holds the game's lock."""
    try:
        fd = os.open(lock_path(db, game_id), os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # closing lets go of the shared lock taken to look
    return False
