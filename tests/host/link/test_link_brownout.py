"""A brown-out: the ESP32's "Brownout detector was triggered" before a reboot that MicroPython
reports as a power-on is named as such, with what to do (the cable, the port or hub)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fake_serial import BoardFrames, FakeFactory, FakeSerial
from upref.link.connection import BROWNOUT_ADVICE, BoardReset, Link, LinkSettings, Resynced
from upref.link.protocol import encode_command

WAIT = 3.0
CALM = LinkSettings(
    connect_timeout=WAIT, heartbeat_timeout=60.0, snap_retry=60.0, hello_retry=60.0,
    backoff_start=0.01, backoff_max=0.05, poll=0.01,
)


def next_of(link: Link, kind: type) -> Any:
    while True:
        item = link.events.get(timeout=WAIT)
        if isinstance(item, kind):
            return item


def reboot(fake: FakeSerial, rom: bytes, reset: str) -> BoardReset:
    rebooted = BoardFrames()
    fake.expect(encode_command(2, "SNAP"), rebooted.snap())
    fake.feed(rom + rebooted.hello(reset=reset) + rebooted.snap())
    return next_of(fake.link, BoardReset)  # type: ignore[attr-defined]


def connected() -> tuple[FakeSerial, Link]:
    fake = FakeSerial()
    board = BoardFrames()
    fake.expect(encode_command(0, "HELLO"), board.hello())
    fake.expect(encode_command(1, "SNAP"), board.snap())
    link = Link("fake://", replace(CALM, serial_factory=FakeFactory(fake)))
    next_of(link, Resynced)
    fake.link = link  # type: ignore[attr-defined]
    return fake, link


def test_a_brownout_reboot_says_to_check_the_cable_or_hub() -> None:
    fake, link = connected()
    with link:
        rom = b"\r\nBrownout detector was triggered\r\n\r\nets Jun  8 2016 00:22:57\r\n\r\n"
        reset = reboot(fake, rom, "power")
        assert reset.hello.reset == "power" and reset.advice == BROWNOUT_ADVICE
        assert "cable" in reset.advice and "hub" in reset.advice


def test_a_plain_power_on_gives_no_advice() -> None:
    fake, link = connected()
    with link:
        reset = reboot(fake, b"ets Jun  8 2016 00:22:57\r\n\r\n", "power")
        assert reset.advice == ""
