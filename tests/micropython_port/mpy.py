"""Compile the firmware (and the simulator's MicroPython-side stand-ins) with mpy-cross, the way
the board runs it: BUILDS are the two ways the firmware runs under the unix port, its native
functions as machine code for this machine (`native`, as the simulator builds it) and as
bytecode (`bytecode`: the decorators taken out, as on a machine mpy-cross has no emitter for)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "host"))
from upref.sim.bytecode import BYTECODE, compile_module, host_march  # noqa: E402

BUILDS = ("native", "bytecode")


def march_of(build: str) -> str:
    """mpy-cross's -march for a build under the unix port on this machine."""
    return BYTECODE if build == "bytecode" else host_march()


def tool(name: str) -> str:
    return shutil.which(name) or str(Path(sys.executable).parent / name)


def firmware_sources() -> list[Path]:
    return sorted(p for p in (ROOT / "firmware").rglob("*.py") if p.name != "manifest.py")


def standin_sources() -> list[Path]:
    """The stand-ins and the chip's description they read (upref/chip: the ADC curve)."""
    chip = sorted(p for p in (ROOT / "host" / "upref" / "chip").glob("*.py") if p.name != "__init__.py")
    return sorted((ROOT / "host" / "upref" / "sim" / "standins").glob("*.py")) + chip


def firmware_test_sources() -> list[Path]:
    """The firmware tests and their fakes (not conftest.py, which is pytest's)."""
    return sorted(p for p in (ROOT / "tests" / "firmware").glob("*.py") if p.name != "conftest.py")


def compile_to(sources: list[Path], out_dir: Path, march: str) -> list[Path]:
    """Compile each source to out_dir/<stem>.mpy (a flat folder, as /lib on the board) for
    `march` (BYTECODE: without native code). Each is named for tracebacks by the path it is
    imported from, its __file__, as make deploy names the board's: one name interned for both
    (a test process holds about as many names as MicroPython's table of them takes in one piece)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    outs = []
    for src in sources:
        out = out_dir / (src.stem + ".mpy")
        compile_module(tool("mpy-cross"), src, out, march, str(out))
        outs.append(out)
    return outs
