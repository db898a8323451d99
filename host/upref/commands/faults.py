"""`make faults` (`python -m upref.commands.faults`): every game's demo played whole on the
simulated board, clean, and then once under each fault, mid-game; each faulted game must say to
the table exactly what the clean one said.

The faults:

  * noise: line noise 1e-2 both ways for the whole game;
  * reset: the board's EN button, mid-game;
  * unplug: the USB cable out for 3 s (`upref simctl unplug 3`), mid-game;
  * ctrl-c: one 0x03 on the line at the start of a line (`inject 03`), mid-game;
  * burst: 4 KB of random bytes on the line to the board (`inject random:4096`), mid-game;
  * kill: the host, a process of its own, killed with SIGKILL mid-turn while the table is still;
    a second host resumes the game from its log (as `upref play --resume` does: it asks the
    board for what it sensed meanwhile) and the scripted players finish it, asking the referee
    what is done;
  * kill-card: the same, with a card on the reader that the referee has counted (the tap
    nearest the middle of the clean game): the resumed host must not count it again, and the
    players lift it once the referee has told them what it sees;
  * kill@<verdicts>:<verb>:<heard|sent>: the host killed at the first of the players' actions
    (`verb`: tap, remove, pull, insert, ..., or any) once the referee has said that many
    verdicts, once it has heard what the action did or at once, before it hears (the board
    keeps the event). `make faults` draws three such moments a game from the clean game's
    actions, from a seed it prints first (`--seed N`, `make faults SEED=N`, draws them again).

What is compared: the public verdicts in order (their words, from the game log's replay, which
the tests prove gives what the table heard), the scores and the winner. An unplug makes the
referee say two things the clean game never says, the board offline and back online: its game
must say exactly those two, together (the players stop while the board is offline, as people
at a table do), and otherwise what the clean game said. One line per game and fault: `<game> <fault>: identical` or `<game> <fault>: DIFFERS (<first difference>)`; at the end, how many
faulted games there were and how many were identical.

`--short` plays each game's short variant (`Game.short`), as the tests do; `--jobs N` plays N games
at once, each in a process of its own (the games mostly wait on the table's pace, so more than
the machine's cores fit).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from upref.board.codes import CodeTable
from upref.board.simtags import sim_uids
from upref.commands.scripted import DEADLINE_S, enrol_all, since_of
from upref.game import Game
from upref.link.connection import Link, LinkSettings
from upref.players import OFFLINE_WAIT_S, wait_for_offline, wait_while_offline
from upref.referee.base import Reply
from upref.referee.inputs import Input, Observe, StartGame
from upref.registry import find_game, games, referee_for, titles
from upref.sim.board import SimBoard, SimSettings
from upref.sim.channel import SimControl
from upref.sim.verbs import Verbs
from upref.store.gamelog import GameLog, GameLogError
from upref.store.replay import load_log
from upref.store.tags import TagBook
from upref.table import Table

__all__ = [
    "FAULTS", "Result", "catch_up", "first_difference", "main", "matrix_line", "run_case", "run_matrix",
]

FAULTS = ("noise", "reset", "unplug", "ctrl-c", "burst", "kill", "kill-card")
"""Every fault, in the matrix's order."""

NOISE = 1e-2
UNPLUG_S = 3.0
BURST = 4096
KILL_WAIT_S = 30.0
"""How long a host that reached its kill point waits to be killed (then it says so and exits)."""
CASE_S = 300.0
"""The longest a game of the matrix may go on (a whole one takes at most 90 s on a quiet machine): a game that
hangs is cut there, and its missing verdicts are its difference."""
KILLS = 3
"""Kill moments drawn per game by `make faults`, beside the matrix's own kills."""
JOBS = 12
"""Games played at once by default: each waits on the table's pace most of the time, so a dozen
fit on two cores (many more and the table's pace slips)."""
CATCH_UP_MS = 2000
"""How much later by the board's clock a heartbeat must be than the script's end before the game
is over for the runner: any frame the board sent before it, lost or not, has been seen by then."""
HEARTBEAT_S = 20.0
"""The runner's links take the board for offline after this long without a frame (3 s in a real
game): a machine so loaded that a board's heartbeat waits 3 s is not one of the faults, and the
faults' own offline moments are seen at once (an unplug's port vanishes, a Ctrl-C's REPL and a
reset's HELLO speak for themselves)."""
CHILD_S = 400.0
"""The longest a host process may take for its part of a game."""
_KILL_POINT = "kill-point"

