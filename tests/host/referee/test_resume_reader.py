"""A host killed with a card on the reader (issue 32, item 1): the game resumed from its log on
the host's own `Table` ends as the game that was never killed. In every game, a card tapped
and still lying on the reader when the host dies is counted once: its arrival, in the log, is
replayed, and the board's snapshot that shows it lying there is not a second arrival; a card
the host never heard arrive (killed before it was told, the board's kept events lost) is
counted once from the snapshot; a counted card lifted while no host listened has left. The
players are told in one line what the referee now sees.

Each game is started from its demo's start (players, variant, settings, its tags enrolled) on
a `Table` over a link stand-in, logged in a real game log; the resumed referee is rebuilt from
that log as `upref play --resume` rebuilds it."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from fake_link import FakeLink
from full_board import pair_in_every_hole
from upref.board.codes import CodeTable
from upref.board.model import CardObservation, HoleObservation
from upref.commands.scripted import enrol_all
from upref.game import Game
from upref.link.notices import LinkItem, Online, Resynced
from upref.link.protocol import CardArrived, CardLeft, Hello, HoleChanged, Snapshot
from upref.referee.inputs import StartGame
from upref.registry import games, referee_for, titles
from upref.store.gamelog import GameLog
from upref.store.replay import resume
from upref.store.tags import TagBook
from upref.table import Table

CODES = CodeTable.load()
T = 1_000_000.0  # the table's clock stands still: no timer fires between the inputs
GAMES = [g for g in games() if g.demo is not None]


HOLES = pair_in_every_hole(CODES)


class Host:
    """One host process at the table: a `Table` over a link stand-in, its game logged in
    `folder/games.sqlite`; a new game of `game`'s demo, or (`resumed`) the log's game."""

    def __init__(self, game: Game, folder: Path, *, resumed: bool = False) -> None:
        assert game.demo is not None
        demo = game.demo
        self.tag_book = TagBook(folder / "tags.sqlite")
        self.uid_of = enrol_all(game, self.tag_book)
        db = folder / "games.sqlite"
        if resumed:
            self.log = GameLog.open_latest(db, game=game.name)
            assert self.log is not None
            referee = resume(self.log, lambda info: referee_for(info, self.tag_book))
        else:
            referee = game.referee(CODES, self.tag_book, titles=titles(), **demo.settings)
            self.log = GameLog.create(db, game=game.name, players=demo.players, seed=demo.seed,
                                      config=referee.config())
            referee.attach(self.log)
        self.link = FakeLink()
        self.said: list[str] = []
        self.table = Table(self.link, referee, CODES, clock=lambda: T,  # type: ignore[arg-type]
                           on_notice=self.said.append)

    def open(self, card: str | None) -> list[str]:
        """The link opens with the board's snapshot: `card` on the reader. The public verdicts."""
        hello = Hello("0.2.0", 2, "240AC4A236BB", len(HOLES), ("hall", "rfid", "since"), "92", "hard",
                      FakeLink.boot)
        return self.feed(hello, Online("fake://"), Resynced(Snapshot(HOLES, card, False, (), 0), "connect"))

    def start(self, game: Game) -> list[str]:
        assert game.demo is not None
        variant = game.demo.variant(argparse.Namespace(**dict(game.short)))
        reply = self.table.send(StartGame(game.demo.players, variant, game.demo.seed, T))
        return [v.text for v in reply.public]

    def feed(self, *items: LinkItem) -> list[str]:
        """Deliver `items` as the link would; the public verdicts the referee said."""
        start = len(self.table.replies)
        for item in items:
            self.link.events.put(item)
        while not self.link.events.empty():
            self.table.pump(0)
        return [v.text for _inp, reply in self.table.replies[start:] for v in reply.public]

    def killed(self) -> None:
        """The process dies: nothing more is written, nothing is closed in order."""
        self.table.close()
        self.log.close()
        self.tag_book.close()


def _pieces(host: Host) -> tuple[str, str]:
    """Two of the game's pieces' tags: the first two of its catalogue."""
    uids = list(host.uid_of.values())
    return uids[0].upper(), uids[1].upper()


