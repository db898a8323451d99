"""`upref play --help` is about every game: it lists them and says where each one's own options
are, instead of showing the first game's variants as if they were everyone's."""

from __future__ import annotations

import pytest
from upref.commands import play
from upref.registry import games


def _help(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as done:
        play.parse(list(argv))
    assert done.value.code == 0
    return capsys.readouterr().out


def test_play_help_lists_every_game_and_none_of_their_variants(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(capsys, "--help")
    for g in games():
        assert f"{g.name:<10} {g.title}" in text
    assert "`upref play GAME --help` shows that game's own options" in text
    assert "--short" not in text and "--super-buddler" not in text


def test_a_games_help_has_its_own_options_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(capsys, "updown", "--help")
    assert "--super-buddler" in text and "These are the options of Up And Down" in text
