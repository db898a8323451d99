"""The referee base's hook protocol holds: no game's referee (the five, and the throwaway sixth
of the seam test) touches a private name of the base, and no game or engine names a handler in a
string (the base and the engines dispatch by type)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from upref.referee.base import PLAY, Referee

ROOT = Path(__file__).resolve().parents[3]
GAMES = ROOT / "host" / "upref" / "games"
REFEREES = sorted(GAMES.glob("*/referee.py")) + [ROOT / "tests" / "e2e" / "pile_game" / "referee.py"]


def _self_names(tree: ast.AST) -> set[str]:
    """Every `self.<name>` read, written or called in a module."""
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    }


def _base_private() -> set[str]:
    """The base's own names: its private methods and attributes."""
    tree = ast.parse((ROOT / "host" / "upref" / "referee" / "base.py").read_text(encoding="utf-8"))
    names = {n for n in _self_names(tree) if n.startswith("_") and not n.startswith("__")}
    names |= {n for n in vars(Referee) if n.startswith("_") and not n.startswith("__")}
    return names


@pytest.mark.parametrize("path", REFEREES, ids=lambda p: p.parent.name)
def test_a_game_uses_only_the_public_protocol(path: Path) -> None:
    used = _self_names(ast.parse(path.read_text(encoding="utf-8")))
    assert used & _base_private() == set(), f"{path.name} reaches into the referee base"


def test_no_handler_is_named_in_a_string() -> None:
    for path in [*REFEREES, *sorted(GAMES.glob("*/engine.py")), GAMES / "base.py"]:
        text = path.read_text(encoding="utf-8")
        assert "getattr(self" not in text, path
        assert 'ActionRule("' not in text and 'check="' not in text, path


def test_the_phase_is_read_only() -> None:
    with pytest.raises(AttributeError):
        Referee.phase.__set__(object(), PLAY)  # type: ignore[attr-defined]
