"""`upref demo` (`make demo`): a whole three-player game of Up And Down on the simulated board.

A simulated board starts with the unchanged firmware; the thirty task cards get NFC tags in a
fresh registry; the host connects over the board's pty exactly as to a USB port and referees.
Scripted players then do at the table what real ones would: tap the card they draw, pull pairs
out and put them back turned (guided by their own card), one of them puts a pair into the wrong
hole and corrects it when the referee says so. Every physical action flows through the firmware,
the link and the referee to the scoreboard, which ends by naming the winner. Short game: the
first player to solve two cards ends it. Needs no input; exits 0.

On a terminal it shows the live scoreboard; elsewhere it prints the same story as lines.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console
from rich.live import Live

from upref.board.codes import CodeTable
from upref.commands.play import Table, render, verdict_line
from upref.games.updown.cards import load_catalogue
from upref.games.updown.engine import Variant
from upref.link.connection import Link
from upref.referee.inputs import Input, StartGame
from upref.referee.updown import Reply, UpDownReferee
from upref.sim.server import SimBoard
from upref.store.gamelog import GameLog
from upref.store.tags import TagRegistry
from upref.views.scoreboard import scoreboard_text

PLAYERS = ("Ann", "Bob", "Cy")


def card_uid(n: int) -> str:
    """A 7-byte NTAG-like UID for task card number n (04 is NXP's manufacturer byte)."""
    return f"04{n:02X}5A{(n * 37) & 0xFF:02X}C1D2E3"


def enrol_all(registry: TagRegistry) -> dict[str, str]:
    uid_of = {}
    for n, card in enumerate(load_catalogue().cards, start=1):
        uid_of[card.id] = card_uid(n)
        registry.enroll(uid_of[card.id], "updown", card.id)
    return uid_of


Pause = float  # seconds the table pumps events while the world stays as it is


def players(board: SimBoard, table: Table, uid_of: dict[str, str]) -> Iterator[tuple[str, Pause]]:
    """The people at the table, as a script: each step is (what they do, then a pause)."""
    ref = table.referee
    mistake_made = False

    def hole(h: int) -> dict[str, str]:
        st: dict[str, str] = board.state()["holes"][h - 1]
        return st

    while True:
        eng = ref.engine
        view = ref.view(None)
        if eng is None or view is None or view["phase"] == "over" or ref.stopped is not None:
            return
        name = PLAYERS[view["to_move"] if view["drawing"] is None else view["drawing"]]
        if view["phase"] == "draw":
            card = eng.stack[0]  # the top card of the face-down stack
            board.tap(uid_of[card])
            yield f"{name} draws a card and taps it on the reader", 0.5
            board.remove()
            yield "", 0.4
            continue
        todo = eng.hint() or ()
        if not todo:  # three turned: the referee ends the turn once the board is still
            yield "", 0.3
            continue
        a = todo[0]
        if not mistake_made and view["turn"] >= 2 and len(todo) == 3:
            mistake_made = True
            b = next(h for h in range(1, 11) if h not in todo)
            pa, pb = hole(a), hole(b)
            board.pull(a)
            board.pull(b)
            yield f"{name} pulls the pairs out of holes {a} and {b}...", 0.3
            board.insert(b, pa["pair"], pa["up"])
            yield f"...and puts the pair from hole {a} into hole {b}", 2.0
            board.pull(b)
            yield f"{name} takes it out of hole {b} again...", 0.3
            board.insert(a, pa["pair"], pa["up"])
            yield f"...and puts it back into hole {a}, turned", 0.6
            board.insert(b, pb["pair"], pb["down"])
            yield f"...and the other pair back into hole {b} as it was", 0.8
            continue
        pa = hole(a)
        board.pull(a)
        yield "", 0.25
        board.insert(a, pa["pair"], pa["up"])
        yield f"{name} turns the pair in hole {a}", 0.5


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="upref demo", description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", choices=("cpython", "micropython"), default="cpython")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cards", type=int, default=2, help="cards to win (short game)")
    ap.add_argument("--plain", action="store_true", help="print lines even on a terminal")
    args = ap.parse_args(argv)
    console = Console()
    live_view = console.is_terminal and not args.plain
    with tempfile.TemporaryDirectory(prefix="upref-demo-") as tmp:
        t = Path(tmp)
        os.environ["UPREF_RUNTIME_DIR"] = str(t / "run")
        with SimBoard(backend=args.backend, seed=args.seed, name="demo", flash_dir=t / "flash") as board:
            link = Link(board.port)
            try:
                return _game(board, link, t, args, console, live_view)
            finally:
                link.close()


def _game(board: SimBoard, link: Link, tmp: Path, args: argparse.Namespace, console: Console, live_view: bool) -> int:
    codes = CodeTable.load()
    registry = TagRegistry(tmp / "registry.sqlite")
    uid_of = enrol_all(registry)
    referee = UpDownReferee(codes, registry, settle_s=0.8)
    variant = Variant(short_game_target=args.cards)
    log = GameLog.create(tmp / "games.sqlite", players=PLAYERS, variant=variant, seed=args.seed, config=referee.config())
    referee.attach(log)
    lines: list[str] = []

    def note(_inp: Input, reply: Reply) -> None:
        for v in reply.public:
            lines.append(verdict_line(v))
            if not live_view:
                print("   " + verdict_line(v), flush=True)

    table = Table(link, referee, codes, on_reply=note)
    table.wait_for_picture()
    say: Callable[[str], None] = (lambda s: None) if live_view else (lambda s: print(s, flush=True))
    say(f"simulated board on {board.port}; {len(uid_of)} task cards enrolled; players {', '.join(PLAYERS)}")
    table.send(StartGame(PLAYERS, variant, args.seed, table.clock()))
    deadline = time.monotonic() + 600
    if live_view:
        with Live(render(table, []), console=console, refresh_per_second=8) as live:
            for _what, pause in players(board, table, uid_of):
                end = time.monotonic() + pause
                while time.monotonic() < end:
                    table.pump(0.1)
                    live.update(render(table, []))
                if time.monotonic() > deadline:
                    break
            table.pump(1.0)
            live.update(render(table, []))
    else:
        for what, pause in players(board, table, uid_of):
            if what:
                say(what)
            table.pump(pause)
            if time.monotonic() > deadline:
                break
        table.pump(1.0)
    table.close()
    view = referee.view(None)
    status = referee.status()
    if not live_view and view is not None:
        print()
        print(scoreboard_text(view, status))
    outcome = view.get("outcome") if view else None
    illegal = sum(1 for ln in lines if ln.startswith("[illegal"))
    solved = sum(1 for ln in lines if ln.startswith("[solved"))
    console.print(
        f"\ngame log {log.path} (game {log.game_id}): {len(log.entries())} entries; "
        f"{illegal} illegal move(s) corrected, {solved} card(s) solved; link: {link.counters.frames} frames, "
        f"{link.counters.crc} CRC errors"
    )
    return 0 if outcome else 1


if __name__ == "__main__":
    sys.exit(main())
