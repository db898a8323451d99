"""Upturn (number tiles, Goliath): the whole game in one package.

- its rules, pure (no I/O, no clock, randomness only from a seed; they import nothing of the
  host): the rules (`engine`), the actions (`actions`), the typed views (`view`), a position built from a description (`position`), the variant (`variant`), the tile catalogue and its validator (`tiles`, data in `data/tiles.json`) and the gifts of Twin and Penalty tiles (`gifts`);
- its referee (`referee`): the board's observations and the table's keys as rule actions;
- its panel (`panel`): what lies on the table, as table pieces and words;
- its demo players (`demo`): the scripted people behind `upref demo upturn`.

This module declares the game's one entry, `GAME`, which the registry finds
(`upref.registry`); nothing outside this package names the game.
"""

from __future__ import annotations

import argparse
import random
import time

from upref.game import Game
from upref.games.upturn.actions import Lay
from upref.games.upturn.demo import UpturnDemo
from upref.games.upturn.engine import NAME, TITLE, UpturnState
from upref.games.upturn.panel import PANEL
from upref.games.upturn.referee import UpturnReferee
from upref.games.upturn.tiles import load_catalogue
from upref.games.upturn.variant import RACK, Variant
from upref.text import Msg

__all__ = ["GAME"]


def items() -> list[tuple[str, str]]:
    """The 106 tiles, numbered ones first, with what is printed on them: 'N22: red Twin tile
    22', 'UP3: Up tile (3 of 6)'."""
    return [(t.id, t.label()) for t in load_catalogue().tiles]


def add_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument(
        "--tiles",
        type=int,
        metavar="N",
        help=Msg("tiles each player takes at the start (default {n}; fewer for a short game)", n=RACK),
    )


def variant_from_args(args: argparse.Namespace) -> Variant:
    """:raises ValueError: for a number of tiles that is not 1 to 20."""
    deal = getattr(args, "tiles", None)
    return Variant(deal=RACK if deal is None else deal)


def playout(seed: int) -> int:
    """One random game of three players to its end (dealt from `seed`); the actions played."""
    rng = random.Random(seed)
    game = UpturnState.new(["A", "B", "C"], rng=seed)
    n = 0
    while not game.is_terminal() and n < 5000:
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n


def figures(quick: bool) -> list[str]:
    """The referee's own engine work per tap, with every rack unknown as at a table: a tile
    checked and laid, and the legal actions of a rack the engine cannot see."""
    reps = 200 if quick else 1000
    game = UpturnState.at_table(["A", "B", "C"])
    game.play(next(a for a in game.legal_actions()))  # the Starting tile
    lays = [a for a in game.legal_actions() if isinstance(a, Lay)]
    t0 = time.perf_counter()
    for i in range(reps):
        game.play(lays[i % len(lays)])
        game.undo()
    lay_us = (time.perf_counter() - t0) / reps * 1e6
    t0 = time.perf_counter()
    for _ in range(reps // 10):
        game.legal_actions()
    legal_us = (time.perf_counter() - t0) / (reps // 10) * 1e6
    return [
        f"referee engine (racks unknown): a tile checked and laid in {lay_us:.0f} µs; "
        f"legal actions over {len(lays)} possible tiles in {legal_us:.0f} µs [goal: far below "
        "the 120 ms tap -> verdict budget]"
    ]


GAME = Game(
    name=NAME,
    title=TITLE,
    engine=UpturnState,
    referee=UpturnReferee,
    panel=PANEL,
    items=items,
    piece="tile",
    variant=Variant,
    add_options=add_options,
    variant_from_args=variant_from_args,
    players=(2, 4),
    demo=UpturnDemo(),
    guide="docs/games/upturn.md",
    playout=playout,
    figures=figures,
    shelf=2,
)
