"""A sixth game added in one folder: `pile_game` (tests/e2e/pile_game/: its rules, referee, panel
and demo, and its entry in `__init__.py`) is copied into a folder outside upref, declared as an
installed distribution with an `upref.games` entry point, and `upref demo pile` plays it whole
on the simulated board. No file of upref names it, lists it or is changed for it: the registry
finds it through the entry point."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pile_game

PACKAGE = Path(pile_game.__file__).parent


def _install(site: Path) -> None:
    """The game as an installed distribution: its package and a dist-info with its entry point,
    what `pip install` of a project declaring `[project.entry-points."upref.games"]` leaves."""
    shutil.copytree(PACKAGE, site / "pile_game", ignore=shutil.ignore_patterns("__pycache__"))
    info = site / "upref_pile-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: upref-pile\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[upref.games]\npile = pile_game\n")


def _upref(site: Path, data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    path = [str(site), *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path), UPREF_DATA_DIR=str(data))
    return subprocess.run(
        [sys.executable, "-m", "upref", *args], capture_output=True, text=True, env=env,
        timeout=300, check=False, cwd=data,
    )


def test_a_game_installed_as_its_own_distribution_is_found_and_its_demo_played(
    tmp_path: Path,
) -> None:
    site, data = tmp_path / "site", tmp_path / "data"
    site.mkdir()
    data.mkdir()
    _install(site)

    listed = _upref(site, data, "demo", "--help")
    assert listed.returncode == 0, listed.stderr
    assert "pile" in listed.stdout, listed.stdout

    done = _upref(site, data, "demo", "pile", "--plain", "--size", "4")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "upref — Pile" in out, out
    assert "cannot take 2: only 1 left" in out, out  # the demo's one refused move ...
    assert "took the last one and wins" in out, out  # ... and the winner named at the end


def test_without_the_distribution_the_game_is_unknown(tmp_path: Path) -> None:
    site, data = tmp_path / "site", tmp_path / "data"
    site.mkdir()
    data.mkdir()
    done = _upref(site, data, "demo", "pile", "--plain")
    assert done.returncode != 0
    assert "Traceback" not in done.stderr, done.stderr
    assert "unknown game 'pile'" in done.stdout + done.stderr
