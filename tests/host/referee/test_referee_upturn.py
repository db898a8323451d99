"""The Upturn referee, driven only by what a table gives it: tiles tapped, keys at the host and
the board's button, with time passed in (no sleeps). A dealt engine plays the real tiles
(`upturn_table`), so every move is one the players could make."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from upref.commands.replay import export_main
from upref.games.base import IllegalMoveError
from upref.games.upturn.actions import Action, Call, Draw, Gift, Lay, Pass, Start
from upref.games.upturn.demo import RACKS, STEPS, TURNED_UP
from upref.games.upturn.engine import UpturnState
from upref.games.upturn.position import UpturnDescription
from upref.games.upturn.referee import UpturnReferee, parse_gift
from upref.games.upturn.tiles import load_catalogue
from upref.games.upturn.variant import Variant
from upref.referee.base import KeyOffer
from upref.referee.feedback import FEEDBACK
from upref.referee.inputs import EndGame, NextGame, StartGame, Undo
from upref.referee.status import BOARD, END, ILLEGAL, INFO, OK, TURN, Verdict
from upref.registry import referee_for, titles
from upref.store.gamelog import GameLog
from upref.store.replay import load_log, public_lines, replay, resume
from upturn_table import (
    CODES,
    PLAYERS,
    TILE,
    UID,
    MemoryLog,
    RandomPlayers,
    UpturnTable,
    session,
    tile_registry,
)


def referee(**kw: object) -> UpturnReferee:
    return UpturnReferee(CODES, tile_registry(), titles=titles(), **kw)  # type: ignore[arg-type]


def table_at(
    line: tuple[str | int, ...],
    racks: list[list[str | int]],
    direction: str | None,
    players: tuple[str, ...] = PLAYERS,
    to_move: int = 0,
    owing: int | None = None,
    **kw: object,
) -> UpturnTable:
    """A referee whose game has reached a described position: the table's tiles (the shadow)
    hold `racks`, the referee counts them; the line is tapped down first, as laid; `owing`
    owes the "one tile left" call."""
    ref = referee(**kw)
    tb = UpturnTable(ref, players, variant=Variant(deal=len(racks[0])))
    tb.shadow = UpturnState.position(UpturnDescription(
        list(players), line=line, racks=racks, direction=direction, to_move=to_move, owing=owing
    ))
    tb.feed(StartGame(players, tb.variant, 1, tb.at()))
    eng = ref.engine
    assert eng is not None
    rebuilt = UpturnState.position(UpturnDescription(
        list(players),
        line=line,
        racks=[len(r) for r in racks],
        direction=direction,
        to_move=to_move,
        owing=owing,
    ))
    eng._s = rebuilt._s  # the referee has followed the game to here
    ref.note_play()
    tb.offset = 0
    return tb


def short_pool(
    racks: list[list[str | int]],
    line: tuple[str | int, ...],
    pool: int,
    direction: str | None = "up",
    players: tuple[str, ...] = PLAYERS,
    owing: int | None = None,
) -> UpturnTable:
    """`table_at` with only `pool` tiles left in the pool: every other tile lies on the line
    before `line` (racks and line name tiles by number or id)."""
    named = {f"N{x}" if isinstance(x, int) else x for r in racks for x in r}
    named |= {f"N{x}" if isinstance(x, int) else x for x in line}
    rest = [t for t in load_catalogue().ids() if t not in named]
    return table_at((*rest[pool:], *line), racks, direction, players, owing=owing)


def keys(ref: UpturnReferee) -> dict[str, KeyOffer]:
    return {o.key: o for o in ref.keys_now()}


def kinds(vs: list[Verdict]) -> list[str]:
    return [v.kind for v in vs]


def counts(ref: UpturnReferee) -> tuple[int, ...]:
    eng = ref.engine
    assert eng is not None
    return eng.counts()


# --- the demo's game, move by move ----------------------------------------------------------------


def test_a_whole_game_from_taps_keys_and_presses() -> None:
    """The demo's scripted game, fed straight to a referee: every verdict kind and rule in
    order, the counts the referee keeps, and the winner."""
    log = MemoryLog()
    ref = referee(log=log)
    tb = UpturnTable(ref, ("Ann", "Bob", "Cy"), variant=Variant(deal=5))
    said: list[list[Verdict]] = []
    tb.feed(StartGame(("Ann", "Bob", "Cy"), Variant(deal=5), 9, tb.at()))
    for kind, what, _words in STEPS:
        if kind == "tap":
            said.append(tb.tap(what))
        elif kind == "button":
            said.append(tb.press())
        else:
            offer = keys(ref)[what]
            said.append(tb.feed(offer.make(tb.at(), offer.default)))
    got = [[(v.kind, v.rule) for v in vs] for vs in said]
    assert got == [
        [(ILLEGAL, "T-1")],  # a Joker turned up as the Starting tile
        [(TURN, None)],  # 40: Ann's first move is named
        [(TURN, None)],  # 52: up, clockwise
        [(ILLEGAL, "direction")],  # 31 against the direction
        [(TURN, None)],  # 63
        [(OK, "T-4"), (TURN, None)],  # Cy draws and keeps
        [(OK, "T-6")],  # Ann's Joker
        [(TURN, None)],  # its extra tile, 58
        [(OK, "T-7")],  # Cy's Twin 33
        [(OK, "T-7")],
        [(OK, "T-7")],
        [(TURN, "T-11")],  # the gift: 3 tiles to Bob
        [(TURN, None)],  # Bob's Skip
        [(OK, "T-11")],  # Cy's penalty tile 27
        [(TURN, "T-11")],  # its tile to Bob
        [(TURN, None)],
        [(TURN, None)],  # Ann: one tile left
        [(OK, "T-13")],  # called in time
        [(TURN, None)],  # Cy: one tile left, no call
        [(OK, "T-13"), (TURN, None)],  # Bob's 8: Cy takes 3
        [(END, None)],  # Ann's last tile
    ]
    text = [v.text for vs in said for v in vs]
    assert text[0] == "The Starting tile must be a numbered tile, and a Joker was turned up."
    assert said[0][0].correction == "Put the Joker back into the pool, mix the pool and turn up another tile."
    assert "Ann (the youngest) makes the first move" in said[1][0].text
    assert said[3][0].text == "The direction is up, so the next number must be higher than 52; 31 is not."
    assert said[3][0].correction == "Take 31 back."
    assert said[6][0].text.startswith("Ann lays a Joker: the direction is reversed, now down")
    assert said[11][0].text == "Cy gives 3 tiles to Bob from the pool. Bob's turn: lower than 33."
    assert said[12][0].text == "Bob lays a Skip tile. Ann loses a turn; Cy plays next. Cy's turn: lower than 33."
    assert said[19][0].text == (
        "Cy did not call 'one tile left' before this tile: Cy takes 3 tiles from the pool as the "
        "penalty (T-13)."
    )
    assert said[20][0].text == "Ann lays 2. Ann's rack is empty: Ann wins!"
    eng = ref.engine
    assert eng is not None and eng.outcome() is not None
    assert eng.counts() == (0, 5, 4)  # Bob: 5 - 3 laid + 3 + 1 given - 1 ; Cy: 5 + 1 - 5 + 3
    assert eng.pool_count == 106 - 15 - 1 - 1 - 3 - 1 - 3  # start, draw, gifts, penalty
    assert ref.phase == "over" and log.finished[-1]["winners"] == ["Ann"]
    assert all(eng.rack(s) == () for s in range(3)) and eng.pool is None  # it never saw a rack


def test_the_demos_deal_holds_every_tile_its_players_lay() -> None:
    """The demo's prepared deal, dealt to an engine that knows every rack: the players lay only
    tiles they hold, and the engine refuses exactly what the referee refused."""
    table = UpturnState.position(UpturnDescription(list(RACKS), racks=[RACKS[p] for p in RACKS]))
    refused = []
    for kind, what, _words in STEPS:
        action: Action
        if kind == "tap":
            action = Start(what) if table.phase == "start" else Lay(what)
        elif kind == "button":
            action = Call()
        elif what == "d":
            table.play(Draw())
            action = Pass()
        else:
            action = Gift(((table.next_seat(), table.gifts),))
        try:
            table.play(action)
        except IllegalMoveError as err:
            refused.append((what, err.rule))
    assert refused == [(TURNED_UP[0], "T-1"), ("N31", "direction")]
    assert table.outcome() is not None and table.outcome().winners == (0,)  # type: ignore[union-attr]
    assert table.counts() == (0, 5, 4)


# --- set-up ---------------------------------------------------------------------------------------


def test_the_starting_tile_an_action_tile_refused_and_the_first_move_named() -> None:
    ref = referee()
    tb = UpturnTable(ref, seed=4)
    vs = tb.feed(StartGame(PLAYERS, Variant(), 4, tb.at()))
    assert kinds(vs) == [INFO] and "turn up the Starting tile and tap it" in vs[0].text
    assert ref.status().waiting_for == (
        "Shuffle the tiles face down; each player takes 7; then turn up the Starting tile and tap it."
    )
    assert [o.key for o in ref.keys_now()] == ["e"]  # nothing to undo yet: no u
    vs = tb.tap("UD3")
    assert kinds(vs) == [ILLEGAL] and vs[0].rule == "T-1"
    assert ref.status().corrections == (
        "Put the Up & Down tile back into the pool, mix the pool and turn up another tile.",
    )
    vs = tb.tap("N22")  # a Twin is a fine Starting tile
    assert kinds(vs) == [TURN] and vs[0].text.startswith("Starting tile: Twin 22. Ann (the youngest)")
    assert ref.status().corrections == ()
    assert ref.status().waiting_for == (
        "Ann: the first move, a numbered tile against 22 (tap it), or draw (d)."
    )
    assert counts(ref) == (7, 7, 7) and ref.engine.pool_count == 84  # type: ignore[union-attr]


# --- taps -----------------------------------------------------------------------------------------


def test_a_tile_against_the_direction_is_refused_and_its_correction_kept_until_play_goes_on() -> None:
    tb = table_at((40, 32), [[41, 9, 8], [7, 6, 4], [2, 1, 12]], "down")
    ref = tb.ref
    before = ref.engine._snapshot()  # type: ignore[union-attr]
    vs = tb.tap("N41")
    assert vs == [
        Verdict(
            ILLEGAL,
            "The direction is down, so the next number must be lower than 32; 41 is not.",
            "direction",
            "Take 41 back.",
        )
    ]
    assert ref.engine._snapshot() == before  # type: ignore[union-attr]
    assert ref.status().corrections == ("Take 41 back.",)
    assert tb.replies[-2][1].feedback == FEEDBACK[ILLEGAL]
    vs = tb.lay(9)
    assert kinds(vs) == [TURN] and ref.status().corrections == ()


def test_a_tile_already_on_the_line_is_refused_by_name() -> None:
    tb = table_at((40, 32, 44), [[41, 9, 8], [7, 6, 4], [2, 1, 12]], "up")
    vs = tb.tap("N32")
    assert vs == [
        Verdict(
            ILLEGAL,
            "32 is already on the line (the second tile): a tile is laid only once.",
            "line",
            "Leave 32 where it lies; tap only the tile you lay.",
        )
    ]


def test_tags_not_enrolled_or_of_another_game_are_named_as_tiles() -> None:
    reg = tile_registry()
    reg.enroll("04112233", "updown", "T07")
    ref = UpturnReferee(CODES, reg, titles=titles())
    tb = UpturnTable(ref)
    tb.start()
    vs = tb.tap("04DEADBEEF0001")
    assert vs == [Verdict(BOARD, "Tag 04DEADBEEF0001 is not enrolled: run upref enroll upturn to enrol the card.", "tag")]
    vs = tb.tap("04112233")
    assert vs[0].kind == BOARD and "not a tile of this game" in vs[0].text


# --- keys -----------------------------------------------------------------------------------------


def test_the_draw_key_asks_keep_or_lay_and_keep_is_the_default() -> None:
    tb = table_at((40, 32), [[41, 9, 8], [7, 6, 4], [2, 1, 12]], "down")
    ref = tb.ref
    d = keys(ref)["d"]
    assert (d.label, d.default) == ("draw a tile", "keep")
    assert d.prompt == "Ann draws a tile: keep all tiles (the turn ends), or lay one tile now? (keep / lay)"
    vs = tb.feed(d.make(tb.at(), d.default))
    assert kinds(vs) == [OK, TURN] and vs[1].text == "Ann keeps all tiles. Cy's turn: lower than 32."
    assert counts(ref) == (4, 3, 3) and ref.engine.pool_count == 106 - 2 - 9 - 1  # type: ignore[union-attr]
    vs = tb.key("draw", "lay")  # Cy draws and will lay
    assert kinds(vs) == [OK] and ref.engine.phase == "drawn"  # type: ignore[union-attr]
    assert ref.status().waiting_for == "Cy: lay one tile, lower than 32 (tap it), or keep all tiles (p)."
    assert keys(ref)["p"].label == "keep all tiles (the turn ends)"
    vs = tb.key("draw")
    assert kinds(vs) == [ILLEGAL] and vs[0].rule == "draw"  # one draw a turn
    vs = tb.key("draw", "perhaps")
    assert vs == [Verdict(INFO, "Answer keep or lay, not 'perhaps': press d again.", "draw")]
    vs = tb.tap(UID["N12"])
    assert kinds(vs) == [TURN] and counts(ref) == (4, 3, 3)


def test_pass_is_offered_when_the_pool_is_empty_and_after_a_joker() -> None:
    tb = table_at((40, 32), [["JOKER1", 9, 8], [7, 6, 4], [2, 1, 12]], "up")
    ref = tb.ref
    tb.lay("JOKER1")
    p = keys(ref)["p"]
    assert p.label == "no extra tile after the Joker" and p.prompt is None
    assert ref.status().waiting_for == (
        "Ann: one extra tile, lower than 32 or an action tile (tap it), or none (p)."
    )
    vs = tb.feed(p.make(tb.at(), None))
    assert kinds(vs) == [TURN] and "Ann lays no extra tile after the Joker" in vs[0].text
    eng = tb.ref.engine
    assert eng is not None and eng.current_player() == 2
    vs = tb.key("pass")  # the pool holds tiles: a player who lays nothing draws
    assert kinds(vs) == [ILLEGAL] and vs[0].rule == "draw"
    assert tb.key("gift") == [Verdict(INFO, "The key 'gift' means nothing in Upturn now.")]


def test_the_gift_prompt_offers_everything_to_the_next_player_and_reads_a_split() -> None:
    tb = table_at((20, 32), [[44, 40, 38, 9], [7, 6, 4, 2], [1, 8, 12, 14]], "up")
    ref = tb.ref
    tb.lay(44, 40)
    g = keys(ref)["g"]
    assert g.label == "end the Twin run and give up to 2 tiles"
    assert g.prompt == (
        "Ann gives up to 2 tiles from the pool (2 for Twin 44 and 1 run tile): to whom? "
        "(like 'Bob 2, Cy 1', or none)"
    )
    assert g.default == "Bob 2"  # all to the next player in the current direction
    assert ref.status().waiting_for == (
        "Ann: add rack tiles between 32 and 44 (tap them), then give up to 2 tiles (g)."
    )
    vs = tb.key("gift", "Ann 1")
    assert kinds(vs) == [ILLEGAL] and vs[0].rule == "T-11"
    vs = tb.key("gift", "Dee 1")
    assert vs[0].kind == INFO and "'Dee' is no player (the players are Ann, Bob and Cy)" in vs[0].text
    vs = tb.key("gift", "Bob, Cy")
    assert vs[0].kind == INFO and "say how many tiles Bob gets" in vs[0].text
    vs = tb.key("gift", "b 1, c 1")
    assert kinds(vs) == [TURN] and vs[0].text.startswith("Ann gives 1 tile to Bob and 1 to Cy")
    assert counts(ref) == (2, 5, 5)


def test_parse_gift() -> None:
    names = ("Ann", "Bob", "Cy")
    assert parse_gift(None, names, 3, 1) == ((1, 3),)
    assert parse_gift("", names, 3, 2) == ((2, 3),)
    assert parse_gift("none", names, 3, 1) == ()
    assert parse_gift("cy", names, 3, 1) == ((2, 3),)
    assert parse_gift("Bob 2, Cy 1", names, 3, 1) == ((1, 2), (2, 1))
    assert parse_gift("2 Cy and 1 Bob", names, 3, 1) == ((1, 1), (2, 2))
    with pytest.raises(ValueError, match="give Bob at least one tile"):
        parse_gift("Bob 0", names, 3, 1)
    with pytest.raises(ValueError, match="more than one player"):
        parse_gift("A 1", ("Ann", "Al", "Bob"), 3, 1)


def test_the_next_tile_closes_a_gift_not_entered_and_says_so() -> None:
    tb = table_at((20, 32), [[37, 9, 8], [41, 6, 4], [1, 2, 12]], "up")
    ref = tb.ref
    tb.lay(37)  # a penalty tile: one tile may be given
    assert keys(ref)["g"].default == "Bob 1"
    vs = tb.tap("N41")  # Bob's tile, before Ann entered the gift
    assert kinds(vs) == [INFO, TURN, TURN]
    assert vs[0].text == (
        "The next tile came before Ann's gift was entered: no tiles given (T-11). To give them, "
        "undo (u), then press g before the next tile."
    )
    assert vs[1].text.startswith("Ann gives no tiles.") and vs[2].text.startswith("Bob lays 41.")
    assert counts(ref) == (2, 2, 3)


def test_in_a_twin_run_a_tile_between_is_the_runs_and_one_beyond_is_the_next_players() -> None:
    tb = table_at((20, 32), [[44, 40, 9, 2], [52, 6, 4, 1], [14, 8, 12, 7]], "up")
    ref = tb.ref
    tb.lay(44)
    vs = tb.tap("N40")
    assert kinds(vs) == [OK] and vs[0].rule == "T-7" and ref.engine.phase == "twin"  # type: ignore[union-attr]
    vs = tb.tap("N6")  # neither a run tile nor the next player's (not higher than 44)
    assert kinds(vs) == [ILLEGAL] and vs[0].rule == "direction" and ref.engine.phase == "twin"  # type: ignore[union-attr]
    vs = tb.tap("N52")
    assert kinds(vs) == [INFO, TURN, TURN] and counts(ref) == (2, 3, 4)


# --- the one-tile call ------------------------------------------------------------------------------


def test_the_button_is_the_call_in_order_with_the_taps() -> None:
    tb = table_at((20, 32), [[40, 9], [52, 8], [62, 7, 4]], "up")
    ref = tb.ref
    vs = tb.press()
    assert vs == [Verdict(INFO, "Nobody owes the 'one tile left' call now. The press changes nothing.", "T-13")]
    vs = tb.lay(40)
    assert "Ann has one tile left and must call it" in vs[0].text
    assert ref.status().waiting_for == (
        "Bob: a tile higher than 40 or an action tile (tap it), or draw (d). Ann owes the 'one "
        "tile left' call: the button, before the next tile."
    )
    vs = tb.press()
    assert vs == [Verdict(OK, "Ann calls 'one tile left' in time (T-13).", "T-13")]
    assert tb.replies[-2][1].feedback == FEEDBACK[OK]
    vs = tb.lay(52)
    assert kinds(vs) == [TURN] and counts(ref) == (1, 1, 3)
    vs = tb.lay(62)
    assert kinds(vs) == [OK, TURN]
    assert vs[0].text == (
        "Bob did not call 'one tile left' before this tile: Bob takes 3 tiles from the pool as "
        "the penalty (T-13)."
    )
    assert counts(ref) == (1, 4, 2)


def test_a_press_before_the_turn_ends_counts_as_the_call() -> None:
    tb = table_at((20, 32), [["JOKER1", 12], [52, 8, 6], [62, 7, 4]], "up")
    ref = tb.ref
    tb.lay("JOKER1")  # one tile left, still Ann's turn
    vs = tb.press()
    assert vs == [Verdict(OK, "Ann calls 'one tile left' (T-13).", "T-13")]
    vs = tb.key("pass")
    assert "Ann has called 'one tile left'." in vs[0].text
    assert ref.engine.owing is None  # type: ignore[union-attr]


# --- bookkeeping ------------------------------------------------------------------------------------


def test_the_count_catches_an_action_tile_laid_as_the_last_tile() -> None:
    tb = table_at((20, 32), [["SKIP1"], [52, 8, 6], [62, 7, 4]], "up")
    vs = tb.tap("N52")  # by the referee's count Ann holds one tile: 52 is fine for it ...
    assert kinds(vs) == [END]  # ... so Ann's rack is empty by the count: a win
    tb2 = table_at((20, 32), [["SKIP1"], [52, 8, 6], [62, 7, 4]], "up")
    vs = tb2.tap("SKIP1")
    assert kinds(vs) == [ILLEGAL] and vs[0].rule == "T-9"
    assert vs[0].text == (
        "By the count Ann holds 1 tile, so the Skip tile would be the last one, and the last "
        "tile may not be an action tile. If Ann holds more tiles than that, a draw, a gift or a "
        "penalty was not entered: undo (u) and enter it."
    )
    assert vs[0].correction == "Take the Skip tile back; draw instead, or pass when the pool is empty."


def test_a_tile_after_the_rack_is_empty_by_the_count_says_what_may_be_wrong() -> None:
    tb = table_at((20, 32), [[40], [52, 8, 6], [62, 7, 4]], "up")
    ref = tb.ref
    tb.lay(40)
    assert ref.phase == "over"
    vs = tb.tap("N52")
    assert vs == [
        Verdict(
            INFO,
            "The game is over (Ann wins with an empty rack): 52 does not count. The next game: "
            "n. If Ann still holds tiles, the count missed a draw, a gift or a penalty: undo "
            "(u), enter it, and lay the last tile again.",
            "over",
        )
    ]
    vs = tb.feed(Undo(tb.at()))
    assert vs[0].kind == OK and vs[0].text == (
        "Undone: back to the start of Ann's turn. Ann: take 40 back from the line onto your rack."
    )
    assert ref.phase == "play" and counts(ref) == (1, 3, 3)


def test_a_draw_from_a_pool_empty_by_the_count_is_refused_with_the_count() -> None:
    ref = referee()
    tb = UpturnTable(ref, variant=Variant(deal=20), players=("Ann", "Bob", "Cy", "Dee"))
    tb.start()
    eng = ref.engine
    assert eng is not None and eng.pool_count == 106 - 80 - 1
    for _ in range(25):
        tb.key("draw", "keep")
    vs = tb.key("draw", "keep")
    assert kinds(vs) == [ILLEGAL] and vs[0].rule == "T-12"
    assert vs[0].text == (
        "The pool is empty (by the count: 1 tile on the line, 105 on the racks): a player who "
        "lays nothing passes."
    )
    assert [o.key for o in ref.game_keys()] == ["p"]


# --- the last rulings (T-19 ... T-22) ----------------------------------------------------------


def test_t19_at_the_table_a_gift_larger_than_the_pool_is_given_and_the_verdict_says_how_many() -> None:
    tb = short_pool([[22, 31, 40, 9], [8, 6], [4, 2]], (62, 51), pool=1, direction="down")
    ref = tb.ref
    tb.lay(22, 31, 40)
    g = keys(ref)["g"]
    assert g.label == "end the Twin run and give up to 1 tile" and g.default == "Cy 1"
    vs = tb.key("gift", "Bob 3")  # Ann asks for all 3 she earned: the pool holds 1
    assert kinds(vs) == [TURN] and vs[0].rule == "T-19"
    assert vs[0].text.startswith(
        "Ann gives 1 tile to Bob from the pool: the pool held only 1 of the 3 tiles asked, so "
        "only 1 could be given (T-19). Ann has one tile left and must call it"
    )
    assert counts(ref) == (1, 3, 2) and ref.engine.pool_count == 0  # type: ignore[union-attr]


def test_t19_at_the_table_a_penalty_tile_on_an_empty_pool_says_nothing_could_be_given() -> None:
    tb = short_pool([[37, 9, 8], [41, 6], [4, 2]], (20, 32), pool=0)
    ref = tb.ref
    vs = tb.lay(37)
    assert kinds(vs) == [TURN] and vs[0].rule == "T-19"
    assert vs[0].text == (
        "Ann lays penalty tile 37. The pool is empty, so no tile could be given for penalty "
        "tile 37 (T-19). Bob's turn: higher than 37."
    )
    assert "g" not in keys(ref) and counts(ref) == (2, 2, 2)


def test_t19_at_the_table_a_missed_call_penalty_that_empties_the_pool_leaves_the_gift_none() -> None:
    tb = short_pool([[44, 40, 9], [8], [6, 4]], (20, 32), pool=3, owing=1)
    ref = tb.ref
    vs = tb.lay(44)
    assert kinds(vs) == [OK, OK] and "Bob takes 3 tiles from the pool" in vs[0].text
    tb.lay(40)
    assert keys(ref)["g"].label == "end the Twin run (the pool is empty: no gift)"
    vs = tb.key("gift", "Cy 2")
    assert kinds(vs) == [TURN] and vs[0].rule == "T-19"
    assert vs[0].text.startswith(
        "Ann gives no tiles: the pool is empty, 2 tiles asked, none could be given (T-19)."
    )
    assert counts(ref) == (1, 4, 2)


def test_t20_at_the_table_a_pass_with_the_called_tile_owes_no_new_call() -> None:
    tb = short_pool([[40, 9], [52, "UD1", 8], [7, 4]], (20, 32), pool=0)
    ref = tb.ref
    tb.lay(40)
    tb.do(Call())  # Ann presses the button
    tb.lay(52)
    tb.do(Pass())  # Cy
    vs = tb.do(Pass())  # Ann, with the tile she called
    assert kinds(vs) == [TURN] and "one tile left" not in vs[0].text
    assert ref.engine.owing is None  # type: ignore[union-attr]
    vs = tb.lay("UD1")
    assert kinds(vs) == [TURN] and counts(ref) == (1, 1, 2)  # no penalty for Ann


def test_t21_at_the_table_the_winning_twin_run_gives_no_gift() -> None:
    tb = table_at((20, 32), [[44, 40], [52, 8, 6], [62, 7, 4]], "up")
    ref = tb.ref
    vs = tb.lay(44, 40)
    assert kinds(vs) == [OK, END] and "Ann's rack is empty: Ann wins!" in vs[-1].text
    assert ref.phase == "over" and "g" not in keys(ref)
    assert tb.key("gift", "Bob 2") == [Verdict(INFO, "The key 'gift' means nothing in Upturn now.")]
    assert counts(ref) == (0, 3, 3)


def test_t22_at_the_table_an_action_tile_after_the_penalty_tiles_is_not_the_last() -> None:
    tb = table_at((20, 32), [["SKIP1", "UD1"], [52, 8]], "up", players=("Ann", "Bob"))
    ref = tb.ref
    tb.lay("SKIP1")  # Bob loses his turn; Ann plays again, owing the call
    vs = tb.lay("UD1")
    assert kinds(vs) == [OK, TURN] and "Ann takes 3 tiles from the pool" in vs[0].text
    assert counts(ref) == (3, 2)


# --- undo, stop, next game ------------------------------------------------------------------------


def test_undo_a_twin_run_with_its_gift_says_what_to_put_back() -> None:
    tb = table_at((20, 32), [[44, 40, 38, 9], [52, 6, 4, 2], [1, 8, 12, 14]], "up")
    ref = tb.ref
    tb.lay(44, 40, 38)
    tb.key("gift", "Bob 2, Cy 1")
    assert counts(ref) == (1, 6, 5)
    vs = tb.feed(Undo(tb.at()))
    assert vs[0] == Verdict(
        OK,
        "Undone: back to the start of Ann's turn. Ann: take 38, 40 and 44 back from the line onto "
        "your rack. Bob: put 2 tiles back into the pool (taken from it since). Cy: put 1 tile "
        "back into the pool (taken from it since).",
        "undo",
        "Ann: take 38, 40 and 44 back from the line onto your rack. Bob: put 2 tiles back into "
        "the pool (taken from it since). Cy: put 1 tile back into the pool (taken from it since).",
    )
    assert counts(ref) == (4, 4, 4) and ref.engine.last_number == 32  # type: ignore[union-attr]
    assert ref.status().corrections == (vs[0].correction,)
    assert all(v.rule != "T-7" for v in ref.status().verdicts)  # the undone verdicts are gone
    tb.sync_after_undo()
    tb.key("draw", "keep")
    assert ref.status().corrections == ()


def test_stop_gives_the_win_to_the_fewest_tiles_and_the_next_game_needs_a_starting_tile() -> None:
    log = MemoryLog()
    tb = table_at((20, 32), [[40, 9], [52, 8, 6], [62, 7, 4]], "up", log=log)
    ref = tb.ref
    tb.lay(40)
    vs = tb.feed(EndGame(tb.at()))
    assert vs == [Verdict(END, "Game stopped. Ann wins with the fewest tiles, 1.")]
    assert log.finished[-1]["termination"] == "stopped"
    vs = tb.feed(NextGame(tb.at()))
    assert kinds(vs) == [INFO] and vs[0].text.startswith("Game 2 (short game: 2 tiles each)")
    eng = ref.engine
    assert eng is not None and eng.game_number == 2 and eng.phase == "start"
    assert counts(ref) == (2, 2, 2)


def test_feedback_for_each_kind_of_verdict() -> None:
    seen: list[object] = []
    tb = table_at((20, 32), [[44, 40, 9], [52, 6, 4], [1, 8, 12]], "up", feedback=seen.append)
    tb.lay(44)
    assert tb.replies[-2][1].feedback == FEEDBACK[OK]
    tb.tap("N4")
    assert tb.replies[-2][1].feedback == FEEDBACK[ILLEGAL]
    tb.key("gift")
    assert tb.replies[-1][1].feedback == FEEDBACK[TURN]
    assert seen[-3:] == [FEEDBACK[OK], FEEDBACK[ILLEGAL], FEEDBACK[TURN]]


# --- random sessions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_random_sessions_keep_the_referee_and_the_table_in_step(seed: int) -> None:
    """Random play with mistakes, undos and several games: after every move the referee's
    public view is the table's, it never holds a rack, and every refusal says what to do."""
    players = ("Ann", "Bob", "Cy", "Dee")[: 2 + seed % 3]
    ref = referee()
    tb = UpturnTable(ref, players, seed=seed)
    tb.start()
    rp = RandomPlayers(tb, seed)
    seen: set[tuple[str, str | None]] = set()
    for _ in range(1500):
        for v in rp.step():
            seen.add((v.kind, v.rule))
            assert v.seat is None
            if v.kind == ILLEGAL and v.rule not in ("draw", "T-12", "gift"):  # keys: nothing to undo
                assert v.correction, v
        eng = ref.engine
        assert eng is not None
        assert all(eng.rack(s) == () for s in range(len(players))) and eng.pool is None
        if ref.phase == "play":
            mine = replace(ref.view(None), verdict="", game_number=0, history=())  # type: ignore[arg-type]
            real = replace(tb.shadow.view(None), verdict="", game_number=0, history=())
            assert mine == real
    assert rp.games >= 3
    assert {(ILLEGAL, "line"), (ILLEGAL, "direction"), (OK, "T-7"), (OK, "T-11")} <= seen


