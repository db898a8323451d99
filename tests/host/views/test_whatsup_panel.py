"""What's Up's scoreboard panel. Golden texts (tests/golden/whatsup/<state>.txt: the terminal, no
colour, 80 columns; <state>.plain.txt: the plain rendering) for states a real referee reached
from taps and keys (`whatsup_cases`). Each file was read against the rules when it was written,
and what each must show is asserted here too, mostly computed from the engine, so a golden
regenerated blindly from wrong output still fails. Then: the public scoreboard never shows a card
id or a face down, over random sessions, and the check sees a planted leak."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from panel_text import console_text
from upref.games.whatsup.engine import WhatsUpState
from upref.games.whatsup.panel import PANEL
from upref.games.whatsup.variant import Variant
from upref.views import plain, terminal
from upref.views.blocks import Scoreboard
from upref.views.plain import render_blocks
from upref.views.scoreboard import scoreboard
from whatsup_cases import STATES, Scene
from whatsup_table import Chaos, new_table, table_cells

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "whatsup"
_SCENES: dict[str, Scene] = {}


def scene(name: str) -> Scene:
    if name not in _SCENES:
        _SCENES[name] = STATES[name]()
    return _SCENES[name]


def facts(name: str, s: Scene) -> list[str]:
    """What the state must show, from the rules and the engine's own record."""
    g = s.game
    names = g.players
    out = g.outcome() or (s.tb.ref.stopped)
    if name == "setup":
        return ["setting up: 12 of 30 cards laid", "Card 12 of 30: lay it in row 2, column 6 with"]
    if name == "offline":
        return ["BOARD OFFLINE", "Fault: RFID reader: no answer", "come back online"]
    if name == "free":
        return ["Cy's turn: flip a card.", "1 of 8 turns without an addition", "29 cards on the table", row_text(g, 0)]
    if name == "reserved":
        card = g.figurine(1)
        assert card is not None and card != "spent"
        return [
            "ILLEGAL A-1",
            "TO FIX",
            f"Turn it back so that {g.up(card)} is up",
            "▲ Bob",
            f"Bob's figurine now stands on the card showing {g.up(card)}{g.at(card)}",
        ]
    assert out is not None
    winners = [names[w] for w in out.winners]
    if name == "stall":
        best = out.scores[out.winners[0]]
        return [f"{winners[0]} wins with {best} birds", "8 of 8 turns without an addition", "(A-3)"]
    if name == "rows":
        done = [f"{c} 1 2 3" for c in g.completed(0)]
        assert len(done) == 2
        return ["Ann wins with 2 complete rows", *done, "complete rows to win: 2", "0 of 8 turns"]
    if name == "shared":
        return ["Shared win: Ann and Bob with 1 bird and 1 card each", "shares the win"]
    raise AssertionError(name)


def flat(text: str) -> str:
    """The words of a text, however a renderer wrapped and aligned them."""
    return " ".join(text.split())


def row_text(g: WhatsUpState, seat: int) -> str:
    rows = g.rows(seat)
    return next(f"{c} {' '.join(map(str, r))}" for c, r in rows.items() if r)


@pytest.mark.parametrize("name", list(STATES))
def test_terminal_golden(name: str, golden: Callable[[Path, str], None]) -> None:
    s = scene(name)
    text = console_text(terminal.render(s.board()))
    for words in facts(name, s):
        assert flat(words) in flat(text), words
    if s.game.variant.first_game:
        assert grid_cells(text) == table_cells(s.game)
    else:
        assert face_counts(text) == Counter(str(s.game.up(c)) for c in s.game.table())
    golden(GOLDEN / f"{name}.txt", text)


@pytest.mark.parametrize("name", list(STATES))
def test_plain_golden(name: str, golden: Callable[[Path, str], None]) -> None:
    s = scene(name)
    text = plain.render(s.board())
    for words in facts(name, s):
        assert flat(words) in flat(text), words
    golden(GOLDEN / f"{name}.plain.txt", text)


def test_the_facts_are_the_rules() -> None:
    """The states show what the rules say they must (not only what the code printed)."""
    stall = scene("stall").game
    out = stall.outcome()
    assert out is not None and out.termination == "stall" and stall.since == 8
    assert out.winners == stall.leaders() and max(out.scores) == out.scores[out.winners[0]]
    rows = scene("rows").game
    out = rows.outcome()
    assert out is not None and out.termination == "rows" and len(rows.completed(0)) == 2
    assert rows.num_players() == 4 and len(rows.table()) > 3
    shared = scene("shared").tb.ref.stopped
    assert shared is not None and shared.winners == (0, 1) and shared.scores == (1, 1)
    reserved = scene("reserved").game
    assert reserved.current_player() == 2 and reserved.figurine(1) not in (None, "spent")
    assert scene("setup").game.laid == 12


