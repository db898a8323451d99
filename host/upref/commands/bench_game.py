"""A game's demo played on the simulated board for `make bench`: milliseconds from each physical
action to the referee's verdict drawn on the terminal's scoreboard, with a hook (`Probe`) for
what else watches the table (the web page's figures, `upref.commands.bench_page`).

Each action is timed twice (`Timed`): on the host's clock alone, from the hand to the verdict
drawn, as a player feels it; and stage by stage, as `make bench` times a card's arrival
(`upref.commands.bench_latency`): on the chip's clock from the change the action made (the
last magnet in place or gone, the card laid, the button) to the last byte of the frame the
verdict answers leaving the UART, the USB bridge, then on the host's clock from that frame's
bytes read by the link to the verdict drawn. The simulated board dates both on the chip's
clock (`upref/sim/standins/probe.py`), so the chip's stage is what the modelled chip does,
however far the board's process falls behind a loaded machine."""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from upref.commands.bench_latency import USB_MS, Arrivals
from upref.game import Game
from upref.table import Table
from upref.text import ENGLISH
from upref.views.frame import Frame

if TYPE_CHECKING:
    from rich.console import Console

    from upref.link.connection import Link

__all__ = ["Probe", "Timed", "bench_game_latency", "bench_game_stages", "pct"]

PUMP_S = 0.002  # the table pumped in slices this short while an action waits for its verdict
DATES_WAIT_S = 2.0  # the board's dates of the demo's last frames come by then
CHANGES = ("L", "K", "B")  # the probe's reports of a change a hand made (a magnet, a card, the button)
HEARTBEAT_S = 1.0  # the board's heartbeat period: each demo begins at a moment of it drawn at
# random, as players at a table do (begun at once, a demo's first tap fell on the heartbeat's
# pass, when the reader does not look at its field, in every demo: about 30 ms more, in one
# action of twenty)
_PHASE = random.Random(31)


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


@dataclass(frozen=True)
class Timed:
    """One action's verdict, in ms: `wall` on the host's clock alone (the hand to the verdict
    drawn); `staged` stage by stage (the module's header), None where the board did not date it
    (a key, which the board never sees; a frame or change the board's reports do not name)."""

    wall: float
    staged: float | None


@dataclass(frozen=True)
class _Answer:
    """A verdict drawn `wall` ms after its action, at `drawn` (time.monotonic()), answering the
    board's frame `seq` (None: a key, or the table's own); `reports`: how many of the board's
    probe reports had come when the action began."""

    wall: float
    drawn: float
    seq: int | None
    reports: int


class _Stopwatch:
    """Times each action of the demo to the first verdict after it, drawn on the terminal's
    scoreboard as soon as the table publishes it (whichever pump of the table hears it: the
    step's pause, a wait of the players, a hand still holding the button), for as long as no
    newer action has begun: a step that acts twice is timed from its last action, and a verdict
    later than the step's pause still counts, at its own time."""

    def __init__(self, game: Game, console: Console, probe: Probe | None, lang: str) -> None:
        self._game, self._console, self._probe, self._lang = game, console, probe, lang
        # (monotonic, wall clock, the board's probe reports so far) of the action
        self.pending: tuple[float, float, int] | None = None
        self.answers: list[_Answer] = []

    @property
    def out(self) -> list[float]:
        """Each answered action's latency on the host's clock alone, ms."""
        return [a.wall for a in self.answers]

    def start(self, t0: float, wall: float, reports: int) -> None:
        """An action made at monotonic time `t0` (wall clock `wall`), when the board had sent
        `reports` probe reports."""
        self.pending = (t0, wall, reports)

    def frame(self, frame: Frame, heard: bool, seq: int | None) -> None:
        """The table published `frame`, the reply to something the players did (`heard`: an
        observation of the board, from its frame `seq`, or a key) or to something of the table's
        own (the time, the board going offline): the pending action's verdict, when it brings
        one. What the table says by itself (a turn that ends once the table is still) answers
        no action."""
        if self.pending is None or not frame.verdicts or not heard:
            return
        from upref.views.screen import render

        t0, wall, reports = self.pending
        self.pending = None
        self._console.print(render(frame, self._game.panel, [], lang=self._lang))
        drawn = time.monotonic()
        ms = (drawn - t0) * 1000
        self.answers.append(_Answer(ms, drawn, seq, reports))
        if self._probe is not None:
            self._probe.answered(wall, ms)

    def timed(self, board: object, arrivals: Arrivals) -> list[Timed]:
        """Each answer timed both ways, from the board's probe reports (`SimBoard.probe`) and
        the times the link read each frame (`arrivals`)."""
        reports = getattr(board, "probe", None)
        if reports is None:
            return [Timed(a.wall, None) for a in self.answers]
        last = max((a.seq for a in self.answers if a.seq is not None), default=None)
        end = time.monotonic() + DATES_WAIT_S
        while last is not None and time.monotonic() < end and not _tx(list(reports), last):
            time.sleep(0.01)
        kept = list(reports)
        first = int(getattr(board, "probe_seen", len(kept))) - len(kept)  # number of kept[0]
        return [Timed(a.wall, _staged(a, kept, first, arrivals)) for a in self.answers]


