"""Up (tower card game): the whole game in one package.

- its rules, pure (no I/O, no clock, randomness only from a seed; they import nothing of the
  host): the rules (`engine`, with a module per part of a round: `deal`, `tower`, `scoring`, `state`), the actions (`actions`), the typed views (`view`), a position built from a description (`position`), the variant (`variant`) and the cards with their validator (`cards`, data in `data/cards.json`);
- its referee (`referee`): the board's observations and the table's keys as rule actions;
- its panel (`panel`): what lies on the table, as table pieces and words;
- its demo players (`demo`): the scripted people behind `upref demo up`.

This module declares the game's one entry, `GAME`, which the registry finds
(`upref.registry`); nothing outside this package names the game.
"""

from __future__ import annotations

import argparse
import random
import time

from upref.game import Game
from upref.games.up.cards import load_catalogue
from upref.games.up.demo import STEPS, UpDemo
from upref.games.up.engine import MAX_PLAYERS, MIN_PLAYERS, NAME, TITLE, UpState
from upref.games.up.panel import PANEL
from upref.games.up.referee import UpReferee
from upref.games.up.scoring import EVENING_OVER
from upref.games.up.variant import Variant

__all__ = ["GAME", "evening", "items", "playout"]


def items() -> list[tuple[str, str]]:
    """Every card of every set, set by set ('A7: set A, 7', 'AD: set A, the disposal card
    (big arrows)'): a club enrols as many sets as it owns (one per player)."""
    return [(c.id, c.label) for c in load_catalogue().cards]


def add_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--up300", action="store_true", help="Up300: the evening ends once a total passes 300")
    ap.add_argument("--dirty-one", action="store_true", help="every 1 counts 30, all evening")
    ap.add_argument("--without-minus2", action="store_true", help="the -2 cards stay in the box (hand 4)")
    ap.add_argument(
        "--children",
        choices=("cards", "tokens"),
        help="children's scoring: count the cards left, or a token per round won",
    )
    ap.add_argument("--rounds", type=int, metavar="N", help="the evening ends after N rounds")
    ap.add_argument("--sets", metavar="LETTERS", help="the sets in play, one per player (default: A, B, ...)")
    ap.add_argument("--dealer", metavar="NAME", help="who deals round 1 (default: the last player named)")


def variant_from_args(args: argparse.Namespace) -> Variant:
    """:raises ValueError: for options that do not go together or bad values."""
    sets = getattr(args, "sets", None)
    return Variant(
        up300=bool(getattr(args, "up300", False)),
        dirty_one=bool(getattr(args, "dirty_one", False)),
        without_minus2=bool(getattr(args, "without_minus2", False)),
        scoring=getattr(args, "children", None) or "points",
        rounds=getattr(args, "rounds", None),
        sets=sets.upper() if isinstance(sets, str) else None,
        first_dealer=getattr(args, "dealer", None),
    )


def playout(seed: int, players: int = 10) -> int:
    """One random round of ten players to its end; the number of actions played."""
    rng = random.Random(seed)
    game = UpState.new([f"P{i}" for i in range(players)], rng=seed)
    n = 0
    while not game.is_terminal() and n < 100_000:
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n


def evening(seed: int, players: int = 10, variant: Variant | None = None) -> UpState:
    """A whole evening of random play (Up300 unless another variant is given), round after
    round until it is over; its last round."""
    rng = random.Random(seed)
    variant = variant or Variant(up300=True)
    game = UpState.new([f"P{i}" for i in range(players)], rng=seed, variant=variant)
    while True:
        while not game.is_terminal():
            game.apply(rng.choice(game.legal_actions()))
        out = game.outcome()
        assert out is not None
        if out.termination in EVENING_OVER:
            return game
        game = game.next_round()


def figures(quick: bool) -> list[str]:
    """A whole ten-player Up300 evening of random play, engine only."""
    best = float("inf")
    rounds = 0
    for _ in range(1 if quick else 3):  # the same evening (seed 0), best of the runs
        t0 = time.perf_counter()
        last = evening(0)
        best = min(best, time.perf_counter() - t0)
        rounds = last.round
    return [f"a ten-player Up300 evening of random play (seed 0): {rounds} rounds in {best * 1000:.0f} ms"]


GAME = Game(
    name=NAME,
    title=TITLE,
    engine=UpState,
    referee=UpReferee,
    panel=PANEL,
    items=items,
    variant=Variant,
    add_options=add_options,
    variant_from_args=variant_from_args,
    players=(MIN_PLAYERS, MAX_PLAYERS),
    demo=UpDemo(),
    guide="docs/games/up.md",
    playout=playout,
    figures=figures,
    steps=STEPS,
    shelf=5,
)
