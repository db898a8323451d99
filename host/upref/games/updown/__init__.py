"""Up And Down (moles, Ravensburger's "Buddel-Company"): the whole game in one package.

- its rules, pure (no I/O, no clock, randomness only from a seed; they import nothing of the
  host): the rules (`engine`), the actions and their text form (`actions`), the typed views (`view`), the board and its builders (`position`), the variants (`variant`), the task-card catalogue and its Landau validator (`cards`, data in `data/cards.json`) and the solver behind hints (`solver`);
- its referee (`referee`): the board's observations and the table's keys as rule actions;
- its panel (`panel`): what lies on the table, as table pieces and words;
- its demo players (`demo`): the scripted people behind `upref demo updown`.

This module declares the game's one entry, `GAME`, which the registry finds
(`upref.registry`); nothing outside this package names the game.
"""

from __future__ import annotations

import argparse
import random
import time

from upref.game import Game
from upref.games.updown.cards import colour_word, load_catalogue
from upref.games.updown.demo import STEPS, UpDownDemo
from upref.games.updown.engine import NAME, TITLE, UpDownState
from upref.games.updown.panel import PANEL
from upref.games.updown.referee import UpDownReferee
from upref.games.updown.solver import analyse_all
from upref.games.updown.variant import Variant
from upref.games.updown.words import shovels
from upref.text import Msg, join_words

__all__ = ["GAME"]


def items() -> list[tuple[str, str]]:
    """The thirty task cards, with what is printed on them: 'T07: 2 shovels — black 3, red 1'."""
    out = []
    for card in load_catalogue().cards:
        counts = join_words(", ", [Msg("{colour} {n}", colour=colour_word(c), n=n) for c, n in card.counts])
        out.append(
            (
                card.id,
                Msg("{card}: {shovels} — {counts}", card=card.id, shovels=shovels(card.shovels), counts=counts),
            )
        )
    return out


def add_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--short", type=int, metavar="N", help=Msg("short game: first to N cards ends it"))
    ap.add_argument(
        "--super-buddler",
        action="store_true",
        help=Msg("the 4-shovel cards instead of the 1-shovel ones"),
    )
    ap.add_argument("--mole-mix", action="store_true", help=Msg("turn the box after each solved card"))


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
    game = UpDownState.new(["A", "B", "C"], rng=seed, variant=Variant(short_game_target=3))
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
    engine=UpDownState,
    referee=UpDownReferee,
    panel=PANEL,
    items=items,
    variant=Variant,
    add_options=add_options,
    variant_from_args=variant_from_args,
    players=(2, 6),  # as the box says (the rulebook's text gives no count)
    demo=UpDownDemo(),
    guide="docs/games/updown.md",
    playout=playout,
    figures=figures,
    short={"short": 1},
    steps=STEPS,
    shelf=1,
)
