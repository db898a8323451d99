"""Upturn's scoreboard panel. Golden files (tests/golden/upturn/<state>.txt: the terminal, no
colour, 80 columns; <state>.plain.txt: the plain rendering) for states a real referee reached
from taps, keys and presses: the demo's game stopped at its interesting moments, and a game
that ends with the pool empty. Each file was read against the rules when it was written; what
each state must show is asserted below as well, so a golden regenerated blindly from wrong
output still fails. `pytest --update-golden` rewrites them and fails the run: review the diff."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from panel_text import console_text
from upref.games.upturn.demo import STEPS
from upref.games.upturn.engine import UpturnState
from upref.games.upturn.panel import PANEL
from upref.games.upturn.position import UpturnDescription
from upref.games.upturn.referee import UpturnReferee
from upref.games.upturn.variant import Variant
from upref.games.upturn.view import UpturnView
from upref.referee.inputs import StartGame
from upref.registry import titles
from upref.views import plain, terminal
from upref.views.blocks import Scoreboard
from upref.views.scoreboard import scoreboard
from upturn_table import CODES, UpturnTable, tile_registry

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "upturn"
DEMO = ("Ann", "Bob", "Cy")


def board_of(ref: UpturnReferee) -> Scoreboard:
    view = ref.view(None)
    assert isinstance(view, UpturnView)
    keys = tuple((o.key, o.label) for o in ref.keys_now())
    return scoreboard(view, ref.status(), PANEL, keys=keys)


def demo_until(words: str) -> UpturnReferee:
    """The demo's game fed straight to a referee, up to and including the step `words`."""
    ref = UpturnReferee(CODES, tile_registry(), titles=titles())
    tb = UpturnTable(ref, DEMO, variant=Variant(deal=5))
    tb.feed(StartGame(DEMO, Variant(deal=5), 9, tb.at()))
    for kind, what, said in STEPS:
        if kind == "tap":
            tb.tap(what)
        elif kind == "button":
            tb.press()
        else:
            offer = next(o for o in ref.keys_now() if o.key == what)
            tb.feed(offer.make(tb.at(), offer.default))
        if said == words:
            return ref
    raise AssertionError(f"no demo step {words!r}")


def pool_runs_dry() -> UpturnReferee:
    """Four players with 20 tiles each: everyone draws and keeps until the pool is empty, then
    all four pass (T-12)."""
    players = ("Ann", "Bob", "Cy", "Dee")
    ref = UpturnReferee(CODES, tile_registry(), titles=titles())
    tb = UpturnTable(ref, players, seed=2, variant=Variant(deal=20))
    tb.start()
    eng = ref.engine
    assert eng is not None
    while eng.pool_count:
        tb.key("draw", "keep")
    for _ in range(4):
        tb.key("pass")
    return ref


STATES: dict[str, Callable[[], UpturnReferee]] = {
    "start": lambda: demo_until("The Joker goes back; the next tile turned up, 40, is tapped"),
    "refused": lambda: demo_until("Bob lays 31"),
    "joker": lambda: demo_until("Ann lays a Joker"),
    "twin": lambda: demo_until("...and 41"),
    "skip": lambda: demo_until("Bob lays a Skip"),
    "call_due": lambda: demo_until("Cy lays 12 and forgets to call"),
    "penalty": lambda: demo_until("Bob lays 8"),
    "end": lambda: demo_until("Ann lays her last tile, 2"),
    "pool_empty": pool_runs_dry,
}

MUST_SHOW: dict[str, tuple[str, ...]] = {
    "start": (
        "Number to beat: 40 — the first move: a numbered tile against 40 sets the direction",
        "Direction: not set yet",
        "Ann (the youngest) makes the first move",
        "ILLEGAL T-1",
        "d draw a tile",
    ),
    "refused": (
        "Line: 40 · 52  (2 tiles)",
        "Direction: ▲ up — clockwise, play passes left: Bob → Cy → Ann → Bob",
        "ILLEGAL direction",
        "TO FIX   Take 31 back.",
        "Bob's turn: higher than 52.",
    ),
    "joker": (
        "Direction: ▼ down — counter-clockwise, play passes right: Ann → Cy → Bob → Ann",
        "Number to beat: 63 — the next numbered tile must be lower than 63",
        "Ann laid a Joker: one extra tile, or none.",
        "p no extra tile after the Joker",
    ),
    "twin": (
        "33 red Twin",
        "the Twin, laid against 58 (lower, in the direction)",
        "strictly between 58 and 33",
        "1 for the Twin and 2 for the tiles added",
        "g end the Twin run and give up to 3 tiles",
    ),
    "skip": ("skipped", "Ann loses a turn; Cy plays next", "Cy's turn: lower than 33."),
    "call_due": ("owes 'one tile left'", "Cy owes the 'one tile left' call"),
    "penalty": ("Cy takes 3 tiles from the pool as the penalty (T-13)", "Ann's turn: lower than 8."),
    "end": ("Ann wins: the rack is empty", "Tiles left: Ann 0, Bob 5, Cy 4", "n next game"),
    "pool_empty": (
        "the game ends (T-12)",
        "Shared win: Bob, Cy and Dee with 26 tiles each",
        "Tiles left: Ann 27, Bob 26, Cy 26, Dee 26",
    ),
}


