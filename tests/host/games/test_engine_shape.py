"""Every engine package is laid out alike (docs/where-things-are.md, "Inside an engine
package"), so a reader who knows one knows all five; and none grows past what a reader can hold:
no module over 900 lines, no function over 80."""

from __future__ import annotations

import ast
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
MAX_FUNCTION_LINES = 80


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


def _sizes() -> tuple[list[str], list[str]]:
    big_modules, long_functions = [], []
    for path in sorted(GAMES_DIR.rglob("*.py")):
        if path.name in TABLE_PARTS:
            continue
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(GAMES_DIR.parents[1])
        if len(text.splitlines()) > MAX_MODULE_LINES:
            big_modules.append(f"{where}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long_functions.append(f"{where}:{node.lineno} {node.name}: {length} lines")
    return big_modules, long_functions


def test_no_module_or_function_is_too_long() -> None:
    big_modules, long_functions = _sizes()
    assert big_modules == [], f"modules over {MAX_MODULE_LINES} lines"
    assert long_functions == [], f"functions over {MAX_FUNCTION_LINES} lines"
