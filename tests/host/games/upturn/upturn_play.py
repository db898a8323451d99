"""Shared by the Upturn engine tests: random playouts (seeded), refused probes, the game's
invariants, and a twin of a game with the same public state but its hidden tiles dealt
differently (so a check can tell public output from anything that depends on a secret)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace

from upref.games.upturn.actions import Action, Call, Draw, Gift, Lay, Pass, Start
from upref.games.upturn.engine import UpturnState
from upref.games.upturn.position import seat_order
from upref.games.upturn.tiles import load_catalogue
from upref.games.upturn.variant import Variant

CAT = load_catalogue()
NAMES = ("Ann", "Bob", "Cy", "Dee")


def random_playout(
    seed: int, players: Sequence[str], variant: Variant | None = None, max_actions: int = 4000
) -> Iterator[tuple[UpturnState, Action | None]]:
    """A game dealt from `seed`, played by uniformly random legal actions: each state with the
    action about to be played (None once the game is over)."""
    rng = random.Random(seed)
    game = UpturnState.new(list(players), rng=seed, variant=variant)
    for _ in range(max_actions):
        if game.is_terminal():
            break
        action = rng.choice(game.legal_actions())
        yield game, action
        game.play(action)
    yield game, None


def conservation(game: UpturnState) -> None:
    """Every one of the 106 tiles is on the line, on a rack or in the pool, once; counts agree."""
    assert len(game.line) + game.pool_count + sum(game.counts()) == len(CAT)
    for s in range(game.num_players()):
        assert game.tiles(s) == len(game.rack(s)) + game.unknown(s) >= 0
    if game.pool is not None and not any(game.unknown(s) for s in range(game.num_players())):
        seen = Counter(game.line) + Counter(game.pool)
        for s in range(game.num_players()):
            seen += Counter(game.rack(s))
        assert seen == Counter(CAT.ids()), "tiles lost or doubled"


def order_agrees(game: UpturnState) -> None:
    """The seat order shown follows the direction (up = clockwise)."""
    view = game.view(None)
    if view.to_move is None:
        return
    n = game.num_players()
    assert view.order == seat_order(view.direction, view.to_move, n)
    step = -1 if view.direction == "down" else 1
    assert view.order[1] == (view.to_move + step) % n


def turn_passed_right(before: UpturnState, after: UpturnState) -> None:
    """When a turn ends, the next player is the one the final direction and the Skip tiles
    give: each skipped seat lies between, in the direction."""
    if after.is_terminal() or after.turn == before.turn:
        return
    view = after.view(None)
    n = after.num_players()
    step = -1 if after.direction == "down" else 1
    p = before.current_player()
    skipped = [s.seat for s in view.players if s.skipped]
    expected_skipped = [(p + step * (k + 1)) % n for k in range(len(skipped))]
    assert sorted(skipped) == sorted(set(expected_skipped)), (skipped, expected_skipped)
    assert after.current_player() == (p + step * (len(expected_skipped) + 1)) % n


def illegal_probes(game: UpturnState, rng: random.Random) -> list[Action]:
    """Actions that are not legal now (each checked to be refused by the caller)."""
    legal = set(game.legal_actions())
    probes: list[Action] = []
    if game.line:
        probes.append(Lay(rng.choice(game.line)))
    seat = game.current_player()
    if seat >= 0:
        mine = [t for t in game.rack(seat) if Lay(t) not in legal]
        if mine:
            probes.append(Lay(rng.choice(mine)))
        others = [t for s in range(game.num_players()) if s != seat for t in game.rack(s)]
        if others:
            probes.append(Lay(rng.choice(others)))
        probes.append(Gift(((seat, 1),)))
        if game.gifts:  # more than was earned (more than the pool holds is given, T-19)
            other = (seat + 1) % game.num_players()
            probes.append(Gift(((other, game.gifts_earned + 1),)))
    probes += [Draw(), Pass(), Call(), Start("N42"), Lay("N3"), Gift()]
    return [p for p in probes if p not in legal]


def hidden_twin(game: UpturnState, rng: random.Random, keep: Sequence[str] = ()) -> UpturnState:
    """A clone with the same public state whose hidden tiles (racks and pool) are dealt anew,
    each rack keeping its size; tiles in `keep` stay where they are."""
    twin = game.clone()
    s = twin._s
    racks = [list(r) for r in s.racks]
    pool = list(s.pool or ())
    loose = [t for r in racks for t in r if t not in keep] + [t for t in pool if t not in keep]
    rng.shuffle(loose)
    new_racks = []
    for r in racks:
        kept = [t for t in r if t in keep]
        take = len(r) - len(kept)
        new_racks.append(tuple(sorted(kept + loose[:take], key=CAT.ids().index)))
        loose = loose[take:]
    new_pool = [t for t in pool if t in keep] + loose
    twin._s = replace(
        s, racks=tuple(new_racks), pool=tuple(new_pool) if s.pool is not None else None
    )
    return twin


def action_tiles(action: Action | None) -> tuple[str, ...]:
    """The tiles an action moves out of a rack (kept in place by `hidden_twin`)."""
    return (action.tile,) if isinstance(action, Lay) else ()
