"""What's Up's demo on the simulated board with the board reset mid-game, while a card lies on
the reader (`upref simctl reset` after the demo's 22nd step, the 21st card of the lay-out):
the table hears exactly what it hears in the clean run, no refusal for a tap nobody made, and
the same winner and scores. (The other games are checked the same way, quicker, at the referee
level: tests/host/referee/test_no_verdict_after_reset.py.)"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from upref.board.model import READER_LOOK_MS
from upref.commands import demo
from upref.game import DemoStep, Game
from upref.link.connection import Link
from upref.registry import find_game
from upref.sim.board import SimBoard

WHATSUP = find_game("whatsup")
RESET_AFTER = 22


class ResetMidGame:
    """The game's demo, with the board reset after step `after` and the table left to take in
    the board's boot before the story goes on."""

    def __init__(self, game: Game, after: int) -> None:
        assert game.demo is not None
        self.demo = game.demo
        self.after = after
        self.card_on_reader = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.demo, name)

    def script(self, board: SimBoard, table: Any, uid_of: dict[str, str]) -> Iterator[DemoStep]:
        for n, step in enumerate(self.demo.script(board, table, uid_of), start=1):
            yield step
            if n == self.after:
                self.card_on_reader = bool(board.state()["cards"])
                boot = table.model.hello.boot
                board.reset()
                end = time.monotonic() + 15
                while table.model.hello.boot == boot and time.monotonic() < end:
                    table.pump(0.1)
                assert table.model.hello.boot != boot, "the board did not come back from its reset"
                table.pump(READER_LOOK_MS / 1000 + 1.0)  # past the reader's first look


def play(make_board: Callable[..., SimBoard], folder: Path, game: Game, capsys: Any) -> list[str]:
    """The demo played whole; the verdict lines the table saw, then the scoreboard's result."""
    assert game.demo is not None
    folder.mkdir()
    board = make_board(seed=game.demo.seed)
    link = Link(board.port)
    try:
        quiet = Console(file=open(os.devnull, "w"))  # noqa: SIM115
        settings = demo.DemoSettings(folder, argparse.Namespace(web=None), quiet)
        rc = demo.run_game(game, board, link, settings)
    finally:
        link.close()
    out = capsys.readouterr().out
    assert rc == 0, out
    lines = out.splitlines()
    said = [ln.strip().split("  -> ")[0] for ln in lines if ln.startswith("   [")]
    result = [ln for ln in lines if ln.startswith("***")]
    result += lines[lines.index(result[0]) + 1 :][:2] if result else []
    return said + ["--"] + result


def test_a_reset_with_a_card_on_the_reader_changes_nothing(
    make_board: Callable[..., SimBoard], tmp_path: Path, capsys: Any
) -> None:
    clean = play(make_board, tmp_path / "clean", WHATSUP, capsys)
    faulty = ResetMidGame(WHATSUP, RESET_AFTER)
    reset = play(make_board, tmp_path / "reset", dataclasses.replace(WHATSUP, demo=faulty), capsys)
    assert faulty.card_on_reader, "the reset came when no card lay on the reader"
    assert "All 30 cards are laid: Ann begins." in " ".join(clean)
    assert reset == clean
