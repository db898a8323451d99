"""The simulated board's two commands: `upref sim` (start a board, and take control commands
typed at its console) and `upref simctl` (act on a running board over its control socket).
Both speak the verbs of verbs.py; `help` is that table's help. (`upref` finds them through
upref.commands.simctl, which hands them the games' catalogues.)

Given the catalogues, both take a piece by its catalogue id wherever a verb takes a card's UID
(`tap T05`, `tap updown:T05`, `remove W03`): the word becomes the UID of the piece's simulated
tag (upref.board.simtags) before the line goes to the board, and an answer naming a simulated
tag names its piece too. The sim itself knows UIDs only.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import signal
import sys
import threading
from collections.abc import Callable

from upref.board import simtags
from upref.sim.board import SimBoard, SimSettings
from upref.sim.channel import SimControl, SimControlError
from upref.sim.errors import SimError
from upref.sim.verbs import ANSWER_NEWLINE, help_text, piece_words
from upref.text import Msg

CatalogueSource = Callable[[], simtags.Catalogues]
"""Gives the games' catalogues (game -> (item id, label)), asked once, when first needed."""

Say = Callable[[str], str]
"""A sentence in the language of the command's messages (the front end's; English by default)."""


def _english(text: str) -> str:
    return text


_SIM_UID = re.compile(r"\b04[0-9A-F]{12}\b")


class Pieces:
    """What a front end knows of the simulated deck: which piece a word names, and which piece
    a simulated tag's UID is on. Without a source of catalogues it knows none (UIDs only)."""

    def __init__(self, source: CatalogueSource | None = None) -> None:
        self.source = source
        self._catalogues: simtags.Catalogues | None = None
        self._by_uid: dict[str, simtags.Piece] | None = None

    @property
    def catalogues(self) -> simtags.Catalogues:
        if self._catalogues is None:
            self._catalogues = self.source() if self.source is not None else {}
        return self._catalogues

    def line(self, line: str) -> str:
        """The command line with each piece named where a card goes replaced by the UID of its
        simulated tag. A line with nothing to replace (or no catalogues) comes back as it is.

        :raises simtags.PieceError: for a word that names no piece, or several.
        """
        words = line.split()
        where = piece_words(words) if self.source is not None else []
        if not where:
            return line
        for i in where:
            try:
                piece = simtags.find_piece(words[i], self.catalogues)
            except simtags.PieceError as e:
                raise simtags.PieceError(Msg("{verb}: {why}", verb=words[0].lower(), why=_error(e))) from None
            words[i] = piece.uid
        return " ".join(words)

    def piece_of(self, uid: str) -> simtags.Piece | None:
        """The piece whose simulated tag has this UID, or None."""
        if self._by_uid is None:
            self._by_uid = {
                simtags.sim_uid(game, item): simtags.Piece(game, item, label)
                for game, items in self.catalogues.items()
                for item, label in items
            }
        return self._by_uid.get(uid.upper())

    def told(self, details: str) -> str:
        """An answer's details, each simulated tag's UID followed by its piece:
        `card 04… (updown T05: 1 shovel — black 2) in the field`."""
        if self.source is None:
            return details

        def name(m: re.Match[str]) -> str:
            piece = self.piece_of(m.group(0))
            return m.group(0) if piece is None else f"{m.group(0)} ({piece.game} {piece.label})"

        return _SIM_UID.sub(name, details)


