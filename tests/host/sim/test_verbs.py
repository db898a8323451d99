"""The control verbs are defined once (upref.sim.verbs): the in-process SimBoard and the socket
client SimControl get the same methods from that one table, `help` is that table, and a verb
gives the same answer whichever way it reaches the board."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from upref.sim import verbs
from upref.sim.board import SimBoard, SimSettings
from upref.sim.channel import SimControl, SimControlError
from upref.sim.cli import simctl_main
from upref.sim.errors import SimError
from upref.sim.hands import Hands

MAIN = "import time\nwhile True:\n    time.sleep_ms(5)\n"


@pytest.fixture
def fw(tmp_path: Path) -> Path:
    d = tmp_path / "fw"
    d.mkdir()
    (d / "main.py").write_text(MAIN)
    return d


class Recorder(verbs.Verbs):
    """A side that only writes down the lines its verbs send."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def _verb(self, line: str) -> str:
        self.lines.append(line)
        return "{}" if line == "state" else ""


def test_every_verb_is_the_same_method_on_the_board_and_the_client() -> None:
    assert list(verbs.VERBS) == ["pull", "insert", "flip", "move", "tap", "touch", "remove",
                                 "button", "remix", "unplug", "plug", "reset", "boot", "noise", "inject", "magnet", "sensor",
                                 "rfid", "state", "help"]
    for name, verb in verbs.VERBS.items():
        method = getattr(verbs.Verbs, name)
        # neither side writes a verb of its own: both inherit the one from the table
        assert getattr(SimBoard, name) is method, name
        assert getattr(SimControl, name) is method, name
        assert name not in vars(SimBoard) and name not in vars(SimControl), name
        params = list(inspect.signature(method).parameters.values())[1:]
        assert len(params) == len(verb.args), name
        for p, arg in zip(params, verb.args, strict=True):
            assert (p.default is not inspect.Parameter.empty) == arg.optional, (name, p.name)
    assert inspect.signature(SimBoard.pull) == inspect.signature(SimControl.pull)
    # and the board carries each out in exactly one place: a hand in the world, or the board
    board = SimBoard.__new__(SimBoard)
    board.hands = Hands.__new__(Hands)
    handlers = SimBoard._verb_handlers(board)
    assert list(handlers) != [] and sorted(handlers) == sorted(verbs.VERBS)
    for name, (fn, world) in handlers.items():
        assert fn.__self__ is (board.hands if world else board), name
        assert fn.__name__ == (f"verb_{name}" if world else f"_verb_{name}"), name
    assert str(inspect.signature(SimBoard.noise)) == "(self, rate: 'float', direction: 'str' = 'both') -> 'str'"


@pytest.mark.parametrize("name", list(verbs.VERBS))
def test_a_method_sends_the_line_the_parser_reads_back_into_its_arguments(name: str) -> None:
    verb = verbs.VERBS[name]
    typed = verbs.parse_command(verb.example or name)
    side = Recorder()
    getattr(side, name)(*typed.args)
    assert len(side.lines) == 1
    assert verbs.parse_command(side.lines[0]) == typed


def test_a_method_refuses_an_argument_that_would_change_the_line() -> None:
    side = Recorder()
    with pytest.raises(verbs.CommandError, match=r"tap: 'DE AD' is not one word: use tap <uid-hex>"):
        side.tap("DE AD")
    with pytest.raises(verbs.CommandError, match="not one word"):
        side.remove("DEADBEEF\nreset")  # never two commands from one call
    assert side.lines == []


