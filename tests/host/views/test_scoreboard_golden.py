"""Golden scoreboards (tests/golden/scoreboard_<state>.txt: the terminal, no colour, 80
columns; scoreboard_<state>.plain.txt: the plain-text rendering) for states reached by playing
the real engine. `pytest --update-golden` rewrites them and fails the run: review the diff."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from scoreboard_cases import STATES, console_text
from upref.views import render_scoreboard, scoreboard_text

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


@pytest.mark.parametrize("name", list(STATES))
def test_terminal_golden(name: str, golden: Callable[[Path, str], None]) -> None:
    game, status = STATES[name]()
    text = console_text(render_scoreboard(game.view(None), status))
    golden(GOLDEN / f"scoreboard_{name}.txt", text)


@pytest.mark.parametrize("name", list(STATES))
def test_plain_golden(name: str, golden: Callable[[Path, str], None]) -> None:
    game, status = STATES[name]()
    text = scoreboard_text(game.view(None), status)
    golden(GOLDEN / f"scoreboard_{name}.plain.txt", text)


def test_no_stray_golden_files() -> None:
    names = {f"scoreboard_{n}.txt" for n in STATES} | {f"scoreboard_{n}.plain.txt" for n in STATES}
    assert {p.name for p in GOLDEN.glob("scoreboard_*.txt")} <= names
