"""Every game package's rules are laid out alike (docs/where-things-are.md, "Inside a game
package's rules"), so a reader who knows one knows all five; and no rules module grows past what
a reader can hold: 900 lines (no function anywhere is over 60: tests/test_function_length.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from upref.registry import games

GAMES_DIR = Path(__file__).resolve().parents[3] / "host" / "upref" / "games"
ROLES = ("actions.py", "view.py", "position.py", "variant.py", "engine.py")
"""The modules every engine package has (besides its catalogue, `cards.py` or `tiles.py`)."""
CATALOGUES = ("cards.py", "tiles.py")
TABLE_PARTS = ("__init__.py", "referee.py", "panel.py", "demo.py")
"""The modules of a game package that are not its rules: its entry, referee, panel and demo."""
MAX_MODULE_LINES = 900


def engine_packages() -> list[Path]:
    return sorted(GAMES_DIR / g.name for g in games())


@pytest.mark.parametrize("package", engine_packages(), ids=lambda p: p.name)
def test_each_engine_package_has_the_same_modules(package: Path) -> None:
    present = {p.name for p in package.glob("*.py")}
    missing = [m for m in ROLES if m not in present]
    assert missing == [], f"{package.name} lacks {missing}"
    assert len(present & set(CATALOGUES)) == 1, f"{package.name}: one catalogue module, cards.py or tiles.py"
    assert (package / "data").is_dir(), f"{package.name}: its catalogue's data/ folder"


def test_the_doc_lists_the_modules() -> None:
    doc = (GAMES_DIR.parents[2] / "docs" / "where-things-are.md").read_text(encoding="utf-8")
    for module in (*ROLES, *CATALOGUES):
        assert f"`{module}`" in doc, module


def test_no_rules_module_is_too_long() -> None:
    big = []
    for path in sorted(GAMES_DIR.rglob("*.py")):
        if path.name in TABLE_PARTS:
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            big.append(f"{path.relative_to(GAMES_DIR.parents[1])}: {lines} lines")
    assert big == [], f"modules over {MAX_MODULE_LINES} lines"