def test_help_lists_every_verb_from_the_table(rt: Path, fw: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = verbs.help_text().splitlines()
    assert [line.split()[0] for line in lines] == list(verbs.VERBS)
    for line, verb in zip(lines, verbs.VERBS.values(), strict=True):
        assert line.startswith(verb.usage + " ") and line.endswith(verb.summary)
    with SimBoard(SimSettings(name="helpme", firmware_dir=fw)) as board:
        assert board.help() == verbs.help_text()
        assert board.help("insert") == verbs.help_text("insert")
        with SimControl(board.control_path) as ctl:
            assert ctl.help() == verbs.help_text()
        assert simctl_main(["help"]) == 0
        assert capsys.readouterr().out == verbs.help_text() + "\n"
        assert simctl_main(["help", "flip"]) == 0
        assert capsys.readouterr().out.startswith("flip <hole>  pull the pair, turn it over")


def test_verbs_called_on_the_boards_own_thread_answer_without_waiting_for_it(rt: Path, fw: Path) -> None:
    with SimBoard(SimSettings(name="inside", firmware_dir=fw, seed=3)) as board:
        assert board.loop.call(board.state)["board"] == "up"
        assert board.loop.call(lambda: board.pull(1)).startswith("pulled ")
        with pytest.raises(SimError, match="flip is under way, but its answer takes time"):
            board.loop.call(lambda: board.flip(2))
        assert board.wait_for(lambda st: not st["hand"], timeout=3)["holes"][1]["pair"] is not None


def script(world: Any) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """Every verb, and some mistakes, on a board made with seed 3."""
    pid = world.holes[0].pair
    down = world.holes[0].down
    magnet = 1 + next(i for i, s in enumerate(world.pairs[pid].end(down).magnets) if s != "-")
    yield "pull", (1,)
    yield "pull", (1,)  # empty now: an error
    yield "pull", (11,)  # no such hole: an error
    yield "insert", (1, pid, down)
    yield "magnet", (1, magnet, 0.5)
    yield "flip", (1,)
    yield "pull", (2,)
    yield "move", (1, 2)
    yield "tap", ("04a1b2c3d4e5f6",)
    yield "tap", ("DEADBEEF",)
    yield "tap", ("DEADBEEF",)  # lies there already: an error
    yield "remove", ("DEADBEEF",)
    yield "remove", ()
    yield "remove", ()  # nothing left: an error
    yield "touch", ("04a1b2c3d4e5f6",)  # tapped and taken away: nothing lies there after it
    yield "remove", ()  # so nothing to remove: an error
    yield "remix", (5,)  # every pair out and back, mixed by seed 5
    yield "button", ("click",)
    yield "button", ("press",)
    yield "sensor", ("4.1", "float")
    yield "sensor", (13, "ok")
    yield "rfid", ("dead",)
    yield "noise", (0.0, "to-board")
    yield "inject", ("0d0a", "to-board")
    yield "boot", ("hold",)
    yield "boot", ("release",)
    yield "reset", ()
    yield "unplug", ()
    yield "reset", ()  # unplugged: an error
    yield "plug", ()
    yield "plug", ()  # plugged in already: an error
    yield "boot", ("download",)
    yield "boot", ("normal",)
    yield "help", ("move",)
    yield "help", ("dance",)  # no such verb: an error
    yield "state", ()


STATE_KEYS = ("board", "face", "holes", "hand", "cards", "button", "rfid", "sensors", "boot_held",
              "reset_cause", "resets")


def run(side: Any, calls: list[tuple[str, tuple[Any, ...]]], error: type[Exception],
        paths: Callable[[str], str]) -> list[object]:
    """What each call returned (or `error: ...`), with the side's own file names taken out."""
    out: list[object] = []
    for name, args in calls:
        try:
            got = getattr(side, name)(*args)
        except error as e:
            out.append(f"error: {paths(str(e))}")
            continue
        if name == "state":
            got = {k: got[k] for k in STATE_KEYS}
        out.append(paths(got) if isinstance(got, str) else got)
    return out


@pytest.mark.board
def test_a_verb_gives_the_same_answer_in_process_and_over_the_socket(
        tmp_path: Path, fw: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # two boards alike in everything but their runtime folders: one driven in-process, the
    # other over its control socket, through the same script
    boards = []
    for side in ("here", "there"):
        monkeypatch.setenv("UPREF_RUNTIME_DIR", str(tmp_path / side))
        boards.append(SimBoard(SimSettings(name="twin", seed=3, firmware_dir=fw, flash_dir=tmp_path / side / "flash")))
    here, there = boards
    calls = list(script(here.world))
    assert {name for name, _ in calls} == set(verbs.VERBS)
    with here, there, SimControl(there.control_path) as ctl:
        got_here = run(here, calls, SimError, lambda s: s.replace(str(tmp_path / "here"), "<rt>"))
        got_there = run(ctl, calls, SimControlError,
                        lambda s: s.replace(str(tmp_path / "there"), "<rt>"))
    assert got_here == got_there
    # and the answers are the verbs' own, not both sides failing alike
    first: dict[str, object] = {}
    for (name, args), answer in zip(calls, got_here, strict=True):
        first.setdefault(f"{name} {' '.join(map(str, args))}".strip(), answer)
    assert first["pull 1"] == got_here[0] and str(first["pull 1"]).startswith("pulled ")
    assert got_here[1] == "error: hole 1 is empty: nothing to pull (see `state`)"
    assert first["pull 11"] == "error: there is no hole 11: holes are 1..10"
    assert first["plug"] == "plugged in: <rt>/sim-twin.tty"
    assert first["remove DEADBEEF"] == "removed DEADBEEF"
    assert first["remove"] == "removed 04A1B2C3D4E5F6"
    assert str(first["help move"]).startswith("move <from> <to>")
    assert first["touch 04a1b2c3d4e5f6"] == "card 04A1B2C3D4E5F6 tapped and taken away"
    mixed = str(first["remix 5"])
    assert mixed.startswith("re-mixed, hole 1: P-") and mixed.count(" up") == 10, mixed
    assert first["help dance"] == "error: no command 'dance': commands are pull, insert, flip, " \
        "move, tap, touch, remove, button, remix, unplug, plug, reset, boot, noise, inject, magnet, sensor, rfid, state, " \
        "help"
    state = got_here[-1]
    assert isinstance(state, dict)
    assert state["cards"] == [] and state["button"] is True and state["rfid"] == "dead"
    assert state["sensors"] == {} and state["reset_cause"] == "power"  # EN reads as power-on