OFFLINE = "The board is offline: nothing counts until it is back. Check its USB cable."
ONLINE = "The board is back online."
NOTICES: dict[str, tuple[str, ...]] = {"unplug": (OFFLINE, ONLINE)}
"""What a fault itself makes the referee say, once and together, beside the clean game's words."""


@dataclass(frozen=True)
class Result:
    """What a game said to the table: the public verdicts' words in order, the final scores
    and the winners' names (None: the game had no result); `steps`, how many steps the script
    took; `error`, why the game could not be played or read back."""

    verdicts: tuple[str, ...] = ()
    scores: tuple[int, ...] | None = None
    winners: tuple[str, ...] | None = None
    steps: int = 0
    error: str | None = None
    seconds: float = 0.0
    bad_frames: int = 0
    """Frames the host's link dropped as damaged (CRC, shape, length, arguments) or missed (a
    sequence gap): what the line's noise did, so that a noise case is seen to have had some."""
    actions: tuple[tuple[int, str], ...] = ()
    """The players' actions on the table in order: how many public verdicts the referee had
    said before each, and its verb (what the kill moments are drawn from)."""


ACTIONS = frozenset({"pull", "insert", "flip", "move", "tap", "touch", "remove", "button"})
"""The simulated board's verbs that are a player's hand on the table (the rest are faults, set-up
or questions)."""


@dataclass(frozen=True)
class Moment:
    """Where in a game the host is killed: once the referee has said `said` public verdicts, at
    the first `verb` the players make from then on (a verb of ACTIONS; "any": whatever they do
    next; "rest": the first moment the table is still, with nothing done half). `heard`: once
    the referee has had what that action did (a card on the reader, counted), else at once,
    before the host hears of it (the board keeps it)."""

    said: int
    verb: str = "rest"
    heard: bool = True

    def arg(self) -> str:
        """The moment as one word for a command line (`7:tap:heard`), read back by `parse`."""
        return f"{self.said}:{self.verb}:{'heard' if self.heard else 'sent'}"

    @classmethod
    def parse(cls, text: str) -> Moment:
        said, verb, heard = text.split(":")
        return cls(int(said), verb, heard == "heard")

    def words(self) -> str:
        """The moment in words: `after verdict 7, at a tap, heard`."""
        how = "" if self.verb == "rest" else (", heard" if self.heard else ", before the host heard it")
        what = {"rest": "the table still", "any": "the next action"}.get(self.verb, f"a {self.verb}")
        return f"after verdict {self.said}, at {what}{how}"


class Players:
    """The board as the scripted players use it: each action they make on the table (a verb of
    ACTIONS) is noted with how many public verdicts the referee had said before it; at the
    `kill` moment, the host is killed once the action is made (a click of the button is then
    only its press: the host dies with the button held)."""

    def __init__(self, board: Any, table: Table, kill: tuple[Moment, Path] | None = None) -> None:
        self._board = board
        self._table = table
        self._kill = kill
        self.actions: list[tuple[int, str]] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._board, name)
        if name not in ACTIONS:
            return attr

        def act(*args: Any, **kwargs: Any) -> Any:
            said = _said(self._table)
            due = self._kill is not None and self._kill[0].verb in ("any", name) and said >= self._kill[0].said
            if due and name == "button" and args[:1] == ("click",):
                args = ("press",)
            out = attr(*args, **kwargs)
            self.actions.append((said, name))
            if due and self._kill is not None:
                _kill_now(self._table, name, *self._kill)
            return out

        return act


