"""`upref doctor [--port URL] [--calibrate] [--once] [--selftest [--holes 1,2] [--ends all]]`:
every sensor, the RFID reader and the link, live.

The view refreshes about five times a second: the board's own figures as each heartbeat
brings them (scan time, late scans, card reads per second, free heap, resets: each with its
unit and a plain word when it is out of range, `upref.commands.board_figures`), each hole's
code and meaning and each sensor's raw level and calibrated zero (asked with RAW about once a
second), the RFID reader's version (from HELLO) and error counters (from the heartbeat), the
link's counters, and the faults.
q (or Esc, or Ctrl-C) leaves the live view, as its last line says.
`--calibrate` sends CAL and prints OK or the board's reason. `--once` prints one picture and
exits (for scripts and tests). `--selftest` walks a person through every hole with a set of
mole ends and reports what each sensor saw (`upref.commands.selftest`; exit 0 when everything read as
expected, 1 otherwise).

Data -> `render(state)` -> a thin Live loop: the render function is pure.
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from rich import box
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.table import Table
from rich.text import Text

from upref.board.codes import CodeTable, magnets_of
from upref.board.model import BoardModel, FaultObservation
from upref.commands.board_figures import BoardFigures
from upref.commands.connect import open_link
from upref.commands.keypresses import keys
from upref.commands.lang_option import add_lang_option, chosen_lang, said, said_error
from upref.commands.selftest import Ask, ask_person
from upref.commands.selftest import run as run_selftest
from upref.link.connection import Link, LinkCounters, LinkError, counter_names
from upref.link.notices import LinkItem, Offline, Online, Recovered
from upref.link.protocol import Err, Heartbeat, Hello, RawLevels, rfid_text
from upref.text import Msg

RAW_EVERY = 1.0  # seconds between RAW requests in the live view
REFRESH_PER_SECOND = 5


@dataclass
class DoctorState:
    """Everything the view shows, gathered from the link and the board model."""

    url: str
    model: BoardModel
    counters: LinkCounters = field(default_factory=LinkCounters)
    hello: Hello | None = None
    heartbeat: Heartbeat | None = None
    raw: dict[int, RawLevels] = field(default_factory=dict)
    online: bool = False
    raw_error: str = ""
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=6))
    figures: BoardFigures = field(default_factory=BoardFigures)

    def take(self, item: LinkItem) -> None:
        """Fold one link item into the state."""
        self.figures.take(item)
        for obs in self.model.apply(item):
            if isinstance(obs, FaultObservation):
                what = f"{obs.kind} {obs.where}" + (f" {obs.text}" if obs.text else "")
                raised = Msg("fault raised: {what}", what=what)
                self.note(raised if obs.raised else Msg("fault cleared: {what}", what=what))
        if isinstance(item, Offline):
            self.note(Msg("offline: {reason}", reason=item.reason))
        elif isinstance(item, Recovered):
            self.note(item.text)
        elif isinstance(item, Online):
            self.note(Msg("online"))

    def note(self, text: str) -> None:
        self.recent.append(f"{time.strftime('%H:%M:%S')} {said(text)}")

    def refresh_from(self, link: Link) -> None:
        self.url = link.url
        self.counters = link.counters
        self.hello = link.hello
        if self.figures.hello is None:
            self.figures.hello = link.hello
        self.heartbeat = link.heartbeat
        self.raw = link.raw
        self.online = link.online


def fault_place(key: str) -> str:
    """Where a fault is, in words: 's7' -> 'hole 2, sensor P3'."""
    if key.startswith("s") and key[1:].isdigit():
        k = int(key[1:]) - 1
        return said(Msg("hole {hole}, sensor P{position}", hole=k // 4 + 1, position=k % 4 + 1))
    if key.startswith("h") and key[1:].isdigit():
        return said(Msg("hole {hole}", hole=key[1:]))
    if key == "rfid":
        return said(Msg("RFID reader"))
    return key


def _sensor_cell(raw: RawLevels | None, pos: int, faulty: bool) -> Text:
    if raw is None:
        return Text("-", style="dim")
    level, zero = raw.levels[pos], raw.zeros[pos]
    text = Text(f"{level}\n")
    text.append(f"z {zero}", style="dim")
    if faulty:
        text.stylize("bold red")
    return text


def render_holes(state: DoctorState) -> Table:
    codes = state.model.codes
    table = Table(
        box=box.SIMPLE_HEAD,
        title="holes (sensors P1..P4: raw level, and z = calibrated zero)",
        title_justify="left",
    )
    table.add_column("hole", justify="right")
    table.add_column("code", justify="right")
    table.add_column("magnets")
    table.add_column("meaning", min_width=14)
    for pos in range(4):
        table.add_column(f"P{pos + 1}", justify="right")
    faults = state.model.faults
    for hole, hs in sorted(state.model.holes.items()):
        if hs.empty:
            meaning = Text("empty", style="dim")
        elif hs.valid:
            meaning = Text(codes.short(hs.code))
        else:
            meaning = Text(codes.describe(hs.code), style="bold red")
        magnets = magnets_of(hs.code) if 0 <= hs.code <= 80 else "?"
        raw = state.raw.get(hole)
        cells = [_sensor_cell(raw, p, f"s{(hole - 1) * 4 + p + 1}" in faults) for p in range(4)]
        label = Text(str(hole), style="bold red" if f"h{hole}" in faults else "")
        table.add_row(label, str(hs.code), magnets, meaning, *cells)
    return table


def render_board(state: DoctorState) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    status = (
        Text(said(Msg("online")), style="green")
        if state.online
        else Text(said(Msg("OFFLINE")), style="bold red")
    )
    table.add_row(said(Msg("port")), Text.assemble(state.url, "  ", status))
    h = state.hello
    if h is not None:
        table.add_row(
            said(Msg("board")),
            said(
                Msg(
                    "{board}  firmware {fw}  protocol {proto}  {holes} holes",
                    board=h.board,
                    fw=h.fw,
                    proto=h.proto,
                    holes=h.holes,
                )
            ),
        )
        caps = ",".join(h.caps) or "-"
        table.add_row("", said(Msg("caps {caps}  last reset: {reset}", caps=caps, reset=h.reset)))
    _running_row(table, state.heartbeat)
    hb = state.heartbeat
    rfid = Text(rfid_text(h.rfid) if h is not None else "?")
    if h is not None and h.rfid is None:
        rfid.stylize("bold red")
    errors = (
        Msg("errors {errors}, re-inits {reinits}", errors=hb.rfe, reinits=hb.rfr)
        if hb is not None
        else Msg("errors ?")
    )
    card = Msg("card: {card}", card=state.model.card or "-")
    table.add_row("RFID", Text.assemble(rfid, f"  {said(errors)}  {said(card)}"))
    pressed = Msg("pressed") if state.model.button else Msg("released")
    table.add_row(said(Msg("button")), said(pressed))
    return table


def _running_row(table: Table, hb: Heartbeat | None) -> None:
    """How the board runs: its uptime, scan rate and counters (none before a heartbeat)."""
    if hb is None:
        table.add_row(said(Msg("running")), Text(said(Msg("no heartbeat yet")), style="dim"))
        return
    running = Msg(
        "up {uptime:.1f} s  {sps} scans/s ({scans} in all)  commands {cmd}, bad command lines "
        "{bad}  faults raised {flt}",
        uptime=hb.uptime_ms / 1000,
        sps=hb.sps,
        scans=hb.scans,
        cmd=hb.cmd,
        bad=hb.bad,
        flt=hb.flt,
    )
    table.add_row(said(Msg("running")), said(running))


def render_figures(state: DoctorState) -> Table:
    """The board's own figures, each with a plain word when it is out of range."""
    table = Table(
        box=box.SIMPLE_HEAD,
        title=said(Msg("the board's own figures (each heartbeat)")),
        title_justify="left",
    )
    table.add_column(said(Msg("figure")), style="bold")
    table.add_column(said(Msg("value")), no_wrap=True)
    table.add_column(said(Msg("judged")))
    for fig in state.figures.figures(card_present=state.model.card is not None):
        word = Text(said(fig.trouble), style="bold red") if fig.trouble else Text(said(Msg("ok")), style="green")
        table.add_row(said(fig.name), said(fig.value), word)
    return table


