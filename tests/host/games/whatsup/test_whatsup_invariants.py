"""Invariants over random playouts of What's Up, 2 to 4 players, set-up scan included (seeded):
what must hold after every action, whatever happens."""

from __future__ import annotations

import random

import pytest
from rule_ids import undocumented
from upref.games.base import CHANCE, TERMINAL, IllegalMoveError
from upref.games.whatsup.actions import Action, Flip, Lay, Pass, Reserve, action_key
from upref.games.whatsup.cards import COLOURS, COUNTS
from upref.games.whatsup.engine import SPENT, STALL_TURNS, TABLE_END, WhatsUpState
from upref.games.whatsup.variant import Variant
from whatsup_table import check_view

PLAYERS = ("Ann", "Bob", "Cy", "Dee")


def check_state(game: WhatsUpState) -> None:
    """The 30 cards are each in exactly one place (not laid yet, on the table, or in one
    collection); every collection row is a prefix of 1, 2, 3; figurines stand on table cards,
    one to a card; the counters stay in range."""
    ids = game.catalogue.ids()
    table = set(game.table())
    held = [set(game.collection(s)) for s in range(game.num_players())]
    unlaid = set(game.unlaid())
    places = [table, unlaid, *held]
    assert sum(len(p) for p in places) == len(ids) == 30
    assert set().union(*places) == set(ids)
    assert sorted(game.place(c) for c in table | set().union(*held)) == list(range(1, game.laid + 1))
    for s in range(game.num_players()):
        rows = game.rows(s)
        assert set(rows) == set(COLOURS)
        for colour, row in rows.items():
            assert row == COUNTS[: len(row)], (s, colour, row)
        assert game.birds(s) == sum(sum(r) for r in rows.values())
        for cid in held[s]:  # a collected card lies with the face that counts up
            face = game.up(cid)
            assert face.count in rows[face.colour]
    on = [game.figurine(s) for s in range(game.num_players())]
    placed = [c for c in on if c not in (None, "spent")]
    assert len(placed) == len(set(placed)) and set(placed) <= table
    for s, where in enumerate(on):
        if where not in (None, "spent"):
            assert game.figurine_on(where) == s
    assert 0 <= game.since <= STALL_TURNS
    if game.in_setup:
        assert game.current_player() == CHANCE and not held[0] and game.since == 0


def probes(game: WhatsUpState, rng: random.Random) -> list[Action]:
    """Actions of every kind, for random seats and cards, legal or not."""
    ids = game.catalogue.ids()
    n = game.num_players()
    out: list[Action] = [Lay(rng.choice(ids)), Pass(rng.randrange(n)), Flip(n, ids[0])]
    for _ in range(6):
        s, c = rng.randrange(n), rng.choice(ids)
        out += [Flip(s, c), Reserve(s, c)]
    return out


@pytest.mark.parametrize("seed", range(24))
def test_random_playouts_keep_the_invariants(seed: int) -> None:
    rng = random.Random(seed)
    players = PLAYERS[: 2 + seed % 3]
    game = WhatsUpState.new(players, rng=seed, variant=Variant(first_game=seed % 2 == 1))
    first = game._snapshot()
    steps = 0
    rules: set[str] = set()  # the rule of every refusal the probes meet
    while True:
        check_state(game)
        check_view(game, game.view(None))
        actions = game.legal_actions()
        assert actions == sorted(actions, key=action_key)
        if game.is_terminal():
            assert actions == [] and game.current_player() == TERMINAL
            assert abs(sum(game.returns()) - 1.0) < 1e-9
            out = game.outcome()
            assert out is not None and out.scores == tuple(game.birds(s) for s in range(len(players)))
            if out.termination == "table":
                assert len(game.table()) <= TABLE_END
            if out.termination == "stall":
                assert game.since == STALL_TURNS
            for probe in probes(game, rng):  # after the end, everything is refused
                with pytest.raises(IllegalMoveError) as over:
                    game.play(probe)
                rules.add(over.value.rule)
            break
        assert game.returns() == (0.0,) * len(players)
        assert game.current_player() in (CHANCE, *range(len(players)))
        # every legal action is legal; everything else raises and changes nothing
        before = (game._snapshot(), game.view(None), len(game._undo_stack))
        for probe in probes(game, rng):
            if probe in actions:
                assert game.is_legal(probe)
                continue
            with pytest.raises(IllegalMoveError) as played:
                game.play(probe)
            with pytest.raises(IllegalMoveError) as applied:
                game.apply(probe)
            rules |= {played.value.rule, applied.value.rule}
            assert (game._snapshot(), game.view(None), len(game._undo_stack)) == before
        action = rng.choice(actions)
        # a clone is independent in both directions
        twin = game.clone()
        twin.apply(action)
        assert twin._snapshot() != before[0] and game._snapshot() == before[0]
        twin.undo()
        assert twin._snapshot() == before[0]
        game.play(action)
        steps += 1
        assert steps < 2000
    assert steps >= 31  # the 30 cards laid, then at least one flip
    # every refusal names a rule a player can look up in docs/games/whatsup.md
    assert undocumented("whatsup", rules) == []
    while game.can_undo():
        game.undo()
    assert game._snapshot() == first


def test_figurines_get_placed_and_spent_in_random_play() -> None:
    """The playouts above do reach the figurine's states (not just the plain flips)."""
    seen: set[str] = set()
    for seed in range(24):
        rng = random.Random(seed)
        game = WhatsUpState.new(PLAYERS[: 2 + seed % 3], rng=seed)
        while not game.is_terminal():
            game.play(rng.choice(game.legal_actions()))
            for s in range(game.num_players()):
                f = game._s.figurine[s]
                seen.add("spent" if f == SPENT else "unused" if f < 0 else "placed")
    assert seen == {"unused", "placed", "spent"}
