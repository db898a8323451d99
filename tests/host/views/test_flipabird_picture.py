"""Flip a Bird's picture of the table (`FlipPanel.drawing`): the row as cards, face-down ones as
backs; at a claim the rulebook's example evaluated on the cards (struck, doubled, faded) with the
total against the limit and the tips revealed; a seat's own hand drawn on its screen; and over
random sessions no card that lies hidden (pile, hand, face down in the row) nor a tip before all
are in gets into any piece. Expectations come from the rulebook and the rulings, never from the
picture."""

from __future__ import annotations

from dataclasses import replace

import pytest
from flipabird_cases import STATES
from flipabird_table import Chaos, FlipTable, new_table
from piece_walk import all_cards, assert_colour_blind_safe, drawings_in, ids_shown, rows, the
from upref.games.flipabird.actions import Claim, Take, Tip
from upref.games.flipabird.engine import FlipABirdState
from upref.games.flipabird.panel import PANEL
from upref.games.flipabird.position import FlipABirdDescription
from upref.games.flipabird.variant import Variant
from upref.games.flipabird.view import CardView, FlipView
from upref.views.pieces import Big, Card, Drawing, Row, Seats

FOUR = ("Anton", "Pia", "Simon", "Hannah")
ABC = ("Ann", "Bob", "Cy")
# The rulebook's example (docs/games/flipabird.md): Anton (seat 0) played last, Pia claims.
EXAMPLE = [
    ("S-NB1", False, 1), ("R2a", True, 2), ("B2a", False, 3), ("S-DBL-B", True, 0),
    ("G2a", False, 1), ("S-NOT-Y", True, 2), ("Y3a", False, 3), ("R3a", False, 0),
]


def example() -> FlipABirdState:
    return FlipABirdState.position(FlipABirdDescription(FOUR, row=EXAMPLE, to_move=1, pile_left=20))


def drawing(game: FlipABirdState) -> Drawing:
    return PANEL.drawing(game.view(None))


def the_row(pic: Drawing) -> Row:
    (row,) = rows(pic)
    return row


def tips_shown(pic: Drawing) -> dict[str, str | None]:
    """Each seat's tip card as drawn: its colour's name, 'back', or None (no tip card)."""
    seats = the(pic, Seats)
    assert isinstance(seats, Seats)
    out: dict[str, str | None] = {}
    for s in seats.seats:
        tip = [r for r in s.rows if r.caption == "tip"]
        out[s.name] = None if not tip else (
            "back" if tip[0].pieces[0].face is None else tip[0].pieces[0].face.label
        )
    return out


def test_the_row_lies_as_cards_face_down_ones_as_backs() -> None:
    pic = drawing(example())
    row = the_row(pic)
    assert len(row.pieces) == 8
    backs = [i + 1 for i, c in enumerate(row.pieces) if c.face is None]
    assert backs == [1, 3, 5, 7, 8]  # played face down in the example
    assert all(row.pieces[i - 1].id is None for i in backs)
    red2, double, yellow_not = row.pieces[1], row.pieces[3], row.pieces[5]
    assert red2.id == "R2a" and red2.face is not None
    assert (red2.face.colour, red2.face.mark, red2.face.symbol, red2.face.count) == ("red", "R", "bird", 2)
    assert double.face is not None and (double.face.colour, double.face.symbol) == ("blue", "colour-double")
    assert yellow_not.face is not None and (yellow_not.face.colour, yellow_not.face.symbol) == ("yellow", "colour-not")
    assert not any(c.marks for c in row.pieces)  # nothing is evaluated before a claim
    # four players: a row may hold 10 birds (the rulebook's table)
    assert Big("birds a row may hold", "10") in pic.pieces


def test_the_seats_go_clockwise_with_the_hands_as_backs_and_no_tip_before_a_claim() -> None:
    pic = drawing(example())
    seats = the(pic, Seats)
    assert isinstance(seats, Seats)
    assert [s.name for s in seats.seats] == list(FOUR)
    assert seats.to_move == 1 and seats.direction == "cw"
    for s in seats.seats:
        (hand,) = [r for r in s.rows if r.caption == "hand"]
        assert [c.face for c in hand.pieces] == [None, None]  # two cards each, unseen
    assert set(tips_shown(pic).values()) == {None}


def test_at_a_claim_the_claims_two_tips_show_and_the_others_are_backs() -> None:
    game = example()
    game.play(Claim())  # Pia claims with red; Anton, who played last, shows green
    game.play(Tip(2, True))  # Simon's tip is in, its colour still secret
    pic = drawing(game)
    assert tips_shown(pic) == {"Anton": "green", "Pia": "red", "Simon": "back", "Hannah": None}
    row = the_row(pic)
    assert [i + 1 for i, c in enumerate(row.pieces) if c.face is None] == [1, 3, 5, 7, 8]
    assert not any(c.marks for c in row.pieces)
    assert row.note is not None and "1 of 2 tips in" in row.note


