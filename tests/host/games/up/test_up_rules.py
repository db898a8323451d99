"""Up's rules, one ruling at a time (U-1 ... U-20), the rulebook's worked examples (the -2 on a 7,
three -2 on a 7, the disposal card played first, the blind -2 foundation, Victoria's 78 -> 68),
the deal and the cut, and every refusal's rule. Positions are built from descriptions."""

from __future__ import annotations

import re

import pytest
from upref.games.base import IllegalMoveError
from upref.games.up.actions import (
    DOWN,
    HAND,
    UP,
    Call,
    Cut,
    DealUp,
    DirtyOne,
    Join,
    Pass,
    Play,
    Points,
    Reveal,
    format_action,
    parse_action,
)
from upref.games.up.engine import UpState
from upref.games.up.position import UpDescription
from upref.games.up.variant import Variant
from upref.games.up.view import RoundScore

ANN, BOB, CY = 0, 1, 2
NAMES = ("Ann", "Bob", "Cy")


def pos(**kw: object) -> UpState:
    """A three-player round as described (faces: the first free card of that face)."""
    kw.setdefault("to_move", "Ann")
    return UpState.position(UpDescription(NAMES, **kw))  # type: ignore[arg-type]


def card(game: UpState, seat: int, face: str, source: str = HAND, n: int = 1) -> tuple[str, ...]:
    """The ids of `n` cards of that face in the seat's hand / face-up / face-down cards."""
    pile = {HAND: game.hand, UP: game.face_up, DOWN: game.face_down}[source](seat)
    ids = tuple(c for c in pile if game.catalogue.card(c).face == face)[:n]
    assert len(ids) == n, (face, pile)
    return ids


def refused(game: UpState, action: object, rule: str) -> IllegalMoveError:
    """The action is refused with `rule`, and the state is exactly as it was."""
    before = (game._snapshot(), game.view(None), game.view(0), len(game._undo_stack))
    with pytest.raises(IllegalMoveError) as info:
        game.play(action)  # type: ignore[arg-type]
    assert info.value.rule == rule, info.value
    assert not game.is_legal(action)  # type: ignore[arg-type]
    assert (game._snapshot(), game.view(None), game.view(0), len(game._undo_stack)) == before
    return info.value


def play(game: UpState, seat: int, faces: list[str], source: str = HAND) -> str:
    ids: list[str] = []
    for face in set(faces):
        ids += card(game, seat, face, source, faces.count(face))
    return game.play(Play(seat, source, tuple(ids)))


# --- the rulebook's worked examples -----------------------------------------------------------


def test_a_minus_two_on_a_seven_asks_for_five_or_better() -> None:
    g = pos(tower=["9", "7"], hands={"Ann": ["-2", "3"]})
    text = play(g, ANN, ["-2"])
    assert g.threshold == 5 and g.tower[-1] in g.deck and len(g.tower) == 3
    assert "-2 on 7 makes 5: the tower stands at 5" in text
    assert g.to_move == BOB
    assert g.is_legal(Play(BOB, HAND, ("x",))) is False
    g2 = pos(tower=["7", "-2"], hands={"Ann": ["5", "6"]})
    assert g2.threshold == 5
    assert "5 on 5" in play(g2, ANN, ["5"])
    g3 = pos(tower=["7", "-2"], hands={"Ann": ["6", "2"]})
    assert "higher, so the tower falls" in play(g3, ANN, ["6"])


def test_three_minus_twos_on_a_seven_make_one(  # U-1
) -> None:
    g = pos(tower=["7"], hands={"Ann": ["-2", "-2", "-2", "4"]})
    text = play(g, ANN, ["-2", "-2", "-2"])
    assert "Three -2 on 7 make 1: the tower stands at 1" in text
    assert g.threshold == 1 and len(g.tower) == 4 and g.to_move == BOB


def test_the_disposal_card_played_first_removes_only_itself() -> None:
    g = pos(hands={"Ann": ["D", "9", "4"]}, founding=True)
    removed = len(g.removed)
    text = play(g, ANN, ["disposal"])
    assert "Disposal on an empty tower: only the disposal card leaves the game; Ann starts again" in text
    assert len(g.removed) == removed + 1 and g.tower == ()
    assert g.to_move == ANN and g.founding  # Ann starts another tower
    play(g, ANN, ["9"])
    assert g.tower and g.threshold == 9 and g.to_move == BOB


def test_victorias_scores_78_then_68_after_winning_the_second_round() -> None:
    """The rulebook: Victoria had 78 after the first round, won the second with the bonus of
    10: 68 after the second round."""
    first = RoundScore(1, 1, 10, (78, -10, 40), (78, 0, 40), (False,) * 3)
    g = UpState.position(UpDescription(
        ("Victoria", "Max", "Ida"),
        round=2,
        totals={"Victoria": 78, "Max": 0, "Ida": 40},
        table=[first],
        hands={"Victoria": ["5"], "Max": ["11", "-2"], "Ida": ["1", "D"]},
        up={"Max": ["3"]},
        down={"Ida": ["7"]},
        tower=["9", "6"],
        to_move="Victoria",
    ))
    text = g.play(Play(0, HAND, card(g, 0, "5")))
    out = g.outcome()
    assert out is not None and out.termination == "out" and out.winners == (0,)
    assert out.scores == (68, 34, 98)  # Max: 11 + 20 (-2) + 3; Ida: 40 + 1 + 50 (disposal) + 7
    assert "Victoria went out: −10 (78 → 68)" in text
    assert "Max 34 points (34 in all)" in text and "Ida 58 points (98 in all)" in text
    row = g.round_score()
    assert row == RoundScore(2, 0, 10, (-10, 34, 58), (68, 34, 98), (False,) * 3)
    view = g.view(None)
    assert [r.round for r in view.table] == [1, 2] and view.totals == (68, 34, 98)


