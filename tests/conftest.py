"""Golden files for every test: the `golden` fixture compares what the code produces now with a
file kept in the repository (a playthrough transcript, a scoreboard, a game log).

`pytest --update-golden` (or `UPREF_UPDATE_GOLDEN=1 pytest`) is update mode: `golden` rewrites
each file whose content differs instead of comparing, and the run then **fails** with the list of
the files it rewrote, so an update can never pass for a green test run. Review the rewritten
files with `git diff`, commit them, and run the tests again without the flag. Under pytest-xdist
(`make test` runs the files on several workers) each worker hands its list to the controller,
which names every file rewritten in the run.

The `board` marker is given here, by folder and by fixture, to every test that starts a
simulated board, a MicroPython process, a browser or a fresh installation: `make check` (the
inner loop) runs everything else. A test without the marker that starts a simulated board or
Chromium fails, naming the marker, so that the split cannot drift. (`make test` distributes
with `--dist loadfile`, which keeps a file's tests and its module-scoped board or game on one
worker: `loadgroup` does not group under pytest 9, whose node ids xdist 3.8 can no longer
rewrite.)
"""

from __future__ import annotations

import difflib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

UPDATE_ENV = "UPREF_UPDATE_GOLDEN"

# the golden files update mode rewrote in this run, in the order they were written
_REWRITTEN = pytest.StashKey[dict[Path, None]]()
_DIFF_LINES = 40  # at most this much of a unified diff in a failure message
_WORKER_KEY = "upref_golden_rewritten"  # an xdist worker's rewritten files, for the controller

