"""The store's side of unfinished games: what a list of the logs says of each (its moves, how far
the board's events got in it), closing one without a result, forgetting one, and the mark of a
game being played by a process, which dies with it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from upref.store.gamelog import GameLog, GameLogError, list_games, summaries
from upref.store.inuse import held_elsewhere


@pytest.fixture(autouse=True)
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "run"
    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(d))
    return d


def _game(db: Path, players: tuple[str, ...], *entries: dict[str, object]) -> int:
    with GameLog.create(db, game="updown", players=players, seed=1) as log:
        for e in entries:
            log.append(e)
        return log.game_id


START = {"kind": "start", "t": 2.0, "players": ["Ann", "Bob"], "variant": {}, "seed": 1}


def test_moves_count_what_was_done_at_the_table_after_the_start(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    before = {"kind": "hole", "t": 1.0, "hole": 1, "old": 0, "new": 74}
    tick = {"kind": "tick", "t": 3.0}
    off = {"kind": "online", "t": 3.5, "online": False}
    turned = {"kind": "hole", "t": 4.0, "hole": 1, "old": 74, "new": 35, "boot": "b1", "board_seq": 9}
    key = {"kind": "key", "t": 5.0, "key": "draw"}
    idle = _game(db, ("Ann", "Bob"), before, START, tick, off)
    played = _game(db, ("Ann", "Bob"), before, START, turned, tick, key)
    by_id = {s.info.id: s for s in summaries(db)}
    assert by_id[idle].moves == 0 and by_id[idle].last_mark is None and by_id[idle].marks == {}
    assert by_id[played].moves == 2
    assert by_id[played].last_mark == ("b1", 9) and by_id[played].marks == {"b1": 9}
    assert by_id[played].last_t == 5.0
    with GameLog.open(db, played) as log:
        assert log.moves() == 2
    with GameLog.open(db, idle) as log:
        assert log.moves() == 0


def test_a_closed_game_is_ended_without_a_result_and_cannot_be_closed_twice(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    gid = _game(db, ("Ann", "Bob"), START)
    with GameLog.open(db, gid) as log:
        log.close_unfinished(t=9.0)
        info = log.header
        assert (info.status, info.finished, info.outcome) == ("closed", 9.0, None)
        with pytest.raises(GameLogError, match="is closed, not unfinished"):
            log.close_unfinished()
    assert GameLog.open_latest(db, game="updown") is None  # never offered to a resume


def test_forgetting_a_game_removes_it_and_its_entries_and_nothing_else(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    keep = _game(db, ("Ann", "Bob"), START, {"kind": "key", "t": 3.0, "key": "draw"})
    gone = _game(db, ("Cy", "Dan"), START)
    GameLog.open(db, gone).forget()
    assert [g.id for g in list_games(db)] == [keep]
    with GameLog.open(db, keep) as log:
        assert len(log.entries()) == 2
        assert log.entries(gone) == []
    with pytest.raises(GameLogError, match=f"has no game {gone}"):
        GameLog.open(db, gone)


def test_a_game_marked_as_played_is_seen_so_by_others_until_its_log_closes(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    gid = _game(db, ("Ann", "Bob"), START)
    playing = GameLog.open(db, gid)
    assert not held_elsewhere(db, gid)
    assert playing.mark_playing()
    other = GameLog.open(db, gid)  # another window: its lock is another open file
    assert held_elsewhere(db, gid) and other.played_elsewhere()
    assert not other.mark_playing()
    assert not playing.played_elsewhere()  # its own mark is not elsewhere
    playing.close()
    assert not held_elsewhere(db, gid)
    assert other.mark_playing()
    other.close()


def test_the_mark_dies_with_a_killed_process(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    gid = _game(db, ("Ann", "Bob"), START)
    code = (
        "import sys; from upref.store.gamelog import GameLog\n"
        f"log = GameLog.open({str(db)!r}, {gid}); assert log.mark_playing()\n"
        "print('marked', flush=True); sys.stdin.read()\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == "marked\n"
        assert held_elsewhere(db, gid)
        child.kill()  # kill -9: no chance to let go
        child.wait(timeout=30)
        assert not held_elsewhere(db, gid)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
