"""Every `simctl` command the guides name exists (issue 30: a newcomer plays a whole game by hand
from the guide alone): a verb of the simulated board, or a whole table step of a game; and each
game's guide has its section "By hand on the simulated board" naming every step of its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from upref.commands.simctl import step_names
from upref.registry import games
from upref.sim.verbs import VERBS

ROOT = Path(__file__).resolve().parents[2]
GUIDES = sorted((ROOT / "docs").glob("*.md")) + sorted((ROOT / "docs" / "games").glob("*.md"))
NAMED = re.compile(r"simctl (?:--sim \S+ )?([a-z][a-z-]*)")
BY_HAND = "## By hand on the simulated board"


def _section(text: str) -> str:
    return text.split(BY_HAND, 1)[1].split("\n## ", 1)[0]


def test_every_simctl_command_the_guides_name_exists() -> None:
    known = set(VERBS) | set(step_names())
    named = {(g.relative_to(ROOT).as_posix(), w) for g in GUIDES for w in NAMED.findall(g.read_text())}
    assert named, "no simctl command found in the guides: the scan is broken"
    assert sorted((where, w) for where, w in named if w not in known) == []


@pytest.mark.parametrize("game", games(), ids=lambda g: g.name)
def test_each_guide_says_how_to_play_a_whole_game_by_hand(game) -> None:  # type: ignore[no-untyped-def]
    text = (ROOT / game.guide).read_text(encoding="utf-8")
    assert BY_HAND in text, game.guide
    section = _section(text)
    assert f"upref enroll {game.name} --simulated" in section and f"upref play {game.name}" in section
    words = set(re.findall(r"`([a-z][a-z-]*)(?: [^`]*)?`", section))
    assert set(game.steps) <= words, (game.guide, sorted(set(game.steps) - words))
    assert "touch" in words, game.guide  # a card, a tile: each play is one command
