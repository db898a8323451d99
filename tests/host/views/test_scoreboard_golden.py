"""Golden scoreboards (tests/golden/scoreboard_<state>.txt: the terminal, no colour, 80
columns; scoreboard_<state>.plain.txt: the plain-text rendering) for states reached by playing
the real engine. Run pytest with --update-golden to rewrite them, then review the diff."""

from __future__ import annotations

from pathlib import Path

import pytest
from scoreboard_cases import STATES, console_text
from upref.views import render_scoreboard, scoreboard_text

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def _check(path: Path, produced: str, update: bool) -> None:
    if update:
        path.write_text(produced, encoding="utf-8")
        return
    assert path.exists(), f"{path.name} missing: run pytest with --update-golden"
    expected = path.read_text(encoding="utf-8")
    assert produced == expected, f"{path.name} differs (--update-golden rewrites it)"


@pytest.mark.parametrize("name", list(STATES))
def test_terminal_golden(name: str, update_golden: bool) -> None:
    game, status = STATES[name]()
    text = console_text(render_scoreboard(game.view(None), status))
    _check(GOLDEN / f"scoreboard_{name}.txt", text, update_golden)


@pytest.mark.parametrize("name", list(STATES))
def test_plain_golden(name: str, update_golden: bool) -> None:
    game, status = STATES[name]()
    text = scoreboard_text(game.view(None), status)
    _check(GOLDEN / f"scoreboard_{name}.plain.txt", text, update_golden)


def test_no_stray_golden_files() -> None:
    names = {f"scoreboard_{n}.txt" for n in STATES} | {f"scoreboard_{n}.plain.txt" for n in STATES}
    assert {p.name for p in GOLDEN.glob("scoreboard_*.txt")} <= names