# --- U-1 ... U-17 ---------------------------------------------------------------------------------


def test_u1_three_minus_twos_on_a_five_bring_the_tower_down_with_them() -> None:
    g = pos(tower=["9", "5"], hands={"Ann": ["-2", "-2", "-2", "4"]})
    text = play(g, ANN, ["-2", "-2", "-2"])
    assert "Three -2 on 5 make -1, below 1 (U-1): the tower falls." in text
    assert "Ann takes 5 cards" in text
    assert g.tower == () and g.founding and g.to_move == ANN
    assert sorted(g.view(ANN).own_hand) == sorted(["4", "9", "5", "-2", "-2", "-2"])


def test_u1_two_minus_twos_added_one_by_one_count_together() -> None:
    g = pos(tower=["5"], hands={"Ann": ["-2", "-2", "-2", "8"]})
    a, b, c = card(g, ANN, "-2", n=3)
    g.play(Play(ANN, HAND, (a,)))
    assert g.threshold == 3 and g.to_move == BOB
    text = g.play(Join(ANN, b))
    assert "Ann adds a card to the play: Ann plays two -2 from hand. Two -2 on 5 make 1" in text
    assert g.threshold == 1 and g.to_move == BOB
    text = g.play(Join(ANN, c))
    assert "Three -2 on 5 make -1, below 1 (U-1)" in text and g.to_move == ANN and g.founding
    g.undo()
    assert g.threshold == 1  # the join is taken back on its own


def test_u2_a_minus_two_cannot_start_a_tower() -> None:
    g = pos(hands={"Ann": ["-2", "8"]}, up={"Ann": ["-2"]}, founding=True)
    err = refused(g, Play(ANN, HAND, card(g, ANN, "-2")), "U-2")
    assert "A -2 cannot start a tower" in err.message and "back into your hand" in (err.correction or "")
    refused(g, Play(ANN, UP, card(g, ANN, "-2", UP)), "U-2")


def test_u2_a_face_down_minus_two_turned_as_a_foundation_goes_into_the_hand() -> None:
    g = pos(hands={"Ann": ["8"]}, down={"Ann": ["-2", "6"]}, founding=True)
    text = g.play(Play(ANN, DOWN, card(g, ANN, "-2", DOWN)))
    assert "A -2 cannot start a tower (U-2): Ann takes it into hand and lays another card" in text
    assert g.to_move == ANN and g.founding and g.tower == ()
    assert g.view(ANN).own_hand == ("8", "-2")
    play(g, ANN, ["8"])
    assert g.to_move == BOB


def test_u3_a_minus_two_or_disposal_may_be_played_when_a_number_fits() -> None:
    g = pos(tower=["9"], hands={"Ann": ["5", "-2", "D"]})
    assert g.is_legal(Play(ANN, HAND, card(g, ANN, "5")))
    assert g.is_legal(Play(ANN, HAND, card(g, ANN, "-2")))
    assert g.is_legal(Play(ANN, HAND, card(g, ANN, "disposal")))
    text = play(g, ANN, ["disposal"])
    assert "the tower is out of the game (2 cards)" in text and g.to_move == ANN


def test_u4_face_down_cards_one_at_a_time() -> None:
    g = pos(tower=["9"], hands={"Ann": ["2"]}, down={"Ann": ["4", "4"]})
    err = refused(g, Play(ANN, DOWN, card(g, ANN, "4", DOWN, 2)), "U-4")
    assert "one at a time" in err.message
    a, b = card(g, ANN, "4", DOWN, 2)
    g.play(Play(ANN, DOWN, (a,)))
    err = refused(g, Join(ANN, b), "U-4")
    assert "no card joins a face-down card" in err.message


def test_u4_two_face_down_cards_are_refused_whatever_they_show() -> None:
    # hand 10 and 11, four face-down cards of different values, tower 5, past the first turn
    g = pos(tower=["5"], hands={"Ann": ["10", "11"]}, down={"Ann": ["3", "8", "9", "2"]})
    two = (card(g, ANN, "3", DOWN)[0], card(g, ANN, "8", DOWN)[0])
    err = refused(g, Play(ANN, DOWN, two), "U-4")
    assert err.message == "Blind cards are played one at a time."
    equal = pos(tower=["5"], hands={"Ann": ["10"]}, down={"Ann": ["4", "4"]})
    assert refused(equal, Play(ANN, DOWN, card(equal, ANN, "4", DOWN, 2)), "U-4").message == err.message
    # in a first turn the hand-only rule comes first (U-12)
    first = pos(tower=["5"], hands={"Ann": ["10", "11"]}, down={"Ann": ["3", "8"]}, first_turn=["Ann"])
    two = (card(first, ANN, "3", DOWN)[0], card(first, ANN, "8", DOWN)[0])
    assert "every card comes from the hand" in refused(first, Play(ANN, DOWN, two), "U-12").message


def test_u5_a_face_down_disposal_as_foundation_removes_itself() -> None:
    g = pos(hands={"Ann": ["8"]}, down={"Ann": ["D", "3"]}, founding=True)
    removed = len(g.removed)
    text = g.play(Play(ANN, DOWN, card(g, ANN, "disposal", DOWN)))
    assert "only the disposal card leaves the game; Ann starts again (U-5)" in text
    assert len(g.removed) == removed + 1 and g.to_move == ANN and g.founding


