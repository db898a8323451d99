"""Invariants over random Upturn playouts from 2 to 4 players (seeded), after every action: the
106 tiles conserved across pool, racks and line; the direction and the seat order agree; every
legal action is accepted; refused ones raise, change nothing and name a rule the guide explains;
and a game refereed at a table (racks only counted) follows a dealt game exactly."""

from __future__ import annotations

import random

import pytest
from rule_ids import undocumented
from upref.games.base import TERMINAL, IllegalMoveError
from upref.games.upturn.actions import Call, Draw, Gift, Lay, Pass, Start
from upref.games.upturn.engine import UpturnState
from upref.games.upturn.variant import Variant
from upturn_play import (
    NAMES,
    conservation,
    illegal_probes,
    order_agrees,
    random_playout,
    turn_passed_right,
)

SEEDS = range(18)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_playouts_keep_the_invariants(seed: int) -> None:
    rng = random.Random(seed)
    players = NAMES[: 2 + seed % 3]
    variant = Variant(deal=(7, 5, 9)[seed % 3])
    first = None
    game = None
    seen: set[str] = set()
    raised: set[str] = set()  # the rules the probes were refused by
    for game, action in random_playout(seed, players, variant):
        if first is None:
            first = game._snapshot()
        conservation(game)
        order_agrees(game)
        seen.add(game.phase)
        actions = game.legal_actions()
        assert actions == sorted(actions)
        if game.is_terminal():
            assert actions == [] and game.current_player() == TERMINAL and action is None
            out = game.outcome()
            assert out is not None and out.scores == game.counts()
            assert abs(sum(game.returns()) - 1.0) < 1e-9
            if out.termination == "empty-rack":
                assert [game.tiles(w) for w in out.winners] == [0]
            else:
                assert out.winners == tuple(
                    s for s, c in enumerate(out.scores) if c == min(out.scores)
                )
            break
        for a in actions:
            game.check(a)  # every listed action is legal: never raises
        if game.gifts:
            assert game.phase in ("twin", "gift")
        before = (game._snapshot(), game.view(None), len(game._undo_stack))
        for probe in illegal_probes(game, rng):
            with pytest.raises(IllegalMoveError) as info:
                game.play(probe)
            assert info.value.rule and info.value.message
            raised.add(info.value.rule)
            with pytest.raises(IllegalMoveError):
                game.apply(probe)
            assert (game._snapshot(), game.view(None), len(game._undo_stack)) == before
        assert action is not None
        twin = game.clone()
        twin.apply(action)
        assert game._snapshot() == before[0]  # a clone is independent
        turn_passed_right(game, twin)
        twin.undo()
        assert twin._snapshot() == before[0]
    assert game is not None and first is not None and game.is_terminal()
    assert {"turn", "drawn"} <= seen
    assert undocumented("upturn", raised) == []  # every refusal names a rule the guide explains
    while game.can_undo():  # undo walks all the way back
        game.undo()
    assert game._snapshot() == first


def test_random_playouts_reach_every_kind_of_turn() -> None:
    phases: set[str] = set()
    endings: set[str] = set()
    for seed in range(40):
        for game, _ in random_playout(seed, NAMES[: 2 + seed % 3]):
            phases.add(game.phase)
            if game.is_terminal():
                endings.add(game.outcome().termination)  # type: ignore[union-attr]
    assert phases == {"turn", "drawn", "twin", "joker", "gift", "over"}
    assert endings == {"empty-rack", "pool-exhausted"}


@pytest.mark.parametrize("seed", range(10))
def test_a_counted_game_follows_the_dealt_game_exactly(seed: int) -> None:
    """The referee's engine (every rack unknown) is fed what the dealt game does: it accepts
    every action, keeps the same counts, and shows the same public view and verdicts."""
    players = list(NAMES[: 2 + seed % 3])
    table = UpturnState.at_table(players)
    rng = random.Random(seed)
    dealt = UpturnState.new(players, rng=seed)
    table.play(Start(dealt.line[0]))
    steps = 0
    while not dealt.is_terminal():
        action = rng.choice(dealt.legal_actions())
        assert table.is_legal(action), (action, table)
        assert dealt.play(action) == table.play(action)
        assert table.view(None) == dealt.view(None)
        conservation(table)
        steps += 1
    assert table.outcome() == dealt.outcome() and steps > 5


def test_a_counted_game_refuses_what_the_count_does_not_allow() -> None:
    game = UpturnState.at_table(list(NAMES[:3]), variant=Variant(deal=2))
    game.play(Start("N40"))
    with pytest.raises(IllegalMoveError) as info:
        game.play(Lay("JOKER1"))
    assert info.value.rule == "T-3"
    game.play(Lay("N52"))
    game.play(Call())  # Ann: one tile left by the count, called
    for _ in range(2):  # Bob and Cy draw and keep
        game.play(Draw())
        game.play(Pass())
    with pytest.raises(IllegalMoveError) as info:
        game.play(Lay("SKIP1"))
    assert info.value.rule == "T-9" and info.value.message.startswith("By the count Ann holds 1")
    game.play(Lay("N53"))
    assert game.outcome() is not None and game.outcome().winners == (0,)  # type: ignore[union-attr]


def test_legal_actions_of_a_counted_rack_are_every_tile_not_yet_seen() -> None:
    game = UpturnState.at_table(list(NAMES[:3]))
    game.play(Start("N40"))
    lays = {a.tile for a in game.legal_actions() if isinstance(a, Lay)}
    numbered = {t.id for t in game.catalogue.numbered() if t.number != 40}
    assert lays == numbered  # the first move: any numbered tile not on the line
    game.play(Lay("N41"))
    lays = {a.tile for a in game.legal_actions() if isinstance(a, Lay)}
    assert "N40" not in lays and "N41" not in lays and "N39" not in lays and "N42" in lays
    assert "UP1" not in lays and "DOWN1" in lays  # T-16
    assert not any(isinstance(a, Gift) for a in game.legal_actions())
