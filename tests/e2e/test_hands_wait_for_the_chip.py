"""A hand at the simulated table waits for the chip (issue 32): a card tapped while the firmware
cannot scan (its process stopped: the far end of a loaded machine, whose firmware scans late)
stays on the reader past the hand's own time, until the firmware has seen it, so the host hears
the tap once the chip runs again. Before, the hand took the card away after 0.5 s whatever the
chip had seen, and on a loaded machine a tap could be lost."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable

from harness import Host
from upref.link.protocol import CardArrived, CardLeft
from upref.sim import physics
from upref.sim.board import SimBoard

UID = "04A1B2C3D4E5F6"


def test_a_card_the_firmware_has_not_seen_stays_on_the_reader_until_it_has(
    make_board: Callable[..., SimBoard], make_host: Callable[..., Host]
) -> None:
    board = make_board(seed=3)
    host = make_host(board.port)
    child = board._child
    assert child is not None
    os.kill(child.pid, signal.SIGSTOP)
    touch = threading.Thread(target=board.touch, args=(UID,))
    try:
        touch.start()
        board.wait_for(lambda st: st["cards"] == [UID], timeout=30)
        # the hand's own time passes while the chip sleeps: the hand keeps holding the card
        time.sleep(physics.TOUCH_MS / 1000 + 0.3)
        assert board.state()["cards"] == [UID], "the hand took the card away unseen"
    finally:
        os.kill(child.pid, signal.SIGCONT)
    touch.join(60)
    assert not touch.is_alive()
    got = lambda: [type(i) for i in host.items if isinstance(i, CardArrived | CardLeft)]  # noqa: E731
    assert host.pump(lambda: got() == [CardArrived, CardLeft], 30), got()
