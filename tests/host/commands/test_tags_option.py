"""`upref play --tags PATH` names the tags file to read; `--registry PATH`, the option's old
name, still works the same and is no longer shown in --help."""

from __future__ import annotations

from pathlib import Path

import pytest
from upref.commands import play


class NoLink:
    def close(self) -> None:
        pass


@pytest.mark.parametrize("spelling", ["--tags", "--registry"])
def test_both_spellings_give_the_tags_file(spelling: str, tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    for argv in (
        ["updown", "Ann", "Bob", spelling, str(path)],
        [spelling, str(path), "updown", "Ann", "Bob"],
        ["updown", "Ann", f"{spelling}={path}", "Bob"],
    ):
        game, args = play.parse(argv)
        assert game.name == "updown" and args.players == ["Ann", "Bob"]
        assert args.tags == path
        assert not hasattr(args, "registry")


def test_without_the_option_the_default_file_is_read(tmp_path: Path) -> None:
    _, args = play.parse(["updown", "Ann", "Bob"])
    assert args.tags is None  # TagBook's default: the user's data folder


@pytest.mark.parametrize("spelling", ["--tags", "--registry"])
def test_play_reads_the_file_either_spelling_names(
    spelling: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a tags file\n", encoding="utf-8")
    argv = ["updown", "Ann", "Bob", "--db", str(tmp_path / "g.sqlite"), spelling, str(path)]
    assert play.main(argv, opener=lambda port: NoLink()) == 1  # type: ignore[arg-type,return-value]
    err = capsys.readouterr().err
    assert err.startswith("upref play: ") and str(path) in err, err
    assert "give --tags the tags.sqlite that `upref enroll` wrote" in err, err


def test_help_shows_tags_and_not_the_old_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        play.parse(["updown", "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "--tags PATH" in out and "--registry" not in out, out
