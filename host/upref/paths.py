"""Where things are: the repository's firmware and hardware folders, and the runtime folder
in which running simulated boards register themselves so the host can find them."""

from __future__ import annotations

import os
from pathlib import Path


def repo_root() -> Path:
    """The checkout this package runs from (UPREF_ROOT overrides)."""
    env = os.environ.get("UPREF_ROOT")
    if env:
        return Path(env).resolve()
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "firmware").is_dir() and (parent / "hardware").is_dir():
            return parent
    raise RuntimeError(
        f"cannot find the upref checkout (firmware/ and hardware/) above {here}; "
        "set UPREF_ROOT to the folder that holds them"
    )


def firmware_dir() -> Path:
    return repo_root() / "firmware"


def hardware_dir() -> Path:
    return repo_root() / "hardware"


def pinmap_path() -> Path:
    return hardware_dir() / "pinmap.json"


def codes_path() -> Path:
    return hardware_dir() / "codes.json"


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


def data_dir() -> Path:
    """Folder for the host's databases (UPREF_DATA_DIR overrides)."""
    env = os.environ.get("UPREF_DATA_DIR")
    d = Path(env) if env else Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "upref"
    d.mkdir(parents=True, exist_ok=True)
    return d