def test_no_stray_golden_files() -> None:
    names = {f"{n}.txt" for n in STATES} | {f"{n}.plain.txt" for n in STATES}
    assert {p.name for p in GOLDEN.glob("*.txt")} <= names


def test_a_players_own_screen_shows_what_fits_and_where_the_figurine_is() -> None:
    s = scene("reserved")
    g = s.game
    bob = PANEL.private(g.view(1))
    text = render_blocks(bob)
    assert text.startswith("== Bob — your collection ==\n0 birds on 0 cards\n")
    assert "A flip fits you now if it shows: 1 red, 1 yellow, 1 green, 1 purple." in text
    card = g.figurine(1)
    assert card is not None
    assert f"Your figurine: on the card in {g.at(card).strip(' ()')}." in text
    ann = render_blocks(PANEL.private(g.view(0)))
    colour, counts = next((c, r) for c, r in g.rows(0).items() if r)
    assert f"{colour}  " in ann and f"{counts[-1] + 1} {colour}" in ann
    with pytest.raises(ValueError, match="one seat's view"):
        PANEL.private(g.view(None))
    with pytest.raises(ValueError, match="secrets"):
        scoreboard(g.view(0), s.tb.ref.status(), PANEL)


# --- no secret on the public scoreboard --------------------------------------------------------

_CELL = re.compile(r"^│(\d) +│(.*)│$", re.M)
_FACE_CELL = re.compile(r"(\d) (red|yellow|green|purple) × (\d+)")


def grid_cells(text: str) -> dict[tuple[int, int], str]:
    """(row, column) -> the text of each filled cell of the first game's rectangle."""
    out = {}
    for m in _CELL.finditer(text):
        for col, cell in enumerate(m.group(2).split("│"), start=1):
            if cell.strip():
                out[(int(m.group(1)), col)] = cell.strip()
    return out


def face_counts(text: str) -> Counter[str]:
    """Free placement: face -> how many cards show it, as the faces table says."""
    return Counter({f"{n} {c}": int(k) for n, c, k in _FACE_CELL.findall(text)})


def assert_public(game: WhatsUpState, board: Scoreboard, terminal_text: str | None) -> None:
    """No card id anywhere; the table part shows exactly the faces up."""
    for text in (plain.render(board), json.dumps(board.as_json()), terminal_text or ""):
        assert not re.search(r"\bW\d\d\b", text), f"a card id on the scoreboard:\n{text}"
    if terminal_text is None:
        return
    if game.variant.first_game:
        assert grid_cells(terminal_text) == table_cells(game), terminal_text
    else:
        assert face_counts(terminal_text) == Counter(str(game.up(c)) for c in game.table()), terminal_text


@pytest.mark.parametrize("seed", range(4))
def test_the_public_scoreboard_keeps_the_faces_down_secret(seed: int) -> None:
    tb = new_table(variant=Variant(first_game=seed % 2 == 0), seed=seed, laid=False)
    chaos = Chaos(tb, seed)
    checked = 0
    for step in range(220):
        chaos.step()
        view = tb.ref.view(None)
        if view is None:
            continue
        board = scoreboard(view, tb.ref.status(), PANEL)
        rich = console_text(terminal.render(board)) if step % 4 == 0 else None
        assert_public(tb.game, board, rich)
        checked += 1
    assert checked > 200


def test_the_scoreboard_check_fails_on_a_planted_leak() -> None:
    for first in (True, False):
        tb = new_table(variant=Variant(first_game=first), seed=2)
        tb.take()
        g = tb.game
        view = tb.ref.view(None)
        assert view is not None
        card = view.table[0]
        down = g.down(g.table()[0])
        doctored = replace(view, table=(replace(card, count=down.count, colour=down.colour), *view.table[1:]))
        board = scoreboard(doctored, tb.ref.status(), PANEL)
        with pytest.raises(AssertionError):
            assert_public(g, board, console_text(terminal.render(board)))
        leaky = scoreboard(replace(view, verdict=f"{g.table()[0]} is under there"), tb.ref.status(), PANEL)
        with pytest.raises(AssertionError, match="card id"):
            # the panel scrubs ids from texts it is given, but a view field is not a text
            assert_public(g, replace(leaky, title=g.table()[0]), None)
    assert PANEL.scrub("Ann flipped W05.") == "Ann flipped a card."
