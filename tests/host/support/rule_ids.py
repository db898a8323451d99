"""The rule ids a game's guide explains, for tests that walk an engine's refusals: every
`IllegalMoveError.rule` a random playout meets must be something a player can look up in
`docs/games/<game>.md` (a ruling id such as "F-6" in bold, or a rule word such as `draw`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
INTERNAL = frozenset({"apply"})
"""Rule words no player meets: `apply` refuses an action the program itself built wrongly."""


def guide_rules(game: str) -> set[str]:
    """The ids in the first column of the guide's tables: '| **M-2** |', '| `draw` |'."""
    text = (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (?:\*\*([A-Z]-\d+)\*\*|`([a-z-]+)`) \|", text, re.M)
    return {a or b for a, b in rows}


def undocumented(game: str, raised: Iterable[str]) -> list[str]:
    """The rule ids in `raised` that the guide of `game` does not explain, sorted."""
    return sorted(set(raised) - INTERNAL - guide_rules(game))