def render_link(state: DoctorState) -> Table:
    c = state.counters
    table = Table(title="link", title_justify="left", show_header=False)
    names = counter_names()
    half = (len(names) + 1) // 2
    for _ in range(2):
        table.add_column(style="bold")
        table.add_column(justify="right")
    for i in range(half):
        row: list[RenderableType] = []
        for name in (names[i], names[i + half] if i + half < len(names) else None):
            if name is None:
                row += ["", ""]
                continue
            value = getattr(c, name)
            bad = name in ("crc", "shape", "long", "args", "gaps", "offline") and value
            row += [name, Text(str(value), style="bold red" if bad else "")]
        table.add_row(*row)
    return table


def render_faults(state: DoctorState) -> RenderableType:
    model = state.model
    lines = Text()
    if model.faults:
        for key in sorted(model.faults):
            lines.append(f"{key} ", style="bold red")
            text = model.fault_texts.get(key, "")
            lines.append(f"{fault_place(key)}{': ' + text if text else ''}\n")
    else:
        lines.append(said(Msg("no faults")) + "\n", style="green")
    if state.raw_error:
        lines.append(f"RAW: {state.raw_error}\n", style="yellow")
    for entry in state.recent:
        lines.append(entry + "\n", style="dim")
    return lines


def render(state: DoctorState) -> RenderableType:
    """The whole doctor view for one moment."""
    side = Table.grid(padding=(0, 4))
    side.add_row(render_link(state), render_faults(state))
    return Group(render_board(state), render_figures(state), render_holes(state), side)


