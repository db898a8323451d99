"""The scripted session behind the golden game log (tests/golden/updown/session.jsonl): a short game to
two solved cards with every kind of trouble on the way, then the next game and a stop."""

from __future__ import annotations

import random
from pathlib import Path

from updown_table import (
    CODES,
    Table,
    enrolled_tags,
    expected,
    invalid_code,
    other_end,
    wrong_hole_pair,
)
from upref.board.codes import one_flip_neighbours
from upref.board.model import FaultObservation
from upref.games.base import CHANCE
from upref.games.updown.position import mix_board
from upref.games.updown.referee import Hint, UpDownReferee
from upref.games.updown.variant import Variant
from upref.referee.inputs import (
    BoardOnline,
    EndGame,
    NextGame,
    Observe,
    StartGame,
    Undo,
)
from upref.registry import titles
from upref.store.gamelog import GameLog

T0 = 1_700_000_000.0
PLAYERS = ("Ann", "Bob")
VARIANT = Variant(short_game_target=2)
SEED = 7


def golden_session(db: Path) -> tuple[GameLog, Table]:
    ref = UpDownReferee(
        CODES, enrolled_tags({"04112233": ("upturn", "N42")}, db.with_name("tags.sqlite")),
        hints=True, titles=titles(),
    )
    log = GameLog.create(
        db, game="updown", players=PLAYERS, variant=VARIANT.to_dict(), seed=SEED,
        config=ref.config(), created=T0,
    )
    ref.attach(log)
    tb = Table(ref, seed=SEED, t0=T0)  # the first picture, logged hole by hole

    # a start with a hole empty waits for the board
    c4 = tb.codes[4]
    tb.pull(4)
    tb.feed(StartGame(PLAYERS, VARIANT, SEED, tb.at()))
    tb.put(4, c4)
    tb.tick()

    # drawing: wrong cards, unknown tags, a flip before the draw
    tb.tap("T07")
    tb.tap(uid="04DEADBEEF0001")
    tb.tap(uid="04112233")
    tb.flip(3)
    tb.draw_all()
    tb.flip(3)  # put right again

    # Ann's turn: every refusal, then a turn ended by the board settling
    tb.feed(Hint(tb.at()))
    tb.reinsert(5)  # M-3
    tb.flip(1)
    tb.flip(1)  # M-1: turned twice
    tb.flip(2)  # waits for the correction
    tb.press()  # not yet
    tb.flip(1)  # right again; hole 2 is taken
    tb.press()  # M-1: only two turned
    a, b = wrong_hole_pair(ref, random.Random(1))
    ca = tb.codes[a]
    tb.pull(a)
    tb.pull(b)
    tb.put(b, ca)  # M-2
    tb.pull(b)
    tb.put(a, ca)
    tb.put(b, expected(ref, b))
    c6 = tb.codes[6]
    tb.pull(6)
    tb.put(6, invalid_code("NN--"))  # invalid code
    tb.pull(6)
    tb.put(6, c6)
    for h in range(1, 11):  # a suspect reading, where the code table has one
        near = [c for c in one_flip_neighbours(tb.codes[h]) if c != other_end(tb.codes[h])]
        if near and h not in (1, 2):
            ch = tb.codes[h]
            tb.pull(h)
            tb.put(h, near[0])
            tb.pull(h)
            tb.put(h, ch)
            break
    turned = ref.engine.turned if ref.engine else ()
    third = next(h for h in range(1, 11) if h not in turned)
    tb.flip(third)
    c9 = tb.codes[9]
    tb.pull(9)
    tb.press()  # M-4
    tb.put(9, c9)
    tb.tick(0.5)
    tb.tick(0.6)  # settled: the turn ends
    tb.draw_all()  # if Ann solved her card

    # Bob's turn with the board going away and a fault
    tb.feed(Observe(FaultObservation("h8", True, "hole", "h8", "never settles"), tb.at()))
    tb.feed(BoardOnline(False, tb.at()))
    tb.flip(1)
    tb.tick(3)
    tb.feed(BoardOnline(True, tb.at()))
    tb.feed(Observe(FaultObservation("h8", False, "hole", "h8"), tb.at()))
    tb.flip(2)
    tb.feed(Undo(tb.at()))
    tb.flip(4)  # waits
    tb.flip(1)
    tb.flip(2)  # right again; hole 4 is taken
    tb.flip(5)
    tb.flip(6)
    tb.press()

    # play on until the short game ends
    for _ in range(80):
        eng = ref.engine
        assert eng is not None
        if ref.phase == "over":
            break
        if eng.current_player() == CHANCE:
            tb.draw()
        else:
            tb.play_turn(button=eng.turn % 2 == 0)
    assert ref.phase == "over"

    # the next game, after a re-mix; then a stop
    tb.feed(NextGame(tb.at()))
    for h in range(1, 11):
        tb.pull(h)
    tb.fill(mix_board(random.Random(SEED + 1)))
    tb.tick()
    tb.draw_all()
    tb.play_turn()
    tb.feed(EndGame(tb.at()))
    return log, tb
