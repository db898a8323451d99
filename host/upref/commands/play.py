"""`upref play GAME PLAYER...`: referee a game at the table.

The board's events flow through the link into the board model; each observation becomes a
referee input, committed to the game log before the referee acts on it; the verdicts go to the
scoreboard and, as LED colours and beeps, back to the board. Keys on the host enter what no
sensor sees; the scoreboard's last line says which keys mean something now (the game's own,
u undo, e end the game, n next game) and q quits (the game stays saved: --resume continues it).
A key that asks a question (a gift's recipients) shows its default: Enter accepts it, Esc
cancels.

The game is found by name in the registry (`upref.registry`); nothing here knows one game from
another.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.text import Text

from upref.board.codes import CodeTable
from upref.link.connection import Link
from upref.link.errors import LinkError
from upref.plugins.base import Game
from upref.referee.base import KeyOffer, Reply
from upref.referee.inputs import Input, StartGame
from upref.referee.status import Verdict
from upref.registry import UnknownGame, find_game, games, referee_for, titles
from upref.store.gamelog import GameLog, GameLogError
from upref.store.replay import resume
from upref.store.tags import RegistryError, TagRegistry
from upref.table import Table
from upref.views import plain, terminal
from upref.views.blocks import Board
from upref.views.scoreboard import scoreboard, waiting_board

__all__ = ["KeyBoard", "main", "open_table", "render", "scoreboard_for", "verdict_line"]

QUIT = "q"


def _parser(game: Game | None) -> argparse.ArgumentParser:
    names = ", ".join(g.name for g in games())
    ap = argparse.ArgumentParser(prog="upref play", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help=f"the game: {names}")
    ap.add_argument("players", nargs="*", help="players' names in seat order (who begins first)")
    ap.add_argument("--port", help="the board's port or pyserial URL (default: find it)")
    ap.add_argument("--resume", action="store_true", help="continue the last unfinished game")
    ap.add_argument("--hints", action="store_true", help="allow the hint key (where the game has hints)")
    ap.add_argument("--seed", type=int, help="seed of the shuffles (default: random)")
    ap.add_argument("--settle", type=float, default=1.0, help="seconds the table must be still before a turn ends by itself")
    ap.add_argument("--db", type=Path, help="games database (default: the user's data folder)")
    ap.add_argument("--registry", type=Path, help="tag registry (default: the user's data folder)")
    ap.add_argument("--plain", action="store_true", help="print verdicts as lines, no live scoreboard")
    if game is not None:
        game.add_options(ap)
    return ap


def parse(argv: list[str]) -> tuple[Game, argparse.Namespace]:
    """The game and the options, which may come before, between or after the players.

    :raises UnknownGame: for a game that is not registered.
    """
    first = _parser(None).parse_known_args(argv)[0]
    game = find_game(first.game)
    return game, _parser(game).parse_intermixed_args(argv)


def open_table(
    game: Game, args: argparse.Namespace, link: Link, codes: CodeTable, registry: TagRegistry
) -> tuple[Table, GameLog]:
    """A table with a new game started, or the last unfinished one resumed.

    :raises GameLogError: --resume with no unfinished game.
    :raises ValueError: no players for a new game, or a variant the game refuses.
    """
    if args.resume:
        log = GameLog.open_latest(args.db, game=game.name)
        if log is None:
            raise GameLogError(
                f"there is no unfinished {game.title} game to resume: start one with "
                f"upref play {game.name} NAMES"
            )
        referee = resume(log, lambda info: referee_for(info, registry))
        table = Table(link, referee, codes)
        table.wait_for_picture()
        return table, log
    if not args.players:
        raise ValueError(
            f"name the players in seat order, the one who begins first: upref play {game.name} "
            "Ann Bob Cy"
        )
    variant = game.variant_from_args(args)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    referee = game.referee(codes, registry, settle_s=args.settle, hints=args.hints, titles=titles())
    log = GameLog.create(
        args.db,
        game=game.name,
        players=args.players,
        variant=variant.to_dict(),
        seed=seed,
        config=referee.config(),
    )
    referee.attach(log)
    table = Table(link, referee, codes)
    table.wait_for_picture()
    table.send(StartGame(tuple(args.players), variant, seed, table.clock()))
    return table, log


def verdict_line(v: Verdict) -> str:
    text = v.text + (f"  -> {v.correction}" if v.correction and v.correction not in v.text else "")
    return f"[{v.kind}{' ' + v.rule if v.rule else ''}] {text}"


@dataclass
class KeyBoard:
    """Keys at the host: a key the referee offers sends its input; one with a prompt first
    collects an answer (shown with its default; Enter sends, Esc cancels, Backspace erases)."""

    table: Table
    asking: KeyOffer | None = None
    typed: str = ""
    notes: list[str] = field(default_factory=list)

    def offers(self) -> tuple[KeyOffer, ...]:
        return self.table.referee.keys_now()

    def key_line(self) -> tuple[tuple[str, str], ...]:
        """(key, what it does) for the scoreboard's last line."""
        if self.asking is not None:
            return (("Enter", f"send {self.answer()!r}"), ("Esc", "cancel"))
        return (*((o.key, o.label) for o in self.offers()), (QUIT, "quit"))

    def answer(self) -> str:
        return self.typed if self.typed else (self.asking.default or "") if self.asking else ""

    def prompt_line(self) -> str | None:
        if self.asking is None:
            return None
        return f"{self.asking.prompt} [{self.asking.default or ''}] > {self.typed}"

    def press(self, k: str) -> bool:
        """One key; False for quit."""
        if self.asking is not None:
            offer = self.asking
            if k in ("\r", "\n"):
                self.asking, answer, self.typed = None, self.answer(), ""
                self.table.send(offer.make(self.table.clock(), answer))
            elif k == "\x1b":
                self.asking, self.typed = None, ""
            elif k in ("\x7f", "\b"):
                self.typed = self.typed[:-1]
            elif k.isprintable():
                self.typed += k
            return True
        if k == QUIT:
            return False
        for offer in self.offers():
            if offer.key == k:
                if offer.prompt is not None:
                    self.asking, self.typed = offer, ""
                else:
                    self.table.send(offer.make(self.table.clock(), None))
                break
        return True


