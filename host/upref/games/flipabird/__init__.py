"""Flip a Bird ("Bei dir piept's wohl!"): the whole game in one package.

- its rules, pure (no I/O, no clock, randomness only from a seed; they import nothing of the
  host): the rules (`engine`), the actions (`actions`), the typed views (`view`), the variant (`variant`), the state's parts and the builders of a position (`position`), the catalogue of cards and its validator (`cards`, data in `data/cards.json`) and how cards count (`evaluation`: a row at a claim, a pure function that explains itself card by card, and the score of won cards);
- its referee (`referee`): the board's observations and the table's keys as rule actions;
- its panel (`panel`): what lies on the table, as table pieces and words;
- its demo players (`demo`): the scripted people behind `upref demo flipabird`.

This module declares the game's one entry, `GAME`, which the registry finds
(`upref.registry`); nothing outside this package names the game.
"""

from __future__ import annotations

import argparse
import random
import time

from upref.game import Game
from upref.games.flipabird.cards import load_catalogue
from upref.games.flipabird.demo import STEPS, FlipDemo
from upref.games.flipabird.engine import NAME, TITLE, FlipABirdState
from upref.games.flipabird.evaluation import evaluate
from upref.games.flipabird.panel import PANEL
from upref.games.flipabird.position import deal
from upref.games.flipabird.referee import FlipReferee
from upref.games.flipabird.variant import Variant
from upref.text import Msg

__all__ = ["GAME"]


def items() -> list[tuple[str, str]]:
    """The 60 game cards, then the 12 tip cards, each with what is printed on it:
    'R2c: red, 2 birds, covered cage on the back', 'TIP-R3: red tip card of player 3'."""
    cat = load_catalogue()
    return [(c.id, c.label) for c in cat.cards] + [(t.id, t.label) for t in cat.tips]


def add_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument(
        "--pile", type=int, metavar="N",
        help=Msg("short game: a draw pile of N cards, the rest of the deck stays in the box"),
    )


def variant_from_args(args: argparse.Namespace) -> Variant:
    """:raises ValueError: for a pile that is not a positive whole number."""
    return Variant(pile=getattr(args, "pile", None))


def playout(seed: int) -> int:
    """One random game (3 to 6 players by the seed, the pile known from a scan) to its end;
    the number of actions played."""
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(3 + seed % 4)]
    pile, _hands, _box = deal(len(players), rng)
    game = FlipABirdState.new(players, pile=pile)
    n = 0
    while not game.is_terminal() and n < 5000:
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n


def figures(quick: bool) -> list[str]:
    """The evaluation of the longest possible row: all 60 cards (best of several runs, over
    shuffles that keep every special card in play or take the 'special cards do not count'
    cards out)."""
    cat = load_catalogue()
    rng = random.Random(1)
    rows = []
    for k in range(8):
        cards = list(cat.cards)
        rng.shuffle(cards)
        if k % 2:  # without "special cards do not count": neighbours and colours all act
            cards = [c for c in cards if c.kind != "no-specials"]
        rows.append(cards)
    runs = 20 if quick else 200
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(runs):
            for r in rows:
                evaluate(r, 10)
        best = min(best, (time.perf_counter() - t0) / (runs * len(rows)))
    return [f"evaluation of the longest possible row (up to 60 cards): {best * 1e6:.0f} µs"]


GAME = Game(
    name=NAME,
    title=TITLE,
    engine=FlipABirdState,
    referee=FlipReferee,
    panel=PANEL,
    items=items,
    variant=Variant,
    add_options=add_options,
    variant_from_args=variant_from_args,
    players=(3, 6),
    demo=FlipDemo(),
    guide="docs/games/flipabird.md",
    playout=playout,
    figures=figures,
    steps=STEPS,
    shelf=3,
)
