"""`upref tags write GAME` through the simulated board (unchanged firmware, its reader's model
with NTAG213 memory, a real Link): a blank sticker is written and read back, a sticker that
names another piece is not overwritten, a locked one is named as locked, and a sticker of the
simulated deck that already names its piece is skipped."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from upref.board.simtags import sim_deck, sim_uid
from upref.commands import tags
from upref.sim.firmware_process import encode_record

BLANK = "04112233445566"
LOCKED = "04223344556677"
OTHER_BLANK = "04334455667788"


def wait(cond: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)


def test_a_deck_is_written_on_the_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from upref.sim.board import SimBoard, SimSettings

    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(tmp_path / "run"))
    out, err = io.StringIO(), io.StringIO()
    result: list[int] = []
    t30 = sim_uid("updown", "T30")
    with SimBoard(SimSettings(seed=5, name="tagswrite", flash_dir=tmp_path / "flash")) as board:
        board.carry({uid: m for uid, m in sim_deck({"updown": (("T30", ""),)}).items()})
        # static lock bytes: pages 3 to 15 read-only (page 2, bytes 2 and 3)
        board.hands.send([encode_record("KW", LOCKED, 2, "0048F8FF")])

        def session() -> None:
            result.append(tags.main(["write", "updown", "--from", "T28", "--port", board.port], out=out, err=err))

        worker = threading.Thread(target=session, daemon=True)
        worker.start()

        def said(text: str, n: int = 1) -> Callable[[], bool]:
            return lambda: out.getvalue().count(text) >= n or bool(result)

        def tap(uid: str, then: str, n: int = 1) -> None:
            board.tap(uid)
            wait(said(then, n))
            assert not result, err.getvalue() + out.getvalue()
            board.remove(uid)

        wait(said("Tap T28"))
        tap(BLANK, f"T28: upref:updown/T28 written on sticker {BLANK} and read back.")
        wait(said("Tap T29"))
        tap(BLANK, f"sticker {BLANK} already holds upref:updown/T28: not overwritten")
        wait(said("Tap T29", 2))
        tap(LOCKED, f"sticker {LOCKED} was not written: the sticker is locked: page 4 refused the write")
        wait(said("Tap T29", 3))
        tap(OTHER_BLANK, "T29: upref:updown/T29 written")
        wait(said("Tap T30"))
        tap(t30, f"T30: sticker {t30} already holds upref:updown/T30; skipped.")
        wait(lambda: bool(result))
    assert result == [0], err.getvalue()
    text = out.getvalue()
    assert "Done: 2 written, 1 already right." in text
