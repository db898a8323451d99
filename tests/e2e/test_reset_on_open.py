"""Opening the port need not reset the board (issue 31): the link opens it with DTR and RTS
held, so on a board whose USB bridge does not reset it on open the events it kept while no host
listened come back to the host that opens it again. A bridge that does reset it on open (the
simulated board's `reset_on_open`) restarts it as the EN button does: the kept events are gone,
and the board says it started from power-on, as an ESP32 does after EN."""

from __future__ import annotations

import time

from harness import Host, Listener
from upref.link.protocol import CardArrived, CardLeft, Hello
from upref.sim.board import SimBoard

UID7 = "04A1B2C3D4E5F6"


def _tap_while_away(board: SimBoard) -> None:
    """A tap while no host listens, heard by a plain reader of the port (not a host: it asks
    for nothing) so that the tap is known to be made and gone."""
    with Listener(board.port) as heard:
        board.tap(UID7)
        assert heard.until(lambda: heard.count(CardArrived) == 1, 10), heard.events
        board.remove(UID7)
        assert heard.until(lambda: heard.count(CardLeft) == 1, 10), heard.events


def _tap_unheard(board: SimBoard) -> None:
    """A tap while no host listens and nothing reads the port (an open would reset this board):
    the card lies on the reader for a few of the board's reads."""
    board.tap(UID7)
    time.sleep(0.5)
    board.remove(UID7)


def _cards(host: Host) -> list[tuple[type, str]]:
    return [(type(i), i.uid) for i in host.items if isinstance(i, CardArrived | CardLeft)]


def test_the_kept_events_survive_an_open_that_does_not_reset(make_board, make_host) -> None:
    board = make_board(seed=3)
    host = make_host(board.port)
    host.drain(0.3)
    boot, seq = host.link.applied
    assert boot is not None and seq is not None
    host.close()
    opens, resets = board.state()["line"]["opens"], board.state()["resets"]
    assert opens >= 1  # the simulated bridge saw the host open the port

    _tap_while_away(board)
    again = Host(board.port, since=(boot, seq))
    try:
        want = [(CardArrived, UID7), (CardLeft, UID7)]
        assert again.pump(lambda: _cards(again) == want, 10), _cards(again)
        assert again.link.boot == boot  # the same run of the firmware
        st = board.state()
        assert st["line"]["opens"] > opens and st["resets"] == resets
    finally:
        again.close()


def test_a_bridge_that_resets_on_open_restarts_the_board_as_from_power_on(make_board, make_host) -> None:
    board = make_board(seed=3, reset_on_open=True)
    host = make_host(board.port)
    assert board.state()["resets"] == 1  # the host's open pulsed EN
    host.drain(0.3)
    boot, seq = host.link.applied
    assert boot is not None and seq is not None
    host.close()

    _tap_unheard(board)  # heard or missed, it is gone with the reset
    again = Host(board.port, since=(boot, seq))
    try:
        assert again.pump(lambda: again.model.online and again.link.hello is not None, 10)
        again.drain(1.0)
        hello = again.link.hello
        assert isinstance(hello, Hello) and hello.reset == "power" and hello.boot != boot
        assert _cards(again) == []  # the tap made while away went with the reset
        st = board.state()
        assert st["resets"] == 2 and st["reset_cause"] == "power"
    finally:
        again.close()