def first_difference(clean: Result, got: Result, notices: Sequence[str] = ()) -> str | None:
    """The first way `got` differs from the clean run, in words (None: identical); `notices`,
    what the fault itself makes the referee say: `got` must say them once, together, and
    otherwise what the clean run said."""
    if got.error is not None:
        return got.error
    if notices:
        n = len(notices)
        at = next((i for i in range(len(got.verdicts)) if got.verdicts[i:i + n] == tuple(notices)), None)
        if at is None:
            return f"the fault's notices {' / '.join(repr(t) for t in notices)} never came together"
        got = Result(got.verdicts[:at] + got.verdicts[at + n:], got.scores, got.winners, got.steps)
    for i, (want, have) in enumerate(zip(clean.verdicts, got.verdicts, strict=False), start=1):
        if want != have:
            return f"verdict {i} is {have!r} where the clean game said {want!r}"
    n = len(clean.verdicts)
    if len(got.verdicts) > n:
        return f"verdict {n + 1}, {got.verdicts[n]!r}, is one the clean game never said"
    if len(got.verdicts) < n:
        return f"verdict {len(got.verdicts) + 1}, {clean.verdicts[len(got.verdicts)]!r}, never came"
    if got.scores != clean.scores:
        return f"scores {got.scores} where the clean game had {clean.scores}"
    if got.winners != clean.winners:
        return f"winner {got.winners} where the clean game had {clean.winners}"
    return None


def matrix_line(game: str, fault: str, clean: Result, got: Result) -> str:
    """`<game> <fault>: identical` or `<game> <fault>: DIFFERS (<first difference>)`."""
    diff = first_difference(clean, got, NOTICES.get(fault, ()))
    return f"{game} {fault}: identical" if diff is None else f"{game} {fault}: DIFFERS ({diff})"


def _options(game: Game, short: bool) -> argparse.Namespace:
    return argparse.Namespace(**(dict(game.short) if short else {}))


def read_result(game: Game, folder: Path, steps: int = 0) -> Result:
    """What the game logged in `folder` said, from a replay of its log."""
    try:
        info, entries = load_log(folder / "games.sqlite")
    except GameLogError as e:
        return Result(steps=steps, error=f"no game log: {e}")
    tag_book = TagBook(folder / "tags.sqlite", read_only=True)
    try:
        ref = referee_for(info, tag_book)
        verdicts = [
            v.text for e in entries for v in ref.handle(ref.decode(e.input_dict())).public
        ]
    finally:
        tag_book.close()
    view = ref.view(None)
    out = view.outcome if view is not None else None
    if out is None:
        return Result(tuple(verdicts), steps=steps)
    names = info.players
    return Result(tuple(verdicts), out.scores, tuple(names[s] for s in out.winners), steps)


def _new_table(game: Game, link: Link, folder: Path, options: argparse.Namespace) -> tuple[Table, GameLog]:
    """A new game of the demo on `link`, logged in `folder/games.sqlite`."""
    demo = game.demo
    assert demo is not None, f"{game.name} has no demo"
    codes = CodeTable.load()
    tag_book = TagBook(folder / "tags.sqlite")
    enrol_all(game, tag_book)
    referee = game.referee(codes, tag_book, titles=titles(), **demo.settings)
    variant = demo.variant(options)
    log = GameLog.create(
        folder / "games.sqlite",
        game=game.name,
        players=demo.players,
        variant=variant.to_dict(),
        seed=demo.seed,
        config=referee.config(),
    )
    referee.attach(log)
    table = Table(link, referee, codes, on_notice=lambda _text: None)
    table.wait_for_picture()
    table.send(StartGame(demo.players, variant, demo.seed, table.clock()))
    return table, log


def _resumed_log(game: Game, folder: Path) -> GameLog:
    """The unfinished game in `folder/games.sqlite`, else the last one: a game whose result is
    in but whose table goes on (Flip a Bird's won cards confirmed after its last trick)."""
    path = folder / "games.sqlite"
    log = GameLog.open_latest(path, game=game.name) or GameLog.open_latest(path, game=game.name, unfinished=False)
    if log is None:
        raise GameLogError(f"no unfinished {game.title} game in {folder / 'games.sqlite'} to resume")
    return log


def _resumed_table(game: Game, link: Link, log: GameLog) -> tuple[Table, GameLog]:
    """The unfinished game of `log` resumed on `link` (opened as `upref play --resume` opens it:
    asking the board for what it sensed after the log's last event); the table's replies start
    with the log's, so that the scripted players can ask what is done."""
    codes = CodeTable.load()
    tag_book = TagBook(log.path.parent / "tags.sqlite", read_only=True)
    referee = referee_for(log.header, tag_book)
    history: list[tuple[Input, Reply]] = []
    for e in log.entries():
        inp = referee.decode(e.input_dict())
        history.append((inp, referee.handle(inp)))
    referee.attach(log)
    table = Table(link, referee, codes, on_notice=lambda _text: None)
    table.replies.extend(history)
    table.wait_for_picture()
    return table, log


