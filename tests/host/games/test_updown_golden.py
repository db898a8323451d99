"""Golden playthroughs of Up And Down (tests/host/games/golden/updown_*.txt), replayed line by
line. Each file: comment lines, a header (players, seed, optional cards / board / variant),
then commands ('> new', '> draw 0 T03', '> reinsert 3 3 P-RB R', '> end', '> deal', '> hint',
'> undo', '> next-game') each followed by the engine's output, indented: '= verdict',
'! rule: refusal', '~ correction', '@ state'. Run pytest with --update-golden to rewrite the
outputs from the commands."""

from __future__ import annotations

from pathlib import Path

import pytest
from updown_play import GOLDEN_DIR, replay

FILES = sorted(GOLDEN_DIR.glob("updown_*.txt"))


def test_golden_files_exist() -> None:
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_golden_playthrough(path: Path, update_golden: bool) -> None:
    expected, produced = replay(path)
    if update_golden:
        path.write_text("\n".join(produced) + "\n", encoding="utf-8")
        return
    for number, (want, got) in enumerate(zip(expected, produced, strict=False), start=1):
        assert got == want, f"{path.name}:{number}"
    assert len(produced) == len(expected), f"{path.name}: length differs"
