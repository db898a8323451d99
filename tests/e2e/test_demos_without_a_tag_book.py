"""Every game's demo played whole with no tag book at all (`upref demo GAME --no-tag-book`):
the simulated deck's stickers carry their records (docs/tags.md), the board reads them as each
card arrives, and the referee knows every piece from its own sticker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from upref.registry import games

DEMOS = sorted(g.name for g in games() if g.demo is not None)


def test_every_game_has_a_demo_here() -> None:
    assert len(DEMOS) >= 5, DEMOS


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, Path]]:
    """Every game's demo with no tag book, all played at once, each a process of its own with its
    own data folder (they mostly wait on the demo's pace): game -> (exit status, what it printed,
    its data folder)."""
    runs: dict[str, tuple[subprocess.Popen[str], Path]] = {}
    for game in DEMOS:
        folder = tmp_path_factory.mktemp(game)
        env = dict(os.environ, UPREF_DATA_DIR=str(folder / "data"), UPREF_RUNTIME_DIR=str(folder / "run"))
        runs[game] = subprocess.Popen(
            [sys.executable, "-m", "upref", "demo", game, "--no-tag-book", "--plain"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, env=env,
        ), folder / "data"
    out: dict[str, tuple[int, str, Path]] = {}
    for game, (proc, data) in runs.items():
        said, _ = proc.communicate(timeout=600)
        out[game] = proc.returncode, said, data
    return out


@pytest.mark.parametrize("game", DEMOS)
def test_the_demo_is_played_to_its_end_with_no_tag_book(
    game: str, played: dict[str, tuple[int, str, Path]]
) -> None:
    rc, out, data = played[game]
    assert rc == 0, out[-3000:]
    assert "not enrolled" not in out, out[-3000:]
    assert "ignored" not in out, out[-3000:]  # no sticker's record was refused
    assert not (data / "tags.sqlite").exists()  # nothing was enrolled anywhere
