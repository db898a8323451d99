"""What's Up rules: the set-up scan, suitability, turns, the figurine, the three endings, one test
per ruling A-1 ... A-12 and the rulebook's five worked examples, each built from a described
position."""

from __future__ import annotations

import itertools

import pytest
from upref.games.base import CHANCE, TERMINAL, IllegalMoveError
from upref.games.whatsup.actions import Flip, Lay, Pass, Reserve, format_action, parse_action
from upref.games.whatsup.cards import COLOURS, COUNTS, Face
from upref.games.whatsup.engine import Termination, WhatsUpState
from upref.games.whatsup.position import WhatsUpDescription
from upref.games.whatsup.variant import Variant


def refused(game: WhatsUpState, action: object, rule: str) -> IllegalMoveError:
    """Play `action`, expect the refusal naming `rule`, and check nothing changed."""
    before = (game._snapshot(), game.view(None), len(game._undo_stack))
    with pytest.raises(IllegalMoveError) as info:
        game.play(action)  # type: ignore[arg-type]
    assert info.value.rule == rule, info.value
    assert (game._snapshot(), game.view(None), len(game._undo_stack)) == before
    return info.value


# --- the rulebook's worked examples -----------------------------------------------------------


def test_example_1_vanya_takes_the_purple_one_he_turned_up() -> None:
    """Vanya has nothing; he flips a card with one red bird: one purple on its back. He adds it."""
    game = WhatsUpState.position(WhatsUpDescription(("Vanya", "Lena"), up={"W03": "1 red"}))
    assert game.card("W03").label() == "1 red / 1 purple"
    text = game.play(Flip(0, "W03"))
    assert game.owner("W03") == 0 and game.rows(0)["purple"] == (1,)
    assert text.startswith("Vanya flipped a card: 1 purple up. It starts Vanya's purple row")
    assert game.since == 0 and game.current_player() == 1


def test_example_2_lena_cannot_start_a_row_with_two_birds() -> None:
    """Lena has nothing; she flips three yellow: two yellow on the back. No row starts with two."""
    game = WhatsUpState.position(WhatsUpDescription(("Vanya", "Lena"), up={"W21": "3 yellow"}, to_move="Lena"))
    text = game.play(Flip(1, "W21"))
    assert game.owner("W21") is None and game.up("W21") == Face(2, "yellow")
    assert "It does not fit: Lena has no yellow row yet, and a row starts with a card of 1 bird" in text
    assert game.cards_of(1) == 0 and game.since == 1


def test_example_3_zhenya_adds_two_yellow_to_her_one_yellow() -> None:
    """Zhenya holds one yellow; she flips two red: two yellow on the back. She adds it."""
    game = WhatsUpState.position(WhatsUpDescription(
        ("Zhenya", "Petya"), up={"W15": "2 red"}, collections={"Zhenya": {"yellow": 1}}
    ))
    game.play(Flip(0, "W15"))
    assert game.owner("W15") == 0 and game.rows(0)["yellow"] == (1, 2)
    assert game.birds(0) == 3 and game.cards_of(0) == 2


def test_example_4_petya_cannot_add_three_purple_to_one_purple() -> None:
    """Petya: one purple; one and two green. He flips three yellow: three purple. Not for him."""
    game = WhatsUpState.position(WhatsUpDescription(
        ("Zhenya", "Petya"),
        up={"W29": "3 yellow"},
        collections={"Petya": {"purple": 1, "green": 2}},
        to_move=1,
    ))
    text = game.play(Flip(1, "W29"))
    assert game.owner("W29") is None and game.up("W29") == Face(3, "purple")
    assert "Petya's purple row (1) needs its card of 2 birds first" in text


