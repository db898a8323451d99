"""Up And Down rules: setup, turns, every ruling M-1 ... M-13, the variants and the rulebook's
worked example."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest
from updown_play import (
    board_one_turn_before,
    board_showing,
    deal_all,
    flip_of,
    subset_catalogue,
    unturned,
)
from upref.games.base import CHANCE, TERMINAL, IllegalMoveError
from upref.games.updown.actions import Action, DrawTask, EndTurn, Reinsert
from upref.games.updown.cards import load_catalogue, parse_catalogue
from upref.games.updown.engine import Termination, UpDownState
from upref.games.updown.position import Board, make_board, mix_board
from upref.games.updown.variant import Variant

CATALOGUE = load_catalogue()


def t07(c: dict[str, int]) -> bool:
    return c["K"] == 3 and c["R"] == 1


T07_IN_ONE = board_one_turn_before(t07)  # a board from which three flips show 3 black, 1 red


def new_game(
    cards: list[str],
    draws: list[str],
    board: Board | None = None,
    players: tuple[str, ...] = ("Ann", "Bob"),
    seed: int = 0,
    variant: Variant | None = None,
) -> UpDownState:
    """A game on a subset deck, each seat drawing the named card."""
    game = UpDownState.new(
        list(players),
        board,
        rng=seed,
        variant=variant,
        catalogue=subset_catalogue(cards),
    )
    for seat, card in enumerate(draws):
        game.play(DrawTask(seat, card))
    return game


def find_turn(game: UpDownState, want: Callable[[dict[str, int]], bool]) -> tuple[int, ...] | None:
    """Three holes whose flips leave visible counts for which `want` holds."""
    for combo in itertools.combinations(range(1, 11), 3):
        trial = game.clone()
        for h in combo:
            trial.apply(flip_of(trial, h))
        if want(trial.visible_counts()):
            return combo
    return None


def turn(game: UpDownState, holes: tuple[int, ...]) -> str:
    for h in holes:
        game.play(flip_of(game, h))
    return game.play(EndTurn())


def refused(game: UpDownState, action: Action) -> IllegalMoveError:
    """Play `action`, expect a refusal, and check nothing changed."""
    before = (game._snapshot(), game.view(0), game.can_undo())
    with pytest.raises(IllegalMoveError) as info:
        game.play(action)
    assert (game._snapshot(), game.view(0), game.can_undo()) == before
    assert not game.is_legal(action)
    with pytest.raises(IllegalMoveError):
        game.apply(action)
    assert (game._snapshot(), game.view(0), game.can_undo()) == before
    return info.value


# --- setup ---------------------------------------------------------------------------------


def test_setup_stack_order_basic_game() -> None:
    game = UpDownState.new(["Ann", "Bob"], rng=1)
    shovels = [CATALOGUE.card(c).shovels for c in game.stack]
    assert shovels == [1] * 6 + [2] * 9 + [3] * 9  # top first: 1, then 2, then 3 at the bottom
    assert game.set_aside == ("T25", "T26", "T27", "T28", "T29", "T30")
    assert game.current_player() == CHANCE
    again = UpDownState.new(["Ann", "Bob"], rng=1)
    assert again.stack == game.stack and again.board == game.board
    other = UpDownState.new(["Ann", "Bob"], rng=2)
    assert other.stack != game.stack  # shuffled within each group by the rng


def test_super_buddler_stack_order() -> None:
    game = UpDownState.new(["Ann", "Bob"], rng=1, variant=Variant(super_buddler=True))
    shovels = [CATALOGUE.card(c).shovels for c in game.stack]
    assert shovels == [2] * 9 + [3] * 9 + [4] * 6  # 4 at the bottom, then 3, 2 on top
    assert game.set_aside == ("T01", "T02", "T03", "T04", "T05", "T06")
    err = refused(game, DrawTask(0, "T01"))
    assert err.rule == "setup" and "Super Buddler" in err.message


def test_each_player_draws_one_card_in_seat_order_then_seat_0_begins() -> None:
    game = UpDownState.new(["Ann", "Bob", "Cy"], rng=4)
    for seat in range(3):
        assert game.current_player() == CHANCE
        outcomes = game.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        assert {a.seat for a, _ in outcomes} == {seat}
        assert all(CATALOGUE.card(a.card).shovels == 1 for a, _ in outcomes)
        game.play(game.deal_action())
    assert game.current_player() == 0
    assert all(game.task(s) is not None for s in range(3))
    assert len(game.stack) == 24 - 3


def test_draws_follow_the_physical_stack() -> None:
    game = UpDownState.new(["Ann", "Bob"], rng=0)
    assert refused(game, DrawTask(1, game.stack[0])).rule == "draw"  # Ann draws first
    err = refused(game, DrawTask(0, "T07"))  # a 2-shovel card while 1-shovel cards lie on top
    assert "2 shovels" in err.message and "1-shovel" in err.message
    assert refused(game, DrawTask(0, "T99")).rule == "draw"
    game.play(DrawTask(0, "T03"))  # any card of the top group: the reader decides
    err = refused(game, DrawTask(1, "T03"))  # Ann's secret card: not said whose
    assert err.message == "That card is not on the stack." and "Ann" not in err.message
    assert (
        game.play(DrawTask(1, "T05"))
        == "Bob drew a task card. Ann's turn: turn three different pairs."
    )


def test_board_from_the_sensors_is_validated() -> None:
    board = mix_board(random.Random(3))
    assert make_board(board) == board
    assert make_board({h: board[h - 1] for h in range(1, 11)}) == board
    with pytest.raises(ValueError, match="10 holes"):
        make_board(board[:9])
    with pytest.raises(ValueError, match="more than once"):
        make_board(board[:9] + (board[0],))
    with pytest.raises(ValueError, match="cannot hide"):
        make_board(board[:9] + ((board[9].pair, "G"),))
    with pytest.raises(ValueError, match="missing"):
        make_board({h: board[h - 1] for h in range(1, 10)})
    with pytest.raises(ValueError):
        UpDownState.new([], rng=0)
    with pytest.raises(ValueError):
        UpDownState.new(["Ann", "Ann"], rng=0)


def test_legal_actions_in_a_turn() -> None:
    game = new_game(["T07", "T08"], ["T07", "T08"])
    acts = game.legal_actions()
    assert len(acts) == 10 and acts == sorted(acts)
    assert all(isinstance(a, Reinsert) and a.from_hole == a.to_hole for a in acts)
    for h in (2, 5, 9):
        game.play(flip_of(game, h))
    assert game.legal_actions() == [EndTurn()]


# --- rulings -------------------------------------------------------------------------------


def test_M1_same_pair_turned_twice_is_refused() -> None:
    game = new_game(["T07", "T08"], ["T07", "T08"])
    game.play(flip_of(game, 3))
    err = refused(game, flip_of(game, 3))  # turned back again: the same pair twice
    assert err.rule == "M-1"
    names = {"R": "red", "B": "blue", "Y": "yellow", "W": "white", "K": "black"}
    up = names[game.visible()[2]]
    now = names[game.board[2].hidden]  # turned again: the colour hidden in the game shows
    assert now != up
    # issue 20: the words name what the hole shows now, and what to do
    assert err.message == (
        f"Hole 3 shows {now} now, but its pair was already turned this turn, and a turn needs "
        f"three different pairs: turn it back so that {up} is up again, and choose another pair."
    )
    assert err.correction == f"Turn the pair in hole 3 back so that {up} is up again."
    assert game.turned == (3,)


def test_M1_a_fourth_pair_is_refused() -> None:
    game = new_game(["T07", "T08"], ["T07", "T08"])
    for h in (1, 2, 3):
        game.play(flip_of(game, h))
    err = refused(game, flip_of(game, 4))
    assert err.rule == "M-1"
    assert err.message.startswith("Three pairs are turned already (holes 1, 2 and 3)")
    assert "end the turn" in err.message


def test_M1_and_M2_words_name_what_the_hole_shows_now_and_what_to_do() -> None:
    """Issue 20: the refusals named the colour the game has in the hole, while the hole shows
    the other one; they say what is up now and which colour the fix brings back."""
    names = {"R": "red", "B": "blue", "Y": "yellow", "W": "white", "K": "black"}
    game = new_game(["T07", "T08"], ["T07", "T08"])
    for h in (1, 2, 3):
        game.play(flip_of(game, h))
    e = game.board[3]
    err = refused(game, flip_of(game, 4))
    assert err.message == (
        f"Three pairs are turned already (holes 1, 2 and 3): hole 4 shows {names[e.hidden]} "
        "now, but its pair may not be turned as well. Turn the pair in hole 4 back so that "
        f"{names[e.visible]} is up again, and end the turn."
    )
    game = new_game(["T07", "T08"], ["T07", "T08"])
    e = game.board[2]
    err = refused(game, Reinsert(3, 7, e.pair, e.visible))  # in hole 7, its hidden colour up
    assert err.message == (
        f"The pair from hole 3 went into hole 7 ({names[e.hidden]} up now), but a pair must go "
        "back into its own molehill: put it back in hole 3."
    )


def test_m14_a_flip_after_a_refused_second_flip_counts_in_its_order() -> None:
    """M-14, position built directly: hole 1 flipped, hole 1 flipped again (refused, M-1: the
    game keeps hole 1 turned once), then hole 2: the turn's second flip. The correction of hole
    1 is the table's to make (the referee keeps it due); the game counts 1 then 2."""
    game = new_game(["T07", "T08"], ["T07", "T08"])
    game.play(flip_of(game, 1))
    assert refused(game, flip_of(game, 1)).rule == "M-1"
    assert game.play(flip_of(game, 2)).endswith("(2 of 3).")
    assert game.turned == (1, 2)
    assert refused(game, EndTurn()).message == (
        "Only 2 of 3 pairs turned: turn one more different pair."
    )


