"""The browser test's expectations for every game (`pictures_games`), worked
out from the public view alone, agree with what the panels put in their pictures, piece by piece
and in drawing order, over random games played on the engines (every phase: a claim's tips, its
evaluation and sharing; a round's end and the next; the first game's rectangle); and they catch a
picture that differs."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from pictures_games import (
    drawn,
    expected_flipabird,
    expected_up,
    expected_updown,
    expected_upturn,
    expected_whatsup,
    matches,
)
from upref.games.flipabird import panel as flipabird
from upref.games.flipabird.engine import FlipABirdState
from upref.games.flipabird.position import FlipABirdDescription
from upref.games.up import panel as up
from upref.games.up.engine import UpState
from upref.games.updown import panel as updown
from upref.games.updown.engine import UpDownState
from upref.games.upturn import panel as upturn
from upref.games.upturn.engine import UpturnState
from upref.games.whatsup import panel as whatsup
from upref.games.whatsup.engine import WhatsUpState
from upref.games.whatsup.variant import Variant as WhatsUpVariant

PLAYERS = ("Ann", "Bob", "Cy", "Dee")


def playout(game: Any, rng: random.Random, steps: int) -> Any:
    """Random legal play (chance too), yielding each position; a finished Up round goes on to
    the next, so an evening has rounds to chart."""
    for _ in range(steps):
        yield game
        if game.outcome() is not None:
            if isinstance(game, UpState) and game.round < 3:
                game = game.next_round()
                continue
            return
        acts = game.legal_actions()
        if not acts:
            acts = [a for a, _ in game.chance_outcomes()]
        game.play(rng.choice(acts))


CASES: list[tuple[str, Callable[[int], Any], Any, Callable[[Any], list[dict[str, str]]]]] = [
    ("flipabird", lambda n: FlipABirdState.new(PLAYERS[:n]), flipabird.PANEL, expected_flipabird),
    ("up", lambda n: UpState.new(PLAYERS[:n]), up.PANEL, expected_up),
    ("whatsup", lambda n: WhatsUpState.new(PLAYERS[:n]), whatsup.PANEL, expected_whatsup),
    (
        "whatsup-first",
        lambda n: WhatsUpState.new(PLAYERS[:n], variant=WhatsUpVariant(first_game=True)),
        whatsup.PANEL,
        expected_whatsup,
    ),
]


@pytest.mark.parametrize(("name", "new", "panel", "expected"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("seed", range(3))
def test_the_expectations_agree_with_the_pictures_over_random_games(
    name: str, new: Callable[[int], Any], panel: Any, expected: Callable[[Any], list[dict[str, str]]], seed: int
) -> None:
    rng = random.Random(seed)
    phases: set[str] = set()
    for game in playout(new(3 + seed % 2), rng, 600):
        view = game.view(None)
        assert drawn(panel.drawing(view)) == expected(view), f"{name}, phase {view.phase}"
        phases.add(view.phase)
    assert "over" in phases, phases
    if name == "flipabird":
        assert {"tips", "take"} <= phases


def test_the_expectations_catch_a_picture_that_differs() -> None:
    game = FlipABirdState.position(FlipABirdDescription(
        PLAYERS, row=[("R2a", True, 0), ("S-DBL-R", True, 1), ("B1a", False, 2)], to_move=3, pile_left=20
    ))
    view = game.view(None)
    honest = drawn(flipabird.PANEL.drawing(view))
    assert honest == expected_flipabird(view)
    backs = [d for d in honest if d.get("piece") == "card" and d["down"] == "1"]
    assert len(backs) == 4 * 2 + 1  # two hand cards each, one face-down row card
    moved = replace(view, row=view.row[::-1])  # the row drawn the wrong way round
    assert drawn(flipabird.PANEL.drawing(moved)) != expected_flipabird(view)


ENGINES: list[tuple[str, Callable[[int], Any], Any, Callable[[Any], list[dict[str, str]]]]] = [
    ("updown", lambda seed: UpDownState.new(PLAYERS[:3], rng=seed), updown.PANEL, expected_updown),
    ("upturn", lambda seed: UpturnState.new(PLAYERS[:3], rng=seed), upturn.PANEL, expected_upturn),
]


@pytest.mark.parametrize(("name", "new", "panel", "expected"), ENGINES, ids=[c[0] for c in ENGINES])
@pytest.mark.parametrize("seed", range(3))
def test_up_and_down_and_upturn_pictures_carry_what_the_public_view_says(
    name: str, new: Callable[[int], Any], panel: Any, expected: Callable[[Any], list[dict[str, str]]], seed: int
) -> None:
    """The molehills' colours and the order they were turned, the won cards' colours, the
    line's tiles, the number to beat, the seat to move: what the browser test compares, here
    over random games on the engines (a tile's symbol and a hole's letter are the renderer's)."""
    rng = random.Random(seed)
    seen = 0
    for game in playout(new(seed), rng, 400):
        view = game.view(None)
        wrong = matches(expected(view), drawn(panel.drawing(view)))
        assert wrong is None, f"{name}, phase {view.phase}: {wrong}"
        seen += 1
    assert seen > 10


def test_a_picture_that_shows_another_colour_in_a_hole_is_caught() -> None:
    view = UpDownState.new(PLAYERS[:3], rng=1).view(None)
    shown = drawn(updown.PANEL.drawing(view))
    shown[0] = {**shown[0], "up": "green"}
    assert matches(expected_updown(view), shown) == (
        f"piece 0 (hole): up is 'green', the public view says {view.holes[0].up!r}"
    )
