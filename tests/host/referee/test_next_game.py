"""The next game begins by itself (issue 30): after `n`, as soon as the table is ready (Up And
Down: every hole holds a pair again after the re-mix and the board has been still; Flip a Bird:
its pile scan; Upturn, What's Up and Up: at once, their set-up being part of the game), with no
further input than time passing. Its first verdict announces it, the status (what every screen
and the page show) says so, and the game log holds it: a replay of the log is in the new game.
Nothing done during the set-up is judged against a game nobody has been told of.

Each game is fed by its physical test table with model time; the host loop's own part (it tells
the referee the time while a game is about to begin) is tested on the host's `Table`."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import upref.table
from fake_link import FakeLink
from flipabird_table import new_table as flip_table
from up_table import UpTable
from updown_table import CODES, Table, code, enrolled_tags, other_end
from upref.games.flipabird.variant import Variant as FlipVariant
from upref.games.updown.position import mix_board
from upref.games.updown.referee import UpDownReferee
from upref.games.updown.variant import Variant
from upref.games.upturn.referee import UpturnReferee
from upref.games.whatsup.referee import WhatsUpReferee
from upref.link.notices import LinkItem, Online, Resynced
from upref.link.protocol import Hello, HoleChanged, Snapshot
from upref.referee.base import Referee
from upref.referee.inputs import EndGame, NextGame, StartGame, Tick
from upref.referee.status import ILLEGAL, INFO, OK, Verdict
from upref.registry import referee_for, titles
from upref.store.gamelog import GameLog
from upref.store.replay import load_log
from upref.store.tags import TagBook
from upref.table import Table as HostTable
from upturn_table import UpturnTable, tile_registry
from whatsup_table import PLAYERS, shared_registry
from whatsup_table import Table as WhatsUpTable


def attach_log(ref: Referee, folder: Path, players: tuple[str, ...]) -> Path:
    """A real game log (SQLite) for `ref`; its path."""
    db = folder / "games.sqlite"
    ref.attach(GameLog.create(db, game=ref.GAME, players=players, seed=1, config=ref.config()))
    return db


def logged(db: Path, tag_book: Any) -> tuple[int, str]:
    """What the game log says now: the game number and phase a replay of it reaches."""
    info, entries = load_log(db)
    ref = referee_for(info, tag_book)
    for e in entries:
        ref.handle(ref.decode(e.input_dict()))
    return (ref.engine.game_number if ref.has_engine else 0), ref.phase


def announced(vs: list[Verdict], number: int) -> bool:
    return any(v.kind == INFO and v.text.startswith(f"Game {number} ") for v in vs)


# --- Up And Down: the re-mix --------------------------------------------------------------------


def over_and_next(tmp_path: Path, settle_s: float = 1.0) -> tuple[UpDownReferee, Table, Path, TagBook]:
    """Game 1 played a little, stopped with e, and n pressed: the table asked for a re-mix."""
    tags = enrolled_tags()
    ref = UpDownReferee(CODES, tags, titles=titles(), settle_s=settle_s)
    db = attach_log(ref, tmp_path, ("Ann", "Bob"))
    tb = Table(ref, seed=3)
    tb.feed(StartGame(("Ann", "Bob"), Variant(), 3, tb.at()))
    tb.draw_all()
    tb.flip(1)
    tb.feed(EndGame(tb.at()))
    vs = tb.feed(NextGame(tb.at()))
    assert vs[0].text.startswith("Next game: take all the pairs out"), vs
    return ref, tb, db, tags


def test_updown_the_remixed_game_begins_with_time_alone(tmp_path: Path) -> None:
    ref, tb, db, tags = over_and_next(tmp_path)
    assert not ref.waits_on_time()  # nothing to wait for until the pairs have been out
    assert ref.status().waiting_for.startswith("The pairs to be re-mixed")
    for h in range(1, 11):
        tb.pull(h)
    assert not ref.waits_on_time()  # empty holes: no time to count, the host sends no ticks
    assert ref.status().waiting_for.startswith("Every hole to hold a pair: hole 1 is empty")
    tb.fill(mix_board(random.Random(99)))
    # every hole filled: the host loop is asked to tell the time, and the status says why
    assert ref.phase == "setup" and ref.waits_on_time()
    assert ref.status().waiting_for == "The board to settle: the game is about to start."
    assert tb.tick(ref.settle_s / 2) == []  # not still for long enough yet
    assert logged(db, tags) == (1, "setup")

    vs = tb.tick(ref.settle_s / 2)  # time alone: no tap, no key
    assert [v.kind for v in vs] == [INFO] and announced(vs, 2), vs
    assert ref.phase == "play" and ref.engine.game_number == 2 and not ref.waits_on_time()
    assert [v.text for v in ref.status().verdicts] == [vs[0].text]  # what the screens show
    assert ref.status().waiting_for.endswith("draw a task card from the stack and tap it on the reader.")
    assert logged(db, tags) == (2, "play")  # the log holds game 2 from that moment
    vs = tb.draw_all()
    assert [v.kind for v in vs] == [OK, OK], vs
    assert [v.kind for v in tb.flip(2)] == [OK]  # game 2's first flip, judged in game 2


def test_updown_a_flip_during_the_remix_is_part_of_it_and_never_refused(tmp_path: Path) -> None:
    ref, tb, _db, _tags = over_and_next(tmp_path, settle_s=3.0)  # hands on the board meanwhile
    for h in range(1, 11):
        tb.pull(h)
    tb.fill(mix_board(random.Random(5)))
    # a task card tapped or the button pressed before the game is announced: told plainly that
    # game 2 has not begun, and nothing is judged
    vs = tb.tap("T01")
    assert [(v.kind, v.rule) for v in vs] == [(INFO, "setup")], vs
    assert vs[0].text.startswith("Game 2 has not begun yet, so the task card on the reader does not count")
    assert "Draw your task card once it is announced." in vs[0].text
    vs = tb.press()
    assert [(v.kind, v.rule) for v in vs] == [(INFO, "setup")] and "the button ends no turn" in vs[0].text
    # a player, hands still on the board, turns pairs over: that is the re-mix still
    assert tb.flip(4) == []
    assert tb.flip(7) == []
    assert ref.phase == "setup"
    vs = tb.tick(3.0)
    assert [v.kind for v in vs] == [INFO] and announced(vs, 2), vs
    # the game begins with the pairs as the re-mix left them, the turned ones included
    eng = ref.engine
    ends = [CODES.lookup(tb.codes[h]) for h in range(1, 11)]
    assert [(e.pair, e.hidden) for e in eng.board] == [(e.pair_id, e.hidden) for e in ends if e]
    assert not eng.turned
    vs = tb.draw_all()
    assert [v.kind for v in vs] == [OK, OK], vs


def test_updown_a_start_waiting_for_a_filled_board_begins_with_time_alone() -> None:
    ref = UpDownReferee(CODES, enrolled_tags())
    tb = Table(ref, seed=2)
    c4 = tb.codes[4]
    tb.pull(4)
    vs = tb.feed(StartGame(("Ann", "Bob"), Variant(), 1, tb.at()))
    assert vs[0].text.startswith("Cannot start yet: hole 4 is empty") and not ref.waits_on_time()
    tb.put(4, c4)
    assert ref.waits_on_time()
    assert announced(tb.tick(), 1) and ref.phase == "play"


def test_updown_the_pair_put_back_wrong_way_during_the_remix_counts_as_mixed(tmp_path: Path) -> None:
    """The issue's refusal: a pair pulled and put back the other way up once every hole was
    filled again is the re-mix still, not a flip in a game that has not been announced."""
    ref, tb, _db, _tags = over_and_next(tmp_path)
    for h in range(1, 11):
        tb.pull(h)
    tb.fill(mix_board(random.Random(8)))
    c = tb.codes[6]
    vs = tb.pull(6) + tb.put(6, other_end(c))
    assert vs == [] and ref.phase == "setup"
    assert all("must draw a task card" not in v.text for _i, r in tb.replies for v in r.verdicts)


# --- the host loop: it tells the time while a game is about to begin ----------------------------


def test_the_host_loop_ticks_until_the_remixed_game_begins(monkeypatch: pytest.MonkeyPatch) -> None:
    # a tick at every turn of the loop, so that the test does not depend on the machine's speed
    monkeypatch.setattr(upref.table, "TICK_S", 0.0)
    first = tuple(code(e.pair, e.hidden) for e in mix_board(random.Random(1)))
    clock = [1000.0]
    ref = UpDownReferee(CODES, enrolled_tags(), settle_s=1.0)
    link = FakeLink()
    table = HostTable(link, ref, CODES, clock=lambda: clock[0])  # type: ignore[arg-type]
    frames: list[Any] = []
    table.on_frame = frames.append
    try:

        def deliver(*items: LinkItem) -> None:
            for item in items:
                clock[0] += 0.25
                link.events.put(item)
                table.pump(0)

        hello = Hello("0.2.0", 2, "240AC4A236BB", 10, ("hall", "rfid", "since"), "92", "hard", "0AB1")
        deliver(hello, Online("fake://"), Resynced(Snapshot(first, None, False, (), 0), "connect"))
        table.send(StartGame(("Ann", "Bob"), Variant(), 1, clock[0]))
        table.send(EndGame(clock[0]))
        table.send(NextGame(clock[0]))
        deliver(*(HoleChanged(h, 0) for h in range(1, 11)))
        mixed = mix_board(random.Random(2))
        deliver(*(HoleChanged(h, code(e.pair, e.hidden)) for h, e in enumerate(mixed, 1)))
        assert ref.phase == "setup"
        sent = [inp for inp, _r in table.replies]
        last_hole = max(i for i, inp in enumerate(sent) if not isinstance(inp, Tick | StartGame | EndGame | NextGame))
        assert not any(isinstance(inp, Tick) for inp in sent[:last_hole]), "ticks while a hole was empty"
        clock[0] += 1.0  # the board has been still for the settle time: the loop alone begins it
        table.pump(0)
        assert ref.phase == "play" and isinstance(table.replies[-1][0], Tick)
        frame = frames[-1]
        assert frame.number == 2 and frame.view is not None
        assert any(v.text.startswith("Game 2 ") for v in frame.verdicts)
        assert "draw a task card" in (frame.status.waiting_for or "")
        # game 2 waits for a card to be drawn, not for time: the loop stops ticking
        replies = len(table.replies)
        clock[0] += 5.0
        table.pump(0)
        assert len(table.replies) == replies
    finally:
        table.close()


# --- Flip a Bird: its pile scan ----------------------------------------------------------------


def test_flipabird_the_next_game_begins_with_the_last_card_of_its_scan(tmp_path: Path) -> None:
    tb = flip_table(seed=13, variant=FlipVariant(pile=10))
    db = attach_log(tb.ref, tmp_path, tb.players)
    tb.started()
    tb.feed(EndGame(tb.at()))
    vs = tb.feed(NextGame(tb.at()))
    assert vs[0].text.startswith("Set-up:") and tb.ref.scanning
    # the scan waits for the cards, not for time: no ticks are asked for, and time begins nothing
    assert not tb.ref.waits_on_time()
    tb.t += 60.0
    assert tb.feed(Tick(tb.t)) == [] and tb.ref.scanning
    vs = tb.scan()
    assert not any(v.kind == ILLEGAL for v in vs), vs  # every card tapped was part of the scan
    assert vs[-2].text.startswith("Pile scan complete") and announced(vs[-1:], 2), vs[-2:]
    assert tb.ref.phase == "play" and tb.eng.game_number == 2
    assert vs[-1] in tb.ref.status().verdicts  # what every screen shows
    assert logged(db, tb.ref.tag_book) == (2, "play")


# --- Upturn, What's Up and Up: the next game begins at n ----------------------------------------


def test_upturn_the_next_game_begins_at_n(tmp_path: Path) -> None:
    tags = tile_registry()
    ref = UpturnReferee(CODES, tags, titles=titles())
    tb = UpturnTable(ref)
    db = attach_log(ref, tmp_path, tb.players)
    tb.start()
    tb.feed(EndGame(tb.at()))
    vs = tb.next_game(2)
    assert announced(vs[:1], 2) and ref.phase == "play" and not ref.waits_on_time()
    # its Starting tile is the game's own first step, judged in the game just announced
    assert not any(v.kind == ILLEGAL for v in vs[1:]) and ref.engine.game_number == 2
    assert logged(db, tags) == (2, "play")


def test_whatsup_the_next_game_begins_at_n_and_its_layout_is_the_game_s(tmp_path: Path) -> None:
    ref = WhatsUpReferee(CODES, shared_registry(), titles=titles())
    db = attach_log(ref, tmp_path, PLAYERS)
    tb = WhatsUpTable(ref)
    tb.start(PLAYERS, seed=9)
    tb.lay_all(seed=9)
    tb.end()
    vs = tb.next_game()
    assert announced(vs, 2) and ref.phase == "play" and not ref.waits_on_time()
    assert "Lay out the 30 cards" in vs[0].text and tb.game.in_setup
    assert logged(db, ref.tag_book) == (2, "play")
    vs = tb.lay_all(seed=3)
    assert not any(v.kind == ILLEGAL for v in vs) and tb.game.current_player() == 0


def test_up_the_next_round_begins_at_n(tmp_path: Path) -> None:
    tb = UpTable()
    db = attach_log(tb.ref, tmp_path, tb.players)
    tb.start()
    tb.end()
    vs = tb.feed(NextGame(tb.at()))
    assert tb.ref.phase == "play" and tb.engine.game_number == 2 and not tb.ref.waits_on_time()
    assert vs and vs[-1].kind == INFO
    assert tb.ref.status().verdicts[-1].text == vs[-1].text
    assert logged(db, tb.ref.tag_book) == (2, "play")