TESTS = Path(__file__).resolve().parent
BOARD = "board"
BOARD_FOLDERS = frozenset({"e2e", "micropython_port", "packaging", "real_board"})
"""Folders under tests/ whose every test runs a board (simulated, MicroPython or real) or builds
and installs upref: all `board`."""
BOARD_FIXTURES = frozenset({"rt", "make_board", "make_host", "browser"})
"""Fixtures that mean a simulated board or a browser: a test that asks for one is `board`."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help=f"rewrite golden files from the current output instead of comparing them, then fail "
        f"the run listing what was rewritten (also: {UPDATE_ENV}=1); review the diff and rerun",
    )


def update_mode(config: pytest.Config) -> bool:
    """Whether this run rewrites golden files (--update-golden or UPREF_UPDATE_GOLDEN=1)."""
    flag = bool(config.getoption("--update-golden", default=False))
    return flag or os.environ.get(UPDATE_ENV) == "1"


ENGLISH_ENV = {"LANGUAGE": "en"}
"""The tests' language: English, whatever the developer's own (`LANG=de_DE.UTF-8`), for this
process and every command it starts (LANGUAGE comes first, as for gettext); a test of another
language asks for it (`--lang de`)."""


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_REWRITTEN] = {}
    os.environ.update(ENGLISH_ENV)


@pytest.fixture(autouse=True)
def _english_messages() -> Iterator[None]:
    """Each test starts with the commands' own messages in English (a test that ran a command
    with `--lang de` in this process leaves no German behind)."""
    from upref.commands import lang_option

    lang_option.use_lang("en")
    yield
    lang_option.use_lang("en")


def _under_tests(item: pytest.Item) -> tuple[str, ...]:
    try:
        return Path(item.path).resolve().relative_to(TESTS).parts
    except ValueError:  # a test outside this folder (a throw-away pytest's)
        return ()


def _needs_board(item: pytest.Item) -> bool:
    parts = _under_tests(item)
    if parts and parts[0] in BOARD_FOLDERS:
        return True
    return bool(BOARD_FIXTURES & set(getattr(item, "fixturenames", ())))


def pytest_itemcollected(item: pytest.Item) -> None:
    if _needs_board(item):
        item.add_marker(BOARD)


# the test running now when it is not marked `board` (a board or a browser it starts is a mistake)
_unmarked: list[pytest.Item] = []


def _refuse(what: str) -> None:
    if _unmarked:
        pytest.fail(
            f"{_unmarked[-1].nodeid} starts {what} but is not marked `{BOARD}`, so `make check` "
            f"would run it: ask for one of the fixtures {sorted(BOARD_FIXTURES)} (`rt` for a "
            f"simulated board's runtime folder), put the file in one of "
            f"{sorted(BOARD_FOLDERS)}, or mark it `@pytest.mark.{BOARD}`",
            pytrace=False,
        )


@pytest.fixture(scope="session", autouse=True)
def _board_guard() -> Iterator[None]:
    """For the whole run: a simulated board or Chromium started by an unmarked test fails it."""
    from upref.sim.board import SimBoard
    from upref.web import headless

    start, chromium = SimBoard.start, headless.chromium

    def guarded_start(self: SimBoard) -> SimBoard:
        _refuse("a simulated board")
        return start(self)

    def guarded_chromium(*args: Any, **kw: Any) -> Any:
        _refuse("headless Chromium")
        return chromium(*args, **kw)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(SimBoard, "start", guarded_start)
        mp.setattr(headless, "chromium", guarded_chromium)
        yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    unmarked = item.get_closest_marker(BOARD) is None
    if unmarked:
        _unmarked.append(item)
    try:
        return (yield)
    finally:
        if unmarked:
            _unmarked.pop()


def _shown(path: Path, config: pytest.Config) -> str:
    try:
        return str(path.resolve().relative_to(config.rootpath))
    except ValueError:
        return str(path)


def _difference(expected: str, produced: str, name: str) -> str:
    """Where `produced` first departs from `expected`, then a short unified diff."""
    want, got = expected.splitlines(), produced.splitlines()
    where = "only in its line ends"
    for number, (w, g) in enumerate(zip(want, got, strict=False), start=1):
        if w != g:
            where = f"first at line {number}:\n  golden:   {w!r}\n  produced: {g!r}"
            break
    else:
        if len(want) != len(got):
            where = f"in length: the file has {len(want)} lines, the code produces {len(got)}"
    diff = list(
        difflib.unified_diff(want, got, f"{name} (golden)", f"{name} (produced)", lineterm="", n=1)
    )
    if len(diff) > _DIFF_LINES:
        diff = [*diff[:_DIFF_LINES], f"... ({len(diff) - _DIFF_LINES} more diff lines)"]
    return where + ("\n" + "\n".join(diff) if diff else "")


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A folder of this test's own right in the system's temporary folder, for a TMPDIR: a demo
    puts its simulated board's control socket three folders below TMPDIR, and a socket's path
    holds at most 107 bytes, which `tmp_path` (longer still on an xdist worker) can overrun."""
    d = Path(tempfile.mkdtemp(prefix="upref-t"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Callable[[Path, str], None]:
    """`golden(path, produced)`: fail unless the file at `path` holds exactly `produced`.

    In update mode it writes `produced` to `path` instead (when they differ) and records the
    file; the run then fails at its end with the list, whatever the tests did.
    """
    config = request.config

    def check(path: Path, produced: str) -> None:
        name = _shown(path, config)
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if update_mode(config):
            if current != produced:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(produced, encoding="utf-8")
                config.stash[_REWRITTEN][path.resolve()] = None
            return
        if current is None:
            pytest.fail(
                f"golden file {name} is missing: create it with `pytest --update-golden`, "
                f"review it and commit it"
            )
        if produced != current:
            pytest.fail(
                f"{name} differs from what the code produces now, "
                f"{_difference(current, produced, name)}\n"
                f"If the change is intended: `pytest --update-golden`, review `git diff`, commit."
            )

    return check


def pytest_sessionfinish(session: pytest.Session, exitstatus: int | pytest.ExitCode) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: the controller names what it rewrote
        workeroutput[_WORKER_KEY] = [str(p) for p in session.config.stash[_REWRITTEN]]
    # update mode never ends green: the rewritten files are not tested until the next run
    if update_mode(session.config) and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """An xdist worker is done: add the golden files it rewrote to this run's list."""
    rewritten = node.config.stash[_REWRITTEN]
    for path in getattr(node, "workeroutput", {}).get(_WORKER_KEY, ()):
        rewritten[Path(path)] = None


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    if not update_mode(config):
        return
    rewritten = list(config.stash.get(_REWRITTEN, {}))
    terminalreporter.section("golden files (update mode: this run fails)", red=True)
    if rewritten:
        terminalreporter.line(f"rewrote {len(rewritten)} golden file(s):", red=True)
        for path in rewritten:
            terminalreporter.line(f"  {_shown(path, config)}")
        terminalreporter.line(
            "Review them with `git diff`, commit what is right, then run the tests again "
            "without --update-golden (and without UPREF_UPDATE_GOLDEN=1)."
        )
    else:
        terminalreporter.line(
            "no golden file changed: every one already matched. Run the tests again without "
            "--update-golden (and without UPREF_UPDATE_GOLDEN=1) to test them."
        )
