"""The tag book on a disk that is full, or given a tag list it refuses (issue 32): `upref enroll`
says so in one line and leaves no empty or half-made `tags.sqlite` behind, and a tag book that
was there stays exactly as it was.

The disk fills by `RLIMIT_FSIZE` on the command's own process (SIGXFSZ ignored, so a write past
the limit fails with EFBIG as the file system refuses it; SQLite says "disk I/O error"), which
needs no root.
"""

from __future__ import annotations

import io
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from upref.commands import enroll
from upref.store.tags import TagBook


def _enroll(data: Path, *argv: str, limit: int | None = None) -> subprocess.CompletedProcess[str]:
    def limited() -> None:
        if limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "upref", "enroll", *argv],
        capture_output=True, text=True, timeout=120, check=False, preexec_fn=limited,
        env=dict(os.environ, UPREF_DATA_DIR=str(data)),
    )


def _files(folder: Path) -> dict[str, bytes]:
    """Every file of the folder (temporary ones included) with its bytes."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _one_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_enrolling_the_simulated_deck_on_a_full_disk_leaves_no_file(tmp_path: Path) -> None:
    done = _enroll(tmp_path, "updown", "--simulated", limit=4096)  # not one page more
    assert done.returncode == 1, done.stdout + done.stderr
    line = _one_line(done.stderr)
    assert line.startswith(f"upref enroll: cannot change the tag book {tmp_path / 'tags.sqlite'} (")
    assert "nothing was changed" in line and "free some space" in line
    assert _files(tmp_path) == {}
    # with room, the same command works: nothing left behind stood in its way
    done = _enroll(tmp_path, "updown", "--simulated")
    assert done.returncode == 0, done.stderr
    assert len(TagBook(tmp_path / "tags.sqlite", read_only=True).items("updown")) == 30


def test_a_deck_the_full_disk_refuses_leaves_the_tag_book_as_it_was(tmp_path: Path) -> None:
    assert _enroll(tmp_path, "updown", "--simulated").returncode == 0
    before = _files(tmp_path)
    done = _enroll(tmp_path, "up", "--simulated", limit=len(before["tags.sqlite"]))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "cannot change the tag book" in _one_line(done.stderr)
    assert _files(tmp_path) == before  # not one of Up's tags: the deck is enrolled whole or not


def test_a_refused_tag_list_creates_no_tag_book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UPREF_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "data").mkdir()
    bad = tmp_path / "bad.csv"
    bad.write_text("uid,game,item\nzz,updown,T01\n")
    out, err = io.StringIO(), io.StringIO()
    assert enroll.main(["updown", "--import", str(bad)], out=out, err=err) == 1
    assert "tag list line 2: not a tag UID" in err.getvalue()
    assert _files(tmp_path / "data") == {}


def test_a_tag_list_the_full_disk_refuses_is_not_half_imported(tmp_path: Path) -> None:
    assert _enroll(tmp_path, "updown", "--simulated").returncode == 0
    listed = tmp_path / "list.csv"
    assert _enroll(tmp_path, "updown", "--export", str(listed)).returncode == 0
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    done = _enroll(fresh, "updown", "--import", str(listed), limit=4096)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "cannot change the tag book" in _one_line(done.stderr)
    assert _files(fresh) == {}
