"""A game's demo played on the simulated board for `make bench`: milliseconds from each physical
action to the referee's verdict drawn on the terminal's scoreboard, with a hook (`Probe`) for
what else watches the table (the web page's figures, `upref.commands.bench_page`)."""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from upref.game import Game
from upref.table import Table
from upref.text import ENGLISH
from upref.views.frame import Frame

if TYPE_CHECKING:
    from rich.console import Console

    from upref.link.connection import Link

__all__ = ["Probe", "bench_game_latency", "pct"]


def pct(values: list[float], p: float) -> float:
    """The p-th percentile of `values` (nearest rank)."""
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


class Probe(Protocol):
    """Something else that follows the table while the demo plays."""

    def attach(self, game: Game, table: Table, players: tuple[str, ...]) -> None:
        """The table is up; the game has not started."""

    def show(self, frame: Frame) -> None:
        """Each frame the table publishes (after each reply of the referee), as it comes."""

    def answered(self, t0: float, terminal_ms: float) -> None:
        """An action made at wall-clock `t0` (time.time()) got its verdict on the terminal's
        scoreboard `terminal_ms` later."""

    def close(self) -> None: ...


class _Acts:
    """The board (or table) the demo's script acts on, noting when a step last did something
    and how many replies the table had then: a step that only waits (for a turn to end once the
    table is still, say) is no action, and its verdict no action's latency."""

    VERBS = frozenset({"tap", "remove", "pull", "insert", "flip", "button", "send"})

    def __init__(self, target: object, replies: Callable[[], int]) -> None:
        self._target = target
        self._replies = replies
        self.at: tuple[float, float, int] | None = None  # (monotonic, wall clock, replies so far)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._target, name)
        if name not in self.VERBS or not callable(attr):
            return attr

        def act(*args: Any, **kwargs: Any) -> Any:
            self.at = (time.monotonic(), time.time(), self._replies())
            return attr(*args, **kwargs)

        return act


def bench_game_latency(
    game: Game,
    limit: float = 120.0,
    probe: Probe | None = None,
    chip: str | None = None,
    lang: str = ENGLISH,
) -> list[float]:
    """Milliseconds from each physical action of the game's demo script on the simulated board
    (a tap, a pair put back, a button press, a key) to the first verdict after it, rendered on
    the scoreboard in `lang`; a step is timed from its last action. Steps that act on nothing are
    not counted. chip: "slow" or "fast", a board whose chip counts every operation and prices it
    at that end of the range (None: the board's defaults)."""
    from upref.sim.board import SimBoard, SimSettings

    demo = game.demo
    assert demo is not None
    with tempfile.TemporaryDirectory(prefix="upref-bench-") as tmp:
        t = Path(tmp)
        os.environ["UPREF_RUNTIME_DIR"] = str(t / "run")
        modelled = {} if chip is None else {"chip_speed": chip, "ops": "count"}
        with SimBoard(SimSettings(seed=demo.seed, name=f"bench-{game.name}", flash_dir=t / "flash",
                                  **modelled)) as board:  # type: ignore[arg-type]
            link, table, uid_of = _started_table(game, board.port, t, probe)
            try:
                return _timed_script(game, board, table, uid_of, (limit, lang), probe)
            finally:
                if probe is not None:
                    probe.close()
                link.close()
                table.close()


def _started_table(
    game: Game, port: str, folder: Path, probe: Probe | None
) -> tuple[Link, Table, dict[str, str]]:
    """(link, table, uid of each piece) of the demo's game started on the board at `port`, its
    tags and log in `folder`, the probe attached."""
    from upref.board.codes import CodeTable
    from upref.commands.scripted import enrol_all
    from upref.link.connection import Link
    from upref.referee.inputs import StartGame
    from upref.registry import titles
    from upref.store.gamelog import GameLog
    from upref.store.tags import TagBook

    demo = game.demo
    assert demo is not None
    link = Link(port)
    tag_book = TagBook(folder / "tags.sqlite")
    uid_of = enrol_all(game, tag_book)
    codes = CodeTable.load()
    ref = game.referee(codes, tag_book, titles=titles(), **demo.settings)
    variant = demo.variant(argparse.Namespace())
    ref.attach(
        GameLog.create(
            folder / "games.sqlite", game=game.name, players=demo.players,
            variant=variant.to_dict(), seed=demo.seed, config=ref.config(),
        )
    )
    table = Table(link, ref, codes, on_frame=probe.show if probe is not None else None)
    table.wait_for_picture()
    if probe is not None:
        probe.attach(game, table, demo.players)
    table.send(StartGame(demo.players, variant, demo.seed, table.clock()))
    return link, table, uid_of


def _timed_script(
    game: Game,
    board: object,
    table: Table,
    uid_of: dict[str, str],
    limit_and_lang: tuple[float, str],
    probe: Probe | None,
) -> list[float]:
    """Play the demo's script on `board` and `table` for up to `limit` seconds, its scoreboard
    drawn in `lang`: the latency of each step that acted, in milliseconds."""
    limit, lang = limit_and_lang
    from rich.console import Console

    demo = game.demo
    assert demo is not None
    out: list[float] = []
    console = Console(file=open(os.devnull, "w"), width=100)  # noqa: SIM115 - closed with the process
    end = time.monotonic() + limit
    acts = _Acts(board, lambda: len(table.replies))
    keys = _Acts(table, lambda: len(table.replies))
    for _what, pause in demo.script(acts, keys, uid_of):  # type: ignore[arg-type]
        stepped = time.monotonic()
        did = [a.at for a in (acts, keys) if a.at is not None]
        if did:  # timed from the step's last action
            ms = _await_verdict(game, table, max(did), stepped, pause, console, probe, lang)
            if ms is not None:
                out.append(ms)
        rest = pause - (time.monotonic() - stepped)
        if rest > 0:
            table.pump(rest)
        acts.at = keys.at = None
        if time.monotonic() > end:
            break
    return out


def _await_verdict(
    game: Game,
    table: Table,
    action: tuple[float, float, int],
    stepped: float,
    pause: float,
    console: Console,
    probe: Probe | None,
    lang: str = ENGLISH,
) -> float | None:
    """Pump the table until a verdict follows the action (monotonic time, wall clock, replies
    before it), within the step's pause; draw the scoreboard then and return the milliseconds
    from the action (None when no verdict came)."""
    from upref.views.screen import render

    t0, wall, n = action

    def answered() -> bool:  # a verdict, not just a card leaving
        return any(r.verdicts for _, r in table.replies[n:])

    while not answered() and time.monotonic() - stepped < pause:
        table.pump(0.002)
    if not answered():
        return None
    console.print(render(table.frame, game.panel, [], lang=lang))
    ms = (time.monotonic() - t0) * 1000
    if probe is not None:
        probe.answered(wall, ms)
    return ms
