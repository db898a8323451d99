"""`upref play --resume` continues the game that matches the table, never one of other players;
where several could fit it asks at a terminal and refuses elsewhere, naming --game-id; a game
being played in another window is not offered. A new `play` names the unfinished games in plain
words and drops a start left with no move; quitting a game in which no move was made keeps
nothing."""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from updown_table import Table, enrolled_tags
from upref.board.model import HoleObservation
from upref.commands import play
from upref.games.updown.referee import UpDownReferee
from upref.games.updown.variant import Variant
from upref.referee.inputs import EndGame, Observe, StartGame
from upref.registry import find_game
from upref.store.gamelog import GameLog, GameLogError, list_games
from upref.store.tags import TagBook

GAME = find_game("updown")


@pytest.fixture(autouse=True)
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "run"
    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(d))
    return d


@pytest.fixture
def tags() -> Iterator[TagBook]:
    book = enrolled_tags()
    yield book
    book.close()


def played(
    db: Path,
    tags: TagBook,
    players: tuple[str, ...],
    boot: str,
    seq: int,
    *,
    end: bool = False,
    t0: float = 1000.0,
) -> int:
    """A real Up And Down log played from time `t0`: the start, the cards drawn, then one pair
    pulled as the board numbered it (`boot`, `seq`); ended with e when `end`. Its number."""
    ref = UpDownReferee(play.CodeTable.load(), tags)
    table = Table(ref, seed=4, t0=t0)
    with GameLog.create(db, game="updown", players=players, seed=4, config=ref.config()) as log:
        ref.attach(log)
        table.feed(StartGame(players, Variant(), 4, table.at()))
        table.draw_all()
        old = table.codes[1]
        table.codes[1] = 0
        obs = HoleObservation(1, old, 0, None, None)  # type: ignore[arg-type]
        table.feed(Observe(obs, table.at(), board_ms=seq * 100, seq=seq, boot=boot))
        if end:
            table.feed(EndGame(table.at()))
        return log.game_id


def first(db: Path, tags: TagBook, *argv: str) -> GameLog:
    """What `play` settles before it opens the board: the log it resumes (its mark held)."""
    _game, args = play.parse([*argv, "--db", str(db)])
    resuming = play._log_first(GAME, args, tags)
    assert resuming is not None
    return resuming[0]


class Terminal(io.StringIO):
    """Standard input at a terminal, where someone types `answer`."""

    def isatty(self) -> bool:
        return True


def test_the_players_named_choose_their_own_game(tmp_path: Path, tags: TagBook) -> None:
    db = tmp_path / "g.sqlite"
    ann = played(db, tags, ("Ann", "Bob", "Cy"), "b1", 10)
    dad = played(db, tags, ("Dad", "Mum", "Kid"), "b2", 10)
    with first(db, tags, "updown", "kid", "Dad", "Mum", "--resume") as log:
        assert log.game_id == dad and log.header.players == ("Dad", "Mum", "Kid")
    with first(db, tags, "updown", "Ann", "Bob", "Cy", "--resume") as log:
        assert log.game_id == ann


