"""What's Up's picture of the table (`WhatsUpPanel.drawing`): each collection as four rows of bird
cards (the rulebook's examples: Zhenya's yellow 1 then 2, Anya's complete red row), the table's
cards by their face up (the first game's rectangle row by row), the figurines where they stand,
every colour with its letter; a seat's own collection on its screen; and over random sessions no
side that lies face down and no card id in any piece."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from piece_walk import assert_colour_blind_safe, drawings_in, ids_shown, rows, the
from upref.games.whatsup.actions import Flip
from upref.games.whatsup.engine import WhatsUpState
from upref.games.whatsup.panel import PANEL
from upref.games.whatsup.position import WhatsUpDescription
from upref.games.whatsup.variant import Variant, grid_cell
from upref.games.whatsup.view import WhatsUpView
from upref.views.pieces import Drawing, Figure, Seats
from whatsup_cases import STATES
from whatsup_table import Chaos, new_table

LETTERS = {"red": "R", "yellow": "Y", "green": "G", "purple": "P"}


def seats(pic: Drawing) -> Seats:
    s = the(pic, Seats)
    assert isinstance(s, Seats)
    return s


def collection(pic: Drawing, seat: int) -> dict[str, list[tuple[int, str, str | None]]]:
    """A seat's rows as drawn: colour -> (birds, colour, letter) per card."""
    out = {}
    for r in seats(pic).seats[seat].rows:
        assert r.caption is not None
        out[r.caption] = [
            (c.face.count, c.face.colour or "", c.face.mark) for c in r.pieces if c.face is not None
        ]
    return out


def table_faces(pic: Drawing) -> list[list[tuple[int, str]]]:
    """The table's rows as drawn: (birds, colour) per card."""
    return [
        [(c.face.count, c.face.colour or "") for c in r.pieces if c.face is not None] for r in rows(pic)
    ]


def test_zhenya_adds_two_yellow_to_her_one_yellow() -> None:
    """Example 3: Zhenya holds one yellow; she flips two red, two yellow on the back, and adds
    it: her yellow row is then the card of one and the card of two yellow birds."""
    game = WhatsUpState.position(WhatsUpDescription(("Zhenya", "Petya"), up={"W15": "2 red"}, collections={"Zhenya": {"yellow": 1}}))
    before = PANEL.drawing(game.view(None))
    assert collection(before, 0)["yellow"] == [(1, "yellow", "Y")]
    game.play(Flip(0, "W15"))
    pic = PANEL.drawing(game.view(None))
    mine = collection(pic, 0)
    assert mine == {"red": [], "yellow": [(1, "yellow", "Y"), (2, "yellow", "Y")], "green": [], "purple": []}
    assert seats(pic).seats[0].badges[:2] == ("3 birds", "2 cards")
    shown = Counter(f for row in table_faces(pic) for f in row)
    assert sum(shown.values()) == len(game.table()) == 30 - 2  # two cards in her collection
    assert shown == Counter((game.up(c).count, game.up(c).colour) for c in game.table())


def test_a_complete_row_is_drawn_one_two_three_and_noted() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Anya", "Petya"), collections={"Anya": {"green": 1, "red": 3}}))
    pic = PANEL.drawing(game.view(None))
    assert collection(pic, 0)["red"] == [(1, "red", "R"), (2, "red", "R"), (3, "red", "R")]
    assert collection(pic, 0)["green"] == [(1, "green", "G")]
    notes = {r.caption: r.note for r in seats(pic).seats[0].rows}
    assert notes == {"red": "complete", "yellow": None, "green": None, "purple": None}
    assert seats(pic).seats[0].badges[:2] == ("7 birds", "4 cards")


def test_the_first_games_rectangle_row_by_row_with_a_figurine_where_it_stands() -> None:
    game = WhatsUpState.position(WhatsUpDescription(
        ("Vanya", "Lena"), figurines={"Lena": "W03"}, variant=Variant(first_game=True), to_move=1
    ))
    pic = PANEL.drawing(game.view(None))
    cells: dict[int, list[tuple[int, tuple[int, str]]]] = {}
    for cid in game.table():
        r, c = grid_cell(game.place(cid))
        cells.setdefault(r, []).append((c, (game.up(cid).count, game.up(cid).colour)))
    assert table_faces(pic) == [[f for _, f in sorted(cells.get(r, []))] for r in range(1, 6)]
    r, c = grid_cell(game.place("W03"))
    assert the(pic, Figure) == Figure("Lena", f"row {r}, column {c}")
    (noted,) = [(i, k) for i, row in enumerate(rows(pic)) for k, x in enumerate(row.pieces) if x.note]
    assert rows(pic)[noted[0]].pieces[noted[1]].note == "Lena's figurine"
    assert noted[0] + 1 == r


