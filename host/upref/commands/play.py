"""`upref play GAME PLAYER...`: referee a game at the table.

The board's events flow through the link into the board model; each observation becomes a
referee input, committed to the game log before the referee acts on it; the verdicts go to the
scoreboard and, as LED colours and beeps, back to the board. Keys on the host enter what no
sensor sees; the scoreboard's last line says which keys mean something now (the game's own,
u undo, e end the game, n next game) and q quits (the game stays saved: --resume continues it;
quitting says so). A key that asks a question (a gift's recipients) shows its default: Enter
accepts it, Esc cancels; `e` asks first whether to end the game (y ends it).

Before a new game starts, `play` says which games of the log are still unfinished (and how to
continue or close each), and warns when no piece of the game is enrolled in the tag book.
The tag book is only read; the game log is checked to be an upref log before anything is
written to it. Options may come anywhere: before the game, between or after the players.

The game is found by name in the registry (`upref.registry`); nothing here knows one game from
another.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import select
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import NoReturn

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.text import Text

from upref.board.codes import CodeTable
from upref.commands.speech_option import add_speech_options, speak_argv, start_speaker
from upref.commands.web_option import add_web_option, page_error, start_page, web_argv
from upref.game import Game
from upref.link.connection import Link, LinkSettings
from upref.link.errors import LinkError
from upref.referee.base import KeyOffer, Referee, Reply
from upref.referee.inputs import Input, StartGame
from upref.referee.status import Verdict
from upref.registry import UnknownGame, find_game, games, referee_for, titles
from upref.speech.speaker import Speaker
from upref.store.gamelog import GameLog, GameLogError, check_writable, default_path, list_games
from upref.store.replay import resume
from upref.store.tags import TagBook, TagBookError
from upref.table import Table
from upref.text import count
from upref.views import plain, terminal
from upref.views.blocks import Scoreboard
from upref.views.scoreboard import scoreboard, waiting_scoreboard
from upref.web.live import LivePage

__all__ = ["KeyBoard", "main", "open_table", "render", "scoreboard_for", "verdict_line"]

QUIT = "q"
_NAME_THE_PLAYERS = (
    "name the players in seat order, the one who begins first: upref play {game} Ann Bob Cy"
)


def _parser(
    game: Game | None, cls: type[argparse.ArgumentParser] = argparse.ArgumentParser
) -> argparse.ArgumentParser:
    names = ", ".join(g.name for g in games())
    if game is None:
        listed = "\n".join(f"  {g.name:<10} {g.title}" for g in games())
        epilog = (
            f"games:\n{listed}\n\n`upref play GAME --help` shows that game's own options "
            "(its variants) as well."
        )
    else:
        epilog = f"These are the options of {game.title}; `upref play --help` lists every game."
    ap = cls(
        prog="upref play",
        description=__doc__.split("\n\n")[0],
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("game", help=f"the game: {names}")
    ap.add_argument("players", nargs="*", help="players' names in seat order (who begins first)")
    ap.add_argument("--port", help="the board's port or pyserial URL (default: find it)")
    ap.add_argument("--resume", action="store_true", help="continue the last unfinished game")
    ap.add_argument(
        "--game-id",
        type=int,
        metavar="ID",
        help="with --resume: the unfinished game to continue (default: the newest)",
    )
    ap.add_argument("--hints", action="store_true", help="allow the hint key (where the game has hints)")
    ap.add_argument("--seed", type=int, help="seed of the shuffles (default: random)")
    ap.add_argument("--settle", type=_settle, default=1.0, metavar="SECONDS", help="seconds the table must be still before a turn ends by itself")
    ap.add_argument("--db", type=Path, help="games database (default: the user's data folder)")
    ap.add_argument(
        "--tags", type=Path, metavar="PATH", help="the tags `upref enroll` wrote (default: the user's data folder)"
    )
    # the option's old name, still understood; --help shows only --tags
    ap.add_argument("--registry", dest="tags", type=Path, metavar="PATH", help=argparse.SUPPRESS)
    ap.add_argument("--plain", action="store_true", help="print verdicts as lines, no live scoreboard")
    add_web_option(ap)
    add_speech_options(ap)
    if game is not None:
        game.add_options(ap)
    return ap


SETTLE_MAX_S = 3600.0
"""The longest --settle: an hour of stillness before a turn ends by itself."""
NAME_MAX = 40
"""The longest player's name (the scoreboard's columns, a verdict's line)."""


