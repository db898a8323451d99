"""The simulated table by hand (issue 30): each whole table step `upref simctl` names does its
whole step on a simulated board, heard by a referee at the table over the board's port, as a
game by hand hears it: the pairs re-mixed, Up And Down's draw, What's Up's lay-out, Up's deal
and Flip a Bird's pile scan. `simctl` runs beside the table, as in another terminal, and plans
each step from the game's log."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from upref.board.codes import CodeTable
from upref.commands import simctl
from upref.commands.scripted import enrol_all
from upref.game import Game
from upref.games.base import Variant
from upref.link.connection import Link
from upref.referee.inputs import StartGame
from upref.registry import find_game, titles
from upref.sim.board import SimBoard, SimSettings
from upref.store.gamelog import GameLog
from upref.store.tags import TagBook
from upref.table import Table

LIMIT_S = 60.0
"""The longest a referee may take to hear what a step did (a loaded machine is slow)."""


class AtTable:
    """A game at a table on a simulated board: the referee (its log in `db`) and `simctl`."""

    def __init__(self, game: Game, board: SimBoard, folder: Path) -> None:
        self.game, self.board, self.db = game, board, folder / "games.sqlite"
        codes = CodeTable.load()
        self.tags = TagBook(folder / "tags.sqlite")
        enrol_all(game, self.tags)
        settings = game.demo.settings if game.demo is not None else {}
        self.ref = game.referee(codes, self.tags, titles=titles(), **settings)
        self.link = Link(board.port)
        self.table = Table(self.link, self.ref, codes)
        self.table.wait_for_picture()
        self.log: GameLog | None = None

    def start(self, players: tuple[str, ...], variant: Variant, seed: int = 5) -> None:
        self.log = GameLog.create(
            self.db, game=self.game.name, players=players, variant=variant.to_dict(), seed=seed,
            config=self.ref.config(),
        )
        self.ref.attach(self.log)
        self.table.send(StartGame(players, variant, seed, self.table.clock()))

    def until(self, what: str, cond: Callable[[], bool]) -> None:
        end = time.monotonic() + LIMIT_S
        while not cond():
            assert time.monotonic() < end, f"the referee never saw {what}"
            self.table.pump(0.1)

    def simctl(self, *words: str) -> tuple[int, str]:
        """`upref simctl WORDS` in a thread of its own while the table goes on hearing the
        board; its exit status and what it printed."""
        got: dict[str, Any] = {}

        def run() -> None:
            import contextlib
            import io

            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                db = ["--db", str(self.db)] if words[0] in simctl.step_names() else []
                got["rc"] = simctl.simctl_main([*words, "--sim", self.board.name, *db])
            got["out"] = out.getvalue()

        th = threading.Thread(target=run)
        th.start()
        while th.is_alive():
            self.table.pump(0.1)
        th.join()
        return got["rc"], got["out"]

    def close(self) -> None:
        self.table.close()
        self.link.close()
        if self.log is not None:
            self.log.close()
        self.tags.close()


@pytest.fixture
def at_table(tmp_path: Path) -> Iterator[Callable[[str], AtTable]]:
    made: list[tuple[SimBoard, AtTable]] = []

    def make(name: str) -> AtTable:
        board = SimBoard(SimSettings(seed=3, name=f"steps{len(made)}", flash_dir=tmp_path / f"f{len(made)}"))
        board.start()
        t = AtTable(find_game(name), board, tmp_path)
        made.append((board, t))
        return t

    yield make
    for board, t in made:
        t.close()
        board.stop()


def test_remix_and_draw_by_hand_in_up_and_down(at_table: Callable[[str], AtTable]) -> None:
    t = at_table("updown")
    before = t.table.picture()
    rc, out = t.simctl("remix", "7")
    assert rc == 0, out
    holes = t.board.state()["holes"]
    for h, hole in enumerate(holes, start=1):  # the answer names where each pair went
        assert f"{h}: {hole['pair']} " in out and hole["up"] is not None, out
    t.until("the pairs re-mixed", lambda: t.table.picture() == tuple(h["code"] for h in holes))
    assert t.table.picture() != before
    t.start(("Ann", "Bob"), find_game("updown").variant())
    for name in ("Ann", "Bob"):
        t.until(f"{name} drawing", lambda: getattr(t.ref.view(None), "phase", None) == "draw")
        drawn = len(t.ref.engine.stack)
        rc, out = t.simctl("draw")
        assert rc == 0 and out.startswith(f"{name} draws T0"), out
        t.until(f"{name}'s card", lambda left=drawn - 1: len(t.ref.engine.stack) == left)
    t.until("the first turn", lambda: t.ref.view(None).phase != "draw")  # type: ignore[union-attr]
    rc, out = t.simctl("draw")  # nobody draws now: said, nothing done
    assert rc == 1 and "nobody draws a task card now" in out, out


def test_whats_up_s_lay_out_in_one_command(at_table: Callable[[str], AtTable]) -> None:
    t = at_table("whatsup")
    t.start(("Ann", "Bob"), find_game("whatsup").variant())
    t.until("the game", lambda: t.ref.has_engine)
    rc, out = t.simctl("lay")
    assert rc == 0 and out.startswith("Laid out and tapped 30 cards"), out
    t.until("every card laid", lambda: not t.ref.engine.unlaid() and t.ref.phase == "play")


def test_up_s_deal_in_one_command(at_table: Callable[[str], AtTable]) -> None:
    t = at_table("up")
    t.start(("Ann", "Bob", "Cy"), find_game("up").variant())
    t.until("the cut", lambda: t.ref.has_engine and t.ref.engine.phase == "cut")
    rc, out = t.simctl("deal")
    assert rc == 0 and out.startswith("Dealt and tapped 12 face-up cards: Ann "), out
    t.until("the deal done", lambda: t.ref.engine.phase == "play")
    ups = [len(t.ref.engine.face_up(s)) for s in range(3)]
    assert ups == [4, 4, 4]


def test_flip_a_bird_s_pile_scan_in_one_command(at_table: Callable[[str], AtTable]) -> None:
    t = at_table("flipabird")
    game = find_game("flipabird")
    t.start(("Ann", "Bob", "Cy"), game.variant(pile=6))
    t.until("the scan", lambda: getattr(t.ref, "scanning", False))
    rc, out = t.simctl("scan")
    assert rc == 0 and out.startswith("Scanned 6 cards onto the draw pile"), out
    t.until("the game begun", lambda: t.ref.phase == "play")
    rc, out = t.simctl("play")  # Ann plays a card that can be in her hand
    assert rc == 0 and out.startswith("Ann plays "), out
    t.until("Ann's card in the row", lambda: len(t.ref.engine.view(None).row) == 1)
