"""Flip a Bird's rules on the engine, from described positions: one test per ruling F-1 ...
F-16, the rulebook's example claim, the draw and the face, scoring, and every refusal word. A
refused action leaves the state exactly as it was."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from upref.games.base import IllegalMoveError
from upref.games.flipabird.actions import Claim, Pass, Play, Take, Tip, WrongWay
from upref.games.flipabird.cards import load_catalogue
from upref.games.flipabird.engine import FlipABirdState
from upref.games.flipabird.evaluation import score
from upref.games.flipabird.position import FlipABirdDescription, RowCard, deal
from upref.games.flipabird.variant import Variant

CAT = load_catalogue()
ABC = ("Ann", "Bob", "Cy")
FOUR = ("Anton", "Pia", "Simon", "Hannah")
FIVE = ("Ann", "Bob", "Cy", "Dee", "Eve")


def refused(game: FlipABirdState, action: object, rule: str, words: str = "") -> IllegalMoveError:
    before = (game._snapshot(), len(game._undo_stack))
    with pytest.raises(IllegalMoveError) as info:
        game.play(action)  # type: ignore[arg-type]
    assert info.value.rule == rule, info.value
    assert words in info.value.message, info.value.message
    assert (game._snapshot(), len(game._undo_stack)) == before
    assert not game.is_legal(action)  # type: ignore[arg-type]
    return info.value


def row_game(
    row: Sequence[tuple[str, bool, int]],
    players: tuple[str, ...] = ABC,
    *,
    to_move: int = 0,
    pile: Sequence[str] | None = None,
    pile_left: int = 20,
    hands: Sequence[Sequence[str]] | None = None,
    unknown: Sequence[int] | None = None,
    final: bool | None = None,
    won: Sequence[Sequence[str]] | None = None,
) -> FlipABirdState:
    return FlipABirdState.position(FlipABirdDescription(
        players, row=row, to_move=to_move, pile=pile, pile_left=None if pile is not None else pile_left,
        hands=hands, unknown=unknown, final=final, won=won,
    ))


def settle(game: FlipABirdState, tips: dict[int, bool]) -> None:
    """Claim by the player to move; the others tip as given."""
    game.play(Claim())
    for seat, red in tips.items():
        game.play(Tip(seat, red))


# --- the rulebook's example ----------------------------------------------------------------------


def test_the_rulebooks_example_claim_green_right_anton_and_hannah_take_four_each() -> None:
    """Anton played last; Pia (his left neighbour) claims with red, Anton shows green, Simon
    tips red, Hannah green. The row holds 9 birds, 10 are allowed with four players: Anton and
    Hannah were right; Anton takes first, then counter-clockwise, four cards each."""
    row = [  # played in turn, Anton (seat 0) last
        ("S-NB1", False, 1), ("R2a", True, 2), ("B2a", False, 3), ("S-DBL-B", True, 0),
        ("G2a", False, 1), ("S-NOT-Y", True, 2), ("Y3a", False, 3), ("R3a", False, 0),
    ]
    game = row_game(row, FOUR, to_move=1)
    settle(game, {2: True, 3: False})
    ev = game.evaluation
    assert ev is not None and ev.total == 9 and ev.limit == 10 and ev.right == "green"
    claim = game.claim_state
    assert claim is not None and claim.takers == (0, 3)  # Anton, then Hannah; Simon and Pia wrong
    assert all(r.up for r in game.row)  # turned face up
    order = []
    while (claim := game.claim_state) is not None and game.phase == "take":
        order.append(game.taker())
        game.play(Take(claim.left[-1]))
    assert order == [0, 3, 0, 3, 0, 3, 0, 3]
    assert len(game.won(0)) == len(game.won(3)) == 4
    assert game.phase == "turn" and game.current_player() == 1 and game.row == ()


# --- F-1 ... F-5: the evaluation -----------------------------------------------------------


def evaluate_row(ids: Sequence[str], limit_players: tuple[str, ...] = ABC) -> FlipABirdState:
    game = row_game([(c, False, i % len(limit_players)) for i, c in enumerate(ids)], limit_players, to_move=len(ids) % len(limit_players))
    settle(game, {s: True for s in range(len(limit_players)) if s not in (game.current_player(), (game.current_player() - 1) % len(limit_players))})
    return game


def test_f1_special_cards_do_not_count_first_removes_every_special_card() -> None:
    game = evaluate_row(["B2a", "S-NB1", "R3a", "S-DBL-R", "S-NC2", "S-NOT-B", "S-NC1"])
    ev = game.evaluation
    assert ev is not None
    assert ev.total == 5  # blue 2 and red 3: the neighbour card and the colour cards are out
    assert ev.removed == (2, 4, 5, 6, 7)


def test_f2_a_neighbour_card_at_a_row_end_removes_its_one_neighbour() -> None:
    assert (ev := evaluate_row(["S-NB1", "R3a", "B2a"]).evaluation) is not None
    assert ev.removed == (2,) and ev.total == 2
    assert (ev := evaluate_row(["B2a", "R3a", "S-NB2"]).evaluation) is not None
    assert ev.removed == (2,) and ev.total == 2


def test_f3_neighbour_cards_act_at_once_and_take_out_special_cards_too() -> None:
    ev = evaluate_row(["G1a", "S-NB1", "S-NB2", "R3a", "B2a"]).evaluation
    assert ev is not None and ev.removed == (1, 2, 3, 4) and ev.total == 2
    ev = evaluate_row(["B3a", "S-DBL-B", "S-NB1", "G2a"]).evaluation
    assert ev is not None and ev.removed == (2, 4) and ev.total == 3  # the double is gone


def test_f4_colours_do_not_affect_each_other_and_not_beats_double() -> None:
    ev = evaluate_row(["B2a", "S-NOT-B", "R3a", "S-DBL-R"]).evaluation
    assert ev is not None and ev.total == 6 and dict(ev.factors) == {"B": 0, "G": 1, "R": 2, "Y": 1}
    ev = evaluate_row(["B2a", "S-DBL-B", "S-NOT-B", "Y1a"]).evaluation
    assert ev is not None and ev.total == 1


def test_f5_removed_cards_count_nothing_but_are_shared_and_score() -> None:
    game = evaluate_row(["S-NB1", "R3a", "B2a", "G1a", "Y1a"])
    ev = game.evaluation
    assert ev is not None and ev.removed == (2,) and ev.total == 4
    claim = game.claim_state
    assert claim is not None and "R3a" in claim.left
    while (claim := game.claim_state) is not None and game.phase == "take":
        game.play(Take(claim.left[0]))
    owner = next(s for s in range(3) if "R3a" in [c.id for c in game.won(s)])
    assert game.score(owner).points >= 1


# --- F-6, F-7: sharing --------------------------------------------------------------------------


def test_f6_takers_choose_any_card_counter_clockwise_skipping_the_wrong_side() -> None:
    game = row_game([("R1a", True, 0), ("R1b", True, 1), ("R1c", False, 2), ("B1a", True, 3)], FIVE, to_move=4)
    settle(game, {0: True, 1: False, 2: True})  # Eve claims against Dee; Ann, Cy red; Bob green
    ev = game.evaluation
    assert ev is not None and ev.total == 4 and ev.right == "green"
    claim = game.claim_state
    assert claim is not None and claim.takers == (3, 1)  # Dee first, then Bob (to the right)
    game.play(Take("B1a"))  # any card: the last of the row first
    assert [c.id for c in game.won(3)] == ["B1a"] and game.taker() == 1
    game.play(Take("R1c"))
    assert [c.id for c in game.won(1)] == ["R1c"] and game.taker() == 3


def test_f7_a_single_right_player_takes_every_card() -> None:
    game = row_game([("R3a", True, 0), ("R3b", True, 1), ("G3a", False, 2), ("Y3a", False, 0)], ABC, to_move=1)
    settle(game, {2: False})  # Bob claims against Ann; Cy green
    claim = game.claim_state
    assert claim is not None and game.evaluation is not None and game.evaluation.total == 12
    assert claim.takers == (1,)
    for card in ("Y3a", "R3a", "G3a", "R3b"):
        assert game.taker() == 1
        game.play(Take(card))
    assert len(game.won(1)) == 4 and game.phase == "turn" and game.current_player() == 1


# --- F-8: one row ----------------------------------------------------------------------------------


def test_f8_one_row_cards_go_to_its_end_and_a_new_row_only_after_a_claim() -> None:
    pile, hands, _ = deal(3, 4)
    game = FlipABirdState.new(ABC, pile=pile)
    for k in range(4):
        seat = game.current_player()
        game.play(Play(pile[k], bool(game.required_face())))
        assert [r.card for r in game.row] == list(pile[: k + 1])
        assert game.row[-1].by == seat
    settle(game, {2: True})  # Bob claims against Ann
    while (claim := game.claim_state) is not None and game.phase == "take":
        game.play(Take(claim.left[0]))
    assert game.row == () and game.current_player() == 1
    game.play(Play(pile[4], bool(game.required_face())))
    assert [r.card for r in game.row] == [pile[4]]


# --- F-9: all face up --------------------------------------------------------------------------


def f9_game(second_up: bool = True, birds: str = "R3a") -> FlipABirdState:
    # Pile top first: the card drawn, then the back deciding the face of the play.
    pile = [birds, "B1a" if second_up else "B1c", "G1a", "G1c"]
    return row_game(
        [("Y3a", True, 1), ("B3a", True, 2)], ABC, to_move=0, pile=pile,
        hands=[("G2a", "G2b"), (), ()],
    )


def test_f9_a_forced_face_up_card_over_the_limit_removes_the_old_row() -> None:
    game = f9_game()
    assert game.required_face() is True
    text = game.play(Play("R3a", True))  # 3 + 3 + 3 = 9 > 8, all face up
    assert "(F-9)" in text and "the old row (2 cards) leaves the game and R3a starts a new row" in text
    assert [r.card for r in game.row] == ["R3a"]
    assert game.out == ("Y3a", "B3a") and game.removed_rows == (("Y3a", "B3a"),)
    assert game.current_player() == 1 and game.count_places() == 60


def test_f9_not_with_a_face_down_card_in_the_row_nor_at_the_limit() -> None:
    game = row_game([("Y3a", False, 1), ("B3a", True, 2)], ABC, pile=["R3a", "B1a", "G1a"], hands=[(), (), ()], to_move=0)
    game.play(Play("R3a", True))
    assert len(game.row) == 3 and game.out == ()
    game = f9_game(birds="R2a")  # 3 + 3 + 2 = 8: the limit, not over it
    game.play(Play("R2a", True))
    assert len(game.row) == 3 and game.out == ()


# --- F-10: the limit ---------------------------------------------------------------------------


@pytest.mark.parametrize(("ids", "right"), [(["R3a", "R3b", "R2a", "R2b"], "green"), (["R3a", "R3b", "R3c", "R2a"], "red")])
def test_f10_red_is_right_only_above_the_limit(ids: list[str], right: str) -> None:
    game = row_game([(c, True, i % 4) for i, c in enumerate(ids)], FOUR, to_move=0)
    settle(game, {1: True, 2: True})
    ev = game.evaluation
    assert ev is not None and ev.limit == 10 and ev.total in (10, 11) and ev.right == right


# --- F-11: no card in the final phase ------------------------------------------------------------


def final_game() -> FlipABirdState:
    return row_game(
        [("R1a", False, 2), ("B1a", False, 0)], ABC, to_move=1, pile=[], hands=[("G1a",), (), ("Y1a",)],
        unknown=[0, 0, 0], final=True,
    )


def test_f11_a_player_with_no_card_may_pass_and_the_game_ends_unevaluated() -> None:
    game = final_game()
    assert game.final and game.hand_size(1) == 0 and game.can_pass()
    assert Pass() in game.legal_actions() and Claim() in game.legal_actions()
    text = game.play(Pass())
    assert "without evaluating the row (F-11)" in text
    out = game.outcome()
    assert out is not None and out.termination == "no-claim" and game.evaluation is None
    assert set(game.out) == {"R1a", "B1a", "G1a", "Y1a"} and game.count_places() == 60


def test_f11_a_player_with_no_card_may_still_claim_and_one_with_cards_may_not_pass() -> None:
    game = final_game()
    game.play(Claim())
    assert game.phase == "tips"
    game = final_game()
    game.play(Claim())
    game.play(Tip(2, True))
    assert game.phase == "take"
    game = row_game([("R1a", False, 2)], ABC, to_move=0, pile=[], hands=[("G1a",), (), ()], unknown=[0, 0, 0], final=True)
    refused(game, Pass(), "F-11", "Ann still has 1 card")
    game = row_game([("R1a", False, 2)], ABC, to_move=0, pile_left=5)
    refused(game, Pass(), "F-11", "Only in the final phase")


def test_f11_a_card_tapped_by_a_player_the_referee_counts_empty_is_refused() -> None:
    game = final_game()
    refused(game, Play("G1a", False), "F-11", "By the referee's count Bob has no card left")


# --- F-12: shared wins -----------------------------------------------------------------------------


def test_f12_equal_scores_share_the_win() -> None:
    game = row_game(
        [("R1a", False, 2)], ABC, to_move=0, pile=[], hands=[(), (), ()], unknown=[0, 0, 0], final=True,
        won=[("B1a", "G1a"), ("S-NB1",), ("Y1a",)],
    )
    game.play(Pass())
    out = game.outcome()
    assert out is not None and out.scores == (2, 2, 1) and out.winners == (0, 1)
    assert "Ann and Bob share the win with 2 points each (F-12)" in game.verdict
    assert game.returns() == (0.5, 0.5, 0.0)


# --- F-13, F-14: when a claim may be made ---------------------------------------------------------------


def test_f13_a_claim_against_a_one_card_row() -> None:
    game = row_game([("R1a", False, 0)], ABC, to_move=1)
    game.play(Claim())
    claim = game.claim_state
    assert claim is not None and claim.claimant == 1 and claim.accused == 0


def test_f14_no_claim_without_a_row() -> None:
    pile, _, _ = deal(3, 1)
    game = FlipABirdState.new(ABC, pile=pile)
    refused(game, Claim(), "F-14", "There is no row to claim against")
    game = row_game([("R1a", False, 0)], ABC, to_move=1)
    settle(game, {2: True})
    while (claim := game.claim_state) is not None and game.phase == "take":
        game.play(Take(claim.left[0]))
    assert game.current_player() == 1 and game.row == ()
    refused(game, Claim(), "F-14")


# --- F-15: hands of two ----------------------------------------------------------------------------


def test_f15_two_cards_in_every_hand_until_the_pile_is_empty_then_fewer() -> None:
    pile, hands, _ = deal(4, 9)
    game = FlipABirdState.new(FOUR, pile=pile)
    truth = [list(h) for h in hands]
    while not game.final:
        seat = game.current_player()
        truth[seat].append(game.pile[0] if game.pile else "")
        card = truth[seat].pop(0)
        game.play(Play(card, bool(game.required_face())))
        assert all(game.hand_size(s) == 2 for s in range(4) if not game.final)
    assert [game.hand_size(s) for s in range(4)] == [2, 2, 2, 2]  # the last draw, then a play
    for _ in range(4):
        seat = game.current_player()
        game.play(Play(truth[seat].pop(0), False))  # no draw any more
        assert game.hand_size(seat) == 1
    assert [game.hand_size(s) for s in range(4)] == [1, 1, 1, 1]


# --- F-16: the wrong way up ------------------------------------------------------------------------


def test_f16_a_card_played_the_wrong_way_is_turned_over_and_the_play_stands() -> None:
    game = row_game([], ABC, pile=["R1a", "B1c", "G1a"], hands=[(), (), ()])
    game.play(Play("R1a", False))
    assert WrongWay() in game.legal_actions()
    text = game.play(WrongWay())
    assert text == (
        "Ann's card at position 1 went the wrong way: it must lie face down. Turn it face down; "
        "the play stands (F-16)."
    )
    assert game.row[0] == RowCard("R1a", False, 0, True) and game.current_player() == 1
    refused(game, WrongWay(), "F-16", "turned over already")
    game.play(Claim())  # Bob against Ann
    refused(game, WrongWay(), "tips")


def test_f16_needs_a_card_just_played() -> None:
    pile, _, _ = deal(3, 2)
    refused(FlipABirdState.new(ABC, pile=pile), WrongWay(), "F-16", "No card was just played")


# --- the draw and the face -------------------------------------------------------------------------


def test_the_face_is_the_back_under_the_top_card() -> None:
    game = row_game([], ABC, pile=["R1a", "B1c", "G1a"], hands=[(), (), ()])
    assert game.required_face() is False  # under R1a lies B1c: covered
    assert game.public_face() is None  # a secret before the draw
    refused(game, Play("R1a", True), "face", "the pile shows a covered cage after the draw")
    game.play(Play("R1a", False))
    assert game.required_face() is True  # under B1c lies G1a: open
    game.play(Play("B1c", True))
    assert game.required_face() is False and game.public_face() is False  # the last card
    refused(game, Play("G1a", True), "face", "the draw empties the pile, so the card goes face down")
    game.play(Play("G1a", False))
    assert game.final and game.pile_left == 0
    assert "the final phase begins" in game.verdict
    assert game.required_face() is False


def test_without_the_scan_both_faces_are_the_tables_word() -> None:
    game = FlipABirdState.new(ABC)
    assert not game.scanned and game.required_face() is None
    ids = {(a.card, a.up) for a in game.legal_actions() if isinstance(a, Play)}
    assert ("R2c", True) in ids and ("R2c", False) in ids
    game.play(Play("R2c", True))
    assert game.row[0].up and game.hand_size(0) == 2 and game.pile_left == 53


def test_the_draw_brings_the_top_card_into_the_hand() -> None:
    pile, _, _ = deal(3, 5)
    game = FlipABirdState.new(ABC, pile=pile)
    game.play(Play(pile[0], bool(game.required_face())))  # played the card just drawn
    assert game.hand(0) == () and game.unknown(0) == 2
    game.play(Play(next(iter(sorted(game.unseen))), bool(game.required_face())))  # a dealt card
    assert game.hand(1) == (pile[1],) and game.unknown(1) == 1


# --- refusals by word ----------------------------------------------------------------------------------


def test_hand_a_card_still_in_the_pile_or_drawn_by_another_or_no_dealt_card_left() -> None:
    pile, _, _ = deal(3, 6)
    game = FlipABirdState.new(ABC, pile=pile)
    err = refused(game, Play(pile[1], bool(game.required_face())), "hand", "just under the top card")
    assert pile[1] not in err.message and err.correction == (
        "Put that card back on top of the draw pile, then play a card from your hand."
    )
    refused(game, Play(pile[5], bool(game.required_face())), "hand", "card 6 from the top")
    dealt = sorted(game.unseen)
    game.play(Play(dealt[0], bool(game.required_face())))  # Ann keeps pile[0]
    refused(game, Play(pile[0], bool(game.required_face())), "hand", "Ann drew that card")
    game = FlipABirdState.position(FlipABirdDescription(ABC, pile=pile[2:], hands=[(pile[0], pile[1]), (), ()], unknown=[0, 2, 2]))
    refused(game, Play(sorted(game.unseen)[0], bool(game.required_face())), "hand", "already played both cards dealt")


def test_row_won_out_card_seat_over() -> None:
    game = row_game([("R1a", False, 2)], ABC, to_move=0, won=[(), ("B3a",), ()])
    err = refused(game, Play("R1a", False), "row", "already in the row (position 1)")
    assert "R1a" not in err.message  # a face-down card is never named
    refused(game, Play("B3a", False), "won", "B3a is among Bob's won cards")
    refused(game, Play("TIP-R1", False), "card", "That is a tip card")
    game = f9_game()
    game.play(Play("R3a", True))
    refused(game, Play("Y3a", False), "out", "out of the game")
    game.play(Claim())
    refused(game, Tip(4, True), "seat", "No player 5 plays this game (3 players)")
    game = final_game()
    game.play(Pass())
    refused(game, Claim(), "over", "The game is over: Ann, Bob and Cy share the win with 0 points each")


def test_tips_fixed_tips_a_tip_twice_and_actions_while_tips_are_collected() -> None:
    game = row_game([("R1a", False, 2)], FOUR, to_move=3)
    refused(game, Tip(0, True), "tips", "No claim is waiting for tips now")
    game.play(Claim())  # Hannah against Simon
    refused(game, Tip(3, False), "tips", "Hannah claimed: Hannah's tip is red, face up")
    refused(game, Tip(2, True), "tips", "Simon is accused: Simon's tip is green, face up")
    game.play(Tip(0, True))
    refused(game, Tip(0, False), "tips", "Anton's tip is already in")
    refused(game, Play("R2a", False), "tips", "Pia still to tip")
    refused(game, Take("R1a"), "tips")


def test_take_only_the_claimed_rows_cards_each_once() -> None:
    game = row_game([("R1a", True, 0), ("R1b", False, 1)], ABC, to_move=2)
    settle(game, {0: True})
    refused(game, Take("B3a"), "F-6", "not one of the claimed row's cards")
    assert game.evaluation is not None and game.evaluation.right == "green"  # 2 birds
    game.play(Take("R1b"))  # Bob, the accused, alone was right
    refused(game, Take("R1b"), "F-6", "R1b was taken already, by Bob")
    refused(game, Claim(), "F-6", "it is Bob's take")


# --- scoring -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ids", "points", "sets"),
    [
        ([], 0, 0),
        (["B1a", "G1a", "R1a", "Y1a"], 10, 1),
        (["B1a", "G1a", "R1a", "Y1a", "B2a", "G2a", "R2a", "Y2a", "B3a"], 21, 2),
        (["B1a", "B2a", "B3a", "G1a", "R1a"], 5, 0),
        (["B1a", "G1a", "R1a", "Y1a", "S-NC1", "S-DBL-B"], 14, 1),
    ],
)
def test_score_sets_of_four_colours_singles_and_specials(ids: list[str], points: int, sets: int) -> None:
    s = score(CAT.card(i) for i in ids)
    assert (s.points, s.sets) == (points, sets)


def test_the_short_game_variant_sets_the_pile_and_boxes_the_rest() -> None:
    pile, hands, box = deal(4, 3, Variant(pile=12))
    assert len(pile) == 12 and len(box) == 60 - 12 - 8
    game = FlipABirdState.new(FOUR, pile=pile, variant=Variant(pile=12))
    assert game.pile_left == 12 and game.out_unknown == 40 and game.count_places() == 60
    assert Variant.from_dict(Variant(pile=12).to_dict()) == Variant(pile=12)
    assert Variant(pile=12).describe() == "short game, a draw pile of 12 cards"
    with pytest.raises(ValueError, match="more than the 52 left after dealing 2 cards to each of 4 players"):
        FlipABirdState.new(FOUR, variant=Variant(pile=53))
    with pytest.raises(ValueError, match="positive number of cards"):
        Variant(pile=0)


@pytest.mark.parametrize(
    ("description", "says"),
    [
        (FlipABirdDescription(ABC, hands=[["R2a"], [], []], row=[("R2a", True, 0)]), "placed twice: R2a"),
        (FlipABirdDescription(ABC, out=["Q9"]), "not Flip a Bird cards: Q9"),
        (FlipABirdDescription(ABC, unknown=[30, 30, 30]), "90 unknown cards but only 60 unplaced cards"),
        (FlipABirdDescription(ABC, hands=[[], []]), "hands, unknown and won need one entry per player (3)"),
    ],
)
def test_a_described_position_that_does_not_fit_is_refused_by_what_is_wrong(
    description: FlipABirdDescription, says: str
) -> None:
    """A worked example with a card placed twice, a card of no catalogue, more unseen cards than
    the box holds, or a hand too few is refused with what is wrong in the message."""
    with pytest.raises(ValueError, match=re.escape(says)):
        FlipABirdState.position(description)