def test_M1_turn_ends_only_after_three_different_pairs() -> None:
    game = new_game(["T07", "T08"], ["T07", "T08"])
    game.play(flip_of(game, 1))
    game.play(flip_of(game, 2))
    err = refused(game, EndTurn())
    assert err.rule == "M-1"
    assert err.message == "Only 2 of 3 pairs turned: turn one more different pair."
    game.play(flip_of(game, 7))
    game.play(EndTurn())
    assert game.current_player() == 1


def test_M2_pair_put_into_another_hole_is_refused() -> None:
    game = new_game(["T07", "T08"], ["T07", "T08"])
    e = game.board[2]
    err = refused(game, Reinsert(3, 7, e.pair, e.visible))
    assert err.rule == "M-2"
    assert "went into hole 7" in err.message and "put it back in hole 3" in err.message
    assert err.correction == "Move the pair from hole 7 back into hole 3."
    assert e.pair not in err.message  # a pair id would reveal its hidden colour
    # Back in its own hole, turned: now it counts.
    assert "(1 of 3)" in game.play(Reinsert(3, 3, e.pair, e.visible))


def test_M3_unturned_reinsert_does_not_count() -> None:
    game = new_game(["T07", "T08"], ["T07", "T08"])
    before = game.board
    action = unturned(game, 4)
    assert game.is_legal(action) and action not in game.legal_actions()
    text = game.play(action)
    assert "not turned, does not count (0 of 3)" in text
    assert game.board == before and game.turned == ()
    game.play(flip_of(game, 4))
    # A turned pair put back as it is now: still one flip.
    assert "put back as it was: it still counts once (1 of 3)" in game.play(unturned(game, 4))
    game.apply(unturned(game, 5))  # apply accepts it too
    assert game.turned == (4,)


