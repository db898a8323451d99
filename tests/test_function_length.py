"""No function of the host package or of the firmware is longer than a screen: at most 60 lines
(docs/where-things-are.md). A long drawing or table is written as data, read by a short function.
A function past the limit is named with its file, line and length."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOTS = (REPO / "host" / "upref", REPO / "firmware")
MAX_LINES = 60


def long_functions(roots: tuple[Path, ...] = ROOTS, top: Path = REPO) -> list[str]:
    """`file:line name: N lines` for every function over MAX_LINES lines under `roots`."""
    found = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            if "resources" in path.relative_to(top).parts:  # links back to firmware/
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    length = (node.end_lineno or node.lineno) - node.lineno + 1
                    if length > MAX_LINES:
                        where = path.relative_to(top).as_posix()
                        found.append(f"{where}:{node.lineno} {node.name}: {length} lines")
    return found


def test_no_function_is_longer_than_a_screen() -> None:
    found = long_functions()
    assert found == [], f"functions over {MAX_LINES} lines:\n" + "\n".join(found)


def test_a_long_function_is_named_and_one_that_fits_is_not(tmp_path: Path) -> None:
    src = tmp_path / "firmware"
    src.mkdir()
    fits = "\n".join(f"    a{i} = {i}" for i in range(MAX_LINES - 1))
    long = "\n".join(f"    b{i} = {i}" for i in range(MAX_LINES))
    (src / "m.py").write_text(f"def fits():\n{fits}\n\n\nclass C:\n    def long(self):\n{long.replace('    ', '        ')}\n")
    assert long_functions((src,), tmp_path) == [f"firmware/m.py:{MAX_LINES + 4} long: {MAX_LINES + 1} lines"]
