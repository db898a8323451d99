"""Up's registry entry: found by name, its options on `upref play` and `upref demo`, the bench's
playout and figures."""

from __future__ import annotations

import pytest
from upref.commands.play import parse
from upref.games.up import evening, figures, playout
from upref.games.up.engine import UpState
from upref.games.up.panel import PANEL
from upref.games.up.referee import UpReferee
from upref.games.up.variant import Variant
from upref.registry import find_game, games


def test_up_is_registered_with_its_parts() -> None:
    game = find_game("up")
    assert game in games() and game.title == "Up"
    assert game.engine is UpState and game.referee is UpReferee and game.panel is PANEL
    assert game.players == (2, 10) and game.guide == "docs/games/up.md"
    assert game.demo is not None and game.demo.players == ("Ann", "Bob", "Cy")
    assert game.variant is Variant


def test_the_variant_options_of_upref_play() -> None:
    game, args = parse(
        ["up", "Ann", "Bob", "Cy", "--up300", "--dirty-one", "--sets", "ace", "--dealer", "Bob"]
    )
    assert game.name == "up" and args.players == ["Ann", "Bob", "Cy"]
    v = game.variant_from_args(args)
    assert v == Variant(up300=True, dirty_one=True, sets="ACE", first_dealer="Bob")
    _, args = parse(["up", "Ann", "Bob", "--children", "tokens", "--rounds", "6", "--without-minus2"])
    v = game.variant_from_args(args)
    assert (v.scoring, v.rounds, v.without_minus2) == ("tokens", 6, True)
    _, args = parse(["up", "Ann", "Bob", "--children", "cards", "--up300"])
    with pytest.raises(ValueError, match="Up300 counts minus points"):
        game.variant_from_args(args)


def test_the_bench_measures_a_ten_player_round_and_an_evening() -> None:
    assert playout(2) > 10
    (line,) = figures(True)
    assert line.startswith("a ten-player Up300 evening of random play (seed 0): ")
    assert f": {evening(0).round} rounds in " in line
