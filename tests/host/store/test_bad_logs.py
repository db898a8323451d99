"""Game logs that are not what they should be: a truncated database, random bytes, another
program's SQLite file, a damaged entry, a folder that cannot be written. Each gets one line
(what is wrong, which file, game and entry, what to do), exit 1, no traceback; and a command
that reads never creates or changes anything in a file that is not already an upref log."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from updown_table import PLAYERS, Table, enrolled_tags
from upref import cli
from upref.board.codes import CodeTable
from upref.games.updown.referee import UpDownReferee
from upref.games.updown.variant import Variant
from upref.referee.inputs import StartGame
from upref.store.gamelog import GameLog, GameLogError, list_games
from upref.store.replay import load_log

CODES = CodeTable.load()


def make_log(db: Path, *, finish: bool = False) -> GameLog:
    """A real upref log: a game started and three pairs turned (one turned twice, refused)."""
    ref = UpDownReferee(CODES, enrolled_tags(path=db.with_name("tags.sqlite")))
    log = GameLog.create(db, game="updown", players=PLAYERS, seed=4, config=ref.config())
    ref.attach(log)
    tb = Table(ref, seed=4)
    tb.feed(StartGame(PLAYERS, Variant(), 4, tb.at()))
    tb.draw_all()
    tb.flip(1)
    tb.flip(1)
    if finish:
        log.finish({"termination": "stopped", "winners": [], "scores": {}})
    return log


def snapshot(folder: Path) -> dict[str, str]:
    """Every file of the folder with the SHA-256 of its bytes."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()
    }


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = cli.main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def one_line(err: str) -> str:
    """The command's message: exactly one line, no traceback."""
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def foreign(tmp_path: Path) -> Path:
    """Another program's SQLite file (rollback journal, its own tables)."""
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO notes (text) VALUES ('keep me as I am')")
    conn.commit()
    conn.close()
    return path


def test_a_foreign_sqlite_file_is_refused_untouched_by_every_command(
    foreign: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = foreign.parent
    before = snapshot(folder)
    cases = [
        ("replay", str(foreign)),
        ("replay", "--game", "1", str(foreign)),
        ("export", "--db", str(foreign), "--list"),
        ("export", "--db", str(foreign)),
        ("play", "updown", "--resume", "--db", str(foreign), "--port", "loop://"),
        ("play", "updown", "Ann", "Bob", "--db", str(foreign), "--port", "loop://"),
    ]
    for argv in cases:
        rc, _, err = run(capsys, *argv)
        line = one_line(err)
        assert rc == 1, (argv, err)
        assert f"{foreign} is an SQLite database but not an upref game log" in line, line
        assert "leaves it untouched" in line and "games.sqlite" in line, line
        assert snapshot(folder) == before, argv  # no table added, no WAL, no journal left
    conn = sqlite3.connect(f"{foreign.as_uri()}?mode=ro", uri=True)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["notes"]
    conn.close()


def test_a_foreign_file_with_upref_s_version_but_not_its_tables_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version=1")
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)")
    conn.commit()
    conn.close()
    before = snapshot(tmp_path)
    rc, _, err = run(capsys, "replay", str(path))
    assert rc == 1
    assert "not an upref game log (no upref table games or entries)" in one_line(err)
    assert snapshot(tmp_path) == before


