"""Up's scoreboard: golden texts (tests/golden/up/<state>.txt: the terminal, no colour, 80
columns; <state>.plain.txt: the plain rendering) for states a real referee reached from a table
(`up_cases`). Each file was read against the rules when it was written (the tower and the
number to beat, the cards by source, the call owed, the skip, the evening's arithmetic); what each
state must show is asserted below as well, partly recomputed from the referee's own state, so a
golden regenerated blindly from wrong output still fails."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from panel_text import console_text
from up_cases import STATES, board
from up_table import UpTable
from upref.games.up.panel import PANEL
from upref.games.up.position import UpDescription
from upref.views import plain, terminal
from upref.views.blocks import HIDDEN, Box

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "up"

MUST_SHOW: dict[str, tuple[str, ...]] = {
    "cut": ("Bob cuts; Cy deals.", "▶   Bob", "k Bob keeps the cut card", "Waiting for: Bob cuts"),
    "deal": ("Dealing: Cy's face-up card 2 of 4 is tapped next.", "face-up card next"),
    "illegal": ("ILLEGAL U-12", "TO FIX  Bob: put the card back face up.", "1st turn: hand only"),
    "owes_call": ("LAST CARD", "owes 'last card'", "Bob holds one card", "the button"),
    "skip": ("skips next turn", "Skipped next turn (forgot 'last card'): Bob.", "did not call"),
    "count": ("The count: Bob taps the remaining cards.", "p type the points of Bob's untapped"),
    "round_over": ("58*", "* points typed in by hand", "Round 2: Bob went out"),
    "up300": ("Up300: the evening ends", "Jo wins the evening with 128 points", "(U-8)", "-80"),
}


def facts(name: str, tb: UpTable, text: str) -> None:
    """What the state must show, recomputed from the referee's own state."""
    view = tb.view()
    for p in view.players:  # every player's cards by source, on the player's row
        ups = " · ".join(p.up) or "-"
        row = next(ln for ln in text.splitlines() if f" {p.name} " in ln and ups in ln)
        assert str(p.hand) in row and str(p.total) in row, (row, p)
    if view.tower and view.phase != "over":
        assert f"Tower: {' · '.join(view.tower)}   to beat: {view.to_beat} or lower" in text
    elif view.tower:  # over: the tower as it lies, and nothing left to beat
        assert f"Tower: {' · '.join(view.tower)}\n" in text and "to beat" not in text
    if view.call_due is not None:
        assert f"{view.names[view.call_due]} holds one card and owes 'last card'" in text
    if view.table:
        for r in view.table:
            row = next(ln for ln in text.splitlines() if ln.startswith(f"{r.round} "))
            assert row.split()[1:] == [
                f"{pts:+d}" if p == r.finisher else f"{pts}{'*' if r.typed[p] else ''}"
                for p, pts in enumerate(r.points)
            ]
            assert all(t >= 0 for t in r.totals)  # U-7
        total = next(ln for ln in text.splitlines() if ln.startswith("Total "))
        assert total.split()[1:] == [str(t) for t in view.table[-1].totals]
    if name == "up300":
        out = view.outcome
        assert out is not None and out.termination == "up300"
        assert max(view.table[-2].totals) <= 300 < max(out.scores)
        assert out.winners == (view.totals.index(min(view.totals)),)
    if name == "deal":
        assert view.kept_by == 1 and view.players[1].hand == 1  # Bob kept the cut -2


@pytest.mark.parametrize("name", list(STATES))
def test_terminal_golden(name: str, golden: Callable[[Path, str], None]) -> None:
    tb = STATES[name]()
    text = console_text(terminal.render(board(tb)))
    for words in MUST_SHOW[name]:
        assert words in text, words
    facts(name, tb, text)
    golden(GOLDEN / f"{name}.txt", text)


@pytest.mark.parametrize("name", list(STATES))
def test_plain_golden(name: str, golden: Callable[[Path, str], None]) -> None:
    tb = STATES[name]()
    text = plain.render(board(tb))
    facts(name, tb, text)
    golden(GOLDEN / f"{name}.plain.txt", text)


def test_a_players_own_screen_shows_the_hand_only_there(golden: Callable[[Path, str], None]) -> None:
    tb = STATES["owes_call"]()
    eng = tb.engine
    seat = eng.call_due
    assert seat is not None
    blocks = PANEL.private(eng.view(seat))
    assert len(blocks) == 1 and isinstance(blocks[0], Box) and blocks[0].meaning == HIDDEN
    text = plain.render_blocks(blocks)
    own = eng.view(seat)
    assert own.players[seat].hand == 0 and "Hand: empty" in text
    assert "You hold one card: press the button for 'last card'!" in text
    golden(GOLDEN / "private.plain.txt", text)
    with pytest.raises(ValueError, match="one seat's view"):
        PANEL.private(eng.view(None))


def test_the_json_scoreboard_holds_the_same_facts() -> None:
    tb = STATES["round_over"]()
    data = board(tb).as_json()
    text = json.dumps(data)
    assert data["game"] == "up" and data["schema"] == 2
    assert "Round 2: Bob went out" in text and "58*" in text


def test_no_stray_golden_files() -> None:
    names = {f"{n}.txt" for n in STATES} | {f"{n}.plain.txt" for n in STATES} | {"private.plain.txt"}
    assert {p.name for p in GOLDEN.glob("*.txt")} <= names


def test_a_last_face_down_minus_two_on_an_empty_tower_shows_no_number_to_beat() -> None:
    from upref.games.up.actions import DOWN, Play
    from upref.games.up.engine import UpState

    g = UpState.position(UpDescription(("Ann", "Bob"), founding=True, down={"Ann": ["-2"]}, hands={"Bob": ["5"]}, to_move="Ann"))
    g.play(Play(0, DOWN, g.face_down(0)))
    text = plain.render_blocks(PANEL.body(g.view(None)))
    assert text.splitlines()[0] == "Tower: -2" and "to beat" not in text
    assert PANEL.result(g.view(None)) is not None
