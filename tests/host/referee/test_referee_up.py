"""The Up referee, fed only what a table gives it: card taps (arriving, then leaving the reader),
the board's button and keys at the host, with time passed in (no sleeps). Scripted tables tap
chosen cards (the referee cannot tell them from real ones: it never sees a hand); `UpTable`
plays whole rounds from a dealt deck and checks that the referee sees what the table shows."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from up_table import CODES, UID, Chaos, UpTable, assert_agrees, shared_registry
from updown_table import MemoryLog
from upref.games.up.actions import DOWN, Play
from upref.games.up.demo import choose
from upref.games.up.engine import UpState
from upref.games.up.position import UpDescription
from upref.games.up.referee import UpReferee
from upref.games.up.variant import Variant, card_points
from upref.referee.feedback import FEEDBACK
from upref.referee.inputs import NextGame, StartGame
from upref.referee.status import BOARD, END, ILLEGAL, INFO, OK, TURN, Verdict
from upref.registry import referee_for, titles
from upref.store.gamelog import GameLog, load_jsonl
from upref.store.replay import load_log, public_lines, replay, resume, verdict_dict

ANN, BOB, CY = 0, 1, 2
# the deal's face-up cards, in the order they are dealt (Cy deals: Ann, Bob, Cy, Ann ...)
UPS = {ANN: ["A7", "B7", "A11", "A-2"], BOB: ["C7", "B11", "A5", "B-2"], CY: ["C11", "B5", "C5", "CD"]}


def dealt(
    variant: Variant | None = None,
    keep: str | None = None,
    ups: dict[int, list[str]] = UPS,
    **kw: object,
) -> UpTable:
    """Three players, the cut (`keep`: the card kept, with k) and the face-up cards `ups`."""
    tb = UpTable(variant=variant, **kw)  # type: ignore[arg-type]
    vs = tb.start()
    assert [v.kind for v in vs] == [INFO] and vs[0].text.startswith("Round 1 ("), vs
    if keep is not None:
        tb.key("keep")
        tb.tap(keep)
    for k in range(4):
        for seat in (ANN, BOB, CY):
            tb.tap(ups[seat][k])
    assert tb.engine.phase == "play", tb.engine
    return tb


def feedback(tb: UpTable) -> object:
    """The board feedback of the last tap or press (its arrival; the leaving says nothing)."""
    return next((r.feedback for _i, r in reversed(tb.replies[-2:]) if r.feedback is not None), None)


def said(vs: list[Verdict]) -> list[tuple[str, str | None]]:
    return [(v.kind, v.rule) for v in vs]


# --- whole rounds ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5, 10])
def test_whole_rounds_from_taps_presses_and_keys_agree_with_the_table(players: int) -> None:
    names = tuple(f"P{i}" for i in range(players))
    log = MemoryLog()
    tb = UpTable(names, seed=players, log=log)
    tb.start()
    tb.cut_and_deal()
    vs = tb.play_round(forget=1)  # checks the referee against the table after every move
    out = tb.engine.outcome()
    assert tb.ref.phase == "over" and out is not None and out.termination == "out"
    finisher = tb.engine.finisher
    assert finisher is not None and tb.truth.holding(finisher) == 0
    assert out.scores == tb.truth.outcome().scores  # type: ignore[union-attr]
    assert vs[-1].kind == END and "Next round" in vs[-1].text
    assert log.finished and log.finished[-1][0]["winners"] == [names[finisher]]
    assert feedback(tb) == FEEDBACK[END]
    # a forgotten 'last card' is caught every time, and only then
    assert sum(1 for v in vs if v.rule == "U-11" and "did not call" in v.text) == tb.forgotten
    assert len(log.entries) == len(tb.inputs)


def test_an_evening_of_rounds_carries_the_totals_and_passes_the_deal() -> None:
    tb = UpTable(seed=21, variant=Variant(rounds=3))
    tb.start()
    dealers = []
    for r in range(3):
        dealers.append(tb.engine.dealer)
        tb.cut_and_deal()
        tb.play_round()
        if r < 2:
            assert tb.view().totals == tb.truth.view(None).totals
            tb.next_round()
            assert tb.engine.round == r + 2
    assert dealers == [2, 0, 1]
    out = tb.engine.outcome()
    assert out is not None and out.termination == "rounds" and len(tb.view().table) == 3
    assert any("the evening is over" in v.text for _i, r in tb.replies[-3:] for v in r.verdicts)
    vs = tb.feed(NextGame(tb.at()))
    assert tb.engine.round == 1 and tb.view().evening == 2 and tb.view().totals == (0, 0, 0)
    assert "A new evening" in vs[-1].text


# --- the cut and the deal ------------------------------------------------------------------------


def test_the_cut_a_kept_card_with_k_and_without_k_the_first_tap_is_dealt() -> None:
    tb = dealt(keep="C-2")
    assert tb.engine.hand(BOB) == ("C-2",)
    view = tb.view()
    assert view.kept_by == BOB and [p.hand for p in view.players] == [5, 5, 5]
    assert view.unseen == (9, 8, 9)
    plain = dealt()
    assert plain.view().kept_by is None
    assert any("Bob keeps no card from the cut" in v.text for _, r in plain.replies[:2] for v in r.verdicts)


def test_a_number_kept_at_the_cut_is_refused_and_without_minus_two_a_minus_two_too() -> None:
    tb = UpTable()
    tb.start()
    tb.key("keep")
    vs = tb.tap("A7")
    assert said(vs) == [(ILLEGAL, "cut")] and vs[0].correction == "Bob: put the 7 back into the deck."
    assert tb.ref.status().corrections == ("Bob: put the 7 back into the deck.",)
    assert tb.engine.phase == "cut"
    no_minus = UpTable(variant=Variant(without_minus2=True))
    no_minus.start()
    no_minus.key("keep")
    vs = no_minus.tap("A-2")
    assert said(vs) == [(ILLEGAL, "U-10")] and "Put the -2 card back in the box." == vs[0].correction
    vs = no_minus.tap("B-2")  # the -2 without k: not in the game at all
    assert said(vs) == [(ILLEGAL, "U-10")]
    assert "disposal card" in (no_minus.ref.status().waiting_for or "")


def test_deal_taps_go_in_the_order_of_the_deal_and_twice_is_noted() -> None:
    tb = UpTable()
    tb.start()
    vs = tb.tap("A7")
    assert [v.text for v in vs if v.kind == OK] == ["Bob keeps no card from the cut.", "Ann's face-up card 1 of 4: 7."]
    assert tb.ref.status().waiting_for == "Bob's face-up card 1 of 4: tap it as it is dealt."
    vs = tb.tap("A7")
    assert said(vs) == [(INFO, None)] and "dealt to Ann already: nothing changes" in vs[0].text
    vs = tb.tap("D7")  # set D: not in a three-player game
    assert said(vs) == [(ILLEGAL, "deck")] and vs[0].correction == "Put the set D card aside."
    vs = tb.tap_uid("04DEADBEEF0001")
    assert said(vs) == [(BOARD, "tag")] and "upref enroll up" in vs[0].text
    vs = tb.undo()
    assert vs[0].text.startswith("Undone: back to the start of Ann's turn.")  # her face-up card
    assert tb.engine.view(None).dealt == 0 and tb.engine.deal_next() == ANN
    assert "Ann holds again: 0 in hand, face up none, 0 face down." in vs[0].text


# --- plays: where a card came from -------------------------------------------------------------


def test_the_first_turn_is_from_the_hand_a_face_up_card_is_refused_and_put_back() -> None:
    tb = dealt()
    vs = tb.tap("A7")
    assert said(vs) == [(ILLEGAL, "U-12")]
    assert vs[0].correction == "Ann: put the card back face up."
    # for the ear: short sentences a child follows, not the printed rule
    assert vs[0].spoken == (
        "Ann, no. In your first turn, play only cards from your hand. "
        "Ann: put the card back face up."
    )
    assert tb.ref.status().corrections == ("Ann: put the card back face up.",)
    assert feedback(tb) == FEEDBACK[ILLEGAL]
    vs = tb.tap("A9")  # an unseen card: from the hand
    assert said(vs) == [(OK, None)]
    assert vs[0].text == "Ann plays 9 from hand as the foundation. 9 or lower to play. Bob's turn."
    assert tb.ref.status().corrections == ()
    assert tb.view().players[ANN].hand == 4


def test_sources_are_known_face_up_known_hand_or_unseen_hand() -> None:
    tb = dealt()
    tb.tap("A9")  # Ann, from hand
    tb.tap("A8")  # Bob, from hand
    tb.tap("A3")  # Cy, from hand
    vs = tb.tap("A7")  # Ann's face-up 7 on 3: the tower falls, Ann takes 4 cards
    assert "Ann plays 7 from face-up. 7 on 3 is higher, so the tower falls. Ann takes 4 cards" in vs[0].text
    assert tb.view().players[ANN].up == ("7", "11", "-2") and tb.view().players[ANN].hand == 8
    vs = tb.tap("A8")  # taken from the tower: known to be in Ann's hand
    assert vs[0].text.startswith("Ann plays 8 from hand as the foundation")
    assert tb.view().unseen[ANN] == 4 + 4  # the 8 (was Bob's) was known: unseen count unchanged
    vs = tb.tap("C11")  # Cy's face-up card, in Bob's turn
    assert said(vs) == [(ILLEGAL, "turn")]
    assert "That 11 is one of Cy's face-up cards, not Bob's." == vs[0].text
    assert vs[0].correction == "Put the 11 back among Cy's face-up cards."
    vs = tb.tap("A8")  # on the tower already
    assert said(vs) == [(INFO, None)] and "on the tower already" in vs[0].text


def test_several_equal_cards_with_plus_and_a_players_own_face_up_card_without() -> None:
    tb = dealt()
    tb.tap("B9")  # Ann
    tb.tap("A6")  # Bob
    tb.tap("A4")  # Cy
    tb.tap("A10")  # Ann: higher, the tower falls; Ann lays a foundation
    tb.tap("B8")  # Ann's foundation (from hand)
    vs = tb.key("join")
    assert said(vs) == [(INFO, None)] and "Ann: tap the card of the same value" in vs[0].text
    vs = tb.tap("C8")
    assert vs[0].text == (
        "Ann adds a card to the play: Ann plays two 8s from hand as the foundation. 8 or lower "
        "to play. Bob's turn."
    )
    vs = tb.tap("C7")  # Bob's face-up 7 (his first turn is over)
    assert vs[0].text.startswith("Bob plays 7 from face-up. 7 on 8")
    vs = tb.tap("A7")  # Ann's face-up 7, in Cy's turn (and Ann did not play last)
    assert said(vs) == [(ILLEGAL, "turn")]
    assert vs[0].text == "That 7 is one of Ann's face-up cards, not Cy's."
    vs = tb.tap("C6")  # Cy, from hand
    assert vs[0].text.startswith("Cy plays 6 from hand")
    vs = tb.tap("A-2")  # Ann's face-up -2
    assert "-2 on 6 makes 4" in vs[0].text
    vs = tb.tap("B-2")  # Bob's face-up -2 (Bob's turn): 4 - 2 = 2
    assert vs[0].text.startswith("Bob plays -2 from face-up. -2 on 4 makes 2")
    vs = tb.tap("A5")  # Bob's own face-up 5 right after his -2: not equal, so not his play
    assert said(vs) == [(ILLEGAL, "turn")]
    assert vs[0].text == "That 5 is one of Bob's face-up cards, not Cy's."


def test_a_players_second_face_up_card_right_after_the_first_joins_it_without_plus() -> None:
    ups = {ANN: ["A11", "A-2", "A3", "A4"], BOB: ["B7", "C7", "B11", "B-2"], CY: ["C11", "B5", "C5", "CD"]}
    tb = dealt(ups=ups)
    for card in ("C10", "A9", "A8", "B8"):  # first turns from the hand, then Ann's hand 8
        tb.tap(card)
    vs = tb.tap("B7")
    assert vs[0].text == "Bob plays 7 from face-up. 7 on 8: 7 or lower to play. Cy's turn."
    vs = tb.tap("C7")  # nobody but Bob can play Bob's face-up 7
    assert said(vs) == [(OK, None)]
    assert vs[0].text == (
        "Bob adds a card to the play: Bob plays two 7s from face-up. 7 on 8: 7 or lower to "
        "play. Cy's turn."
    )
    assert tb.view().players[BOB].up == ("11", "-2") and tb.view().tower[-2:] == ("7", "7")


def test_plus_after_another_player_played_is_refused() -> None:
    tb = dealt()
    tb.tap("B9")
    tb.tap("A6")
    vs = tb.key("join")  # joins Bob's play: it is Bob's play that is last
    assert "Bob: tap the card" in vs[0].text
    vs = tb.tap("C9")
    assert said(vs) == [(ILLEGAL, "equal")]
    assert tb.ref.pending == ()
    vs = tb.tap("C6")  # without +: Cy's card
    assert vs[0].text.startswith("Cy plays 6 from hand")


def test_a_face_down_card_is_announced_with_b() -> None:
    tb = UpTable(seed=5)
    tb.start()
    tb.cut_and_deal()
    for _ in range(3000):
        eng = tb.engine
        seat = eng.to_move
        if eng.phase == "play" and eng.may_play_blind(seat) and tb.truth.face_down(seat):
            break
        tb.move()
        assert not tb.truth.is_terminal(), "no face-down card came into play"
    truth = tb.truth
    card = truth.face_down(seat)[0]
    assert ("b", f"{truth.players[seat]} turns a face-down card (then tap it)") in [
        (o.key, o.label) for o in tb.ref.keys_now()
    ]
    vs = tb.key("blind")
    assert said(vs) == [(INFO, None)] and tb.ref.pending == ("blind",)
    vs = tb.tap(card)
    assert vs[0].text.startswith(f"{truth.players[seat]} turns a face-down card")
    assert tb.view().players[seat].down == len(truth.face_down(seat)) - 1


def test_a_face_down_card_needs_no_b_when_the_hand_holds_no_unseen_card() -> None:
    tb = UpTable(seed=0)
    tb.start()
    tb.cut_and_deal()
    for _ in range(3000):
        action = choose(tb.truth, tb.rng)
        if isinstance(action, Play) and action.source == DOWN and tb.engine.hand_unseen(action.seat) == 0:
            break
        tb.act(action)
    else:
        raise AssertionError("no face-down card was played with a hand the referee knows")
    vs = tb.tap(action.cards[0])  # no b: the hand holds no card the referee has not seen
    tb.truth.play(action)
    assert vs[0].kind == OK and vs[0].text.startswith(f"{tb.truth.players[action.seat]} turns a face-down card")
    assert_agrees(tb)


def test_b_means_nothing_while_face_up_cards_remain() -> None:
    tb = dealt()
    tb.tap("B9")
    vs = tb.key("blind")
    assert said(vs) == [(INFO, None)] and "means nothing in Up now" in vs[0].text


# --- the button: last card -------------------------------------------------------------------------


def test_last_card_called_in_time_forgotten_and_too_late() -> None:
    tb = UpTable(seed=11)
    tb.start()
    tb.cut_and_deal()
    for _ in range(3000):
        if tb.truth.call_due is not None:
            break
        tb.move()
    due = tb.truth.call_due
    assert due is not None and tb.view().call_due == due
    assert tb.view().players[due].owes_call
    assert "owes 'last card' (the button)" in (tb.ref.status().waiting_for or "")
    vs = tb.press()
    assert said(vs) == [(OK, "U-6")] and "calls 'last card'" in vs[0].text
    vs = tb.press()
    assert said(vs) == [(INFO, "call")] and vs[0].text == "No 'last card' call is due now."
    # a second table: the call forgotten, the next card comes first
    tb2 = UpTable(seed=11)
    tb2.start()
    tb2.cut_and_deal()
    while tb2.truth.call_due is None:
        tb2.move()
    mark = len(tb2.replies)
    vs = tb2.move(call=False)[1]
    assert (TURN, "U-11") in said(vs)
    assert FEEDBACK[TURN] in [r.feedback for _i, r in tb2.replies[mark:]]  # a white blink
    vs = tb2.press()
    assert said(vs) == [(INFO, "U-11")] and vs[0].text.startswith("Too late for 'last card'")
    assert tb2.view().players[due].skip


# --- keys --------------------------------------------------------------------------------------


def test_the_dirty_one_by_the_leader_before_the_first_card() -> None:
    tb = dealt()
    assert ("1", "Ann announces the dirty One (U-9)") in [(o.key, o.label) for o in tb.ref.keys_now()]
    vs = tb.key("dirty")
    assert said(vs) == [(INFO, "U-9")] and "every 1 counts 30" in vs[0].text
    assert tb.view().dirty and tb.view().dirty_announced
    vs = tb.key("dirty")
    assert said(vs) == [(ILLEGAL, "U-9")]
    tb.tap("B9")
    assert "1" not in [o.key for o in tb.ref.keys_now()]


def test_pass_is_taken_on_word_when_the_hand_is_unseen_and_refused_while_a_tower_stands() -> None:
    tb = dealt()
    assert "x" in [o.key for o in tb.ref.keys_now()]  # a foundation is due
    tb.tap("B9")
    vs = tb.key("pass")
    assert said(vs) == [(INFO, None)] and "means nothing" in vs[0].text
    tb2 = dealt()
    vs = tb2.key("pass")
    assert (OK, "pass") in said(vs)
    assert vs[0].text == (
        "Ann cannot start a tower (the referee cannot see Ann's hand: it takes Ann's word). "
        "Bob lays the foundation."
    )


def test_keys_offered_follow_the_phase() -> None:
    tb = UpTable()
    assert tb.ref.keys_now() == ()
    tb.start()
    assert [o.key for o in tb.ref.keys_now()] == ["k", "e"]  # nothing played yet: no undo
    tb.tap("A7")
    assert [o.key for o in tb.ref.keys_now()] == ["u", "e"]


# --- the count -----------------------------------------------------------------------------------


def _to_the_count(seed: int = 10) -> UpTable:
    tb = UpTable(seed=seed)
    tb.start()
    tb.cut_and_deal()
    while not tb.truth.is_terminal():
        tb.move()
    assert tb.engine.phase == "count", tb.engine
    return tb


def test_the_count_known_cards_are_noted_others_counted_bookkeeping_refuses_the_rest() -> None:
    tb = _to_the_count()
    eng = tb.engine
    seat = eng.counting
    assert seat is not None
    truth = tb.truth
    vs = tb.tap(truth.tower[0])
    assert said(vs) == [(ILLEGAL, "count")]
    assert vs[0].text == f"That {eng.view(None).tower[0]} cannot be {truth.players[seat]}'s: the referee has it on the tower."
    if truth.face_up(seat):
        vs = tb.tap(truth.face_up(seat)[0])
        assert said(vs) == [(INFO, None)] and "known already" in vs[0].text
    vs = tb.key("points", "lots")
    assert said(vs) == [(ILLEGAL, "count")] and "whole number" in vs[0].text
    assert ("p", f"type the points of {truth.players[seat]}'s untapped cards") in [
        (o.key, o.label) for o in tb.ref.keys_now()
    ]
    vs = tb.count()
    assert vs[-1].kind == END and tb.ref.phase == "over"
    assert tb.engine.outcome().scores == truth.outcome().scores  # type: ignore[union-attr]
    vs = tb.tap(truth.deck[0])
    assert said(vs) == [(INFO, None)] and "press n for the next round" in vs[0].text


def test_points_typed_by_hand_are_counted_and_marked() -> None:
    tb = _to_the_count(seed=4)
    seat = tb.engine.counting
    assert seat is not None
    vs = tb.key("points", "37")
    assert (INFO, "count") in said(vs) and "37 points, counted by hand" in vs[0].text
    tb.count()
    row = tb.view().table[-1]
    assert row.typed[seat] and tb.ref.phase == "over"
    known = sum(
        card_points(tb.engine.catalogue.card(c), tb.engine.dirty())
        for c in (*tb.engine.hand(seat), *tb.engine.face_up(seat), *tb.engine.face_down(seat))
    )
    assert row.points[seat] == known + 37


# --- undo, stop, feedback --------------------------------------------------------------------------


def test_undo_puts_the_tower_and_the_cards_back_in_words() -> None:
    tb = dealt()
    tb.tap("B9")
    tb.tap("A6")
    tb.tap("A4")
    tb.tap("A10")  # Ann: the tower falls
    vs = tb.undo()
    assert said(vs) == [(OK, "undo")]
    assert vs[0].text.startswith("Undone: back to the start of Ann's turn.")
    assert "Put the tower back as it was: 9 · 6 · 4 (bottom first)." in vs[0].text
    assert "Ann holds again: 4 in hand, face up 7 · 7 · 11 · -2, 4 face down." in vs[0].text
    assert tb.view().tower == ("9", "6", "4") and tb.engine.to_move == ANN
    vs = tb.undo()
    assert "back to the start of Cy's turn" in vs[0].text and tb.view().tower == ("9", "6")


def test_undo_right_after_added_cards_takes_the_whole_play_back() -> None:
    tb = dealt()
    tb.tap("B9")
    tb.key("join")
    tb.tap("C9")
    vs = tb.undo()
    assert "back to the start of Ann's turn" in vs[0].text and tb.view().tower == ()


def test_a_stopped_round_is_not_scored_and_the_evening_leader_is_named() -> None:
    tb = dealt()
    tb.tap("B9")
    vs = tb.end()
    assert said(vs) == [(END, None)]
    # no round was scored: nobody leads an evening of 0 points each
    assert vs[0].text == "Game stopped before anyone scored: no winner."
    tb.feed(NextGame(tb.at()))
    assert tb.engine.round == 2 and tb.engine.dealer == ANN and tb.view().totals == (0, 0, 0)


def test_a_tag_of_another_game_is_named() -> None:
    reg = shared_registry()
    ref = UpReferee(CODES, reg, titles=titles())
    tb = UpTable(ref=ref)
    tb.start()
    uid = "04BBBBBBBBBB01"
    if reg.lookup(uid) is None:
        reg.enroll(uid, "updown", "T01")
    vs = tb.tap_uid(uid)
    assert said(vs) == [(BOARD, "tag")] and "enrolled for Up And Down, not for Up" in vs[0].text


# --- the log: replay, resume, export -----------------------------------------------------------------


def _session(tmp_path: Path, seed: int, steps: int, players: int = 4) -> tuple[GameLog, UpTable]:
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")[:players]
    ref = UpReferee(CODES, shared_registry(), titles=titles())
    log = GameLog.create(
        tmp_path / "games.sqlite", game="up", players=names, variant={}, seed=seed, config=ref.config()
    )
    ref.attach(log)
    tb = UpTable(names, seed=seed, ref=ref)
    chaos = Chaos(tb, seed)
    for _ in range(steps):
        chaos.step()
    return log, tb


def test_a_random_sessions_log_replays_to_the_same_verdicts(tmp_path: Path) -> None:
    log, tb = _session(tmp_path, 3, 700)
    said_live = [
        json.dumps(verdict_dict(0, v)) for _inp, r in tb.replies for v in r.verdicts
    ]
    info, entries = load_log(tmp_path / "games.sqlite")
    assert info.game == "up" and len(entries) == len(tb.inputs)
    again = [
        json.dumps(verdict_dict(0, v))
        for r in replay(info, entries, lambda i: referee_for(i, shared_registry()))
        for v in r.reply.verdicts
    ]
    assert again == said_live
    kinds = {json.loads(s)["rule"] for s in said_live}
    assert {"U-11", "U-13", "undo", "tag", "deck"} <= kinds


def test_the_public_export_holds_no_hand_or_face_down_card(tmp_path: Path) -> None:
    log, tb = _session(tmp_path, 5, 500)
    info, entries = load_log(tmp_path / "games.sqlite")
    lines = list(public_lines(info, entries, lambda i: referee_for(i, shared_registry())))
    text = json.dumps(lines)
    assert lines[0]["game"] == "up" and len(lines) > 50
    for uid in UID.values():
        assert uid not in text  # no tag, so no card of anyone's hand
    assert not re.search(r"\b[A-J](?:1[01]|[1-9]|-2|D)\b", text)  # no card id at all


def test_the_catalogue_travels_in_the_log_header() -> None:
    ref = UpReferee(CODES, shared_registry())
    config = ref.config()
    again = UpReferee.from_config(config, shared_registry())
    assert again.catalogue.cards == ref.catalogue.cards


def test_feedback_for_each_kind() -> None:
    tb = dealt()
    tb.tap("B9")
    assert feedback(tb) == FEEDBACK[OK]
    tb.tap("B9")
    assert feedback(tb) == FEEDBACK[INFO]
    tb.tap("C11")
    assert feedback(tb) == FEEDBACK[ILLEGAL]


def test_resume_rebuilds_the_evening_and_plays_on_exactly_alike(tmp_path: Path) -> None:
    log, tb = _session(tmp_path, 9, 400)
    before = tb.ref
    before.attach(None)  # the first host is gone
    again = resume(
        GameLog.open(tmp_path / "games.sqlite", log.game_id),
        lambda i: referee_for(i, shared_registry()),
    )
    again.attach(None)
    assert again.view(None) == before.view(None) and again.status() == before.status()
    mark = len(tb.inputs)
    chaos = Chaos(tb, 99)
    chaos.marks = [(len(tb.engine._undo_stack), len(tb.truth._undo_stack))]
    for _ in range(150):
        chaos.step()
    for inp, (_i, reply) in zip(tb.inputs[mark:], tb.replies[mark:], strict=True):
        assert again.handle(inp) == reply


GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "up"


def test_a_saved_evening_keeps_its_verdicts(tmp_path: Path, golden: Callable[[Path, str], None]) -> None:
    """A saved log (tests/golden/up/session.jsonl: an evening of four with refusals, forgotten
    calls, undos, a stopped round and counts) replays through today's referee to the verdicts it
    gave when it was written: a saved game keeps its meaning."""
    names = ("Ann", "Bob", "Cy", "Dee")
    ref = UpReferee(CODES, shared_registry(), titles=titles())
    log = GameLog.create(
        tmp_path / "games.sqlite", game="up", players=names, variant={}, seed=1,
        config=ref.config(), created=1_700_000_000.0,
    )
    ref.attach(log)
    chaos = Chaos(UpTable(names, seed=1, ref=ref), 1)
    for _ in range(180):
        chaos.step()
    written = io.StringIO()
    log.export_jsonl(None, written)
    golden(GOLDEN / "session.jsonl", written.getvalue())
    info, entries = load_jsonl((GOLDEN / "session.jsonl").read_text(encoding="utf-8").splitlines())
    replies = list(replay(info, entries, referee_for))
    said = [json.dumps(verdict_dict(r.entry.seq, v), ensure_ascii=False) for r in replies for v in r.reply.verdicts]
    rules = {json.loads(s)["rule"] for s in said}
    assert {"U-6", "U-11", "U-13", "undo", "count"} <= rules, rules
    golden(GOLDEN / "session.verdicts.jsonl", "\n".join(said) + "\n")


# --- rulings at the table, from described positions ---------------------------------------------


class _Described(UpReferee):
    """A referee whose round is a described position (`UpState.position`) instead of a deal."""

    def __init__(self, game: UpState) -> None:
        super().__init__(CODES, shared_registry(), titles=titles())
        self._described = game

    def make_engine(self, start: StartGame) -> UpState:
        return self._described.clone()


def described(players: tuple[str, ...] = ("Ann", "Bob", "Cy"), **kw: object) -> UpTable:
    """A table (three players: Ann, Bob, Cy) whose referee starts in the described position."""
    game = UpState.position(UpDescription(players, **kw))  # type: ignore[arg-type]
    tb = UpTable(players, ref=_Described(game))
    tb.start()
    assert tb.engine.phase == "play"
    return tb


def ids(tb: UpTable, seat: int, face: str, n: int = 1) -> list[str]:
    """The ids of `n` cards of that face the seat holds (hand, face-up, face-down)."""
    eng = tb.engine
    pile = (*eng.hand(seat), *eng.face_up(seat), *eng.face_down(seat))
    found = [c for c in pile if eng.catalogue.card(c).face == face][:n]
    assert len(found) == n, (face, pile)
    return found


def test_u18_two_disposal_cards_tapped_with_plus_clear_the_tower_together() -> None:
    tb = described(tower=["7", "7"], hands={"Ann": ["3", "6", "11", "D", "D"]}, to_move="Ann")
    first, second = ids(tb, ANN, "disposal", 2)
    vs = tb.tap(first)
    assert said(vs) == [(OK, None)] and "the tower is out of the game (3 cards)" in vs[0].text
    assert any(k.key == "+" for k in tb.ref.keys_now())
    tb.key("join")
    vs = tb.tap(second)
    assert said(vs) == [(OK, "U-18")]
    assert vs[0].text == (
        "Ann adds a card to the play: Ann plays two disposal cards from hand. Disposal: the "
        "tower is out of the game (4 cards); Ann starts again (U-18)."
    )
    view = tb.view()
    assert view.tower == () and view.founding and view.to_move == ANN and view.players[ANN].hand == 3
    vs = tb.tap(ids(tb, ANN, "11")[0])
    assert said(vs) == [(OK, None)] and tb.view().to_move == BOB


def test_u18_a_hand_disposal_card_with_a_face_up_one_is_u15_at_the_table() -> None:
    tb = described(tower=["9"], hands={"Ann": ["D", "4"]}, up={"Ann": ["D"]}, to_move="Ann")
    hand = next(c for c in ids(tb, ANN, "disposal", 2) if c in tb.engine.hand(ANN))
    up = next(c for c in ids(tb, ANN, "disposal", 2) if c in tb.engine.face_up(ANN))
    tb.tap(up)
    tb.key("join")
    vs = tb.tap(hand)
    assert said(vs) == [(ILLEGAL, "U-15")]
    assert "this card is from hand, the play from face-up" in vs[0].text


def test_u20_two_forgotten_calls_at_the_table_each_skip_their_own_turn() -> None:
    tb = described(("Ann", "Bob"), tower=["10"], hands={"Ann": ["8", "1"], "Bob": ["9", "2"]}, to_move="Bob")
    vs = tb.tap(ids(tb, BOB, "9")[0])
    assert said(vs) == [(OK, None), (INFO, "U-6")]
    vs = tb.tap(ids(tb, ANN, "8")[0])  # Bob did not press the button; Ann does not either
    assert said(vs) == [(TURN, "U-11"), (OK, None), (TURN, "U-20"), (INFO, "U-6")]
    assert vs[2].text.endswith("unless Ann calls before Bob's card (U-20). Bob's turn.")
    assert tb.view().to_move == BOB and "Bob: play 8 or lower" in (tb.ref.status().waiting_for or "")
    vs = tb.tap(ids(tb, BOB, "2")[0])
    assert (END, None) in said(vs) and tb.engine.finisher == BOB and tb.engine.holding(ANN) == 1


def test_u20_the_button_before_the_next_card_gives_the_turn_back_at_the_table() -> None:
    tb = described(("Ann", "Bob"), tower=["10"], hands={"Ann": ["8", "1"], "Bob": ["9", "2"]}, to_move="Bob")
    tb.tap(ids(tb, BOB, "9")[0])
    tb.tap(ids(tb, ANN, "8")[0])
    vs = tb.press()
    assert said(vs) == [(OK, "U-20")] and "Ann's turn is not skipped after all" in vs[0].text
    assert tb.view().to_move == ANN
    vs = tb.tap(ids(tb, ANN, "1")[0])
    assert (END, None) in said(vs) and tb.engine.finisher == ANN


def test_u19_childrens_card_counting_at_the_table_the_child_out_writes_zero() -> None:
    # a described round: Ann goes out with her last face-down card, a -2 (no bonus for children)
    tb = described(
        variant=Variant(scoring="cards"), tower=["7"], down={"Ann": ["-2"]},
        hands={"Bob": ["5", "D"], "Cy": ["4"]}, to_move="Ann",
    )
    tb.key("blind")
    vs = tb.tap(ids(tb, ANN, "-2")[0])
    end = " ".join(v.text for v in vs if v.kind == END)
    assert "Ann went out: 0 (0 in all)" in end and "bonus" not in end
    row = tb.view().table[-1]
    assert row.finisher == ANN and row.bonus == 0 and row.points == (0, 2, 1)
    # a whole observed round of children's card counting: the finisher writes 0, the others
    # as many as the cards they still hold
    tb = UpTable(seed=4, variant=Variant(scoring="cards"))
    tb.start()
    tb.cut_and_deal()
    tb.play_round()
    row = tb.view().table[-1]
    finisher = row.finisher
    assert finisher is not None and row.points[finisher] == 0 and row.bonus == 0
    assert row.points == tuple(0 if p == finisher else tb.truth.holding(p) for p in range(3))


def test_u4_a_face_down_card_is_one_play_and_plus_after_it_says_why() -> None:
    # Ann holds 10 and 11 and four face-down cards, tower 5, past her first turn
    tb = described(tower=["5"], hands={"Ann": ["10", "11"]}, down={"Ann": ["3", "8", "9", "2"]}, to_move="Ann")
    assert all(k.key != "+" for k in tb.ref.keys_now())
    tb.key("blind")
    vs = tb.tap(ids(tb, ANN, "3")[0])
    assert said(vs) == [(OK, None)] and vs[0].text.startswith("Ann turns a face-down card: 3.")
    assert all(k.key != "+" for k in tb.ref.keys_now())
    vs = tb.key("join")
    assert said(vs) == [(INFO, "U-4")] and "played one at a time" in vs[0].text
    assert tb.ref.pending == () and tb.view().to_move == BOB
