"""Options anywhere (issue 13, section 3): before the game's name, between or after the
positionals, for every command of this part of upref: play, demo, enroll, replay, export."""

from __future__ import annotations

from pathlib import Path

import pytest
from updown_table import PLAYERS, Table, enrolled_tags
from upref import cli
from upref.board.codes import CodeTable
from upref.commands import demo, play
from upref.commands.game_option import parse_for_game
from upref.games.updown.referee import UpDownReferee
from upref.games.updown.variant import Variant
from upref.referee.inputs import StartGame
from upref.store.gamelog import GameLog


@pytest.mark.parametrize(
    "argv",
    [
        ["updown", "--short", "2", "--plain"],
        ["--short", "2", "updown", "--plain"],
        ["--plain", "--short", "2", "updown"],
        ["--short", "2", "--plain"],  # the default game
    ],
)
def test_demo_takes_its_options_and_the_game_s_anywhere(argv: list[str]) -> None:
    game, args = parse_for_game(argv, demo._parser)
    assert game.name == "updown"
    assert args.short == 2 and args.plain
    assert game.demo is not None and game.demo.variant(args).short_game_target == 2


def test_demo_and_play_name_an_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert demo.main(["--plain", "chess"]) == 2
    assert "unknown game 'chess': the games are updown" in capsys.readouterr().err
    assert play.main(["--hints", "chess", "Ann"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_a_bad_option_value_is_still_reported_by_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        play.parse(["updown", "--short", "two", "Ann"])
    assert info.value.code == 2
    assert "argument --short: invalid int value: 'two'" in capsys.readouterr().err


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "games.sqlite"
    codes = CodeTable.load()
    for seed in (4, 5):
        ref = UpDownReferee(codes, enrolled_tags(path=tmp_path / f"tag_book{seed}.sqlite"))
        log = GameLog.create(path, game="updown", players=PLAYERS, seed=seed, config=ref.config())
        ref.attach(log)
        tb = Table(ref, seed=seed)
        tb.feed(StartGame(PLAYERS, Variant(), seed, tb.at()))
        tb.draw_all()
        tb.flip(seed)
        log.close()
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    rc = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert rc == 0, err
    return rc, out


def test_replay_and_export_take_options_before_and_after_the_log(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, first = _run(capsys, "replay", str(db), "--game", "1", "--json")
    assert first and all(line.startswith('{"seq"') for line in first.splitlines())
    for argv in (
        ("replay", "--game", "1", str(db), "--json"),
        ("replay", "--json", "--game", "1", str(db)),
        ("replay", "--json", str(db), "--game", "1"),
    ):
        assert _run(capsys, *argv)[1] == first, argv
    _, newest = _run(capsys, "replay", "--json", str(db))
    assert newest != first  # without --game: the newest game, 2
    _, listed = _run(capsys, "export", "--list", "--db", str(db))
    assert _run(capsys, "export", "--db", str(db), "--list")[1] == listed
    assert [line.split()[0] for line in listed.splitlines()] == ["1", "2"]



def test_help_lists_the_named_games_own_options(capsys) -> None:  # type: ignore[no-untyped-def]
    import pytest
    from upref.commands import demo, play
    from upref.registry import games

    for g in games():
        for main in (play.main, demo.main):
            with pytest.raises(SystemExit) as info:
                main([g.name, "--help"])
            assert info.value.code == 0
            out = capsys.readouterr().out
            probe = __import__("argparse").ArgumentParser(add_help=False)
            g.add_options(probe)
            for action in probe._actions:
                for flag in action.option_strings:
                    assert flag in out, (g.name, flag)
