"""Helpers of the packaging tests: the checkout, what in it is not source, running a command."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# never part of a build: what git ignores, and the checkout's own history
_SKIP_AT_TOP = {".git", ".venv", "typings", "build", "dist", "var"}
_SKIP_ANYWHERE = {"__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis"}
_SKIP_SUFFIXES = (".pyc", ".mpy", ".egg-info")

BUILD_TIMEOUT_S = 300
INSTALL_TIMEOUT_S = 300


def is_junk(path: Path) -> bool:
    """A file a test run or a build leaves in the checkout (not part of the source)."""
    return bool(_SKIP_ANYWHERE.intersection(path.parts)) or path.name.endswith(_SKIP_SUFFIXES)


def copy_ignore(folder: str, names: list[str]) -> set[str]:
    skip = {n for n in names if n in _SKIP_ANYWHERE or n.endswith(_SKIP_SUFFIXES)}
    if Path(folder).resolve() == REPO:
        skip |= _SKIP_AT_TOP.intersection(names)
    return skip


def run(cmd: list[str], timeout: float, env: dict[str, str], cwd: Path | None = None,
        check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run a command with no input; with `check`, a failure shows what it printed."""
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd,
                         stdin=subprocess.DEVNULL)
    if check:
        assert res.returncode == 0, (
            f"{' '.join(cmd)} exited {res.returncode}\n--- stdout\n{res.stdout}\n"
            f"--- stderr\n{res.stderr}"
        )
    return res


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without anything that could lead Python or upref to the checkout."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("UPREF_ROOT", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV")
    }
    env.update(extra)
    return env


@dataclass(frozen=True)
class Installed:
    venv: Path
    elsewhere: Path  # a folder outside the checkout, to run from
    env: dict[str, str]

    @property
    def python(self) -> str:
        return str(self.venv / "bin" / "python")

    @property
    def upref(self) -> str:
        return str(self.venv / "bin" / "upref")
