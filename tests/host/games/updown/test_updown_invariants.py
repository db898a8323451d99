"""Invariants over random legal playouts of Up And Down (seeded): what must hold in every
state, whatever happens."""

from __future__ import annotations

import random

import pytest
from rule_ids import undocumented
from updown_play import check_public_text, check_views, illegal_probes, random_playout
from upref.games.base import CHANCE, TERMINAL, IllegalMoveError
from upref.games.updown.variant import Variant

VARIANTS = [
    Variant(),
    Variant(short_game_target=3, mole_mix=True),
    Variant(super_buddler=True, short_game_target=2),
]


@pytest.mark.parametrize("seed", range(12))
def test_random_playouts_keep_the_invariants(seed: int) -> None:
    rng = random.Random(seed)
    variant = VARIANTS[seed % len(VARIANTS)]
    players = ("Ann", "Bob", "Cy", "Dee")[: 2 + seed % 3]
    first = None
    game = None
    rules: set[str] = set()
    for game, action in random_playout(seed, players, variant, max_actions=300):
        if first is None:
            first = game._snapshot()
        assert sum(game.visible_counts().values()) == 10
        check_views(game)
        actions = game.legal_actions()
        assert actions == sorted(actions)
        assert all(game.is_legal(a) for a in actions)
        if game.is_terminal():
            assert actions == [] and game.current_player() == TERMINAL
            assert abs(sum(game.returns()) - 1.0) < 1e-9
            out = game.outcome()
            assert out is not None and out.scores == tuple(
                game.shovels(s) for s in range(len(players))
            )
            assert action is None
            break
        assert game.returns() == (0.0,) * len(players)
        assert game.current_player() in (CHANCE, *range(len(players)))
        # Refused actions raise and leave the state exactly as it was.
        before = (game._snapshot(), game.view(None), len(game._undo_stack))
        for probe in illegal_probes(game, rng):
            with pytest.raises(IllegalMoveError) as info:
                game.play(probe)
            rules.add(info.value.rule)
            check_public_text(game, info.value.message, probe)
            check_public_text(game, info.value.correction or "", probe)
            with pytest.raises(IllegalMoveError):
                game.apply(probe)
            assert (game._snapshot(), game.view(None), len(game._undo_stack)) == before
        # A clone is independent in both directions.
        twin = game.clone()
        assert action is not None
        twin.apply(action)
        assert game._snapshot() == before[0]
        assert twin._snapshot() != before[0]  # every legal action changes the state
        twin.undo()
        assert twin._snapshot() == before[0]
    assert game is not None and first is not None
    # Every refusal names a rule a player can look up in docs/games/updown.md.
    assert undocumented("updown", rules) == []
    # Undo walks all the way back to the start.
    while game.can_undo():
        game.undo()
    assert game._snapshot() == first
