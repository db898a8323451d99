"""Bad input that once got a traceback or changed a file: each gets one line (what, which file,
what to do), exits 1 (2 for a usage error), and leaves every file as it was."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from upref import cli
from upref.store.gamelog import GameLog
from upref.store.tags import TagBook

sys.path.insert(0, str(Path(__file__).parents[1] / "store"))
from test_bad_logs import as_a_user, make_log, one_line, snapshot  # noqa: E402

NO_PORT = "/dev/upref-no-such-port"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = cli.main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


# --- the tag book --------------------------------------------------------------------------


@pytest.fixture
def read_only_tag_book() -> Iterator[Path]:
    """A data folder whose tag_book holds T01, made read-only (file 0444, folder 0555)."""
    folder = Path(tempfile.mkdtemp(prefix="upref-ro-tags-"))
    folder.chmod(0o755)
    with TagBook(folder / "tags.sqlite") as reg:
        reg.enroll("04A1B2C3D4E5F6", "updown", "T01")
    (folder / "tags.sqlite").chmod(0o444)
    folder.chmod(0o555)
    try:
        yield folder
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)


def test_forget_in_a_read_only_data_folder_says_why_and_changes_nothing(read_only_tag_book: Path) -> None:
    before = snapshot(read_only_tag_book)
    done = as_a_user("enroll", "updown", "--forget", "T01", data=read_only_tag_book)
    assert done.returncode == 1
    line = one_line(done.stderr)
    assert line.startswith(f"upref enroll: cannot change the tag book {read_only_tag_book / 'tags.sqlite'}")
    assert "nothing was changed" in line and "writable" in line
    assert snapshot(read_only_tag_book) == before


def test_a_tag_list_with_a_huge_field_names_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UPREF_DATA_DIR", str(tmp_path / "data"))
    csv = tmp_path / "h.csv"
    csv.write_text(
        "uid,game,item,enrolled_at\n04A1B2C3D4E5F6,updown,T01,2024\n"
        + '04A1B2C3D4E5F7,updown,T02,"' + "x" * 30_000_000 + '"\n',
        encoding="utf-8",
    )
    rc, _, err = run(capsys, "enroll", "updown", "--import", str(csv))
    assert rc == 1
    line = one_line(err)
    assert line.startswith("upref enroll: tag list line 3: not a tag list (field larger than field limit")
    assert "--export" in line
    with TagBook(tmp_path / "data" / "tags.sqlite", read_only=True) as reg:
        assert reg.tags("updown") == []  # the good line before it was not enrolled either


# --- replay ------------------------------------------------------------------------------------


def test_replay_of_json_nested_too_deep_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite"
    log = make_log(db)
    good = tmp_path / "good.jsonl"
    with good.open("w", encoding="utf-8") as f:
        log.export_jsonl(None, f)
    log.close()
    header = good.read_text(encoding="utf-8").splitlines()[0]
    deep = tmp_path / "deep.jsonl"
    deep.write_text(header + "\n" + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    for argv in (("replay", str(deep)), ("replay", str(deep), "--json")):
        rc, out, err = run(capsys, *argv)
        assert rc == 1 and out == ""
        line = one_line(err)
        assert f"{deep}, line 2: not a game log entry (JSON nested too deep to read)" in line
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    rc, _, err = run(capsys, "replay", str(deep))
    assert rc == 1 and "its first line is not JSON" in one_line(err)


# --- play: the log ------------------------------------------------------------------------------


def test_an_empty_file_is_never_made_a_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "e.sqlite"
    empty.write_bytes(b"")
    for argv in (
        ("play", "updown", "--resume", "--db", str(empty), "--port", "loop://"),
        ("play", "updown", "Ann", "Bob", "--db", str(empty), "--port", "loop://"),
    ):
        rc, _, err = run(capsys, *argv)
        assert rc == 1, argv
        line = one_line(err)
        assert f"{empty} is empty, not an upref game log" in line
        assert sorted(p.name for p in tmp_path.iterdir()) == ["e.sqlite"]
        assert empty.read_bytes() == b""
    with pytest.raises(ValueError, match="is empty"):
        GameLog.create(empty, game="updown", players=("Ann", "Bob"))
    assert empty.read_bytes() == b""


def _flip_index_bit(db: Path) -> None:
    """Damage the games index only: the table still reads, but the index finds no game."""
    data = bytearray(db.read_bytes())
    data[-17] ^= 0x10  # inside the last page, the index games_by_game of a 4-page log
    db.write_bytes(bytes(data))


def test_resume_of_a_damaged_log_says_damaged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite"
    make_log(db).close()
    assert db.stat().st_size == 4 * 4096
    _flip_index_bit(db)
    before = snapshot(tmp_path)
    rc, _, err = run(capsys, "play", "updown", "--resume", "--db", str(db), "--port", "loop://")
    assert rc == 1
    line = one_line(err)
    assert f"game log {db} is damaged" in line and "restore it from a backup" in line
    assert "no unfinished" not in line
    assert snapshot(tmp_path) == before


def test_a_header_row_that_cannot_be_found_is_damage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite"
    make_log(db).close()
    data = bytearray(db.read_bytes())
    data[3845] ^= 0x10  # a bit of the games table's page: its row's id no longer matches
    db.write_bytes(bytes(data))
    rc, _, err = run(capsys, "replay", str(db))
    assert rc == 1 and "damaged" in one_line(err)


def test_play_creates_no_log_before_the_board_is_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "new.sqlite"
    rc, _, err = run(capsys, "play", "updown", "Ann", "Bob", "--db", str(db), "--port", NO_PORT)
    assert rc == 1
    assert "Traceback" not in err and NO_PORT in err
    assert not db.exists()
    rc, _, err = run(capsys, "play", "updown", "Ann", "Bob", "--db", str(tmp_path / "no" / "g.sqlite"), "--port", NO_PORT)
    assert rc == 1 and "the folder" in one_line(err) and "does not exist" in one_line(err)


# --- play: the arguments ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (("Ann", "Bob", "--short", "-1"), "short_game_target must be a positive whole number: -1"),
        (("Ann", "Bob", "--short", "0"), "short_game_target must be a positive whole number: 0"),
        (("Ann", ""), "a player's name is empty"),
        (("Ann", "  "), "a player's name is empty"),
        (("Ann", "Bob", "ann"), "two players are called 'ann'"),
        (("Ann", "x" * 20_000), "is 20000 characters long: give at most 40"),
        (("Ann", "Bob\x1b[2J"), "holds a character that cannot be shown"),
        (tuple(f"P{i}" for i in range(200)), "Up And Down is for 2 to 6 players, not 200"),
    ],
)
def test_bad_players_and_variants_are_told_before_any_board(
    extra: tuple[str, ...], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("UPREF_DATA_DIR", str(tmp_path / "data"))
    rc, _, err = run(capsys, "play", "updown", *extra, "--port", NO_PORT, "--db", str(tmp_path / "g.sqlite"))
    assert rc == 2
    line = one_line(err)
    assert said in line and NO_PORT not in line, line
    assert len(line) < 400
    assert not (tmp_path / "g.sqlite").exists()


@pytest.mark.parametrize("value", ["-5", "nan", "inf", "1e9", "soon"])
def test_a_bad_settle_is_a_usage_error(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["play", "updown", "Ann", "Bob", "--settle", value, "--port", NO_PORT])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and NO_PORT not in err
    assert f"argument --settle: {value!r} is not a number of seconds from 0 to 3600" in err


def test_json_of_every_refusal_is_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The good log of these tests still replays (the checks refuse only what is bad)."""
    db = tmp_path / "games.sqlite"
    make_log(db).close()
    rc, out, err = run(capsys, "replay", str(db), "--json")
    assert rc == 0, err
    assert any(json.loads(line)["rule"] == "M-1" for line in out.splitlines())
