"""What a real table throws at the board, on the simulated board end to end: a Ctrl-C on the
line (noise, or a person), a second program on the port, chips whose ADCs read differently, a
card lying on the reader while the host asks for raw levels, and the board's CPU clock."""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial
from harness import Host, truth
from rich.console import Console
from upref.board.codes import CodeTable
from upref.commands import demo, doctor
from upref.link.connection import Link
from upref.link.protocol import Heartbeat
from upref.referee.inputs import StartGame
from upref.registry import find_game, titles
from upref.sim.board import SimBoard, SimSettings
from upref.store.gamelog import GameLog
from upref.store.tags import TagBook
from upref.table import Table

UPDOWN = find_game("updown")
SCAN_MS = 10  # firmware/app.py: one scan every 10 ms


def stray_ctrl_c(board: SimBoard, data: bytes = b"\x03") -> None:
    """Bytes on the line to the board from outside the link (line noise, a person at a serial
    monitor): through a second handle on the port, without taking its lock."""
    with serial.serial_for_url(board.port, baudrate=115200, timeout=0.2) as s:
        s.write(data)
        s.flush()


def play_demo(board: SimBoard, folder: Path, interrupt_at: int | None = None) -> tuple[object, list[str], float | None]:
    """Up And Down's scripted demo game on `board`; with `interrupt_at`, a Ctrl-C reaches the
    board after that step. Returns the outcome, the table's public verdicts, and how long the
    board took to be back (seconds from the Ctrl-C to the link's Recovered notice)."""
    demo_ = UPDOWN.demo
    assert demo_ is not None
    codes = CodeTable.load()
    tag_book = TagBook(folder / "tags.sqlite")
    uid_of = demo.enrol_all(UPDOWN, tag_book)
    referee = UPDOWN.referee(codes, tag_book, titles=titles(), **demo_.settings)
    variant = demo_.variant(argparse.Namespace(short=2))
    referee.attach(GameLog.create(folder / "games.sqlite", game=UPDOWN.name, players=demo_.players,
                                  variant=variant.to_dict(), seed=demo_.seed, config=referee.config()))
    verdicts: list[str] = []
    notices: list[str] = []
    recovered_after: float | None = None
    with Link(board.port) as link:
        table = Table(link, referee, codes, on_notice=notices.append,
                      on_reply=lambda _i, r: verdicts.extend(v.text for v in r.public))
        table.wait_for_picture()
        table.send(StartGame(demo_.players, variant, demo_.seed, table.clock()))
        for step, (_what, pause) in enumerate(demo_.script(board, table, uid_of)):
            table.pump(pause)
            if step == interrupt_at:
                t0 = time.monotonic()
                stray_ctrl_c(board)
                end = t0 + 10
                while not notices and time.monotonic() < end:
                    table.pump(0.05)
                assert notices == [
                    "the board had stopped at its prompt (a Ctrl-C reached it); restarted it"], notices
                recovered_after = time.monotonic() - t0
                table.pump(0.5)  # the snapshot after the restart
        table.pump(1.0)
        table.close()
    view = referee.view(None)
    assert view is not None and view.outcome is not None, verdicts[-5:]
    return view.outcome, verdicts, recovered_after


@pytest.fixture(scope="module")
def clean_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[object, list[str]]]:
    tmp = tmp_path_factory.mktemp("clean")
    saved = os.environ.get("UPREF_RUNTIME_DIR")
    os.environ["UPREF_RUNTIME_DIR"] = str(tmp / "run")
    try:
        with SimBoard(SimSettings(seed=UPDOWN.demo.seed, name="clean", flash_dir=tmp / "flash")) as board:  # type: ignore[union-attr]
            outcome, verdicts, _ = play_demo(board, tmp)
    finally:
        if saved is None:
            os.environ.pop("UPREF_RUNTIME_DIR", None)
        else:
            os.environ["UPREF_RUNTIME_DIR"] = saved
    yield outcome, verdicts


@pytest.mark.parametrize("backend", ["cpython", "micropython"])
def test_a_ctrl_c_on_the_line_is_recovered_within_3_s_and_the_game_ends_as_a_clean_one(
    make_board, tmp_path: Path, clean_game: tuple[object, list[str]], backend: str
) -> None:
    board = make_board(backend=backend, seed=UPDOWN.demo.seed)  # type: ignore[union-attr]
    outcome, verdicts, took = play_demo(board, tmp_path, interrupt_at=6)
    assert took is not None and took <= 3.0, took
    assert board.state()["resets"] == 1  # one soft reset, the link's
    want_outcome, want_verdicts = clean_game
    assert outcome == want_outcome
    assert verdicts == want_verdicts


