"""`upref sim` and `upref simctl` from the command side: the simulated board's front ends
(upref.sim.cli) handed the games' catalogues, so that a card is named by its piece's id
(`upref simctl tap T05`) as well as by its UID. The sim knows no game; the registry does.

`upref simctl` also does a whole table step of the game being played in one command (`upref
simctl draw`, `upref simctl lay`, `upref simctl deal`): each game names its own steps
(`Game.steps`), planned from what its referee knows, rebuilt from the game's log (the newest
game of the games database), and carried out with the simulated board's own verbs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from upref.board.simtags import Catalogues, sim_uid
from upref.commands.lang_option import said, said_error
from upref.game import Game, StepPlan, StepTable, TableStep
from upref.referee.base import Referee
from upref.registry import UnknownGame, find_game, games, referee_for
from upref.sim import cli
from upref.sim.channel import SimControl, SimControlError
from upref.sim.verbs import VERBS
from upref.store.gamelog import GameInfo, GameLog, GameLogError, default_path
from upref.store.replay import replay
from upref.text import Msg

__all__ = ["catalogues", "sim_main", "simctl_main", "step_names", "steps_help"]


def catalogues() -> Catalogues:
    """Every registered game's tagged pieces: game name -> (item id, label), in catalogue order."""
    return {game.name: tuple(game.items()) for game in games()}


def sim_main(argv: list[str]) -> int:
    """`upref sim`: its console takes pieces by their ids."""
    return cli.sim_main(argv, catalogues, said)


def step_names() -> dict[str, list[str]]:
    """Each whole table step a game names (and is not one of the simulator's own verbs) -> the
    games that have it."""
    names: dict[str, list[str]] = {}
    for game in games():
        for name in game.steps:
            if name not in VERBS:
                names.setdefault(name, []).append(game.name)
    return names


def simctl_main(argv: list[str]) -> int:
    """`upref simctl`: a card by its piece's id or its UID; a game's whole table step by its
    name."""
    words = _words(argv)
    if not words or words[0].lower() not in step_names():
        status = cli.simctl_main(argv, catalogues, steps_help(), said)
        if words == ["help"] and status == 0:
            print(steps_help())
        return status
    ns = _step_parser().parse_args(argv)
    try:
        return _do_step(ns.words[0].lower(), ns.sim, ns.db)
    except (GameLogError, SimControlError, ValueError) as e:
        print(f"upref simctl {ns.words[0].lower()}: " + said(said_error(e)), file=sys.stderr)
        return 1


def steps_help() -> str:
    """The games' whole table steps, one line each: `draw`, the games that have it, what it
    does."""
    lines = [said(Msg("whole table steps of the game being played (its newest log):"))]
    for game in games():
        for name, step in game.steps.items():
            lines.append(f"{name:<8} {game.title}: " + said(step.summary))
    return "\n".join(lines)


def _words(argv: list[str]) -> list[str]:
    """The words of a command line without its options (`--sim NAME`, `--db PATH`)."""
    words: list[str] = []
    skip = False
    for w in argv:
        if skip:
            skip = False
        elif w in ("--sim", "--db"):
            skip = True
        elif not w.startswith("-"):
            words.append(w)
    return words


def _step_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="upref simctl",
        description=said(Msg("A whole table step of the game being played, on the simulated board.")),
    )
    ap.add_argument(
        "--sim", metavar="NAME", help=said(Msg("which simulator (needed when several run)"))
    )
    ap.add_argument(
        "--db",
        type=Path,
        help=said(
            Msg(
                "the games database the game is logged in (default: the user's data folder, as "
                "upref play)"
            )
        ),
    )
    ap.add_argument("words", nargs="*", help=said(Msg("the step's name")))
    return ap


def _do_step(name: str, sim: str | None, db: Path | None) -> int:
    """Plan the step from the newest game's referee and the board, carry it out, say it.

    :raises GameLogError: no game logged, or a log that cannot be read.
    :raises SimControlError: no simulator running, or one that does not answer.
    :raises ValueError: the game has no such step, or the step cannot be done now.
    """
    game, referee, seed = _game_in_play(name, db)
    step: TableStep = game.steps[name]
    with SimControl.find(sim) as ctl:
        board = json.loads(_answer(ctl.raw("state"), "state"))
        uid_of = {item: sim_uid(game.name, item) for item, _label in game.items()}
        plan: StepPlan = step.plan(StepTable(referee, board, uid_of, seed))
        for line in plan.lines:
            _answer(ctl.raw(line), line)
    print(said(plan.said))
    return 0


def _answer(answer: str, line: str) -> str:
    """The details of an `ok` answer.

    :raises ValueError: for an `error` answer, naming the line that got it.
    """
    if answer == "ok" or answer.startswith("ok "):
        return answer[3:]
    raise ValueError(
        Msg(
            "the simulated board refused `{line}`: {why}",
            line=line,
            why=answer.removeprefix("error "),
        )
    )


def _game_in_play(name: str, db: Path | None) -> tuple[Game, Referee, int]:
    """The newest game of the games database, with its referee rebuilt from its log.

    :raises GameLogError: no game in the database, or a log that cannot be read.
    :raises ValueError: that game has no step `name`.
    """
    path = db if db is not None else default_path(create=False)
    log = GameLog.open_latest(path, unfinished=False, read_only=True)
    if log is None:
        raise GameLogError(
            Msg(
                "no game is logged in {path}: start one first (upref play GAME NAMES), then "
                "`upref simctl {name}` does its step",
                path=path,
                name=name,
            )
        )
    try:
        info = log.header
        try:
            game = find_game(info.game)
        except UnknownGame as e:
            raise GameLogError(
                Msg("the newest game of {path}: {why}", path=path, why=said_error(e))
            ) from None
        if name not in game.steps:
            has = ", ".join(game.steps) or Msg("none")
            raise ValueError(
                Msg(
                    "{title} (the newest game of {path}) has no step {name!r}: its steps are "
                    "{has}; `upref simctl help` lists the simulator's own verbs",
                    title=game.title,
                    path=path,
                    name=name,
                    has=has,
                )
            )
        made: list[Referee] = []

        def make(i: GameInfo) -> Referee:
            made.append(referee_for(i))
            return made[0]

        for _ in replay(info, log.entries(), make, log.path):
            pass
        referee = made[0] if made else referee_for(info)
        return game, referee, info.seed
    finally:
        log.close()
