"""The host package keeps its layers: every import in `host/upref/**/*.py` (at any depth of the
code, inside functions and under TYPE_CHECKING too; relative imports resolved) is held to the
layer table of tests/layers.toml, and docs/where-things-are.md shows that same table.

A forbidden import is named with its file, its line and the rule it breaks:

    host/upref/board/model.py:16: board (layer 2) imports link.connection — board may import
    only: paths, text, link.protocol, link.notices (it is fed the link's events ...)

What a layer must `never` import it must not reach through a chain either: the imports that run
(all but those under `if TYPE_CHECKING:`) are followed from module to module, and a chain that
ends in a forbidden module is named hop by hop:

    host/upref/web/live.py:17: web (layer 9) reaches serial through web/live.py:17 -> table ->
    link.connection -> serial — web imports no ... (the live page draws what the table ...)

Imports made by name at run time (`importlib.import_module("upref.commands." + verb)`, the
`cli` table of commands) are not in the graph; everything written as an import statement is.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from dataclasses import dataclass, field
from functools import cache
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
    runtime: bool = True
    """False for an import under `if TYPE_CHECKING:` (type names only: it never runs)."""


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


def _is_type_checking(test: ast.expr) -> bool:
    """`TYPE_CHECKING` or `typing.TYPE_CHECKING` (an `if` whose body is for type checkers)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement of a module's tree, with whether it runs (False: under
    `if TYPE_CHECKING:`, however deep)."""
    found: list[tuple[ast.Import | ast.ImportFrom, bool]] = []

    def visit(node: ast.AST, runtime: bool) -> None:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append((node, runtime))
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, False)
            for child in node.orelse:
                visit(child, runtime)
            return
        for child in ast.iter_child_nodes(node):
            visit(child, runtime)

    visit(tree, True)
    return found


def imports(root: Path) -> list[Import]:
    """Every import statement of the package under `root`, one entry per imported module (read
    once per state of its files: three tests of this file read the whole package)."""
    known = modules(root)
    return list(_imports(root, tuple((p, p.stat().st_mtime_ns) for p in known.values())))


@cache
def _imports(root: Path, files: tuple[tuple[Path, int], ...]) -> tuple[Import, ...]:
    known = modules(root)
    found: dict[tuple[str, str, int], Import] = {}
    for source, path in known.items():
        is_package = path.name == "__init__.py"
        dotted = PACKAGE if source == "__init__" else f"{PACKAGE}.{source}"
        here = dotted if is_package else dotted.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node, runtime in _import_nodes(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
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
            for name in names:
                rel = _relative(name)
                if rel is None:
                    imp = Import(source, name, path, node.lineno, outside=True, runtime=runtime)
                else:
                    target = _resolve(rel, known)
                    if target is None or target == source:
                        continue
                    imp = Import(source, target, path, node.lineno, runtime=runtime)
                found.setdefault((imp.source, imp.target, imp.line), imp)
    return tuple(found.values())


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
    but: tuple[str, ...] = ()
    """What `never` names that the layer may import all the same (`referee` but `referee.status`)."""

    @property
    def label(self) -> str:
        return f"layer {self.number}" if self.number != "beside" else "beside the layers"

    def bans(self, target: str, games: list[str]) -> bool:
        """Whether `never` names `target`, and `but` neither names it nor lies below it (the
        package `referee` runs whenever `referee.status` is imported: its own imports are
        followed, it is not banned itself)."""
        return any(_specificity(target, n, games) is not None for n in self.never) and not any(
            _specificity(target, b, games) is not None or _under(b, target) for b in self.but
        )

    @property
    def never_words(self) -> str:
        """`never` as a message says it: 'serial, referee (but referee.status)'."""
        but = f" (but {', '.join(self.but)})" if self.but else ""
        return ", ".join(self.never) + but


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
            but=tuple(d.get("but", ())),
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
        if layer.bans(imp.target, games):
            out.append(f"{head} — {layer.name} imports no {layer.never_words} ({layer.why})")
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


def _runtime_graph(root: Path, rules: Rules, games: list[str]) -> dict[str, list[Import]]:
    """module -> the imports it runs (not those under TYPE_CHECKING), in file order. Importing
    a module runs the package above it too (`link.connection` runs `link`): followed when that
    package is of the module's own layer; a package of another layer above it (a game's entry,
    above its rules) answers for its imports under its own layer's rules."""
    known = modules(root)
    graph: dict[str, list[Import]] = {m: [] for m in known}
    for imp in sorted(imports(root), key=lambda i: (i.source, i.line, i.target)):
        if imp.runtime:
            graph[imp.source].append(imp)
    for module, path in known.items():
        parent = module.rpartition(".")[0]
        if parent in known and layer_of(parent, rules, games) is layer_of(module, rules, games):
            graph[module].append(Import(module, parent, path, 1))
    return graph