@pytest.mark.parametrize("name", list(STATES))
def test_terminal_golden(name: str, golden: Callable[[Path, str], None]) -> None:
    text = console_text(terminal.render(board_of(STATES[name]())))
    flat = " ".join(text.split())  # a fact may wrap at 80 columns
    for words in MUST_SHOW[name]:
        assert " ".join(words.split()) in flat, words
    golden(GOLDEN / f"{name}.txt", text)


@pytest.mark.parametrize("name", list(STATES))
def test_plain_golden(name: str, golden: Callable[[Path, str], None]) -> None:
    text = plain.render(board_of(STATES[name]()))
    flat = " ".join(text.split())
    for words in MUST_SHOW[name]:
        if "│" not in words and "TO FIX" not in words:
            assert " ".join(words.split()) in flat, words
    golden(GOLDEN / f"{name}.plain.txt", text)


def test_no_stray_golden_files() -> None:
    names = {f"{n}.txt" for n in STATES} | {f"{n}.plain.txt" for n in STATES}
    assert {p.name for p in GOLDEN.glob("*.txt")} == names


def test_the_counts_on_the_board_are_the_referees_and_the_line_its_last_tiles() -> None:
    ref = demo_until("Bob lays 8")
    eng = ref.engine
    assert eng is not None
    text = plain.render(board_of(ref))
    assert tile_counts(text, eng.players) == dict(zip(eng.players, eng.counts(), strict=True))
    assert line_shown(text) == ["41", "33 red Twin", "Skip", "27 penalty", "21", "18", "12", "8"]
    assert [eng.tile(t).short for t in eng.line[-8:]] == [c.split()[0] for c in line_shown(text)]


def tile_counts(text: str, names: tuple[str, ...]) -> dict[str, int]:
    """The Tiles column of the players table, from a plain rendering."""
    out = {}
    for ln in text.splitlines():
        words = ln.split()
        if words and words[0] in ("▶", "★"):
            words = words[1:]
        if len(words) >= 2 and words[0] in names and words[1].isdigit():
            out[words[0]] = int(words[1])
    return out


def line_shown(text: str) -> list[str]:
    """The tiles the 'Line:' row shows, from a plain rendering."""
    row = next(ln for ln in text.splitlines() if ln.startswith("Line: "))
    body = row[len("Line: ") :].removeprefix("… ").split("  (")[0]
    return body.split(" · ")


def test_a_players_own_screen_shows_the_count_and_never_the_others() -> None:
    ref = demo_until("Cy lays 12 and forgets to call")
    view = ref.view(2)
    assert isinstance(view, UpturnView)
    text = plain.render_blocks(PANEL.private(view))
    assert text.splitlines() == [
        "== Cy — your rack (keep it to yourself) ==",
        "You hold 1 tile by the count.",
        "The referee does not see your tiles (1 tile); tell it when the count is wrong (undo, "
        "then enter the draw or gift).",
        "You have one tile left: call it with the button before the next tile.",
    ]
    dealt = UpturnState.position(UpturnDescription(["Ann", "Bob"], line=(20,), racks=[[40, 22, "joker"], [7, 9]]))
    mine = plain.render_blocks(PANEL.private(dealt.view(0)))
    assert "Your tiles: 22 red Twin · 40 · Joker" in mine  # a dealt game knows the rack
    assert "You hold 3 tiles by the count." in mine and "9" not in mine  # not Bob's
    with pytest.raises(ValueError, match="one seat's view"):
        PANEL.private(dealt.view(None))
    with pytest.raises(ValueError, match="secrets"):
        scoreboard(dealt.view(0), ref.status(), PANEL)


def test_a_twin_tile_is_drawn_red_with_its_letter_and_a_penalty_tile_named() -> None:
    """Not by colour alone: the red Twin carries its letter and its name, as on the table."""
    from upref.games.upturn.panel import tile_piece
    from upref.games.upturn.view import TileView

    twin = tile_piece(TileView("N33", "33", 33, None, True, False))
    assert twin.face is not None and (twin.face.colour, twin.face.mark) == ("red", "R")
    assert twin.note == "red twin"
    penalty = tile_piece(TileView("N27", "27", 27, None, False, True))
    assert penalty.face is not None and penalty.face.colour is None and penalty.note == "penalty"
    plain_tile = tile_piece(TileView("N21", "21", 21, None, False, False))
    assert plain_tile.note is None