def test_M4_turn_cannot_end_while_a_hole_is_empty() -> None:
    game = new_game(["T07", "T08"], ["T07", "T08"])
    for h in (1, 2, 3):
        game.play(flip_of(game, h))
    err = refused(game, EndTurn((6,)))
    assert err.rule == "M-4"
    assert err.message == "Hole 6 is empty: every molehill needs its pair before the turn can end."
    assert err.correction == "Put the pair back into hole 6."
    assert refused(game, EndTurn((6, 2))).message.startswith("Holes 2 and 6 are empty")
    # Two pairs out at once is fine: each re-insertion is processed on its own.
    game.play(EndTurn())


def test_M5_game_ends_when_a_solver_must_draw_from_an_empty_stack() -> None:
    # Three 2-shovel cards, two players: after setup one card is left.
    game = new_game(["T07", "T08", "T09"], ["T07", "T08"], board=T07_IN_ONE, seed=5)
    combo = find_turn(game, t07)
    assert combo is not None
    text = turn(game, combo)
    assert "Ann solved T07" in text and "Ann draws a new task card" in text
    game.play(DrawTask(0, "T09"))
    assert game.stack == () and not game.is_terminal()  # an empty stack alone ends nothing
    # Play on (following the hint) until someone solves with the stack empty.
    while not game.is_terminal():
        seat = game.current_player()
        holes = game.hint()
        assert holes is not None and seat >= 0
        for h in holes:
            game.play(flip_of(game, h))
        game.play(EndTurn())
    out = game.outcome()
    assert out is not None and out.termination == Termination.STACK_EMPTY
    last = game.verdict
    assert "cannot draw a new card from the empty stack: the game ends" in last
    solver = 0 if "Ann solved" in last else 1
    assert len(game.won(solver)) == 2 - (solver == 1)  # the solver keeps the solved card
    assert game.current_player() == TERMINAL and game.legal_actions() == []


