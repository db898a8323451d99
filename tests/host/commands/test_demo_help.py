"""`upref demo --help` names every game's own options (issue 30: it listed only Up And Down's),
and the demo's last screen does not offer a key once the program has ended."""

from __future__ import annotations

import pytest
from upref.commands import demo
from upref.referee.status import TableStatus
from upref.registry import find_game, games
from upref.views import plain
from upref.views.frame import Frame
from upref.views.screen import scoreboard_for


def test_demo_help_lists_every_game_and_its_own_options_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        demo.main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for g in games():
        if g.demo is not None:
            as_own = f"{g.title}'s own options (upref demo {g.name}):"
            as_other = f"{g.title} (upref demo {g.name}):"
            assert (as_own in out) != (as_other in out), out  # once: as the default or among the others
    for option in ("--short N", "--tiles N", "--pile N", "--first-game", "--up300", "--children"):
        described = [line for line in out.splitlines() if line.lstrip().startswith(option)]
        assert len(described) == 1, out  # described once (the usage line names it too)


def test_a_named_game_s_help_shows_its_own_options_as_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        demo.main(["upturn", "--help"])
    out = capsys.readouterr().out
    own = out.split("Upturn's own options (upref demo upturn):", 1)[1].split("\n\n", 1)[0]
    assert "--tiles N" in own and "--short" not in own, own


def test_the_demo_s_last_screen_says_it_is_over_and_offers_no_key() -> None:
    game = find_game("updown")
    status = TableStatus(waiting_for="The next game (n), or a new one.")
    last = Frame(game="updown", title="Up And Down", status=status)
    text = plain.render(scoreboard_for(demo.over(game, last), game.panel))
    assert "the demo is over" in text and "upref play updown NAMES" in text, text
    assert "(n)" not in text, text