def _finish_what_was_left(board: Verbs, table: Table) -> None:
    """The players at a resumed table, once the referee has told them what it sees, finish what
    the host's death left half done: they let go of the button and lift a card lying on the
    reader (the referee has counted it, and says so), and wait until the referee has heard
    that. A pair out of its hole is the game's own script's to put back: it goes on from the
    referee's picture."""
    catch_up(table, KILL_WAIT_S)
    st = board.state()
    if st["button"]:
        board.button("release")
    if st["cards"]:
        board.remove()
    end = time.monotonic() + KILL_WAIT_S
    while (table.referee.on_reader is not None or table.model.button) and time.monotonic() < end:
        table.pump(0.05)


def _filled(st: dict[str, Any]) -> int:
    return sum(1 for h in st["holes"] if h.get("pair"))


def _at_rest(board: Verbs, filled: int) -> bool:
    """No card on the reader, no pair out of its hole (`filled` holes hold one, as at the
    start), the button up: a still table."""
    st = board.state()
    return not st["cards"] and not st["hand"] and not st["button"] and _filled(st) == filled


def _play(
    game: Game,
    board: Verbs,
    table: Table,
    at: int | None = None,
    fault: Callable[[], None] | None = None,
    kill: tuple[Moment, Path] | None = None,
    limit: float = DEADLINE_S,
) -> tuple[int, tuple[tuple[int, str], ...]]:
    """The demo's script played to its end on `table`; `fault()` once the referee has said `at`
    public verdicts (a point in the game, not a count of the script's steps, whose short waits
    for the referee vary with the machine's speed); with `kill` (a moment and a file), at that
    moment that file is written and the host waits to be killed; the game is cut after `limit`
    seconds. The players stop while the referee says the board is offline. The number of steps
    taken, and the players' actions (how many verdicts before each, its verb)."""
    demo = game.demo
    assert demo is not None
    uid_of = sim_uids(game.name, game.items())  # the tags enrol_all enrolled
    deadline = time.monotonic() + limit
    filled = _filled(board.state())
    moment, point = kill if kill is not None else (None, None)
    players = Players(board, table, kill if moment is not None and moment.verb != "rest" else None)
    steps = 0
    for steps, (_what, pause) in enumerate(demo.script(players, table, uid_of), start=1):  # type: ignore[arg-type]
        table.pump(pause)
        if at is not None and _said(table) >= at and fault is not None:
            fault()
            fault = None
        if moment is not None and point is not None and moment.verb == "rest" and _said(table) >= moment.said \
                and _at_rest(board, filled):
            _killed_here(table, point, f"step {steps}", pump=True)
        if not wait_while_offline(table) or time.monotonic() > deadline:
            break
    catch_up(table, max(0.0, deadline - time.monotonic()))
    table.pump(1.0)
    return steps, tuple(players.actions)


def _kill_now(table: Table, verb: str, moment: Moment, point: Path) -> None:
    """The host killed at the players' `verb`, once the referee has had what it did when the
    moment says so."""
    if moment.heard:
        mark = len(table.replies)
        end = time.monotonic() + KILL_WAIT_S
        while not any(isinstance(inp, Observe) for inp, _ in table.replies[mark:]):
            if time.monotonic() > end:
                raise SystemExit(f"the referee never heard the {verb} at the kill point")
            table.pump(0.05)
    _killed_here(table, point, f"a {verb}", pump=moment.heard)


def _killed_here(table: Table, point: Path, where: str, *, pump: bool) -> None:
    """Write the kill point and wait to be killed: pumping the table (the host goes on hearing
    the board, as a host does until it dies), or deaf (`pump` false: what the board says from
    now on reaches only the resumed host)."""
    part = point.with_suffix(".part")
    part.write_text(f"{where}\n")
    part.replace(point)  # whole when it appears: the runner reads it at once
    if pump:
        table.pump(KILL_WAIT_S)
    else:
        time.sleep(KILL_WAIT_S)  # a wait to be killed, never long enough to matter
    raise SystemExit(f"the host at its kill point ({where}) was not killed")