def _never_killed(game: Game, folder: Path) -> tuple[list[str], list[str]]:
    """The game that was never killed: the first piece tapped and lifted, then the second
    tapped. The verdicts of the first tap, and of what follows it."""
    host = Host(game, folder)
    host.open(None)
    host.start(game)
    first, second = _pieces(host)
    tapped = host.feed(CardArrived(first, seq=10))
    rest = host.feed(CardLeft(first, seq=11), CardArrived(second, seq=12))
    host.killed()
    return tapped, rest


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_card_counted_and_lying_on_the_reader_is_not_counted_again(game: Game, tmp_path: Path) -> None:
    tapped, rest = _never_killed(game, tmp_path / "clean")
    assert tapped, "the first tap said nothing: the test would prove nothing"
    host = Host(game, tmp_path / "killed")
    host.open(None)
    host.start(game)
    first, second = _pieces(host)
    assert host.feed(CardArrived(first, seq=10)) == tapped
    host.killed()  # with the card on the reader

    again = Host(game, tmp_path / "killed", resumed=True)
    assert again.open(first) == []  # the card lying there is the one counted: nothing new
    assert len(again.said) == 1, again.said
    assert again.said[0].startswith("Resumed where the game log ends: ")
    assert "lies on the reader, counted once" in again.said[0], again.said[0]
    assert again.feed(CardLeft(first, seq=11), CardArrived(second, seq=12)) == rest
    again.killed()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_card_the_host_never_heard_of_is_counted_once_from_the_snapshot(game: Game, tmp_path: Path) -> None:
    tapped, rest = _never_killed(game, tmp_path / "clean")
    host = Host(game, tmp_path / "killed")
    host.open(None)
    host.start(game)
    first, second = _pieces(host)
    host.killed()  # the card is tapped as the host dies: it never hears of it

    again = Host(game, tmp_path / "killed", resumed=True)
    assert again.open(first) == tapped  # counted, once
    assert "lies on the reader, counted once" in again.said[-1], again.said
    assert again.feed(CardLeft(first, seq=11), CardArrived(second, seq=12)) == rest
    again.killed()


@pytest.mark.parametrize("game", GAMES[:1], ids=lambda g: g.name)
def test_a_counted_card_lifted_while_no_host_listened_has_left(game: Game, tmp_path: Path) -> None:
    _tapped, rest = _never_killed(game, tmp_path / "clean")
    host = Host(game, tmp_path / "killed")
    host.open(None)
    host.start(game)
    first, second = _pieces(host)
    host.feed(CardArrived(first, seq=10))
    host.killed()

    again = Host(game, tmp_path / "killed", resumed=True)
    again.open(None)
    assert again.table.referee.on_reader is None
    assert "the reader is empty" in again.said[-1], again.said
    assert again.feed(CardArrived(second, seq=12)) == rest
    again.killed()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_events_the_board_kept_are_told_against_the_table_the_log_left(game: Game, tmp_path: Path) -> None:
    """Killed after the card was lifted and a pair pulled, before the host heard either: the
    board's kept events, replayed before its first snapshot, reach the referee as they happened
    (a departure, hole 3 emptied from the code it held), once, and the snapshot adds nothing."""
    host = Host(game, tmp_path)
    host.open(None)
    host.start(game)
    first, _second = _pieces(host)
    host.feed(CardArrived(first, seq=10))
    host.killed()

    again = Host(game, tmp_path, resumed=True)
    pulled = tuple(0 if h == 3 else code for h, code in enumerate(HOLES, start=1))
    hello = Hello("0.2.0", 2, "240AC4A236BB", len(HOLES), ("hall", "rfid", "since"), "92", "hard", FakeLink.boot)
    start = len(again.table.replies)
    again.feed(hello, Online("fake://"), CardLeft(first, seq=11), HoleChanged(3, 0, seq=12),
               Resynced(Snapshot(pulled, None, False, (), 0), "connect"))
    seen = [getattr(inp, "observation", None) for inp, _reply in again.table.replies[start:]]
    cards = [o for o in seen if isinstance(o, CardObservation)]
    holes = [o for o in seen if isinstance(o, HoleObservation)]
    assert cards == [CardObservation(False, first)]  # once, from the board's kept event
    assert [(o.hole, o.old_code, o.new_code) for o in holes] == [(3, HOLES[2], 0)]
    assert again.table.referee.on_reader is None
    again.killed()
