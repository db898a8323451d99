"""Golden scoreboards of Up And Down (tests/golden/updown/<state>.txt: the terminal, no colour,
80 columns; <state>.plain.txt: the plain-text rendering) for states a real referee
reached from a physical table (`updown_cases`). Each file was read against the rules when it
was written: what each state must show is asserted below as well, so a golden regenerated
blindly from wrong output still fails. `pytest --update-golden` rewrites them and fails the run:
review the diff."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from panel_text import console_text
from updown_cases import STATES
from upref.games.updown.panel import PANEL
from upref.referee.inputs import Undo
from upref.referee.status import ILLEGAL, OK, TableStatus, Verdict
from upref.views import plain, terminal
from upref.views.scoreboard import scoreboard

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "updown"

MUST_SHOW: dict[str, tuple[str, ...]] = {
    "start": ("Ann's turn: turned 0/3.", "▶   Ann", "Cy drew a task card. Ann's turn"),
    "mid_turn": ("Ann's turn: turned 2/3 (holes 4 and 7).", "│turned│", "1st", "2nd"),
    "illegal": ("ILLEGAL M-1", "TO FIX", "Turn the pair in hole 4 back"),
    "solved": ("solved T0", "SOLVED", "turning pairs (1 of 3)"),
    "end": ("Buddel King: Ann with 2 shovels", "short game", "★   Ann"),
    "tie": ("Shared win: Ann and Bob with 1 shovel each", "the stack was empty"),
    "offline": ("BOARD OFFLINE", "Fault: hole 2 never settles", "come back online"),
    "mole_mix": ("box turned twice", "Mole Mix"),
}


@pytest.mark.parametrize("name", list(STATES))
def test_terminal_golden(name: str, golden: Callable[[Path, str], None]) -> None:
    text = console_text(terminal.render(STATES[name]().board()))
    for words in MUST_SHOW[name]:
        assert words in text, words
    golden(GOLDEN / f"{name}.txt", text)


@pytest.mark.parametrize("name", list(STATES))
def test_plain_golden(name: str, golden: Callable[[Path, str], None]) -> None:
    golden(GOLDEN / f"{name}.plain.txt", plain.render(STATES[name]().board()))


def test_no_stray_golden_files() -> None:
    names = {f"{n}.txt" for n in STATES} | {f"{n}.plain.txt" for n in STATES}
    panels = {p.name for p in GOLDEN.glob("*.txt")} - {p.name for p in GOLDEN.glob("playthrough_*.txt")}
    assert panels <= names


def test_after_undo_each_correction_is_read_once() -> None:
    """Issue 20: after `u` the same sentence stood four times (the ok line, its fix, TO FIX and
    Waiting for). The frame says each correction still due once, as TO FIX."""
    scene = STATES["start"]()
    scene.tb.flip(4)
    scene.tb.feed(Undo(scene.tb.at()))
    fix = scene.status().corrections[0]
    assert fix.startswith("Turn the pair in hole 4 back")
    for text in (plain.render(scene.board()), console_text(terminal.render(scene.board()))):
        assert " ".join(text.split()).count(fix) == 1, text
        assert "Undone: back to the start of Ann's turn." in text


def test_the_frame_says_a_correction_once_for_every_game() -> None:
    """The frame itself (every game's): a fix still due is not repeated as a verdict's fix or as
    what the table waits for, and a fix that a verdict's text says already is not said again;
    a fix that is not due any more still shows with its verdict."""
    due, old = "Take 31 back.", "Put the card back."
    status = TableStatus(
        waiting_for=due,
        corrections=(due,),
        verdicts=(
            Verdict(ILLEGAL, "Not that one.", "x", old),
            Verdict(OK, f"Undone: back to the start of Ann's turn. {due} Ann: draw again.", "undo",
                    f"{due} Ann: draw again."),
            Verdict(ILLEGAL, "31 is not higher than 52.", "direction", due),
        ),
    )
    scene = STATES["start"]()
    text = " ".join(plain.render(scoreboard(scene.view(), status, PANEL)).split())
    assert text.count(due) == 1 and f"TO FIX {due}" in text
    assert text.count("Ann: draw again.") == 1
    assert "Undone: back to the start of Ann's turn. Ann: draw again." in text
    assert f"-> fix: {old}" in text


def test_every_column_of_a_players_own_card_is_named() -> None:
    """A phone shows each cell with its column's name: the count still to go is named too
    (not a bare '-2' after 'up now 3')."""
    from upref.views.blocks import Box, Sheet

    scene = STATES["mid_turn"]()
    own = scene.ref.view(scene.game.current_player())
    sheets = [b for box in PANEL.private(own) if isinstance(box, Box) for b in box.blocks if isinstance(b, Sheet)]
    assert sheets, "the task card's table is missing"
    for sheet in sheets:
        assert all(c.header for c in sheet.columns), [c.header for c in sheet.columns]
    assert [c.header for c in sheets[0].columns] == ["colour", "asked", "up now", "to go"]
