"""The game named on a command line, with that game's own options (its variants): what
`upref play` and `upref demo` share in reading their arguments. Options may come anywhere,
even before the game's name with a value (`--short 2 updown Ann`).

    game, args = parse_for_game(argv, build)   # build(game or None, parser class) -> parser
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn

from upref.game import Game
from upref.registry import UnknownGame, find_game, games

__all__ = ["parse_for_game"]


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