def test_a_ctrl_c_inside_a_command_is_line_noise_and_the_board_keeps_running(make_board, make_host) -> None:
    board = make_board(seed=3)
    host = make_host(board.port)
    board.wait_for(lambda st: st["kbd_intr"] == -1)  # the firmware reads Ctrl-C itself
    hb0 = host.link.heartbeat
    # `@0007 ECHO hi` with one bit flipped: 'C' became 0x03 inside the line
    stray_ctrl_c(board, b"@0007 E\x03HO hi*1234\r\n")
    assert host.link.echo("still there") == "still there"
    host.pump(lambda: host.link.heartbeat is not None and host.link.heartbeat is not hb0
              and host.link.heartbeat.bad >= 1, 3)
    st = board.state()
    assert st["face"] == "firmware" and st["resets"] == 0
    assert host.link.counters.recoveries == 0


def test_a_second_program_on_the_port_is_refused_naming_the_first(make_board, make_host) -> None:
    board = make_board(seed=4)
    make_host(board.port)  # this test's link holds the port
    res = subprocess.run([sys.executable, "-m", "upref", "watch", "--port", board.port],
                         capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert res.returncode == 1, res.stderr
    line = res.stderr.strip()
    assert line.startswith(f"upref watch: the board's port is in use by another program (pid {os.getpid()}: "), line
    assert len(line.splitlines()) == 1 and "Traceback" not in res.stderr


@pytest.mark.parametrize("vref", [1000, 1200])
def test_chips_at_both_ends_of_the_reference_range_calibrate(make_board, vref: int) -> None:
    board = make_board(seed=6, empty=True, calibrated=False, adc_vref_mv=vref)
    zeros = board.world.offset  # what this chip reads of its sensors at rest: read_u16 is raw
    if vref == 1200:
        assert max(zeros) < 28_700 and min(zeros) < 32768 - 6000  # beyond the old window
    else:
        assert min(zeros) > 31_500
    buf = io.StringIO()
    out = Console(file=buf, width=200, color_system=None)
    assert doctor.main(["--port", board.port, "--calibrate"], console=out) == 0, buf.getvalue()
    assert "calibration OK" in buf.getvalue()
    # a pair left in a hole is refused on either chip, naming the hole
    pid = sorted(board.world.pairs)[0]
    board.insert(7, pid, board.world.pairs[pid].colours[0])
    board.wait_for(lambda st: st["holes"][6]["pair"] == pid)
    time.sleep(0.1)  # the magnets' ramps (20 ms at most) are long over
    buf = io.StringIO()
    out = Console(file=buf, width=200, color_system=None)
    assert doctor.main(["--port", board.port, "--calibrate"], console=out) == 1
    assert "remove the pair from hole 7" in buf.getvalue(), buf.getvalue()


def _heartbeats(host: Host, count: int, timeout: float = 20.0) -> list[Heartbeat]:
    """The next `count` heartbeats, every other item applied to the host's model meanwhile."""
    start = len(host.items)

    def got() -> list[Heartbeat]:
        return [i for i in host.items[start:] if isinstance(i, Heartbeat)]

    host.pump(lambda: len(got()) >= count, timeout)
    return got()


ROUNDS = 8


@pytest.mark.parametrize("backend", ["cpython", "micropython"])
def test_no_scan_is_later_than_one_period_with_a_card_present(make_board, make_host, backend: str) -> None:
    """The cost-modelled board (every ADC read, SPI transaction, the MFRC522's timer and the
    UART's FIFO take the chip's time): a card lies on the reader, so every read goes through
    anticollision, SELECT and HLTA; the host asks for RAW dumps (ten frames each) while pairs
    are pulled and put back. Each heartbeat reports the worst lateness of a scan in its second.
    (The card's arrival is not in them: an arriving card is read on until the next scan is due,
    which may take that one pass past its period, firmware/app.py _RFID_ARRIVAL_US.)"""
    board = make_board(backend=backend, seed=8)
    host = make_host(board.port)
    assert board.state()["chip"]["cost_model"]
    board.tap("04A1B2C3D4E5F6")
    host.pump(lambda: host.model.card == "04A1B2C3D4E5F6", 5)
    assert len(_heartbeats(host, 1)) == 1  # the second the card arrived in
    # (a machine busy enough to hold the simulated board up for a quarter of a second makes the
    # chip's clock jump, which the board would count as lateness: such a round is measured again,
    # up to ROUNDS times, as many as a machine under a heavy load of other work needs)
    for _round in range(ROUNDS):
        jumps = board.state()["chip"]["clock_jumps"]
        for hole in (2, 5, 9):
            board.flip(hole)
            assert host.link.command("RAW").command == "RAW"
        hbs = _heartbeats(host, 4)
        assert len(hbs) == 4
        if board.state()["chip"]["clock_jumps"] == jumps:
            break
    else:
        raise AssertionError("the machine held the simulated board up in every round")
    for hb in hbs:
        assert hb.late_ms is not None and hb.late_ms <= SCAN_MS, hb
        assert hb.tmax_us is not None and hb.tmax_us <= SCAN_MS * 1000, hb
        assert hb.odrop == 0 and hb.sps >= 95, hb
    assert host.codes() == truth(board)


def test_the_firmware_runs_the_cpu_at_240_mhz(make_board, make_host) -> None:
    board = make_board(seed=9)
    make_host(board.port)
    assert board.state()["cpu_hz"] == 240_000_000  # boot.py; ESP32_GENERIC starts at 160
