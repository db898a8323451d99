"""No verdict for nothing, in every game: a piece tapped and left lying on the reader, and holes
left as they were, through a board reset, an unplug and replug or a resync, give the referee
nothing to judge; a piece tapped during the gap is judged as any tap.

Each game of the tag_book is played from its demo's start (players, variant, settings, tags)
on the host's own `Table`, fed what the link delivers, so the board model between the link and
the referee is the real one."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fake_link import FakeLink
from upref.board.codes import CodeTable
from upref.board.model import CardObservation, HoleObservation
from upref.commands.demo import enrol_all
from upref.game import Game
from upref.link.notices import BoardReset, LinkItem, Offline, Online, Resynced
from upref.link.protocol import CardArrived, CardLeft, Heartbeat, Hello, Snapshot
from upref.referee.inputs import Input, Observe, StartGame
from upref.referee.status import Verdict
from upref.registry import games, titles
from upref.store.tags import TagBook
from upref.table import Table

CODES = CodeTable.load()
T = 1_000_000.0  # the table's clock stands still: no timer fires between the inputs


def one_end_per_pair(n: int = 10) -> tuple[int, ...]:
    """A board with a pair in every hole (one end of each of the first n pairs up)."""
    seen: dict[str, int] = {}
    for c in CODES.codes():
        end = CODES.lookup(c)
        if end is not None and end.pair_id not in seen:
            seen[end.pair_id] = c
    return tuple(list(seen.values())[:n])


HOLES = one_end_per_pair()


def hello(boot: str) -> Hello:
    return Hello("0.2.0", 2, "240AC4A236BB", len(HOLES), ("hall", "rfid", "since"), "92", "hard", boot)


def snap(card: str | None) -> Snapshot:
    return Snapshot(HOLES, card, False, (), 0)


class Played:
    """A game of the tag_book at its demo's start, on a Table fed by the test."""

    def __init__(self, game: Game, folder: Path, name: str = "tags") -> None:
        assert game.demo is not None, f"{game.name} has no demo"
        self.game = game
        self.tag_book = TagBook(folder / f"{game.name}-{name}.sqlite")
        self.uid_of = enrol_all(game, self.tag_book)
        referee = game.referee(CODES, self.tag_book, titles=titles(), **game.demo.settings)
        self.link = FakeLink()
        self.table = Table(self.link, referee, CODES, clock=lambda: T)  # type: ignore[arg-type]
        self.feed(hello(FakeLink.boot), Online("fake://"), Resynced(snap(None), "connect"))
        variant = game.demo.variant(argparse.Namespace())
        self.table.send(StartGame(game.demo.players, variant, game.demo.seed, T))

    def feed(self, *items: LinkItem) -> list[tuple[Input, tuple[Verdict, ...]]]:
        """Deliver `items` as the link would; the inputs the referee got, with its verdicts."""
        start = len(self.table.replies)
        for item in items:
            self.link.events.put(item)
            self.table.pump(0)
        while not self.link.events.empty():
            self.table.pump(0)
        return [(inp, reply.verdicts) for inp, reply in self.table.replies[start:]]

    def close(self) -> None:
        self.table.close()
        self.tag_book.close()


GAMES = [g for g in games() if g.demo is not None]


@pytest.fixture(params=GAMES, ids=[g.name for g in GAMES])
def played(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Played]:
    p = Played(request.param, tmp_path)
    yield p
    p.close()


def first_piece(p: Played) -> str:
    return next(iter(p.uid_of.values()))


def reset(card: str | None) -> list[LinkItem]:
    """A board reset: the boot's own snapshot (taken before its reader looks), the resync after
    its kept events, what the reader then finds, and heartbeats well past its first look."""
    items: list[LinkItem] = [BoardReset(hello("7CA9")), snap(None), Resynced(snap(None), "board reset")]
    if card is not None:
        items.append(CardArrived(card))
    return items + [Heartbeat(1000, 0, 0, 0, 0, 0, 0, 0), Heartbeat(3000, 0, 0, 0, 0, 0, 0, 0)]