def test_the_rulebooks_example_is_evaluated_on_the_cards() -> None:
    """S-NB1 first in the row takes out its one neighbour (R2a, struck, F-2); blue counts
    double (B2a and S-DBL-B doubled); yellow does not count (Y3a and S-NOT-Y faded); green 2
    and red 3 count as printed: 2 x 2 + 2 + 3 = 9, not more than 10, green is right."""
    game = example()
    game.play(Claim())
    game.play(Tip(2, True))
    game.play(Tip(3, False))
    pic = drawing(game)
    row = the_row(pic)
    assert [c.id for c in row.pieces] == [c for c, _, _ in EXAMPLE]  # all face up now
    marks = {c.id: c.marks for c in row.pieces}
    assert marks == {
        "S-NB1": (), "R2a": ("struck",), "B2a": ("doubled",), "S-DBL-B": ("doubled",),
        "G2a": (), "S-NOT-Y": ("faded",), "Y3a": ("faded",), "R3a": (),
    }
    notes = {c.id: c.note for c in row.pieces}
    assert (notes["B2a"], notes["G2a"], notes["R3a"], notes["Y3a"]) == ("4 birds", "2 birds", "3 birds", "0 birds")
    assert notes["R2a"] == "out"
    assert Big("birds against the limit of 10", "9") in pic.pieces
    assert row.note is not None and "green is right" in row.note
    assert tips_shown(pic) == {"Anton": "green", "Pia": "red", "Simon": "red", "Hannah": "green"}


def test_the_sharing_goes_counter_clockwise_and_each_taken_card_says_who_took_it() -> None:
    game = example()
    game.play(Claim())
    game.play(Tip(2, True))
    game.play(Tip(3, False))
    assert game.taker() == 0  # Anton was right and played last: he takes first
    game.play(Take("R3a"))
    pic = drawing(game)
    seats = the(pic, Seats)
    assert isinstance(seats, Seats) and seats.direction == "ccw" and seats.to_move == 3
    (won,) = [r for r in seats.seats[0].rows if r.caption == "won"]
    assert [c.id for c in won.pieces] == ["R3a"]
    taken = {c.id: c.note for c in the_row(pic).pieces}
    assert taken["R3a"] == "3 birds, to Anton"
    assert taken["G2a"] == "2 birds"


@pytest.mark.parametrize(
    ("ids", "struck", "doubled", "faded", "total"),
    [
        # F-1: "special cards do not count" takes every special card out, double red included
        (["B2a", "S-NB1", "R3a", "S-DBL-R", "S-NC2", "S-NOT-B", "S-NC1"], {2, 4, 5, 6, 7}, set(), set(), 5),
        # F-4: "does not count" beats "counts double"; yellow is not touched
        (["B2a", "S-DBL-B", "S-NOT-B", "Y1a"], set(), set(), {1, 2, 3}, 1),
        # F-3: neighbour cards act at once; the double taken out does nothing
        (["B3a", "S-DBL-B", "S-NB1", "G2a"], {2, 4}, set(), set(), 3),
    ],
)
def test_the_rulings_marks(ids: list[str], struck: set[int], doubled: set[int], faded: set[int], total: int) -> None:
    game = FlipABirdState.position(FlipABirdDescription(ABC, row=[(c, False, i % 3) for i, c in enumerate(ids)], to_move=len(ids) % 3, pile_left=20))
    claimant = game.current_player()
    game.play(Claim())
    for seat in range(3):
        if seat not in (claimant, (claimant - 1) % 3):
            game.play(Tip(seat, True))
    pic = drawing(game)
    row = the_row(pic)

    def where(mark: str) -> set[int]:
        return {i + 1 for i, c in enumerate(row.pieces) if mark in c.marks}

    assert (where("struck"), where("doubled"), where("faded")) == (struck, doubled, faded)
    assert Big("birds against the limit of 8", str(total)) in pic.pieces  # three players: 8


@pytest.mark.parametrize("name", [k for k in STATES if k != "scan"])
def test_every_scene_matches_the_public_view_and_is_colour_blind_safe(name: str) -> None:
    tb = STATES[name]()
    view = tb.ref.view(None)
    assert isinstance(view, FlipView)
    pic = PANEL.drawing(view)
    assert_colour_blind_safe(pic)
    lying = view.claim.row if view.claim is not None else view.row
    row = the_row(pic)
    assert len(row.pieces) == len(lying)
    for r, c in zip(lying, row.pieces, strict=True):
        if view.claim is not None and view.claim.evaluation is not None:
            assert c.id == view.claim.evaluation.lines[r.position - 1].card.id
        elif r.card is None:
            assert c.face is None
        else:
            assert c.id == r.card.id and c.face is not None and c.face.colour == r.card.colour
    seats = the(pic, Seats)
    assert isinstance(seats, Seats)
    for p, s in zip(view.players, seats.seats, strict=True):
        hand = [r for r in s.rows if r.caption == "hand"]
        assert sum(len(r.pieces) for r in hand) == p.hand
        won = [r for r in s.rows if r.caption == "won"]
        assert [c.id for r in won for c in r.pieces] == [c.id for c in p.won]