def test_M6_only_the_active_players_card_is_checked() -> None:
    def bob_matches_ann_does_not(c: dict[str, int]) -> bool:
        return c["W"] == 1 and c["R"] != 1

    board = board_one_turn_before(bob_matches_ann_does_not)
    game = new_game(["T01", "T04"], ["T01", "T04"], board=board)  # Ann red 1, Bob white 1
    combo = find_turn(game, bob_matches_ann_does_not)
    assert combo is not None
    text = turn(game, combo)
    assert text == "Ann's card does not match yet. Bob's turn."
    bob = game.task(1)
    assert game.won(1) == () and bob is not None and bob.id == "T04"
    # Bob's card counts only after his own turn: he too must turn three pairs first.
    assert refused(game, EndTurn()).rule == "M-1"


def test_M7_a_solved_card_is_won_without_a_claim() -> None:
    game = new_game(["T07", "T08", "T09"], ["T07", "T08"], board=T07_IN_ONE)
    combo = find_turn(game, t07)
    assert combo is not None
    turn(game, combo)
    assert [c.id for c in game.won(0)] == ["T07"] and game.shovels(0) == 2
    assert game.current_player() == CHANCE  # Ann draws a new card


def test_M8_a_tie_in_shovels_is_a_shared_win() -> None:
    game = new_game(["T01", "T04", "T06"], ["T01", "T04"], seed=2)
    while not game.is_terminal():
        if game.current_player() == CHANCE:
            game.play(game.deal_action())
            continue
        holes = game.hint()
        assert holes is not None
        for h in holes:
            game.play(flip_of(game, h))
        game.play(EndTurn())
    out = game.outcome()
    assert out is not None
    assert out.scores == (1, 1)  # this deal ends in a tie
    assert out.winners == (0, 1) and game.returns() == (0.5, 0.5)
    assert "Ann and Bob share the win with 1 shovel each" in game.verdict


