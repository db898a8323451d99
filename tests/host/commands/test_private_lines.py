"""Nothing meant for one player's eyes reaches a screen that everyone sees, in any flow.

Up And Down says two things to one player alone: the reminder of one's own task card (tapped when
no card is to be drawn) and a hint. Each flow that can say them is driven here: a new game, the
next game of the match, a game resumed from its log, the demo's screens, and `upref replay`. The
frames go where `upref play` (and `upref demo`) hand them: the shared terminal (printed lines,
and the live screen drawn after each frame) and the live page. What everyone sees (the terminal,
the page's public HTML in every edition) never holds a private line; the seat's own page does,
and the shared screen says only that there is a line for that player.

(`upref watch` prints the board's events, never a verdict: it has no private line to leak.)
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from updown_table import Table, enrolled_tags
from upref.board.codes import CodeTable
from upref.commands import demo, play
from upref.commands import replay as replay_command
from upref.games.base import CHANCE
from upref.games.updown.position import mix_board
from upref.games.updown.referee import Hint, UpDownReferee
from upref.games.updown.variant import Variant
from upref.referee.base import Reply
from upref.referee.inputs import EndGame, NextGame, StartGame
from upref.registry import find_game, referee_for
from upref.store.gamelog import GameLog
from upref.store.replay import resume
from upref.store.tags import TagBook
from upref.table import frame_of
from upref.views.frame import Frame
from upref.views.keys import KeyBoard, Private
from upref.views.screen import render
from upref.web.hub import Edition
from upref.web.live import LivePage

GAME = find_game("updown")
PLAYERS = ("Ann", "Bob", "Cy")
SECRETS = ("your task card is", "Hint for", "no hint for your card")
"""What only the player concerned may read (a task card's id follows the first)."""


class Shared:
    """Every output of one `upref play` that the whole table sees, fed the table's frames as
    `play` hands them (`play.shared_screen`), plus the page's seat views for the check that the
    private lines did go somewhere."""

    def __init__(self, live_view: bool, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys
        self.page = LivePage(GAME.panel, "127.0.0.1:8765", PLAYERS, "1")  # drawn, not served
        self.editions: list[Edition] = []
        publish = self.page.hub.publish
        self.page.hub.publish = lambda e, *lang: (self.editions.append(e), publish(e, *lang))[1]  # type: ignore[method-assign]
        self.private = Private()
        self.kb = KeyBoard(lambda _i: None, lambda: 0.0, None, True, private=self.private)
        self.show = play.shared_screen(self.kb, live_view, self.page, None)
        self.terminal: list[str] = []

    def frame(self, frame: Frame) -> None:
        self.show(frame)
        console = Console(width=100, file=io.StringIO(), color_system=None, force_terminal=True)
        console.print(render(frame, GAME.panel, self.private.current(), self.kb))
        self.terminal.append(console.file.getvalue())  # type: ignore[attr-defined]
        self.terminal.append(self.capsys.readouterr().out)

    def public(self) -> str:
        return "\n".join(self.terminal + [e.public for e in self.editions])

    def seat_pages(self) -> str:
        return "\n".join(html for e in self.editions for html in e.private.values())


@pytest.fixture
def tags() -> Iterator[TagBook]:
    book = enrolled_tags()
    yield book
    book.close()


def fed(ref: UpDownReferee, shared: Shared, replies: list[Reply]) -> None:
    for reply in replies:
        shared.frame(frame_of(ref, reply))


def secrets_said(table: Table) -> list[Reply]:
    """Each player taps their own task card (no card is to be drawn: the reminder, for that
    player alone), and the player to move asks for a hint. The replies."""
    start = len(table.replies)
    eng = table.ref.engine
    for seat in range(len(PLAYERS)):
        card = eng.task(seat)
        if card is not None:
            table.tap(card.id)
    table.feed(Hint(table.at()))
    replies = [r for _i, r in table.replies[start:]]
    said = [v for r in replies for v in r.verdicts if v.seat is not None]
    assert len(said) >= len(PLAYERS) and any(s in v.text for v in said for s in SECRETS)
    return replies


def new_game(db: Path, tags: TagBook) -> tuple[Table, GameLog, list[Reply]]:
    ref = UpDownReferee(CodeTable.load(), tags, hints=True)
    table = Table(ref, seed=4)
    log = GameLog.create(db, game="updown", players=PLAYERS, seed=4, config=ref.config())
    ref.attach(log)
    table.feed(StartGame(PLAYERS, Variant(), 4, table.at()))
    table.draw_all()
    return table, log, [r for _i, r in table.replies]


def check(shared: Shared) -> None:
    public = shared.public()
    for secret in SECRETS:
        assert secret not in public, secret
    assert "your task card is" in shared.seat_pages()  # it went to the seat's own page
    assert "A line for Ann alone is on Ann's own page." in public


@pytest.mark.parametrize("live_view", [False, True], ids=["plain", "live"])
def test_a_new_game_and_the_next_one_keep_private_lines_off_the_shared_screens(
    tmp_path: Path, tags: TagBook, capsys: pytest.CaptureFixture[str], live_view: bool
) -> None:
    shared = Shared(live_view, capsys)
    table, log, replies = new_game(tmp_path / "g.sqlite", tags)
    fed(table.ref, shared, replies + secrets_said(table))
    check(shared)

    shared = Shared(live_view, capsys)  # the next game of the match
    start = len(table.replies)
    table.feed(EndGame(table.at()))
    table.feed(NextGame(table.at()))
    for h in range(1, 11):  # the pairs mixed for the next game
        if table.codes[h]:
            table.pull(h)
    table.fill(mix_board(random.Random(5)))
    table.tick()
    table.draw_all()
    assert table.ref.engine.game_number == 2 and table.ref.engine.current_player() != CHANCE
    fed(table.ref, shared, [r for _i, r in table.replies[start:]] + secrets_said(table))
    check(shared)
    log.close()


def test_a_resumed_game_keeps_private_lines_off_the_shared_screens(
    tmp_path: Path, tags: TagBook, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.sqlite"
    table, log, _ = new_game(db, tags)
    codes = dict(table.codes)
    log.close()  # the host is gone
    with GameLog.open(db, 1) as again:
        ref = resume(again, lambda info: referee_for(info, tags))
        back = Table(ref, [], seed=4)  # type: ignore[arg-type]
        back.codes = codes
        shared = Shared(False, capsys)
        fed(ref, shared, secrets_said(back))
        check(shared)


def test_the_demo_and_replay_keep_private_lines_off_the_shared_screens(
    tmp_path: Path, tags: TagBook, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.sqlite"
    table, log, replies = new_game(db, tags)
    replies += secrets_said(table)
    log.close()
    page = LivePage(GAME.panel, "127.0.0.1:8765", PLAYERS, "1")
    screens = demo._Screens(live_view=False, speaker=None, page=page)
    for reply in replies:
        screens.show(frame_of(table.ref, reply))
    printed = capsys.readouterr().out + "\n".join(screens.lines)
    latest = page.hub.latest
    assert latest is not None
    for secret in SECRETS:
        assert secret not in printed and secret not in latest.public
    assert "your task card is" in "".join(latest.private.values())

    assert replay_command.replay_main([str(db)]) == 0
    out = capsys.readouterr().out
    for secret in SECRETS:
        assert secret not in out
    assert "PRIVATE (a line for Ann alone: --private shows it)" in out
    assert replay_command.replay_main([str(db), "--private"]) == 0
    assert "Ann, your task card is" in capsys.readouterr().out
