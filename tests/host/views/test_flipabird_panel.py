"""Flip a Bird's scoreboard panel: golden texts (tests/golden/flipabird/<state>.txt: the terminal,
no colour, 80 columns; <state>.plain.txt: the plain rendering) for states a real referee reached
from a table of taps, keys and presses (`flipabird_cases`). Each file was read against the rules
when it was written; what each state must show is asserted here as well, computed from the
engine where it can be, so a golden regenerated from wrong output still fails."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flipabird_cases import STATES, board, state_end, state_no_scan, state_row, state_sharing, view
from panel_text import console_text
from upref.games.flipabird.evaluation import evaluate
from upref.games.flipabird.panel import PANEL
from upref.views import plain, terminal
from upref.views.blocks import HIDDEN, Box

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "flipabird"

MUST_SHOW: dict[str, tuple[str, ...]] = {
    "scan": ("Pile scan: 20 of 54 cards tapped", "s skips the scan"),
    "start": (
        "3 players: a row may hold 8 birds",
        "pile 54, covered cage on top",
        "Ann's turn: draw and play a card to start the row",
        "Row: none yet (limit 8 birds)",
    ),
    "row": (
        "Row (5 cards, 2 face up; limit 8 birds): 1 ▒ face down · 2 ▒ face down · 3 ▒",
        "4 Red counts double · 5 blue 3 ◀",
        "Cy's turn: claim, or draw and play",
    ),
    "illegal": ("ILLEGAL hand", "TO FIX", "Put that card back on top of the draw pile"),
    "tips": (
        "Tips: Ann green, Bob red, Cy in, Dee … (1 of 2 in; shown once all are in)",
        "Bob claims against Ann: tips from Dee.", "▶  Dee",
    ),
    "sharing": (
        "Total 4 birds, limit 10: not more than the limit, green is right (F-10).",
        "Takers, one card each in turn, counter-clockwise: Ann and Dee (F-6).",
        "taken out by S-NB1 at 3; counts 0, shared with the row (F-5)",
    ),
    "f9": (
        "the old row (3 cards) leaves the game and G3d starts a new row (F-9)",
        "Row (1 card, 1 face up; limit 8 birds): 1 green 3",
        "1 row removed by the all-face-up rule, F-9",
    ),
    "final": ("final phase: the pile is empty", "no card left — claim, or end the game (F-11)"),
    "end": (
        "*** Winner: Bob with 8 points ***", "Points: Ann 7, Bob 8, Cy 0", "★  Bob",
        "Total 19 birds, limit 8: more than the limit, red is right (F-10).",
        "48 left in the box (short game)",
    ),
    "no_scan": (
        "no pile scan", "face up only if an open cage is entered: o",
        "The referee cannot see the pile's backs",
    ),
}
TERMINAL_SHOWS: dict[str, tuple[str, ...]] = {
    "scan": ("Pile scan: 20 of 54",),
    "start": ("▶   Ann", "Row: none yet"),
    "row": ("▒ face down", "5 blue 3 ◀"),
    "illegal": ("ILLEGAL hand", "TO FIX"),
    "tips": ("╭─ Claim", "accused", "to tip"),
    "sharing": ("\n 4   R2c ", "no neighbours", "taking"),
    "f9": ("(F-9)",),
    "final": ("▶   Ann         0",),
    "end": ("Winner: Bob with 8 points", "★   Bob"),
    "no_scan": ("no pile",),
}


@pytest.mark.parametrize("name", list(STATES))
def test_terminal_golden(name: str, golden: Callable[[Path, str], None]) -> None:
    text = console_text(terminal.render(board(STATES[name]())))
    for words in TERMINAL_SHOWS[name]:
        assert words in text, words
    golden(GOLDEN / f"{name}.txt", text)


@pytest.mark.parametrize("name", list(STATES))
def test_plain_golden(name: str, golden: Callable[[Path, str], None]) -> None:
    text = plain.render(board(STATES[name]()))
    for words in MUST_SHOW[name]:
        assert words in text, words
    golden(GOLDEN / f"{name}.plain.txt", text)


def test_no_stray_golden_files() -> None:
    names = {f"{n}.txt" for n in STATES} | {f"{n}.plain.txt" for n in STATES} | {"private.plain.txt"}
    assert {p.name for p in GOLDEN.glob("*.txt")} <= names


def test_the_row_shows_each_card_by_its_face_and_backs_where_the_engine_has_them_face_down() -> None:
    tb = state_row()
    text = plain.render(board(tb))
    row = re.search(r"^Row \(.*$", text, re.M)
    assert row is not None
    cells = row.group(0).split(": ", 1)[1].split(" · ")
    assert len(cells) == len(tb.eng.row) == 5
    for cell, r in zip(cells, tb.eng.row, strict=True):
        face = tb.eng.catalogue.card(r.card).face
        assert (cell.split(" ", 1)[1].rstrip(" ◀") == face) if r.up else ("face down" in cell and face not in cell)


def test_the_evaluation_table_is_the_engines_evaluation_card_by_card() -> None:
    tb = state_sharing()
    claim = tb.eng.claim_state
    assert claim is not None and claim.evaluation is not None
    again = evaluate([tb.eng.catalogue.card(r.card) for r in claim.row], 10)
    assert again == claim.evaluation
    text = plain.render(board(tb))
    for x in again.lines:
        want = str(x.birds) if x.stays else "out"
        assert re.search(rf"^{x.position}\s+{x.card.id}\s+.*\s{want}\s+", text, re.M), x


def test_a_seats_own_screen_shows_its_hand_and_tip(golden: Callable[[Path, str], None]) -> None:
    tb = state_no_scan()
    tb.key("open")
    tb.play()  # Cy plays face up; Ann's turn
    tb.claim()  # Ann claims against Cy; Bob is to tip
    eng = tb.eng
    own = eng.view(1)
    blocks = PANEL.private(own)
    assert isinstance(blocks[0], Box) and blocks[0].meaning == HIDDEN
    text = plain.render_blocks(blocks)
    assert "Bob — your hand (keep it to yourself)" in text
    assert "2 cards in your hand that the referee does not know" in text  # no scan: none known
    tb = state_row()
    mine = PANEL.private(tb.eng.view(0))
    hand = tb.eng.hand(0)  # Ann played both dealt cards first: the scan knows her two draws
    assert len(hand) == 2 and tb.eng.unknown(0) == 0
    drawn = ", ".join(f"{c} {tb.eng.catalogue.card(c).face}" for c in hand)
    assert plain.render_blocks(mine).splitlines()[1:] == [f"Drawn: {drawn}"]
    golden(GOLDEN / "private.plain.txt", text)
    with pytest.raises(ValueError, match="needs one seat's view"):
        PANEL.private(view(tb))
    scanned = state_end().eng.view(0)
    assert "No card in your hand." in plain.render_blocks(PANEL.private(scanned))