def test_a_game_the_board_left_for_another_is_never_taken_for_the_table(
    tmp_path: Path, tags: TagBook, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 30: Ann, Bob and Cy left a game unfinished; Dad, Mum and Kid then played and ended
    # theirs on the same board; the host was killed; `--resume` must not book the table to Bob
    db = tmp_path / "g.sqlite"
    ann = played(db, tags, ("Ann", "Bob", "Cy"), "boot-1", 10)
    played(db, tags, ("Dad", "Mum", "Kid"), "boot-1", 40, end=True)
    with pytest.raises(GameLogError) as refused:
        first(db, tags, "updown", "--resume")
    text = str(refused.value)
    assert "no unfinished Up And Down game fits the table" in text
    assert f"log {ann} (Up And Down, Ann, Bob and Cy, started " in text
    # three cards drawn and a pair pulled: four moves
    assert "4 moves): the board has played log 2 (Dad, Mum and Kid) since" in text
    assert f"upref play updown Ann Bob Cy --resume --db {db}" in text
    with pytest.raises(GameLogError, match="no unfinished Up And Down game of Dad, Mum and Kid"):
        first(db, tags, "updown", "Dad", "Mum", "Kid", "--resume")
    # the whole command: refused before any board is opened, in one line
    opened: list[object] = []
    rc = play.main(
        ["updown", "--resume", "--db", str(db), "--tags", str(tags.path)],
        opener=lambda *a: opened.append(a),  # type: ignore[arg-type,return-value]
    )
    err = capsys.readouterr().err
    assert rc == 1 and opened == [] and "Traceback" not in err
    assert err.count("\n") == 1 and "fits the table" in err
    # named, its players are at the table: it goes on
    with first(db, tags, "updown", "Ann", "Bob", "Cy", "--resume") as log:
        assert log.game_id == ann


def test_without_names_the_game_the_table_went_on_to_goes_on(tmp_path: Path, tags: TagBook) -> None:
    db = tmp_path / "g.sqlite"
    played(db, tags, ("Ann", "Bob", "Cy"), "boot-1", 10, t0=1000.0)
    dad = played(db, tags, ("Dad", "Mum", "Kid"), "boot-2", 5, t0=5000.0)  # board restarted
    with first(db, tags, "updown", "--resume") as log:
        assert log.game_id == dad


def test_a_game_left_before_a_board_restart_is_not_taken_either(tmp_path: Path, tags: TagBook) -> None:
    db = tmp_path / "g.sqlite"
    played(db, tags, ("Ann", "Bob", "Cy"), "boot-1", 10, t0=1000.0)
    played(db, tags, ("Dad", "Mum", "Kid"), "boot-2", 5, t0=5000.0, end=True)
    with pytest.raises(GameLogError, match="the board has played log 2 \\(Dad, Mum and Kid\\) since"):
        first(db, tags, "updown", "--resume")


def test_several_that_fit_are_refused_off_a_terminal_naming_game_id(
    tmp_path: Path, tags: TagBook, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "g.sqlite"
    played(db, tags, ("Ann", "Bob"), "b1", 10)
    played(db, tags, ("Bob", "Ann"), "b1", 30, t0=5000.0)  # the same two, another game
    monkeypatch.setattr("sys.stdin", io.StringIO("2\n"))  # not a terminal: nobody to ask
    with pytest.raises(GameLogError) as refused:
        first(db, tags, "updown", "Ann", "Bob", "--resume")
    text = str(refused.value)
    assert "2 unfinished Up And Down games could be the one at the table" in text
    assert "log 1: Up And Down, Ann and Bob" in text and "log 2: Up And Down, Bob and Ann" in text
    assert text.endswith(f"name one with --game-id (upref play updown --resume --game-id N --db {db})")


def test_several_that_fit_are_listed_and_the_one_typed_goes_on(
    tmp_path: Path, tags: TagBook, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.sqlite"
    played(db, tags, ("Ann", "Bob"), "b1", 10)
    again = played(db, tags, ("Ann", "Bob"), "b1", 30, t0=5000.0)
    monkeypatch.setattr("sys.stdin", Terminal(f"{again}\n"))
    with first(db, tags, "updown", "ann", "bob", "--resume") as log:
        assert log.game_id == again
    asked = capsys.readouterr().err
    assert "2 unfinished Up And Down games could be the one at the table:" in asked
    assert "  log 1: Up And Down, Ann and Bob" in asked and "  log 2: Up And Down, Ann and Bob" in asked
    assert "Which log goes on? Type its number and Enter" in asked
    for answer, said in (("\n", "none was chosen"), ("7\n", "'7' is none of them")):
        monkeypatch.setattr("sys.stdin", Terminal(answer))
        with pytest.raises(GameLogError, match=f"no game resumed \\({said}\\)"):
            first(db, tags, "updown", "Ann", "Bob", "--resume")


def test_game_id_of_other_players_is_refused(tmp_path: Path, tags: TagBook) -> None:
    db = tmp_path / "g.sqlite"
    ann = played(db, tags, ("Ann", "Bob", "Cy"), "b1", 10)
    with pytest.raises(GameLogError, match="is the game of Ann, Bob, Cy, not of Dad, Mum, Kid"):
        first(db, tags, "updown", "Dad", "Mum", "Kid", "--resume", "--game-id", str(ann))


def test_a_game_played_in_another_window_is_not_offered(
    tmp_path: Path, tags: TagBook, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.sqlite"
    cy = played(db, tags, ("Cy", "Dan"), "b2", 10)
    ann = played(db, tags, ("Ann", "Bob"), "b1", 10, t0=5000.0)
    elsewhere = GameLog.open(db, cy)
    assert elsewhere.mark_playing()
    try:
        with first(db, tags, "updown", "--resume") as log:  # the one left: no question
            assert log.game_id == ann
        with pytest.raises(GameLogError, match="is being played in another window"):
            first(db, tags, "updown", "--resume", "--game-id", str(cy))
        with pytest.raises(GameLogError, match="being played in another window: go on there"):
            first(db, tags, "updown", "Cy", "Dan", "--resume")
        notice = "\n".join(play.unfinished_notice(GAME, argparse.Namespace(db=db)))
        assert f"log {cy}: Up And Down, Cy and Dan" in notice
        # two cards drawn and a pair pulled: three moves
        assert "3 moves: being played in another window" in notice
    finally:
        elsewhere.close()


def test_a_new_game_names_the_unfinished_ones_plainly_and_drops_empty_starts(
    tmp_path: Path, tags: TagBook, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.sqlite"
    ann = played(db, tags, ("Ann", "Bob"), "b1", 10)
    GameLog.create(db, game="updown", players=("Eve", "Fay"), seed=1).close()  # killed at once
    _game, args = play.parse(["updown", "Gus", "Hal", "--db", str(db)])
    assert play._log_first(GAME, args, tags) is None
    err = capsys.readouterr().err
    assert [g.id for g in list_games(db)] == [ann]  # the start with no move is gone
    assert f"upref play: 1 earlier game in {db} was not finished. This new game starts anyway" in err
    assert (
        f"log {ann}: Up And Down, Ann and Bob, started " in err
        and f"to go on with it instead, press Ctrl-C now and type upref play updown --resume "
        f"--game-id {ann} --db {db}" in err
    )
    assert f"upref games --close N --db {db}" in err
    assert "Eve" not in err


def test_quitting_a_game_with_no_move_keeps_nothing(tmp_path: Path, tags: TagBook) -> None:
    db = tmp_path / "g.sqlite"
    args = argparse.Namespace(db=db)
    ann = played(db, tags, ("Ann", "Bob"), "b1", 10)
    with GameLog.create(db, game="updown", players=("Eve", "Fay"), seed=1) as empty:
        empty.append({"kind": "start", "t": 1.0, "players": ["Eve", "Fay"], "variant": {}, "seed": 1})
        empty.append({"kind": "tick", "t": 2.0})
        gid = empty.game_id
        said = play.left_behind(GAME, empty, args)
    assert said == f"Log {gid} is not kept: no move was made in it. Start again with upref play updown NAMES --db {db}"
    assert [g.id for g in list_games(db)] == [ann]
    with GameLog.open(db, ann) as log:
        assert play.left_behind(GAME, log, args).startswith(f"Log {ann} is saved in {db}")
    assert [g.id for g in list_games(db)] == [ann]