def catch_up(table: Table, limit: float) -> bool:
    """Pump until the referee has heard everything the board sensed before now: two heartbeats
    later by the board's own clock (a frame lost before them shows as a gap by then), with the
    link recovering nothing and none of its events left to apply (at most `limit` seconds).
    What the players did last then counts however slow the line or the machine."""
    link = table.link
    start: int | None = None
    end = time.monotonic() + limit
    while True:
        hb = link.heartbeat
        if hb is not None:
            if start is None or hb.uptime_ms < start:  # the first heartbeat, or a new boot's
                start = hb.uptime_ms
            elif hb.uptime_ms >= start + CATCH_UP_MS and link.caught_up and link.events.empty():
                return True
        if time.monotonic() >= end:
            return False
        table.pump(0.1)


def _said(table: Table) -> int:
    """How many public verdicts the referee has said in this game (a resumed one's included)."""
    return sum(len(reply.public) for _inp, reply in table.replies)


def _fault(board: SimBoard, table: Table, fault: str) -> Callable[[], None] | None:
    """What the fault does mid-game (None: nothing, noise is on from the start)."""

    def unplug() -> None:
        board.unplug(UNPLUG_S)
        # the players saw the cable go: they wait for the referee to say so, however long a
        # loaded machine takes to (the port is gone: it will); a deadline of the unplug's own
        # 3 s let them play on unseen once, and the notices came apart
        wait_for_offline(table, OFFLINE_WAIT_S)

    actions: dict[str, Callable[[], Any]] = {
        "reset": board.reset,
        "unplug": unplug,
        "ctrl-c": lambda: board.inject("03"),
        "burst": lambda: board.inject(f"random:{BURST}"),
    }
    return actions.get(fault)


def kill_moment(fault: str, at: int) -> Moment | None:
    """The moment a kill fault names (None: the fault is no kill): `kill`, the table still after
    `at` verdicts; `kill-card`, a card on the reader and counted, the first tap after `at`
    verdicts; `kill@<said>:<verb>:<heard|sent>`, a moment of its own (`Moment.arg`)."""
    if fault == "kill":
        return Moment(at)
    if fault == "kill-card":
        return Moment(at, "tap", heard=True)
    if fault.startswith("kill@"):
        return Moment.parse(fault.removeprefix("kill@"))
    return None


def run_case(game: Game, fault: str | None, folder: Path, *, at: int | None = None, short: bool = False) -> Result:
    """The game's demo on a fresh simulated board in `folder`: clean (`fault` None) or with the
    fault once the referee has said `at` verdicts (a kill: at its moment, `kill_moment`)."""
    demo = game.demo
    assert demo is not None, f"{game.name} has no demo"
    if fault is not None and fault not in FAULTS and not fault.startswith("kill@"):
        raise ValueError(f"no fault {fault!r}: the faults are {', '.join(FAULTS)}")
    folder.mkdir(parents=True, exist_ok=True)
    os.environ["UPREF_RUNTIME_DIR"] = str(folder / "run")
    with SimBoard(SimSettings(seed=demo.seed, name="faults", flash_dir=folder / "flash")) as board:
        moment = kill_moment(fault, at or 1) if fault is not None else None
        if moment is not None:
            return _killed_and_resumed(game, board, folder, moment, short)
        with Link(board.port, LinkSettings(heartbeat_timeout=HEARTBEAT_S)) as link:
            table, log = _new_table(game, link, folder, _options(game, short))
            try:
                if fault == "noise":
                    board.noise(NOISE)
                steps, actions = _play(game, board, table, at, _fault(board, table, fault) if fault else None,
                                       limit=CASE_S)
            finally:
                table.close()
                log.close()
            c = link.counters
            bad = c.crc + c.shape + c.long + c.args + c.gaps
    return replace(read_result(game, folder, steps), bad_frames=bad, actions=actions)


def _child_argv(game: Game, board: SimBoard, folder: Path, short: bool, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "upref.commands.faults", "--host", game.name, "--port", board.port,
        "--control", board.control_path, "--folder", str(folder), *(["--short"] if short else []),
        *extra,
    ]


