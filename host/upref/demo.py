"""`upref demo` (`make demo`): a scripted session on the simulated board.

A simulated board starts with the unchanged firmware; the host connects to it over its pty
exactly as to a USB port; a short script of physical actions plays on the board (pairs turned,
a 7-byte and a 4-byte tag tapped, the button, a board reset, an unplugged cable) and every event
the host receives is shown as it arrives. At the end the host's picture of the board is compared
with the simulator's physical truth. Needs no input; exits 0 when the picture is exact.

On a terminal it shows a live board view (Rich); elsewhere it prints the same story as lines.
"""

from __future__ import annotations

import argparse
import os
import queue
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from upref.board import BoardModel
from upref.codes import CodeTable
from upref.link import Link
from upref.sim.server import SimBoard
from upref.watch import item_lines

COLOUR_STYLE = {"R": "bold red", "B": "bold blue", "Y": "bold yellow", "W": "bold white", "K": "bold bright_black"}


@dataclass
class Step:
    say: str
    act: Callable[[SimBoard], object]
    settle: float = 0.6


def script() -> list[Step]:
    return [
        Step("A player pulls the pair out of hole 4 and puts it back turned", lambda b: b.flip(4)),
        Step("...and turns the pairs in holes 7 and 2", lambda b: (b.flip(7), b.flip(2))),
        Step("Hole 9: pulled out and put back the same way up (no change)", lambda b: _reinsert(b, 9)),
        Step("A task card with a 7-byte NTAG sticker is tapped on the reader", lambda b: b.tap("04A1B2C3D4E5F6"), 1.2),
        Step("...and taken away", lambda b: b.remove()),
        Step("A card with a 4-byte tag is tapped and taken away", lambda b: (b.tap("DEADBEEF"), time.sleep(0.5), b.remove())),
        Step("The button is pressed", lambda b: b.button("click")),
        Step("The board is reset (EN button): the host resynchronises", lambda b: b.reset(), 2.0),
        Step("Hole 5 is turned", lambda b: b.flip(5)),
        Step("The USB cable is pulled for 2 s; meanwhile hole 1 is turned", lambda b: (b.unplug(2.0), b.flip(1)), 5.0),
    ]


def _reinsert(board: SimBoard, hole: int) -> None:
    st = board.state()["holes"][hole - 1]
    board.pull(hole)
    time.sleep(0.2)
    board.insert(hole, st["pair"], st["down"])


class Session:
    """The host side of the demo: link events applied to the board model, kept as lines."""

    def __init__(self, port: str) -> None:
        self.codes = CodeTable.load()
        self.link = Link(port, heartbeat_timeout=1.5, backoff_max=0.5)
        self.model = BoardModel(self.codes)
        self.log: list[str] = []
        self.step = ""

    def pump(self, seconds: float, on_line: Callable[[str], None]) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                item = self.link.events.get(timeout=min(left, 0.05))
            except queue.Empty:
                continue
            obs = self.model.apply(item)
            for line in item_lines(item, obs, self.model):
                if "heartbeat" in line.lower() and not obs:
                    continue
                self.log.append(line)
                on_line(line)

    def codes_now(self) -> list[int]:
        return [self.model.holes[h].code for h in sorted(self.model.holes)]


def render(session: Session, board: SimBoard) -> Group:
    holes = Table(title="The molehills, as the host sees them", expand=True)
    holes.add_column("hole", justify="right")
    holes.add_column("up")
    holes.add_column("code", justify="right")
    for h in sorted(session.model.holes):
        st = session.model.holes[h]
        if st.empty:
            holes.add_row(str(h), Text("(empty)", style="dim"), "0")
        elif st.end is None:
            holes.add_row(str(h), Text("invalid code: reseat the pair", style="bold magenta"), str(st.code))
        else:
            up = st.end.visible
            holes.add_row(str(h), Text(session.codes.colour_name(up), style=COLOUR_STYLE.get(up, "")), str(st.code))
    c = session.link.counters
    status = Text()
    status.append("board ", style="bold")
    status.append("online" if session.model.online else "OFFLINE", style="green" if session.model.online else "red")
    status.append(f"   card: {session.model.card or '-'}   button: {'down' if session.model.button else 'up'}\n")
    status.append(
        f"link: {c.frames} frames, {c.crc} CRC errors, {c.gaps} gaps, {c.resyncs} resyncs, {c.reconnects} reconnects"
    )
    log = Text("\n".join(session.log[-12:]))
    return Group(
        Panel(Text(session.step, style="bold cyan"), title="upref demo: the simulated board"),
        holes,
        Panel(status, title="status"),
        Panel(log, title="events as they arrive"),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="upref demo", description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", choices=("cpython", "micropython"), default="cpython")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--plain", action="store_true", help="print lines even on a terminal")
    args = ap.parse_args(argv)

    console = Console()
    live_view = console.is_terminal and not args.plain
    with tempfile.TemporaryDirectory(prefix="upref-demo-") as tmp:
        os.environ.setdefault("UPREF_RUNTIME_DIR", str(Path(tmp) / "run"))
        board = SimBoard(backend=args.backend, seed=args.seed, name="demo", flash_dir=Path(tmp) / "flash")
        board.start()
        try:
            return _run(board, console, live_view)
        finally:
            board.stop()


def _run(board: SimBoard, console: Console, live_view: bool) -> int:
    session = Session(board.port)
    try:
        if live_view:
            with Live(render(session, board), console=console, refresh_per_second=8) as live:

                def update(_line: str) -> None:
                    live.update(render(session, board))

                _play(session, board, update, lambda text: (setattr(session, "step", text), update("")))
        else:
            print(f"simulated board on {board.port} ({board.backend}); host connected")

            def say(text: str) -> None:
                session.step = text
                print(f"\n== {text}")

            _play(session, board, lambda line: print("   " + line), say)
        truth = [h["code"] if h.get("pair") else 0 for h in board.state()["holes"]]
        exact = session.codes_now() == truth
        c = session.link.counters
        console.print(
            f"\nThe host's picture {'matches' if exact else 'DOES NOT match'} the board: "
            f"{sum(1 for v in truth if v)} pairs in place; {c.frames} frames received, "
            f"{c.crc} CRC errors, {c.resyncs} resyncs, {c.reconnects} reconnects."
        )
        return 0 if exact else 1
    finally:
        session.link.close()


def _play(session: Session, board: SimBoard, on_line: Callable[[str], None], say: Callable[[str], None]) -> None:
    say("The board boots; the host shakes hands and takes a snapshot")
    session.pump(1.5, on_line)
    for step in script():
        say(step.say)
        step.act(board)
        session.pump(step.settle, on_line)
    say("Done: comparing the host's picture with the board")
    session.pump(0.5, on_line)


if __name__ == "__main__":
    sys.exit(main())
