"""A new SQLite file that appears whole or not at all: the game log and the tag book are made in a
temporary file in the same folder and linked into place once complete, so that a full disk, a
refused write or a process killed half-way never leaves an empty or half-made file behind (one
that a later command would refuse as "not an upref file").
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path

__all__ = ["made_whole"]

_SIDE_FILES = ("", "-journal", "-wal", "-shm")


@contextlib.contextmanager
def made_whole(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection (autocommit) to a new, empty database in a temporary file beside `path`:
    what the block writes is put in place as `path` once the block ends and the connection is
    closed. Whatever goes wrong, nothing is left behind but what was there before.

    :raises FileExistsError: when `path` appeared meanwhile (another process made it first):
        it is kept as it is and this one is dropped.
    :raises OSError, sqlite3.Error: a full disk, a folder that cannot be written.
    """
    tmp = _new_file(path)
    conn: sqlite3.Connection | None = None
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        yield conn
        conn.close()
        conn = None
        _put_in_place(tmp, path)
    finally:
        if conn is not None:
            conn.close()
        for side in _SIDE_FILES:
            with contextlib.suppress(OSError):
                tmp.with_name(tmp.name + side).unlink()


def _new_file(path: Path) -> Path:
    """An empty file of a name of its own beside `path`, with the permissions SQLite would
    give `path` itself (0666 less the umask).

    :raises OSError: when the folder cannot be written.
    """
    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.new")
        try:
            os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        except FileExistsError:
            continue
        return tmp
    raise FileExistsError(errno.EEXIST, "no free name for a new file", str(path.parent))


def _put_in_place(tmp: Path, path: Path) -> None:
    """Link `tmp` as `path`, never over a file that is there (a rename would replace it).

    :raises FileExistsError: when `path` exists.
    """
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
            raise
        # a file system without hard links (FAT on a stick): rename, after a last look
        if path.exists():
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
        os.replace(tmp, path)
