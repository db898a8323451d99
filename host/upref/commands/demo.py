"""`upref demo [GAME]` (`make demo GAME=...`): a whole scripted game on the simulated board.

A simulated board starts with the unchanged firmware; every piece of the game's catalogue gets
an NFC tag in a fresh tag book; the host connects over the board's pty exactly as to a USB port
and referees. The game's scripted players (`upref.games.<game>.demo`) then do at the table what real
ones would: tap what they play, move pieces, press the button, make a mistake and put it right
when the referee says so. Every physical action flows through the firmware, the link and the
referee to the scoreboard, which ends by naming the winner. Needs no input; exits 0.

On a terminal it shows the live scoreboard; elsewhere (or with --plain) it prints the same story
as lines. The game log is kept in the data folder (`demo.sqlite`, beside the games database, one
game per run) and the last line says how to replay it; the board's flash, its runtime files and
the demo's tag book live in a temporary folder that is removed however the demo ends: Ctrl-C,
a SIGTERM or SIGHUP (a closed terminal), and, for a demo killed outright, by the next demo.
Options may come before or after the game's name.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import cast

from rich.console import Console, RenderableType
from rich.live import Live

from upref.board.codes import CodeTable
from upref.board.simtags import sim_deck, sim_uids
from upref.commands.game_option import parse_for_game
from upref.commands.lang_option import add_lang_option, chosen_lang, said, said_error
from upref.commands.scripted import DEADLINE_S, enrol_all
from upref.commands.speech_option import add_speech_options, speak_argv, start_speaker
from upref.commands.tag_lookup import tags_and_records
from upref.commands.web_option import add_web_option, page_error, start_page, web_argv
from upref.game import Demo, Game
from upref.link.connection import Link
from upref.paths import data_dir, pid_alive
from upref.referee.inputs import StartGame
from upref.registry import UnknownGame, games, titles
from upref.sim.board import SimBoard, SimSettings
from upref.speech.speaker import Speaker
from upref.store.gamelog import GameLog, GameLogError, LogStopped
from upref.store.tags import TagBook, TagBookError
from upref.table import Table
from upref.text import ENGLISH, Msg, Plural, in_lang
from upref.views import plain
from upref.views.frame import Frame
from upref.views.screen import render, scoreboard_for, verdict_line
from upref.web.live import LivePage

__all__ = ["DemoSettings", "enrol_all", "log_path", "main", "run_game", "sweep_stale_folders"]

def _parser(
    game: Game | None = None, cls: type[argparse.ArgumentParser] = argparse.ArgumentParser
) -> argparse.ArgumentParser:
    names = [g.name for g in games() if g.demo is not None]
    ap = cls(
        prog="upref demo",
        description=said(Msg("`upref demo [GAME]`: a whole game on a simulated board, scripted.")),
        epilog=_other_games_options(game),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "game",
        nargs="?",
        default=names[0],
        help=said(Msg("the game ({names}; default {first})", names=", ".join(names), first=names[0])),
    )
    ap.add_argument(
        "--backend",
        choices=("cpython", "micropython"),
        default="cpython",
        help=said(Msg("what runs the simulated board's firmware (default cpython)")),
    )
    ap.add_argument(
        "--seed", type=int, help=said(Msg("the board's and the game's seed (default: the demo's own)"))
    )
    ap.add_argument("--plain", action="store_true", help=said(Msg("print lines even on a terminal")))
    ap.add_argument(
        "--no-tag-book",
        action="store_true",
        help=said(
            Msg("enrol nothing: every piece is known by the record its sticker carries (docs/tags.md)")
        ),
    )
    add_web_option(ap)
    add_speech_options(ap)
    add_lang_option(ap)
    ap.add_argument(
        "--linger",
        type=_seconds,
        metavar="SECONDS",
        help=said(
            Msg(
                "with --web: keep serving the final picture this long after the game "
                "(default: until Ctrl-C on a terminal, 0 otherwise)"
            )
        ),
    )
    if game is not None:
        own = ap.add_argument_group(
            said(Msg("{title}'s own options (upref demo {game})", title=game.title, game=game.name))
        )
        game.add_options(cast(argparse.ArgumentParser, own))  # a group takes add_argument alike
    return ap


def _other_games_options(shown: Game | None) -> str:
    """Each other game with a demo and the options of its own (its variants), as `--help`
    lists them below the game it shows (`shown`, whose options are a group of their own):
    what `upref demo GAME --OPTION` takes."""
    heading = Msg("every game's own options") if shown is None else Msg("the other games' own options")
    parts = [said(Msg("{heading} (upref demo GAME --OPTION ...):", heading=heading))]
    for g in games():
        if g.demo is None or g is shown:
            continue
        probe = argparse.ArgumentParser(prog=f"upref demo {g.name}", add_help=False,
                                        usage=argparse.SUPPRESS)
        g.add_options(probe)
        listed = probe.format_help().strip().splitlines()[1:]  # below its "options:" heading
        parts.append(f"\n{g.title} (upref demo {g.name}):")
        parts.extend(listed or ["  " + said(Msg("no options of its own"))])
    return "\n".join(parts)


def _seconds(text: str) -> float:
    """A `--linger` value: seconds, 0 or more.

    :raises argparse.ArgumentTypeError: for anything else.
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (0 <= value < math.inf):
        raise argparse.ArgumentTypeError(
            said(Msg("{text!r} is not a number of seconds (0 or more)", text=text))
        )
    return value


