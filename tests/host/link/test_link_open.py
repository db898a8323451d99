"""The link opens the port without resetting the board: DTR and RTS are set inactive on the
port before it opens, so pyserial never drives the USB bridge's reset lines on open; a pty,
which has no such lines, opens all the same."""

from __future__ import annotations

import os
import tty
from collections.abc import Iterator
from dataclasses import replace

import pytest
import serial
from fake_serial import BoardFrames, FakeFactory, FakeSerial
from upref.link.connection import Link, LinkSettings, hold_control_lines
from upref.link.protocol import encode_command

CALM = LinkSettings(connect_timeout=3.0, heartbeat_timeout=60.0, snap_retry=60.0,
                    hello_retry=60.0, backoff_start=0.01, backoff_max=0.05, poll=0.01)


class BridgePort(FakeSerial):
    """A port not yet open, with the modem lines of a USB bridge: remembers the lines' levels
    at the moment it is opened (pyserial drives them then)."""

    def __init__(self) -> None:
        super().__init__()
        self.is_open = False
        self.dtr = True  # pyserial's defaults: both asserted
        self.rts = True
        self.lines_at_open: tuple[bool, bool] | None = None

    def open(self) -> None:
        self.lines_at_open = (self.dtr, self.rts)
        self.is_open = True


def test_the_link_opens_the_port_with_dtr_and_rts_held_inactive() -> None:
    port, board = BridgePort(), BoardFrames()
    port.expect(encode_command(0, "HELLO"), board.hello())
    port.expect(encode_command(1, "SNAP"), board.snap(holes=(0,) * 10))
    factory = FakeFactory(port)
    with Link("fake://", replace(CALM, serial_factory=factory)):
        assert port.kwargs["do_not_open"] is True and port.kwargs["exclusive"] is True
        assert port.lines_at_open == (False, False)  # never asserted: EN is never pulled low


@pytest.fixture
def pty() -> Iterator[str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        yield os.ttyname(slave)
    finally:
        os.close(slave)
        os.close(master)


def test_a_pty_has_no_lines_to_hold_and_opens_all_the_same(pty: str) -> None:
    port = serial.serial_for_url(pty, baudrate=115200, timeout=0.1, do_not_open=True)
    hold_control_lines(port)
    port.open()
    try:
        assert port.is_open and not port.dtr and not port.rts
        with pytest.raises(OSError):
            port.dtr = True  # an open pty refuses the modem-line ioctl (ENOTTY) ...
        hold_control_lines(port)  # ... which holding the lines takes in its stride
    finally:
        port.close()
