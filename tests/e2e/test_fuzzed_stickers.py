"""Stickers full of random bytes, tapped on the simulated board (unchanged firmware, the reader's
NTAG213 model): every card still arrives and leaves, every TAG the board sends is a sound frame,
the host refuses what names no piece in words, and the firmware never faults."""

from __future__ import annotations

import queue
import random
import time
from pathlib import Path

import pytest
from upref.board.tagrecords import TagsAndRecords
from upref.link.connection import Link
from upref.link.protocol import CardArrived, CardLeft, Fault, TagRecord
from upref.sim.firmware_process import encode_record

STICKERS = 40
CATALOGUES = {"updown": (("T05", "1 shovel"),)}


def _uid(rng: random.Random) -> str:
    while True:
        uid = bytes([0x04]) + bytes(rng.randrange(256) for _ in range(6))
        if uid[3] != 0x88:
            return uid.hex().upper()


def _pages(rng: random.Random, uid: str) -> list[bytes]:
    """Random pages 3 to 39 (the CC mostly an NDEF one, the first TLV mostly an NDEF one)."""
    recs = []
    for page in range(3, 40):
        data = bytes(rng.randrange(256) for _ in range(4))
        if page == 3 and rng.random() < 0.8:
            data = b"\xe1\x10\x12\x00"
        if page == 4 and rng.random() < 0.7:
            data = b"\x03" + data[1:]
        recs.append(encode_record("KW", uid, page, data.hex().upper()))
    return recs


def _wait_for(link: Link, kind: type, uid: str, seen: list[object], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            item = link.events.get(timeout=0.2)
        except queue.Empty:
            continue
        seen.append(item)
        if isinstance(item, kind) and getattr(item, "uid", None) == uid:
            return
    raise AssertionError(f"no {kind.__name__} of {uid} in {timeout} s: {seen[-5:]}")


def test_random_user_pages_never_break_the_board_or_the_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from upref.sim.board import SimBoard, SimSettings

    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(tmp_path / "run"))
    rng = random.Random(3519)
    tags = TagsAndRecords(None, CATALOGUES, "updown")
    seen: list[object] = []
    lines: list[str] = []
    with SimBoard(SimSettings(seed=7, name="fuzz", flash_dir=tmp_path / "flash")) as board:
        link = Link(board.port)
        try:
            for _ in range(STICKERS):
                uid = _uid(rng)
                board.hands.send(_pages(rng, uid))
                board.tap(uid)
                _wait_for(link, CardArrived, uid, seen)
                board.remove(uid)
                _wait_for(link, CardLeft, uid, seen)
            counters = link.counters
        finally:
            link.close()
    for item in seen:
        if isinstance(item, TagRecord):
            lines += tags.learn(item)  # never raises: a line or nothing
    assert counters.args == 0 and counters.shape == 0 and counters.long == 0
    assert not [i for i in seen if isinstance(i, Fault) and i.kind == "exc"]
    records = [i for i in seen if isinstance(i, TagRecord)]
    assert len(records) >= STICKERS // 2  # most carried an NDEF TLV: the board sent what it read
    assert all(0 <= len(r.data) <= min(r.length, 64) for r in records)
    assert lines and all("ignored" in line for line in lines)
