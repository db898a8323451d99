"""Invariants over random playouts of Up (seeded), for 2 to 10 players and every variant: what
must hold in every state, whatever happens; and whole evenings (a ten-player Up300 evening)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from rule_ids import undocumented
from upref.games.base import TERMINAL, IllegalMoveError
from upref.games.up import evening, playout
from upref.games.up.actions import (
    DOWN,
    HAND,
    UP,
    Action,
    Call,
    Cut,
    DealUp,
    DirtyOne,
    Join,
    Pass,
    Play,
    Reveal,
    action_key,
)
from upref.games.up.engine import UpState
from upref.games.up.variant import UP300, Variant

VARIANTS = [
    Variant(),
    Variant(dirty_one=True),
    Variant(without_minus2=True),
    Variant(scoring="cards"),
    Variant(scoring="tokens", rounds=2),
    Variant(up300=True),
]


def where_all(game: UpState) -> Counter[str]:
    """Every card of the deck by place: each must be in exactly one place."""
    places: Counter[str] = Counter()
    for c in game.deck:
        places[game.locate(c)[0]] += 1
    return places


def check_conservation(game: UpState, removed_before: int) -> int:
    """13 (12 without -2) x players cards, each in one place; removals only grow."""
    n = game.num_players()
    per = 12 if game.variant.without_minus2 else 13
    assert len(game.deck) == per * n
    assert game.card_count() == per * n
    places = where_all(game)
    assert places["out"] == 0 and places["unseen"] == 0  # dealt by the engine: every card known
    held = sum(len(game.hand(p)) + len(game.face_up(p)) + len(game.face_down(p)) for p in range(n))
    assert held + len(game.tower) + len(game.removed) + places["stock"] == per * n
    assert len(set(game.removed)) == len(game.removed) >= removed_before
    return len(game.removed)


def illegal_probes(game: UpState, rng: random.Random) -> list[Action]:
    """Actions that are illegal here by construction."""
    n = game.num_players()
    probes: list[Action] = [DealUp(0, game.deck[0]), Reveal(0, game.deck[0])]
    if game.phase == "cut":
        return probes + [Play(game.cutter, HAND, (game.deck[0],))]
    seat = game.to_move
    other = (seat + 1) % n
    probes.append(Cut(None))
    if game.call_due is None:
        probes.append(Call(seat))
    else:
        probes.append(Call((game.call_due + 1) % n))
    if game.view(None).players[seat].hand == 0 and not game.face_up(seat) and not game.face_down(seat):
        return probes
    others = [c for c in game.hand(other) + game.face_up(other)]
    if others:
        probes.append(Play(seat, HAND, (rng.choice(others),)))  # another player's card
    mine = game.hand(seat)
    if mine:
        probes.append(Play(other, HAND, (mine[0],)))  # out of turn
        values = {game.catalogue.card(c).face for c in mine}
        if len(values) > 1:
            a = mine[0]
            b = next(c for c in mine if game.catalogue.card(c).face != game.catalogue.card(a).face)
            probes.append(Play(seat, HAND, (a, b)))  # unequal
    if game.face_up(seat) and game.face_down(seat):
        probes.append(Play(seat, DOWN, (game.face_down(seat)[0],)))  # U-14 (or U-12)
    if game.first_turn(seat) and game.face_up(seat):
        probes.append(Play(seat, UP, (game.face_up(seat)[0],)))  # U-12
    if len(game.face_down(seat)) >= 2:
        probes.append(Play(seat, DOWN, game.face_down(seat)[:2]))  # U-4
    if not game.founding:
        probes.append(Pass(seat))
    if game.last_play is None:
        probes.append(Join(seat, game.deck[-1]))
    if game.view(None).players[seat].cards and game.is_legal(DirtyOne(seat)) is False:
        probes.append(DirtyOne(seat))
    minus = [c for c in mine if game.catalogue.card(c).kind == "minus2"]
    if game.founding and minus:
        probes.append(Play(seat, HAND, (minus[0],)))  # U-2
    if game.tower:
        probes.append(Play(seat, HAND, (game.tower[0],)))  # a card on the tower
    return probes


@pytest.mark.parametrize("players", range(2, 11))
def test_random_playouts_keep_the_invariants(players: int) -> None:
    rules: set[str] = set()  # every rule a probe is refused with: each one in the guide
    for seed in range(2 if players > 5 else 3):
        variant = VARIANTS[(seed + players) % len(VARIANTS)]
        rng = random.Random(seed * 100 + players)
        game = UpState.new([f"P{i}" for i in range(players)], rng=seed, variant=variant)
        first = game._snapshot()
        removed = 0
        steps = 0
        while not game.is_terminal():
            steps += 1
            assert steps < 20_000, game
            removed = check_conservation(game, removed)
            actions = game.legal_actions()
            assert actions and actions == sorted(actions, key=action_key)
            assert game.current_player() >= 0
            assert len({game.holding(p) for p in range(players)}) >= 1
            before = (game._snapshot(), game.view(None), len(game._undo_stack))
            for probe in illegal_probes(game, rng):
                with pytest.raises(IllegalMoveError) as refused:
                    game.play(probe)
                rules.add(refused.value.rule)
                with pytest.raises(IllegalMoveError):
                    game.apply(probe)
                assert (game._snapshot(), game.view(None), len(game._undo_stack)) == before
            action = rng.choice(actions)
            twin = game.clone()
            game.play(action)  # a legal action never raises
            assert twin._snapshot() == before[0]  # the clone did not move
            twin.apply(action)
            assert twin._snapshot() == game._snapshot()
        check_conservation(game, removed)
        assert game.legal_actions() == [] and game.current_player() == TERMINAL
        out = game.outcome()
        assert out is not None and abs(sum(game.returns()) - (1.0 if out.winners else 0.0)) < 1e-9
        finisher = game.finisher
        if finisher is not None:
            assert game.holding(finisher) == 0
            assert out.termination in ("out", "up300", "rounds")
        row = game.round_score()
        if variant.scoring == "points":
            for p in range(players):
                if p != finisher:
                    assert row.points[p] == sum(
                        _points(game, c) for c in (*game.hand(p), *game.face_up(p), *game.face_down(p))
                    )
            assert out.scores == tuple(max(0, pts) for pts in row.points)  # U-7 (round 1)
        while game.can_undo():
            game.undo()
        assert game._snapshot() == first
    assert undocumented("up", rules) == []


def _together(game: UpState, action: Action) -> Action:
    """A disposal card played from hand or face-up becomes every disposal card of that source
    played together (U-18; `legal_actions()` lists the one card, which does the same)."""
    if not isinstance(action, Play) or action.source == DOWN:
        return action
    if game.catalogue.card(action.cards[0]).kind != "disposal":
        return action
    pile = game.hand(action.seat) if action.source == HAND else game.face_up(action.seat)
    return Play(action.seat, action.source, tuple(c for c in pile if game.catalogue.card(c).kind == "disposal"))


def test_u18_several_disposal_cards_together_keep_every_card_accounted_for() -> None:
    together = 0
    for players in (3, 6, 10):
        for seed in range(6):
            rng = random.Random(seed)
            game = UpState.new([f"P{i}" for i in range(players)], rng=seed)
            removed = 0
            while not game.is_terminal():
                removed = check_conservation(game, removed)
                action = _together(game, rng.choice(game.legal_actions()))
                tower, before = game.tower, game.removed
                game.play(action)
                if isinstance(action, Play) and len(action.cards) > 1 and action.cards[0] in game.removed:
                    together += 1  # the tower and every one of the cards left the game
                    assert game.removed == (*before, *tower, *action.cards)
                    assert game.tower == () and (game.founding or game.is_terminal())
            check_conservation(game, removed)
    assert together >= 3, together


def _points(game: UpState, cid: str) -> int:
    card = game.catalogue.card(cid)
    if card.kind == "number":
        return 30 if card.value == 1 and game.dirty() else card.value
    return 20 if card.kind == "minus2" else 50


def test_a_ten_player_up300_evening_ends_after_the_round_that_passes_300() -> None:
    for seed in range(2):
        last = evening(seed)
        out = last.outcome()
        assert out is not None and out.termination == "up300"
        table = last.view(None).table
        assert [r.round for r in table] == list(range(1, len(table) + 1)) and len(table) >= 2
        totals = [0] * 10
        for r in table:
            assert max(totals) <= UP300  # no earlier round passed 300
            totals = [max(0, t + p) for t, p in zip(totals, r.points, strict=True)]
            assert tuple(totals) == r.totals
            if r.finisher is not None:
                assert r.points[r.finisher] in (-10, -80)
                assert sum(1 for p in r.points if p < 0) == 1
        assert max(totals) > UP300 and out.scores == tuple(totals)
        assert out.winners == tuple(p for p in range(10) if totals[p] == min(totals))
        dealers = [(last.dealer - i) % 10 for i in range(len(table))]
        assert len(set(dealers)) == min(len(table), 10)
        assert "the evening is over" in last.verdict
        nxt = last.next_round()
        assert nxt.round == 1 and nxt.totals == (0,) * 10 and nxt.view(None).evening == 2


def test_rounds_variant_ends_the_evening_and_tokens_count_wins() -> None:
    last = evening(3, players=4, variant=Variant(scoring="tokens", rounds=3))
    out = last.outcome()
    assert out is not None and out.termination == "rounds"
    table = last.view(None).table
    assert len(table) == 3 and sum(out.scores) == sum(1 for r in table if r.finisher is not None)
    assert out.winners == tuple(p for p in range(4) if out.scores[p] == max(out.scores))


def test_the_bench_playout_is_a_whole_ten_player_round() -> None:
    n = playout(1)
    game = UpState.new([f"P{i}" for i in range(10)], rng=1)
    rng = random.Random(1)
    k = 0
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
        k += 1
    assert n == k > 10
