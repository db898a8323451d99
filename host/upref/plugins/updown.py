"""Up And Down plugged into upref: its registry entry."""

from __future__ import annotations

import argparse
import random
import time

from upref.demos.updown import UpDownDemo
from upref.games.updown.cards import colour_name, load_catalogue
from upref.games.updown.engine import NAME, TITLE, UpDownGame
from upref.games.updown.solver import analyse_all
from upref.games.updown.variant import Variant
from upref.plugins.base import Game
from upref.referee.updown import UpDownReferee
from upref.text import count
from upref.views.updown import PANEL

__all__ = ["GAME"]


def items() -> list[tuple[str, str]]:
    """The thirty task cards, with what is printed on them: 'T07: 2 shovels — black 3, red 1'."""
    out = []
    for card in load_catalogue().cards:
        counts = ", ".join(f"{colour_name(c)} {n}" for c, n in card.counts)
        out.append((card.id, f"{card.id}: {count(card.shovels, 'shovel')} — {counts}"))
    return out


def add_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--short", type=int, metavar="N", help="short game: first to N cards ends it")
    ap.add_argument(
        "--super-buddler", action="store_true", help="the 4-shovel cards instead of the 1-shovel ones"
    )
    ap.add_argument("--mole-mix", action="store_true", help="turn the box after each solved card")


def variant_from_args(args: argparse.Namespace) -> Variant:
    """:raises ValueError: for a short-game target that is not a positive whole number."""
    return Variant(
        short_game_target=getattr(args, "short", None),
        super_buddler=bool(getattr(args, "super_buddler", False)),
        mole_mix=bool(getattr(args, "mole_mix", False)),
    )


def playout(seed: int) -> int:
    """One random game of three players to its end; the number of actions played."""
    rng = random.Random(seed)
    game = UpDownGame.new(["A", "B", "C"], rng=seed, variant=Variant(short_game_target=3))
    n = 0
    while not game.is_terminal() and n < 5000:
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n


def figures(quick: bool) -> list[str]:
    """The solver's full table: 1024 boards x the 30 default cards (best of 3) [goal <= 50 ms]."""
    cards = load_catalogue().cards
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        analyse_all(cards)
        best = min(best, time.perf_counter() - t0)
    return [f"solver: full table 1024 boards x {len(cards)} cards in {best * 1000:.1f} ms [goal <= 50 ms]"]


GAME = Game(
    name=NAME,
    title=TITLE,
    engine=UpDownGame,
    referee=UpDownReferee,
    panel=PANEL,
    items=items,
    variant=Variant,
    add_options=add_options,
    variant_from_args=variant_from_args,
    players=(1, 24),  # the basic stack must give everyone a card
    demo=UpDownDemo(),
    guide="docs/games/updown.md",
    playout=playout,
    figures=figures,
)
