"""`upref doctor`'s live view on the simulated board shows the board's own figures and follows
them as heartbeats arrive: card reads per second rise while a card lies on the reader, and a
reset (a Ctrl-C on the line, after which the link soft-resets the board) is counted by the
board itself, in its RTC memory, and named on the screen."""

from __future__ import annotations

import contextlib
import io
import queue
import re
import time
from collections.abc import Callable, Iterator

import serial
from rich.console import Console
from upref.commands import doctor
from upref.link.connection import Link
from upref.link.notices import BoardReset
from upref.link.protocol import Hello
from upref.sim.board import SimBoard

UID = "04A1B2C3D4E5F6"
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def stray_ctrl_c(board: SimBoard) -> None:
    """A Ctrl-C at a line's start reaches the board from outside the link (a person at a serial
    monitor): through a second handle on the port, without taking its lock."""
    with serial.serial_for_url(board.port, baudrate=115200, timeout=0.2) as s:
        s.write(b"\r\x03")
        s.flush()


def last_screen(buf: io.StringIO) -> str:
    """The live view's latest picture, without the terminal's control codes."""
    text = _ANSI.sub("", buf.getvalue())
    screens = [s for s in text.split(doctor.LEAVE) if "the board's own figures" in s]
    return screens[-1] if screens else ""


def figure(screen: str, name: str) -> str:
    """The figure's row on the screen ("" when it is not there)."""
    for line in screen.splitlines():
        if line.strip().startswith(name):
            return line.strip()
    return ""


def reads_per_s(screen: str) -> int | None:
    m = re.search(r"card reads\s+(\d+) a second", screen)
    return int(m.group(1)) if m else None


class Script:
    """The person at the keyboard: looks at each picture, acts on the board as each step is
    seen, and presses q once every step was seen or the deadline passed."""

    def __init__(self, board: SimBoard, buf: io.StringIO, deadline_s: float) -> None:
        self.board = board
        self.buf = buf
        self.end = time.monotonic() + deadline_s
        self.seen: list[str] = []
        self.screens: dict[str, str] = {}

    def step(self, name: str, done: Callable[[str], bool], then: Callable[[], object]) -> bool:
        """True while this step is not yet seen (the picture is looked at again later)."""
        if name in self.seen:
            return False
        screen = last_screen(self.buf)
        if not done(screen):
            return True
        self.seen.append(name)
        self.screens[name] = screen
        then()
        return True

    def key(self) -> str | None:
        if time.monotonic() > self.end:
            return "q"
        no_card = "(no card on the reader)"
        steps = (
            ("idle", lambda s: no_card in figure(s, "card reads"), lambda: self.board.tap(UID)),
            ("reading", lambda s: (reads_per_s(s) or 0) > 0 and no_card not in s, lambda: stray_ctrl_c(self.board)),
            ("reset", lambda s: "soft 1" in figure(s, "resets") and "seen here" in figure(s, "resets"), lambda: None),
        )
        for name, done, then in steps:
            if self.step(name, done, then):
                return None
        return "q"


def test_doctor_shows_the_board_s_figures_live_and_they_follow_the_board(make_board) -> None:
    board = make_board(seed=11)
    board.wait_for(lambda st: st["kbd_intr"] == -1)  # the firmware runs its loop
    buf = io.StringIO()
    console = Console(width=160, height=200, file=buf, color_system=None, force_terminal=True)
    script = Script(board, buf, deadline_s=90)

    @contextlib.contextmanager
    def keys() -> Iterator[Callable[[], str | None]]:
        yield script.key

    assert doctor.main(["--port", board.port], console=console, keys=keys) == 0
    assert script.seen == ["idle", "reading", "reset"], (script.seen, last_screen(buf))
    idle = script.screens["idle"]
    for name, unit in (("scan time", "ms mean"), ("late scans", "in the last second"),
                       ("heap", "KB free now"), ("resets", "since power-on")):
        assert unit in figure(idle, name), (name, idle)
    assert "soft 0, hard 0, wdt 0, other 0" in idle, idle
    # the simulated reader reads a card lying on it every 20 ms that the loop has room for
    reading = script.screens["reading"]
    assert (reads_per_s(reading) or 0) >= 10, reading
    assert "SLOW" not in figure(reading, "card reads"), reading


def test_the_board_counts_its_resets_until_the_en_button_starts_the_count_again(make_board) -> None:
    board = make_board(seed=12)
    with Link(board.port) as link:
        assert link.hello is not None and link.hello.resets == (0, 0, 0, 0), link.hello
        link.command("REBOOT")  # machine.reset(): a hard reset
        wait_for_hello(link, lambda h: h.reset == "hard")
        assert link.hello is not None and link.hello.resets == (0, 1, 0, 0), link.hello
        board.reset()  # the EN button reads as a power-on, which starts the count again
        wait_for_hello(link, lambda h: h.reset == "power")
        assert link.hello is not None and link.hello.resets == (0, 0, 0, 0), link.hello


def wait_for_hello(link: Link, cond: Callable[[Hello], bool], timeout_s: float = 30.0) -> None:
    """Take the link's items until a HELLO that `cond` accepts has come (a reset's)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        try:
            item = link.events.get(timeout=0.2)
        except queue.Empty:
            continue
        if isinstance(item, BoardReset) and cond(item.hello):
            return
    raise AssertionError(f"no such reset in {timeout_s:.0f} s: {link.hello}")