def test_u6_last_card_counts_every_card_a_player_holds() -> None:
    # hand 2, face down 2: playing one hand card leaves 3, no call
    g = pos(tower=["9"], hands={"Ann": ["5", "3"]}, down={"Ann": ["8", "7"]})
    play(g, ANN, ["5"])
    assert g.call_due is None
    # hand 2, face down 1: the second hand card leaves one card (face down): due
    g = pos(tower=["9"], hands={"Ann": ["5", "3"]}, down={"Ann": ["8"]})
    play(g, ANN, ["5"])
    assert g.call_due is None
    g = pos(tower=["9"], hands={"Ann": ["5"]}, down={"Ann": ["8"]})
    text = play(g, ANN, ["5"])
    assert g.call_due == ANN and "Ann has one card left: 'last card' is due" in text
    refused(g, Call(BOB), "U-6")
    assert "Ann calls 'last card' (U-6)" in g.play(Call(ANN))
    assert g.call_due is None
    refused(g, Call(ANN), "U-6")


def test_u6_going_out_with_several_equal_cards_needs_no_call() -> None:
    g = pos(tower=["9"], hands={"Ann": ["5", "5"], "Bob": ["3"]})
    text = play(g, ANN, ["5", "5"])
    assert g.is_terminal() and "Ann has played every card" in text and "last card" not in text


def test_u7_a_total_never_drops_below_zero() -> None:
    g = pos(tower=["9"], hands={"Ann": ["5"], "Bob": ["3"]}, totals={"Ann": 4, "Bob": 20})
    text = play(g, ANN, ["5"])
    out = g.outcome()
    assert out is not None and out.scores[ANN] == 0 and out.scores[BOB] == 23
    assert "Ann went out: −10 (4 → 0, never below 0: U-7)" in text
    assert g.round_score().points[ANN] == -10


def _finish(totals: dict[str, int], variant: Variant) -> UpState:
    g = UpState.position(UpDescription(
        NAMES,
        hands={"Ann": ["5"], "Bob": ["6"], "Cy": ["1"]},
        tower=["9"],
        to_move="Ann",
        totals=totals,
        variant=variant,
    ))
    g.play(Play(ANN, HAND, card(g, ANN, "5")))
    return g


def test_u8_up300_ends_the_evening_above_300_not_at_300() -> None:
    at = _finish({"Bob": 294, "Cy": 10}, Variant(up300=True))
    out = at.outcome()
    assert out is not None and out.scores == (0, 300, 11) and out.termination == "out"
    above = _finish({"Bob": 295, "Cy": 10}, Variant(up300=True))
    out = above.outcome()
    assert out is not None and out.scores == (0, 301, 11) and out.termination == "up300"
    assert out.winners == (ANN,)
    assert "Up300: Bob passed 300 (U-8): the evening is over. Ann wins the evening with 0 points." in above.verdict
    nxt = above.next_round()
    assert nxt.view(None).evening == 2 and nxt.totals == (0, 0, 0) and nxt.table == ()
    without = _finish({"Bob": 400, "Cy": 10}, Variant())
    assert without.outcome() is not None and without.outcome().termination == "out"  # type: ignore[union-attr]


def test_u9_the_leader_announces_the_dirty_one_before_the_first_card() -> None:
    g = UpState.new(NAMES, rng=1)
    g.play(Cut(None))
    leader = g.leader
    other = (leader + 1) % 3
    refused(g, DirtyOne(other), "U-9")
    assert "this round we play with the dirty One" in g.play(DirtyOne(leader))
    assert g.dirty() and g.view(None).dirty_announced
    refused(g, DirtyOne(leader), "U-9")
    late = UpState.new(NAMES, rng=1)
    late.play(Cut(None))
    late.play(Play(late.leader, HAND, (late.hand(late.leader)[-1],)))
    err = refused(late, DirtyOne(late.leader), "U-9")
    assert "before the round's first card" in err.message
    evening = UpState.new(NAMES, rng=1, variant=Variant(dirty_one=True))
    evening.play(Cut(None))
    refused(evening, DirtyOne(evening.leader), "U-9")


def test_u9_a_dirty_one_counts_thirty_for_that_round_only() -> None:
    g = pos(tower=["9"], hands={"Ann": ["5"], "Bob": ["1", "1"], "Cy": ["2"]}, dirty_round=True)
    assert g.dirty() and g.view(None).dirty_announced
    play(g, ANN, ["5"])
    assert g.round_score().points == (-10, 60, 2)
    nxt = g.next_round()
    assert not nxt.dirty()


def test_u10_without_minus_two_only_a_disposal_card_is_kept() -> None:
    v = Variant(without_minus2=True)
    g = UpState.new(NAMES, variant=v, observed=True)
    assert len(g.deck) == 36 and not any("-2" in c for c in g.deck)
    err = refused(g, Cut("A-2"), "U-10")
    assert "only a disposal card may be kept" in err.message
    refused(g, Cut("A7"), "cut")
    g.play(Cut("AD"))
    for _ in range(12):
        seat = g.deal_next()
        assert seat is not None
        g.play(DealUp(seat, g.unseen_cards()[0]))
    view = g.view(None)
    keeper = view.cutter
    # the keeper is dealt 3 hand cards and holds the disposal card: 4 in hand like everyone
    assert [p.hand for p in view.players] == [4, 4, 4]
    assert view.unseen == tuple(7 if s == keeper else 8 for s in range(3))
    assert [g.holding(s) for s in range(3)] == [12, 12, 12] and g.card_count() == 36
    engine_dealt = UpState.new(NAMES, variant=v, rng=5)
    engine_dealt.play(Cut(None))
    assert all(engine_dealt.holding(s) == 12 for s in range(3))
    assert {len(engine_dealt.hand(s)) for s in range(3)} == {4}


