"""The Flip a Bird referee, driven only by what a table does: cards and tip cards tapped, the
button, keys; time passed in, no sleeps. Its log replays to the very same verdicts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flipabird_table import CAT, UID, Chaos, FlipTable, new_table
from upref.games.flipabird.variant import Variant
from upref.referee.feedback import FEEDBACK
from upref.referee.inputs import EndGame, NextGame, StartGame
from upref.referee.status import BOARD, END, ILLEGAL, INFO, OK, SOLVED, TURN, Verdict
from upref.registry import referee_for
from upref.store.gamelog import GameLog
from upref.store.replay import load_log, public_lines, replay, resume, verdict_dict


def kinds(vs: list[Verdict]) -> list[tuple[str, str | None]]:
    return [(v.kind, v.rule) for v in vs]


def scanned(players: tuple[str, ...] = ("Ann", "Bob", "Cy"), seed: int = 1, variant: Variant | None = None) -> FlipTable:
    tb = new_table(players, seed, variant)
    tb.started()
    assert tb.ref.phase == "play" and tb.eng.scanned
    return tb


def play_until(tb: FlipTable, done, limit: int = 400) -> None:  # type: ignore[no-untyped-def]
    """Legal play: the player to move plays the card held longest, claims when the true row is
    over the limit (tips: the truth), takers take in row order."""
    for _ in range(limit):
        if done():
            return
        eng = tb.eng
        if eng.phase == "tips":
            ev_red = _over(tb)
            tb.tips(ev_red)
        elif eng.phase == "take":
            tb.take_all()
        elif eng.can_pass():
            tb.key("pass")
        elif eng.row and _over(tb):
            tb.claim()
        else:
            tb.play()
    raise AssertionError(f"not reached in {limit} steps: {tb.eng!r}")


def _over(tb: FlipTable) -> bool:
    from upref.games.flipabird.evaluation import evaluate

    eng = tb.eng
    row = eng.claim_state.row if eng.claim_state is not None else eng.row
    return evaluate([CAT.card(r.card) for r in row], eng.limit).total > eng.limit


# --- the set-up scan ---------------------------------------------------------------------------


def test_the_pile_scan_counts_every_tap_and_starts_the_game_with_the_pile_known() -> None:
    tb = new_table(seed=4)
    vs = tb.start()
    assert kinds(vs) == [(INFO, "setup")]
    assert vs[0].text.startswith("Set-up: shuffle the 60 game cards and deal 2 to each player.")
    assert "the last card tapped is the top" in vs[0].text and "The pile scan takes 54 cards" in vs[0].text
    assert tb.ref.status().waiting_for == (
        "Pile scan: 0 of 54 cards tapped. Tap the next card and lay it face down on the pile (s "
        "skips the scan)."
    )
    assert [o.key for o in tb.ref.keys_now()] == ["s", "e"]
    order = list(reversed(tb.pile))
    assert tb.tap(order[0]) == [Verdict(OK, "Pile scan: 1 of 54.", "setup")]
    assert tb.tap(order[0]) == [
        Verdict(INFO, "That card was tapped already (card 1 of the scan): tap the next one (1 of 54).", "setup")
    ]
    assert tb.tap("TIP-R1")[0].text.startswith("That is a tip card")
    vs = tb.scan()[2:]  # the first card again: tapped already
    assert vs[-3] == Verdict(OK, "Pile scan: 53 of 54.", "setup")
    assert vs[-2] == Verdict(OK, "Pile scan complete: 54 of 54, the draw pile is known.", "setup")
    assert vs[-1].kind == INFO and vs[-1].text.startswith("Game 1 (the whole deck): Ann, Bob and Cy.")
    assert "checks that it can be in its player's hand" in vs[-1].text
    assert tb.eng.pile == tb.pile  # the last card tapped is the top
    for _, reply in tb.replies:  # no scan verdict names a card
        for v in reply.verdicts:
            assert not any(re.search(rf"\b{c}\b", v.text) for c in tb.pile)


def test_skipping_the_scan_says_what_the_referee_cannot_check_and_keys_give_the_face() -> None:
    tb = new_table(seed=2)
    tb.start()
    tb.scan(5)
    vs = tb.key("skip-scan")
    assert vs[0] == Verdict(INFO, "Pile scan skipped (5 cards tapped so far are forgotten).", "setup")
    assert "No pile scan: the referee cannot see the pile's backs. Press o" in vs[1].text
    assert "it cannot check that a card can be in its player's hand" in vs[1].text
    eng = tb.eng
    assert not eng.scanned and eng.pile is None and eng.pile_left == 54
    assert [o.key for o in tb.ref.keys_now()] == ["o", "e"]  # nothing played yet: no undo offered
    assert "press o first if the pile then shows an open cage" in (tb.ref.status().waiting_for or "")
    card = tb.truth.hands[0][0]
    vs = tb.key("open")
    assert vs == [Verdict(INFO, "Ann's card goes face up (open cage on the pile).")]
    assert [o.key for o in tb.ref.keys_now()][0] == "d"
    vs = tb.play()
    assert vs[0].kind == OK and vs[0].text.startswith(f"Ann played {card} face up: ")
    vs = tb.play()  # no key: face down
    assert vs[0].text.startswith("Bob played a card face down.")
    tb.key("open")
    tb.key("covered")
    vs = tb.play()
    assert vs[0].text.startswith("Cy played a card face down.")


def test_with_the_scan_the_face_keys_are_not_needed() -> None:
    tb = scanned()
    assert tb.key("open") == [
        Verdict(INFO, "No key needed: the referee knows the pile's backs from the scan.")
    ]
    assert "o" not in [k.key for k in tb.ref.keys_now()]


# --- plays and refusals ---------------------------------------------------------------------------


def test_a_second_card_from_the_pile_is_refused_by_the_scan_and_the_fix_stays_until_play_goes_on() -> None:
    tb = scanned(seed=3)
    tb.play()
    second = tb.truth.stack[1]
    vs = tb.tap(second)
    assert vs == [
        Verdict(
            ILLEGAL,
            "By the set-up scan that card lay in the draw pile (just under the top card), so it "
            "cannot be in Bob's hand: a turn draws only the top card.",
            "hand",
            "Put that card back on top of the draw pile, then play a card from your hand.",
        )
    ]
    # for the ear: short sentences a child follows
    assert vs[0].spoken == (
        "Bob, no. That card is still in the draw pile. It is not in your hand. Put that card "
        "back on top of the draw pile, then play a card from your hand."
    )
    assert tb.replies[-2][1].feedback == FEEDBACK[ILLEGAL]
    fix = "Put that card back on top of the draw pile, then play a card from your hand."
    assert tb.ref.status().corrections == (fix,) and tb.ref.status().waiting_for == fix
    assert len(tb.eng.row) == 1
    vs = tb.play()
    assert vs[0].kind == OK and tb.ref.status().corrections == ()


def test_taps_of_row_won_and_tip_cards_in_a_turn() -> None:
    tb = scanned(seed=5)
    tb.play()
    first = tb.eng.row[0].card
    assert tb.tap(first) == [Verdict(INFO, "That card was just played (position 1): nothing changes.")]
    tb.play()
    vs = tb.tap(first)
    assert kinds(vs) == [(ILLEGAL, "row")] and first not in vs[0].text
    assert tb.tap("TIP-G2")[0].text.startswith("That is a tip card: tip cards are tapped at a claim")


def test_a_claim_needs_a_row_f14() -> None:
    tb = scanned()
    vs = tb.claim()
    assert vs == [
        Verdict(
            ILLEGAL,
            "There is no row to claim against: a claim needs at least one card in the row (F-14).",
            "F-14",
            "Ann: draw and play a card to start the row.",
        )
    ]
    vs = tb.press()
    assert kinds(vs) == [(ILLEGAL, "F-14")]


def test_f16_the_key_flags_the_card_just_played_and_asks_to_turn_it() -> None:
    tb = scanned(seed=6)
    tb.play()
    up = tb.eng.row[0].up
    way = "up" if up else "down"
    vs = tb.key("wrong-way")
    assert vs == [
        Verdict(
            INFO,
            f"Ann's card at position 1 went the wrong way: it must lie face {way}. Turn it face "
            f"{way}; the play stands (F-16).",
            "F-16",
            f"Turn the card at position 1 face {way}.",
        )
    ]
    assert tb.ref.status().corrections == (f"Turn the card at position 1 face {way}.",)
    assert "w" not in [k.key for k in tb.ref.keys_now()]
    assert kinds(tb.key("wrong-way")) == [(ILLEGAL, "F-16")]
    tb.play()
    assert tb.ref.status().corrections == ()


# --- a claim -----------------------------------------------------------------------------------


def test_a_claim_by_the_button_tips_by_tag_and_key_evaluation_and_sharing() -> None:
    tb = scanned(("Ann", "Bob", "Cy", "Dee"), seed=7)
    for _ in range(5):
        tb.play()
    # Bob to move, against Ann
    vs = tb.claim(button=True)
    assert kinds(vs) == [(OK, None)]
    assert vs[0].text.startswith("Bob claims: \"Bei dir piept's wohl!\" — too many birds in the row Ann played to.")
    assert [k.key for k in tb.ref.keys_now()] == ["3", "4", "u", "e"]
    offer = tb.ref.keys_now()[0]
    assert offer.prompt == "Cy's tip card, as revealed (red or green)"
    assert tb.ref.status().waiting_for == (
        "Tips from Cy and Dee: reveal all at once, then tap your tip card (or press 3 and 4)."
    )
    assert kinds(tb.tap("TIP-G1")) == [(ILLEGAL, "tips")]  # Ann is accused: green, face up
    assert kinds(tb.tap("TIP-R5")) == [(ILLEGAL, "seat")]  # no fifth player
    assert tb.key("tip", "3 blue") == [Verdict(INFO, "Cy's tip was not entered: answer red or green (r or g).")]
    vs = tb.tap("TIP-R3")
    assert vs == [Verdict(OK, "Cy's tip is in (1 of 2); waiting for Dee.")]
    view = tb.ref.view(None)
    assert view is not None and [p.tip for p in view.players] == ["green", "red", None, None]
    vs = tb.key("tip", "4 g")
    assert [v.kind for v in vs[:1]] == [OK] and vs[0].text.startswith(
        "All tips are in: Ann green (accused), Bob red (claim), Cy red, Dee green. Turn the row face up: 5 cards."
    )
    assert [v.text[:13] for v in vs[1:4]] == ["Evaluation 1."] * 1 + ["Evaluation 2."] + ["Evaluation 3."]
    ev = tb.eng.evaluation
    assert ev is not None and vs[4].kind == SOLVED and vs[4].text.startswith(ev.summary)
    assert tb.replies[-1][1].feedback == FEEDBACK[SOLVED]  # the tip key's reply
    claim = tb.eng.claim_state
    assert claim is not None
    first = "Bob" if ev.red_right else "Ann"
    assert vs[4].text.endswith(f"{first}: take a card and tap it.")
    assert kinds(tb.tap("B3d" if "B3d" not in claim.left else "B3c")) == [(ILLEGAL, "F-6")]
    taker = tb.eng.taker()
    card = claim.left[-1]
    vs = tb.tap(card)
    assert vs[0].kind == OK and vs[0].text.startswith(f"{tb.players[taker]} takes {card} (")
    assert tb.tap(card) == [Verdict(INFO, f"{card} was just taken: nothing changes.")]
    vs = tb.take_all()
    assert vs[-1].kind == TURN and vs[-1].text.endswith("Bob starts a new row: draw and play.")
    assert tb.eng.current_player() == 1 and tb.eng.row == ()


def test_a_whole_game_with_claims_ends_naming_the_winner_then_the_won_cards_are_checked(tmp_path: Path) -> None:
    tb = scanned(seed=8, variant=Variant(pile=18))
    play_until(tb, lambda: tb.ref.phase == "over")
    out = tb.eng.outcome()
    assert out is not None
    reply = next(r for _, r in reversed(tb.replies) if r.verdicts)
    last = list(reply.verdicts)
    ends = [v for v in last if v.kind == END]
    assert len(ends) == 1 and all(tb.players[w] in ends[0].text for w in out.winners)
    assert last[-1].text.startswith("To check the scores, tap your won cards, one player after the other, Ann first")
    assert reply.feedback == FEEDBACK[END]
    # Ann taps her cards, one of Bob's, and a card nobody won; Bob taps nothing
    won = {s: [c.id for c in tb.eng.won(s)] for s in range(3)}
    for card in won[0]:
        assert tb.tap(card)[0].kind == OK
    if won[1]:
        vs = tb.tap(won[1][0])
        assert vs == [
            Verdict(
                ILLEGAL,
                f"{won[1][0]} is Bob's by the referee's record, not Ann's: the record counts.",
                "score",
                f"Give {won[1][0]} to Bob.",
            )
        ]
    lost = next(c for c in CAT.ids() if not any(c in w for w in won.values()))
    vs = tb.tap(lost)
    assert kinds(vs) == [(ILLEGAL, "score")] and lost not in vs[0].text
    vs = tb.press()
    assert vs[0].kind == OK
    assert vs[0].text.startswith(f"Ann: all {len(won[0])} won cards confirmed" if won[0] else "Ann won no card")
    assert vs[-1] == Verdict(INFO, "Bob: tap your won cards.")
    vs = tb.key("confirm-next")
    if won[1]:
        assert vs[0].kind == ILLEGAL and vs[0].rule == "score" and "by the record not tapped" in vs[0].text
    tb.key("confirm-next")
    assert tb.ref.status().waiting_for == "The next game (n), or a new one."


def test_f11_no_card_no_claim_ends_the_game_by_key() -> None:
    tb = scanned(seed=9, variant=Variant(pile=4))
    for _ in range(200):
        eng = tb.eng
        if eng.can_pass():
            break
        if eng.phase == "tips":
            tb.tips(True)
        elif eng.phase == "take":
            tb.take_all()
        else:
            tb.play()
    assert tb.eng.can_pass()
    name = tb.players[tb.eng.current_player()]
    assert "p" in [k.key for k in tb.ref.keys_now()]
    assert tb.ref.status().waiting_for == (
        f"{name} has no card left: claim (c or the button), or p to end the game without "
        "evaluating the row (F-11)."
    )
    vs = tb.key("pass")
    assert vs[0].kind == END and vs[0].rule == "F-11"
    assert vs[0].text.startswith(f"{name} has no card left and does not claim: the game ends without evaluating the row (F-11).")


# --- undo ------------------------------------------------------------------------------------


def test_undo_a_play_says_take_the_card_back_and_put_the_draw_back() -> None:
    tb = scanned(seed=10)
    tb.play()
    tb.play()
    vs = tb.undo()
    assert vs == [
        Verdict(
            OK,
            "Undone: back to the start of Bob's turn. Bob: take the card you played (position 2) "
            "back into your hand and put the card you drew back on top of the draw pile.",
            "undo",
            "Bob: take the card you played (position 2) back into your hand and put the card you "
            "drew back on top of the draw pile.",
        )
    ]
    assert len(tb.eng.row) == 1 and tb.eng.current_player() == 1
    tb.undo()
    assert tb.eng.row == () and tb.eng.current_player() == 0  # the first turn too
    assert tb.undo() == [Verdict(INFO, "Nothing to undo.")]


def test_undo_a_settled_claim_lays_the_row_out_again_face_down_where_it_was() -> None:
    tb = scanned(seed=11)
    for _ in range(4):
        tb.play()
    down = [str(i) for i, r in enumerate(tb.eng.row, start=1) if not r.up]
    tb.claim()
    tb.tips(True)
    claim = tb.eng.claim_state
    assert claim is not None
    tb.tap(claim.left[0])
    vs = tb.undo()
    assert vs[0].kind == OK and "Lay the row out again as it was before the claim (4 cards, " in vs[0].text
    if down:
        assert f"face down again at position{'s' if len(down) > 1 else ''} " in vs[0].text
    assert tb.eng.phase == "turn" and len(tb.eng.row) == 4 and tb.eng.claim_state is None


# --- the log -------------------------------------------------------------------------------------


def _logged_session(tmp_path: Path, seed: int) -> tuple[FlipTable, Path]:
    tb = new_table(("Ann", "Bob", "Cy", "Dee")[: 3 + seed % 2], seed, Variant(pile=20) if seed % 2 else Variant())
    db = tmp_path / f"games{seed}.sqlite"
    log = GameLog.create(db, game="flipabird", players=tb.players, variant=tb.variant.to_dict(), seed=seed, config=tb.ref.config())
    tb.ref.attach(log)
    tb.start()
    for _ in Chaos(tb, seed).run(1500):
        pass
    log.close()
    return tb, db


@pytest.mark.parametrize("seed", range(3))
def test_a_random_session_replays_to_the_same_verdicts(tmp_path: Path, seed: int) -> None:
    tb, db = _logged_session(tmp_path, seed)
    assert tb.ref.phase == "over"
    info, entries = load_log(db)
    got = [
        verdict_dict(r.entry.seq, v) for r in replay(info, entries, referee_for) for v in r.reply.verdicts
    ]
    want = [
        verdict_dict(e.seq, v)
        for e, (_inp, reply) in zip(entries, tb.replies, strict=True)
        for v in reply.verdicts
    ]
    assert got == want and len(got) > 100
    rules = {v["rule"] for v in got if v["rule"]}
    assert {"setup", "undo"} <= rules


def test_resume_rebuilds_the_game_from_its_log(tmp_path: Path) -> None:
    tb = new_table(seed=12)
    db = tmp_path / "games.sqlite"
    log = GameLog.create(db, game="flipabird", players=tb.players, variant={}, seed=12, config=tb.ref.config())
    tb.ref.attach(log)
    tb.started()
    for _ in range(7):
        tb.play()
    tb.claim()
    log.close()
    again = GameLog.open_latest(db, game="flipabird")
    assert again is not None
    ref = resume(again, referee_for)
    eng = ref.engine
    assert eng is not None and eng._snapshot() == tb.eng._snapshot()
    assert ref.status() == tb.ref.status()


def test_the_public_export_names_no_secret_card(tmp_path: Path) -> None:
    tb, db = _logged_session(tmp_path, 1)
    info, entries = load_log(db)
    lines = list(public_lines(info, entries, referee_for))
    assert lines[0]["format"] == "upref-public" and len(lines) > 50
    text = json.dumps(lines)
    assert "uid" not in text and "04F1B2" not in text  # no input, no tag
    public = [v.text for v in tb.public()]
    assert [ln["text"] for ln in lines[1:]] == public


def test_the_config_keeps_the_catalogue_for_replays() -> None:
    tb = new_table()
    config = json.loads(json.dumps(tb.ref.config()))
    assert config["game"] == "flipabird" and len(config["catalogue"]["birds"]) == 48
    ref = type(tb.ref).from_config(config)
    assert ref.catalogue.cards == tb.ref.catalogue.cards


def test_next_game_asks_for_a_new_scan_and_stop_scores_the_won_cards() -> None:
    tb = scanned(seed=13, variant=Variant(pile=10))
    play_until(tb, lambda: tb.ref.phase == "over")
    vs = tb.feed(NextGame(tb.at()))
    assert vs[0].kind == INFO and vs[0].text.startswith("Set-up:") and tb.ref.scanning
    tb.key("skip-scan")
    assert tb.eng.game_number == 2 and len(tb.eng.view(None).history) == 1
    tb.play()
    vs = tb.feed(EndGame(tb.at()))
    # one card played, nobody has won a card yet: the stop names no winner
    assert vs[0].kind == END and vs[0].text == "Game stopped before anyone scored: no winner."
    assert tb.ref.stopped is not None and tb.ref.stopped.winners == ()


def test_a_tag_of_another_game_gets_a_board_verdict() -> None:
    reg = __import__("flipabird_table").enrolled_tags()
    reg.enroll("04DEADBEEF0001", "updown", "T07")
    tb = new_table(tag_book=reg)
    tb.started()
    UID["T07"] = "04DEADBEEF0001"
    try:
        vs = tb.tap("T07")
    finally:
        del UID["T07"]
    assert kinds(vs) == [(BOARD, "tag")] and "enrolled for Up And Down, not for Flip a Bird" in vs[0].text


@pytest.mark.parametrize(
    ("players", "variant", "why"),
    [
        (("Ann", "Bob"), Variant(), "Cannot start: Flip a Bird is for 3 to 6 players, not 2."),
        (
            ("Ann", "Bob", "Cy"), Variant(pile=55),
            "Cannot start: a draw pile of 55 cards is more than the 54 left after dealing 2 cards "
            "to each of 3 players.",
        ),
        (("Ann", "Bob", "Ann"), Variant(), "Cannot start: player names must differ: ('Ann', 'Bob', 'Ann')."),
    ],
)
def test_a_start_the_game_cannot_have_is_refused_before_anything_at_the_table(
    players: tuple[str, ...], variant: Variant, why: str
) -> None:
    tb = new_table()
    vs = tb.feed(StartGame(players, variant, 1, tb.at()))
    assert vs == [Verdict(INFO, why)]
    assert tb.ref.phase == "idle" and not tb.ref.scanning