def scoreboard_for(game: Game, table: Table, keys: tuple[tuple[str, str], ...] = ()) -> Board:
    """The table's scoreboard as blocks (`upref.views.blocks.Board`)."""
    view = table.referee.view(None)
    status = table.referee.status()
    if view is None:
        return waiting_board(game.name, game.title, status, keys)
    return scoreboard(view, status, game.panel, keys=keys)


def render(game: Game, table: Table, private: list[str], kb: KeyBoard | None = None) -> RenderableType:
    keys = kb.key_line() if kb is not None else ()
    board = scoreboard_for(game, table, keys)
    body = terminal.render(board)
    parts: list[RenderableType] = [body]
    if kb is not None and (ask := kb.prompt_line()) is not None:
        parts.append(Panel(Text(ask, style="bold"), title="answer"))
    if private:
        parts.append(Panel(Text("\n".join(private)), title="for one player's eyes only"))
    return Group(*parts) if len(parts) > 1 else body


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


def main(argv: list[str] | None = None, *, opener: Callable[[str | None], Link] = Link) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    try:
        game, args = parse(args_in)
    except UnknownGame as e:
        print(f"upref play: {e}", file=sys.stderr)
        return 2
    console = Console()
    codes = CodeTable.load()
    try:
        registry = TagRegistry(args.registry)
    except RegistryError as e:
        print(f"upref play: {e}", file=sys.stderr)
        return 1
    try:
        link = opener(args.port)
    except LinkError as e:
        print(f"upref play: {e}", file=sys.stderr)
        return 1
    try:
        try:
            table, log = open_table(game, args, link, codes, registry)
        except (GameLogError, ValueError, LinkError) as e:
            print(f"upref play: {e}", file=sys.stderr)
            return 2
        print(f"{game.title}: game {log.game_id} in {log.path}", file=sys.stderr)
        live = console.is_terminal and not args.plain
        return _loop(game, table, console, live)
    finally:
        link.close()


def _loop(game: Game, table: Table, console: Console, live_view: bool) -> int:
    private: list[str] = []
    kb = KeyBoard(table)

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
                with Live(render(game, table, private, kb), console=console, refresh_per_second=6) as live:
                    while _step(table, key, kb):
                        live.update(render(game, table, private, kb))
            else:
                while _step(table, key, kb) and table.referee.stopped is None:
                    pass
                console.print(plain.render(scoreboard_for(game, table)), end="")
    except KeyboardInterrupt:
        pass
    finally:
        table.close()
    return 0


def _step(table: Table, key: Callable[[], str | None], kb: KeyBoard | None = None) -> bool:
    table.pump(0.15)
    k = key()
    if k is None:
        return True
    return (kb or KeyBoard(table)).press(k)


if __name__ == "__main__":
    sys.exit(main())
