"""Golden playthroughs of Up And Down (tests/golden/updown/playthrough_*.txt), replayed line by
line. Each file: comment lines, a header (players, seed, optional cards / board / variant),
then commands ('> new', '> draw 0 T03', '> reinsert 3 3 P-RB R', '> end', '> deal', '> hint',
'> undo', '> next-game') each followed by the engine's output, indented: '= verdict',
'! rule: refusal', '~ correction', '@ state'. `pytest --update-golden` rewrites the outputs
from the commands and fails the run: review the diff."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from updown_play import GOLDEN_DIR, replay

FILES = sorted(GOLDEN_DIR.glob("playthrough_*.txt"))


def test_golden_files_exist() -> None:
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_golden_playthrough(path: Path, golden: Callable[[Path, str], None]) -> None:
    _, produced = replay(path)
    golden(path, "\n".join(produced) + "\n")
