"""`upref play updown PLAYER...`: referee a game at the table.

The board's events flow through the link into the board model; each observation becomes a
referee input, committed to the game log before the referee acts on it; the verdicts go to the
scoreboard and, as LED colours and beeps, back to the board. Keys on the host enter what no
sensor sees: u undo the last turn, h a hint for the player on turn (with --hints), n the next
game, e end the game, q quit (the game stays saved: --resume continues it).

`Table` is the loop's one moving part, shared with the demo and the end-to-end tests.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import queue
import select
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.text import Text

from upref.board.codes import CodeTable
from upref.board.model import BoardModel
from upref.games.updown.engine import Variant
from upref.link.connection import BoardReset, Link, LinkError, Offline, Online, Resynced
from upref.referee.feedback import Feedback
from upref.referee.inputs import (
    BoardOnline,
    EndGame,
    Hint,
    Input,
    NextGame,
    Observe,
    Picture,
    StartGame,
    Tick,
    Undo,
)
from upref.referee.status import TableStatus, Verdict
from upref.referee.updown import Reply, UpDownReferee
from upref.store.gamelog import GameLog, GameLogError
from upref.store.replay import resume
from upref.store.tags import TagRegistry
from upref.views.scoreboard import render_scoreboard, scoreboard_text

GAMES = ("updown",)
TICK_S = 0.25  # how often time is told to the referee while a finished turn settles


class Table:
    """The host at the table: link events -> board model -> referee inputs -> replies.

    Feedback for the board is sent from a thread of its own, so a slow or lost command answer
    never holds up the referee. `clock` gives the inputs' times (wall-clock seconds, so that a
    resumed game's times continue those in its log).
    """

    def __init__(
        self,
        link: Link,
        referee: UpDownReferee,
        codes: CodeTable,
        *,
        clock: Callable[[], float] = time.time,
        on_reply: Callable[[Input, Reply], None] | None = None,
    ) -> None:
        self.link = link
        self.referee = referee
        self.model = BoardModel(codes)
        self.clock = clock
        self.on_reply = on_reply
        self.replies: list[tuple[Input, Reply]] = []
        self.synced = False
        self._last_tick = 0.0
        self._fb: queue.Queue[Feedback | None] = queue.Queue()
        self._fb_thread = threading.Thread(target=self._send_feedback, name="upref-feedback", daemon=True)
        self._fb_thread.start()
        referee.feedback_sink = self._fb.put

    def _send_feedback(self) -> None:
        while (fb := self._fb.get()) is not None:
            for ftype, args in fb.commands():
                with contextlib.suppress(LinkError):
                    self.link.command(ftype, *args, timeout=0.5, retries=0)

    def send(self, inp: Input) -> Reply:
        reply = self.referee.handle(inp)
        self.replies.append((inp, reply))
        if self.on_reply is not None:
            self.on_reply(inp, reply)
        return reply

    def wait_for_picture(self, timeout: float = 5.0) -> None:
        """Pump until the board model holds the board's first snapshot.

        :raises LinkError: when none comes in time.
        """
        end = time.monotonic() + timeout
        while not self.synced:
            left = end - time.monotonic()
            if left <= 0:
                raise LinkError("the board sent no snapshot: check it with upref doctor")
            self.pump(min(left, 0.1))

    def picture(self) -> tuple[int, ...]:
        return tuple(self.model.holes[h].code for h in sorted(self.model.holes))

    def pump(self, seconds: float) -> None:
        """Apply what the board sends for up to `seconds`; tell the referee the time when it
        waits for a finished turn to settle."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            try:
                item = self.link.events.get(timeout=max(0.0, min(left, TICK_S)))
            except queue.Empty:
                item = None
            if item is not None:
                self._item(item)
            self._maybe_tick()
            if left <= 0:
                return

    def _item(self, item: object) -> None:
        observations = self.model.apply(item)  # type: ignore[arg-type]
        first = isinstance(item, Resynced) and not self.synced
        if isinstance(item, Resynced):
            self.synced = True
        if first:
            # the referee's physical picture starts from the board's first snapshot (after a
            # resume, holes that changed while the host was away are taken up from it)
            self.send(Picture(self.picture(), self.clock()))
        else:
            for obs in observations:
                self.send(Observe(obs, self.clock()))
        if isinstance(item, Offline):
            self.send(BoardOnline(False, self.clock()))
        elif isinstance(item, Online) and self.synced:
            self.send(BoardOnline(True, self.clock()))
        elif isinstance(item, BoardReset):
            pass  # the snapshot that follows brings any change as observations

    def _maybe_tick(self) -> None:
        view = self.referee.view(None)
        if view is None or view.get("phase") != "turn" or view["turned"]["done"] < view["turned"]["of"]:
            return
        now = time.monotonic()
        if now - self._last_tick >= TICK_S:
            self._last_tick = now
            self.send(Tick(self.clock()))

    def close(self) -> None:
        self._fb.put(None)
        self._fb_thread.join(timeout=2)


# --- the command ------------------------------------------------------------------------------


