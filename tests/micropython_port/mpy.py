"""Compile the firmware (and the simulator's MicroPython-side stand-ins) with mpy-cross, the way
the board runs it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


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


def compile_to(sources: list[Path], out_dir: Path, march: str = "xtensawin") -> list[Path]:
    """Compile each source to out_dir/<stem>.mpy (a flat folder, as /lib on the board)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    outs = []
    for src in sources:
        out = out_dir / (src.stem + ".mpy")
        res = subprocess.run(
            [tool("mpy-cross"), f"-march={march}", "-o", str(out), str(src)],
            capture_output=True, text=True, timeout=60,
        )
        if res.returncode != 0:
            raise RuntimeError(f"mpy-cross failed on {src}: {res.stderr}")
        outs.append(out)
    return outs
