"""Running `make` and the host's modules the way a user does, for the flash tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def make(target: str, *variables: str, env: dict[str, str] | None = None, timeout: float = 240.0) -> tuple[int, str, float]:
    """`make <target> VAR=...` in the repository (the venv taken as it is); (status, output, s)."""
    stamp = Path(os.path.abspath(sys.executable)).parent.parent / ".installed"
    cmd = ["make", "--no-print-directory", "-o", os.path.relpath(stamp, ROOT), target, *variables]
    t0 = time.monotonic()
    res = subprocess.run(cmd, cwd=ROOT, env=env or dict(os.environ), capture_output=True, text=True,
                         timeout=timeout, stdin=subprocess.DEVNULL)
    return res.returncode, res.stdout + res.stderr, time.monotonic() - t0


def python_m(module: str, *args: str, env: dict[str, str] | None = None, timeout: float = 240.0) -> tuple[int, str, float]:
    """`python -m module args...` with this venv's Python; (status, output, s)."""
    t0 = time.monotonic()
    res = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, env=env or dict(os.environ),
                         capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    return res.returncode, res.stdout + res.stderr, time.monotonic() - t0