def test_a_truncated_log_is_damaged_and_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.sqlite"
    make_log(good).close()
    data = good.read_bytes()
    assert len(data) >= 3 * 4096, "the log should span several pages"
    cut = tmp_path / "cut.sqlite"
    cut.write_bytes(data[: len(data) // 2])
    before = snapshot(tmp_path)
    for argv in (
        ("replay", str(cut)),
        ("export", "--db", str(cut), "--list"),
        ("play", "updown", "--resume", "--db", str(cut), "--port", "loop://"),
    ):
        rc, _, err = run(capsys, *argv)
        line = one_line(err)
        assert rc == 1, argv
        assert f"game log {cut} is damaged: it is cut short" in line, line
        assert "restore it from a backup" in line, line
    assert snapshot(tmp_path) == before
    # cut inside the header: too short to be anything
    tiny = tmp_path / "tiny.sqlite"
    tiny.write_bytes(data[:50])
    rc, _, err = run(capsys, "replay", str(tiny))
    assert rc == 1 and f"game log {tiny} is damaged: it is cut short (50 bytes)" in one_line(err)


def test_random_bytes_and_text_are_not_logs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    noise = tmp_path / "noise.bin"
    noise.write_bytes(random.Random(7).randbytes(3000))
    text = tmp_path / "notes.txt"
    text.write_text("shopping: milk, eggs\n", encoding="utf-8")
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    before = snapshot(tmp_path)
    rc, _, err = run(capsys, "replay", str(noise))
    assert rc == 1
    assert one_line(err) == (
        f"upref replay: {noise} is not an upref game log (neither an SQLite games database nor "
        "JSON Lines text): name the games.sqlite that `upref play` wrote, or an exported .jsonl"
    )
    rc, _, err = run(capsys, "replay", str(text))
    assert rc == 1 and f"{text} is not an upref game log (its first line is not JSON)" in one_line(err)
    rc, _, err = run(capsys, "export", "--db", str(noise))
    assert rc == 1 and f"{noise} is not an upref game log (not an SQLite database)" in one_line(err)
    rc, _, err = run(capsys, "replay", str(empty))
    assert rc == 1 and f"{empty} is empty, not an upref game log" in one_line(err)
    assert snapshot(tmp_path) == before


def _damage(db: Path, sql: str) -> None:
    conn = sqlite3.connect(db)
    conn.execute(sql)
    conn.commit()
    conn.close()


def test_a_bad_entry_names_the_file_the_game_and_the_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.sqlite"
    log = make_log(db)
    gid = log.game_id
    log.close()
    _damage(db, "UPDATE entries SET payload = '{\"hole\": 3, \"old\":' WHERE seq = 14")
    for argv in (
        ("replay", str(db)),
        ("export", "--db", str(db)),
        ("play", "updown", "--resume", "--db", str(db), "--port", "loop://"),
    ):
        rc, _, err = run(capsys, *argv)
        line = one_line(err)
        assert rc == 1, argv
        assert f"game log {db}, game {gid}, entry 14: its payload is damaged" in line, line
        assert "restore it from a backup" in line


def test_an_unknown_kind_or_a_bad_field_names_the_entry_in_replay_and_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.sqlite"
    log = make_log(db)
    gid = log.game_id
    log.close()
    _damage(db, "UPDATE entries SET kind = 'warp' WHERE seq = 12")
    _damage(db, "UPDATE entries SET payload = '{\"hole\": 3}' WHERE seq = 15")
    rc, _, err = run(capsys, "replay", str(db))
    line = one_line(err)
    assert rc == 1
    assert line.startswith(f"upref replay: game log {db}, game {gid}, entry 12: updown cannot read it")
    assert "unknown input kind 'warp'" in line and "update upref" in line
    _damage(db, "UPDATE entries SET kind = 'hole' WHERE seq = 12")
    kinds = [e.kind for e in GameLog.open(db, gid, read_only=True).entries()]
    assert kinds[11] == "hole"
    rc, _, err = run(capsys, "play", "updown", "--resume", "--db", str(db), "--port", "loop://")
    line = one_line(err)
    assert rc == 1
    assert line.startswith(f"upref play: game log {db}, game {gid}, entry ")
    assert "cannot read it" in line


def test_a_bad_jsonl_line_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite"
    log = make_log(db)
    jsonl = tmp_path / "game.jsonl"
    with jsonl.open("w", encoding="utf-8") as f:
        log.export_jsonl(None, f)
    lines = jsonl.read_text(encoding="utf-8").splitlines()
    lines[4] = '{"seq": 5, "t": "soon", "kind": "hole"}'
    jsonl.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rc, _, err = run(capsys, "replay", str(jsonl))
    assert rc == 1
    assert f"{jsonl}, line 5: not a game log entry" in one_line(err)


def test_reading_creates_nothing_and_keeps_the_journal_mode(tmp_path: Path) -> None:
    """A replay of a real log leaves the folder as it found it (no WAL switch on a log of the
    old rollback kind either), and a missing log is not created by reading it."""
    db = tmp_path / "games.sqlite"
    make_log(db).close()
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    before = snapshot(tmp_path)
    info, entries = load_log(db)
    assert info.players == PLAYERS and entries
    assert list_games(db)[0].id == info.id
    assert snapshot(tmp_path) == before
    with pytest.raises(GameLogError, match="there is no game log at"):
        load_log(tmp_path / "missing.sqlite")
    assert list_games(tmp_path / "missing.sqlite") == []
    assert not (tmp_path / "missing.sqlite").exists()


def test_replay_with_no_argument_reads_the_default_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UPREF_DATA_DIR", str(tmp_path / "data"))
    rc, _, err = run(capsys, "replay")
    assert rc == 1
    assert f"there is no game log at {tmp_path / 'data' / 'games.sqlite'}" in one_line(err)
    assert not (tmp_path / "data").exists()  # reading created no folder
    (tmp_path / "data").mkdir()
    make_log(tmp_path / "data" / "games.sqlite").close()
    rc, out, err = run(capsys, "replay", "--json")
    assert rc == 0, err
    verdicts = [json.loads(line) for line in out.splitlines()]
    assert any(v["rule"] == "M-1" for v in verdicts)
    rc, out2, _ = run(capsys, "replay", str(tmp_path / "data" / "games.sqlite"), "--json")
    assert out2 == out


# --- a folder that cannot be written ---------------------------------------------------------


@pytest.fixture
def read_only_folder() -> Iterator[Path]:
    """A folder with a real games log in it, made read-only (files 0444, folder 0555). Outside
    pytest's own temporary folder, whose parents only root may enter."""
    folder = Path(tempfile.mkdtemp(prefix="upref-ro-"))
    folder.chmod(0o755)
    make_log(folder / "games.sqlite").close()
    (folder / "tags.sqlite").unlink()
    assert sorted(p.name for p in folder.iterdir()) == ["games.sqlite"]
    (folder / "games.sqlite").chmod(0o444)
    folder.chmod(0o555)
    try:
        yield folder
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)


def as_a_user(*argv: str, data: Path) -> subprocess.CompletedProcess[str]:
    """Run `upref ARGV` with permissions checked as for an ordinary user: as root (the tests'
    usual case here), the process drops the capabilities that let root write anywhere."""
    command = [sys.executable, "-m", "upref", *argv]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: cannot make a folder read-only to root")
        caps = "-dac_override,-dac_read_search,-fowner"
        command = [setpriv, "--inh-caps", caps, "--bounding-set", caps, *command]
    env = dict(os.environ, UPREF_DATA_DIR=str(data))
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=False)