def _settle(text: str) -> float:
    """A `--settle` value: seconds, from 0 to `SETTLE_MAX_S`.

    :raises argparse.ArgumentTypeError: for anything else (negative, nan, inf, not a number).
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= SETTLE_MAX_S:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of seconds from 0 to {SETTLE_MAX_S:g}"
        )
    return value


def check_players(game: Game, names: list[str]) -> None:
    """The players' names as a game can take them: as many as the game is for, each one
    printable text of at most `NAME_MAX` characters, no name twice (in any case).

    :raises ValueError: saying which name is wrong and what to do.
    """
    fewest, most = game.players
    if not fewest <= len(names) <= most:
        raise ValueError(
            f"{game.title} is for {fewest} to {most} players, not {len(names)}: "
            + _NAME_THE_PLAYERS.format(game=game.name)
        )
    seen: dict[str, str] = {}
    for name in names:
        shown = name if len(name) <= NAME_MAX else name[:NAME_MAX] + "…"
        if not name.strip():
            raise ValueError(f"a player's name is empty: {_NAME_THE_PLAYERS.format(game=game.name)}")
        if len(name) > NAME_MAX:
            raise ValueError(
                f"the player's name {shown!r} is {len(name)} characters long: give at most "
                f"{NAME_MAX}"
            )
        if not name.isprintable():
            raise ValueError(
                f"the player's name {shown!r} holds a character that cannot be shown: give "
                "letters, digits, spaces and punctuation"
            )
        key = name.strip().casefold()
        if key in seen:
            raise ValueError(
                f"two players are called {name!r}: give each player a name of their own "
                "(Ann2, Ann B)"
            )
        seen[key] = name


def check_new_game(game: Game, args: argparse.Namespace) -> None:
    """What a new game needs from the command line, checked before any board is opened: the
    players (see `check_players`) and the variant the game's options make.

    :raises ValueError: saying what is wrong.
    """
    check_players(game, list(args.players))
    try:
        game.variant_from_args(args)
    except ValueError as exc:
        raise ValueError(f"{game.title} cannot be played so: {exc}") from None


class _ProbeFailed(Exception):
    pass


class _Probe(argparse.ArgumentParser):
    """A parser that raises instead of printing usage and exiting, and has no --help of its
    own (the game's real parser answers it): for trying a game's options."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> NoReturn:
        raise _ProbeFailed(message)


def parse_for_game(
    argv: list[str],
    build: Callable[[Game | None, type[argparse.ArgumentParser]], argparse.ArgumentParser],
) -> tuple[Game, argparse.Namespace]:
    """The game named by the `game` positional of `build`'s parser, and the arguments parsed
    with that game's own options too. Options may come anywhere, even before the game's name
    with a value (`--short 2 updown Ann`): each game's parser is tried, and the one that finds
    its own name in the game's place wins.

    :raises UnknownGame: for a game that is not registered.
    """
    for g in games():
        try:
            ns, _ = build(g, _Probe).parse_known_intermixed_args(argv)
        except _ProbeFailed:
            continue
        if isinstance(ns.game, str) and _is(ns.game, g):
            return g, build(g, argparse.ArgumentParser).parse_intermixed_args(argv)
    try:
        ns, _ = build(None, _Probe).parse_known_intermixed_args(argv)
    except _ProbeFailed:
        ns = None
    if ns is not None and isinstance(ns.game, str):
        game = find_game(ns.game)  # raises UnknownGame, naming the games
    else:
        # no game named: the help (or the usage error) of every game at once, not of one
        build(None, argparse.ArgumentParser).parse_intermixed_args(argv)
        game = games()[0]
    # the game's own parser says what is wrong (usage, exit 2)
    return game, build(game, argparse.ArgumentParser).parse_intermixed_args(argv)


def _is(name: str, game: Game) -> bool:
    try:
        return find_game(name) is game
    except UnknownGame:
        return False


def parse(argv: list[str]) -> tuple[Game, argparse.Namespace]:
    """The game and the options, which may come before, between or after the players (and
    before the game's name).

    :raises UnknownGame: for a game that is not registered.
    """
    return parse_for_game(argv, _parser)


def resumed(
    game: Game, args: argparse.Namespace, tag_book: TagBook
) -> tuple[GameLog, Referee]:
    """The unfinished game --resume continues, its referee rebuilt from the log (no board
    needed: a log that cannot be read is refused before the board is opened).

    :raises GameLogError: no game to resume, or a log the game cannot read (naming the file,
        game and entry).
    """
    log = _log_to_resume(game, args)
    try:
        return log, resume(log, lambda info: referee_for(info, tag_book))
    except GameLogError:
        log.close()
        raise


def open_table(
    game: Game,
    args: argparse.Namespace,
    link: Link,
    codes: CodeTable,
    tag_book: TagBook,
    resuming: tuple[GameLog, Referee] | None = None,
) -> tuple[Table, GameLog]:
    """A table with a new game started, or the last unfinished one resumed (`resuming`, from
    `resumed`, or found here).

    :raises GameLogError: --resume with no unfinished game.
    :raises ValueError: no players for a new game, or a variant the game refuses.
    """
    if args.resume:
        log, referee = resuming if resuming is not None else resumed(game, args, tag_book)
        table = Table(link, referee, codes)
        table.wait_for_picture()
        return table, log
    if not args.players:
        raise ValueError(_NAME_THE_PLAYERS.format(game=game.name))
    variant = game.variant_from_args(args)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    referee = game.referee(codes, tag_book, settle_s=args.settle, hints=args.hints, titles=titles())
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


def _log_to_resume(game: Game, args: argparse.Namespace) -> GameLog:
    """The unfinished game --resume continues (--game-id, else the newest of this game).

    :raises GameLogError: none to resume, or the id names another game or a finished one.
    """
    db = _db_words(args)
    if args.game_id is None:
        log = GameLog.open_latest(args.db, game=game.name)
        if log is None:
            raise GameLogError(
                f"there is no unfinished {game.title} game to resume: start one with "
                f"upref play {game.name} NAMES{db}"
            )
        return log
    log = GameLog.open(args.db, args.game_id)
    info = log.header
    if info.game != game.name or info.status != "playing":
        log.close()
        if info.game != game.name:
            raise GameLogError(
                f"game {info.id} in {log.path} is not {game.title} but {info.game}: "
                f"upref play {info.game} --resume --game-id {info.id}{db}"
            )
        raise GameLogError(
            f"game {info.id} in {log.path} is finished: `upref replay{db} --game {info.id}` "
            "shows its verdicts; start a new game with "
            f"upref play {game.name} NAMES{db}"
        )
    return log


def _db_words(args: argparse.Namespace) -> str:
    """' --db PATH' when the log is not the default one (for commands we tell people)."""
    return f" --db {args.db}" if args.db is not None else ""


def unfinished_notice(game: Game, args: argparse.Namespace) -> list[str]:
    """Lines that name the games of the log still unfinished, each with how to continue it,
    and how to close one (empty: none). Reads the log only.

    :raises GameLogError: a log that is not an upref log, or is damaged.
    """
    db_path = args.db if args.db is not None else default_path(create=False)
    open_games = [g for g in list_games(db_path) if g.status == "playing"]
    if not open_games:
        return []
    db = _db_words(args)
    n = len(open_games)
    lines = [
        f"upref play: {count(n, 'game log')} in {db_path} {'is' if n == 1 else 'are'} unfinished "
        "(the new game leaves them as they are):"
    ]
    for g in open_games:
        title = titles().get(g.game, g.game)
        when = datetime.fromtimestamp(g.created).strftime("%Y-%m-%d %H:%M")
        lines.append(
            f"  log {g.id}: {title}, {', '.join(g.players)}, started {when}; continue it with "
            f"upref play {g.game} --resume --game-id {g.id}{db}"
        )
    lines.append("  To close one for good, continue it and press e (end the game).")
    return lines


def empty_book_notice(game: Game, tag_book: TagBook) -> str | None:
    """A warning when none of the game's tagged pieces is enrolled (None: some are, or the
    game has none)."""
    items = [item for item, _ in game.items()]
    if not items or tag_book.items(game.name):
        return None
    return (
        f"upref play: no {game.title} piece is enrolled in the tag book {tag_book.path}: "
        f"every card tapped will be refused as not enrolled. Enrol them first with "
        f"`upref enroll {game.name}` (Ctrl-C now), or play on and enrol later."
    )


def saved_notice(game: Game, log: GameLog, args: argparse.Namespace) -> str:
    """What `q` (or Ctrl-C) leaves behind: the game saved, and how to go on with it."""
    db = _db_words(args)
    try:
        info = log.header
    except GameLogError:
        return f"The game log is {log.path}."
    if info.status == "playing":
        return (
            f"Log {info.id} is saved in {log.path}: `upref play {game.name} --resume{db}` "
            "continues it where it was."
        )
    where = f" {args.db}" if args.db is not None else ""
    return (
        f"Log {info.id} is over and saved in {log.path}: `upref replay{where} --game {info.id}` "
        "shows its verdicts."
    )


def verdict_line(v: Verdict) -> str:
    text = v.text + (f"  -> {v.correction}" if v.correction and v.correction not in v.text else "")
    return f"[{v.kind}{' ' + v.rule if v.rule else ''}] {text}"


CONFIRM: dict[str, str] = {"e": "End the game now? y ends it, Enter or n plays on"}
"""Keys that ask before they act: the key -> the question (the default answer is no)."""
YES = ("y", "yes")


@dataclass(frozen=True)
class LocalKey:
    """A key the host itself answers (no input for the referee): it asks `prompt` with
    `default()` offered, and `act(answer)` returns the text to show to one player only."""

    key: str
    label: str
    prompt: str
    default: Callable[[], str]
    act: Callable[[str], str]


def page_key(page: LivePage, table: Table, private: Private) -> LocalKey:
    """w: the link to one player's own page, shown in the panel for one player's eyes only."""

    def default() -> str:
        view = table.referee.view(None)
        if view is not None and view.to_move is not None:
            return view.names[view.to_move]
        return page.hub.seats[0] if page.hub.seats else ""

    def act(answer: str) -> str:
        names = [n.lower() for n in page.hub.seats]
        if answer.strip().lower() not in names:
            text = f"No player {answer!r}: the players are {', '.join(page.hub.seats)}."
        else:
            seat = names.index(answer.strip().lower())
            text = f"{page.hub.seats[seat]}'s own page (for your eyes only): {page.seat_url(seat)}"
        private.show(text)
        return text

    return LocalKey("w", "a player's own web page", "Whose page?", default, act)


PRIVATE_S = 20.0
"""How long the panel for one player's eyes stays on the shared screen (a key clears it too)."""


@dataclass
class Private:
    """What one player alone may read (the link to their own page, a verdict for one seat): on
    the shared screen until the next key, or for PRIVATE_S seconds, whichever comes first."""

    lines: list[str] = field(default_factory=list)
    shown: float = 0.0
    clock: Callable[[], float] = time.monotonic

    def show(self, text: str) -> None:
        self.lines[:] = [text]
        self.shown = self.clock()

    def clear(self) -> None:
        self.lines.clear()

    def current(self) -> list[str]:
        if self.lines and self.clock() - self.shown > PRIVATE_S:
            self.lines.clear()
        return self.lines


@dataclass
class KeyBoard:
    """Keys at the host: a key the referee offers sends its input; one with a prompt first
    collects an answer (shown with its default; Enter sends, Esc cancels, Backspace erases);
    a key in `CONFIRM` (e: end the game) first asks, and acts only on y."""

    table: Table
    asking: KeyOffer | None = None
    typed: str = ""
    notes: list[str] = field(default_factory=list)
    confirming: bool = False
    local: tuple[LocalKey, ...] = ()
    asking_local: LocalKey | None = None
    private: Private | None = None

    def offers(self) -> tuple[KeyOffer, ...]:
        return self.table.referee.keys_now()

    def key_line(self) -> tuple[tuple[str, str], ...]:
        """(key, what it does) for the scoreboard's last line."""
        if self.asking is not None and self.confirming:
            return (("y", self.asking.label), ("Enter", "play on"))
        if self.asking is not None or self.asking_local is not None:
            return (("Enter", f"send {self.answer()!r}"), ("Esc", "cancel"))
        return (
            *((o.key, o.label) for o in self.offers()),
            *((k.key, k.label) for k in self.local),
            (QUIT, "quit"),
        )

    def answer(self) -> str:
        if self.typed:
            return self.typed
        if self.asking_local is not None:
            return self.asking_local.default()
        return (self.asking.default or "") if self.asking else ""

    def prompt_line(self) -> str | None:
        if self.asking_local is not None:
            return f"{self.asking_local.prompt} [{self.asking_local.default()}] > {self.typed}"
        if self.asking is None:
            return None
        return f"{self.asking.prompt} [{self.asking.default or ''}] > {self.typed}"

    def _press_local(self, k: str) -> None:
        lk = self.asking_local
        assert lk is not None
        if k in ("\r", "\n"):
            answer = self.answer()
            self.asking_local, self.typed = None, ""
            lk.act(answer)  # shows its text to one player only (the private panel)
        elif k == "\x1b":
            self.asking_local, self.typed = None, ""
        elif k in ("\x7f", "\b"):
            self.typed = self.typed[:-1]
        elif k.isprintable():
            self.typed += k

    def press(self, k: str) -> bool:
        """One key; False for quit."""
        self.notes.clear()  # a note lasts until the next key
        if self.private is not None and self.asking_local is None:
            self.private.clear()  # one player's secret leaves the shared screen at the next key
        if self.asking_local is not None:
            self._press_local(k)
            return True
        if self.asking is not None:
            offer = self.asking
            if self.confirming and k.lower() in YES + ("n",) and not self.typed:
                self.typed = k  # one key answers the question
                k = "\r"
            if k in ("\r", "\n"):
                self.asking, answer, self.typed = None, self.answer(), ""
                if not self.confirming:
                    self.table.send(offer.make(self.table.clock(), answer))
                elif answer.strip().lower() in YES:
                    self.table.send(offer.make(self.table.clock(), None))
                else:
                    self.notes.append(f"Not done ({offer.label}): the game goes on.")
                self.confirming = False
            elif k == "\x1b":
                self.asking, self.typed, self.confirming = None, "", False
            elif k in ("\x7f", "\b"):
                self.typed = self.typed[:-1]
            elif k.isprintable():
                self.typed += k
            return True
        if k == QUIT:
            return False
        for lk in self.local:
            if lk.key == k:
                self.asking_local, self.typed = lk, ""
                return True
        for offer in self.offers():
            if offer.key == k:
                if offer.key in CONFIRM and offer.prompt is None:
                    self.asking, self.typed, self.confirming = (
                        replace(offer, prompt=CONFIRM[offer.key], default="n"),
                        "",
                        True,
                    )
                elif offer.prompt is not None:
                    self.asking, self.typed = offer, ""
                else:
                    self.table.send(offer.make(self.table.clock(), None))
                break
        else:
            if k.isprintable() and not k.isspace():
                self.notes.append(self._not_now(k))
        return True

    def _not_now(self, k: str) -> str:
        """Why a key does nothing now, in one line."""
        if k == "h" and not getattr(self.table.referee, "hints", True):
            return "Hints are off: start upref play with --hints to have them."
        if k == "n":
            return "n (the next game) applies once this game is over: e ends it first."
        if k == "u":
            return "Nothing to undo now."
        if k == "e":
            return "No game is on to end."
        return f"The key {k!r} does nothing now: the keys that apply are on the last line."


def scoreboard_for(game: Game, table: Table, keys: tuple[tuple[str, str], ...] = ()) -> Scoreboard:
    """The table's scoreboard as blocks (`upref.views.blocks.Scoreboard`)."""
    view = table.referee.view(None)
    status = table.referee.status()
    if view is None:
        return waiting_scoreboard(game.name, game.title, status, keys, game.panel)
    return scoreboard(view, status, game.panel, keys=keys)


def render(game: Game, table: Table, private: list[str], kb: KeyBoard | None = None) -> RenderableType:
    keys = kb.key_line() if kb is not None else ()
    board = scoreboard_for(game, table, keys)
    body = terminal.render(board)
    parts: list[RenderableType] = [body]
    if kb is not None and (ask := kb.prompt_line()) is not None:
        parts.append(Panel(Text(ask, style="bold"), title="answer"))
    if kb is not None and kb.notes:
        parts.append(Text("\n".join(kb.notes)))
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


def main(argv: list[str] | None = None, *, opener: Callable[..., Link] = Link) -> int:
    args_in = speak_argv(web_argv(list(sys.argv[1:] if argv is None else argv)))
    try:
        game, args = parse(args_in)
    except UnknownGame as e:
        print(f"upref play: {e}", file=sys.stderr)
        return 2
    if not args.resume and not args.players:
        print(f"upref play: {_NAME_THE_PLAYERS.format(game=game.name)}", file=sys.stderr)
        return 2
    if not args.resume:
        try:
            check_new_game(game, args)
        except ValueError as e:
            print(f"upref play: {e}", file=sys.stderr)
            return 2
    console = Console()
    codes = CodeTable.load()
    try:
        tag_book = TagBook(args.tags, read_only=True)
    except TagBookError as e:
        print(f"upref play: {e}", file=sys.stderr)
        return 1
    notices: list[str] = []
    db_path = args.db if args.db is not None else default_path(create=False)
    resuming: tuple[GameLog, Referee] | None = None
    try:  # the log first: refused now, before the board is opened
        if not args.resume:
            notices = unfinished_notice(game, args)
        if db_path.exists():
            GameLog.prepare(args.db)
        elif not args.resume:  # created only once the game can start
            check_writable(args.db if args.db is not None else _data_folder_path())
        if args.resume:
            resuming = resumed(game, args, tag_book)
    except GameLogError as e:
        print(f"upref play: {e}", file=sys.stderr)
        tag_book.close()
        return 1
    if not args.resume:
        if (empty := empty_book_notice(game, tag_book)) is not None:
            notices.append(empty)
        for line in notices:
            print(line, file=sys.stderr, flush=True)
    try:
        since = since_of(resuming[0]) if resuming is not None else None
        # a resumed game's link asks the board for what it sensed meanwhile before its first
        # snapshot, so that every event comes before the picture that follows it
        link = opener(args.port) if since is None else opener(args.port, LinkSettings(since=since))
    except LinkError as e:
        print(f"upref play: {e}", file=sys.stderr)
        if resuming is not None:
            resuming[0].close()
        tag_book.close()
        return 1
    try:
        try:
            table, log = open_table(game, args, link, codes, tag_book, resuming)
        except (GameLogError, LinkError) as e:
            print(f"upref play: {e}", file=sys.stderr)
            return 1
        except ValueError as e:
            print(f"upref play: {e}", file=sys.stderr)
            return 2
        print(
            f"{game.title}: saved as log {log.game_id} in {log.path} (the log's number, for "
            "--game-id and replay; the scoreboard numbers the games of the match)",
            file=sys.stderr,
        )
        live = console.is_terminal and not args.plain
        page: LivePage | None = None
        if args.web is not None:
            try:
                page = start_page(game, table, args.web, log.header.players, str(log.game_id))
            except (ValueError, OSError) as e:
                print(f"upref play: {page_error(args.web, e)}", file=sys.stderr)
                table.close()
                print(saved_notice(game, log, args), file=sys.stderr)
                return 1
        speaker = start_speaker(args)
        try:
            status = _loop(game, table, console, live, page, speaker)
        except GameLogError as e:
            print(f"upref play: {e}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:  # a second Ctrl-C while the table closed: quit all the same
            status = 0
        finally:
            if page is not None:
                page.stop()
            if speaker is not None:
                speaker.close(5.0)
        print(saved_notice(game, log, args), file=sys.stderr)
        return status
    finally:
        link.close()
        tag_book.close()


def _data_folder_path() -> Path:
    """The default games database's path, its folder (upref's own) made if need be.

    :raises GameLogError: when the folder cannot be made.
    """
    try:
        return default_path(create=True)
    except OSError as exc:
        raise GameLogError(
            f"cannot make the data folder {default_path(create=False).parent} "
            f"({exc.strerror or exc}): make its parent writable, or give --db a file in a "
            "folder you can write to"
        ) from None


def since_of(log: GameLog) -> tuple[str, int] | None:
    """(boot id, board sequence number) of the last board event the log applied, for
    `LinkSettings(since=...)`; None when the log has none."""
    for entry in reversed(log.entries()):
        boot, seq = entry.payload.get("boot"), entry.payload.get("board_seq")
        if isinstance(boot, str) and isinstance(seq, int):
            return boot, seq
    return None


def _loop(
    game: Game,
    table: Table,
    console: Console,
    live_view: bool,
    page: LivePage | None = None,
    speaker: Speaker | None = None,
) -> int:
    private = Private()
    kb = KeyBoard(table, private=private)
    if page is not None:
        kb.local = (page_key(page, table, private),)

    def show(_inp: Input, reply: Reply) -> None:
        for v in reply.verdicts:
            if v.seat is not None:
                private.show(verdict_line(v))
            elif not live_view:
                print(verdict_line(v), flush=True)
        if page is not None:
            page.update(reply)
        if speaker is not None:  # after the scoreboard: speech never holds it up
            speaker.offer(reply)

    try:
        table.on_reply = show
        for inp, reply in table.replies:
            show(inp, reply)
        with keys() as key:
            if live_view:
                with Live(render(game, table, private.current(), kb), console=console, refresh_per_second=6) as live:
                    while _step(table, key, kb):
                        live.update(render(game, table, private.current(), kb))
            else:
                while _step(table, key, kb) and table.referee.stopped is None:
                    for note in kb.notes:
                        print(note, flush=True)
                    kb.notes.clear()
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
