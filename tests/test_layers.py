"""The host package keeps its layers: every import in `host/upref/**/*.py` (at any depth of the
code, inside functions and under TYPE_CHECKING too; relative imports resolved) is held to the
layer table of tests/layers.toml, and docs/where-things-are.md shows that same table.

A forbidden import is named with its file, its line and the rule it breaks:

    host/upref/board/model.py:16: board (layer 2) imports link.connection — board may import
    only: paths, text, link.protocol, link.notices (it is fed the link's events ...)

Imports made by name at run time (`importlib.import_module("upref.commands." + verb)`, the
`cli` table of commands) are not in the graph; everything written as an import statement is.
"""

from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
HOST = REPO / "host"
RULES = Path(__file__).resolve().parent / "layers.toml"
DOC = REPO / "docs" / "where-things-are.md"
PACKAGE = "upref"


# ---- the graph, from the source ------------------------------------------------------------


@dataclass(frozen=True)
class Import:
    """One imported name: `source` imports `target` at `path:line`. `target` is a module of
    upref relative to the package (`link.connection`), or, with `outside`, the imported
    module's dotted name (`serial.tools`)."""

    source: str
    target: str
    path: Path
    line: int
    outside: bool = False


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package under `root`, by its name relative to the package
    (`board.model`; the package itself is `__init__`, a subpackage `link` its `__init__.py`)."""
    found: dict[str, Path] = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root / PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _relative(dotted: str) -> str | None:
    """`upref.link.protocol` -> `link.protocol`, `upref` -> `__init__`; None outside upref."""
    if dotted == PACKAGE:
        return "__init__"
    if dotted.startswith(PACKAGE + "."):
        return dotted[len(PACKAGE) + 1:]
    return None


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The module a dotted name (relative to upref) lives in: the name itself, or the longest
    module above it (`games.up.engine.Play` -> `games.up.engine`)."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return "__init__" if "__init__" in known else None


def imports(root: Path) -> list[Import]:
    """Every import statement of the package under `root`, one entry per imported module."""
    known = modules(root)
    found: dict[tuple[str, str, int], Import] = {}
    for source, path in known.items():
        is_package = path.name == "__init__.py"
        dotted = PACKAGE if source == "__init__" else f"{PACKAGE}.{source}"
        here = dotted if is_package else dotted.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    anchor = here
                    for _ in range(node.level - 1):
                        anchor = anchor.rpartition(".")[0]
                    base = f"{anchor}.{node.module}" if node.module else anchor
                else:
                    base = node.module or ""
                if _relative(base) is None:
                    names = [base]
                else:  # each name is a name of that module, or a submodule of it
                    names = [f"{base}.{a.name}" for a in node.names]
            else:
                continue
            for name in names:
                rel = _relative(name)
                if rel is None:
                    imp = Import(source, name, path, node.lineno, outside=True)
                else:
                    target = _resolve(rel, known)
                    if target is None or target == source:
                        continue
                    imp = Import(source, target, path, node.lineno)
                found.setdefault((imp.source, imp.target, imp.line), imp)
    return list(found.values())


# ---- the rules -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layer:
    number: str
    name: str
    modules: tuple[str, ...]
    only: tuple[str, ...] | None
    also: tuple[str, ...]
    never: tuple[str, ...]
    why: str

    @property
    def label(self) -> str:
        return f"layer {self.number}" if self.number != "beside" else "beside the layers"


@dataclass(frozen=True)
class Rules:
    layers: tuple[Layer, ...]
    game_own: tuple[str, ...]
    game_also: tuple[str, ...]
    game_why: str
    allowed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """layer name -> the modules and packages of upref it may import (besides its own)."""


def load_rules(path: Path = RULES) -> Rules:
    data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    layers = tuple(
        Layer(
            number=str(d["number"]),
            name=d["name"],
            modules=tuple(d["modules"]),
            only=tuple(d["only"]) if "only" in d else None,
            also=tuple(d.get("also", ())),
            never=tuple(d.get("never", ())),
            why=d["why"],
        )
        for d in data["layer"]
    )
    allowed: dict[str, tuple[str, ...]] = {}
    earlier: list[str] = []
    for layer in layers:
        if layer.only is not None:
            allowed[layer.name] = layer.only
        else:
            allowed[layer.name] = (*earlier, *layer.also)
        if layer.number != "beside":
            earlier.extend(layer.modules)
    games = data["games"]
    return Rules(layers, tuple(games["own"]), tuple(games["also"]), games["why"], allowed)


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _specificity(module: str, pattern: str, games: list[str]) -> int | None:
    """How closely `pattern` names `module` (its length), or None when it does not name it.

    A pattern is a module or a package above it (`link`, `games.base`); `<game>` stands for the
    name of any game (`games.<game>.referee`); a leading `=` names that module alone, not the
    modules below it (`=games.<game>`: a game package's `__init__.py`)."""
    exact = pattern.startswith("=")
    pattern = pattern.removeprefix("=")
    names = [pattern.replace("<game>", g) for g in games] if "<game>" in pattern else [pattern]
    for name in names:
        if module == name or (not exact and _under(module, name)):
            return len(pattern) + (1000 if exact else 0)
    return None


def layer_of(module: str, rules: Rules, games: list[str] | None = None) -> Layer | None:
    """The layer whose pattern names the module most closely (see `_specificity`)."""
    games = game_names(HOST) if games is None else games
    best: tuple[int, Layer] | None = None
    for layer in rules.layers:
        for m in layer.modules:
            score = _specificity(module, m, games)
            if score is not None and (best is None or score > best[0]):
                best = (score, layer)
    return best[1] if best else None


def _allowed(target: str, allowed: tuple[str, ...], rules: Rules, games: list[str]) -> bool:
    """Whether one of `allowed` names `target` at least as closely as its own layer does: `games`
    allows a game's rules, not its referee, which the referee layer names more closely."""
    own = max((score for layer in rules.layers for m in layer.modules
               if (score := _specificity(target, m, games)) is not None), default=0)
    return any((score := _specificity(target, a, games)) is not None and score >= own
               for a in allowed)


def game_names(root: Path) -> list[str]:
    """The games: the packages of upref/games/."""
    games = root / PACKAGE / "games"
    return sorted(p.parent.name for p in games.glob("*/__init__.py"))


def _game_named(module: str, own: tuple[str, ...], games: list[str]) -> str | None:
    """The game whose own module this is, if any."""
    for game in games:
        if any(_under(module, pattern.replace("<game>", game)) for pattern in own):
            return game
    return None


def _where(imp: Import, root: Path) -> str:
    path = imp.path
    try:
        path = path.relative_to(root.parent)
    except ValueError:
        pass
    return f"{path.as_posix()}:{imp.line}"


def violations(root: Path, rules: Rules) -> list[str]:
    """Every import under `root` that breaks a rule, as `file:line: what — the rule (why)`."""
    out: list[str] = []
    games = game_names(root)
    for module, path in modules(root).items():
        if layer_of(module, rules, games) is None:
            rel = path.relative_to(root.parent).as_posix()
            out.append(f"{rel}:1: {module} is in no layer: add it to the layer it belongs to in "
                       "tests/layers.toml and docs/where-things-are.md")
    for imp in imports(root):
        layer = layer_of(imp.source, rules, games)
        if layer is None:
            continue
        head = f"{_where(imp, root)}: {layer.name} ({layer.label}) imports {imp.target}"
        banned = [n for n in layer.never if _under(imp.target, n)]
        if banned:
            out.append(f"{head} — {layer.name} imports no {', '.join(layer.never)} ({layer.why})")
            continue
        if imp.outside:
            continue
        target_layer = layer_of(imp.target, rules, games)
        allowed = rules.allowed[layer.name]
        if target_layer is not layer and not _allowed(imp.target, allowed, rules, games):
            out.append(f"{head} — {layer.name} may import only: "
                       f"{', '.join(allowed) or 'nothing of upref but its own layer'} ({layer.why})")
            continue
        game = _game_named(imp.target, rules.game_own, games)
        if game is not None and _game_named(imp.source, rules.game_own, games) != game and not any(
            _under(imp.source, a) for a in rules.game_also
        ):
            others = f" and {', '.join(rules.game_also)}" if rules.game_also else ""
            out.append(f"{head} — only {game}'s own modules ({', '.join(rules.game_own)}){others} "
                       f"name a game ({rules.game_why})")
    return out


def cycles(root: Path) -> list[list[str]]:
    """The import cycles among the modules (strongly connected components of two or more)."""
    graph: dict[str, set[str]] = {m: set() for m in modules(root)}
    for imp in imports(root):
        if not imp.outside:
            graph[imp.source].add(imp.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


# ---- the page's table -------------------------------------------------------------------------


def may_import(layer: Layer) -> str:
    """The page's "may import" cell of a layer, as tests/layers.toml says it."""
    if layer.only is not None:
        text = "only " + ", ".join(f"`{m}`" for m in layer.only) if layer.only else "nothing else"
    else:
        text = "earlier layers" + "".join(f", `{m}`" for m in layer.also)
    if layer.never:
        text += "; never " + ", ".join(f"`{m}`" for m in layer.never)
    return text


def doc_rows(text: str) -> list[list[str]]:
    """The cells of the table under "## The host package, by layer"."""
    section = text.split("## The host package, by layer", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[c.strip() for c in row.strip("|").split("|")] for row in rows[2:]]


def _cell_modules(cell: str) -> tuple[str, ...]:
    """`upref/link/`, `upref/cli.py`, `upref/__init__.py` -> link, cli, __init__."""
    out = []
    for m in re.findall(r"`([^`]+)`", cell):
        m = m.removeprefix("upref/")
        if m.endswith("/__init__.py"):  # a package's own module alone: `=games.<game>`
            out.append("=" + m.removesuffix("/__init__.py").replace("/", "."))
            continue
        m = m.removesuffix("/").removesuffix(".py")
        out.append(m.replace("/", "."))
    return tuple(out)


# ---- the tests --------------------------------------------------------------------------------


def test_every_import_of_the_host_package_keeps_to_its_layer() -> None:
    found = violations(HOST, load_rules())
    assert not found, "imports that break the layers (tests/layers.toml):\n" + "\n".join(found)


def test_no_module_imports_in_a_circle() -> None:
    assert cycles(HOST) == []


def test_the_page_shows_the_same_layers() -> None:
    rules = load_rules()
    rows = doc_rows(DOC.read_text(encoding="utf-8"))
    want = [(layer.number, layer.name, layer.modules, may_import(layer)) for layer in rules.layers]
    got = [(*(r[0].split(maxsplit=1) + [""])[:2], _cell_modules(r[1]), r[3] if len(r) > 3 else "")
           for r in rows]
    for number, (w, g) in enumerate(zip(want, got, strict=False), start=1):
        assert g == w, (f"docs/where-things-are.md, row {number} of the layer table says {g}; "
                        f"tests/layers.toml says {w}: | {w[0]} {w[1]} | ... | ... | {w[3]} |")
    assert len(got) == len(want), "the page's layer table has other rows than tests/layers.toml"


def test_the_rules_name_only_modules_that_exist() -> None:
    rules = load_rules()
    known = modules(HOST)
    named = {m for layer in rules.layers for m in (*layer.modules, *(layer.only or ()), *layer.also)}
    # `never` may name outside packages too, but none that looks like a part of upref
    tops = {m.split(".")[0] for m in known}
    named |= {m for layer in rules.layers for m in layer.never if m.split(".")[0] in tops}
    games = game_names(HOST)
    for name in sorted(named):
        assert any(_specificity(m, name, games) is not None for m in known), \
            f"tests/layers.toml names {name}: no such module"


# ---- the checker itself cannot silently pass ---------------------------------------------------


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "host" / "upref" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for d in (root / "host" / "upref").rglob("*"):
        if d.is_dir() and not (d / "__init__.py").exists():
            (d / "__init__.py").write_text("", encoding="utf-8")
    (root / "host" / "upref" / "__init__.py").touch()
    return root / "host"


PLANTED = {
    "board/model.py": "from upref.link.notices import Online\nfrom upref.link.connection import Link\n",
    "link/connection.py": "import serial\n\nfrom .notices import Online\n",
    "link/notices.py": "",
    "games/updown/engine.py": "from __future__ import annotations\n\ndef f():\n    import time\n",
    "games/updown/referee.py": "from upref.games.updown.engine import f\n",
    "games/updown/panel.py": "from upref.games.updown.referee import R\n",
    "games/updown/__init__.py": "from upref.games.updown.referee import R\n",
    "games/up/engine.py": "from ..updown import engine\n",
    "store/replay.py": ("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                        "    from upref.games.updown.referee import UpDownReferee\n"),
    "views/base.py": "from upref import link\n",
    "registry.py": "import upref.games\n",
    "web/live.py": "from upref.games.updown import GAME\n",
    "sim/a.py": "import upref.sim.b\n",
    "sim/b.py": "from upref.sim import a\n",
    "stray.py": "",
}


def test_a_planted_forbidden_import_is_named_with_its_file_line_and_rule(tmp_path: Path) -> None:
    root = _tree(tmp_path, PLANTED)
    found = violations(root, load_rules())
    why = {layer.name: layer.why for layer in load_rules().layers}
    assert f"host/upref/board/model.py:2: board (layer 2) imports link.connection — board may " \
           f"import only: paths, text, link.protocol, link.notices ({why['board']})" in found
    # an import inside a function, in a game's rules
    assert any(f.startswith("host/upref/games/updown/engine.py:4: games (layer 3) imports time — "
                            "games imports no serial, rich") for f in found), found
    # a relative import of another game's rules
    assert any(f.startswith("host/upref/games/up/engine.py:1: games (layer 3) imports "
                            "games.updown.engine — only updown's own modules") for f in found), found
    # a game's panel is a view: it reads the game's public view, never its referee
    assert any(f.startswith("host/upref/games/updown/panel.py:1: views (layer 6) imports "
                            "games.updown.referee — views may import only") for f in found), found
    # under TYPE_CHECKING: the store takes a game's referee (the referee layer's, not the rules')
    assert any(f.startswith("host/upref/store/replay.py:4: store (layer 5) imports "
                            "games.updown.referee — store may import only") for f in found), found
    assert any(f.startswith("host/upref/views/base.py:1: views (layer 6) imports link — views may "
                            "import only: paths") for f in found), found
    assert any(f.startswith("host/upref/web/live.py:1: web (layer 9) imports games.updown — "
                            "only updown's own modules") for f in found), found
    assert any(f.startswith("host/upref/stray.py:1: stray is in no layer") for f in found), found
    # and what is allowed is not reported: a game's own referee and entry, the registry, the link
    flagged = {f.split(":")[0] for f in found}
    assert not flagged & {"host/upref/games/updown/referee.py", "host/upref/registry.py",
                          "host/upref/games/updown/__init__.py", "host/upref/link/connection.py"}
    assert not any(f.startswith("host/upref/board/model.py:1:") for f in found)
    assert len(found) == 8, found
    assert cycles(root) == [["sim.a", "sim.b"]]


@pytest.mark.parametrize("cell, want", [
    ("`upref/link/`", ("link",)),
    ("`upref/paths.py`, `upref/__init__.py`, `upref/resources/`", ("paths", "__init__", "resources")),
])
def test_the_pages_package_cells_read_as_module_names(cell: str, want: tuple[str, ...]) -> None:
    assert _cell_modules(cell) == want
