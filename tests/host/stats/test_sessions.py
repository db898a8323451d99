"""Sessions as a real referee logs them: an undo after the end takes the result back (the game
is unfinished again, and counts once when it ends again), and a session that went on to the next
game counts the first and shows the next as unfinished."""

from __future__ import annotations

from pathlib import Path

from updown_table import CODES, Table, enrolled_tags
from upref.games.updown.referee import UpDownReferee
from upref.games.updown.variant import Variant
from upref.referee.base import OVER
from upref.referee.inputs import EndGame, NextGame, StartGame, Undo
from upref.registry import titles
from upref.stats.reading import harvest
from upref.stats.records import UNFINISHED
from upref.store.gamelog import GameLog


def a_table(db: Path) -> Table:
    """A short game (to one shovel) being played, its log in `db`."""
    ref = UpDownReferee(CODES, enrolled_tags(), titles=titles())
    ref.attach(GameLog.create(db, game="updown", players=("Ann", "Bob"), seed=3, config=ref.config()))
    tb = Table(ref, seed=3)
    tb.feed(StartGame(("Ann", "Bob"), Variant(short_game_target=1), 3, tb.at()))
    return tb


def play_to_the_end(tb: Table) -> None:
    """Turns played until the rules end the game (someone has a shovel)."""
    for _ in range(60):
        if tb.ref.phase == OVER:
            return
        tb.draw_all()
        if tb.ref.phase != OVER:
            tb.play_turn()
    raise AssertionError("the short game did not end in 60 turns")


def test_an_undo_after_the_end_takes_the_result_back_until_it_ends_again(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    tb = a_table(db)
    play_to_the_end(tb)
    assert len(harvest([db]).results) == 1
    tb.feed(Undo(tb.at()))
    assert tb.ref.phase != OVER
    taken_back = harvest([db])
    assert taken_back.results == [] and [n.state for n in taken_back.not_counted] == [UNFINISHED]
    play_to_the_end(tb)
    again = harvest([db])
    assert len(again.results) == 1 and again.not_counted == [] and again.results[0].winners


def test_the_next_game_asked_for_leaves_the_first_counted_and_the_next_unfinished(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    tb = a_table(db)
    tb.feed(EndGame(tb.at()))
    tb.feed(NextGame(tb.at()))
    tb.pull(1)  # the table takes the pairs out for the next game: the session is open again
    read = harvest([db])
    assert [(r.number, r.players) for r in read.results] == [(1, ("Ann", "Bob"))]
    assert [n.state for n in read.not_counted] == [UNFINISHED]
