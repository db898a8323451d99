"""`upref simctl STEP` without a board (issue 30): its help lists every game's whole table steps,
and a step that cannot be done says why in one line and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from upref.board.codes import CodeTable
from upref.commands import simctl
from upref.registry import find_game, games
from upref.store.gamelog import GameLog


def test_help_lists_every_game_s_steps(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        simctl.simctl_main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for game in games():
        for name, step in game.steps.items():
            assert f"{name:<8} {game.title}: {step.summary}" in out, out
    assert {"draw", "lay", "deal", "scan", "play"} <= set(simctl.step_names())


def test_a_step_without_a_game_says_to_start_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.sqlite"
    assert simctl.simctl_main(["draw", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("upref simctl draw: no game is logged in ") and "upref play" in err, err
    assert not db.exists()


def test_a_step_another_game_has_is_refused_naming_the_game_s_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.sqlite"
    game = find_game("whatsup")
    ref = game.referee(CodeTable.load(), None)
    GameLog.create(db, game="whatsup", players=("Ann", "Bob"), seed=1, config=ref.config()).close()
    assert simctl.simctl_main(["draw", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "What's Up (the newest game of" in err and "has no step 'draw': its steps are lay" in err
