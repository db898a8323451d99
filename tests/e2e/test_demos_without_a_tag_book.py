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


@pytest.mark.parametrize("game", DEMOS)
def test_the_demo_is_played_to_its_end_with_no_tag_book(game: str, tmp_path: Path) -> None:
    env = dict(os.environ, UPREF_DATA_DIR=str(tmp_path / "data"), UPREF_RUNTIME_DIR=str(tmp_path / "run"))
    res = subprocess.run(
        [sys.executable, "-m", "upref", "demo", game, "--no-tag-book", "--plain"],
        capture_output=True, text=True, env=env, timeout=600,
    )
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-3000:]
    assert "not enrolled" not in out, out[-3000:]
    assert "ignored" not in out, out[-3000:]  # no sticker's record was refused
    assert not (tmp_path / "data" / "tags.sqlite").exists()  # nothing was enrolled anywhere
