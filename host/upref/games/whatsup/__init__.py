"""What's Up (double-sided bird cards): the whole game in one package.

- its rules, pure (no I/O, no clock, randomness only from a seed; they import nothing of the
  host): the rules (`engine`), the actions (`actions`), the typed views (`view`), a position built from a description (`position`), the variant (`variant`) and the deck with its validator (`cards`, data in `data/cards.json`);
- its referee (`referee`): the board's observations and the table's keys as rule actions;
- its panel (`panel`): what lies on the table, as table pieces and words;
- its demo players (`demo`): the scripted people behind `upref demo whatsup`.

This module declares the game's one entry, `GAME`, which the registry finds
(`upref.registry`); nothing outside this package names the game.
"""

from __future__ import annotations

import argparse
import random
import time

from upref.board.codes import CodeTable
from upref.game import Game
from upref.games.whatsup.cards import load_catalogue
from upref.games.whatsup.demo import STEPS, WhatsUpDemo
from upref.games.whatsup.engine import NAME, TITLE, WhatsUpState
from upref.games.whatsup.panel import PANEL
from upref.games.whatsup.referee import COUNT_KEY, FIGURINE_KEY, WhatsUpReferee
from upref.games.whatsup.variant import Variant
from upref.referee.inputs import Key, StartGame
from upref.text import Msg

__all__ = ["GAME", "items", "playout", "random_inputs"]


def items() -> list[tuple[str, str]]:
    """The thirty bird cards, with both printed sides: 'W05: 1 red / 3 red'."""
    return [(c.id, Msg("{id}: {faces}", id=c.id, faces=c.label())) for c in load_catalogue().cards]


def add_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument(
        "--first-game",
        action="store_true",
        help=Msg(
            "the first-game rule: the cards laid as a rectangle of 6 by 5, and a flipped card "
            "that does not fit goes back to the same place"
        ),
    )


def variant_from_args(args: argparse.Namespace) -> Variant:
    return Variant(first_game=bool(getattr(args, "first_game", False)))


def playout(seed: int) -> int:
    """One random game of three players from the set-up scan to its end; the number of actions
    played."""
    rng = random.Random(seed)
    game = WhatsUpState.new(["A", "B", "C"], rng=seed)
    n = 0
    while not game.is_terminal() and n < 5000:
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n


def random_inputs(seed: int, players: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> list[object]:
    """A random session at the table as referee inputs: the start, the set-up taps, then turns
    with figurine and count keys, flips of any card (refused ones too), an undo now and then,
    to the end. Taps are `(card id, time)` pairs for the caller to turn into observations."""
    rng = random.Random(seed)
    t = 1000.0
    out: list[object] = [StartGame(players, Variant(first_game=seed % 2 == 0), seed, t)]
    cards = list(load_catalogue().ids())
    rng.shuffle(cards)
    for c in cards:
        t += 0.5
        out.append((c, t))
    for _ in range(200):
        t += 0.5
        r = rng.random()
        if r < 0.08:
            out.append(Key(FIGURINE_KEY, t))
        elif r < 0.1:
            out.append(Key(COUNT_KEY, t, str(rng.randint(0, 30))))
        else:
            out.append((rng.choice(cards), t))
    return out


def figures(quick: bool) -> list[str]:
    """The referee itself: random sessions (set-up scan, flips, figurines, refusals) handled
    input by input, without the board."""
    from upref.board.model import CardObservation
    from upref.referee.inputs import Observe, TagInfo

    codes = CodeTable.load()
    sessions = 3 if quick else 10
    handled = 0
    t0 = time.perf_counter()
    for seed in range(sessions):
        ref = WhatsUpReferee(codes)
        for item in random_inputs(seed):
            if isinstance(item, tuple):
                card, t = item
                obs = CardObservation(True, "04AA0000000000")
                ref.handle(Observe(obs, t, TagInfo(NAME, card)))
            else:
                ref.handle(item)  # type: ignore[arg-type]
            handled += 1
    secs = time.perf_counter() - t0
    return [
        f"referee: {handled} inputs of {sessions} random sessions in {secs * 1000:.0f} ms = "
        f"{handled / secs:,.0f} inputs/s"
    ]


GAME = Game(
    name=NAME,
    title=TITLE,
    engine=WhatsUpState,
    referee=WhatsUpReferee,
    panel=PANEL,
    items=items,
    variant=Variant,
    add_options=add_options,
    variant_from_args=variant_from_args,
    players=(2, 4),
    demo=WhatsUpDemo(),
    guide="docs/games/whatsup.md",
    playout=playout,
    figures=figures,
    steps=STEPS,
    shelf=4,
)