def test_u11_a_forgotten_call_skips_the_next_turn() -> None:
    g = pos(tower=["9"], hands={"Ann": ["8", "2"], "Bob": ["7", "6", "2"], "Cy": ["5", "4", "3"]})
    play(g, ANN, ["8"])
    assert g.call_due == ANN
    text = play(g, BOB, ["7"])
    assert "Ann did not call 'last card' before Bob's card: Ann's next turn is skipped (U-11)." in text
    assert g.view(None).players[ANN].skip
    refused(g, Call(ANN), "U-11")  # too late
    text = play(g, CY, ["5"])
    assert "Ann's turn is skipped (U-11): Bob's turn." in text
    assert g.to_move == BOB and not g.view(None).players[ANN].skip


def test_u11_a_call_before_the_next_card_avoids_the_skip() -> None:
    g = pos(tower=["9"], hands={"Ann": ["8", "2"], "Bob": ["7", "6"], "Cy": ["5", "4", "3"]})
    play(g, ANN, ["8"])
    g.play(Call(ANN))
    text = play(g, BOB, ["7"])
    assert "did not call" not in text and not g.view(None).players[ANN].skip
    play(g, CY, ["5"])
    assert g.to_move == ANN


def test_u11_the_skip_stays_whatever_happens_to_the_cards_meanwhile() -> None:
    # Ann forgets; Bob brings the tower down and lays a foundation; Cy plays: Ann is skipped
    g = pos(tower=["3"], hands={"Ann": ["2", "9"], "Bob": ["10", "8"], "Cy": ["5", "4"]})
    play(g, ANN, ["2"])
    play(g, BOB, ["10"])  # 10 on 2: the tower falls, Bob takes it
    assert g.to_move == BOB and g.view(None).players[ANN].skip
    play(g, BOB, ["10"])  # the new foundation
    text = play(g, CY, ["5"])
    assert "Ann's turn is skipped (U-11)" in text and g.to_move == BOB


def two(**kw: object) -> UpState:
    """The issue's two players: Ann (P) and Bob (Q)."""
    return UpState.position(UpDescription(("Ann", "Bob"), **kw))  # type: ignore[arg-type]


def test_u20_two_forgotten_calls_each_skip_their_own_next_turn() -> None:
    # P (Ann) holds 8 and 1, Q (Bob) 9 and 2, tower 10, Q to move: neither calls 'last card'
    g = two(tower=["10"], hands={"Ann": ["8", "1"], "Bob": ["9", "2"]}, to_move="Bob")
    play(g, BOB, ["9"])
    assert g.call_due == BOB and g.to_move == ANN
    text = play(g, ANN, ["8"])
    assert "Bob did not call 'last card' before Ann's card: Bob's next turn is skipped (U-11)." in text
    assert (
        "Bob's turn is skipped (U-11). Ann has not called 'last card' and would play next: "
        "Ann's turn is skipped too, unless Ann calls before Bob's card (U-20). Bob's turn."
    ) in text
    assert [x.rule for x in g.said if x.kind == "skip"] == ["U-20"]
    assert g.to_move == BOB and g.call_due == ANN  # Ann's turn is the one skipped
    text = play(g, BOB, ["2"])  # no second skip for Ann: she has had it
    assert "did not call" not in text
    out = g.outcome()
    assert out is not None and out.winners == (BOB,) and g.holding(ANN) == 1


def test_u20_the_call_before_the_next_card_gives_the_turn_back() -> None:
    g = two(tower=["10"], hands={"Ann": ["8", "1"], "Bob": ["9", "2"]}, to_move="Bob")
    play(g, BOB, ["9"])
    play(g, ANN, ["8"])
    assert g.to_move == BOB and Call(ANN) in g.legal_actions()
    text = g.play(Call(ANN))
    assert text == (
        "Ann calls 'last card' (U-6). It came before Bob's card: Ann's turn is not skipped "
        "after all (U-20)."
    )
    assert g.to_move == ANN and g.call_due is None and not g.view(None).players[BOB].skip
    play(g, ANN, ["1"])
    assert g.is_terminal() and g.finisher == ANN and g.holding(BOB) == 1


def test_u20_the_call_after_the_next_card_is_too_late() -> None:
    normal = two(tower=["10"], hands={"Ann": ["8", "1"], "Bob": ["9", "3", "2"]}, to_move="Bob")
    play(normal, BOB, ["9"])  # Bob still holds two cards: no call due
    play(normal, ANN, ["8"])
    assert normal.to_move == BOB and all(x.rule != "U-20" for x in normal.said)  # plain U-11
    g = two(tower=["10"], hands={"Ann": ["8", "1"], "Bob": ["9", "5", "2"]}, to_move="Ann", skip=["Bob"])
    play(g, ANN, ["8"])
    assert g.to_move == BOB and g.call_due == ANN
    play(g, BOB, ["5"])
    refused(g, Call(ANN), "U-6")
    assert g.to_move == ANN and not g.view(None).players[ANN].skip  # the skip was taken: once