def test_M9_play_goes_clockwise_from_seat_0() -> None:
    game = UpDownState.new(
        ["Ann", "Bob", "Cy"],
        rng=8,
        variant=Variant(super_buddler=True),
        catalogue=subset_catalogue(["T26", "T27", "T28"]),
    )
    deal_all(game)
    seen = []
    for _ in range(6):
        seen.append(game.current_player())
        for h in (1, 2, 3):
            game.play(flip_of(game, h))
        game.play(EndTurn())  # hard cards: nobody solves in these turns
    assert seen == [0, 1, 2, 0, 1, 2]


def test_M10_mole_mix_counts_box_rotations_only() -> None:
    game = new_game(
        ["T07", "T08", "T09"], ["T07", "T08"], board=T07_IN_ONE, variant=Variant(mole_mix=True)
    )
    plain = new_game(["T07", "T08", "T09"], ["T07", "T08"], board=T07_IN_ONE)
    combo = find_turn(game, t07)
    assert combo is not None
    assert game.rotations == 0 and game.view(None).rotations == 0
    text = turn(game, combo)
    turn(plain, combo)
    assert "Ann turns the box by one corner" in text
    assert game.rotations == 1 and game.view(None).rotations == 1
    assert game.board == plain.board and game.won(0) == plain.won(0)  # no other effect
    assert plain.view(None).rotations is None


def test_M11_impossible_card_is_removed_at_setup() -> None:
    data = {
        "colours": {"R": "red", "B": "blue", "Y": "yellow", "W": "white", "K": "black"},
        "pairs": ["P-RB", "P-RY", "P-RW", "P-RK", "P-BY", "P-BW", "P-BK", "P-YW", "P-YK", "P-WK"],
        "cards": [
            {"id": "T01", "shovels": 1, "counts": {"R": 1}},
            {"id": "T02", "shovels": 1, "counts": {"B": 2}},
            {"id": "T99", "shovels": 2, "counts": {"Y": 0, "W": 0}},
            {"id": "T07", "shovels": 2, "counts": {"K": 3, "R": 1}},
        ],
    }
    with pytest.raises(ValueError, match="T99 asks for yellow 0 and white 0"):
        parse_catalogue(data)
    cat = parse_catalogue(data, strict=False)
    assert [c.id for c, _ in cat.impossible] == ["T99"]
    game = UpDownState.new(["Ann", "Bob"], rng=0, catalogue=cat)
    assert "T99" not in game.stack and game.removed_cards[0][0] == "T99"
    assert "Card T99 removed from the stack (M-11)" in game.verdict
    assert "two colours cannot both show no mole" in game.verdict
    assert game.view(None).removed == ("T99",)
    err = refused(game, DrawTask(0, "T99"))
    assert err.rule == "M-11"


def test_M12_short_game_ends_immediately_after_the_target_card() -> None:
    game = new_game(
        ["T07", "T08", "T09", "T10"],
        ["T07", "T08", "T09"],
        board=T07_IN_ONE,
        players=("Ann", "Bob", "Cy"),
        variant=Variant(short_game_target=1),
    )
    combo = find_turn(game, t07)
    assert combo is not None
    text = turn(game, combo)
    assert game.is_terminal()  # Bob and Cy get no further turn in this round
    out = game.outcome()
    assert out is not None and out.termination == Termination.TARGET
    assert out.winners == (0,) and out.scores == (2, 0, 0)
    assert "has solved 1 card: the game ends (short game)" in text
    assert "Ann is Buddel King with 2 shovels" in text
    assert refused(game, flip_of(game, 1)).rule == "over"


def test_M13_a_card_satisfied_at_setup_still_needs_three_flips() -> None:
    # 3 black and 1 red already show when the game starts.
    game = new_game(["T07", "T08", "T09"], ["T07", "T08"], board=board_showing(t07))
    assert t07(game.visible_counts())
    err = refused(game, EndTurn())
    assert err.rule == "M-1" and "even when the card already matches" in err.message
    # Three flips that break the match: not solved.
    breaking = find_turn(game, lambda c: not (c["K"] == 3 and c["R"] == 1))
    assert breaking is not None
    trial = game.clone()
    assert turn(trial, breaking) == "Ann's card does not match yet. Bob's turn."
    # Three flips that keep it: solved.
    keeping = find_turn(game, t07)
    assert keeping is not None
    assert "Ann solved T07" in turn(game, keeping)