def test_example_5_anya_cannot_start_a_second_red_row() -> None:
    """Anya (A-10: not Lena): one green; one, two and three red. She flips one yellow: one red."""
    game = WhatsUpState.position(WhatsUpDescription(
        ("Anya", "Petya"), up={"W01": "1 yellow"}, collections={"Anya": {"green": 1, "red": 3}}
    ))
    text = game.play(Flip(0, "W01"))
    assert game.owner("W01") is None and game.up("W01") == Face(1, "red")
    assert "Anya already has a red row, and no one starts a second row of a colour" in text
    assert game.rows(0) == {"red": (1, 2, 3), "yellow": (), "green": (1,), "purple": ()}


def test_a10_the_fifth_example_names_anya() -> None:
    """A-10: the Russian text names Lena in example 5; the referee's players are whoever sits
    at the table, and the examples use Anya."""
    game = WhatsUpState.position(WhatsUpDescription(("Anya", "Lena"), up={"W01": "1 yellow"}, collections={"Anya": {"red": 1}}))
    text = game.play(Flip(0, "W01"))
    assert "Anya" in text and "Lena's turn" in text and game.owner("W01") is None


# --- suitability ------------------------------------------------------------------------------


@pytest.mark.parametrize("length", range(4))
def test_a_face_fits_only_as_the_next_card_of_its_row(length: int) -> None:
    """(n, c) fits iff n = 1 and no c row, or n >= 2 and the c row is exactly 1 .. n-1."""
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), collections={"Ann": {"red": length}}))
    for n, c in itertools.product(COUNTS, COLOURS):
        row = length if c == "red" else 0
        want = (n == 1 and row == 0) or (n >= 2 and row == n - 1)
        assert game.fits(0, Face(n, c)) is want, (n, c, length)
    assert set(game.fitting(0)) == {
        Face(length + 1, "red") if length < 3 else None,
        Face(1, "yellow"), Face(1, "green"), Face(1, "purple"),
    } - {None}


def test_a_fitting_flip_grows_the_row_and_an_unfitting_one_counts_toward_the_stall() -> None:
    game = WhatsUpState.position(WhatsUpDescription(
        ("Ann", "Bob"), up={"W04": "1 red", "W18": "3 red"}, collections={"Ann": {"red": 1}}, since=5
    ))
    game.play(Flip(0, "W04"))  # 2 red: fits Ann's red row (1)
    assert game.rows(0)["red"] == (1, 2) and game.since == 0
    game.play(Flip(1, "W18"))  # 2 red for Bob: no red row, no
    assert game.since == 1 and game.owner("W18") is None and game.up("W18") == Face(2, "red")


# --- set-up -------------------------------------------------------------------------------------


def test_setup_lays_every_card_with_the_side_the_seed_picks_then_the_first_player_flips() -> None:
    game = WhatsUpState.new(["Ann", "Bob", "Cy"], rng=4)
    twin = WhatsUpState.new(["Ann", "Bob", "Cy"], rng=4)
    other = WhatsUpState.new(["Ann", "Bob", "Cy"], rng=5)
    ids = game.catalogue.ids()
    assert game.current_player() == CHANCE and game.in_setup and game.view(None).phase == "setup"
    assert [game.up(c) for c in ids] == [twin.up(c) for c in ids]
    assert [game.up(c) for c in ids] != [other.up(c) for c in ids]
    assert game.legal_actions() == [Lay(c) for c in ids]
    with pytest.raises(IllegalMoveError) as info:
        game.play(Flip(0, "W01"))
    assert info.value.rule == "setup"
    for k, cid in enumerate(reversed(ids), start=1):
        text = game.play(Lay(cid))
        assert text.startswith(f"Card {k} of 30: lay it with {game.up(cid)} up.")
        assert game.place(cid) == k and game.laid == k
    assert text.endswith("All 30 cards are laid: Ann begins. Ann: flip a card.")
    assert game.current_player() == 0 and game.turn == 1 and len(game.table()) == 30
    refused(game, Lay("W01"), "setup")