def test_u20_forgotten_calls_one_after_the_other_round_the_table() -> None:
    # Bob forgets, then Cy forgets: each is skipped at their own next turn
    g = pos(
        tower=["11"],
        hands={"Ann": ["10", "3", "4"], "Bob": ["9", "1"], "Cy": ["8", "2"]},
        to_move="Bob",
    )
    play(g, BOB, ["9"])
    text = play(g, CY, ["8"])
    assert "Bob did not call" in text and g.view(None).players[BOB].skip
    text = play(g, ANN, ["4"])
    assert "Cy did not call" in text
    assert "Bob and Cy's turns are skipped (U-11): Ann's turn." in text and g.to_move == ANN


def test_u12_the_first_turn_plays_from_the_hand_only() -> None:
    g = pos(
        tower=["9"],
        hands={"Ann": ["8", "11"]},
        up={"Ann": ["7"]},
        first_turn=["Ann"],
    )
    err = refused(g, Play(ANN, UP, card(g, ANN, "7", UP)), "U-12")
    assert "every card comes from the hand" in err.message and "put the card back face up" in (err.correction or "")
    play(g, ANN, ["11"])  # the tower falls: Ann lays a new foundation, still her first turn
    assert g.founding and g.to_move == ANN and g.first_turn(ANN)
    refused(g, Play(ANN, UP, card(g, ANN, "7", UP)), "U-12")
    play(g, ANN, ["8"])
    assert not g.first_turn(ANN)
    blind = pos(tower=["9"], hands={"Ann": ["8"]}, down={"Ann": ["3"]}, first_turn=["Ann"])
    refused(blind, Play(ANN, DOWN, card(blind, ANN, "3", DOWN)), "U-12")


def test_u13_the_foundation_after_a_fall_ends_the_turn() -> None:
    g = pos(tower=["4"], hands={"Ann": ["6", "9", "9"], "Bob": ["8"]})
    text = play(g, ANN, ["6"])
    assert "Ann takes 2 cards and lays a new foundation; the next player plays on it (U-13)" in text
    assert g.to_move == ANN and g.founding
    play(g, ANN, ["9", "9"])
    assert g.to_move == BOB and g.threshold == 9 and not g.founding


def test_u14_face_down_once_the_face_up_cards_are_gone_even_with_a_hand() -> None:
    g = pos(tower=["9"], hands={"Ann": ["2", "3"]}, up={"Ann": ["5"]}, down={"Ann": ["4"]})
    err = refused(g, Play(ANN, DOWN, card(g, ANN, "4", DOWN)), "U-14")
    assert "still has 1 face up" in err.message
    g2 = pos(tower=["9"], hands={"Ann": ["2", "3"]}, down={"Ann": ["4"]})
    assert g2.may_play_blind(ANN)
    assert "Ann turns a face-down card: 4." in g2.play(Play(ANN, DOWN, card(g2, ANN, "4", DOWN)))


def test_u15_equal_cards_together_come_from_one_source() -> None:
    g = pos(tower=["9"], hands={"Ann": ["7", "2"]}, up={"Ann": ["7"]})
    mixed = (card(g, ANN, "7", UP)[0], card(g, ANN, "7")[0])
    err = refused(g, Play(ANN, UP, mixed), "U-15")
    assert "come from one source" in err.message
    g.play(Play(ANN, HAND, card(g, ANN, "7")))
    err = refused(g, Join(ANN, card(g, ANN, "7", UP)[0]), "U-15")
    assert "this card is from face-up, the play from hand" in err.message


def test_u16_a_last_face_down_minus_two_ends_the_round_anyway() -> None:
    low = pos(tower=["2"], down={"Ann": ["-2"]}, hands={"Bob": ["5"], "Cy": ["4"]})
    text = low.play(Play(ANN, DOWN, card(low, ANN, "-2", DOWN)))
    assert "it was Ann's very last card: it counts as played (U-16)" in text
    out = low.outcome()
    assert out is not None and out.winners == (ANN,) and low.round_score().points == (-80, 5, 4)
    found = pos(founding=True, down={"Ann": ["-2"]}, hands={"Bob": ["5"], "Cy": ["4"]})
    found.play(Play(ANN, DOWN, card(found, ANN, "-2", DOWN)))
    assert found.is_terminal() and found.round_score().bonus == 80


def test_u17_the_bonus_is_eighty_only_after_a_face_down_minus_two() -> None:
    blind = pos(tower=["7"], down={"Ann": ["-2"]}, hands={"Bob": ["5"]}, totals={"Ann": 100})
    text = blind.play(Play(ANN, DOWN, card(blind, ANN, "-2", DOWN)))
    assert "-2 on 7 makes 5" in text and "bonus of 80 for a face-down -2 (U-17)" in text
    assert blind.outcome().scores[ANN] == 20  # type: ignore[union-attr]
    hand = pos(tower=["7"], hands={"Ann": ["-2"], "Bob": ["5"]}, totals={"Ann": 100})
    hand.play(Play(ANN, HAND, card(hand, ANN, "-2")))
    assert hand.outcome().scores[ANN] == 90  # type: ignore[union-attr]
    number = pos(tower=["7"], down={"Ann": ["3"]}, hands={"Bob": ["5"]}, totals={"Ann": 100})
    number.play(Play(ANN, DOWN, card(number, ANN, "3", DOWN)))
    assert number.round_score().bonus == 10


