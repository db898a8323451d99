"""A throwaway game, to prove the game seam: a game is one folder (this package) with its rules,
referee, panel and demo, declaring its one entry here; the registry finds it (registered by the
tests that use it, or through the `upref.games` entry point when installed as a distribution of
its own) and no module of upref names it.

*Pile*: a pile of tiles; in turn each player takes one or two; whoever takes the last one wins.
At the table a player taps the "one" card or the "two" card on the reader, or presses `t` and
answers how many. Taking more than the pile holds is refused (rule "take").
"""

from __future__ import annotations

import argparse
import random

from upref.game import Game

from .demo import PileDemo
from .panel import PilePanel
from .referee import PileReferee
from .rules import ITEMS, NAME, TITLE, PileGame, PileVariant

__all__ = ["GAME", "ITEMS", "NAME", "TITLE"]


def _options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--size", type=int, help="tiles in the pile")


def _playout(seed: int) -> int:
    rng = random.Random(seed)
    game = PileGame(["A", "B"], PileVariant(9))
    n = 0
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n


GAME = Game(
    name=NAME,
    title=TITLE,
    engine=PileGame,
    referee=PileReferee,
    panel=PilePanel(),
    items=lambda: ITEMS,
    variant=PileVariant,
    add_options=_options,
    variant_from_args=lambda a: PileVariant(a.size or 7),
    players=(2, 4),
    demo=PileDemo(),
    guide="",
    playout=_playout,
)
