"""What a blocked turn owes (rulings M-14 and M-15), as the pure function of the turn's state,
with no board: the five cases of issue 29 and the others found, each written from the rulings.

Start board of every case (the issue's): h1 RB red up, h2 RY red, h3 RW white, h4 RK black,
h5 BY blue, h6 BW blue, h7 BK black, h8 YW yellow, h9 YK yellow, h10 WK white."""

from __future__ import annotations

from collections.abc import Mapping

from upref.games.updown.owed import UNREAD, Correction, Owed, Seen, owed
from upref.games.updown.position import Board, PairEnd, make_board

START: Board = make_board(
    [
        ("P-RB", "B"),
        ("P-RY", "Y"),
        ("P-RW", "R"),
        ("P-RK", "R"),
        ("P-BY", "Y"),
        ("P-BW", "W"),
        ("P-BK", "B"),
        ("P-YW", "W"),
        ("P-YK", "K"),
        ("P-WK", "K"),
    ]
)


def flipped(board: Board, *holes: int) -> Board:
    """The board with the pairs of `holes` turned (the counted flips)."""
    out = list(board)
    for h in holes:
        e = out[h - 1]
        out[h - 1] = PairEnd(e.pair, e.visible)
    return tuple(out)


def table(board: Board, changes: Mapping[int, Seen]) -> list[Seen]:
    """The table: the start board with `changes` (hole -> what it holds now)."""
    return [changes.get(h, board[h - 1]) for h in range(1, 11)]


def m2(at: int, home: int) -> Correction:
    return Correction("M-2", at, home)


def m1(at: int, home: int, colour: str, *, out: bool = False) -> Correction:
    return Correction("M-1", at, home, colour, out)


RB_red, RB_blue = PairEnd("P-RB", "B"), PairEnd("P-RB", "R")


def test_1_a_correction_that_is_no_longer_due_is_not_named() -> None:
    """YK in h9 turned (black up, counts), turned again (refused), RB pulled from h1, YK put
    into h1 black up: YK shows its counted colour, so it owes its hole only (M-2, which fills
    h9); RB in hand is as it was and its hole is not empty. Then the two flips missing."""
    game = flipped(START, 9)
    now = table(game, {1: PairEnd("P-YK", "Y"), 9: None})
    got = owed(game, (9,), now, {"P-RB": "B", "P-YK": "K"})
    assert got == Owed((m2(1, 9),), (), 1, ())
    assert got.missing == 2


def test_2_a_pairs_colour_is_kept_when_another_pair_takes_its_hole() -> None:
    """RB in h1 turned (blue, counts), turned again (red, refused), pulled out; RY put into
    h1: RY owes h2 (M-2); RB, out, owes its blue (M-1), named at h1 after the pair sitting
    there. h2 is filled by RY's M-2."""
    game = flipped(START, 1)
    now = table(game, {1: PairEnd("P-RY", "Y"), 2: None})
    got = owed(game, (1,), now, {"P-RB": "B"})
    assert got.corrections == (m2(1, 2), m1(1, 1, "B", out=True))
    assert got.empty == () and got.missing == 2


def test_3_a_counted_pair_in_a_wrong_hole_owes_its_colour() -> None:
    """RB in h1 turned (blue, counts); YW pulled from h8; RB into h8 red up; YW into h1:
    YW owes h8; RB owes h1 and blue (home red up it would be a second turn)."""
    game = flipped(START, 1)
    now = table(game, {1: PairEnd("P-YW", "W"), 8: RB_red})
    got = owed(game, (1,), now)
    assert got.corrections == (m2(1, 8), m2(8, 1), m1(8, 1, "B"))
    assert got.empty == () and got.missing == 2


def test_4_a_fourth_pair_in_a_wrong_hole_owes_its_colour() -> None:
    """h1, h2, h3 turned; BY pulled from h5; RK into h5 black up; BY into h4; RK turned in h5
    (red up): three pairs are turned, so RK's flip cannot count: it owes h4 and black. The same
    whichever came first, RK turned in h5 or the three flips (judged when the turn tries to
    end)."""
    game = flipped(START, 1, 2, 3)
    now = table(game, {4: PairEnd("P-BY", "Y"), 5: PairEnd("P-RK", "K")})
    got = owed(game, (1, 2, 3), now)
    assert got.corrections == (m2(4, 5), m2(5, 4), m1(5, 4, "K"))
    assert got.empty == () and got.missing == 0 and got.coming == ()