def test_a_seats_own_screen_draws_its_hand_known_cards_face_up() -> None:
    game = FlipABirdState.position(FlipABirdDescription(ABC, row=[("G1a", True, 2)], hands=[["R1a"], [], []], pile_left=20))
    (box,) = PANEL.private(game.view(0))
    (mine,) = drawings_in([box])
    (hand,) = rows(mine)
    assert [c.id for c in hand.pieces] == ["R1a", None]  # one known, one the referee has not seen
    assert hand.pieces[1].face is None
    assert "R1a" not in ids_shown(drawing(game))
    assert_colour_blind_safe(mine)


# --- nothing hidden --------------------------------------------------------------------------


class Hidden:
    """What nobody at the table may see now, from the engine and the table's truth: every card
    of the pile, of a hand or of the box, every card lying face down in the row (and, once a
    game ends without a claim, those that lay face down), and who has tipped what before all
    tips are in."""

    def __init__(self) -> None:
        self.down_before_end: set[str] = set()

    def cards(self, tb: FlipTable) -> set[str]:
        out = set(tb.truth.stack) | set(tb.truth.box)
        for h in tb.truth.hands:
            out |= set(h)
        if not tb.ref.has_engine or tb.ref.phase == "setup":
            return out | set(tb.pile)
        eng = tb.ref.engine
        out |= set(eng.pile or ())
        for s in range(eng.num_players()):
            out |= set(eng.hand(s))
        down = {r.card for r in eng.row if not r.up}
        claim = eng.claim_state
        if claim is not None and claim.evaluation is None:
            down |= {r.card for r in claim.row if not r.up}
        outcome = eng.outcome()
        if outcome is None:
            self.down_before_end = down
        elif outcome.termination == "no-claim":
            down |= self.down_before_end
        return out | down

    @staticmethod
    def tippers(tb: FlipTable) -> set[str]:
        if not tb.ref.has_engine or tb.ref.engine.phase != "tips":
            return set()
        eng = tb.ref.engine
        claim = eng.claim_state
        assert claim is not None
        return {
            eng.players[s] for s, t in enumerate(claim.tips)
            if t is not None and s not in (claim.claimant, claim.accused)
        }


def assert_nothing_hidden(pic: Drawing, cards: set[str], tippers: set[str]) -> None:
    for c in all_cards(pic):
        if c.face is not None and c.face.symbol != "tip":
            assert c.id is not None, f"a face-up card without its id: {c}"
    leaked = ids_shown(pic) & cards
    assert not leaked, f"hidden cards drawn face up: {sorted(leaked)}"
    if tippers:
        shown = tips_shown(pic)
        for name in tippers:
            assert shown[name] == "back", f"{name}'s tip drawn as {shown[name]} before all are in"


@pytest.mark.parametrize("seed", range(3))
def test_no_hidden_card_or_tip_gets_into_a_piece_over_random_sessions(seed: int) -> None:
    players = ("Ann", "Bob", "Cy", "Dee", "Eve")[: 3 + seed]
    tb = new_table(players, seed, Variant(pile=24) if seed == 1 else Variant())
    hidden = Hidden()
    tb.start()
    steps = claims = 0
    for _ in Chaos(tb, seed).run(1500):
        view = tb.ref.view(None)
        cards, tippers = hidden.cards(tb), hidden.tippers(tb)
        if view is None:
            continue
        assert isinstance(view, FlipView)
        assert_nothing_hidden(PANEL.drawing(view), cards, tippers)
        steps += 1
        claims += view.claim is not None
    assert steps > 60 and claims > 0


def test_a_planted_leak_is_caught() -> None:
    """A face-down row card drawn face up, or a tip shown early, fails the check above."""
    game = example()
    view = game.view(None)
    hidden = {r.card for r in game.row if not r.up}
    cat = game.catalogue
    leak = replace(
        view, row=tuple(replace(r, card=CardView.of(cat.card(EXAMPLE[r.position - 1][0]))) for r in view.row)
    )
    with pytest.raises(AssertionError, match="hidden cards"):
        assert_nothing_hidden(PANEL.drawing(leak), hidden, set())
    game.play(Claim())
    game.play(Tip(2, True))
    view = game.view(None)
    early = replace(view, players=tuple(replace(p, tip="red") if p.seat == 2 else p for p in view.players))
    with pytest.raises(AssertionError, match="Simon's tip"):
        assert_nothing_hidden(PANEL.drawing(early), set(), {"Simon"})
    with pytest.raises(ValueError, match="face-down card"):
        Card(None, id="R3a")
