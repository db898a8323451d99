"""Invariants over random legal playouts of Flip a Bird (seeded, 3 to 6 players, with and without
the pile scan), checked after every action: the 60 cards conserved over their places, two cards
in every hand in the normal phase, legal actions sorted and legal, refused actions raising and
changing nothing (each with a rule the game's guide explains), clones independent, undo back to
the start, and no face-down card, hand card, pile card or secret tip in the public view."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import asdict
from typing import Any

import pytest
from rule_ids import undocumented
from upref.games.base import TERMINAL, IllegalMoveError
from upref.games.flipabird.actions import Action, Claim, Pass, Play, Take, Tip, WrongWay
from upref.games.flipabird.cards import load_catalogue
from upref.games.flipabird.engine import FlipABirdState
from upref.games.flipabird.position import FlipABirdDescription, deal
from upref.games.flipabird.variant import HAND, Variant

CAT = load_catalogue()


def places(game: FlipABirdState) -> Counter[str]:
    """Every known card by the place the engine has it in (each card in one place)."""
    c: Counter[str] = Counter()
    for card in game.pile or ():
        c[card] += 1
    for s in range(game.num_players()):
        for card in game.hand(s):
            c[card] += 1
        for w in game.won(s):
            c[w.id] += 1
    for r in game.row:
        c[r.card] += 1
    for card in game.out:
        c[card] += 1
    for card in game.unseen:
        c[card] += 1
    return c


def check_conservation(game: FlipABirdState) -> None:
    c = places(game)
    assert set(c) == set(CAT.ids()) and set(c.values()) == {1}, game
    slots = sum(game.unknown(s) for s in range(game.num_players())) + game.out_unknown
    if game.pile is None:
        slots += game.pile_left
    assert len(game.unseen) == slots, game
    assert game.count_places() == 60


def secrets(game: FlipABirdState) -> set[str]:
    """Card ids nobody at the table may see now: face-down row cards, cards in hands (the
    engine's known ones), the pile, and everything unseen."""
    out = {r.card for r in game.row if not r.up}
    claim = game.claim_state
    if claim is not None and claim.evaluation is None:
        out |= {r.card for r in claim.row if not r.up}
    for s in range(game.num_players()):
        out |= set(game.hand(s))
    out |= set(game.pile or ())
    out |= set(game.unseen)
    if game.outcome() is not None:
        out |= set(game.out) - {c for row in game.removed_rows for c in row}
    return out


_WORD = re.compile(r"[A-Z][A-Za-z0-9-]*")


def check_public_view(game: FlipABirdState) -> None:
    view = game.view(None)
    data = json.dumps(asdict(view), ensure_ascii=False)
    leaked = sorted(set(_WORD.findall(data)) & secrets(game))
    assert not leaked, f"secret {', '.join(leaked)} in the public view"
    assert view.hand is None and view.hand_unknown is None and view.own_tip is None
    for r, mine in zip(view.row, game.row, strict=True):
        assert (r.card is None) == (not mine.up)
    claim = game.claim_state
    if claim is not None and claim.evaluation is None:
        for p in view.players:
            if p.seat not in (claim.claimant, claim.accused):
                assert p.tip is None, f"{p.name}'s tip shown before all are in"


def check_hands(game: FlipABirdState) -> None:
    n = game.num_players()
    if game.outcome() is not None:
        assert all(game.hand_size(s) == 0 for s in range(n))
    elif not game.final:
        assert [game.hand_size(s) for s in range(n)] == [HAND] * n  # F-15
    else:
        assert all(game.hand_size(s) <= HAND for s in range(n))


def probes(game: FlipABirdState, rng: random.Random) -> list[Action]:
    """Actions the rules forbid now."""
    out: list[Action] = []
    legal = set(game.legal_actions())
    cands: list[Action] = [Claim(), Pass(), WrongWay(), Tip(0, True), Take("B1a")]
    cards = list(CAT.ids())
    for _ in range(6):
        card = rng.choice(cards)
        cands += [Play(card, True), Play(card, False), Take(card)]
    cands += [Play("TIP-R1", False), Tip(9, True)]
    for a in cands:
        if a not in legal:
            out.append(a)
    return out


def choose(game: FlipABirdState, rng: random.Random) -> Action:
    """A random legal action, with claims now and then and the F-11 end taken when offered
    (uniform choice would almost never claim: one Claim among dozens of plays)."""
    actions = game.legal_actions()
    if Pass() in actions and rng.random() < 0.7:
        return Pass()
    if Claim() in actions and rng.random() < 0.12:
        return Claim()
    rest = [a for a in actions if not isinstance(a, Claim | Pass)] or actions
    return rng.choice(rest)


def playout(seed: int) -> None:
    rng = random.Random(seed)
    n = 3 + seed % 4
    players = tuple(f"P{i}" for i in range(n))
    variant = Variant(pile=10 + seed % 30) if seed % 3 == 2 else Variant()
    pile, _, _ = deal(n, rng, variant)
    game = FlipABirdState.new(players, pile=pile if seed % 2 == 0 else None, variant=variant)
    first = game._snapshot()
    seen: Counter[str] = Counter()
    rules: set[str] = set()
    for _ in range(3000):
        check_conservation(game)
        check_hands(game)
        check_public_view(game)
        actions = game.legal_actions()
        assert actions == sorted(actions)
        if game.is_terminal():
            assert actions == [] and game.current_player() == TERMINAL
            assert abs(sum(game.returns()) - 1.0) < 1e-9
            out = game.outcome()
            assert out is not None and out.scores == tuple(game.score(s).points for s in range(n))
            break
        assert actions, game
        before = (game._snapshot(), len(game._undo_stack))
        for probe in probes(game, rng):
            with pytest.raises(IllegalMoveError) as refused:
                game.play(probe)
            rules.add(refused.value.rule)
            with pytest.raises(IllegalMoveError):
                game.apply(probe)
            assert (game._snapshot(), len(game._undo_stack)) == before
        action = choose(game, rng)
        seen[type(action).__name__] += 1
        twin = game.clone()
        twin.apply(action)
        assert game._snapshot() == before[0] and twin._snapshot() != before[0]
        game.play(action)
        assert game._snapshot() == twin._snapshot()
    else:
        raise AssertionError(f"no end after 3000 actions: {game!r}")
    assert seen["Play"] > 10 and seen["Claim"] >= 1
    assert undocumented("flipabird", rules) == [], f"refusals the guide does not explain: {rules}"
    while game.can_undo():
        game.undo()
    assert game._snapshot() == first


@pytest.mark.parametrize("seed", range(16))
def test_random_playouts_keep_the_invariants(seed: int) -> None:
    playout(seed)


def test_every_ruled_event_happens_in_random_playouts() -> None:
    """The playouts reach what the invariants must hold across: F-9 removals, claims either
    way, the final phase and both ends."""
    events: Counter[str] = Counter()
    for seed in range(60):
        rng = random.Random(seed)
        n = 3 + seed % 4
        pile, _, _ = deal(n, rng)
        game = FlipABirdState.new([f"P{i}" for i in range(n)], pile=pile)
        while not game.is_terminal():
            action = choose(game, rng)
            text = game.play(action)
            if "(F-9)" in text:
                events["F-9"] += 1
            if game.evaluation is not None and isinstance(action, Tip) and game.phase == "take":
                events[game.evaluation.right] += 1
        out = game.outcome()
        assert out is not None
        events[out.termination] += 1
    assert all(events[k] > 0 for k in ("F-9", "red", "green", "claim", "no-claim")), events


def test_a_leak_fails_the_public_view_check() -> None:
    """The check sees a face-down card in a view, and a tip shown too early."""
    game = FlipABirdState.position(FlipABirdDescription(("A", "B", "C"), row=[("R2c", False, 2), ("B1a", True, 0)], to_move=1))
    check_public_view(game)
    leaky: Any = game.view(None)
    from dataclasses import replace

    from upref.games.flipabird.view import CardView

    shown = replace(leaky.row[0], card=CardView.of(CAT.card("R2c")))
    doctored = replace(leaky, row=(shown, leaky.row[1]))
    original = game.view
    game.view = lambda seat: doctored  # type: ignore[method-assign]
    with pytest.raises(AssertionError, match="secret R2c in the public view"):
        check_public_view(game)
    game.view = original  # type: ignore[method-assign]
    game.play(Claim())
    early = replace(game.view(None), players=tuple(replace(p, tip="red") for p in game.view(None).players))
    game.view = lambda seat: early  # type: ignore[method-assign]
    with pytest.raises(AssertionError, match="tip shown before all are in"):
        check_public_view(game)