def _tx(reports: list[list[str]], seq: int) -> int | None:
    """Where in `reports` the board said the frame of sequence number `seq` left its UART."""
    tag = f"@{seq:04X}"
    return next((i for i, w in enumerate(reports) if w[0] == "tx" and len(w) > 3 and w[3] == tag), None)


def _staged(a: _Answer, reports: list[list[str]], first: int, arrivals: Arrivals) -> float | None:
    """`a` stage by stage: the chip's clock from the latest change the board dated after the
    action began and before the frame `a` answers, to that frame's last byte on the UART; the USB
    bridge; the host's clock from the frame's bytes read to the verdict drawn."""
    if a.seq is None or a.reports < first:
        return None
    since = reports[a.reports - first :]
    at = _tx(since, a.seq)
    arrived = arrivals.at.get(a.seq)
    if at is None or arrived is None or arrived > a.drawn:
        return None
    changes = [int(w[2]) for w in since[:at] if w[0] in CHANGES and len(w) > 2]
    if not changes:
        return None
    return (int(since[at][2]) - max(changes)) / 1000 + USB_MS + (a.drawn - arrived) * 1000


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
            t0, wall, reports = time.monotonic(), time.time(), self._reports()
            self._watch.start(t0, wall, reports)
            got = self._held(attr, args, kwargs) if name in self.HOLDS else attr(*args, **kwargs)
            if name in self.SEATS:
                settled = getattr(getattr(self._target, "hands", None), "last_settled_ms", 0) / 1000
                self._watch.start(t0 + settled, wall + settled, reports)
            return got

        return act

    def _reports(self) -> int:
        """How many probe reports the board has sent so far (-1 for the table: a key, which
        the board never sees)."""
        return int(getattr(self._target, "probe_seen", -1))

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
    says when an action counts as done, `_Stopwatch` what its verdict is), on the host's clock
    alone. A step that acts twice is timed from its last action; steps that act on nothing, and
    actions no verdict follows before the next action (a card taken off, a pair pulled to be
    turned), are not counted. chip: "slow" or "fast", a board whose chip counts every operation
    and prices it at that end of the range (None: the board's defaults)."""
    return [t.wall for t in bench_game_stages(game, limit, probe, chip, lang)]


def bench_game_stages(
    game: Game,
    limit: float = 120.0,
    probe: Probe | None = None,
    chip: str | None = None,
    lang: str = ENGLISH,
) -> list[Timed]:
    """As `bench_game_latency`, each action timed both ways (`Timed`)."""
    from upref.sim.board import SimBoard, SimSettings

    demo = game.demo
    assert demo is not None
    with tempfile.TemporaryDirectory(prefix="upref-bench-") as tmp:
        t = Path(tmp)
        os.environ["UPREF_RUNTIME_DIR"] = str(t / "run")
        modelled = {} if chip is None else {"chip_speed": chip, "ops": "count"}
        with SimBoard(SimSettings(seed=demo.seed, name=f"bench-{game.name}", flash_dir=t / "flash",
                                  **modelled)) as board:  # type: ignore[arg-type]
            arrivals = Arrivals()
            link, table, uid_of = _started_table(game, (board.port, arrivals), t, probe)
            try:
                return _timed_script(game, (board, arrivals), table, uid_of, (limit, lang), probe)
            finally:
                if probe is not None:
                    probe.close()
                link.close()
                table.close()


def _started_table(
    game: Game, port: tuple[str, Arrivals], folder: Path, probe: Probe | None
) -> tuple[Link, Table, dict[str, str]]:
    """(link, table, uid of each piece) of the demo's game started on the board at `port` (its
    name, and what stamps the frames the link reads), its tags and log in `folder`, the probe
    attached."""
    from upref.board.codes import CodeTable
    from upref.commands.scripted import enrol_all
    from upref.link.connection import Link, LinkSettings
    from upref.referee.inputs import StartGame
    from upref.registry import titles
    from upref.store.gamelog import GameLog
    from upref.store.tags import TagBook

    demo = game.demo
    assert demo is not None
    link = Link(port[0], LinkSettings(serial_factory=port[1].factory))
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
    board_and_arrivals: tuple[object, Arrivals],
    table: Table,
    uid_of: dict[str, str],
    limit_and_lang: tuple[float, str],
    probe: Probe | None,
) -> list[Timed]:
    """Play the demo's script on the board and `table` for up to `limit` seconds, its scoreboard
    drawn in `lang`: each action a verdict followed, timed (`arrivals`: when the link read each
    of the board's frames)."""
    board, arrivals = board_and_arrivals
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
        watch.frame(frame, not isinstance(inp, Tick | BoardOnline | BoardPicture), getattr(inp, "seq", None))

    table.on_frame = published

    def pump(seconds: float) -> None:
        """The table pumped in short slices, so a verdict is drawn as it comes."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            table.pump(min(left, PUMP_S))

    acts, keys = _Acts(board, watch, pump), _Acts(table, watch, pump)
    end = time.monotonic() + limit
    pump(_PHASE.uniform(0.0, HEARTBEAT_S))
    for _what, pause in demo.script(acts, keys, uid_of):  # type: ignore[arg-type]
        pump(pause)
        if time.monotonic() > end:
            break
    return watch.timed(board, arrivals)