def test_u18_two_disposal_cards_together_clear_the_tower_and_the_player_lays_a_foundation() -> None:
    g = pos(tower=["7", "7"], hands={"Ann": ["3", "6", "11", "D", "D"]})
    removed = len(g.removed)
    tower = g.tower
    both = card(g, ANN, "disposal", n=2)
    text = g.play(Play(ANN, HAND, both))
    assert text == (
        "Ann plays two disposal cards from hand. Disposal: the tower is out of the game (4 "
        "cards); Ann starts again (U-18)."
    )
    assert set(g.removed[removed:]) == {*tower, *both} and len(g.removed) == removed + 4
    assert g.tower == () and g.threshold is None
    assert g.to_move == ANN and g.founding and g.hand(ANN) == g._sorted(card(g, ANN, f)[0] for f in ("3", "6", "11"))
    assert g.said[-1].rule == "U-18"
    play(g, ANN, ["11"])
    assert g.tower and g.threshold == 11 and g.to_move == BOB


def test_u18_disposal_cards_joined_one_by_one_and_on_an_empty_tower() -> None:
    g = pos(tower=["9"], hands={"Ann": ["5", "D", "D", "D"]})
    a, b, c = card(g, ANN, "disposal", n=3)
    removed = len(g.removed)
    g.play(Play(ANN, HAND, (a,)))
    text = g.play(Join(ANN, b))
    assert text.startswith("Ann adds a card to the play: Ann plays two disposal cards from hand.")
    assert "the tower is out of the game (3 cards)" in text
    g.play(Join(ANN, c))
    assert len(g.removed) == removed + 4 and g.hand(ANN) == card(g, ANN, "5") and g.founding
    assert g.card_count() == len(g.deck)
    empty = pos(founding=True, hands={"Ann": ["D", "D", "4"]})
    text = empty.play(Play(ANN, HAND, card(empty, ANN, "disposal", n=2)))
    assert "only the two disposal cards leave the game; Ann starts again (U-18)" in text
    assert empty.to_move == ANN and empty.founding


def test_u18_disposal_cards_from_two_sources_are_u15_and_going_out_with_two_needs_no_call() -> None:
    g = pos(tower=["9"], hands={"Ann": ["D", "4"]}, up={"Ann": ["D"]})
    mixed = (card(g, ANN, "disposal")[0], card(g, ANN, "disposal", UP)[0])
    err = refused(g, Play(ANN, HAND, mixed), "U-15")
    assert "That disposal card is a face-up card of Ann's" in err.message
    g.play(Play(ANN, UP, card(g, ANN, "disposal", UP)))
    refused(g, Join(ANN, card(g, ANN, "disposal")[0]), "U-15")
    out = pos(tower=["9"], hands={"Ann": ["D", "D"], "Bob": ["5"], "Cy": ["4"]})
    out.play(Play(ANN, HAND, card(out, ANN, "disposal", n=2)))
    assert out.is_terminal() and out.finisher == ANN and out.round_score().points == (-10, 5, 4)


def test_u19_with_childrens_card_counting_the_child_who_went_out_writes_zero() -> None:
    cards = Variant(scoring="cards")
    blind = pos(
        variant=cards, tower=["7"], down={"Ann": ["-2"]}, hands={"Bob": ["5", "D"], "Cy": ["4"]},
        up={"Cy": ["11"]}, totals={"Ann": 6, "Bob": 3, "Cy": 0},
    )
    text = blind.play(Play(ANN, DOWN, card(blind, ANN, "-2", DOWN)))
    assert "round 1 is over." in text and "bonus" not in text  # no blind -2 bonus (U-17 is for points)
    row = blind.round_score()
    assert row.finisher == ANN and row.bonus == 0 and row.points == (0, 2, 2)
    assert blind.outcome().scores == (6, 5, 2)  # type: ignore[union-attr]
    assert "Ann went out: 0 (6 in all)" in text and "Bob 2 cards (5 in all)" in text
    hand = pos(variant=cards, tower=["9"], hands={"Ann": ["8"], "Bob": ["5"]})
    hand.play(Play(ANN, HAND, card(hand, ANN, "8")))
    assert hand.round_score().points == (0, 1, 0) and hand.round_score().bonus == 0


# --- the deal and the cut ----------------------------------------------------------------------


def test_the_engine_deals_thirteen_cards_each_the_keeper_one_fewer_in_hand() -> None:
    for seed in range(40):
        g = UpState.new(NAMES, rng=seed)
        assert g.cutter == 1 and g.dealer == 2 and g.leader == 0  # the last named deals
        keep = [a for a in g.legal_actions() if isinstance(a, Cut) and a.card is not None]
        g.play(keep[0] if keep else Cut(None))
        for s in range(3):
            assert g.holding(s) == 13 and len(g.face_up(s)) == 4 and len(g.face_down(s)) == 4
            assert len(g.hand(s)) == 5
        if keep:
            assert keep[0].card in g.hand(g.cutter)
            assert "keeps the cut" in g.verdict
        assert g.to_move == 0 and g.founding and g.card_count() == 39
        if keep:
            return
    raise AssertionError("no seed uncovered a -2 or disposal card")


def test_the_cut_keeps_only_a_minus_two_or_a_disposal_card() -> None:
    g = UpState.new(NAMES, observed=True)
    err = refused(g, Cut("A7"), "cut")
    assert "Only a -2 or a disposal card may be kept at the cut, not a 7" in err.message
    assert err.correction == "Bob: put the 7 back into the deck."
    refused(g, Cut("D7"), "deck")  # set D: a fourth set, not in a three-player game
    refused(g, DealUp(0, "A7"), "deal")  # the cut comes first
    g.play(Cut("B-2"))
    assert "B-2" in g.hand(1) and g.phase == "deal"
    refused(g, Cut(None), "cut")