def test_rulebook_example_three_black_and_one_red() -> None:
    card = CATALOGUE.card("T07")
    assert card.describe() == "3 black and 1 red" and card.shovels == 2
    assert card.is_satisfied({"K": 3, "R": 1, "B": 4, "Y": 2, "W": 0})  # others do not matter
    assert card.is_satisfied({"K": 3, "R": 1, "B": 0, "Y": 3, "W": 3})
    assert not card.is_satisfied({"K": 3, "R": 2, "B": 2, "Y": 2, "W": 1})
    assert not card.is_satisfied({"K": 4, "R": 1, "B": 2, "Y": 2, "W": 1})
    # Played: Ann holds the card and turns three pairs so that exactly 3 black and 1 red show.
    game = new_game(["T07", "T08", "T09"], ["T07", "T08"], board=T07_IN_ONE)
    combo = find_turn(game, t07)
    assert combo is not None
    text = turn(game, combo)
    assert text.startswith("Ann solved T07 (3 black and 1 red): +2 shovels, 2 in all.")
    assert game.view(None).players[0].won[0].card == "K3 R1"


# --- other behaviour -----------------------------------------------------------------------


def test_sensor_inconsistencies_are_refused() -> None:
    game = new_game(["T07", "T08"], ["T07", "T08"])
    other = game.board[4].pair
    assert refused(game, Reinsert(3, 3, other, other[2])).rule == "sensor"
    assert refused(game, Reinsert(0, 0, game.board[0].pair, "R")).rule == "sensor"
    assert refused(game, EndTurn((11,))).rule == "sensor"


def test_turn_actions_refused_while_a_card_is_due() -> None:
    game = UpDownState.new(["Ann", "Bob"], rng=0)
    assert refused(game, flip_of(game, 1)).rule == "draw"
    assert refused(game, EndTurn()).rule == "draw"
    deal_all(game)
    assert refused(game, DrawTask(0, game.stack[0])).rule == "draw"


def test_undo_restores_the_state() -> None:
    game = new_game(["T07", "T08"], ["T07", "T08"])
    before = game._snapshot()
    game.play(flip_of(game, 1))
    game.play(unturned(game, 2))
    game.undo()
    game.undo()
    assert game._snapshot() == before
    game.undo()
    game.undo()
    assert game.current_player() == CHANCE and game.task(0) is None
    with pytest.raises(IndexError):
        game.undo()


def test_hint_finds_the_fewest_turns() -> None:
    game = new_game(["T07", "T08", "T09"], ["T07", "T08"], board=T07_IN_ONE)
    detail = game.hint_detail()
    assert detail is not None and detail.solves_now
    holes = game.hint()
    assert holes is not None and len(holes) == 3
    assert "Ann solved T07" in turn(game, holes)


def test_several_games_in_a_row() -> None:
    game = new_game(
        ["T07", "T08", "T09"],
        ["T07", "T08"],
        board=T07_IN_ONE,
        variant=Variant(short_game_target=1),
    )
    combo = find_turn(game, t07)
    assert combo is not None
    turn(game, combo)
    first = game.outcome()
    second = game.next_game()
    assert second.players == ("Ann", "Bob") and second.game_number == 2
    assert second.history == (first,)
    assert second.current_player() == CHANCE and len(second.stack) == 3  # a fresh stack
    assert all(second.task(s) is None and second.won(s) == () for s in range(2))
    assert second.view(None).history[0].winners == (0,)
    third = second.next_game(board=mix_board(random.Random(99)))
    assert third.game_number == 3 and third.board == mix_board(random.Random(99))
    assert third.history == (first,)  # game 2 was not finished
    assert game.next_game().board == second.board  # deterministic re-mix