def _drain(link: Link, state: DoctorState, until: float, stop: Callable[[], bool]) -> None:
    while True:
        remaining = until - time.monotonic()
        if remaining <= 0 or stop():
            return
        try:
            item = link.events.get(timeout=min(remaining, 0.05))
        except queue.Empty:
            continue
        state.take(item)


def _ask_raw(link: Link, state: DoctorState, retries: int = 0) -> None:
    try:
        reply = link.command("RAW", timeout=1.0, retries=retries)
        state.raw_error = said(Msg("refused: {reason}", reason=reply.reason)) if isinstance(reply, Err) else ""
    except LinkError as exc:
        state.raw_error = str(exc)


def calibrate(link: Link, out: Console) -> int:
    """Send CAL; print the outcome. Calibrate with every hole empty."""
    out.print(said(Msg("calibrating: every hole must be empty ...")))
    try:
        reply = link.command("CAL", timeout=5.0, retries=0)
    except LinkError as exc:
        out.print(said(Msg("calibration failed: {why}", why=said_error(exc))))
        return 1
    if isinstance(reply, Err):
        out.print(said(Msg("calibration refused by the board: {reason}", reason=reply.reason)))
        return 1
    out.print(said(Msg("calibration OK: the new zeros are saved on the board")))
    return 0


def _holes(text: str) -> list[int]:
    try:
        holes = [int(h) for h in text.replace(" ", "").split(",") if h]
    except ValueError:
        raise argparse.ArgumentTypeError(
            said(Msg("holes as numbers, e.g. 1,4,7: not {text!r}", text=text))
        ) from None
    if not holes or any(h < 1 for h in holes):
        raise argparse.ArgumentTypeError(said(Msg("holes are numbered from 1: {text!r}", text=text)))
    return holes


def _parser() -> argparse.ArgumentParser:
    """The options of `upref doctor`."""
    parser = argparse.ArgumentParser(
        prog="upref doctor",
        description=said(
            Msg(
                "Live view of every sensor, the RFID reader and the link; calibration; the "
                "sensor self-test."
            )
        ),
    )
    parser.add_argument("--port", metavar="URL", help=said(Msg("device path or pyserial URL")))
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help=said(Msg("calibrate the sensors' zeros (holes empty)")),
    )
    parser.add_argument("--once", action="store_true", help=said(Msg("print one picture and exit")))
    parser.add_argument(
        "--selftest",
        action="store_true",
        help=said(Msg("walk through every hole with mole ends and report what each sensor saw")),
    )
    parser.add_argument(
        "--holes",
        type=_holes,
        metavar="N,N",
        help=said(Msg("self-test only these holes (default: all)")),
    )
    parser.add_argument(
        "--ends",
        choices=("cover", "all"),
        default="cover",
        help=said(
            Msg(
                "self-test with the four ends that cover every sensor with N, S and none "
                "(default), or with all twenty"
            )
        ),
    )
    add_lang_option(parser)
    return parser


