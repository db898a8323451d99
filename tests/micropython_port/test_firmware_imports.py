"""The firmware's import graph, as the board sees it (every module of firmware/, lib/ and the
drivers flattened into one name space, /lib on the flash): main.py imports app.py and nothing
imports back into it, and no module reaches itself through its imports. The modules loaded on
demand (service.py, calib.py, since.py, ...) get what they need of the loop through the App
they are given. Imports inside functions count: that is how those modules are loaded."""

import ast

from mpy import firmware_sources


def _graph() -> dict[str, set[str]]:
    """Each firmware module's name and the firmware modules it imports (anywhere in it)."""
    sources = {p.stem: p for p in firmware_sources()}
    graph: dict[str, set[str]] = {}
    for name, path in sources.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module)
        graph[name] = {m for m in found if m in sources}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One chain of imports that comes back to where it started, or []."""
    done: set[str] = set()

    def visit(name: str, chain: list[str]) -> list[str]:
        if name in chain:
            return chain[chain.index(name):] + [name]
        if name in done:
            return []
        for dep in sorted(graph[name]):
            found = visit(dep, chain + [name])
            if found:
                return found
        done.add(name)
        return []

    for name in sorted(graph):
        found = visit(name, [])
        if found:
            return found
    return []


def test_the_graph_is_read_from_the_firmware() -> None:
    graph = _graph()
    assert {"main", "app", "service", "frame_queue", "wire", "holes"} <= set(graph)
    assert graph["main"] == {"app", "board"}
    assert {"wire", "holes", "frame_queue", "service", "since"} <= graph["app"]
    assert {"calib", "cards", "feedback", "ring"} <= graph["service"]  # what the App is made of, at boot


def test_only_main_imports_app() -> None:
    graph = _graph()
    importers = sorted(name for name, deps in graph.items() if "app" in deps)
    assert importers == ["main"], f"modules that import app.py: {importers}"


def test_no_module_reaches_itself_through_its_imports() -> None:
    chain = _cycle(_graph())
    assert not chain, "an import cycle: " + " -> ".join(chain)


def test_a_cycle_is_found_and_named() -> None:
    graph = {"app": {"wire", "service"}, "service": {"wire", "app"}, "wire": set()}
    assert _cycle(graph) == ["app", "service", "app"]
    assert _cycle({"a": {"b"}, "b": set()}) == []

