"""No function of the host package or of the firmware takes more than eight parameters: a longer
list is a settings object (a frozen dataclass on the host; a plain class in the firmware, which
has no dataclasses under MicroPython). `self` and `cls` do not count; `*args` and `**kwargs` do.
A function past the limit is named with its file, line and parameters."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOTS = (REPO / "host" / "upref", REPO / "firmware")
MAX_PARAMETERS = 8

ALLOWED = frozenset({
    # The simulated chip's stand-in for MicroPython's `machine.SPI` takes what the real
    # constructor takes (the bus id, the baud rate and seven keywords), because the unchanged
    # firmware builds its bus with that call: the stand-in cannot choose its signature.
    "host/upref/sim/standins/machine.py SPI.__init__",
})
"""`file qualified.name` of the functions allowed past the limit, each with its reason."""

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, Function]]:
    """Every function under `tree` with its qualified name (`Class.method`, `outer.inner`)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, Function):
            yield f"{prefix}{node.name}", node
            yield from _functions(node, f"{prefix}{node.name}.")
        else:
            yield from _functions(node, prefix)


def parameters(node: Function) -> list[str]:
    """The function's parameters as a caller fills them: all but a leading `self` or `cls`."""
    a = node.args
    names = [p.arg for p in (*a.posonlyargs, *a.args)]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    names += [p.arg for p in a.kwonlyargs]
    if a.vararg is not None:
        names.append("*" + a.vararg.arg)
    if a.kwarg is not None:
        names.append("**" + a.kwarg.arg)
    return names


def long_parameter_lists(
    roots: tuple[Path, ...] = ROOTS, top: Path = REPO, allowed: frozenset[str] = ALLOWED
) -> list[str]:
    """`file:line name: N parameters (a, b, ...)` for every function past MAX_PARAMETERS under
    `roots` that `allowed` does not name."""
    found = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            where = path.relative_to(top).as_posix()
            if "resources" in path.relative_to(top).parts:  # links back to firmware/
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for name, node in _functions(tree):
                names = parameters(node)
                if len(names) > MAX_PARAMETERS and f"{where} {name}" not in allowed:
                    found.append(
                        f"{where}:{node.lineno} {name}: {len(names)} parameters "
                        f"({', '.join(names)})"
                    )
    return found


def test_no_function_takes_more_than_eight_parameters() -> None:
    found = long_parameter_lists()
    assert found == [], (
        f"functions over {MAX_PARAMETERS} parameters (give them a settings object):\n"
        + "\n".join(found)
    )


def test_every_allowed_function_is_still_there_and_still_past_the_limit() -> None:
    """An exception whose function went away or was given a settings object leaves the list."""
    named = {entry for entry in ALLOWED if long_parameter_lists(allowed=ALLOWED - {entry})}
    assert named == ALLOWED


def test_a_long_parameter_list_is_named_and_one_that_fits_is_not(tmp_path: Path) -> None:
    src = tmp_path / "firmware"
    src.mkdir()
    eight = ", ".join(f"a{i}" for i in range(8))
    nine = ", ".join(f"b{i}" for i in range(9))
    seven = ", ".join(f"c{i}" for i in range(7))
    (src / "m.py").write_text(
        f"def fits({eight}):\n    pass\n\n\n"
        f"class C:\n"
        f"    def method_fits(self, {eight}):\n        pass\n\n"
        f"    @classmethod\n    def build(cls, *, {nine}):\n        pass\n\n"
        f"    def outer(self):\n        def inner({seven}, *args, **kwargs):\n            pass\n"
    )
    assert long_parameter_lists((src,), tmp_path, frozenset()) == [
        f"firmware/m.py:10 C.build: 9 parameters ({nine})",
        f"firmware/m.py:14 C.outer.inner: 9 parameters ({seven}, *args, **kwargs)",
    ]
    assert long_parameter_lists((src,), tmp_path, frozenset({"firmware/m.py C.build"})) == [
        f"firmware/m.py:14 C.outer.inner: 9 parameters ({seven}, *args, **kwargs)",
    ]
