"""Property: over random sessions of a real Up referee fed by a table (seeded, 2 to 10 players,
with refused cards, forgotten calls, undos, stopped rounds, counts), nothing hidden reaches what
everyone sees: the scoreboard (terminal, plain, JSON), the public verdicts, the public export.
Hidden = the cards in hands and face down, built from the table's and the engine's private state:

- no id of a hidden card appears in any public text;
- the public scoreboard does not change when the hidden cards are dealt differently (the cards
  in hands and face down shuffled among those places, as many in each): whatever it showed of
  them would change with them.

A planted leak (a panel showing a hand, a verdict naming a hand card) makes the checks fail."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest
from panel_text import console_text
from up_cases import STATES
from up_table import Chaos, UpTable
from upref.games.up.engine import UpState
from upref.games.up.panel import PANEL, UpPanel
from upref.games.up.variant import Variant
from upref.games.up.view import UpView
from upref.referee.status import INFO, TableStatus, Verdict
from upref.views import plain, terminal
from upref.views.blocks import Scoreboard
from upref.views.scoreboard import scoreboard

RICH_EVERY = 10
_ID = re.compile(r"\b[A-J](?:1[01]|[1-9]|-2|D)\b")


def hidden(game: UpState) -> set[str]:
    """The ids of the cards in hands and face down (as far as `game` knows them)."""
    out: set[str] = set()
    for p in range(game.num_players()):
        out |= set(game.hand(p)) | set(game.face_down(p))
    return out


def reshuffled(game: UpState, rng: random.Random) -> UpState:
    """The same round with the hidden cards (hands and face-down) dealt differently: as many in
    each place, the cards shuffled among them."""
    s = game._s
    n = game.num_players()
    cards = [c for p in range(n) for c in (*s.hands[p], *s.downs[p])]
    rng.shuffle(cards)
    hands, downs, i = [], [], 0
    for p in range(n):
        hands.append(game._sorted(cards[i : i + len(s.hands[p])]))
        i += len(s.hands[p])
        downs.append(game._sorted(cards[i : i + len(s.downs[p])]))
        i += len(s.downs[p])
    twin = game.clone()
    twin._s = replace(s, hands=tuple(hands), downs=tuple(downs))
    return twin


def public_texts(board: Scoreboard) -> tuple[str, str]:
    return plain.render(board), json.dumps(board.as_json())


def assert_no_id(secret: set[str], text: str) -> None:
    for cid in _ID.findall(text):
        assert cid not in secret, f"hidden card {cid} shown:\n{text}"


def assert_same_without_the_secrets(game: UpState, status: TableStatus, rng: random.Random,
                                    panel: UpPanel = PANEL) -> None:
    shown = scoreboard(game.view(None), status, panel)
    other = scoreboard(reshuffled(game, rng).view(None), status, panel)
    if other != shown:  # every rendering is drawn from the board alone: say which text differs
        assert public_texts(other) == public_texts(shown), "a hidden card shows"
        raise AssertionError(f"a hidden card shows in the scoreboard's data:\n{shown}\n{other}")


def _check(tb: UpTable, step: int, rng: random.Random) -> None:
    ref, truth = tb.ref, tb.truth
    view = ref.view(None)
    if not ref.has_engine or not isinstance(view, UpView):
        return
    eng = ref.engine
    status = ref.status()
    secret = hidden(truth) | hidden(eng)
    for v in status.verdicts:
        assert v.seat is None
        assert_no_id(secret, v.text + " " + (v.correction or ""))
    board = scoreboard(view, status, PANEL)
    for text in public_texts(board):
        assert_no_id(secret, text)
    if step % RICH_EVERY == 0:
        assert_no_id(secret, console_text(terminal.render(board)))
    if ref.phase == "play":  # (once a round is scored, its points show what was left)
        assert_same_without_the_secrets(eng, status, rng)
        if not truth.is_terminal():
            assert_same_without_the_secrets(truth, status, rng)


@pytest.mark.parametrize("seed", range(6))
def test_nothing_hidden_reaches_the_table(seed: int) -> None:
    players = (2, 3, 4, 6, 8, 10)[seed]
    variant = (Variant(), Variant(without_minus2=True), Variant(up300=True))[seed % 3]
    tb = UpTable(tuple(f"P{i}" for i in range(players)), variant, seed=seed)
    chaos = Chaos(tb, seed)
    rng = random.Random(seed)
    checked = 0
    for step in range(350):
        chaos.step()
        _check(tb, step, rng)
        checked += 1
    assert checked == 350 and tb.engine.round >= 1


def test_the_golden_scenes_keep_the_secrets() -> None:
    rng = random.Random(1)
    for name, make in STATES.items():
        tb = make()
        _check(tb, 0, rng)
        assert name


# --- the checks can fail -------------------------------------------------------------------------


def test_the_checks_see_a_planted_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    tb = STATES["owes_call"]()
    truth = tb.truth
    status = tb.ref.status()
    rng = random.Random(3)
    honest_view = UpState.view

    def leaky_view(game: UpState, seat: int | None) -> UpView:
        """The public view with each hand's cards slipped in among the face-up ones."""
        v = honest_view(game, seat)
        players = tuple(replace(p, up=p.up + game._faces(game.hand(p.seat))) for p in v.players)
        return replace(v, players=players)

    monkeypatch.setattr(UpState, "view", leaky_view)
    with pytest.raises(AssertionError, match="a hidden card shows"):
        for _ in range(5):  # a reshuffle may by chance deal the same faces: try a few
            assert_same_without_the_secrets(truth, status, rng)
    monkeypatch.undo()
    # a verdict naming a card in a hand: seen in the verdict, and on a board that lets ids through
    secret = hidden(truth)
    cid = sorted(secret)[0]
    leak = Verdict(INFO, f"Ann holds {cid}.")
    with pytest.raises(AssertionError, match="hidden card"):
        assert_no_id(secret, leak.text)
    leaky = TableStatus(verdicts=(leak,))
    with pytest.raises(AssertionError, match="hidden card"):
        assert_no_id(secret, plain.render(scoreboard(truth.view(None), leaky, _Raw())))
    assert_no_id(secret, plain.render(scoreboard(truth.view(None), leaky, PANEL)))  # scrubbed


class _Raw(UpPanel):
    """A panel that lets card ids through (no scrub)."""

    def scrub(self, text: str) -> str:
        return text
