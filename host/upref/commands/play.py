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
import math
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from rich.console import Console, RenderableType
from rich.live import Live

from upref.board.codes import CodeTable
from upref.commands.game_option import parse_for_game
from upref.commands.keypresses import keys
from upref.commands.lang_option import add_lang_option, chosen_lang, said, said_error
from upref.commands.scripted import since_of
from upref.commands.speech_option import add_speech_options, speak_argv, start_speaker
from upref.commands.tag_lookup import tags_and_records
from upref.commands.unfinished import (
    ELSEWHERE,
    UNFINISHED,
    choose,
    describe,
    forget_abandoned,
    listed,
    same_players,
)
from upref.commands.web_option import add_web_option, page_error, start_page, web_argv
from upref.game import Game
from upref.link.connection import Link, LinkSettings
from upref.link.discovery import find_board
from upref.link.errors import LinkError
from upref.referee.base import Referee
from upref.referee.inputs import StartGame
from upref.registry import UnknownGame, games, referee_for, titles
from upref.speech.speaker import Speaker
from upref.store.gamelog import GameLog, GameLogError, check_writable, default_path
from upref.store.replay import resume
from upref.store.tags import TagBook, TagBookError
from upref.table import Table
from upref.text import ENGLISH, Msg, Plural, in_lang
from upref.views import plain
from upref.views.frame import Frame
from upref.views.keys import KeyBoard, LocalKey, Private
from upref.views.screen import render, scoreboard_for, shared_lines
from upref.web.live import LivePage

__all__ = ["left_behind", "main", "open_table", "page_key", "parse", "shared_screen"]

def _name_the_players(game: str) -> Msg:
    return Msg(
        "name the players in seat order, the one who begins first: upref play {game} Ann Bob Cy",
        game=game,
    )


