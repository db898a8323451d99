"""One whole demo game on the simulated board, played once per test module and shared by its
tests: the game's own test reads what the table was told and needs no browser; the page's test
reads what headless Chromium saw of the same game, and fails with what to install when the
browser is missing (`make browser` installs it)."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from page_watch import PageWatch, watching
from rich.console import Console
from upref.commands import demo
from upref.game import Game
from upref.link.connection import Link
from upref.sim.board import SimBoard, SimSettings


@dataclass
class DemoRun:
    """What a demo game left: its exit status, what it printed, its folder (games.sqlite,
    tags.sqlite) and the page's watch (None when no browser could be started, with why)."""

    rc: int
    out: str
    folder: Path
    page: PageWatch | None
    no_browser: str | None = None

    def check_page(self) -> None:
        if self.page is None:
            pytest.fail(f"the page could not be watched: {self.no_browser}")
        self.page.check()


def play_demo(game: Game, folder: Path, seed: int, **options: Any) -> DemoRun:
    """Play `game`'s demo whole on a simulated board of its own, watched in a browser if one
    starts; `options` are the demo's command-line options (`short=2`)."""
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("UPREF_RUNTIME_DIR", str(folder / "run"))
        board = SimBoard(SimSettings(seed=seed, name=f"demo-{game.name}", flash_dir=folder / "flash"))
        board.start()
        try:
            link = Link(board.port)
            try:
                with contextlib.ExitStack() as stack:
                    page: PageWatch | None = None
                    why: str | None = None
                    try:
                        page = stack.enter_context(watching(game.name, mp))
                    except RuntimeError as exc:  # no browser: the game is played all the same
                        why = str(exc)
                    args = argparse.Namespace(
                        **options,
                        web=page.address if page else None,
                        speak_to=str(folder / "speech"),  # what was said: spoken_check.py
                    )
                    with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(out):
                        settings = demo.DemoSettings(folder, args, Console(file=quiet))
                        rc = demo.run_game(game, board, link, settings)
            finally:
                link.close()
        finally:
            board.stop()
    return DemoRun(rc, out.getvalue(), folder, page, why)