def _error(exc: BaseException) -> str:
    """An error's sentence as raised (still a catalogue's), or its text."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, str) else str(exc)


def _sim_parser(say: Say = _english) -> argparse.ArgumentParser:
    """The options of `upref sim`."""
    ap = argparse.ArgumentParser(
        prog="upref sim",
        description=say(Msg("Start the simulated board: the unchanged firmware on a pseudo-terminal, "
                            "with a control channel for physical actions.")),
    )
    ap.add_argument("--backend", choices=("cpython", "micropython"), default="cpython",
                    help=say(Msg("run the firmware under CPython (fast) or the real MicroPython unix port")))
    ap.add_argument("--seed", type=int, default=None,
                    help=say(Msg("seed of the world (sensors, magnets, the chip, the starting mix, noise); "
                                 "a fresh world. Without --seed or --empty the table is as the last run "
                                 "left it")))
    ap.add_argument("--empty", action="store_true",
                    help=say(Msg("a fresh world with every pair out of its hole")))
    ap.add_argument("--name", default=None, help=say(Msg("tell several simulators apart (default: default)")))
    ap.add_argument("--flash", metavar="DIR", default=None,
                    help=say(Msg("the board's flash folder (kept across runs)")))
    ap.add_argument("--noise", type=float, default=0.0,
                    help=say(Msg("line noise: probability per byte of a flipped bit")))
    ap.add_argument("--uncalibrated", action="store_true",
                    help=say(Msg("a fresh flash gets no calib.json (the firmware starts uncalibrated)")))
    ap.add_argument("--boot-from", choices=("auto", "flash", "repo"), default="auto",
                    help=say(Msg("what runs: the flash folder's deployed firmware when it has a main.py "
                                 "(auto), always the flash folder, or always the repository's firmware/")))
    ap.add_argument("--chip", choices=("slow", "fast"), default="slow",
                    help=say(Msg("which end of the range of a bytecode operation's time on the ESP32 the "
                                 "simulated chip models (default: slow; docs/simulator.md, "
                                 "\"The chip's time\")")))
    ap.add_argument("--ops", choices=("count", "estimate", "light"), default="count",
                    help=say(Msg("count every bytecode operation the firmware runs (the default; the "
                                 "MicroPython backend charges the light one), charge the estimate per "
                                 "sensor read (lighter on a loaded machine), or the light charge the test "
                                 "suite uses")))
    return ap


def _console(board: SimBoard, pieces: Pieces, stop: threading.Event, say: Say) -> None:
    """The `sim>` prompt: one command a line (pieces named by their ids), until quit or EOF."""
    while not stop.is_set():
        try:
            line = input("sim> ")
        except EOFError:
            break
        if line.strip() in ("quit", "exit"):
            break
        if not line.strip():
            continue
        try:
            line = pieces.line(line)
        except simtags.PieceError as e:
            print(say(Msg("error {why}", why=_error(e))))
            continue
        answer = board.command(line)
        if answer.startswith("ok {"):
            print(json.dumps(json.loads(answer[3:]), indent=2))
        else:
            print(pieces.told(answer))


def sim_main(argv: list[str], catalogues: CatalogueSource | None = None, say: Say = _english) -> int:
    """`upref sim`: run a simulated board until Ctrl-C (or SIGTERM); its lines to a person are
    said with `say`."""
    ns = _sim_parser(say).parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    try:
        board = SimBoard(SimSettings(
            backend=ns.backend, seed=ns.seed if ns.seed is not None else 0, empty=ns.empty,
            flash_dir=ns.flash, noise=ns.noise, name=ns.name, calibrated=not ns.uncalibrated,
            boot_from=ns.boot_from, restore=ns.seed is None and not ns.empty,
            chip_speed=ns.chip, ops=ns.ops))
        if catalogues is not None:
            board.carry(simtags.sim_deck(catalogues()))  # every piece's sticker names it
        board.start()
    except (SimError, ValueError, OSError) as e:
        print("upref sim: " + say(_error(e)), file=sys.stderr)
        return 1
    _banner(board, ns.empty, say)
    interactive = sys.stdin.isatty()
    if interactive:
        print(say(Msg("Type commands here (`help` lists them); Ctrl-C stops the board.")))
    else:
        print(say(Msg("Ctrl-C stops the board.")))
    sys.stdout.flush()
    stop = threading.Event()
    pieces = Pieces(catalogues)
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    try:
        if interactive:
            _console(board, pieces, stop, say)
        else:
            while not stop.wait(0.5):
                pass
    except KeyboardInterrupt:
        print()
    finally:
        board.stop()
    return 0


def _banner(board: SimBoard, empty: bool, say: Say) -> None:
    """What a started board is and where its port, control, flash and log are."""
    sim_opt = "" if board.name == "default" else f" --sim {board.name}"
    how: str = Msg("{backend}, seed {seed}", backend=board.backend, seed=board.seed)
    if empty:
        how += Msg(", empty")
    if board.restored:
        how += Msg("; the table as the last run left it")
    print(say(Msg("upref simulated board {name} ({how})", name=repr(board.name), how=how)))
    print(say(Msg("  port:    {port}  (now {pty})", port=board.port, pty=board.pty)))
    print(say(Msg("  control: upref simctl{opt} pull 4   (socket {socket})", opt=sim_opt,
                  socket=board.control_path)))
    print(say(Msg("  flash:   {folder}  (SPI flash for esptool: {spi})", folder=board.flash_dir,
                  spi=board.spi.path)))
    print(say(Msg("  log:     {path}", path=board.log_path)))


def _sim_first(argv: list[str]) -> list[str]:
    """`--sim NAME` (or `--sim=NAME`) wherever it stands, moved before the verb: `upref simctl
    pull 4 --sim b` works as `upref simctl --sim b pull 4`. No verb takes words that begin with
    '--'."""
    rest, sim = list(argv), []
    i = 0
    while i < len(rest):
        if rest[i] == "--sim" and i + 1 < len(rest):
            sim += rest[i : i + 2]
            del rest[i : i + 2]
        elif rest[i].startswith("--sim="):
            sim.append(rest.pop(i))
        else:
            i += 1
    return sim + rest


def simctl_main(
    argv: list[str], catalogues: CatalogueSource | None = None, more_help: str = "",
    say: Say = _english,
) -> int:
    """`upref simctl [--sim NAME] <verb> [arguments]`: one verb on a running board; with the
    games' catalogues, a card may be named by its piece's id (`tap T05`). `more_help` ends
    `--help` (what a front end adds: the games' whole table steps)."""
    pieces = Pieces(catalogues)
    described = Msg("tap T05 (a piece by its catalogue id) or tap 04A1B2C3D4E5F6 (a UID)") if catalogues \
        else "tap 04A1B2C3D4E5F6"
    ap = argparse.ArgumentParser(
        prog="upref simctl",
        description=say(Msg("Act on a running simulated board: pull 4, insert 4 RB R, {described}, ...",
                            described=described)),
        epilog=say(Msg("commands:")) + "\n" + help_text() + (f"\n\n{more_help}" if more_help else ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--sim", metavar="NAME", help=say(Msg("which simulator (needed when several run)")))
    ap.add_argument("words", nargs=argparse.REMAINDER, help=say(Msg("the command and its arguments")))
    ns = ap.parse_args(_sim_first(argv))
    if not ns.words:
        ap.print_help()
        return 2
    try:
        line = pieces.line(" ".join(ns.words))
    except simtags.PieceError as e:
        print("upref simctl: " + say(_error(e)), file=sys.stderr)
        return 1
    try:
        with SimControl.find(ns.sim) as ctl:
            answer = ctl.raw(line)
    except SimControlError as e:
        print("upref simctl: " + say(_error(e)), file=sys.stderr)
        return 1
    if answer.startswith("error "):
        print(f"upref simctl: {pieces.told(answer[6:])}", file=sys.stderr)
        return 1
    details = answer[3:] if answer.startswith("ok ") else ""
    verb = ns.words[0].lower()
    if verb == "state" and details:
        print(json.dumps(json.loads(details), indent=2))
    elif details:
        print(details.replace(ANSWER_NEWLINE, "\n") if verb == "help" else pieces.told(details))
    else:
        print("ok")
    return 0
