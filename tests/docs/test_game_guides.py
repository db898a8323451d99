"""Every game has its player's guide, `docs/games/<game>.md`, and the guide explains every rule
id a verdict of that game can name ("[illegal M-2]" must be something a player can look up)."""

from __future__ import annotations

import importlib
import inspect
import json
import re
from pathlib import Path

import pytest
from upref.registry import games, referee_for
from upref.store.replay import load_log, replay

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "golden" / "logs"
RULING_ID = re.compile(r"\b[A-Z]-\d{1,2}\b")
RULE_ARG = re.compile(r"""Verdict\(\s*(?:[A-Z_]+,\s*)?(?:f?"[^"]*"|[a-z_.]+),\s*"([a-z][a-z-]*)\"""")
ERROR_RULE = re.compile(r"""IllegalMoveError\(\s*"([a-z][a-z-]*)\"""")
NOT_VERDICTS = ("__init__.py", "panel.py", "demo.py")
"""A game package's modules that give no verdict: its entry, its panel, its demo players."""
INTERNAL = {"apply"}
"""Rule words no player meets: `apply` refuses an action the program itself built wrongly."""


def guide_ids(game: str) -> set[str]:
    """The ids in the first column of the guide's tables: '| **M-2** |', '| `draw` |'."""
    text = (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (?:\*\*([A-Z]-\d+)\*\*|`([a-z-]+)`) \|", text, re.M)
    return {a or b for a, b in rows}


def source_files(game) -> list[Path]:  # type: ignore[no-untyped-def]
    engine_pkg = importlib.import_module(game.engine.__module__.rpartition(".")[0])
    files = [Path(inspect.getsourcefile(game.referee) or "")]
    rules = sorted(Path(engine_pkg.__file__ or "").parent.glob("*.py"))
    files += [f for f in rules if f.name not in NOT_VERDICTS and f not in files]
    return files


@pytest.mark.parametrize("game", games(), ids=lambda g: g.name)
def test_each_game_has_its_guide(game) -> None:  # type: ignore[no-untyped-def]
    path = ROOT / game.guide
    assert game.guide == f"docs/games/{game.name}.md" and path.is_file(), game.guide
    text = path.read_text(encoding="utf-8")
    assert game.title in text.splitlines()[0]
    assert f"upref play {game.name}" in text and f"upref enroll {game.name}" in text


@pytest.mark.parametrize("game", games(), ids=lambda g: g.name)
def test_every_ruling_the_code_names_is_in_the_guide(game) -> None:  # type: ignore[no-untyped-def]
    documented = guide_ids(game.name)
    named: set[str] = set()
    for f in source_files(game):
        text = f.read_text(encoding="utf-8")
        named |= set(RULING_ID.findall(text)) | set(RULE_ARG.findall(text))
        named |= set(ERROR_RULE.findall(text)) - INTERNAL
    assert named, "no rule ids found: the scan is broken"
    assert sorted(named - documented) == []


@pytest.mark.parametrize(
    "log", sorted(p for p in LOGS.glob("*.jsonl") if ".verdicts" not in p.name), ids=lambda p: p.stem
)
def test_every_rule_a_logged_game_names_is_in_its_guide(log: Path) -> None:
    info, entries = load_log(log)
    rules = {v.rule for r in replay(info, entries, referee_for) for v in r.reply.verdicts if v.rule}
    assert rules
    assert sorted(rules - guide_ids(info.game)) == []
    assert json.loads(log.read_text().splitlines()[0])["game"] == info.game
