"""A game's demo played on the simulated board for `make bench`: milliseconds from each physical
action to the referee's verdict drawn on the terminal's scoreboard, with a hook (`Probe`) for
what else watches the table (the web page's figures, `upref.commands.bench_page`)."""

from __future__ import annotations

import argparse
import os
import tempfile
import threading
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

PUMP_S = 0.002  # the table pumped in slices this short while an action waits for its verdict


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


class _Stopwatch:
    """Times each action of the demo to the first verdict after it, drawn on the terminal's
    scoreboard as soon as the table publishes it (whichever pump of the table hears it: the
    step's pause, a wait of the players, a hand still holding the button), for as long as no
    newer action has begun: a step that acts twice is timed from its last action, and a verdict
    later than the step's pause still counts, at its own time."""

    def __init__(self, game: Game, console: Console, probe: Probe | None, lang: str) -> None:
        self._game, self._console, self._probe, self._lang = game, console, probe, lang
        self.pending: tuple[float, float] | None = None  # (monotonic, wall clock) of the action
        self.out: list[float] = []

    def start(self, t0: float, wall: float) -> None:
        """An action made at monotonic time `t0` (wall clock `wall`)."""
        self.pending = (t0, wall)

    def frame(self, frame: Frame, heard: bool) -> None:
        """The table published `frame`, the reply to something the players did (`heard`: an
        observation of the board or a key) or to something of the table's own (the time, the
        board going offline): the pending action's verdict, when it brings one. What the table
        says by itself (a turn that ends once the table is still) answers no action."""
        if self.pending is None or not frame.verdicts or not heard:
            return
        from upref.views.screen import render

        t0, wall = self.pending
        self.pending = None
        self._console.print(render(frame, self._game.panel, [], lang=self._lang))
        ms = (time.monotonic() - t0) * 1000
        self.out.append(ms)
        if self._probe is not None:
            self._probe.answered(wall, ms)


class _Acts:
    """The board (or table) the demo's script acts on, each action started on the stopwatch:
    a step that only waits (for a turn to end once the table is still, say) is no action, and
    its verdict no action's latency.

    An action is timed from the moment it is done, as a player feels it: a card laid, the
    button pressed, a pair's magnets all in place (or gone) after the hand's short push or pull
    (the simulated hand's `last_settled_ms`, as `make bench`'s hole seated figure). A hand that
    holds (a click, a flip, a move, a touch) blocks its caller until it lets go, as the table
    would never be: the table is pumped meanwhile, so a press is answered while the finger is
    still down, as at a real table whose host runs all the time."""

    VERBS = frozenset({"tap", "remove", "pull", "insert", "flip", "button", "send", "move", "touch"})
    HOLDS = frozenset({"flip", "button", "move", "touch"})  # simulated hands that hold a while
    SEATS = frozenset({"pull", "insert"})  # a pair's magnets in place a few ms after the call

    def __init__(self, target: object, watch: _Stopwatch, pump: Callable[[float], None]) -> None:
        self._target = target
        self._watch = watch
        self._pump = pump

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._target, name)
        if name == "pump" and callable(attr):
            return self._pump  # the players' own waits hear verdicts too
        if name not in self.VERBS or not callable(attr):
            return attr

        def act(*args: Any, **kwargs: Any) -> Any:
            t0, wall = time.monotonic(), time.time()
            self._watch.start(t0, wall)
            got = self._held(attr, args, kwargs) if name in self.HOLDS else attr(*args, **kwargs)
            if name in self.SEATS:
                settled = getattr(getattr(self._target, "hands", None), "last_settled_ms", 0) / 1000
                self._watch.start(t0 + settled, wall + settled)
            return got

        return act

    def _held(self, verb: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """`verb` on a thread of its own while the table is pumped here, until the hand lets go."""
        got: list[Any] = []
        failed: list[BaseException] = []

        def run() -> None:
            try:
                got.append(verb(*args, **kwargs))
            except BaseException as e:  # noqa: BLE001 - raised again on the caller's thread
                failed.append(e)

        hand = threading.Thread(target=run, name="bench-hand", daemon=True)
        hand.start()
        while hand.is_alive():
            self._pump(PUMP_S)
        if failed:
            raise failed[0]
        return got[0] if got else None


def bench_game_latency(
    game: Game,
    limit: float = 120.0,
    probe: Probe | None = None,
    chip: str | None = None,
    lang: str = ENGLISH,
) -> list[float]:
    """Milliseconds from each physical action of the game's demo script on the simulated board
    (a card laid or lifted, a pair pulled or seated, a button pressed, a key) to the first verdict
    after it, drawn on the terminal's scoreboard in `lang` as soon as the table has it (`_Acts`
    says when an action counts as done, `_Stopwatch` what its verdict is). A step that acts twice
    is timed from its last action; steps that act on nothing, and actions no verdict follows
    before the next action (a card taken off, a pair pulled to be turned), are not counted.
    chip: "slow" or "fast", a board whose chip counts every operation and prices it at that end
    of the range (None: the board's defaults)."""
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
    drawn in `lang`: the latency of each action a verdict followed, in milliseconds."""
    limit, lang = limit_and_lang
    from rich.console import Console

    from upref.referee.inputs import BoardOnline, BoardPicture, Tick

    demo = game.demo
    assert demo is not None
    console = Console(file=open(os.devnull, "w"), width=100)  # noqa: SIM115 - closed with the process
    watch = _Stopwatch(game, console, probe, lang)
    shown = table.on_frame

    def published(frame: Frame) -> None:
        if shown is not None:
            shown(frame)  # the probe first: it notes what it shows when the verdict is timed
        inp = table.replies[-1][0] if table.replies else None
        watch.frame(frame, not isinstance(inp, Tick | BoardOnline | BoardPicture))

    table.on_frame = published

    def pump(seconds: float) -> None:
        """The table pumped in short slices, so a verdict is drawn as it comes."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            table.pump(min(left, PUMP_S))

    acts, keys = _Acts(board, watch, pump), _Acts(table, watch, pump)
    end = time.monotonic() + limit
    for _what, pause in demo.script(acts, keys, uid_of):  # type: ignore[arg-type]
        pump(pause)
        if time.monotonic() > end:
            break
    return watch.out
