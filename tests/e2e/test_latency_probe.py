"""The simulated board dates what `make bench` times on the chip's clock (upref/sim/standins/
probe.py): each sensor's change once it is whole, each card laid in the field, and each event
frame as it goes into the UART and as its last byte leaves, named by the frame the host gets."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from harness import Host
from upref.sim.board import SimBoard

UART_BYTES_PER_MS = 11.52  # 115200 baud, 10 bits a byte
DEADLINE_S = 30.0  # a generous wait for the board's reports on a loaded machine


def _report(board: SimBoard, wanted: Callable[[list[str]], bool]) -> list[str] | None:
    """The first of the board's probe reports that `wanted` accepts, once it has come."""
    end = time.monotonic() + DEADLINE_S
    while time.monotonic() < end:
        for words in list(board.probe):
            if wanted(words):
                return words
        time.sleep(0.01)
    return None


def _frame(board: SimBoard, seq: int) -> list[str] | None:
    return _report(board, lambda w: w[0] == "tx" and w[3] == f"@{seq:04X}")


def _leaves_no_sooner_than_the_line_takes(words: list[str]) -> bool:
    frame = " ".join(words[3:])
    return int(words[2]) - int(words[1]) >= (len(frame) + 2) / UART_BYTES_PER_MS * 1000 - 5  # us, the FIFO model's rounding


def test_a_pulled_pair_and_its_hole_frame_are_dated_on_the_chips_clock(
        make_board: Callable[..., SimBoard], make_host: Callable[..., Host]) -> None:
    board = make_board(seed=5)
    host = make_host(board.port)
    board.probe.clear()
    board.pull(3)
    assert host.pump(lambda: any(e.hole == 3 and e.code == 0 for e in host.of_type("HoleChanged")), DEADLINE_S)
    event: Any = next(e for e in host.of_type("HoleChanged") if e.hole == 3 and e.code == 0)
    words = _frame(board, event.seq)
    assert words is not None, list(board.probe)
    assert words[4:6] == ["HOLE", "3"], words
    assert _leaves_no_sooner_than_the_line_takes(words), words
    whole = [w for w in board.probe if w[0] == "L"]
    assert whole and {int(w[1]) // 4 for w in whole} == {2}, whole  # hole 3's sensors, 8..11


def test_a_tapped_card_is_dated_and_its_tag_frame_leaves_before_its_card_frame(
        make_board: Callable[..., SimBoard], make_host: Callable[..., Host]) -> None:
    board = make_board(seed=5)
    host = make_host(board.port)
    uid = "04A1B2C3D4E5F6"
    board.probe.clear()
    board.tap(uid)
    assert host.pump(lambda: any(e.uid == uid for e in host.of_type("CardArrived")), DEADLINE_S)
    event: Any = next(e for e in host.of_type("CardArrived") if e.uid == uid)
    card = _frame(board, event.seq)
    tag = _frame(board, event.seq - 1)
    laid = _report(board, lambda w: w[0] == "K" and w[1] == uid)
    assert card is not None and tag is not None and laid is not None, list(board.probe)
    assert card[4:6] == ["CARD", "+"] and card[6].startswith(uid + "*") and tag[4] == "TAG", (tag, card)
    assert int(laid[2]) <= int(tag[1]) <= int(card[1])  # laid, then its sticker's frame, then its own
    assert int(tag[2]) < int(card[2])
    assert _leaves_no_sooner_than_the_line_takes(card), card
