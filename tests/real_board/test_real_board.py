"""Checks on a real board, run only when BOARD_PORT names one (e.g. BOARD_PORT=/dev/ttyUSB0
make test); everything else is proven on the simulated board. Read-only: nothing here writes
the board's flash or changes its calibration."""

from __future__ import annotations

import os

import pytest
from upref.board.codes import CodeTable
from upref.board.model import BoardModel
from upref.link.connection import Link
from upref.link.protocol import PROTO_VERSION, Ok

PORT = os.environ.get("BOARD_PORT")
pytestmark = pytest.mark.skipif(not PORT, reason="no board: set BOARD_PORT to a real board's port to run these")


@pytest.fixture(scope="module")
def link():
    assert PORT is not None
    with Link(PORT) as lk:
        yield lk


def test_the_board_answers_the_handshake_with_our_protocol(link: Link) -> None:
    assert link.hello is not None
    assert link.hello.proto == PROTO_VERSION and link.hello.holes == 10
    assert link.hello.rfid is not None, "the MFRC522 does not answer: check its wiring (upref doctor)"


def test_the_snapshot_holds_only_valid_codes_and_no_faults(link: Link) -> None:
    assert link.snapshot is not None
    model = BoardModel(CodeTable.load())
    model.apply(link.snapshot)
    bad = {h: s.code for h, s in model.holes.items() if not s.valid}
    assert not bad, f"holes reading invalid codes: {bad} (reseat those pairs, or run upref doctor --selftest)"
    assert not model.faults, f"board faults: {sorted(model.faults)}"


def test_a_loopback_echo_comes_back_intact(link: Link) -> None:
    reply = link.echo("upref-real-board-check")
    assert reply == "upref-real-board-check"


def test_raw_levels_of_every_sensor_are_inside_the_rails(link: Link) -> None:
    reply = link.command("RAW", timeout=3.0)
    assert isinstance(reply, Ok)
    assert set(link.raw) == set(range(1, 11))
    for hole, raw in link.raw.items():
        for pos, level in enumerate(raw.levels, start=1):
            assert 1500 < level < 64000, f"hole {hole} sensor P{pos} reads {level}: check its wiring"
