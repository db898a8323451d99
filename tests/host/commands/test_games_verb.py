"""`upref games`: the logs listed with their state and moves; `--close N` ends an unfinished one
without a result, `--forget N` removes one; an unknown number and a game being played in another
window are refused in one line, changing nothing. And `upref export --list` gives no winners for
a game still being played."""

from __future__ import annotations

from pathlib import Path

import pytest
from upref import cli
from upref.commands import replay
from upref.store.gamelog import GameLog, list_games


@pytest.fixture(autouse=True)
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "run"
    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(d))
    return d


def _log(db: Path, game: str, players: tuple[str, ...], moves: int, created: float) -> int:
    with GameLog.create(db, game=game, players=players, seed=1, created=created) as log:
        log.append({"kind": "start", "t": 1.0, "players": list(players), "variant": {}, "seed": 1})
        for n in range(moves):
            log.append({"kind": "key", "t": 2.0 + n, "key": "draw"})
        return log.game_id


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Four logs: finished, unfinished, unfinished, and an Up game being played elsewhere."""
    p = tmp_path / "g.sqlite"
    at = 1_765_000_000.0
    done = _log(p, "updown", ("Ann", "Bob", "Cy"), 3, at)
    with GameLog.open(p, done) as log:
        log.finish({"winners": ["Ann"], "termination": "stack-empty"})
    _log(p, "updown", ("Dad", "Mum", "Kid"), 2, at + 60)
    _log(p, "updown", ("Eve", "Fay"), 1, at + 120)
    _log(p, "up", ("Gus", "Hal"), 4, at + 180)
    return p


def games(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = cli.main(["games", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_the_list_says_each_logs_number_game_players_moves_and_state(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = GameLog.open(db, 4)
    assert other.mark_playing()  # `upref play up` in another window
    try:
        rc, out, err = games(capsys, "--db", str(db))
    finally:
        other.close()
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"Game logs in {db}:"
    assert lines[1].split() == ["log", "game", "players", "started", "moves", "state"]
    rows = [ln.split("  ") for ln in lines[2:]]
    cells = [[c.strip() for c in r if c.strip()] for r in rows]
    assert [(c[0], c[1], c[2], c[4], c[5]) for c in cells] == [
        ("1", "Up And Down", "Ann, Bob, Cy", "3", "finished"),
        ("2", "Up And Down", "Dad, Mum, Kid", "2", "unfinished"),
        ("3", "Up And Down", "Eve, Fay", "1", "unfinished"),
        ("4", "Up", "Gus, Hal", "4", "being played elsewhere"),
    ]
    rc, out, _ = games(capsys, "up", "--db", str(db))
    assert rc == 0 and [ln.split()[0] for ln in out.splitlines()[2:]] == ["4"]


def test_close_ends_an_unfinished_log_without_a_result(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = games(capsys, "--db", str(db), "--close", "2")
    assert rc == 0 and err == ""
    assert out.startswith("Closed without a result: log 2 (Up And Down, Dad, Mum and Kid, started ")
    assert out.endswith(
        f", 2 moves). --resume no longer offers it; `upref replay --db {db} --game 2` still "
        "shows its verdicts.\n"
    )
    assert [(g.id, g.status, g.outcome) for g in list_games(db)][1] == (2, "closed", None)
    _, out, _ = games(capsys, "--db", str(db))
    assert out.splitlines()[3].endswith("closed without a result")
    rc, _, err = games(capsys, "--db", str(db), "--close", "1")
    assert rc == 1 and "is finished already: there is nothing to close" in err


def test_forget_removes_one_log_and_leaves_the_others(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = games(capsys, "--db", str(db), "--forget", "3")
    assert rc == 0 and err == ""
    assert out == (
        f"Forgotten: log 3 (Up And Down, Eve and Fay, started {_started(out)}, 1 move). 3 logs "
        f"left in {db}.\n"
    )
    assert [g.id for g in list_games(db)] == [1, 2, 4]


def _started(out: str) -> str:
    """The start time as the line gives it (local time)."""
    return out.split("started ", 1)[1].split(",", 1)[0]


@pytest.mark.parametrize("verb", ["--close", "--forget"])
def test_unknown_numbers_and_games_played_elsewhere_are_refused_untouched(
    db: Path, capsys: pytest.CaptureFixture[str], verb: str
) -> None:
    before = list_games(db)
    rc, out, err = games(capsys, "--db", str(db), verb, "9")
    assert rc == 1 and out == ""
    assert err == (
        f"upref games: there is no log 9 in {db} (its logs: 1, 2, 3, 4): `upref games --db {db}` "
        "lists them\n"
    )
    other = GameLog.open(db, 4)
    assert other.mark_playing()
    try:
        rc, out, err = games(capsys, "--db", str(db), verb, "4")
    finally:
        other.close()
    assert rc == 1 and out == "" and err.count("\n") == 1
    assert "log 4 (Up, Gus and Hal, started " in err and "is being played in another window: quit it there first" in err
    assert list_games(db) == before


def test_no_database_yet_is_said_plainly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = games(capsys, "--db", str(tmp_path / "none.sqlite"))
    assert rc == 0 and out == ""
    assert err == f"upref games: no game logs in {tmp_path / 'none.sqlite'} yet\n"


def test_export_list_gives_winners_only_for_a_finished_game(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a match whose first game Ann won and whose next game is being played: the log keeps the
    # last result, but the game now on has no winner yet
    with GameLog.open(db, 2) as log:
        log.finish({"winners": ["Dad"], "termination": "stack-empty"})
        log.reopen()
    assert replay.export_main(["--db", str(db), "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["1", "updown", "finished", "Ann,", "Bob,", "Cy", "winners", "Ann"]
    assert lines[1].split() == ["2", "updown", "playing", "Dad,", "Mum,", "Kid"]


def test_the_list_and_a_refusal_in_german(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
    from still_english import still_english

    rc, out, err = games(capsys, "--db", str(db), "--lang", "de")
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"Spielprotokolle in {db}:"
    assert lines[1].split() == ["Protokoll", "Spiel", "Spieler", "begonnen", "Züge", "Stand"]
    assert "beendet" in lines[2] and "nicht beendet" in lines[3]
    assert not still_english(lines, [str(db), "Ann", "Bob", "Cy", "Dad", "Mum", "Kid", "Eve", "Fay", "Gus", "Hal"])
    rc, out, err = games(capsys, "--db", str(db), "--close", "1", "--lang", "de")
    assert rc == 1 and err.startswith("upref games: Protokoll 1 (Up And Down, Ann, Bob und Cy, begonnen ")
    assert "ist schon beendet: da gibt es nichts zu schließen" in err