LEAVE = Msg("Press q to leave (or Ctrl-C).")
"""The live view's last line: how to leave it."""
QUIT_KEYS = ("q", "Q", "\x1b")


def main(
    argv: list[str] | None = None,
    *,
    opener: Callable[[str | None], Link] = Link,
    console: Console | None = None,
    ask: Ask | None = None,
    settle: float | None = None,
    keys: Callable[[], contextlib.AbstractContextManager[Callable[[], str | None]]] = keys,
) -> int:
    """`ask` replaces the prompt of the self-test (a script or a test drives the board there);
    `settle` its wait for a steady code (seconds); `keys` the live view's key presses."""
    args = _parser().parse_args(argv)
    chosen_lang(args, "upref doctor")
    out = console or Console()
    try:
        codes = CodeTable.load()
    except (OSError, ValueError) as exc:
        print("upref doctor: " + said(said_error(exc)), file=sys.stderr)
        return 1
    link = open_link(args.port, "upref doctor", opener)
    if link is None:
        return 1
    state = DoctorState(link.url, BoardModel(codes))
    try:
        with link:
            if args.calibrate:
                return calibrate(link, out)
            if args.selftest:
                return _selftest(link, args, out, ask, settle)
            if args.once:
                return _once(link, state, out)
            return _live(link, state, out, keys)
    except KeyboardInterrupt:
        return 0


def _selftest(
    link: Link, args: argparse.Namespace, out: Console, ask: Ask | None, settle: float | None
) -> int:
    """`upref doctor --selftest`: 0 when every sensor saw what it should, 2 for holes the board
    does not have."""
    n = link.hello.holes if link.hello is not None else 10
    bad = [h for h in args.holes or [] if h > n]
    if bad:
        out.print("upref doctor: " + said(Msg("the board has holes 1..{n}, not {bad}", n=n, bad=bad)))
        return 2
    report = run_selftest(
        link,
        ask or ask_person(out),
        out,
        holes=args.holes,
        ends=args.ends,
        **({"settle": settle} if settle is not None else {}),
    )
    return 0 if report.ok else 1


def _once(link: Link, state: DoctorState, out: Console) -> int:
    _ask_raw(link, state, retries=2)
    # wait for a heartbeat (about one a second) so the RFID counters are known
    deadline = time.monotonic() + 1.5
    _drain(link, state, deadline, lambda: link.heartbeat is not None)
    _drain(link, state, time.monotonic() + 0.05, lambda: False)
    state.refresh_from(link)
    out.print(render(state))
    return 0 if link.error is None else 1


def live_screen(state: DoctorState) -> RenderableType:
    """The live view: the picture, then how to leave it."""
    return Group(render(state), Text(said(LEAVE), style="dim"))


def _live(
    link: Link,
    state: DoctorState,
    out: Console,
    keys: Callable[[], contextlib.AbstractContextManager[Callable[[], str | None]]] = keys,
) -> int:
    """The live view until q (0) or the link fails (1)."""
    stop = threading.Event()

    def poll_raw() -> None:
        while not stop.is_set():
            _ask_raw(link, state)
            stop.wait(RAW_EVERY)

    poller = threading.Thread(target=poll_raw, name="upref-doctor-raw", daemon=True)
    poller.start()
    try:
        with keys() as key, Live(
            live_screen(state), console=out, refresh_per_second=REFRESH_PER_SECOND
        ) as live:
            while link.error is None:
                _drain(link, state, time.monotonic() + 1 / REFRESH_PER_SECOND, lambda: False)
                state.refresh_from(link)
                live.update(live_screen(state))
                if key() in QUIT_KEYS:
                    return 0
    finally:
        stop.set()
    out.print("upref doctor: " + said(said_error(link.error or "")))
    return 1