def _parser(
    game: Game | None, cls: type[argparse.ArgumentParser] = argparse.ArgumentParser
) -> argparse.ArgumentParser:
    names = ", ".join(g.name for g in games())
    ap = cls(
        prog="upref play",
        description=said(Msg("`upref play GAME PLAYER...`: referee a game at the table.")),
        epilog=_epilog(game),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("game", help=said(Msg("the game: {names}", names=names)))
    ap.add_argument("players", nargs="*", help=said(Msg("players' names in seat order (who begins first)")))
    ap.add_argument("--port", help=said(Msg("the board's port or pyserial URL (default: find it)")))
    ap.add_argument(
        "--resume",
        action="store_true",
        help=said(
            Msg(
                "continue the unfinished game of the players named (without names: the one that "
                "fits the table; several are listed and asked about)"
            )
        ),
    )
    ap.add_argument(
        "--game-id",
        type=int,
        metavar="ID",
        help=said(
            Msg("with --resume: the unfinished game to continue, by its number (upref games lists them)")
        ),
    )
    ap.add_argument("--hints", action="store_true", help=said(Msg("allow the hint key (where the game has hints)")))
    ap.add_argument("--seed", type=int, help=said(Msg("seed of the shuffles (default: random)")))
    ap.add_argument(
        "--settle",
        type=_settle,
        default=1.0,
        metavar="SECONDS",
        help=said(Msg("seconds the table must be still before a turn ends by itself")),
    )
    ap.add_argument("--db", type=Path, help=said(Msg("games database (default: the user's data folder)")))
    ap.add_argument(
        "--tags",
        type=Path,
        metavar="PATH",
        help=said(Msg("the tags `upref enroll` wrote (default: the user's data folder)")),
    )
    # the option's old name, still understood; --help shows only --tags
    ap.add_argument("--registry", dest="tags", type=Path, metavar="PATH", help=argparse.SUPPRESS)
    ap.add_argument("--plain", action="store_true", help=said(Msg("print verdicts as lines, no live scoreboard")))
    add_web_option(ap)
    add_speech_options(ap)
    add_lang_option(ap)
    if game is not None:
        game.add_options(ap)
    return ap


def _epilog(game: Game | None) -> str:
    """Below the options: every game (`upref play --help`), or whose options these are."""
    if game is not None:
        return said(
            Msg("These are the options of {game}; `upref play --help` lists every game.", game=game.title)
        )
    listed = "\n".join(f"  {g.name:<10} {g.title}" for g in games())
    more = Msg("`upref play GAME --help` shows that game's own options (its variants) as well.")
    return said(Msg("games:")) + f"\n{listed}\n\n" + said(more)


SETTLE_MAX_S = 3600.0
"""The longest --settle: an hour of stillness before a turn ends by itself."""
STEP_S = 0.15
"""The longest the table is pumped before a key is read and the live scoreboard drawn again."""
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
            said(
                Msg(
                    "{text!r} is not a number of seconds from 0 to {most:g}",
                    text=text,
                    most=SETTLE_MAX_S,
                )
            )
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
            Msg(
                "{game} is for {fewest} to {most} players, not {n}: {what}",
                game=game.title,
                fewest=fewest,
                most=most,
                n=len(names),
                what=_name_the_players(game.name),
            )
        )
    seen: dict[str, str] = {}
    for name in names:
        shown = name if len(name) <= NAME_MAX else name[:NAME_MAX] + "…"
        if not name.strip():
            raise ValueError(Msg("a player's name is empty: {what}", what=_name_the_players(game.name)))
        if len(name) > NAME_MAX:
            raise ValueError(
                Msg(
                    "the player's name {shown!r} is {n} characters long: give at most {most}",
                    shown=shown,
                    n=len(name),
                    most=NAME_MAX,
                )
            )
        if not name.isprintable():
            raise ValueError(
                Msg(
                    "the player's name {shown!r} holds a character that cannot be shown: give "
                    "letters, digits, spaces and punctuation",
                    shown=shown,
                )
            )
        key = name.strip().casefold()
        if key in seen:
            raise ValueError(
                Msg(
                    "two players are called {name!r}: give each player a name of their own "
                    "(Ann2, Ann B)",
                    name=name,
                )
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
        raise ValueError(
            Msg("{game} cannot be played so: {why}", game=game.title, why=said_error(exc))
        ) from None


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
        return log, resume(log, lambda info: referee_for(info, tags_and_records(info.game, tag_book)))
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
        raise ValueError(_name_the_players(game.name))
    variant = game.variant_from_args(args)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    lookup = tags_and_records(game.name, tag_book)
    referee = game.referee(codes, lookup, settle_s=args.settle, hints=args.hints, titles=titles())
    log = GameLog.create(
        args.db,
        game=game.name,
        players=args.players,
        variant=variant.to_dict(),
        seed=seed,
        config=referee.config(),
    )
    log.mark_playing()  # at once: another window's `play` never takes it for an abandoned start
    referee.attach(log)
    table = Table(link, referee, codes)
    table.wait_for_picture()
    table.send(StartGame(tuple(args.players), variant, seed, table.clock()))
    return table, log


def _log_to_resume(game: Game, args: argparse.Namespace) -> GameLog:
    """The unfinished game --resume continues (--game-id, else the one that fits the table:
    `upref.commands.unfinished.choose`), marked as being played by this process.

    :raises GameLogError: none to resume, or the id names another game, a finished one, one
        being played elsewhere or one of other players.
    """
    db = _db_words(args)
    db_path = args.db if args.db is not None else default_path(create=False)
    if args.game_id is None:
        ask = _ask_at_terminal if sys.stdin.isatty() else None
        log = GameLog.open(args.db, choose(game.name, db_path, args.players, ask, db))
    else:
        log = GameLog.open(args.db, args.game_id)
    try:
        _check_resumable(game, log, args.players, db)
    except GameLogError:
        log.close()
        raise
    return log


def _check_resumable(game: Game, log: GameLog, names: list[str], db: str) -> None:
    """:raises GameLogError: unless `log` is an unfinished game of `game` (of the players
    named, if any) that no other process plays; it is marked as played here."""
    info = log.header
    where = {"id": info.id, "path": log.path, "db": db}
    if info.game != game.name:
        raise GameLogError(
            Msg(
                "game {id} in {path} is not {title} but {other}: "
                "upref play {other} --resume --game-id {id}{db}",
                title=game.title,
                other=info.game,
                **where,
            )
        )
    if info.status != "playing":
        state = Msg("closed") if info.status == "closed" else Msg("finished")
        raise GameLogError(
            Msg(
                "game {id} in {path} is {state}: `upref replay{db} --game {id}` shows its "
                "verdicts; start a new game with upref play {game} NAMES{db}",
                state=state,
                game=game.name,
                **where,
            )
        )
    if names and not same_players(info.players, names):
        raise GameLogError(
            Msg(
                "game {id} in {path} is the game of {theirs}, not of {named}: name its own "
                "players, or leave the names out",
                theirs=", ".join(info.players),
                named=", ".join(names),
                **where,
            )
        )
    if not log.mark_playing():
        raise GameLogError(
            Msg(
                "game {id} in {path} is being played in another window: go on there (or quit "
                "it there with q first)",
                **where,
            )
        )


def _ask_at_terminal(lines: list[str]) -> str:
    """Ask the person at the terminal (the question on stderr); their answer ('' at EOF)."""
    print("\n".join(lines), end="", file=sys.stderr, flush=True)
    return sys.stdin.readline()


def _db_words(args: argparse.Namespace) -> str:
    """' --db PATH' when the log is not the default one (for commands we tell people)."""
    return f" --db {args.db}" if args.db is not None else ""


def unfinished_notice(game: Game, args: argparse.Namespace) -> list[str]:
    """Lines that name the games of the log still unfinished, each with how to continue it
    instead, and how to close them (empty: none). Reads the log only.

    :raises GameLogError: a log that is not an upref log, or is damaged.
    """
    db_path = args.db if args.db is not None else default_path(create=False)
    open_games = [x for x in listed(db_path) if x.state in (UNFINISHED, ELSEWHERE)]
    if not open_games:
        return []
    db = _db_words(args)
    lines = [
        "upref play: "
        + said(
            Plural(
                "{n} earlier game in {path} was not finished. This new game starts anyway and "
                "leaves it as it is:",
                "{n} earlier games in {path} were not finished. This new game starts anyway and "
                "leaves them as they are:",
                n=len(open_games),
                path=db_path,
            )
        )
    ]
    for x in open_games:
        if x.state == ELSEWHERE:
            lines.append(f"  {describe(x.summary)}: " + said(Msg("being played in another window")))
            continue
        lines.append(
            f"  {describe(x.summary)}: "
            + said(
                Msg(
                    "to go on with it instead, press Ctrl-C now and type "
                    "upref play {game} --resume --game-id {number}{db}",
                    game=x.summary.info.game,
                    number=x.number,
                    db=db,
                )
            )
        )
    lines.append(
        "  "
        + said(
            Msg(
                "If one will never be played again: upref games --close N{db} (or --forget N); "
                "upref games{db} lists them all.",
                db=db,
            )
        )
    )
    return lines


def empty_book_notice(game: Game, tag_book: TagBook) -> str | None:
    """A warning when none of the game's tagged pieces is enrolled (None: some are, or the
    game has none)."""
    items = [item for item, _ in game.items()]
    if not items or tag_book.items(game.name):
        return None
    return "upref play: " + said(
        Msg(
            "no {title} piece is enrolled in the tag book {path}: every card tapped will be "
            "refused as not enrolled, unless its sticker names its piece "
            "(`upref tags write {game}`, docs/tags.md). Enrol them first with "
            "`upref enroll {game}` (Ctrl-C now), or play on and enrol later.",
            title=game.title,
            path=tag_book.path,
            game=game.name,
        )
    )


def saved_notice(game: Game, log: GameLog, args: argparse.Namespace) -> str:
    """What `q` (or Ctrl-C) leaves behind: the game saved, and how to go on with it."""
    db = _db_words(args)
    try:
        info = log.header
    except GameLogError:
        return said(Msg("The game log is {path}.", path=log.path))
    if info.status == "playing":
        return said(
            Msg(
                "Log {id} is saved in {path}: `upref play {game} --resume{db}` continues it "
                "where it was.",
                id=info.id,
                path=log.path,
                game=game.name,
                db=db,
            )
        )
    where = f" {args.db}" if args.db is not None else ""
    return said(
        Msg(
            "Log {id} is over and saved in {path}: `upref replay{where} --game {id}` shows its "
            "verdicts.",
            id=info.id,
            path=log.path,
            where=where,
        )
    )


def left_behind(game: Game, log: GameLog, args: argparse.Namespace) -> str:
    """What the host leaves behind when it stops: a game in which no move was made is not kept
    as unfinished (it is removed from the log); any other is saved (`saved_notice`)."""
    try:
        unplayed = log.header.status == "playing" and log.moves() == 0
        if unplayed:
            number = log.game_id
            log.forget()
            return said(
                Msg(
                    "Log {number} is not kept: no move was made in it. Start again with "
                    "upref play {game} NAMES{db}",
                    number=number,
                    game=game.name,
                    db=_db_words(args),
                )
            )
    except GameLogError:
        pass
    return saved_notice(game, log, args)


def page_key(page: LivePage, frame: Callable[[], Frame | None], private: Private) -> LocalKey:
    """w: the link to one player's own page, shown in the panel for one player's eyes only;
    `frame()` is the table's latest frame (its player to move is the one offered)."""

    def default() -> str:
        now = frame()
        view = now.view if now is not None else None
        if view is not None and view.to_move is not None:
            return view.names[view.to_move]
        return page.hub.seats[0] if page.hub.seats else ""

    def act(answer: str) -> str:
        names = [n.lower() for n in page.hub.seats]
        if answer.strip().lower() not in names:
            text = Msg(
                "No player {answer!r}: the players are {players}.",
                answer=answer,
                players=", ".join(page.hub.seats),
            )
        else:
            seat = names.index(answer.strip().lower())
            text = Msg(
                "{name}'s own page (for your eyes only): {url}",
                name=page.hub.seats[seat],
                url=page.seat_url(seat),
            )
        private.show(text)
        return text

    return LocalKey("w", Msg("a player's own web page"), Msg("Whose page?"), default, act)


def main(
    argv: list[str] | None = None,
    *,
    opener: Callable[..., Link] = Link,
    finder: Callable[[], str] = find_board,
) -> int:
    """`upref play`; `opener` opens the link to a port, `finder` finds the board's port when
    none is given (both stand-ins in tests)."""
    args_in = speak_argv(web_argv(list(sys.argv[1:] if argv is None else argv)))
    try:
        game, args = parse(args_in)
    except UnknownGame as e:
        return _fail(e, 2)
    args.lang = chosen_lang(args, "upref play")
    if not args.resume:
        try:
            if not args.players:
                raise ValueError(_name_the_players(game.name))
            check_new_game(game, args)
        except ValueError as e:
            return _fail(e, 2)
    codes = CodeTable.load()
    try:
        tag_book = TagBook(args.tags, read_only=True)
    except TagBookError as e:
        return _fail(e, 1)
    try:
        if args.port is None and not args.resume:
            try:  # before the notices, which take it that the game goes on
                args.port = finder()
            except LinkError as e:
                return _fail(_no_board(e, game), 1)
        try:
            resuming = _log_first(game, args, tag_book)
        except GameLogError as e:
            return _fail(e, 1)
        try:
            link = _open_link(args, opener, resuming)
        except LinkError as e:
            if resuming is not None:
                resuming[0].close()
            return _fail(e, 1)
        try:
            return _at_the_table(game, args, link, codes, tag_book, resuming)
        finally:
            link.close()
    finally:
        tag_book.close()


def _no_board(e: LinkError, game: Game) -> str:
    """No board was found for a new game: the finder's words (which ports were seen, how to
    plug a board in or start a simulated one), and how to enrol a simulated board's pieces."""
    return (
        said(said_error(e))
        + "\n"
        + said(
            Msg(
                "With a simulated board (`upref sim` in another terminal), enrol its pieces once "
                "with `upref enroll {game} --simulated`, then run this command again.",
                game=game.name,
            )
        )
    )


def _fail(e: Exception | str, status: int) -> int:
    """Say what went wrong in one line (to stderr) and give the exit status."""
    print("upref play: " + said(said_error(e)), file=sys.stderr)
    return status


def _log_first(game: Game, args: argparse.Namespace, tag_book: TagBook) -> tuple[GameLog, Referee] | None:
    """The game log checked before the board is opened (and a new one's folder writable), the
    game to resume read from it, and for a new game the notices about the log and the tag book
    said; the log and referee to resume (None: a new game).

    :raises GameLogError: a log that cannot be used, or no game to resume.
    """
    notices: list[str] = []
    db_path = args.db if args.db is not None else default_path(create=False)
    resuming: tuple[GameLog, Referee] | None = None
    if db_path.exists():
        GameLog.prepare(args.db)
        if not args.resume:
            forget_abandoned(db_path)
    elif not args.resume:  # created only once the game can start
        check_writable(args.db if args.db is not None else _data_folder_path())
    if not args.resume:
        notices = unfinished_notice(game, args)
    if args.resume:
        resuming = resumed(game, args, tag_book)
    if not args.resume:
        if (empty := empty_book_notice(game, tag_book)) is not None:
            notices.append(empty)
        for line in notices:
            print(line, file=sys.stderr, flush=True)
    return resuming


def _open_link(
    args: argparse.Namespace, opener: Callable[..., Link], resuming: tuple[GameLog, Referee] | None
) -> Link:
    """The link to the board. A resumed game's link asks the board for what it sensed meanwhile
    before its first snapshot, so that every event comes before the picture that follows it.

    :raises LinkError: when the board cannot be opened.
    """
    since = since_of(resuming[0]) if resuming is not None else None
    return opener(args.port) if since is None else opener(args.port, LinkSettings(since=since))


def _at_the_table(
    game: Game,
    args: argparse.Namespace,
    link: Link,
    codes: CodeTable,
    tag_book: TagBook,
    resuming: tuple[GameLog, Referee] | None,
) -> int:
    """The game at the table on `link`, its screens up, until q (or its end with --plain); then
    how to go on with it. The exit status."""
    try:
        table, log = open_table(game, args, link, codes, tag_book, resuming)
    except (GameLogError, LinkError) as e:
        return _fail(e, 1)
    except ValueError as e:
        return _fail(e, 2)
    print(
        said(
            Msg(
                "{title}: saved as log {id} in {path} (the log's number, for --game-id and "
                "replay; the scoreboard numbers the games of the match)",
                title=game.title,
                id=log.game_id,
                path=log.path,
            )
        ),
        file=sys.stderr,
    )
    console = Console()
    page: LivePage | None = None
    if args.web is not None:
        try:
            page = start_page(
                game, table, args.web, log.header.players, str(log.game_id), args.lang, db=log.path
            )
        except (ValueError, OSError) as e:
            print("upref play: " + said(page_error(args.web, e)), file=sys.stderr)
            table.close()
            print(left_behind(game, log, args), file=sys.stderr)
            return 1
    speaker = start_speaker(args)
    try:
        live_view = console.is_terminal and not args.plain
        status = _loop(game, table, console, (live_view, args.lang), page, speaker)
    except GameLogError as e:
        return _fail(e, 1)
    except KeyboardInterrupt:  # a second Ctrl-C while the table closed: quit all the same
        status = 0
    finally:
        if page is not None:
            page.stop()
        if speaker is not None:
            speaker.close(5.0)
    print(left_behind(game, log, args), file=sys.stderr)
    return status


def _data_folder_path() -> Path:
    """The default games database's path, its folder (upref's own) made if need be.

    :raises GameLogError: when the folder cannot be made.
    """
    try:
        return default_path(create=True)
    except OSError as exc:
        raise GameLogError(
            Msg(
                "cannot make the data folder {folder} ({why}): make its parent writable, or "
                "give --db a file in a folder you can write to",
                folder=default_path(create=False).parent,
                why=exc.strerror or str(exc),
            )
        ) from None


def _loop(
    game: Game,
    table: Table,
    console: Console,
    how: tuple[bool, str],
    page: LivePage | None = None,
    speaker: Speaker | None = None,
) -> int:
    """The game at the table until q (or its end without a live view); `how`: whether the
    scoreboard is live, and the language of the screen."""
    live_view, lang = how
    private = Private()
    kb = KeyBoard(table.send, table.clock, table.frame, table.referee.hints, private=private)
    if page is not None:
        kb.local = (page_key(page, lambda: kb.frame, private),)

    show = shared_screen(kb, live_view, page, speaker, lang)

    def screen() -> RenderableType:
        return render(table.frame, game.panel, private.current(), kb, lang)

    try:
        table.on_frame = show
        for _inp, reply in table.replies:  # what was said before the screens were up
            show(replace(table.frame, verdicts=reply.verdicts, turn=reply.turn))
        with keys() as key:
            if live_view:
                # drawn after each step, at once when the table publishes a frame (a verdict
                # waits for no refresh tick), and at least every STEP_S
                with Live(screen(), console=console, auto_refresh=False) as live:
                    while _step(table, key, kb):
                        live.update(screen(), refresh=True)
            else:
                while _step(table, key, kb) and table.referee.stopped is None:
                    for note in kb.notes:
                        print(in_lang(note, lang), flush=True)
                    kb.notes.clear()
                console.print(plain.render(scoreboard_for(table.frame, game.panel, lang=lang)), end="")
    except KeyboardInterrupt:
        pass
    finally:
        table.close()
    return 0


def shared_screen(
    kb: KeyBoard,
    live_view: bool,
    page: LivePage | None,
    speaker: Speaker | None,
    lang: str = ENGLISH,
) -> Callable[[Frame], None]:
    """What the table's frames are handed to at `play`: the keys, the shared screen (the
    verdicts printed, without a live scoreboard), the page and the voice. A verdict for one
    seat goes to that seat's own page alone: the shared screen only says that there is one."""

    def show(frame: Frame) -> None:
        kb.frame = frame
        for v, line in zip(frame.verdicts, shared_lines(frame, page is not None, lang), strict=True):
            if not live_view:
                print(line, flush=True)
            elif v.seat is not None:
                kb.notes.append(line)
        if page is not None:
            page.update(frame)
        if speaker is not None:  # after the scoreboard: speech never holds it up
            speaker.offer(frame)

    return show


def _step(table: Table, key: Callable[[], str | None], kb: KeyBoard) -> bool:
    """The table pumped until it publishes a frame (a reply: the screen shows its verdict at
    once), at most STEP_S; then a key pressed, if any. False: the player quit."""
    table.pump_until_frame(STEP_S)
    k = key()
    if k is None:
        return True
    return kb.press(k)


if __name__ == "__main__":
    sys.exit(main())
