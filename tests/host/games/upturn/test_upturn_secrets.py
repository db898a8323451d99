"""Property: over many random Upturn games (dealt from seeds, 2 to 4 players), nothing a player
may not see reaches the table. Racks and the pool's order are the secrets; at every state the
check deals them anew into a twin of the game (same line, same counts, same everything public)
and requires the public view, the scoreboard in all three renderings and the verdict of the
next action to be the same for both: public output that depended on a hidden tile would differ.
It also reads the scoreboard against the engine (the line's tiles, each rack's count) and
requires a seat's own screen to show that seat's tiles only. The check is built from the
engine's private state, so it fails when a secret leaks: see the planted leaks below."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from dataclasses import replace

import pytest
from rich.console import Console, RenderableType
from upref.games.upturn.actions import Draw
from upref.games.upturn.engine import UpturnState
from upref.games.upturn.panel import PANEL, SHOWN
from upref.games.upturn.view import TileView, UpturnView
from upref.referee.status import INFO, TableStatus, Verdict
from upref.views import plain, terminal
from upref.views.blocks import Scoreboard
from upref.views.scoreboard import scoreboard
from upturn_play import NAMES, action_tiles, hidden_twin, random_playout

SEEDS = range(10)
RICH_EVERY = 7  # Rich renders cost a few ms: the terminal is compared on every 7th state
_ID = re.compile(r'"id": "([A-Z]+\d+)"')


def console_text(renderable: RenderableType) -> str:
    console = Console(width=80, file=io.StringIO(), color_system=None, force_terminal=True)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined, no-any-return]


StatusOf = Callable[[UpturnState], TableStatus]


def said(game: UpturnState) -> TableStatus:
    """The table's status with the engine's own latest verdict in the feed."""
    return TableStatus(verdicts=(Verdict(INFO, game.view(None).verdict),))


def board(game: UpturnState, status: StatusOf) -> Scoreboard:
    return scoreboard(game.view(None), status(game), PANEL)


def hidden_ids(game: UpturnState) -> set[str]:
    ids = set(game.pool or ())
    for s in range(game.num_players()):
        ids |= set(game.rack(s))
    return ids


def cell(game: UpturnState, tile_id: str) -> str:
    """How the line shows a tile: '41', '22 red Twin', '37 penalty', 'Up & Down'."""
    t = game.tile(tile_id)
    return t.short + (" red Twin" if t.twin else " penalty" if t.penalty else "")


def assert_same_public(game: UpturnState, twin: UpturnState, status: StatusOf, rich: bool) -> None:
    """What the table sees of `game` is what it sees of `twin` (its secrets dealt anew)."""
    assert game.view(None) == twin.view(None), "the public view depends on a hidden tile"
    a, b = board(game, status), board(twin, status)
    if a == b:  # every rendering (plain, JSON, the terminal's) is drawn from the board alone
        return
    assert plain.render(a) == plain.render(b), "the plain scoreboard depends on a hidden tile"
    assert a.as_json() == b.as_json(), "the JSON scoreboard depends on a hidden tile"
    if rich:
        assert console_text(terminal.render(a)) == console_text(terminal.render(b))
    raise AssertionError(f"the scoreboard's data depends on a hidden tile:\n{a}\n{b}")


def assert_board_is_public(
    game: UpturnState, status: StatusOf = said, view: UpturnView | None = None
) -> None:
    """The scoreboard (of `view`, by default the game's public view) shows the line's last
    tiles, each rack's count, and no hidden tile id."""
    b = scoreboard(view or game.view(None), status(game), PANEL)
    text = plain.render(b)
    row = next(ln for ln in text.splitlines() if ln.startswith("Line: "))
    body = row[len("Line: ") :].removeprefix("… ").split("  (")[0]
    if game.line:
        shown = body.split(" · ")
        assert shown == [cell(game, t) for t in game.line[-SHOWN:]], f"line shows {shown}"
    ids = set(_ID.findall(json.dumps(b.as_json())))
    assert not ids & hidden_ids(game), f"hidden tiles on the board: {sorted(ids & hidden_ids(game))}"
    counts: dict[str, int] = {}
    for ln in text.splitlines():
        words = ln.split()
        if words and words[0] in ("▶", "★"):
            words = words[1:]
        if len(words) >= 2 and words[0] in game.players and words[1].isdigit():
            counts[words[0]] = int(words[1])
    assert counts == dict(zip(game.players, game.counts(), strict=True)), counts


def assert_private_is_own(game: UpturnState) -> None:
    for s in range(game.num_players()):
        view = game.view(s)
        assert view.rack is not None and tuple(t.id for t in view.rack) == game.rack(s)
        others = {t for o in range(game.num_players()) if o != s for t in game.rack(o)}
        text = json.dumps(plain.render_blocks(PANEL.private(view)))
        assert not {t.id for t in view.rack} & others
        assert f"You hold {game.tiles(s)} tile" in text


@pytest.mark.parametrize("seed", SEEDS)
def test_no_secret_reaches_the_table(seed: int) -> None:
    rng = random.Random(1000 + seed)
    players = NAMES[: 2 + seed % 3]
    states = 0
    for step, (game, action) in enumerate(random_playout(seed, players)):
        twin = hidden_twin(game, rng, keep=action_tiles(action))
        assert hidden_ids(twin) == hidden_ids(game)
        if len(hidden_ids(game)) >= 10:  # the twin's secrets really differ
            assert (twin._s.racks, twin._s.pool) != (game._s.racks, game._s.pool)
        assert_same_public(game, twin, said, rich=step % RICH_EVERY == 0 or action is None)
        assert_board_is_public(game)
        if step % 5 == 0:
            assert_private_is_own(game)
        states += 1
        if action is None:
            break
        text = game.clone().play(action)
        assert twin.play(action) == text, f"the verdict of {action!r} depends on a hidden tile"
    assert states > 10


# --- the check fails on planted leaks ------------------------------------------------------------


def some_state(seed: int = 3) -> UpturnState:
    for step, (game, _action) in enumerate(random_playout(seed, NAMES[:3])):
        if step == 25:
            return game.clone()
    raise AssertionError("the game ended too soon")


def test_the_check_sees_a_verdict_that_names_a_rack() -> None:
    game = some_state()
    twin = hidden_twin(game, random.Random(1))
    assert game.rack(0) != twin.rack(0)
    assert_same_public(game, twin, said, rich=True)  # no leak: passes

    def leaky(g: UpturnState) -> TableStatus:
        rack = ", ".join(g.tile(t).short for t in g.rack(0))
        return TableStatus(verdicts=(Verdict(INFO, f"Ann holds {rack}"),))

    with pytest.raises(AssertionError, match="plain scoreboard depends on a hidden tile"):
        assert_same_public(game, twin, leaky, rich=False)


def test_the_check_sees_a_rack_tile_shown_on_the_line() -> None:
    game = some_state()
    view = game.view(None)
    doctored = replace(view, line=view.line + (TileView.of(game.tile(game.rack(0)[0])),))
    assert_board_is_public(game)  # no leak: passes
    with pytest.raises(AssertionError, match="line shows|hidden tiles on the board"):
        assert_board_is_public(game, view=doctored)


class LeakyDraws(UpturnState):
    """An engine that says which tile was drawn."""

    def _do_draw(self) -> None:
        top = (self._s.pool or ("?",))[0]
        super()._do_draw()
        self._note("step", f"It was {self.tile(top).short}.")


def test_the_check_sees_a_verdict_that_names_the_drawn_tile() -> None:
    base = UpturnState.new(list(NAMES[:3]), rng=4)
    game = LeakyDraws(base._setup, base._s)
    twin = hidden_twin(game, random.Random(2))
    assert isinstance(twin, LeakyDraws)
    assert (game.pool or ())[0] != (twin.pool or ())[0]
    assert game.clone().play(Draw()) != twin.clone().play(Draw())  # what the main test compares
    honest = hidden_twin(base, random.Random(2))
    assert base.clone().play(Draw()) == honest.clone().play(Draw())
