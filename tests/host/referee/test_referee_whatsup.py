"""The What's Up referee, driven only by card taps, keys and the button (with time passed in, no
sleeps): the set-up scan, flips, the figurine key, refusals and their corrections, the count
check, undo, the endings; its log replayed and resumed to the same verdicts; and nothing the
table must remember (a face down) ever told to the table."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from upref.games.whatsup.engine import Termination, WhatsUpState
from upref.games.whatsup.panel import PANEL
from upref.games.whatsup.position import WhatsUpDescription
from upref.games.whatsup.referee import WhatsUpReferee
from upref.games.whatsup.variant import Variant
from upref.referee.feedback import FEEDBACK
from upref.referee.inputs import StartGame
from upref.referee.status import BOARD, END, ILLEGAL, INFO, OK, SOLVED, TURN, Verdict
from upref.registry import find_game, referee_for, titles
from upref.store.gamelog import GameLog, load_jsonl
from upref.store.replay import load_log, public_lines, replay, resume
from upref.views.blocks import Line
from whatsup_table import (
    CATALOGUE,
    CODES,
    PLAYERS,
    UNKNOWN_UID,
    UPDOWN_UID,
    Chaos,
    Table,
    check_verdicts,
    check_view,
    new_table,
    shared_registry,
    watch_secrets,
)

# --- start and set-up -------------------------------------------------------------------------------


def test_the_setup_scan_names_the_side_up_for_each_card_and_the_game_begins_with_the_30th() -> None:
    tb = new_table(laid=False, variant=Variant(first_game=True), seed=3)
    ref = tb.ref
    vs = [v for _, r in tb.replies for v in r.verdicts]
    assert [v.kind for v in vs] == [INFO]
    assert vs[0].text == (
        "Game 1 (first game: same place): Ann, Bob and Cy. Lay out the 30 cards as a rectangle "
        "of 6 by 5, row by row, left to right: tap each card as you lay it, and put it down with "
        "the side the referee names up."
    )
    assert ref.status().waiting_for == "The cards to be laid out: tap each card as you lay it (0 of 30 laid)."
    assert [k.key for k in ref.keys_now()] == ["c", "e"]  # no figurine while setting up, nothing to undo
    order = list(reversed(CATALOGUE.ids()))
    game = tb.game
    for k, cid in enumerate(order[:29], start=1):
        vs = tb.tap(cid)
        r, c = (k - 1) // 6 + 1, (k - 1) % 6 + 1
        assert vs == [Verdict(OK, f"Card {k} of 30: lay it in row {r}, column {c} with {game.up(cid)} up.")]
        assert tb.replies[-2][1].feedback == FEEDBACK[OK]
    assert ref.view(None).phase == "setup"  # type: ignore[union-attr]
    vs = tb.tap(order[3])  # laid already: a note, nothing to put right
    assert vs[0].kind == INFO and vs[0].rule == "setup" and vs[0].correction is None
    assert vs[0].text.startswith(f"That card is on the table already, {game.up(order[3])} up (card 4, row 1, column 4)")
    assert tb.undo()[0].text == "Nothing to undo."
    assert tb.figurine()[0].text == "The key 'figurine' means nothing in What's Up now."
    vs = tb.tap(order[29])
    assert [v.kind for v in vs] == [TURN]
    assert vs[0].text == (
        f"Card 30 of 30: lay it in row 5, column 6 with {game.up(order[29])} up. All 30 cards are "
        "laid: Ann begins. Ann: flip a card. The referee cannot see faces: it counts on every "
        "card lying as it said."
    )
    assert ref.view(None).phase == "turn"  # type: ignore[union-attr]
    assert ref.status().waiting_for == "Ann: flip a card over and tap it on the reader."
    assert [k.key for k in ref.keys_now()] == ["f", "c", "e"]  # the first turn: nothing to undo yet


def test_start_with_one_player_or_five_is_refused() -> None:
    ref = WhatsUpReferee(CODES, shared_registry())
    tb = Table(ref)
    vs = tb.start(("Ann",))
    assert vs == [Verdict(INFO, "Cannot start: What's Up is for 2 to 4 players, not 1.")]
    vs = tb.start(("A", "B", "C", "D", "E"))
    assert vs[0].text == "Cannot start: What's Up is for 2 to 4 players, not 5."
    assert ref.phase == "idle" and not ref.has_engine


def test_tags_not_enrolled_or_of_another_game_are_named_and_change_nothing() -> None:
    tb = new_table()
    before = tb.game._snapshot()
    vs = tb.tap(uid=UNKNOWN_UID)
    assert vs == [
        Verdict(BOARD, f"Tag {UNKNOWN_UID} is not enrolled: run upref enroll whatsup to enrol the card.", "tag")
    ]
    vs = tb.tap(uid=UPDOWN_UID)
    assert vs[0].kind == BOARD and "enrolled for Up And Down, not for What's Up" in vs[0].text
    assert "not a bird card of this game" in vs[0].text
    assert tb.game._snapshot() is before


# --- flips ----------------------------------------------------------------------------------------


def test_a_flip_that_fits_is_taken_and_one_that_does_not_stays() -> None:
    tb = new_table(seed=2)
    card = tb.fitting(True)[0]
    vs = tb.tap(card)
    assert [v.kind for v in vs] == [SOLVED] and tb.replies[-2][1].feedback == FEEDBACK[SOLVED]
    face = tb.game.up(card)
    assert vs[0].text.startswith(f"Ann flipped a card: {face} up. It starts Ann's {face.colour} row: Ann must take it")
    assert tb.game.owner(card) == 0
    card = tb.fitting(False)[0]
    vs = tb.tap(card)
    assert [v.kind for v in vs] == [TURN] and tb.replies[-2][1].feedback == FEEDBACK[TURN]
    assert f"Bob flipped a card: {tb.game.up(card)} up. It does not fit" in vs[0].text
    assert "It stays on the table" in vs[0].text and vs[0].text.endswith("Cy's turn.")
    assert tb.game.owner(card) is None and tb.ref.status().waiting_for == "Cy: flip a card over and tap it on the reader."


def test_a_card_in_a_collection_is_refused_by_its_owners_name() -> None:
    tb = new_table(seed=2)
    card = tb.fitting(True)[0]
    tb.tap(card)  # Ann takes it
    vs = tb.tap(card)  # straight away: the card just taken
    assert [v.kind for v in vs] == [ILLEGAL] and vs[0].rule == "A-8"
    assert vs[0].text.startswith("That card went into Ann's collection last turn")
    face = tb.game.up(card)
    assert vs[0].correction == f"Put it back in Ann's {face.colour} row, {face} up."
    assert tb.ref.corrections() == (vs[0].correction,)
    assert tb.ref.status().waiting_for == vs[0].correction
    tb.miss()  # Bob flips something else: the correction is done with
    assert tb.ref.corrections() == ()
    vs = tb.tap(card)
    assert vs[0].rule == "collection" and "That card is in Ann's collection" in vs[0].text


# --- the figurine --------------------------------------------------------------------------------


def test_the_figurine_key_marks_the_next_card_and_another_players_flip_of_it_is_refused() -> None:
    tb = new_table(seed=4)
    ref = tb.ref
    wanted = tb.fitting(True)[0]
    vs = tb.figurine()
    assert vs == [
        Verdict(
            INFO,
            "Ann: put your figurine on a card and tap that card. That tap only marks the card "
            "(A-7): it is not a flip, and the card stays on the table.",
        )
    ]
    assert ref.armed == 0 and ref.keys_now()[0].label == "keep Ann's figurine in hand"
    assert ref.status().waiting_for == "Ann: put your figurine on a card and tap that card."
    face = tb.game.up(wanted)
    vs = tb.tap(wanted)
    assert vs == [
        Verdict(
            OK,
            f"Ann's figurine now stands on the card showing {face}: no one else may flip it. Ann: "
            "now flip a card (that one too, if you like).",
        )
    ]
    assert tb.game.owner(wanted) is None and tb.game.current_player() == 0
    assert "f" not in [k.key for k in ref.keys_now()]
    vs = tb.figurine()
    assert vs[0].kind == ILLEGAL and vs[0].rule == "figurine"
    assert vs[0].text == (
        f"Ann's figurine already stands on the card showing {face}: a figurine is placed once "
        "per game and cannot be moved."
    )
    tb.miss()
    before = tb.game._snapshot()
    vs = tb.tap(wanted)  # Bob flips Ann's card
    assert vs == [
        Verdict(
            ILLEGAL,
            "That card carries Ann's figurine: only Ann may flip it.",
            "A-1",
            f"Turn it back so that {face} is up again (Ann's figurine stays on it), then flip another card.",
        )
    ]
    assert tb.game._snapshot() is before and tb.replies[-2][1].feedback == FEEDBACK[ILLEGAL]
    assert ref.corrections() == (vs[0].correction,)
    tb.miss()  # Bob
    tb.miss()  # Cy
    vs = tb.tap(wanted)  # Ann takes her card
    assert vs[0].kind == SOLVED and "Ann's figurine goes back into the box." in vs[0].text
    assert tb.game.figurine(0) == "spent"
    assert tb.game.figurine_on(wanted) is None


def test_the_figurine_key_pressed_again_keeps_it_in_hand_and_a_bad_card_keeps_it_waiting() -> None:
    tb = new_table(seed=5)
    tb.figurine()
    vs = tb.figurine()
    assert vs == [Verdict(INFO, "Ann keeps the figurine in hand: the next tap is a flip again.")]
    assert tb.ref.armed is None
    tb.take()  # a flip, not a placement
    assert tb.game.figurine(0) is None and tb.game.cards_of(0) == 1
    taken = tb.game.collection(0)[0]
    tb.figurine()  # Bob
    vs = tb.tap(taken)  # a card in Ann's collection: the figurine goes on the table only
    assert vs[0].kind == ILLEGAL and vs[0].rule == "figurine" and tb.ref.armed == 1
    free = tb.game.table()[0]
    vs = tb.tap(free)
    assert vs[0].kind == OK and tb.game.figurine(1) == free


def test_a_spent_figurine_cannot_be_placed_again() -> None:
    tb = new_table(seed=6)
    card = tb.fitting(True)[0]
    tb.reserve(card)
    tb.tap(card)  # placed and taken in one turn
    assert tb.game.figurine(0) == "spent"
    tb.miss()
    tb.miss()
    vs = tb.figurine()
    assert vs == [
        Verdict(ILLEGAL, "Ann's figurine went back into the box: a figurine is placed once per game.", "figurine")
    ]


# --- bookkeeping, the button ----------------------------------------------------------------------


def test_the_count_key_defaults_to_the_referees_count_and_names_a_difference() -> None:
    tb = new_table(seed=7)
    tb.take()
    tb.miss()
    offer = next(k for k in tb.ref.keys_now() if k.key == "c")
    assert offer.prompt == "How many cards on the table?" and offer.default == "29"
    vs = tb.count("29")
    assert vs == [Verdict(INFO, "Right: 29 cards on the table, and in the collections Ann 1, Bob 0, Cy 0.")]
    vs = tb.count("30")
    assert vs[0].kind == ILLEGAL and vs[0].rule == "count"
    assert vs[0].text.startswith("You count 30 cards on the table, the referee 29: a card that fitted was left")
    assert "a card that fits must be taken (A-8)" in (vs[0].correction or "")
    assert tb.count("28")[0].text.startswith("You count 28 cards on the table, the referee 29: a card that did not fit was taken")
    assert tb.count("many")[0] == Verdict(INFO, "'many' is not a number: count the cards on the table and try again.")


def test_the_count_key_during_setup_catches_a_card_laid_without_a_tap() -> None:
    tb = new_table(laid=False)
    tb.lay_all(order=CATALOGUE.ids()[:5])
    assert next(k for k in tb.ref.keys_now() if k.key == "c").default == "5"
    vs = tb.count("6")
    assert vs[0].kind == ILLEGAL and "a card was laid without a tap" in vs[0].text


def test_the_button_means_nothing_and_says_so() -> None:
    tb = new_table()
    before = tb.game._snapshot()
    assert tb.press() == [
        Verdict(
            INFO,
            "The button means nothing in What's Up: flip a card and tap it on the reader (f on "
            "the host for the figurine).",
        )
    ]
    assert tb.game._snapshot() is before


# --- the end -----------------------------------------------------------------------------------------


def play_to_the_end(tb: Table) -> None:
    for _ in range(300):
        if tb.ref.phase == "over":
            return
        if tb.fitting(False):
            tb.miss()
        else:
            tb.take()
    raise AssertionError("no end")


def test_eight_turns_without_an_addition_end_the_game_with_the_winner_named() -> None:
    log = MemoryLog()
    tb = new_table(seed=8, log=log)
    tb.take()
    play_to_the_end(tb)
    out = tb.game.outcome()
    assert out is not None and out.termination == Termination.STALL and out.winners == (0,)
    vs = tb.replies[-2][1].verdicts
    assert [v.kind for v in vs] == [TURN, END]
    assert vs[0].text.endswith("8 of 8 turns without an addition.")
    assert vs[1].text.startswith("8 turns in a row without an addition (A-3): the game ends. Ann wins with")
    assert tb.replies[-2][1].feedback == FEEDBACK[END]
    assert log.finished[-1]["termination"] == "stall" and log.finished[-1]["winners"] == ["Ann"]
    assert tb.ref.status().waiting_for == "The next game (or a new one)."
    # a flip after the end
    card = tb.game.table()[0]
    vs = tb.tap(card)
    assert vs[0].kind == ILLEGAL and vs[0].rule == "over"
    assert vs[0].text.startswith("The game is over (Ann wins with")
    assert vs[0].correction == f"Turn the card back so that {tb.game.up(card)} is up again."
    # undo the last turn: the game goes on
    last = tb.game.players[(tb.game.turn - 1) % 3]  # whose flip ended the game
    vs = tb.undo()
    assert vs[0].kind == OK
    assert vs[0].text.startswith(f"Undone: back to the start of {last}'s turn. Turn the card {last} flipped back so that")
    assert tb.ref.phase == "play" and log.reopened == 1 and tb.game.since == 7
    assert tb.game.players[tb.game.current_player()] == last


def test_a_rows_win_is_said_by_its_rows_on_the_screen_in_the_voice_and_after_the_end() -> None:
    """Four players: Ann takes every card she can, the others never do, until her two complete
    rows win at once. The result names the rows, not the birds, wherever it is said: the panel's
    headline, the end for the ear, and the refusal of a flip after the end."""
    tb = new_table(players=("Ann", "Bob", "Cy", "Dee"), seed=11)
    while tb.ref.phase != "over":
        if tb.game.current_player() == 0 and tb.fitting(True):
            tb.take()
        elif tb.fitting(False):
            tb.miss()
        else:
            tb.take()
    out = tb.game.outcome()
    assert out is not None and out.termination == Termination.ROWS and out.winners == (0,)
    rows = len(tb.game.completed(0))
    assert rows == tb.game.rows_to_win() == 2  # row victory: two rows with four players
    end = [v for _, reply in tb.replies for v in reply.verdicts if v.kind == END]
    assert [v.spoken for v in end] == ["The game is over. Ann wins, with two complete rows!"]
    result = PANEL.result(tb.ref.view(None))
    assert result is not None and isinstance(head := result.blocks[0], Line)
    assert head.text == "Ann wins with 2 complete rows"
    card = tb.game.table()[0]
    vs = tb.tap(card)
    assert vs[0].kind == ILLEGAL and vs[0].rule == "over"
    assert vs[0].text == "The game is over (Ann wins with 2 complete rows): that flip does not count."


def test_ending_the_game_names_the_leader_and_the_next_game_lays_out_again() -> None:
    tb = new_table(seed=9)
    tb.take()
    vs = tb.end()
    assert vs == [Verdict(END, "Game stopped. Ann wins with 1 bird.")]
    view = tb.ref.view(None)
    assert view is not None and view.phase == "over" and view.outcome is not None
    assert view.outcome.termination == "stopped"
    vs = tb.next_game()
    assert vs[0].text.startswith("Game 2 (free placement): Ann, Bob and Cy. Lay out the 30 cards")
    assert tb.game.in_setup and tb.game.history == ()  # the stopped game was not played out
    tb.lay_all(seed=3)
    assert tb.game.current_player() == 0


def test_a11_the_referee_passes_for_a_player_who_can_flip_nothing() -> None:
    """A-11 cannot happen in the published game (a table of three cards has ended it); from a
    described position where it does, the referee passes for the player at once."""

    class FromPosition(WhatsUpReferee):
        def make_engine(self, start: StartGame) -> WhatsUpState:
            return WhatsUpState.position(WhatsUpDescription(
                start.players,
                collections={
                    "Ann": {"red": 3, "yellow": 2, "green": 2},
                    "Bob": {"red": 2, "yellow": 1, "green": 3, "purple": 1},
                    "Cy": {"red": 2, "yellow": 2, "purple": 3},
                    "Dee": {"yellow": 3, "purple": 2, "green": 1},
                },
                figurines={"Bob": "W27", "Cy": "W29", "Dee": "W30"},
                since=2,
            ))

    ref = FromPosition(CODES, shared_registry())
    tb = Table(ref)
    tb.start(("Ann", "Bob", "Cy", "Dee"))
    assert tb.game.table() == ("W27", "W29", "W30") and tb.game.current_player() == 0
    vs = tb.tap("W27")
    assert [v.kind for v in vs] == [TURN, END, ILLEGAL]
    assert vs[0].text == (
        "Ann cannot flip a card: every card on the table carries another player's figurine, so "
        "Ann passes (A-11). 3 of 8 turns without an addition."
    )
    assert vs[1].text.startswith("Only 3 cards are left on the table (A-2): the game ends.")
    assert vs[2].rule == "over"
    assert tb.game.since == 3


# --- undo -------------------------------------------------------------------------------------------


def test_undo_of_a_figurine_placed_this_turn_and_of_a_card_taken_last_turn() -> None:
    tb = new_table(seed=10, variant=Variant(first_game=True))
    card = tb.fitting(True)[0]
    face_before = tb.game.up(card)
    place = tb.game.place(card)
    r, c = (place - 1) // 6 + 1, (place - 1) % 6 + 1
    tb.tap(card)  # Ann takes it
    taken = tb.game.up(card)
    other = tb.game.table()[0]
    tb.reserve(other)  # Bob's figurine, then undo within his turn
    vs = tb.undo()
    assert vs == [
        Verdict(
            OK,
            f"Undone: back to the start of Bob's turn. Take Bob's figurine off the card showing "
            f"{tb.game.up(other)}{tb.game.at(other)}.",
            "undo",
            f"Take Bob's figurine off the card showing {tb.game.up(other)}{tb.game.at(other)}.",
        )
    ]
    assert tb.game.figurine(1) is None and tb.game.current_player() == 1
    vs = tb.undo()  # and Ann's turn
    assert vs[0].text == (
        f"Undone: back to the start of Ann's turn. Ann: take the last card out of your "
        f"{taken.colour} row and lay it on the table again (row {r}, column {c}), {face_before} up."
    )
    assert tb.game.owner(card) is None and tb.game.up(card) == face_before
    assert tb.ref.corrections() == (vs[0].correction,)
    assert tb.undo()[0].text == "Nothing to undo."


# --- the log ----------------------------------------------------------------------------------------


class MemoryLog:
    def __init__(self) -> None:
        self.entries: list[dict[str, object]] = []
        self.finished: list[dict[str, object]] = []
        self.reopened = 0

    def append(self, entry: dict[str, object]) -> int:
        self.entries.append(dict(entry))
        return len(self.entries)

    def finish(self, outcome: dict[str, object], t: float | None = None) -> None:
        self.finished.append(dict(outcome))

    def reopen(self) -> None:
        self.reopened += 1


def logged_session(db: Path, seed: int, steps: int) -> tuple[GameLog, Table]:
    ref = WhatsUpReferee(CODES, shared_registry(), titles=titles())
    log = GameLog.create(db, game="whatsup", players=PLAYERS, seed=seed, config=ref.config(), created=1000.0)
    ref.attach(log)
    tb = Table(ref)
    tb.start(PLAYERS, Variant(first_game=seed % 2 == 0), seed)
    chaos = Chaos(tb, seed)
    for _ in range(steps):
        chaos.step()
    return log, tb


@pytest.mark.parametrize("seed", range(3))
def test_a_random_sessions_log_replays_to_the_same_replies(tmp_path: Path, seed: int) -> None:
    db = tmp_path / "games.sqlite"
    log, tb = logged_session(db, seed, 400)
    info, entries = load_log(db, log.game_id)
    assert info.game == "whatsup" and len(entries) == len(tb.replies)
    first = [r.reply for r in replay(info, entries, referee_for)]  # no tag_book: the log has it
    second = [r.reply for r in replay(info, entries, referee_for)]
    assert first == second == [r for _, r in tb.replies]
    kinds = {v.kind for r in first for v in r.verdicts}
    assert {OK, TURN, SOLVED, ILLEGAL, INFO} <= kinds
    # exported as JSON Lines and read back: the same game, the same replies
    buf = io.StringIO()
    log.export_jsonl(None, buf)
    j_info, j_entries = load_jsonl(buf.getvalue().splitlines())
    assert j_info == info and j_entries == entries
    assert [r.reply for r in replay(j_info, j_entries, referee_for)] == first
    log.close()


def test_resume_after_the_host_dies_goes_on_exactly_where_it_was(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    log, tb = logged_session(db, 4, 0)
    tb.lay_all(seed=4)
    tb.take()
    tb.figurine()  # Bob is about to place his figurine when the host dies
    before = (tb.ref.view(None), tb.ref.status(), tb.ref.armed, tb.game._snapshot())
    live = [r for _, r in tb.replies]
    game_id = log.game_id
    del log
    log2 = GameLog.open_latest(db)
    assert log2 is not None and log2.game_id == game_id
    ref2 = resume(log2, lambda info: referee_for(info, shared_registry()))
    assert isinstance(ref2, WhatsUpReferee)
    assert (ref2.view(None), ref2.status(), ref2.armed, ref2.engine._snapshot()) == before  # type: ignore[union-attr]
    tb.ref = ref2
    card = tb.game.table()[0]
    vs = tb.tap(card)  # the tap after the resume places the figurine
    assert vs[0].kind == OK and tb.game.figurine(1) == card
    info, entries = load_log(db, game_id)
    again = [r.reply for r in replay(info, entries, referee_for)]
    assert again == live + [r for _, r in tb.replies[len(live) :]]
    log2.close()


def test_the_config_carries_the_deck() -> None:
    ref = WhatsUpReferee(CODES)
    again = WhatsUpReferee.from_config(ref.config())
    assert again.catalogue == ref.catalogue and again.config() == ref.config()
    assert find_game("whatsup").referee is WhatsUpReferee


# --- what the table is told ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_the_table_is_never_told_a_face_down_nor_a_card_id(seed: int) -> None:
    """Every verdict for the table and the public view after every input of random sessions
    (set-up scan, flips, refusals, figurines, counts, undos, several games), checked against
    the engine's private record of the faces down."""
    tb = new_table(variant=Variant(first_game=seed % 2 == 0), seed=seed, laid=False)
    checked = watch_secrets(tb)
    chaos = Chaos(tb, seed)
    for _ in range(350):
        chaos.step()
    assert checked[0] > 300
    kinds = {v.kind for _, r in tb.replies for v in r.verdicts}
    assert {OK, TURN, SOLVED, ILLEGAL, INFO, BOARD} <= kinds