def linger(
    seconds: float | None,
    url: str,
    interactive: bool,
    say: Callable[[str], None],
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Keep the process (and so the page's server) up after the game, so that a TV keeps the
    final picture: `seconds`, or with None until Ctrl-C when `interactive`, else not at all."""
    if seconds is None:
        seconds = math.inf if interactive else 0.0
    if seconds <= 0:
        return
    if seconds == math.inf:
        say(said(Msg("The page {url} keeps showing the final picture: Ctrl-C to stop.", url=url)))
    else:
        say(
            said(
                Msg(
                    "The page {url} keeps showing the final picture for {seconds:g} s (Ctrl-C "
                    "stops it).",
                    url=url,
                    seconds=seconds,
                )
            )
        )
    try:
        while seconds > 0:
            step = min(seconds, 0.5)
            sleep(step)
            seconds -= step
    except KeyboardInterrupt:
        pass


TEMP_PREFIX = "upref-demo-"
_PID_FILE = "demo.pid"


def log_path() -> Path:
    """Where the demo keeps its game log: `demo.sqlite` in the data folder."""
    return data_dir() / "demo.sqlite"


def sweep_stale_folders(parent: Path | None = None) -> list[Path]:
    """Remove the temporary folders of demos that were killed outright (their process is
    gone); the folders removed."""
    base = Path(parent) if parent is not None else Path(tempfile.gettempdir())
    removed = []
    for folder in base.glob(TEMP_PREFIX + "*"):
        try:
            pid = int((folder / _PID_FILE).read_text().strip())
        except (OSError, ValueError):
            continue  # not ours, or still being set up
        if pid != os.getpid() and not pid_alive(pid):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


@contextlib.contextmanager
def _ended_by_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP end the demo as Ctrl-C does, through every `finally` (the simulated
    board stopped, the temporary folder removed), instead of killing it where it stands."""

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    old = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def main(argv: list[str] | None = None) -> int:
    args_in = speak_argv(web_argv(list(sys.argv[1:] if argv is None else argv)))
    try:
        game, args = parse_for_game(args_in, _parser)
    except UnknownGame as e:
        print("upref demo: " + said(said_error(e)), file=sys.stderr)
        return 2
    args.lang = chosen_lang(args, "upref demo")
    if game.demo is None:
        print(said(Msg("upref demo: {game} has no demo yet", game=game.title)), file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else game.demo.seed
    console = Console()
    live_view = console.is_terminal and not args.plain
    sweep_stale_folders()
    with _ended_by_signals(), tempfile.TemporaryDirectory(prefix=TEMP_PREFIX) as tmp:
        t = Path(tmp)
        (t / _PID_FILE).write_text(str(os.getpid()))
        os.environ["UPREF_RUNTIME_DIR"] = str(t / "run")
        try:
            keep: Path | None = log_path()
        except OSError as exc:
            print(
                "upref demo: "
                + said(
                    Msg(
                        "cannot keep the game log in the data folder ({why}); it goes to a "
                        "temporary folder and is removed at the end",
                        why=str(exc),
                    )
                ),
                file=sys.stderr,
            )
            keep = None
        try:  # the log first: a full disk is told before any board starts
            log = _create_log(game, args, seed, keep if keep is not None else t / "games.sqlite")
        except GameLogError as exc:
            print(f"upref demo: {_log_trouble(exc)}", file=sys.stderr)
            return 1
        with SimBoard(SimSettings(backend=args.backend, seed=seed, name="demo", flash_dir=t / "flash")) as board:
            link = Link(board.port)
            try:
                settings = DemoSettings(t, args, console, live_view, seed, log_path=keep, log=log)
                return run_game(game, board, link, settings)
            finally:
                link.close()
                log.close()


def _log_trouble(exc: GameLogError) -> str:
    """The log's message, with the demo's own way out (it has no --db: the data folder)."""
    english = Msg("or give --db a file in a folder you can write to")
    instead = Msg("or set UPREF_DATA_DIR to a folder you can write to")
    text = said(said_error(exc))
    return text.replace(said(english), said(instead)).replace(english, said(instead))


def _stopped_words(game: Game, exc: LogStopped) -> str:
    """The line that says the demo stopped because its log cannot be written, and what to do
    (a demo is not resumed: its simulated board is gone with it)."""
    return said(
        Msg(
            "the game log {path} cannot be written ({why}), so the demo stops here: free some "
            "space on that disk (or set UPREF_DATA_DIR to a folder with room), then run "
            "`upref demo {game}` again",
            path=exc.path,
            why=exc.why,
            game=game.name,
        )
    )


def _create_log(game: Game, args: argparse.Namespace, seed: int, path: Path) -> GameLog:
    """The demo's game row in `path`, with what a replay needs.

    :raises GameLogError: when it cannot be written (a full disk, a read-only folder).
    """
    demo = game.demo
    assert demo is not None, f"{game.name} has no demo"
    referee = game.referee(CodeTable.load(), None, titles=titles(), **demo.settings)
    return GameLog.create(
        path,
        game=game.name,
        players=demo.players,
        variant=demo.variant(args).to_dict(),
        seed=seed,
        config=referee.config(),
    )


@dataclass(frozen=True)
class DemoSettings:
    """How one demo is played and shown (`run_game`): `folder` holds its tag book; `args` are
    the command line's options (the variant, the page, the voice, the linger); `console` takes
    the closing figures, and the live scoreboard when `live_view`; `seed` is the deal's (None:
    the demo's own); the game is logged to `log` when it is already created (see `main`), else
    to a new one at `log_path` (None: `folder/games.sqlite`)."""

    folder: Path
    args: argparse.Namespace
    console: Console
    live_view: bool = False
    seed: int | None = None
    log_path: Path | None = None
    log: GameLog | None = None


def run_game(game: Game, board: SimBoard, link: Link, settings: DemoSettings) -> int:
    """Play the game's demo on `board` over `link`, as `settings` say; 0 when the game ended
    with a result, 1 when it did not or the log cannot be written (said in one line: a log
    that fills up during the game stops it at once)."""
    demo: Demo | None = game.demo
    assert demo is not None, f"{game.name} has no demo"
    args, log = settings.args, settings.log
    seed = demo.seed if settings.seed is None else settings.seed
    codes = CodeTable.load()
    tag_book: TagBook | None = None
    board.carry(sim_deck({game.name: tuple(game.items())}))  # every sticker names its piece
    try:
        if getattr(args, "no_tag_book", False):
            uid_of = sim_uids(game.name, game.items())
        else:
            tag_book = TagBook(settings.folder / "tags.sqlite")
            uid_of = enrol_all(game, tag_book)
    except TagBookError as exc:  # its temporary folder's disk is full
        print("upref demo: " + said(said_error(exc)), file=sys.stderr)
        return 1
    referee = game.referee(codes, tags_and_records(game.name, tag_book), titles=titles(), **demo.settings)
    if log is None:
        path = settings.log_path if settings.log_path is not None else settings.folder / "games.sqlite"
        try:
            log = _create_log(game, args, seed, path)
        except GameLogError as exc:
            print(f"upref demo: {_log_trouble(exc)}", file=sys.stderr)
            return 1
    referee.attach(log)
    screens = _Screens(settings.live_view, start_speaker(args), _lang(args))
    table = Table(link, referee, codes, on_frame=screens.show)
    try:
        return _at_table(game, board, link, table, screens, uid_of, settings, log)
    except LogStopped as exc:  # at once: the players are not left tapping what is not judged
        table.close()
        screens.close(0.0, settings.console)
        log.close()
        print(f"upref demo: {_stopped_words(game, exc)}", file=sys.stderr)
        return 1


def _at_table(
    game: Game,
    board: SimBoard,
    link: Link,
    table: Table,
    screens: _Screens,
    uid_of: dict[str, str],
    settings: DemoSettings,
    log: GameLog,
) -> int:
    """The demo's game at the table, from the board's first picture to the summary.

    :raises LogStopped: when the log cannot take an input (nothing more is done).
    """
    demo = game.demo
    assert demo is not None, f"{game.name} has no demo"
    args, console, live_view = settings.args, settings.console, settings.live_view
    table.wait_for_picture()
    address = getattr(args, "web", None)
    if address is not None and not screens.serve(game, table, address, demo.players, log):
        table.close()
        log.close()
        return 1
    lang = _lang(args)
    say: Callable[[str], None] = (
        (lambda s: None) if live_view else (lambda s: print(in_lang(s, lang), flush=True))
    )
    say(
        Msg(
            "simulated board on {port}; {n} {title} pieces enrolled; players {players}",
            port=board.port,
            n=len(uid_of),
            title=game.title,
            players=", ".join(demo.players),
        )
    )
    seed = demo.seed if settings.seed is None else settings.seed
    table.send(StartGame(demo.players, demo.variant(args), seed, table.clock()))
    if live_view:
        _play_live(game, demo, board, table, uid_of, (console, _lang(args)))
    else:
        _play_plain(demo, board, table, uid_of, say)
    table.close()
    if screens.page is not None:  # a page that lingers shows the demo over, not a key to press
        screens.page.update(over(game, table.frame))
    screens.close(getattr(args, "linger", None), console)
    replayable = settings.log_path is not None
    return _summary(game, table, link, log, screens, console, live_view, replayable)


@dataclass
class _Screens:
    """What follows the demo's table, frame by frame: its public verdicts as lines (printed
    when there is no live scoreboard), the live page and the voice."""

    live_view: bool
    speaker: Speaker | None
    lang: str = ENGLISH
    page: LivePage | None = None
    lines: list[str] = field(default_factory=list)

    def show(self, frame: Frame) -> None:
        for v in frame.public:
            self.lines.append(verdict_line(v))
            if not self.live_view:
                print("   " + verdict_line(v, self.lang), flush=True)
        if self.page is not None:
            self.page.update(frame)
        if self.speaker is not None:  # after the scoreboard: speech never holds it up
            self.speaker.offer(frame)

    def serve(self, game: Game, table: Table, address: str, players: tuple[str, ...], log: GameLog) -> bool:
        """Serve the live page; False (said in one line, the voice stopped) when it cannot be."""
        try:
            self.page = start_page(
                game, table, address, players, str(log.game_id), self.lang, db=log.path
            )
        except (ValueError, OSError) as e:
            print("upref demo: " + said(page_error(address, e)), file=sys.stderr)
            if self.speaker is not None:
                self.speaker.close(0)
            return False
        return True

    def close(self, linger_s: float | None, console: Console) -> None:
        """The game is over: the voice says what still waits, the page lingers, then stops."""
        if self.speaker is not None:
            self.speaker.close()  # the winner is said (or written) before the demo ends
        if self.page is not None:
            linger(
                linger_s,
                self.page.url,
                console.is_terminal and sys.stdin.isatty(),
                lambda text: console.print(text, soft_wrap=True),
            )
            self.page.stop()


def _lang(args: argparse.Namespace) -> str:
    """The language the demo's screens and voice speak (`--lang`, resolved by `main`)."""
    return getattr(args, "lang", None) or ENGLISH


def over(game: Game, frame: Frame) -> Frame:
    """The demo's last frame as the screens show it once the program ends: what the table
    waits for is nothing (its `n` for the next game would reach no one), and no keys."""
    waiting = Msg(
        "nothing: the demo is over. Play a game of your own with upref play {game} NAMES (or "
        "watch another: upref demo GAME).",
        game=game.name,
    )
    return replace(frame, status=replace(frame.status, waiting_for=waiting), keys=())


def _play_live(
    game: Game,
    demo: Demo,
    board: SimBoard,
    table: Table,
    uid_of: dict[str, str],
    where: tuple[Console, str],
) -> None:
    """The demo's script under the live scoreboard, drawn from the table's latest frame on
    `where`'s console in its language."""
    console, lang = where

    def screen() -> RenderableType:
        return render(table.frame, game.panel, [], lang=lang)

    deadline = time.monotonic() + DEADLINE_S
    with Live(screen(), console=console, auto_refresh=False) as live:
        for _what, pause in demo.script(board, table, uid_of):
            end = time.monotonic() + pause
            while (left := end - time.monotonic()) > 0:
                table.pump_until_frame(min(left, 0.1))  # drawn again at once on a new frame
                live.update(screen(), refresh=True)
            if time.monotonic() > deadline:
                break
        table.pump(1.0)
        live.update(render(over(game, table.frame), game.panel, [], lang=lang))


def _play_plain(
    demo: Demo, board: SimBoard, table: Table, uid_of: dict[str, str], say: Callable[[str], None]
) -> None:
    """The demo's script told as lines: what the players do, and the verdicts (`_Screens`)."""
    deadline = time.monotonic() + DEADLINE_S
    for what, pause in demo.script(board, table, uid_of):
        if what:
            say(what)
        table.pump(pause)
        if time.monotonic() > deadline:
            break
    table.pump(1.0)


def _summary(
    game: Game,
    table: Table,
    link: Link,
    log: GameLog,
    screens: _Screens,
    console: Console,
    live_view: bool,
    replayable: bool,
) -> int:
    """The final scoreboard (without a live one), the log and the link in figures, how to
    replay it; 0 when the game ended with a result, else 1. Closes the log."""
    view = table.frame.view
    if not live_view and view is not None:
        print()
        board = scoreboard_for(over(game, table.frame), game.panel, lang=screens.lang)
        print(plain.render(board), end="")
    illegal = sum(1 for ln in screens.lines if ln.startswith("[illegal"))
    figures = Plural(  # the English says "move(s)" for any count; a translation picks a form
        "game log {path} (log {id}): {entries} entries; {n} illegal move(s) refused and put "
        "right; link: {frames} frames, {crc} CRC errors",
        "game log {path} (log {id}): {entries} entries; {n} illegal move(s) refused and put "
        "right; link: {frames} frames, {crc} CRC errors",
        n=illegal,
        path=log.path,
        id=log.game_id,
        entries=len(log.entries()),
        frames=link.counters.frames,
        crc=link.counters.crc,
    )
    console.print("\n" + in_lang(figures, screens.lang), soft_wrap=True)
    if replayable:
        again = Msg("replay it: upref replay {path} --game {id}", path=log.path, id=log.game_id)
        console.print(in_lang(again, screens.lang), soft_wrap=True)
    log.close()
    return 0 if view is not None and view.outcome is not None else 1


if __name__ == "__main__":
    sys.exit(main())