def test_an_observed_deal_takes_the_face_up_cards_in_the_order_of_the_deal() -> None:
    g = UpState.new(NAMES, observed=True, variant=Variant(first_dealer="Ann"))
    assert (g.dealer, g.cutter, g.leader) == (ANN, CY, BOB)
    g.play(Cut(None))
    order = [BOB, CY, ANN] * 4
    cards = ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "B1"]
    refused(g, DealUp(ANN, "A1"), "deal")
    for k, (seat, c) in enumerate(zip(order, cards, strict=True)):
        assert g.deal_next() == seat and g.current_player() == seat
        if k == 3:
            refused(g, DealUp(seat, "A1"), "deal")  # dealt already
        g.play(DealUp(seat, c))
    assert g.phase == "play" and g.to_move == BOB and g.founding
    view = g.view(None)
    # Bob got the 1st, 4th, 7th and 10th card; Ann (the dealer) every third from the 3rd
    assert [p.up for p in view.players] == [("1", "3", "6", "9"), ("1", "4", "7", "10"), ("2", "5", "8", "11")]
    assert [(p.hand, p.down) for p in view.players] == [(5, 4)] * 3
    assert view.unseen == (9, 9, 9) and g.card_count() == 39
    assert len(g.unseen_cards()) == 27


# --- the other refusals ----------------------------------------------------------------------------


def test_other_refusals_name_their_rule_and_change_nothing() -> None:
    g = pos(tower=["9"], hands={"Ann": ["7", "5", "D"], "Bob": ["4"]}, up={"Cy": ["6"], "Ann": ["D"]})
    refused(g, Play(BOB, HAND, card(g, BOB, "4")), "turn")
    err = refused(g, Play(ANN, UP, card(g, CY, "6", UP)), "turn")
    assert "one of Cy's face-up cards" in err.message
    refused(g, Play(ANN, HAND, (card(g, ANN, "7")[0], card(g, ANN, "5")[0])), "equal")
    refused(g, Play(ANN, HAND, (card(g, ANN, "disposal")[0], card(g, ANN, "disposal", UP)[0])), "U-15")  # U-18: two disposal cards may go together, from one source
    refused(g, Play(ANN, UP, card(g, ANN, "7")), "source")
    refused(g, Play(ANN, HAND, ("D9",)), "deck")
    refused(g, Play(ANN, "pocket", card(g, ANN, "7")), "source")
    refused(g, Play(ANN, HAND, (g.tower[0],)), "count")
    refused(g, Play(ANN, HAND, card(g, BOB, "4")), "count")
    refused(g, Join(ANN, card(g, ANN, "7")[0]), "join")
    refused(g, Pass(ANN), "pass")
    refused(g, Reveal(ANN, "A1"), "count")
    refused(g, Points(ANN, 3), "count")
    refused(g, DealUp(ANN, "A1"), "deal")
    refused(g, Cut(None), "cut")
    play(g, ANN, ["5"])
    refused(g, Join(ANN, card(g, BOB, "4")[0]), "equal")


def test_pass_when_nothing_can_start_a_tower_and_blocked_when_nobody_can() -> None:
    g = pos(founding=True, hands={"Ann": ["-2"], "Bob": ["-2"], "Cy": ["7", "8"]})
    assert g.legal_actions() == [Pass(ANN)]
    text = g.play(Pass(ANN))
    assert text == "Ann cannot start a tower: only -2 cards. Bob lays the foundation."
    assert g.to_move == BOB and g.founding
    g.play(Pass(BOB))
    refused(g, Pass(CY), "pass")
    play(g, CY, ["8"])
    assert g.to_move == ANN and not g.founding
    blocked = pos(founding=True, hands={"Ann": ["-2"], "Bob": ["-2"], "Cy": ["-2"]})
    for seat in (ANN, BOB):
        blocked.play(Pass(seat))
    text = blocked.play(Pass(CY))
    out = blocked.outcome()
    assert out is not None and out.termination == "blocked" and out.winners == ()
    assert "Nobody can start a tower" in text and out.scores == (20, 20, 20)


def test_evening_rounds_carry_the_totals_and_pass_the_deal_left() -> None:
    g = _finish({"Ann": 10, "Bob": 20, "Cy": 30}, Variant(rounds=2))
    assert g.outcome().termination == "out"  # type: ignore[union-attr]
    nxt = g.next_round()
    assert nxt.round == 2 and nxt.totals == (0, 26, 31)
    assert nxt.dealer == (g.dealer + 1) % 3 and [r.round for r in nxt.table] == [1]
    assert nxt.game_number == g.game_number + 1
    nxt.play(Cut(None))
    while not nxt.is_terminal():
        nxt.apply(nxt.legal_actions()[-1])
    out = nxt.outcome()
    assert out is not None and out.termination == "rounds"
    assert "That was round 2 of 2: the evening is over." in nxt.verdict
    assert out.winners == tuple(p for p in range(3) if out.scores[p] == min(out.scores))


