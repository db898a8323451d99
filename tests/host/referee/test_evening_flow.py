"""An evening's flow at the table: a game ended with e is finished in the log and stays so
when nobody plays on; n starts the next game from a clean screen (no old result, no old
verdicts beside the new game's keys); the warning at the next `upref play` names only logs
that really are unfinished."""

from __future__ import annotations

import argparse
from pathlib import Path

from flipabird_table import new_table
from upref.commands import play
from upref.referee.inputs import EndGame, NextGame
from upref.registry import find_game
from upref.store.gamelog import GameLog, list_games


def test_e_then_n_then_q_leaves_a_finished_log_and_no_warning(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    tb = new_table()
    log = GameLog.create(db, game="flipabird", players=tb.players, seed=1, config=tb.ref.config())
    tb.ref.attach(log)
    tb.started()
    tb.feed(EndGame(tb.at()))
    assert log.header.status == "finished"
    assert tb.ref.view(None) is not None and tb.ref.view(None).outcome is not None  # the result

    said = tb.feed(NextGame(tb.at()))
    # the next game's set-up, on a clean screen: no old result, only the set-up's own words
    assert tb.ref.view(None) is None
    recent = tb.ref.status().verdicts
    assert recent == tuple(said) and all("Game stopped" not in v.text for v in recent), recent
    assert any("Set-up" in v.text for v in recent)
    log.close()  # q: nobody acted in the next game

    assert [g.status for g in list_games(db)] == ["finished"]
    args = argparse.Namespace(db=db)
    assert play.unfinished_notice(find_game("flipabird"), args) == []


def test_someone_acting_in_the_next_game_makes_the_log_unfinished_again(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    tb = new_table()
    log = GameLog.create(db, game="flipabird", players=tb.players, seed=1, config=tb.ref.config())
    tb.ref.attach(log)
    tb.started()
    tb.feed(EndGame(tb.at()))
    tb.feed(NextGame(tb.at()))
    tb.scan(1)  # the next game's pile scan begins: the session goes on, a resume picks it up
    assert log.header.status == "playing"
    assert play.unfinished_notice(find_game("flipabird"), argparse.Namespace(db=db)) != []
    log.close()
