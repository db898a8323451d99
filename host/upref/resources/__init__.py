"""The data upref ships inside the package: the firmware the board runs (`firmware/`), the pin
map (`hardware/pinmap.json`) and the magnet code table (`hardware/codes.json`). The simulator
runs this firmware, `deploy` and `flash` put it on a board, the link reads the wire format from
its `lib/wire.py`. (Each game's card catalogue ships beside its engine, in `games/<game>/data/`.)

The checkout's top-level `firmware/` and `hardware/` folders stay the one source. In the source
tree this folder holds symbolic links to them, not copies:

    host/upref/resources/firmware              -> ../../../firmware
    host/upref/resources/hardware/pinmap.json  -> ../../../../hardware/pinmap.json
    host/upref/resources/hardware/codes.json   -> ../../../../hardware/codes.json

- Run from the checkout, or installed editable (`make venv` runs `pip install -e`, which puts
  `host/` itself on the path), upref reads the checkout's files through the links: what is in
  `firmware/` now is what the simulator runs next, with no copy step anybody could forget.
- Building a wheel or an sdist (`pip install .`, `pipx install .`, `python -m build`),
  setuptools copies the files the links point at, so an installed upref holds real files and
  needs no checkout. Every `.py` file under `firmware/` ships (setuptools finds the folders as
  namespace packages); the two JSON files are listed in pyproject.toml's package-data.
  tests/packaging/ builds a wheel and compares its copies byte for byte with `firmware/` and
  `hardware/`, so a file that stops shipping fails a test.

`UPREF_ROOT=/path/to/checkout` makes upref use that checkout's `firmware/` and `hardware/`
instead of its own copies: for a developer who runs an installed upref against a working copy.

Nothing here imports the rest of upref: every layer may ask it where its data is.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["HERE", "MissingDataError", "codes_path", "firmware_dir", "pinmap_path", "wire_path"]

HERE = Path(__file__).parent  # not resolved: messages name the package's own folder


class MissingDataError(FileNotFoundError):
    """A file upref ships is not where it should be; the message says what to do."""


def _override() -> Path | None:
    env = os.environ.get("UPREF_ROOT")
    return Path(env).resolve() if env else None


def _check(path: Path, what: str) -> Path:
    if path.exists():
        return path
    root = _override()
    if root is not None:
        raise MissingDataError(
            f"UPREF_ROOT is {str(root)!r}, but {what} is not there ({path} does not exist): "
            "point UPREF_ROOT at an upref checkout (the folder with firmware/ and hardware/), "
            "or unset it to use the copies installed with upref"
        )
    if (HERE / "firmware").is_file():  # a checkout made without symbolic links (git core.symlinks)
        raise MissingDataError(
            f"{what} is missing: {HERE} holds files where git should have made symbolic links "
            "to firmware/ and hardware/; enable them (git config core.symlinks true), then "
            "`git checkout -- host/upref/resources`"
        )
    raise MissingDataError(
        f"{what} is missing from this upref installation ({path} does not exist): "
        "reinstall upref (pip install --force-reinstall upref, or pipx reinstall upref)"
    )


def firmware_dir() -> Path:
    """The firmware folder: main.py, app.py, board.py, boot.py, lib/ and drivers/.

    :raises MissingDataError: when it is not there (a broken installation, or a bad UPREF_ROOT).
    """
    root = _override()
    d = root / "firmware" if root is not None else HERE / "firmware"
    _check(d / "main.py", "the board's firmware")
    return d


def wire_path() -> Path:
    """firmware/lib/wire.py: the link's frame format, shared by the firmware and the host."""
    return _check(firmware_dir() / "lib" / "wire.py", "the wire format (firmware/lib/wire.py)")


def pinmap_path() -> Path:
    """hardware/pinmap.json: the board's pin map."""
    root = _override()
    p = root / "hardware" / "pinmap.json" if root is not None else HERE / "hardware" / "pinmap.json"
    return _check(p, "the pin map (hardware/pinmap.json)")


def codes_path() -> Path:
    """hardware/codes.json: the magnet code table."""
    root = _override()
    p = root / "hardware" / "codes.json" if root is not None else HERE / "hardware" / "codes.json"
    return _check(p, "the magnet code table (hardware/codes.json)")