def test_reading_works_in_a_read_only_folder_and_writing_says_why_not(read_only_folder: Path) -> None:
    folder = read_only_folder
    before = snapshot(folder)
    probe = as_a_user("export", "--db", str(folder / "probe.sqlite"), "--list", data=folder)
    done = as_a_user("replay", "--json", data=folder)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert any(json.loads(line)["rule"] == "M-1" for line in done.stdout.splitlines())
    listed = as_a_user("export", "--list", data=folder)
    assert listed.returncode == 0, listed.stderr
    assert "updown" in listed.stdout and "Ann, Bob, Cy" in listed.stdout
    exported = as_a_user("export", data=folder)
    assert exported.returncode == 0 and exported.stdout.startswith('{"kind":"game"')
    assert probe.returncode == 0 and "no games in" in probe.stderr
    assert snapshot(folder) == before and not (folder / "probe.sqlite").exists()
    # playing writes: refused in one line, before any board is opened
    played = as_a_user("play", "updown", "Ann", "Bob", "--port", "loop://", data=folder)
    assert played.returncode == 1
    line = one_line(played.stderr)
    assert line.startswith(f"upref play: cannot write the game log {folder / 'games.sqlite'}")
    assert "make its folder writable" in line and "--db" in line
    assert snapshot(folder) == before