@pytest.mark.parametrize(
    ("scoring", "points", "totals"),
    [("cards", (0, 2, 3), (5, 8, 3)), ("tokens", (1, 0, 0), (6, 6, 0))],
)
def test_childrens_scoring(scoring: str, points: tuple[int, ...], totals: tuple[int, ...]) -> None:
    g = UpState.position(UpDescription(
        NAMES,
        hands={"Ann": ["5"], "Bob": ["6", "11"], "Cy": ["D"]},
        up={"Cy": ["2", "3"]},
        tower=["9"],
        to_move="Ann",
        totals={"Ann": 5, "Bob": 6},
        variant=Variant(scoring=scoring),
    ))
    g.play(Play(ANN, HAND, card(g, ANN, "5")))
    assert g.round_score().points == points and g.outcome().scores == totals  # type: ignore[union-attr]


def test_variants_travel_as_data_and_refuse_what_does_not_go_together() -> None:
    v = Variant(up300=True, dirty_one=True, without_minus2=True, rounds=None, sets="ACE", first_dealer="Bob")
    assert Variant.from_dict(v.to_dict()) == v
    assert v.describe() == "Up300, dirty One, without -2"
    assert Variant().describe() == "basic game"
    assert Variant(scoring="tokens", rounds=3).describe() == "3 rounds, children: a token per round won"
    for bad in (
        {"scoring": "goals"},
        {"rounds": 0},
        {"sets": "AAB"},
        {"sets": "ab"},
        {"up300": True, "scoring": "cards"},
        {"dirty_one": True, "scoring": "tokens"},
    ):
        with pytest.raises(ValueError):
            Variant.from_dict(bad)
    with pytest.raises(ValueError, match="2 to 10 players"):
        UpState.new(["Ann"])
    with pytest.raises(ValueError, match="one set per player"):
        UpState.new(NAMES, variant=Variant(sets="AB"))
    with pytest.raises(ValueError, match="no set K"):
        UpState.new(NAMES, variant=Variant(sets="ABK"))
    with pytest.raises(ValueError, match="not one of the players"):
        UpState.new(NAMES, variant=Variant(first_dealer="Zoe"))
    g = UpState.new(NAMES, variant=Variant(sets="CEJ"))
    assert {c[0] for c in g.deck} == {"C", "E", "J"}


def test_actions_have_a_text_form() -> None:
    for a in (
        Cut(None), Cut("AD"), DealUp(1, "B7"), Play(0, HAND, ("A7", "B7")), Join(0, "C7"),
        Call(2), Pass(0), DirtyOne(1), Reveal(1, "A3"), Points(1, 35),
    ):
        assert parse_action(format_action(a)) == a
    with pytest.raises(ValueError, match="not an Up action"):
        parse_action("dance 3")


def test_the_public_view_holds_counts_not_cards() -> None:
    g = pos(tower=["9"], hands={"Ann": ["7", "5"]}, up={"Ann": ["11"]}, down={"Ann": ["3", "4"]})
    view = g.view(None)
    ann = view.players[ANN]
    assert (ann.hand, ann.up, ann.down, ann.cards) == (2, ("11",), 2, 5)
    assert view.own_hand == () and view.seat is None
    own = g.view(ANN)
    assert own.own_hand == ("5", "7") and own.seat == ANN
    with pytest.raises(ValueError):
        g.view(7)


def test_the_bookkeeping_refuses_more_unseen_cards_than_a_hand_holds() -> None:
    names = [f"P{i}" for i in range(10)]
    g = UpState.new(names, observed=True)
    g.play(Cut(None))
    for _ in range(40):
        seat = g.deal_next()
        assert seat is not None
        g.play(DealUp(seat, next(c for c in g.unseen_cards() if not c.endswith("7"))))
    sevens = tuple(c for c in g.unseen_cards() if c.endswith("7") and not c.endswith("-7"))[:6]
    assert g.hand_unseen(0) == 5 and len(sevens) == 6
    err = refused(g, Play(0, HAND, sevens), "count")
    assert err.message == "P0 holds only 5 hand cards the referee has not seen: that play does not add up."
    g.play(Play(0, HAND, sevens[:5]))
    assert g.view(None).players[0].hand == 0 and g.call_due is None


def test_a_card_joined_to_a_play_repeats_no_skip() -> None:
    g = pos(tower=["9"], hands={"Ann": ["8", "8", "8", "2"], "Bob": ["7", "6"], "Cy": ["5", "4"]}, skip=["Bob"])
    a, b, c = card(g, ANN, "8", n=3)
    text = g.play(Play(ANN, HAND, (a,)))
    assert text.endswith("Bob's turn is skipped (U-11): Cy's turn.")
    for extra in (b, c):
        text = g.play(Join(ANN, extra))
        assert "skipped" not in text and g.to_move == CY


@pytest.mark.parametrize(
    ("description", "says"),
    [
        (UpDescription(NAMES, hands={"Ann": ["A5"]}, up={"Bob": ["A5"]}), "no free card 'A5'"),
        (UpDescription(NAMES, hands={"Ann": ["99"]}), "no free card '99'"),
        (UpDescription(NAMES, down={"Zoe": ["5"]}), "'Zoe' is not one of the players Ann, Bob and Cy"),
        (UpDescription(NAMES, to_move="Zoe"), "'Zoe' is not one of the players"),
    ],
)
def test_a_described_round_that_does_not_fit_is_refused_by_what_is_wrong(
    description: UpDescription, says: str
) -> None:
    """A worked example with a card placed twice, a face the deck has no more of, or a name
    that is no player's is refused with the card or the name in the message."""
    with pytest.raises(ValueError, match=re.escape(says)):
        UpState.position(description)