def _followed(target: str, imp: Import) -> bool:
    """Whether a chain may end at `target`: a module of upref, or an outside package that is not
    part of Python's standard library (which every program loads in part: `os`, `time`; a
    layer's `never` of those holds for its own imports)."""
    return not imp.outside or target.split(".")[0] not in sys.stdlib_module_names


def _chain(imp: Import, hops: list[str], root: Path) -> str:
    """'web/live.py:17 -> table -> link.connection -> serial'."""
    first = imp.path.relative_to(root / PACKAGE).as_posix()
    return " -> ".join([f"{first}:{imp.line}", *hops])


def reached(root: Path, rules: Rules) -> list[str]:
    """Every forbidden module a layer reaches through a chain of imports that run, not by an
    import of its own (those `violations` names), as `file:line: what — the rule (why)`: the
    shortest chain from each module to each module its layer must never import."""
    out: list[str] = []
    games = game_names(root)
    graph = _runtime_graph(root, rules, games)
    for module in graph:
        layer = layer_of(module, rules, games)
        if layer is None or not layer.never:
            continue
        # breadth first: the shortest chain to each module reached, through its first hop
        seen: dict[str, tuple[Import, list[str]]] = {}
        queue: list[tuple[Import, Import, list[str]]] = [(imp, imp, [imp.target]) for imp in graph[module]]
        while queue:
            last, first, hops = queue.pop(0)
            target = last.target
            if target in seen or target == module or not _followed(target, last):
                continue
            seen[target] = (first, hops)
            if not last.outside:
                queue.extend((nxt, first, [*hops, nxt.target]) for nxt in graph[target])
        for target, (first, hops) in sorted(seen.items(), key=lambda kv: (len(kv[1][1]), kv[0])):
            if len(hops) < 2 or not layer.bans(target, games):
                continue
            if any(layer.bans(h, games) for h in hops[:-1]):
                continue  # named already, at the first forbidden module of the chain
            out.append(
                f"{_where(first, root)}: {layer.name} ({layer.label}) reaches {target} through "
                f"{_chain(first, hops, root)} — {layer.name} imports no {layer.never_words} "
                f"({layer.why})"
            )
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
    if layer.but:
        text += " (but " + ", ".join(f"`{m}`" for m in layer.but) + ")"
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


def test_no_layer_reaches_what_it_must_never_import_through_a_chain() -> None:
    found = reached(HOST, load_rules())
    assert not found, "chains of imports that break the layers (tests/layers.toml):\n" + "\n".join(found)


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
                            "games.updown.referee — views imports no serial") for f in found), found
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


CHAINS = {
    "web/live.py": "from upref.views import screen\nfrom upref import players\n",
    "web/hub.py": ("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                   "    from upref.game import Game\n"),
    "web/server.py": "from upref.game import Game\n",
    "views/screen.py": "from upref.table import Table\n",
    "game.py": "from upref.referee.base import Referee\n",
    "players.py": "def wait():\n    from upref.link.connection import Link\n",
    "referee/base.py": "from upref.referee import status\n",
    "referee/status.py": "",
    "table.py": "from upref.link.connection import Link\n",
    "link/connection.py": "import serial\n",
    "games/updown/engine.py": "from upref import paths\n",
    "paths.py": "import os\nimport time\n",
}


def test_a_forbidden_module_reached_through_a_chain_is_named_with_the_chain(tmp_path: Path) -> None:
    root = _tree(tmp_path, CHAINS)
    found = reached(root, load_rules())
    chains = sorted(f.split(" — ")[0] for f in found)
    assert chains == [
        # web -> views.screen -> table (the table is named; what the table imports is its own)
        "host/upref/web/live.py:1: web (layer 9) reaches table through "
        "web/live.py:1 -> views.screen -> table",
        # an import inside a function runs too
        "host/upref/web/live.py:2: web (layer 9) reaches link.connection through "
        "web/live.py:2 -> players -> link.connection",
        # the entry's type names (under TYPE_CHECKING) are not followed; its run-time imports are
        "host/upref/web/server.py:1: web (layer 9) reaches referee.base through "
        "web/server.py:1 -> game -> referee.base",
    ], found
    assert all("web imports no link.connection" in f and "(but referee.status)" in f for f in found)
    # the rules' own `os` and `time` through paths: the standard library holds for own imports
    assert not any("games" in f.split(":")[0] for f in found)
    # and each direct import is `violations`' to name, once
    direct = violations(root, load_rules())
    assert any(f.startswith("host/upref/views/screen.py:1: views (layer 6) imports table") for f in direct)
    assert not any("web/" in f for f in direct), direct


@pytest.mark.parametrize("cell, want", [
    ("`upref/link/`", ("link",)),
    ("`upref/paths.py`, `upref/__init__.py`, `upref/resources/`", ("paths", "__init__", "resources")),
])
def test_the_pages_package_cells_read_as_module_names(cell: str, want: tuple[str, ...]) -> None:
    assert _cell_modules(cell) == want