def test_a_card_laid_twice_is_refused_by_its_place() -> None:
    game = WhatsUpState.new(["Ann", "Bob"], rng=1, variant=Variant(first_game=True))
    for cid in ("W10", "W20", "W30", "W01", "W02", "W03", "W04"):
        game.play(Lay(cid))
    assert game.verdict.startswith("Card 7 of 30: lay it in row 2, column 1 with")
    err = refused(game, Lay("W30"), "setup")
    assert f"on the table already, {game.up('W30')} up (card 3, row 1, column 3)" in err.message
    assert "(7 of 30 laid)" in err.message
    refused(game, Lay("W99"), "deck")


def test_a_described_position_refuses_descriptions_that_do_not_fit_the_deck() -> None:
    with pytest.raises(ValueError, match="neither on the table nor in a collection"):
        WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), table=["W01", "W02"]))
    with pytest.raises(ValueError, match="has no side 3 green"):
        WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), up={"W01": "3 green"}))
    with pytest.raises(ValueError, match="2 to 4 players"):
        WhatsUpState.position(WhatsUpDescription(("Ann",)))
    with pytest.raises(ValueError, match="no cards left"):
        # three cards of 1 red wanted, but of the five with that side three lie on the table
        WhatsUpState.position(WhatsUpDescription(
            ("Ann", "Bob", "Cy"),
            up=dict.fromkeys(("W01", "W02", "W03"), "1 red"),
            collections={n: {"red": 1} for n in ("Ann", "Bob", "Cy")},
        ))
    with pytest.raises(ValueError, match="two figurines"):
        WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), figurines={"Ann": "W01", "Bob": "W01"}))
    with pytest.raises(ValueError, match="no seat 'Cy' to move"):
        WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), to_move="Cy"))
    with pytest.raises(ValueError, match="no seat 2 to move"):
        WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), to_move=2))


# --- turns ---------------------------------------------------------------------------------------


def test_only_the_player_to_move_acts_and_play_passes_clockwise() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob", "Cy"), up={"W21": "3 yellow", "W09": "3 yellow"}))
    refused(game, Flip(1, "W21"), "turn")
    refused(game, Reserve(2, "W21"), "turn")
    game.play(Flip(0, "W21"))
    game.play(Flip(1, "W09"))
    assert game.current_player() == 2 and game.turn == 3


def test_actions_notation_round_trips() -> None:
    for a in (Lay("W05"), Reserve(0, "W05"), Flip(1, "W07"), Pass(2)):
        assert parse_action(format_action(a)) == a
    with pytest.raises(ValueError, match="not a What's Up action"):
        parse_action("take 0 W05")


def test_variant_round_trips_and_describes_itself() -> None:
    for v in (Variant(), Variant(first_game=True)):
        assert Variant.from_dict(v.to_dict()) == v
    assert Variant.from_dict(None) == Variant()
    assert Variant().describe() == "free placement"
    assert Variant(first_game=True).describe() == "first game: same place"


def test_first_game_rule_puts_an_unfitting_card_back_in_its_place() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), up={"W21": "3 yellow"}, variant=Variant(first_game=True)))
    assert game.place("W21") == 21
    text = game.play(Flip(0, "W21"))
    assert "flipped a card (row 4, column 3): 2 yellow up" in text
    assert "back in its place (row 4, column 3)" in text
    view = game.view(None)
    card = next(c for c in view.table if c.place == 21)
    assert (card.row, card.column, card.up) == (4, 3, "2 yellow")
    free = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), up={"W21": "3 yellow"}))
    assert "wherever Ann puts it (not on another card)" in free.play(Flip(0, "W21"))
    assert all(c.row is None for c in free.view(None).table)


# --- the figurine ----------------------------------------------------------------------------------


def test_figurine_is_placed_once_per_game_and_one_bird_to_a_card() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), up={"W21": "3 yellow", "W09": "3 yellow"}))
    text = game.play(Reserve(0, "W05"))
    assert text.startswith("Ann's figurine now stands on the card showing 1 red")
    assert game.figurine(0) == "W05" and game.current_player() == 0 and game.reserved_now
    assert not any(isinstance(a, Reserve) for a in game.legal_actions())
    refused(game, Reserve(0, "W06"), "figurine")  # once per game, never moved
    game.play(Flip(0, "W21"))
    err = refused(game, Reserve(1, "W05"), "figurine")  # one bird to a card
    assert "already carries Ann's figurine" in err.message
    game.play(Flip(1, "W09"))
    refused(game, Reserve(0, "W06"), "figurine")