def _variant(args: argparse.Namespace) -> Variant:
    return Variant(short_game_target=args.short, super_buddler=args.super_buddler, mole_mix=args.mole_mix)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="upref play", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=GAMES, help="the game (more are coming)")
    ap.add_argument("players", nargs="*", help="players' names in seat order, youngest first")
    ap.add_argument("--port", help="the board's port or pyserial URL (default: find it)")
    ap.add_argument("--resume", action="store_true", help="continue the last unfinished game")
    ap.add_argument("--short", type=int, metavar="N", help="short game: first to N cards ends it")
    ap.add_argument("--super-buddler", action="store_true", help="the 4-shovel cards instead of the 1-shovel ones")
    ap.add_argument("--mole-mix", action="store_true", help="turn the box after each solved card")
    ap.add_argument("--hints", action="store_true", help="allow the hint key")
    ap.add_argument("--seed", type=int, help="seed of the stack's shuffle (default: random)")
    ap.add_argument("--settle", type=float, default=1.0, help="seconds the board must be still to end a turn")
    ap.add_argument("--db", type=Path, help="games database (default: the user's data folder)")
    ap.add_argument("--registry", type=Path, help="tag registry (default: the user's data folder)")
    ap.add_argument("--plain", action="store_true", help="print verdicts as lines, no live scoreboard")
    return ap


def open_table(
    args: argparse.Namespace, link: Link, codes: CodeTable, registry: TagRegistry
) -> tuple[Table, GameLog]:
    """A table with a new game started, or the last unfinished one resumed.

    :raises GameLogError: --resume with no unfinished game.
    :raises ValueError: no players for a new game.
    """
    if args.resume:
        log = GameLog.open_latest(args.db, game=args.game)
        if log is None:
            raise GameLogError("there is no unfinished game to resume: start one with upref play updown NAMES")
        referee = resume(log, registry)
        table = Table(link, referee, codes)
        table.wait_for_picture()
        return table, log
    if not args.players:
        raise ValueError("name the players in seat order, youngest first: upref play updown Ann Bob Cy")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    referee = UpDownReferee(codes, registry, settle_s=args.settle, hints=args.hints)
    variant = _variant(args)
    log = GameLog.create(args.db, game=args.game, players=args.players, variant=variant, seed=seed, config=referee.config())
    referee.attach(log)
    table = Table(link, referee, codes)
    table.wait_for_picture()
    table.send(StartGame(tuple(args.players), variant, seed, table.clock()))
    return table, log


def verdict_line(v: Verdict) -> str:
    text = v.text + (f"  -> {v.correction}" if v.correction and v.correction not in v.text else "")
    return f"[{v.kind}{' ' + v.rule if v.rule else ''}] {text}"


def render(table: Table, private: list[str]) -> RenderableType:
    view = table.referee.view(None)
    status: TableStatus = table.referee.status()
    if view is None:
        body: RenderableType = Panel(Text(status.waiting_for or "Waiting for the board", style="bold"), title="upref")
    else:
        body = render_scoreboard(view, status)
    if private:
        return Group(body, Panel(Text("\n".join(private)), title="for one player's eyes only"))
    return body


@contextlib.contextmanager
def keys() -> Iterator[Callable[[], str | None]]:
    """Single key presses from a terminal, without Enter (nothing on a non-terminal)."""
    if not sys.stdin.isatty():
        yield lambda: None
        return
    import termios
    import tty

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:

        def read() -> str | None:
            if select.select([fd], [], [], 0)[0]:
                return os.read(fd, 1).decode(errors="replace")
            return None

        yield read
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


KEY_INPUTS: dict[str, Callable[[float], Input]] = {
    "u": Undo,
    "e": EndGame,
    "n": NextGame,
    "h": Hint,
}


def main(argv: list[str] | None = None, *, opener: Callable[[str | None], Link] = Link) -> int:
    args = _parser().parse_args(argv)
    console = Console()
    codes = CodeTable.load()
    registry = TagRegistry(args.registry)
    try:
        link = opener(args.port)
    except LinkError as e:
        print(f"upref play: {e}", file=sys.stderr)
        return 1
    try:
        try:
            table, log = open_table(args, link, codes, registry)
        except (GameLogError, ValueError, LinkError) as e:
            print(f"upref play: {e}", file=sys.stderr)
            return 2
        print(f"game {log.game_id} in {log.path}: keys u undo, h hint, n next game, e end, q quit", file=sys.stderr)
        live = console.is_terminal and not args.plain
        return _loop(table, console, live)
    finally:
        link.close()


def _loop(table: Table, console: Console, live_view: bool) -> int:
    private: list[str] = []

    def show(_inp: Input, reply: Reply) -> None:
        for v in reply.verdicts:
            if v.seat is not None:
                private[:] = [verdict_line(v)]
            elif not live_view:
                print(verdict_line(v), flush=True)

    table.on_reply = show
    for inp, reply in table.replies:
        show(inp, reply)
    try:
        with keys() as key:
            if live_view:
                with Live(render(table, private), console=console, refresh_per_second=6) as live:
                    while _step(table, key):
                        live.update(render(table, private))
            else:
                while _step(table, key) and table.referee.stopped is None:
                    pass
                view = table.referee.view(None)
                if view is not None:
                    console.print(scoreboard_text(view, table.referee.status()))
    except KeyboardInterrupt:
        pass
    finally:
        table.close()
    return 0


def _step(table: Table, key: Callable[[], str | None]) -> bool:
    table.pump(0.15)
    k = key()
    if k == "q":
        return False
    make = KEY_INPUTS.get(k or "")
    if make is not None:
        table.send(make(table.clock()))
    return True


if __name__ == "__main__":
    sys.exit(main())