@pytest.mark.parametrize("name", list(STATES))
def test_every_scene_matches_the_public_view_and_is_colour_blind_safe(name: str) -> None:
    scene = STATES[name]()
    view = scene.tb.ref.view(None)
    if view is None:
        return
    assert isinstance(view, WhatsUpView)
    pic = PANEL.drawing(view)
    assert_colour_blind_safe(pic)
    for f in (c for p in view.players for c in collection(pic, p.seat).values() for c in c):
        assert f[2] == LETTERS[f[1]]
    for p in view.players:
        assert {c: [n for n, _, _ in cs] for c, cs in collection(pic, p.seat).items()} == {
            c: list(counts) for c, counts in p.rows
        }
    drawn = Counter(f for row in table_faces(pic) for f in row)
    assert drawn == Counter((c.count, c.colour) for c in view.table)
    placed = {p.name for p in view.players if p.figurine == "placed"}
    assert {f.name for f in pic.pieces if isinstance(f, Figure)} == placed


def test_a_seats_own_screen_draws_its_collection_and_what_fits_it() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Zhenya", "Petya"), collections={"Zhenya": {"yellow": 1}}))
    (box,) = PANEL.private(game.view(0))
    (mine,) = drawings_in([box])
    *colours, fits = rows(mine)
    assert [r.caption for r in colours] == ["red", "yellow", "green", "purple"]
    assert [c.face.count for c in colours[1].pieces if c.face] == [1]
    # a row starts with one bird; her yellow row goes on with two
    assert sorted((c.face.count, c.face.colour) for c in fits.pieces if c.face) == [
        (1, "green"), (1, "purple"), (1, "red"), (2, "yellow"),
    ]


# --- nothing hidden --------------------------------------------------------------------------


def assert_only_faces_up(game: WhatsUpState, pic: Drawing) -> None:
    """The table's cards are drawn by the face up of each, nothing else: per cell in the first
    game's rectangle, per colour with free placement; and no card id anywhere (an id names
    both sides)."""
    assert not ids_shown(pic), "a card id in the picture"
    up = [(game.up(c).count, game.up(c).colour) for c in game.table()]
    drawn = [f for row in table_faces(pic) for f in row]
    if game.variant.first_game:
        order = sorted(game.table(), key=lambda c: grid_cell(game.place(c)))
        up = [(game.up(c).count, game.up(c).colour) for c in order]
        assert drawn == up, "a side face down is drawn"
    else:
        assert Counter(drawn) == Counter(up), "a side face down is drawn"


@pytest.mark.parametrize("seed", range(4))
def test_no_side_face_down_gets_into_a_piece_over_random_sessions(seed: int) -> None:
    tb = new_table(variant=Variant(first_game=seed % 2 == 0), seed=seed, laid=False)
    chaos = Chaos(tb, seed)
    checked = 0
    for _ in range(220):
        chaos.step()
        view = tb.ref.view(None)
        if view is None:
            continue
        assert_only_faces_up(tb.game, PANEL.drawing(view))
        checked += 1
    assert checked > 200


@pytest.mark.parametrize("first", [True, False])
def test_a_planted_leak_is_caught(first: bool) -> None:
    """A table card drawn by its side face down fails the check above."""
    tb = new_table(variant=Variant(first_game=first), seed=2)
    game = tb.game
    view = game.view(None)
    cid = next(c for c in game.table() if game.down(c) != game.up(c))
    down = game.down(cid)
    table = tuple(
        replace(c, count=down.count, colour=down.colour) if c.place == game.place(cid) else c
        for c in view.table
    )
    with pytest.raises(AssertionError, match="face down"):
        assert_only_faces_up(game, PANEL.drawing(replace(view, table=table)))