def _killed_and_resumed(game: Game, board: SimBoard, folder: Path, moment: Moment, short: bool) -> Result:
    """The host in a process of its own, killed with SIGKILL at its kill point; a second one
    resumes the game and finishes it."""
    point = folder / _KILL_POINT
    point.unlink(missing_ok=True)
    first = subprocess.Popen(
        _child_argv(game, board, folder, short, "--kill-at", moment.arg()),
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    end = time.monotonic() + CHILD_S
    while not point.exists() and first.poll() is None and time.monotonic() < end:
        time.sleep(0.05)
    if not point.exists():
        status = first.poll()
        first.kill()
        _, err = first.communicate(timeout=10)
        if status is None:
            why = f"it was still playing after {CHILD_S:.0f} s"
        else:
            why = f"it ended (exit status {status}) first: {_last_line(err)}"
        return Result(error=f"the host never reached its kill point: {why}")
    first.send_signal(signal.SIGKILL)
    first.communicate(timeout=10)
    try:
        second = subprocess.run(
            _child_argv(game, board, folder, short, "--resume"),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            timeout=CHILD_S, check=False,
        )
    except subprocess.TimeoutExpired:  # a resumed game that hangs: its missing verdicts say how
        return replace(read_result(game, folder), error=None)
    if second.returncode != 0:
        return Result(error=f"the resumed host failed: {_last_line(second.stderr)}")
    return read_result(game, folder)


def _last_line(err: bytes) -> str:
    lines = err.decode(errors="replace").strip().splitlines()
    return lines[-1] if lines else "it said nothing"


def host_main(ns: argparse.Namespace) -> int:
    """A host process of the kill case: a new game (killed at its kill point) or the resumed one,
    on the board's port, its players acting through the board's control socket."""
    game = find_game(ns.host)
    folder = Path(ns.folder)
    resumed = _resumed_log(game, folder) if ns.resume else None
    since = since_of(resumed) if resumed is not None else None
    settings = LinkSettings(since=since, heartbeat_timeout=HEARTBEAT_S)
    with SimControl(ns.control) as board, Link(ns.port, settings) as link:
        if resumed is not None:
            table, log = _resumed_table(game, link, resumed)
            _finish_what_was_left(board, table)
            at = point = None
        else:
            table, log = _new_table(game, link, folder, _options(game, ns.short))
            at, point = Moment.parse(ns.kill_at), folder / _KILL_POINT
        try:
            _play(game, board, table, kill=(at, point) if at is not None else None)
        finally:
            table.close()
            log.close()
    return 0


def _case(name: str, fault: str | None, folder: Path, at: int | None, short: bool) -> Result:
    """`run_case` by the game's name (for a worker process), timed."""
    start = time.monotonic()
    got = run_case(find_game(name), fault, folder, at=at, short=short)
    return replace(got, seconds=time.monotonic() - start)


def fault_at(fault: str, clean: Result) -> int:
    """After how many verdicts the fault strikes: the middle of the clean game, or for
    `kill-card` the tap nearest to it (a game whose short variant has no tap after its middle
    is still killed with a card on the reader)."""
    middle = len(clean.verdicts) // 2
    taps = [said for said, verb in clean.actions if verb == "tap"]
    if fault != "kill-card" or not taps:
        return middle
    return min(taps, key=lambda said: (abs(said - middle), said))


def drawn_kills(name: str, clean: Result, seed: int, count: int) -> list[str]:
    """`count` kill moments drawn from `seed` across the whole of the clean game of `name`
    (`kill@...` faults): each at one of the players' actions, distinct ones while there are
    enough, once the referee has heard it or before (a card on the reader counted or not yet
    told, a pair out of its hole, a button held)."""
    rng = random.Random(f"{seed}:{name}")
    actions = sorted(set(clean.actions))
    if not actions:
        return []
    picks = rng.sample(actions, count) if len(actions) >= count else [rng.choice(actions) for _ in range(count)]
    return [f"kill@{Moment(said, verb, rng.random() < 0.5).arg()}" for said, verb in picks]


def run_matrix(
    names: Sequence[str], faults: Sequence[str], folder: Path, *, short: bool = False, jobs: int = 1,
    kills: int = 0, seed: int = 0,
) -> Iterator[tuple[str, str, str, Result]]:
    """Each game clean, then under each fault from the middle of its clean game on, and killed
    at `kills` moments drawn from `seed` across the whole game, `jobs` games at a time: (game,
    fault, its matrix line, what the faulted game said and how long it took) in the matrix's
    order; a game whose clean run did not end gives one line, with the fault "clean" (and the
    clean run's result)."""
    ctx = multiprocessing.get_context("spawn")  # no link threads copied into a worker
    with ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=ctx) as pool:
        cleans = {pool.submit(_case, n, None, folder / n / "clean", None, short): n for n in names}
        clean_of: dict[str, Result] = {}
        runs: dict[str, list[tuple[str, Future[Result]]]] = {}
        for done in as_completed(cleans):
            name = cleans[done]
            clean = clean_of[name] = done.result()
            if clean.error is not None or clean.winners is None:
                continue
            mine = [*faults, *drawn_kills(name, clean, seed, kills)]
            runs[name] = [
                (fault, pool.submit(_case, name, fault, folder / name / fault.replace(":", "-"),
                                    fault_at(fault, clean), short))
                for fault in mine
            ]
        for name in names:
            clean = clean_of[name]
            if name not in runs:
                yield name, "clean", (
                    f"{name} clean: the clean game did not end ({clean.error or 'no result'})"
                ), clean
                continue
            for fault, future in runs[name]:
                got = future.result()
                yield name, fault, matrix_line(name, fault, clean, got), got