def test_a_figurine_goes_only_on_a_card_on_the_table() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), collections={"Bob": {"red": 1}}))
    held = game.collection(1)[0]
    err = refused(game, Reserve(0, held), "figurine")
    assert "in Bob's collection" in err.message


def test_a1_a_reserved_card_is_flipped_only_by_the_figurines_owner() -> None:
    game = WhatsUpState.position(WhatsUpDescription(
        ("Ann", "Bob"), up={"W03": "1 red", "W21": "3 yellow"}, figurines={"Ann": "W03"}, to_move=1
    ))
    assert Flip(1, "W03") not in game.legal_actions()
    err = refused(game, Flip(1, "W03"), "A-1")
    assert err.message == "That card carries Ann's figurine: only Ann may flip it."
    assert err.correction == (
        "Turn it back so that 1 red is up again (Ann's figurine stays on it), then flip another card."
    )
    game.play(Flip(1, "W21"))
    game.play(Flip(0, "W03"))  # the owner may
    assert game.owner("W03") == 0


def test_a2_three_cards_left_end_the_game() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob", "Cy"), **_FOUR_LEFT, to_move="Bob"))  # type: ignore[arg-type]
    assert game.up("W30") == Face(3, "green") and game.fits(1, Face(3, "purple"))
    text = game.play(Flip(1, "W30"))
    out = game.outcome()
    assert out is not None and out.termination == Termination.TABLE
    assert len(game.table()) == 3 and game.current_player() == TERMINAL
    assert "Only 3 cards are left on the table (A-2): the game ends." in text
    assert game.legal_actions() == [] and game.ending in text


def test_a3_the_eighth_turn_in_a_row_without_an_addition_ends_the_game() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), up={"W21": "3 yellow", "W28": "3 yellow"}, since=6))
    text = game.play(Flip(0, "W21"))
    assert "7 of 8 turns without an addition" in text and game.outcome() is None
    text = game.play(Flip(1, "W28"))  # 3 green: Bob has no green row
    out = game.outcome()
    assert out is not None and out.termination == Termination.STALL
    assert "8 of 8 turns without an addition. 8 turns in a row without an addition (A-3): the game ends." in text


def test_a3_an_addition_starts_the_count_again() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), up={"W03": "1 red"}, since=7))
    game.play(Flip(0, "W03"))
    assert game.since == 0 and game.outcome() is None


def test_a4_row_victory_comes_before_the_table_running_out() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob", "Cy"), **_FOUR_LEFT, since=7))  # type: ignore[arg-type]
    text = game.play(Flip(0, "W28"))  # 3 green: Ann completes her third row, three cards left
    out = game.outcome()
    assert out is not None and out.termination == Termination.ROWS and out.winners == (0,)
    assert len(game.table()) == 3
    assert "Ann has completed 3 rows (red, yellow and green): with 3 players, 3 complete rows win at once. Ann wins." in text
    assert "A-2" not in text and "A-3" not in text


@pytest.mark.parametrize(("players", "need"), [(2, 4), (3, 3), (4, 2)])
def test_the_rows_that_win_depend_on_the_number_of_players(players: int, need: int) -> None:
    names = ("Ann", "Bob", "Cy", "Dee")[:players]
    rows = dict.fromkeys(COLOURS[: need - 1], 3) | {COLOURS[need - 1]: 2}
    game = WhatsUpState.position(WhatsUpDescription(names, collections={"Ann": rows}))
    card = next(c for c in game.table() if game.fits(0, game.down(c)) and game.down(c).count == 3)
    game.play(Flip(0, card))
    out = game.outcome()
    assert out is not None and out.termination == Termination.ROWS and out.winners == (0,)
    assert game.rows_to_win() == need


