"""Upturn's rules, from positions built directly: the rulebook's four worked examples, one test
per ruling T-1 ... T-22, and the basic rules (direction and seat order, the action tiles, the
win). Every refusal names its rule and leaves the state exactly as it was."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from upref.games.base import TERMINAL, IllegalMoveError
from upref.games.upturn.actions import Call, Draw, Gift, Lay, Pass, Start
from upref.games.upturn.engine import UpturnState
from upref.games.upturn.position import DOWN, UP, UpturnDescription
from upref.games.upturn.tiles import load_catalogue, parse_catalogue

CAT = load_catalogue()
ABC = ("Ann", "Bob", "Cy")
ABCD = ("Ann", "Bob", "Cy", "Dee")


def pos(
    racks: Sequence[Sequence[str | int] | int],
    line: Sequence[str | int] = (20,),
    direction: str | None = None,
    players: Sequence[str] = ABC,
    **kw: object,
) -> UpturnState:
    return UpturnState.position(UpturnDescription(
        list(players), line=line, racks=racks, direction=direction, **kw  # type: ignore[arg-type]
    ))


def crowded(
    racks: Sequence[Sequence[str | int]],
    line: Sequence[str | int] = (20, 32),
    pool: int = 0,
    direction: str | None = UP,
    players: Sequence[str] = ABC,
    owing: int | None = None,
) -> UpturnState:
    """A position whose pool holds only `pool` tiles: every other tile lies on the line before
    `line` (so the number to beat is `line`'s); `owing` owes the "one tile left" call."""
    named = {f"N{x}" if isinstance(x, int) else x for r in racks for x in r}
    named |= {f"N{x}" if isinstance(x, int) else x for x in line}
    rest = [t for t in CAT.ids() if t not in named]
    return UpturnState.position(UpturnDescription(
        list(players),
        line=rest[pool:] + list(line),
        racks=racks,
        pool=rest[:pool],
        direction=direction,
        owing=owing,
    ))


def refused(game: UpturnState, action: object, rule: str) -> IllegalMoveError:
    """`action` is refused naming `rule`, and nothing changes."""
    before = (game._snapshot(), len(game._undo_stack))
    with pytest.raises(IllegalMoveError) as info:
        game.play(action)  # type: ignore[arg-type]
    assert info.value.rule == rule, info.value
    assert (game._snapshot(), len(game._undo_stack)) == before
    assert not game.is_legal(action)  # type: ignore[arg-type]
    assert action not in game.legal_actions()
    return info.value


def lay(game: UpturnState, *tiles: str | int) -> str:
    text = ""
    for t in tiles:
        tid = f"N{t}" if isinstance(t, int) else t
        assert Lay(tid) in game.legal_actions(), (tid, game)
        text = game.play(Lay(tid))
    return text


def numbers(tiles: Sequence[str]) -> list[int]:
    return [n for t in tiles if (n := CAT.tile(t).number) is not None]


# --- the rulebook's worked examples ------------------------------------------------------------


def test_example_1_start_20_then_40_sets_up_and_the_next_player_may_lay_41_to_99() -> None:
    game = pos([[40, 7], 9, 9])
    text = lay(game, 40)
    assert game.direction == UP and game.current_player() == 1  # the player on the left
    assert "the direction is up, play passes left (clockwise)" in text
    allowed = {CAT.tile(a.tile).number for a in game.legal_actions() if isinstance(a, Lay)}
    numbered = {n for n in allowed if n is not None}
    assert numbered == {t.number for t in CAT.numbered() if t.number and t.number > 40}
    assert min(numbered) == 41 and max(numbered) == 99
    kinds = {CAT.tile(a.tile).action for a in game.legal_actions() if isinstance(a, Lay)}
    assert kinds == {None, "down", "updown", "skip", "doubleskip", "joker"}  # not Up (T-16)


def test_example_2_after_9_24_32_and_a_direction_change_the_next_is_31_to_1() -> None:
    game = pos([["down", 61], 9, 9], line=(9, 24, 32), direction=UP)
    text = lay(game, "DOWN1")
    assert game.direction == DOWN and game.last_number == 32
    assert game.current_player() == 2  # counter-clockwise: the player on the right
    assert "play goes back to Cy" in text
    numbered = {
        CAT.tile(a.tile).number for a in game.legal_actions() if isinstance(a, Lay)
    } - {None}
    below = {t.number for t in CAT.numbered() if t.number and t.number < 32}
    assert numbered == below - {9, 24}  # every tile from 31 to 1 not yet on the line
    assert max(numbered) == 31 and min(numbered) == 1


def test_example_3_81_86_then_joker_then_20() -> None:
    game = pos([["joker", 20, 64], 9, 9], line=(81, 86), direction=UP)
    lay(game, "JOKER1")
    assert game.direction == DOWN and game.current_player() == 0  # the extra tile is still Ann's
    text = lay(game, 20)
    assert [CAT.tile(t).short for t in game.line] == ["81", "86", "Joker", "20"]
    assert game.last_number == 20 and game.direction == DOWN
    assert game.current_player() == 2 and "Cy's turn: lower than 20" in text


def test_example_4_twin_22_closes_the_line_with_64_48_40_36_and_gives_five() -> None:
    game = pos(
        [[4, 22, 36, 40, 48, 64], 7, 7, 7], line=(54, 63, 71, "down"), direction=DOWN,
        players=ABCD,
    )
    lay(game, 22)
    refused(game, Lay("N4"), "T-7")  # 4 is not between 71 and 22
    lay(game, 64, 48, 40, 36)
    assert numbers(game.line) == [54, 63, 71, 64, 48, 40, 36, 22]
    assert CAT.tile(game.line[3]).action == "down"
    assert game.gifts == 5
    pool = game.pool_count
    game.play(Gift(((1, 2), (2, 2), (3, 1))))  # 2 to player B, 2 to C and 1 to D
    assert game.counts() == (1, 9, 9, 8) and game.pool_count == pool - 5
    assert game.last_number == 22 and game.direction == DOWN  # T-8
    assert game.owing == 0  # one tile left: the call is due (T-13)


# --- one test per ruling -------------------------------------------------------------------------


def test_t1_an_action_tile_turned_up_as_the_starting_tile_goes_back() -> None:
    game = UpturnState.at_table(list(ABC))
    err = refused(game, Start("JOKER1"), "T-1")
    assert "must be a numbered tile" in err.message
    assert err.correction == "Put the Joker back into the pool, mix the pool and turn up another tile."
    game.play(Start("N22"))  # a Twin is fine as the Starting tile, with no effect
    assert game.phase == "turn" and game.last_number == 22 and game.gifts == 0
    assert game.pool_count == 106 - 21 - 1
    # dealt by the engine: the first numbered tile turned up starts; the Joker went back
    seeds = [s for s in range(200) if "(T-1)" in UpturnState.new(list(ABC), rng=s).view(None).verdict]
    assert seeds
    g = UpturnState.new(list(ABC), rng=seeds[0])
    assert CAT.tile(g.line[0]).numbered and g.pool_count == 106 - 21 - 1
    assert g.notes[0].rule == "T-1"


def test_t2_a_twin_as_the_first_move_sets_the_direction_and_may_run() -> None:
    game = pos([[22, 36, 9, 7], 9, 9], line=(40,))
    text = lay(game, 22)
    assert game.direction == DOWN and game.phase == "twin" and game.notes[0].rule == "T-2"
    assert "strictly between 40 and 22" in text
    refused(game, Lay("N9"), "T-7")
    lay(game, 36)
    assert game.gifts == 2
    game.play(Gift(((2, 2),)))
    assert game.counts()[2] == 11 and game.current_player() == 2


def test_t3_a_first_player_without_a_numbered_tile_draws_and_the_next_clockwise_starts() -> None:
    game = pos([["up", "joker", "skip"], 7, 7], line=(40,))
    for t in ("UP1", "JOKER1", "SKIP1"):
        err = refused(game, Lay(t), "T-3")
        assert "first move must be a numbered tile" in err.message
    refused(game, Pass(), "draw")  # the pool holds tiles: draw
    text = game.play(Draw())
    assert game.notes[0].rule == "T-3" and "a numbered tile" in text
    game.play(Pass())
    assert game.direction is None and game.current_player() == 1  # Bob, clockwise
    assert game.counts()[0] == 4
    lay(game, 33)  # Bob's first move
    assert game.direction == DOWN


def test_t3_after_the_draw_a_numbered_tile_may_be_laid() -> None:
    game = pos([5, 7, 7], line=(40,))
    game.play(Draw())
    lay(game, 52)
    assert game.direction == UP and game.current_player() == 1 and game.counts()[0] == 5


def test_t4_after_a_draw_one_legal_play_of_any_kind_even_a_joker_and_its_extra() -> None:
    game = pos([4, 7, 7], line=(40, 61), direction=UP)  # racks counted, as at a table
    game.play(Draw())
    assert game.notes[0].rule == "T-4"
    refused(game, Draw(), "draw")  # one draw a turn
    lay(game, "JOKER1")  # the play after the draw: a Joker ...
    lay(game, 22)  # ... its extra tile a Twin (down, below 61) ...
    lay(game, 55)  # ... and a run tile between 61 and 22
    assert game.gifts == 2
    game.play(Gift(()))
    assert game.current_player() == 2 and game.counts()[0] == 2


def test_t5_every_reversal_gives_the_turn_back_and_with_two_players_to_the_opponent() -> None:
    game = pos([9, ["updown", 7], 9], line=(20, 32), direction=UP, to_move=1)
    text = lay(game, "UD1")
    assert game.direction == DOWN and game.current_player() == 0  # back to Ann, who played before
    assert game.notes[0].rule == "T-5" and "play goes back to Ann" in text
    two = pos([["updown", 7], 9], line=(20, 32), direction=UP, players=("Ann", "Bob"))
    lay(two, "UD1")
    assert two.current_player() == 1  # the opponent: no extra turn


def test_t6_a_joker_may_be_followed_by_an_action_tile_or_nothing() -> None:
    game = pos([["joker", "skip", 9], 9, 9], line=(20, 32), direction=UP)
    lay(game, "JOKER1")
    refused(game, Draw(), "draw")
    text = lay(game, "SKIP1")  # an action tile as the extra tile
    assert game.direction == DOWN  # reversed by the Joker: from Ann, Cy is next ... and skipped
    assert "Cy loses a turn; Bob plays next" in text and game.current_player() == 1
    none = pos([["joker", "up", 7], 9, 9], line=(20, 32), direction=UP)
    lay(none, "JOKER1")
    lay(none, "UP1")  # Up after the Joker turned the direction down: legal, up again
    assert none.direction == UP and none.current_player() == 1  # the final direction decides
    opt = pos([["joker", 7, 8], 9, 9], line=(20, 32), direction=UP)
    lay(opt, "JOKER1")
    text = opt.play(Pass())  # the extra tile is optional
    assert "no extra tile" in text and opt.current_player() == 2 and opt.counts()[0] == 2


def test_t6_joker_then_joker_then_a_twin_run() -> None:
    game = pos([["joker", "joker", 22, 24, 9], 9, 9], line=(20, 32), direction=UP)
    lay(game, "JOKER1", "JOKER2")
    assert game.direction == UP and game.phase == "joker"
    refused(game, Lay("N22"), "T-17")  # up again: the Twin 22 is not higher than 32
    game2 = pos([["joker", 44, 34, 9], 9, 9], line=(40, 32), direction=DOWN)
    lay(game2, "JOKER1", 44, 34)  # the Joker turns it up; Twin 44 above 32, run tile 34
    assert game2.gifts == 2 and game2.phase == "twin"


def test_t7_the_twin_run_is_any_subset_and_n_counts_what_was_laid() -> None:
    game = pos([[44, 40, 38, 36, 9], 9, 9], line=(20, 32), direction=UP)
    lay(game, 44, 38)  # 40 and 36 stay on the rack: the player chooses
    assert game.gifts == 2 and numbers(game.line) == [20, 32, 38, 44]
    err = refused(game, Gift(((1, 3),)), "T-7")
    assert "may give 2 tiles (2 for Twin 44 and 1 run tile)" in err.message
    lay(game, 36)  # tapped out of order: the line keeps the run in order
    assert numbers(game.line) == [20, 32, 36, 38, 44] and game.gifts == 3
    refused(game, Lay("N9"), "T-7")
    game.play(Gift(((1, 1), (2, 2))))
    assert game.counts() == (2, 10, 11)


def test_t8_after_a_twin_run_the_twin_is_the_number_to_beat_and_the_direction_stays() -> None:
    game = pos([[44, 40, 9], 9, 9], line=(20, 32), direction=UP)
    lay(game, 44, 40)
    game.play(Gift(((1, 2),)))
    assert game.last_number == 44 and game.direction == UP and game.current_player() == 1
    assert "Bob's turn: higher than 44" in game.notes[-1].text


def test_t9_the_last_tile_may_not_be_an_action_tile() -> None:
    game = pos([["skip"], 9, 9], line=(20, 32), direction=UP)
    err = refused(game, Lay("SKIP1"), "T-9")
    assert "holds 1 tile" in err.message and "draw instead" in (err.correction or "")
    game.play(Draw())  # a rack of one action tile must draw
    lay(game, "SKIP1")  # now it is not the last tile
    joker = pos([["joker", 12], 9, 9], line=(20, 32), direction=UP)
    lay(joker, "JOKER1")
    refused(joker, Lay("UP1"), "rack")
    lay(joker, 12)  # a Joker and a numbered extra tile that empties the rack: fine
    assert joker.is_terminal() and joker.outcome().winners == (0,)  # type: ignore[union-attr]
    last_action = pos([["joker", "up"], 9, 9], line=(20, 32), direction=UP)
    lay(last_action, "JOKER1")
    refused(last_action, Lay("UP1"), "T-9")  # the extra tile would empty the rack


def test_t10_double_skip_with_three_players_plays_again_with_two_is_a_skip() -> None:
    three = pos([["doubleskip", 9], 9, 9], line=(20, 32), direction=UP)
    text = lay(three, "DSKIP1")
    assert three.current_player() == 0 and "Bob and Cy lose a turn; Ann plays again (T-10)" in text
    assert three.notes[0].rule == "T-10"
    two = pos([["doubleskip", 9], 9], line=(20, 32), direction=UP, players=("Ann", "Bob"))
    text = lay(two, "DSKIP1")
    assert two.current_player() == 0 and "Bob loses a turn; Ann plays again" in text
    four = pos([["doubleskip", 9], 9, 9, 9], line=(40, 32), direction=DOWN, players=ABCD)
    text = lay(four, "DSKIP1")
    assert four.current_player() == 1 and "Dee and Cy lose a turn; Bob plays next" in text


def test_t11_gifts_go_to_others_are_optional_and_limited_by_the_pool() -> None:
    game = pos([[37, 9], 9, 9], line=(20, 32), direction=UP)
    lay(game, 37)  # a penalty tile
    assert game.phase == "gift" and game.gifts == 1
    err = refused(game, Gift(((0, 1),)), "T-11")
    assert "cannot give tiles to Ann" in err.message
    refused(game, Gift(((1, 2),)), "T-11")
    refused(game, Lay("N9"), "gift")
    text = game.play(Gift(()))  # optional
    assert "gives no tiles" in text and game.counts() == (1, 9, 9)
    short = crowded([[44, 40, 38, 9], [8], [7]], pool=2)
    lay(short, 44, 40, 38)
    assert short.gifts == 2  # 3 earned, 2 in the pool
    refused(short, Gift(((1, 4),)), "T-7")  # more than earned
    over = short.clone()  # more than the pool holds: what it holds is given (T-19)
    over.play(Gift(((1, 2), (2, 1))))
    assert over.pool_count == 0 and over.counts() == (1, 3, 1)
    short.play(Gift(((1, 1), (2, 1))))
    assert short.pool_count == 0 and short.counts() == (1, 2, 2)


def test_t11_a_penalty_tile_in_a_twin_run_or_as_a_joker_extra_gives_one_more() -> None:
    run = pos([[44, 37, 9], 9, 9], line=(20, 32), direction=UP)
    lay(run, 44, 37)
    assert run.gifts == 3 and "1 for penalty tile 37" in run.gift_reason()
    extra = pos([["joker", 27, 9], 9, 9], line=(20, 32), direction=UP)
    lay(extra, "JOKER1", 27)
    assert extra.phase == "gift" and extra.gifts == 1


def test_t12_an_empty_pool_turns_draws_into_passes_and_a_round_of_passes_ends_it() -> None:
    game = crowded([[9, 8], [7, 6, 4], [2]], line=(20, 99))
    assert game.pool_count == 0 and game.legal_actions() == [Pass()]
    refused(game, Draw(), "T-12")
    game.play(Pass())
    game.play(Pass())
    assert not game.is_terminal()
    text = game.play(Pass())
    out = game.outcome()
    assert out is not None and out.termination == "pool-exhausted"
    assert out.winners == (2,) and out.scores == (2, 3, 1)
    assert "the game ends (T-12)" in text and "Cy wins with the fewest tiles, 1" in text
    assert game.current_player() == TERMINAL and game.legal_actions() == []
    tie = crowded([[9], [8], [7, 6]], line=(20, 99))
    for _ in range(3):
        tie.play(Pass())
    assert tie.outcome().winners == (0, 1)  # type: ignore[union-attr]
    reset = crowded([[9, 8], ["DOWN1", 6], [2, 4]], line=(20, 99))
    reset.play(Pass())
    lay(reset, "DOWN1")  # a tile laid starts the count again
    reset.play(Pass())
    reset.play(Pass())
    assert not reset.is_terminal() and reset.view(None).passes == 2


def test_t13_the_call_is_due_when_a_turn_ends_with_one_tile_and_missed_costs_three() -> None:
    game = pos([[40, 9], [52, 8], [62, 7]], line=(20, 32), direction=UP)
    text = lay(game, 40)
    assert game.owing == 0 and "must call it (the button) before the next tile" in text
    assert game.view(None).players[0].owes_call
    pool = game.pool_count
    lay(game, 52)  # Bob lays before Ann called
    notes = game.notes
    assert notes[0].kind == "penalty" and notes[0].rule == "T-13"
    assert "Ann takes 3 tiles from the pool as the penalty" in notes[0].text
    assert game.counts() == (4, 1, 2) and game.pool_count == pool - 3
    assert game.owing == 1  # now Bob has one left
    text = game.play(Call())
    assert "Bob calls 'one tile left' in time" in text and game.owing is None
    lay(game, 62)
    assert game.counts() == (4, 1, 1) and game.notes[0].kind == "turn"
    refused(UpturnState.position(UpturnDescription(list(ABC), line=(20,), racks=[7, 7, 7])), Call(), "T-13")


def test_t13_no_call_within_a_turn_nor_when_the_rack_empties_and_it_may_come_ahead() -> None:
    joker = pos([["joker", 40, 9], 9, 9], line=(20, 32), direction=UP)
    lay(joker, "JOKER1")
    assert joker.counts()[0] == 2 and joker.owing is None
    lay(joker, 9)  # down now; one tile left at the end of the turn
    assert joker.owing == 0
    ahead = pos([["joker", 40], 9, 9], line=(20, 32), direction=UP)
    lay(ahead, "JOKER1")
    assert Call() in ahead.legal_actions()  # one tile left, still in the turn: call ahead
    ahead.play(Call())
    ahead.play(Pass())
    assert ahead.owing is None and ahead.counts()[0] == 1
    assert "has called 'one tile left'" in ahead.notes[-1].text
    out = pos([["joker", 12], 9, 9], line=(20, 32), direction=UP)
    lay(out, "JOKER1", 12)  # through one tile to none: wins, owes nothing
    assert out.is_terminal() and out.owing is None
    empty = crowded([[40, 9], [52, 8], [6]], pool=1)
    lay(empty, 40, 52)
    assert "Ann takes 1 tile" in empty.notes[0].text and empty.pool_count == 0


def test_t13_a_draw_does_not_settle_the_call_only_a_tile_laid_does() -> None:
    game = pos([[40, 9], [8], 9], line=(20, 32), direction=UP)
    lay(game, 40)
    game.play(Draw())
    game.play(Pass())  # Bob drew and kept: still Ann's call due
    assert game.owing == 0
    game.play(Call())
    assert game.owing is None


def test_t14_being_skipped_does_not_cancel_a_missed_call() -> None:
    game = pos([[40, 9], ["skip", 8, 6]], line=(20, 32), direction=UP, players=("Ann", "Bob"))
    lay(game, 40)
    assert game.owing == 0
    text = lay(game, "SKIP1")
    assert "Ann takes 3 tiles" in text and game.counts()[0] == 4
    assert "Ann loses a turn; Bob plays again" in text
    assert "Being skipped does not cancel Ann's missed call (T-14)" in text


def test_t15_a_number_equal_to_the_last_is_not_playable() -> None:
    data = CAT.to_dict()
    for t in data["tiles"]:
        if t["id"] == "N1":
            t["number"] = 42  # a set with two 42s
    cat = parse_catalogue(data, source="test: two 42s")
    for direction in (UP, DOWN, None):
        game = UpturnState.position(UpturnDescription(
            list(ABC), line=("N42",), racks=[["N1", 9], 9, 9], direction=direction, catalogue=cat
        ))
        err = refused(game, Lay("N1"), "T-15")
        assert "42 equals the last number, 42" in err.message


def test_t16_up_only_while_down_and_down_only_while_up() -> None:
    up = pos([["up", "down", 9], 9, 9], line=(20, 32), direction=UP)
    err = refused(up, Lay("UP1"), "T-16")
    assert err.message == "Up may only be laid while the direction is down, and it is up."
    lay(up, "DOWN1")
    down = pos([["up", "down", 9], 9, 9], line=(32, 20), direction=DOWN)
    refused(down, Lay("DOWN1"), "T-16")
    lay(down, "UP1")
    assert down.direction == UP


def test_t17_a_twin_against_the_direction_is_refused() -> None:
    game = pos([[22, 9], 9, 9], line=(20, 32), direction=UP)
    err = refused(game, Lay("N22"), "T-17")
    assert "must be higher than 32; 22 is not" in err.message


def test_t18_action_tiles_never_change_the_number_to_beat() -> None:
    game = pos([["skip", 26, 44, 9], 9, [8, 6]], line=(20, 32), direction=UP)
    lay(game, "SKIP1")
    assert game.last_number == 32 and game.current_player() == 2
    err = refused(game, Lay("N8"), "direction")
    assert "higher than 32 (the last numbered tile: action tiles never change the number, T-18)" in err.message
    twin = pos([[44, 40, 34, 9], 9, 9], line=(20, 32, "skip"), direction=UP)
    text = lay(twin, 44)
    assert "strictly between 32 (the last numbered tile counts" in text
    lay(twin, 34)  # between 32 and 44, though a Skip follows 32
    assert numbers(twin.line) == [20, 32, 34, 44]


def test_t19_a_twin_gift_larger_than_the_pool_gives_what_it_holds_and_says_how_many() -> None:
    # the table: last 51 (the set has no 50), down; the pool holds 1 tile
    game = crowded([[22, 31, 40, 9], [8], [6]], line=(62, 51), pool=1, direction=DOWN)
    lay(game, 22, 31, 40)
    assert game.gifts == 1 and game.gifts_earned == 3
    refused(game, Gift(((1, 4),)), "T-7")  # more than earned is still refused
    assert Gift(((1, 3),)) not in game.legal_actions() and game.is_legal(Gift(((1, 3),)))
    text = game.play(Gift(((1, 3),)))
    assert text.startswith(
        "Ann gives 1 tile to Bob from the pool: the pool held only 1 of the 3 tiles asked, so "
        "only 1 could be given (T-19)."
    )
    assert game.notes[-1].rule == "T-19" and game.owing == 0  # Ann's one tile: the call is due
    assert game.pool_count == 0 and game.counts() == (1, 2, 1) and game.current_player() == 2
    split = crowded([[22, 31, 40, 9], [8], [6]], line=(62, 51), pool=2, direction=DOWN)
    lay(split, 22, 31, 40)
    both = split.clone()
    text = split.play(Gift(((1, 2), (2, 1))))  # in the split asked, as far as the tiles go
    assert "Ann gives 2 tiles to Bob from the pool; Cy gets none: the pool held only 2" in text
    assert split.counts() == (1, 3, 1)
    both.play(Gift(((1, 1), (2, 2))))
    assert both.counts() == (1, 2, 2) and both.pool_count == 0
    exact = crowded([[22, 31, 9], [8], [6]], line=(62, 51), pool=2, direction=DOWN)
    lay(exact, 22, 31)
    assert exact.play(Gift(((1, 2),))).startswith("Ann gives 2 tiles to Bob from the pool. ")
    assert exact.notes[-1].rule == "T-11"  # the pool held enough: nothing to say


def test_t19_a_penalty_gift_on_an_empty_pool_gives_none_and_says_so() -> None:
    run = crowded([[44, 37, 9], [8], [6]], pool=0)
    lay(run, 44, 37)  # a penalty tile in a Twin run: 3 earned, the pool empty
    assert run.gifts == 0 and run.gifts_earned == 3
    text = run.play(Gift(((1, 1),)))
    assert text.startswith(
        "Ann gives no tiles: the pool is empty, 1 tile asked, none could be given (T-19)."
    )
    assert run.counts() == (1, 1, 1) and run.notes[-1].rule == "T-19"
    alone = crowded([[37, 9, 8], [6], [4]], pool=0)
    text = lay(alone, 37)  # nothing to give: the turn ends at once and says so
    assert "The pool is empty, so no tile could be given for penalty tile 37 (T-19)." in text
    assert alone.notes[-1].rule == "T-19" and alone.current_player() == 1
    assert alone.counts() == (2, 1, 1)
    refused(alone, Gift(((2, 1),)), "gift")  # no gift is open any more


def test_t19_a_missed_call_penalty_that_empties_the_pool_leaves_the_gift_none() -> None:
    twin = crowded([[44, 40, 9], [8], [6, 4]], pool=3, owing=1)
    lay(twin, 44)  # Bob owed the call: the pool's 3 tiles are his penalty
    assert twin.notes[0].kind == "penalty" and twin.pool_count == 0 and twin.counts()[1] == 4
    lay(twin, 40)
    text = twin.play(Gift(((2, 2),)))
    assert text.startswith("Ann gives no tiles: the pool is empty, 2 tiles asked, none could")
    assert twin.counts() == (1, 4, 2)
    short = crowded([[44, 40, 9], [8], [6, 4]], pool=4, owing=1)
    lay(short, 44, 40)  # the penalty leaves 1 tile of the 2 earned
    assert short.gifts == 1 and short.gifts_earned == 2
    assert "the pool held only 1 of the 2 tiles asked" in short.play(Gift(((2, 2),)))
    assert short.counts() == (1, 4, 3)
    penalty = crowded([[37, 9, 8], [6], [4, 2]], pool=2, owing=1)
    text = lay(penalty, 37)
    assert penalty.notes[0].kind == "penalty" and "Bob takes 2 tiles" in penalty.notes[0].text
    assert "no tile could be given for penalty tile 37 (T-19)" in text
    assert penalty.current_player() == 1 and penalty.counts() == (2, 3, 2)


def test_t20_a_pass_with_the_same_one_tile_owes_no_new_call() -> None:
    racks: list[list[str | int]] = [[40, 9], [52, "UD1", 8], [7, 4]]  # crowded names ids
    called = crowded(racks, pool=0)
    lay(called, 40)
    called.play(Call())
    lay(called, 52)
    called.play(Pass())  # Cy
    text = called.play(Pass())  # Ann passes with the one tile she called
    assert called.owing is None and "one tile left" not in text and called.counts()[0] == 1
    lay(called, "UD1")
    assert [n.kind for n in called.notes] == ["turn"]  # no penalty for Ann
    penalised = crowded(racks, pool=0)
    lay(penalised, 40)  # Ann does not call
    lay(penalised, 52)
    assert penalised.notes[0].kind == "penalty" and "no penalty tiles" in penalised.notes[0].text
    penalised.play(Pass())
    penalised.play(Pass())  # Ann, still with one tile: no new call
    assert penalised.owing is None and penalised.counts()[0] == 1
    lay(penalised, "UD1")
    assert [n.kind for n in penalised.notes] == ["turn"]


def test_t21_the_winning_turn_gives_no_gifts() -> None:
    cases: list[tuple[list[str | int], tuple[str | int, ...]]] = [
        ([44, 40], (44, 40)),  # a Twin run that empties the rack
        ([44], (44,)),  # a Twin as the last tile
        ([37], (37,)),  # a Penalty tile as the last tile
        (["joker", 27], ("JOKER1", 27)),  # a Penalty tile as the Joker's extra tile
    ]
    for rack, tiles in cases:
        game = pos([rack, 9, 9], line=(20, 32), direction=UP)
        pool = game.pool_count
        text = lay(game, *tiles)
        assert game.is_terminal() and "Ann's rack is empty: Ann wins!" in text, tiles
        assert game.gifts == 0 and game.pool_count == pool and game.counts() == (0, 9, 9)
        refused(game, Gift(((1, 1),)), "over")


def test_t22_t9_counts_the_missed_call_penalty_tiles_taken_before_the_action_tile() -> None:
    two = ("Ann", "Bob")
    game = pos([["skip", "updown"], 9], line=(20, 32), direction=UP, players=two)
    lay(game, "SKIP1")  # Bob loses his turn: Ann plays again, one tile left and owing the call
    assert game.owing == 0 and game.current_player() == 0 and game.counts()[0] == 1
    lay(game, "UD1")  # the penalty comes first: 4 tiles, so the Up & Down is not the last
    assert game.notes[0].kind == "penalty" and "Ann takes 3 tiles" in game.notes[0].text
    assert game.counts() == (3, 9) and game.direction == DOWN
    one = crowded([["SKIP1", "UD1"], [8]], pool=1, players=two)
    lay(one, "SKIP1")
    lay(one, "UD1")  # one penalty tile is enough: 2 held when it is laid
    assert one.counts() == (1, 1)
    empty = crowded([["SKIP1", "UD1"], [8]], pool=0, players=two)
    lay(empty, "SKIP1")
    err = refused(empty, Lay("UD1"), "T-9")  # no penalty tiles to take: it would be the last
    assert err.message.startswith("By the count Ann holds 1 tile")


# --- the basic rules -----------------------------------------------------------------------------


def test_direction_and_seat_order_are_coupled() -> None:
    game = pos([[40, 9], [52, 8], [62, 7], [72, 6]], players=ABCD, line=(20, 32), direction=UP)
    lay(game, 40)
    assert game.current_player() == 1 and game.view(None).order == (1, 2, 3, 0)
    down = pos([[12, 9], 9, 9, 9], players=ABCD, line=(32, 20), direction=DOWN)
    lay(down, 12)
    assert down.current_player() == 3 and down.view(None).order == (3, 2, 1, 0)


def test_a_numbered_tile_against_the_direction_is_refused_in_words() -> None:
    game = pos([[41, 9], 9, 9], line=(40, 32), direction=DOWN)
    err = refused(game, Lay("N41"), "direction")
    assert err.message == "The direction is down, so the next number must be lower than 32; 41 is not."
    assert err.correction == "Take 41 back."


def test_skip_names_who_loses_the_turn_and_who_plays() -> None:
    game = pos([9, 9, ["skip", 8, 6]], line=(20, 32), direction=UP, to_move=2)
    text = lay(game, "SKIP1")
    assert "Cy lays a Skip tile. Ann loses a turn; Bob plays next." in text
    view = game.view(None)
    assert game.current_player() == 1 and view.players[0].skipped


def test_the_first_empty_rack_wins_at_once() -> None:
    game = pos([[40], 9, 9], line=(20, 32), direction=UP)
    text = lay(game, 40)
    out = game.outcome()
    assert out is not None and out.termination == "empty-rack" and out.winners == (0,)
    assert "Ann's rack is empty: Ann wins!" in text
    assert game.returns() == (1.0, 0.0, 0.0)
    refused(game, Draw(), "over")
    twin = pos([[44, 40], 9, 9], line=(20, 32), direction=UP)
    lay(twin, 44, 40)  # the run empties the rack: the win comes before any gift
    assert twin.is_terminal() and twin.outcome().winners == (0,)  # type: ignore[union-attr]


def test_a_tile_already_on_the_line_is_refused_by_name() -> None:
    game = UpturnState.position(UpturnDescription(list(ABC), line=(20, 32, 44), racks=[7, 7, 7], direction=UP))
    err = refused(game, Lay("N32"), "line")
    assert err.message == "32 is already on the line (the second tile): a tile is laid only once."
    err = refused(game, Lay("N44"), "line")
    assert err.message.startswith("Twin 44 is already on the line (the third tile)")


def test_a_tile_the_player_is_known_not_to_hold_and_an_unknown_id() -> None:
    game = pos([[40, 9], 9, 9], line=(20, 32), direction=UP)
    err = refused(game, Lay("N41"), "rack")
    assert err.message == "Ann does not hold 41."
    refused(game, Lay("N3"), "tile")  # there is no tile 3 in the default set


def test_a_counted_rack_accepts_any_tile_not_yet_seen() -> None:
    game = UpturnState.at_table(list(ABC))
    game.play(Start("N40"))
    lay(game, 94)
    assert game.counts() == (6, 7, 7) and game.pool_count == 106 - 21 - 1
    game.play(Draw())
    game.play(Pass())
    assert game.counts() == (6, 8, 7)
    assert game.rack(1) == () and game.unknown(1) == 8


def test_positions_are_checked() -> None:
    with pytest.raises(ValueError, match="accounts for"):
        UpturnState.position(UpturnDescription(list(ABC), line=(20,), racks=[[40], [52], [62]], pool=[]))
    with pytest.raises(ValueError, match="appears twice"):
        UpturnState.position(UpturnDescription(list(ABC), line=(20,), racks=[["N40"], ["N40"], [60]]))
    with pytest.raises(ValueError, match="no tile 3"):
        UpturnState.position(UpturnDescription(list(ABC), line=(3,), racks=[7, 7, 7]))
    with pytest.raises(ValueError, match="2 to 4 players"):
        UpturnState.new(["Ann"])
    with pytest.raises(ValueError, match="must differ"):
        UpturnState.at_table(["Ann", "ann"])
