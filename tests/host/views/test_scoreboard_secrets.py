"""Property: over random playouts of the real engine (seeded, with refused moves and a hint
for the player to move in the referee's status), the public scoreboard, in all three
renderings, never shows a pair id, an unsolved task card (anyone's, or one on the stack), a
verdict meant for one seat, or any colour but the visible one in a hole cell. The check is
built from the engine's private state, so it fails when a secret leaks."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from scoreboard_cases import console_text, random_playout, waiting_text
from upref.games.updown.cards import COLOUR_NAMES
from upref.games.updown.engine import UpDownGame, Variant
from upref.referee.status import INFO, TableStatus, Verdict
from upref.views import render_scoreboard, scoreboard_json, scoreboard_text

SEEDS = range(6)
RICH_EVERY = 5  # Rich renders cost ~5 ms: the terminal rendering is checked on every 5th step
_HOLE_ROW = re.compile(r"^│up\s*│(.*)│$", re.M)
_PLAIN_HOLES = re.compile(r"^Molehills: (.*)$", re.M)
_PLAIN_CELL = re.compile(r"^(\d+) (\w+)(?: \(turned \w+\))?$")


def secrets(game: UpDownGame) -> tuple[set[str], list[str]]:
    """(card ids nobody at the table may see, the colour name up in each hole)."""
    cards = {c.id for s in range(game.num_players()) if (c := game.task(s)) is not None}
    cards |= set(game.stack)
    return cards, [COLOUR_NAMES[e.visible] for e in game.board]


def assert_no_secret(game: UpDownGame, text: str, marker: str | None = None) -> None:
    assert not re.search(r"\bP-[A-Z]{2}\b", text), f"pair id shown:\n{text}"
    cards, _ = secrets(game)
    for cid in sorted(cards):
        assert not re.search(rf"\b{cid}\b", text), f"secret card {cid} shown:\n{text}"
    if marker is not None:
        assert marker not in text, f"a seat's own verdict shown:\n{text}"


def assert_terminal_holes(game: UpDownGame, text: str) -> None:
    _, up = secrets(game)
    rows = _HOLE_ROW.findall(text)
    assert len(rows) == 1, text
    cells = [c.strip() for c in rows[0].split("│")]
    assert cells == up, (cells, up)


def assert_plain_holes(game: UpDownGame, text: str) -> None:
    _, up = secrets(game)
    rows = _PLAIN_HOLES.findall(text)
    assert len(rows) == 1, text
    cells = []
    for item in rows[0].split(", "):
        m = _PLAIN_CELL.match(item)
        assert m, item
        cells.append((int(m.group(1)), m.group(2)))
    assert cells == list(enumerate(up, start=1)), (cells, up)


def table_status(game: UpDownGame, said: list[Verdict], step: int) -> tuple[TableStatus, str]:
    """The referee's status with a hint for the player to move, addressed to that seat: it
    names their secret card and a pair id, so it must never reach the table."""
    verdicts = list(said[-5:])
    seat = game.current_player()
    marker = f"HINT-{step}"
    card = game.task(seat) if seat >= 0 else None
    if card is not None:
        pair = game.board[0].pair
        verdicts.insert(
            step % (len(verdicts) + 1),
            Verdict(INFO, f"{marker}: your card {card.id}; turn {pair} in hole 1", seat=seat),
        )
    status = TableStatus(
        board_online=step % 7 != 3,
        waiting_for=waiting_text(game),
        verdicts=tuple(verdicts),
        faults=("hole 2 never settles",) if step % 11 == 5 else (),
    )
    return status, marker


@pytest.mark.parametrize("seed", SEEDS)
def test_public_scoreboard_keeps_secrets(seed: int) -> None:
    variant = Variant(mole_mix=seed % 2 == 1, super_buddler=seed % 3 == 2)
    steps = 0
    for step, table in enumerate(random_playout(seed, variant=variant, max_steps=250)):
        game = table.game
        view = game.view(None)
        status, marker = table_status(game, table.said, step)
        plain = scoreboard_text(view, status)
        assert_no_secret(game, plain, marker)
        assert_plain_holes(game, plain)
        data = scoreboard_json(view, status)
        assert_no_secret(game, json.dumps(data), marker)
        assert [h["up"] for h in data["holes"]] == secrets(game)[1]
        if step % RICH_EVERY == 0 or game.is_terminal():
            text = console_text(render_scoreboard(view, status))
            assert_no_secret(game, text, marker)
            assert_terminal_holes(game, text)
        steps += 1
    assert steps > 50


def test_the_check_can_fail() -> None:
    """The check sees a leak: an unsolved card in a public verdict, a hint shown, a hole
    cell showing its hidden colour."""
    table = list(random_playout(0, max_steps=30))[-1]
    game = table.game
    view = game.view(None)
    seat = next(s for s in range(game.num_players()) if game.task(s) is not None)
    card = game.task(seat)
    assert card is not None
    leaky = TableStatus(verdicts=(Verdict(INFO, f"{game.players[seat]} holds {card.id}."),))
    with pytest.raises(AssertionError, match="secret card"):
        assert_no_secret(game, scoreboard_text(view, leaky))
    status, marker = table_status(game, table.said, 1)
    public = replace(status, verdicts=tuple(replace(v, seat=None) for v in status.verdicts))
    if game.current_player() >= 0:
        with pytest.raises(AssertionError):
            assert_no_secret(game, scoreboard_text(view, public), marker)
    hidden = COLOUR_NAMES[game.board[0].hidden]
    doctored = dict(view, holes=[dict(view["holes"][0], up=hidden), *view["holes"][1:]])
    with pytest.raises(AssertionError):
        assert_terminal_holes(game, console_text(render_scoreboard(doctored, status)))
    with pytest.raises(AssertionError):
        assert_plain_holes(game, scoreboard_text(doctored, status))