def test_the_check_fails_on_a_planted_leak() -> None:
    tb = new_table(seed=1)
    game = tb.game
    card = game.table()[0]
    down = game.down(card)
    tap = tb.replies[-2][0]
    with pytest.raises(AssertionError, match="faces"):
        check_verdicts(game, game, tap, [Verdict(TURN, f"Ann flipped a card: {down} up.")], card)
    with pytest.raises(AssertionError, match="faces"):
        check_verdicts(game, game, tap, [Verdict(ILLEGAL, "No.", "A-1", f"Turn it so that {down} is up.")], card)
    with pytest.raises(AssertionError, match="card id"):
        check_verdicts(game, game, tap, [Verdict(TURN, f"Ann flipped {card}.")], card)
    view = game.view(None)
    first = replace(view.table[0], count=down.count, colour=down.colour)
    with pytest.raises(AssertionError, match="another face"):
        check_view(game, replace(view, table=(first, *view.table[1:])))
    # a verdict for one seat alone is not the table's
    check_verdicts(game, game, tap, [Verdict(INFO, f"{card}: {down}", seat=0)], card)


def test_the_public_export_of_a_session_names_no_card_and_no_face_down(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    log, tb = logged_session(db, 3, 300)
    info, entries = load_log(db, log.game_id)
    lines = list(public_lines(info, entries, referee_for))
    assert len(lines) > 100 and lines[0]["format"] == "upref-public"
    text = json.dumps(lines)
    assert not re.search(r"\bW\d\d\b", text)
    assert "flipped a card" in text and "uid" not in text and "W0" not in text
    log.close()
