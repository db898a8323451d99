"""Property: over random sessions of a real referee fed from a physical table (seeded, with
refused moves, bad readings, undos, hints), the public scoreboard, in all three renderings,
never shows a pair id, an unsolved task card (anyone's, or one on the stack), a verdict meant
for one seat, or any colour but the visible one in a hole cell. The check is built from the
engine's private state, so it fails when a secret leaks."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from panel_text import console_text
from updown_cases import Scene, random_scenes
from updown_table import CODE_OF, CODES
from upref.games.updown.cards import COLOUR_NAMES
from upref.games.updown.engine import UpDownState
from upref.games.updown.panel import PANEL
from upref.games.updown.variant import Variant
from upref.games.updown.view import TableView
from upref.referee.status import INFO, TableStatus, Verdict
from upref.views import plain, terminal
from upref.views.scoreboard import scoreboard

SEEDS = range(6)
RICH_EVERY = 5  # Rich renders cost ~5 ms: the terminal rendering is checked on every 5th step
_HOLE_ROW = re.compile(r"^│up\s*│(.*)│$", re.M)
_PLAIN_UP = re.compile(r"^up +(.*)$", re.M)


def secrets(game: UpDownState) -> tuple[set[str], list[str]]:
    """(card ids nobody at the table may see, the colour name up in each hole)."""
    cards = {c.id for s in range(game.num_players()) if (c := game.task(s)) is not None}
    cards |= set(game.stack)
    return cards, [COLOUR_NAMES[e.visible] for e in game.board]


def assert_no_secret(game: UpDownState, text: str, marker: str | None = None) -> None:
    assert not re.search(r"\bP-[A-Z]{2}\b", text), f"pair id shown:\n{text}"
    cards, _ = secrets(game)
    for cid in sorted(cards):
        assert not re.search(rf"\b{cid}\b", text), f"secret card {cid} shown:\n{text}"
    if marker is not None:
        assert marker not in text, f"a seat's own verdict shown:\n{text}"


def up_in_holes(scene: Scene) -> list[str]:
    """What the hole cells must show: the colour up in each hole of the game's board; but when
    the physical table differs from it anywhere (a pair out, a refused move, an undo), what is
    physically up ("out" for an empty hole, "?" for a code no pair has), from the table's own
    codes, never the game's expectation."""
    game = scene.game
    physical = [scene.tb.codes[h] for h in range(1, 11)]
    if physical == [CODE_OF[(e.pair, e.hidden)] for e in game.board]:
        return secrets(game)[1]
    shown = []
    for c in physical:
        end = CODES.lookup(c)
        shown.append("out" if c == 0 else COLOUR_NAMES[end.visible] if end else "?")
    return shown


def assert_terminal_holes(up: list[str], text: str) -> None:
    rows = _HOLE_ROW.findall(text)
    assert len(rows) == 1, text
    cells = [c.strip() for c in rows[0].split("│")]
    assert cells == up, (cells, up)


def assert_plain_holes(up: list[str], text: str) -> None:
    rows = _PLAIN_UP.findall(text)
    assert len(rows) == 1, text
    assert rows[0].split() == up, (rows[0], up)


def table_status(scene: Scene, step: int) -> tuple[TableStatus, str]:
    """The referee's own status, with a verdict for the player to move slipped in, addressed
    to that seat: it names their secret card and a pair id, so it must never reach the table."""
    status = scene.status()
    game = scene.game
    verdicts = list(status.verdicts)
    seat = game.current_player()
    marker = f"HINT-{step}"
    card = game.task(seat) if seat >= 0 else None
    if card is not None:
        pair = game.board[0].pair
        verdicts.insert(
            step % (len(verdicts) + 1),
            Verdict(INFO, f"{marker}: your card {card.id}; turn {pair} in hole 1", seat=seat),
        )
    return replace(status, verdicts=tuple(verdicts)), marker


@pytest.mark.parametrize("seed", SEEDS)
def test_public_scoreboard_keeps_secrets(seed: int) -> None:
    variant = Variant(mole_mix=seed % 2 == 1, super_buddler=seed % 3 == 2)
    steps = 0
    for step, scene in enumerate(random_scenes(seed, variant=variant, steps=250)):
        if not scene.ref.has_engine or scene.ref.view(None) is None:
            continue
        game = scene.game
        status, marker = table_status(scene, step)
        board = scoreboard(scene.view(), status, PANEL)
        text = plain.render(board)
        assert_no_secret(game, text, marker)
        up = up_in_holes(scene)
        assert_plain_holes(up, text)
        assert_no_secret(game, json.dumps(board.as_json()), marker)
        if step % RICH_EVERY == 0 or game.is_terminal():
            text = console_text(terminal.render(board))
            assert_no_secret(game, text, marker)
            assert_terminal_holes(up, text)
        steps += 1
    assert steps > 50


def test_the_check_can_fail() -> None:
    """The check sees a leak: an unsolved card in a public verdict, a hint shown, a hole
    cell showing its hidden colour."""
    scene = list(random_scenes(0, steps=30))[-1]
    game = scene.game
    view = scene.view()
    seat = next(s for s in range(game.num_players()) if game.task(s) is not None)
    card = game.task(seat)
    assert card is not None
    leaky = TableStatus(verdicts=(Verdict(INFO, f"{game.players[seat]} holds {card.id}."),))
    with pytest.raises(AssertionError, match="secret card"):
        assert_no_secret(game, plain.render(scoreboard(view, leaky, PANEL)))
    status, marker = table_status(scene, 1)
    public = replace(
        status, verdicts=tuple(replace(v, seat=None) for v in status.verdicts if marker in v.text)
    )
    if game.current_player() >= 0:
        with pytest.raises(AssertionError):
            assert_no_secret(game, plain.render(scoreboard(view, public, PANEL)), marker)
    up = up_in_holes(scene)
    end = CODES.lookup(scene.tb.codes[1])
    hidden = COLOUR_NAMES[end.hidden] if end is not None else "red"  # what is down in hole 1
    assert hidden != up[0]
    if isinstance(view, TableView):
        doctored = replace(view, table=(replace(view.table[0], up=hidden), *view.table[1:]))
    else:
        doctored = replace(view, holes=(replace(view.holes[0], up=hidden), *view.holes[1:]))
    board = scoreboard(doctored, status, PANEL)
    with pytest.raises(AssertionError):
        assert_terminal_holes(up, console_text(terminal.render(board)))
    with pytest.raises(AssertionError):
        assert_plain_holes(up, plain.render(board))