def test_a5_most_birds_then_fewest_cards_then_a_shared_win() -> None:
    # Ann 6 birds on 3 cards; Bob 6 birds on 4 cards; Cy 3 birds: Ann wins on fewer cards
    game = WhatsUpState.position(WhatsUpDescription(
        ("Ann", "Bob", "Cy"),
        up={"W21": "3 yellow"},
        collections={"Ann": {"red": 3}, "Bob": {"green": 2, "purple": 2}, "Cy": {"yellow": 2}},
        since=7,
    ))
    text = game.play(Flip(0, "W21"))
    out = game.outcome()
    assert out is not None and out.scores == (6, 6, 3) and out.winners == (0,)
    assert "Ann wins with 6 birds (birds: Ann 6, Bob 6, Cy 3; tied on birds, the fewest cards win (A-5): Ann 3, Bob 4)." in text
    # equal birds and equal cards: both win
    game = WhatsUpState.position(WhatsUpDescription(
        ("Ann", "Bob"), up={"W21": "3 yellow"}, collections={"Ann": {"red": 2}, "Bob": {"green": 2}}, since=7
    ))
    text = game.play(Flip(0, "W21"))
    out = game.outcome()
    assert out is not None and out.winners == (0, 1) and game.returns() == (0.5, 0.5)
    assert "Ann and Bob share the win with 3 birds and 2 cards each" in text


def test_a5_the_birds_are_the_counts_on_the_faces_that_were_up_when_taken() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), up={"W05": "3 red"}))
    game.play(Flip(0, "W05"))  # 1 red up: taken as one bird, though its other side has three
    assert game.birds(0) == 1 and game.up("W05") == Face(1, "red")


def test_a6_figurine_placed_and_the_same_card_flipped_and_taken_in_one_turn() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), up={"W03": "1 red"}))
    game.play(Reserve(0, "W03"))
    text = game.play(Flip(0, "W03"))
    assert game.owner("W03") == 0 and game.figurine(0) == "spent"
    assert "Ann's figurine goes back into the box (A-6)." in text
    assert game.figurine_on("W03") is None


def test_a6_a_figurine_placed_earlier_is_spent_when_its_owner_takes_the_card() -> None:
    game = WhatsUpState.position(WhatsUpDescription(
        ("Ann", "Bob"), up={"W03": "1 red", "W21": "3 yellow"}, figurines={"Ann": "W03"}
    ))
    text = game.play(Flip(0, "W03"))
    assert game.figurine(0) == "spent" and "Ann's figurine goes back into the box." in text


def test_a7_a_figurine_takes_nothing_the_card_must_still_be_flipped() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), up={"W03": "1 red"}))
    game.play(Reserve(0, "W03"))  # its other side would fit Ann
    assert game.owner("W03") is None and game.current_player() == 0
    assert game.cards_of(0) == 0 and Flip(0, "W03") in game.legal_actions()
    assert all(isinstance(a, Flip) for a in game.legal_actions())  # a turn still ends in a flip


def test_a8_a_card_that_fits_is_always_taken_and_stays_taken() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), up={"W03": "1 red", "W21": "3 yellow"}))
    text = game.play(Flip(0, "W03"))
    assert game.owner("W03") == 0 and "Ann must take it into the collection (A-8)" in text
    err = refused(game, Flip(1, "W03"), "A-8")  # tapped again right after: it stays taken
    assert err.message == (
        "That card went into Ann's collection last turn: a card that fits must be taken, and it "
        "stays in the collection."
    )
    assert err.correction == "Put it back in Ann's purple row, 1 purple up."
    game.play(Flip(1, "W21"))
    err = refused(game, Flip(0, "W03"), "collection")
    assert "in Ann's collection, in the purple row: cards never leave a collection" in err.message


