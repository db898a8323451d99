"""`Table.pump_until_frame`: the screens' pump (`upref play`, `upref demo`) stops at the frame
the table publishes after a reply, so a verdict is drawn at once, and leaves what the board sent
after it for the next pump."""

from __future__ import annotations

from pathlib import Path

from fake_link import FakeLink
from full_board import pair_in_every_hole
from upref.board.codes import CodeTable
from upref.link.notices import Online, Resynced
from upref.link.protocol import Hello, HoleChanged, Snapshot
from upref.registry import find_game, titles
from upref.store.tags import TagBook
from upref.table import Table

CODES = CodeTable.load()
HOLES = pair_in_every_hole(CODES)


def _table(folder: Path) -> tuple[Table, FakeLink]:
    game = find_game("updown")
    assert game is not None and game.demo is not None
    referee = game.referee(CODES, TagBook(folder / "tags.sqlite"), titles=titles(), **game.demo.settings)
    link = FakeLink()
    return Table(link, referee, CODES, clock=lambda: 1_000_000.0), link  # type: ignore[arg-type]


def test_the_pump_stops_at_the_frame_a_reply_publishes_and_leaves_the_rest(tmp_path: Path) -> None:
    table, link = _table(tmp_path)
    hello = Hello("0.2.0", 2, "240AC4A236BB", len(HOLES), ("hall", "rfid", "since"), "92", "hard", FakeLink.boot)
    for item in (hello, Online("fake://"), Resynced(Snapshot(HOLES, None, False, (), 0), "connect")):
        link.events.put(item)
    later = HoleChanged(3, 0, seq=9)
    link.events.put(later)
    before = table.frame
    assert table.pump_until_frame(30.0) is True
    assert table.frame is not before  # the board's first picture, answered
    assert link.events.qsize() == 1 and link.events.get_nowait() is later  # not taken yet


def test_with_nothing_from_the_board_the_pump_gives_up_after_its_time(tmp_path: Path) -> None:
    table, _link = _table(tmp_path)
    before = table.frame
    assert table.pump_until_frame(0.05) is False
    assert table.frame is before
