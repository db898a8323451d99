"""Where things are: the data upref ships (firmware, pin map, code table: `upref.resources`),
the runtime folder in which running simulated boards register themselves so the host can find
them, the host's data folder, and, for developer tools only, the source checkout."""

from __future__ import annotations

import os
from pathlib import Path

from upref import resources
from upref.resources import codes_path, firmware_dir, pinmap_path

__all__ = [
    "CheckoutNeeded",
    "codes_path",
    "data_dir",
    "firmware_dir",
    "hardware_dir",
    "pid_alive",
    "pinmap_path",
    "repo_root",
    "runtime_dir",
]

# firmware_dir(), pinmap_path(), codes_path(): the copies shipped in the package (UPREF_ROOT
# overrides), from upref.resources; the simulator, deploy, flash and the link all use these.


class CheckoutNeeded(RuntimeError):
    """A developer tool needs the upref source checkout and this upref has none."""


def repo_root(needed_by: str = "this developer tool") -> Path:
    """The upref source checkout, for developer tools that work on files an installed upref does
    not have (hardware/'s drawings and bill of materials, docs/, tests/). Nothing that runs the
    board or a game may use it: their data ships in the package (`upref.resources`).

    UPREF_ROOT names the checkout; otherwise it is the checkout that the package's data links
    point at, which exists when upref runs from its source tree or an editable install
    (`make venv`).

    :raises CheckoutNeeded: for an upref installed from a wheel with no UPREF_ROOT.
    """
    env = os.environ.get("UPREF_ROOT")
    if env:
        root = Path(env).resolve()
        if not (root / "firmware").is_dir() or not (root / "hardware").is_dir():
            raise CheckoutNeeded(
                f"{needed_by} needs the upref source checkout, but UPREF_ROOT={env!r} has no "
                "firmware/ and hardware/ folders: point UPREF_ROOT at the clone of upref"
            )
        return root
    link = resources.HERE / "firmware"
    if link.is_symlink():
        root = link.resolve().parent
        if (root / "hardware").is_dir():
            return root
    raise CheckoutNeeded(
        f"{needed_by} needs the upref source checkout (it works on files that are not installed "
        f"with upref), and the upref in {resources.HERE.parent} is installed from a package: run "
        "it from a clone of upref (`make venv`, then `.venv/bin/python -m ...`), or set "
        "UPREF_ROOT to the clone's folder"
    )


def hardware_dir(needed_by: str = "this developer tool") -> Path:
    """The checkout's hardware/ folder (see `repo_root`): the pin map, code table, bill of
    materials and the drawings generated from them."""
    return repo_root(needed_by) / "hardware"


def runtime_dir() -> Path:
    """Folder for sockets and registry files of running simulators (created on demand)."""
    env = os.environ.get("UPREF_RUNTIME_DIR")
    if env:
        d = Path(env)
    elif os.environ.get("XDG_RUNTIME_DIR"):
        d = Path(os.environ["XDG_RUNTIME_DIR"]) / "upref"
    else:
        d = Path("/tmp") / f"upref-{os.getuid()}"
    d.mkdir(parents=True, exist_ok=True, mode=0o700)
    return d


def pid_alive(pid: int) -> bool:
    """Whether a process with this id runs (a registry file may outlive its simulator)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, but another user's
    except OSError:
        return False
    return True


def data_dir(create: bool = True) -> Path:
    """Folder for the host's databases (UPREF_DATA_DIR overrides); created unless `create` is
    False (a command that only reads creates nothing)."""
    env = os.environ.get("UPREF_DATA_DIR")
    d = Path(env) if env else Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "upref"
    if create:
        d.mkdir(parents=True, exist_ok=True)
    return d