def test_5_hole_order_is_where_the_pair_is_now() -> None:
    """RB in h1 turned (blue), turned again (red, refused); YW pulled from h8; RB into h8 red
    up: M-2 then M-1, both at h8 where RB is; h1 is not named (RB's M-2 fills it), nor YW in
    hand (as it was, and its hole is not empty)."""
    game = flipped(START, 1)
    now = table(game, {1: None, 8: RB_red})
    got = owed(game, (1,), now, {"P-YW": "W", "P-RB": "B"})
    assert got.corrections == (m2(8, 1), m1(8, 1, "B"))
    assert got.empty == () and got.missing == 2


def test_a_pair_in_a_wrong_hole_turned_before_three_are_turned_comes_home_as_a_flip() -> None:
    """Case 4 before the three flips: RK in h5 red up may still count once it is home (M-15),
    so it owes h4 only, and its flip is one of the three (named once: by its M-2)."""
    now = table(START, {4: PairEnd("P-BY", "Y"), 5: PairEnd("P-RK", "K")})
    got = owed(START, (), now)
    assert got.corrections == (m2(4, 5), m2(5, 4))
    assert got.coming == (4,) and got.missing == 2


def test_flips_coming_home_are_counted_in_the_order_named() -> None:
    """Two pairs turned; BY into h4 yellow up and RK into h5 red up, both turned: BY (h4,
    named first) is the third flip; RK's would be a fourth, so it owes black as well."""
    game = flipped(START, 1, 2)
    now = table(game, {4: PairEnd("P-BY", "B"), 5: PairEnd("P-RK", "K")})
    got = owed(game, (1, 2), now)
    assert got.corrections == (m2(4, 5), m2(5, 4), m1(5, 4, "K"))
    assert got.coming == (5,) and got.missing == 0


def test_a_pair_back_to_its_colour_in_hand_owes_only_its_hole() -> None:
    """RB turned (blue, counts), turned again (red, refused), pulled; put into h8 (YW in hand)
    blue up; pulled again: RB in hand shows blue, so nothing is owed of its colour any more
    (whatever path it took): holes 1 and 8 are empty (M-4)."""
    game = flipped(START, 1)
    now = table(game, {1: None, 8: None})
    got = owed(game, (1,), now, {"P-RB": "R", "P-YW": "W"})
    assert got == Owed((), (1, 8), 1, ())


def test_a_pair_in_hand_that_would_count_fills_its_hole_by_m4() -> None:
    """A pair refused while a card was due (or after an undo), then pulled: put back as it is
    it counts (no counted flip, fewer than three turned), so only its empty hole is named, and
    its flip is one of the three."""
    now = table(START, {3: None})
    got = owed(START, (), now, {"P-RW": "W"})
    assert got == Owed((), (3,), 0, (3,))
    # with three pairs turned it could not count: it owes its colour, named at its hole
    game = flipped(START, 1, 2, 4)
    got = owed(game, (1, 2, 4), table(game, {3: None}), {"P-RW": "W"})
    assert got == Owed((m1(3, 3, "W", out=True),), (), 3, ())


def test_a_bad_reading_is_named_where_it_is_and_its_pair_is_taken_to_be_in_it() -> None:
    game = flipped(START, 1)
    now = table(game, {1: UNREAD, 6: PairEnd("P-BW", "B")})
    got = owed(game, (1,), now)
    assert got.corrections == (Correction("sensor", 1, 1), m1(6, 6, "B"))
    assert got.empty == ()


def test_nothing_owed_once_every_pair_is_home_as_required() -> None:
    game = flipped(START, 2, 5, 9)
    got = owed(game, (2, 5, 9), list(game))
    assert got.clear and got == Owed((), (), 3, ())