def test_a_random_sessions_log_replays_to_the_same_replies(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    ref = referee()
    log = GameLog.create(
        db, game="upturn", players=PLAYERS, seed=8, config=ref.config(), durable=False
    )
    ref2, tb, _ = session(1500, seed=8, log=log)
    info, entries = load_log(db, log.game_id)
    assert len(entries) == len(tb.replies) > 1500
    again = [r.reply for r in replay(info, entries, referee_for)]
    assert again == [r for _, r in tb.replies]
    log.close()


def test_resume_after_the_host_dies_picks_up_the_counts(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    ref = referee()
    log = GameLog.create(
        db, game="upturn", players=PLAYERS, seed=3, config=ref.config(), durable=False
    )
    ref.attach(log)
    tb = UpturnTable(ref, seed=3)
    tb.start()
    rp = RandomPlayers(tb, 3)
    while not ref.has_engine or ref.engine.turn < 12 or ref.phase != "play":
        rp.step()
    live = ref.view(None)
    game_id = log.game_id
    del log
    log2 = GameLog.open_latest(db)
    assert log2 is not None and log2.game_id == game_id
    back = resume(log2, referee_for)
    assert isinstance(back, UpturnReferee) and back.view(None) == live
    assert back.keys_now() and [o.key for o in back.keys_now()] == [o.key for o in ref.keys_now()]
    log2.close()


def test_the_public_export_holds_only_what_the_table_saw(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    ref = referee()
    log = GameLog.create(
        db, game="upturn", players=PLAYERS, seed=5, config=ref.config(), durable=False
    )
    session(800, seed=5, log=log)
    log.close()
    out = tmp_path / "public.jsonl"
    assert export_main(["--db", str(db), "--public", "-o", str(out)]) == 0
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert rows[0]["format"] == "upref-public" and rows[0]["game"] == "upturn"
    assert len(rows) > 800
    check_public_rows(rows)
    planted = rows + [{"t": 1.0, "seq": 9, "kind": "ok", "text": f"tag {UID['N42']}", "rule": None, "correction": None}]
    with pytest.raises(AssertionError, match="a tag"):
        check_public_rows(planted)
    info, entries = load_log(db)
    assert list(public_lines(info, entries, referee_for)) == rows


def check_public_rows(rows: list[dict[str, object]]) -> None:
    """No input, no tag, no settings: only verdicts for everyone."""
    text = json.dumps(rows)
    for uid in TILE:
        assert uid not in text, f"a tag UID {uid} in the public export"
    for row in rows[1:]:
        assert set(row) == {"t", "seq", "kind", "text", "rule", "correction"}, row
    assert "catalogue" not in text and "arrived" not in text


def test_a_referee_fed_from_a_config_is_the_same(tmp_path: Path) -> None:
    ref = referee()
    again = UpturnReferee.from_config(json.loads(json.dumps(ref.config())))
    assert again.catalogue == ref.catalogue
    buf = io.StringIO()
    json.dump(ref.config(), buf)
    assert '"N42"' in buf.getvalue()


def test_keys_are_offered_only_while_they_mean_something() -> None:
    tb = table_at((20, 32), [[44, 40, 9], [52, 6, 4], [1, 8, 12]], "up")
    ref = tb.ref
    assert [o.key for o in ref.keys_now()] == ["d", "e"]  # nothing played yet: no undo
    tb.key("draw", "lay")
    assert [o.key for o in ref.keys_now()] == ["p", "u", "e"]
    tb.lay(44)
    assert [o.key for o in ref.keys_now()] == ["g", "u", "e"]
    tb.key("gift")
    assert [o.key for o in ref.keys_now()] == ["d", "u", "e"]
    assert tb.key("hint") == [Verdict(INFO, "The key 'hint' means nothing in Upturn now.")]


def test_a_start_upturn_cannot_take_is_refused_in_words() -> None:
    ref = referee()
    tb = UpturnTable(ref)
    vs = tb.feed(StartGame(("Ann",), Variant(), 1, tb.at()))
    assert vs == [Verdict(INFO, "Cannot start: Upturn is for 2 to 4 players, not 1.")]
    vs = tb.feed(StartGame(("Ann", "Bob"), {"deal": 0}, 1, tb.at()))
    assert vs == [
        Verdict(INFO, "Cannot start: tiles dealt to each player must be a whole number 1 to 20: 0.")
    ]
    assert ref.phase == "idle"


def test_upref_play_upturn_takes_the_number_of_tiles() -> None:
    from upref.commands import play

    game, args = play.parse(["upturn", "Ann", "--tiles", "5", "Bob"])
    assert game.name == "upturn" and args.players == ["Ann", "Bob"]
    assert game.variant_from_args(args) == Variant(deal=5)
    assert game.variant_from_args(play.parse(["upturn", "Ann", "Bob"])[1]) == Variant()
    assert Variant(deal=5).describe() == "short game: 5 tiles each"
    assert Variant.from_dict(Variant(deal=9).to_dict()).describe() == "long game: 9 tiles each"