def test_a9_the_owner_may_flip_a_reserved_card_back_and_forth_and_the_figurine_stays() -> None:
    game = WhatsUpState.position(WhatsUpDescription(
        ("Ann", "Bob"), up={"W21": "3 yellow", "W09": "3 yellow"}, figurines={"Ann": "W21"}
    ))
    text = game.play(Flip(0, "W21"))  # 2 yellow: no yellow row, does not fit
    assert "Ann's figurine stays on it (A-9)." in text
    game.play(Flip(1, "W09"))
    game.play(Flip(0, "W21"))  # 3 yellow again
    assert game.figurine(0) == "W21" and game.figurine_on("W21") == 0 and game.owner("W21") is None


def test_a11_a_player_who_can_flip_nothing_passes_and_the_pass_adds_nothing() -> None:
    game = WhatsUpState.position(WhatsUpDescription(
        ("Ann", "Bob", "Cy", "Dee"),
        collections={
            "Ann": {"red": 3, "yellow": 2, "green": 2},
            "Bob": {"red": 2, "yellow": 1, "green": 3, "purple": 1},
            "Cy": {"red": 2, "yellow": 2, "purple": 3},
            "Dee": {"yellow": 3, "purple": 2, "green": 1},
        },
        figurines={"Bob": "W27", "Cy": "W29", "Dee": "W30"},
        since=3,
    ))
    assert game.table() == ("W27", "W29", "W30")
    assert game.legal_actions() == [Pass(0)]
    text = game.play(Pass(0))
    assert text.startswith("Ann cannot flip a card: every card on the table carries another player's figurine, so Ann passes (A-11). 4 of 8 turns")
    assert game.since == 4
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob")))
    refused(game, Pass(0), "A-11")


def test_a12_a_reserved_card_counts_as_on_the_table() -> None:
    game = WhatsUpState.position(WhatsUpDescription(
        ("Ann", "Bob", "Cy"),
        collections={
            "Ann": {"red": 3, "yellow": 3, "green": 2, "purple": 2},
            "Bob": {"red": 2, "yellow": 2, "green": 3, "purple": 2},
            "Cy": {"red": 2, "yellow": 2, "purple": 2},
        },
        up={"W30": "3 green"},
        figurines={"Cy": "W24"},
        to_move="Bob",
    ))
    assert len(game.table()) == 5
    game.play(Flip(1, "W30"))  # 3 purple: Bob takes it; four cards left, one reserved
    assert len(game.table()) == 4 and game.outcome() is None


# --- the end -----------------------------------------------------------------------------------


def test_after_the_end_every_action_is_refused_over() -> None:
    game = WhatsUpState.position(WhatsUpDescription(("Ann", "Bob"), up={"W21": "3 yellow"}, since=7))
    game.play(Flip(0, "W21"))
    err = refused(game, Flip(1, "W09"), "over")
    assert err.message.startswith("The game is over: Ann and Bob share the win with 0 birds")


def test_next_game_keeps_the_players_and_lays_out_again() -> None:
    game = WhatsUpState.new(["Ann", "Bob"], rng=2, variant=Variant(first_game=True))
    for a in list(game.legal_actions()):
        game.apply(a)
    game2 = game.next_game()
    assert game2.game_number == 2 and game2.in_setup and game2.laid == 0
    assert game2.players == ("Ann", "Bob") and game2.variant == Variant(first_game=True)
    assert game2.history == ()  # the first was not over
    assert game2.verdict.startswith("Game 2 (first game: same place): Ann and Bob. Lay out the 30 cards as a rectangle of 6 by 5")


_FOUR_LEFT = {
    "collections": {
        "Ann": {"red": 3, "yellow": 3, "green": 2, "purple": 2},
        "Bob": {"red": 2, "yellow": 2, "green": 3, "purple": 2},
        "Cy": {"red": 2, "yellow": 2, "green": 1, "purple": 2},
    },
    "table": ["W27", "W28", "W29", "W30"],
}
"""Three players, four cards on the table (3 red / 3 purple, 3 yellow / 3 green,
3 yellow / 3 purple, 3 green / 3 purple, side a up); Ann has completed red and yellow and needs
3 green or 3 purple; Bob has completed green and needs 3 red, 3 yellow or 3 purple."""