def replug(card: str | None) -> list[LinkItem]:
    """An unplug and replug: offline, the board powered again (another boot), back online."""
    items: list[LinkItem] = [
        Offline("lost the port"),
        hello("51E0"),
        Online("fake://"),
        Resynced(snap(None), "reconnect to a restarted board"),
    ]
    if card is not None:
        items.append(CardArrived(card))
    return items + [Heartbeat(1000, 0, 0, 0, 0, 0, 0, 0), Heartbeat(3000, 0, 0, 0, 0, 0, 0, 0)]


def resync(card: str | None) -> list[LinkItem]:
    """A resync after a gap on the line: the board kept running, its snapshot is the truth."""
    return [Resynced(snap(card), "sequence gap"), Heartbeat(60_000, 0, 0, 0, 0, 0, 0, 0)]


FAULTS: dict[str, Callable[[str | None], list[LinkItem]]] = {
    "reset": reset,
    "replug": replug,
    "resync": resync,
}


def observed(got: list[tuple[Input, tuple[Verdict, ...]]]) -> list[object]:
    return [inp.observation for inp, _ in got if isinstance(inp, Observe)]


def said(got: list[tuple[Input, tuple[Verdict, ...]]]) -> list[str]:
    return [v.text for _, vs in got for v in vs]


BOARD_NEWS = {
    "The board is offline: nothing counts until it is back. Check its USB cable.",
    "The board is back online.",
}


@pytest.mark.parametrize("fault", FAULTS)
def test_a_piece_left_on_the_reader_gets_no_verdict(played: Played, fault: str) -> None:
    uid = first_piece(played)
    tapped = played.feed(CardArrived(uid))
    assert observed(tapped) == [CardObservation(True, uid)]
    got = played.feed(*FAULTS[fault](uid))
    assert observed(got) == [], f"the referee was handed {observed(got)}"
    assert set(said(got)) <= BOARD_NEWS, said(got)
    # the same piece taken off and tapped again is a tap
    again = played.feed(CardLeft(uid), CardArrived(uid))
    assert observed(again) == [CardObservation(False, uid), CardObservation(True, uid)]


@pytest.mark.parametrize("fault", FAULTS)
def test_holes_left_as_they_were_get_no_verdict(played: Played, fault: str) -> None:
    got = played.feed(*FAULTS[fault](None))
    assert observed(got) == []
    assert set(said(got)) <= BOARD_NEWS, said(got)


@pytest.mark.parametrize("fault", ["reset", "replug"])
def test_a_piece_taken_off_during_the_boot_is_tapped_again_as_usual(
    played: Played, fault: str
) -> None:
    uid = first_piece(played)
    played.feed(CardArrived(uid))
    got = played.feed(*FAULTS[fault](None))  # nothing on the reader after the boot
    assert observed(got) == [CardObservation(False, uid)]
    assert set(said(got)) <= BOARD_NEWS, said(got)
    assert observed(played.feed(CardArrived(uid))) == [CardObservation(True, uid)]


@pytest.mark.parametrize("fault", FAULTS)
def test_a_piece_tapped_during_the_gap_is_judged_as_any_tap(
    played: Played, fault: str, tmp_path: Path
) -> None:
    """Nothing lay on the reader before; the piece is there after: the table tapped it while
    the board was away, and expects the verdict it would have had at once."""
    uid = first_piece(played)
    got = played.feed(*FAULTS[fault](uid))
    assert observed(got) == [CardObservation(True, uid)]
    twin = Played(played.game, tmp_path, "twin")
    try:
        expected = said(twin.feed(CardArrived(uid)))
    finally:
        twin.close()
    assert [t for t in said(got) if t not in BOARD_NEWS] == expected


def test_a_pair_moved_during_the_gap_is_observed(played: Played) -> None:
    moved = (0,) + HOLES[1:4] + (HOLES[0],) + HOLES[5:]
    got = played.feed(BoardReset(hello("7CA9")), Resynced(Snapshot(moved, None, False, (), 0), "board reset"))
    holes = [(o.hole, o.new_code) for o in observed(got) if isinstance(o, HoleObservation)]
    assert holes == [(1, 0), (5, HOLES[0])]