def _fault_name(text: str) -> str:
    """A fault named on the command line, checked (argparse's type)."""
    if text in FAULTS:
        return text
    try:
        moment = kill_moment(text, 0)
    except ValueError:
        moment = None
    if moment is None or (moment.verb not in ACTIONS and moment.verb not in ("any", "rest")):
        raise argparse.ArgumentTypeError(
            f"no fault {text!r}: the faults are {', '.join(FAULTS)}, or kill@<verdicts>:<verb>:<heard|sent> "
            f"with a verb of {', '.join(sorted(ACTIONS))}, any or rest (kill@7:tap:heard)")
    return text


def main(argv: list[str] | None = None) -> int:
    demo_games = [g.name for g in games() if g.demo is not None]
    ap = argparse.ArgumentParser(prog="python -m upref.commands.faults", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", choices=demo_games, help="only this game (again for more)")
    ap.add_argument("--fault", action="append", type=_fault_name, metavar="FAULT",
                    help=f"only this fault (again for more): {', '.join(FAULTS)}, or a kill at a moment of "
                    "its own, kill@<verdicts>:<verb|any|rest>:<heard|sent> (as a line of the matrix names it)")
    ap.add_argument("--short", action="store_true", help="each game's short variant")
    ap.add_argument("--jobs", type=int, default=JOBS, help=f"games played at once (default {JOBS})")
    ap.add_argument("--seed", type=int, help="the seed the kill moments are drawn from (default: a new one, printed)")
    ap.add_argument("--kills", type=int, default=KILLS, help=f"kill moments drawn per game (default {KILLS})")
    ap.add_argument("--host", choices=demo_games, help=argparse.SUPPRESS)
    ap.add_argument("--port", help=argparse.SUPPRESS)
    ap.add_argument("--control", help=argparse.SUPPRESS)
    ap.add_argument("--folder", help=argparse.SUPPRESS)
    ap.add_argument("--kill-at", help=argparse.SUPPRESS)
    ap.add_argument("--resume", action="store_true", help=argparse.SUPPRESS)
    ns = ap.parse_args(argv)
    if ns.host is not None:
        return host_main(ns)
    names = ns.game or demo_games
    faults = ns.fault or list(FAULTS)
    seed = ns.seed if ns.seed is not None else random.SystemRandom().randrange(1_000_000)
    print(f"kill moments drawn from seed {seed}, {ns.kills} a game (the same again: make faults SEED={seed})",
          flush=True)
    differs = same = 0
    with tempfile.TemporaryDirectory(prefix="upref-faults-") as tmp:
        for _name, _fault, line, _got in run_matrix(
            names, faults, Path(tmp), short=ns.short, jobs=ns.jobs, kills=ns.kills, seed=seed
        ):
            differs += not line.endswith(": identical")
            same += line.endswith(": identical")
            print(line, flush=True)
    print(f"{same + differs} faulted games, {same} identical, {differs} differing (seed {seed})", flush=True)
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
