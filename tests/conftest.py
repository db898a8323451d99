"""Golden files for every test: the `golden` fixture compares what the code produces now with a
file kept in the repository (a playthrough transcript, a scoreboard, a game log).

`pytest --update-golden` (or `UPREF_UPDATE_GOLDEN=1 pytest`) is update mode: `golden` rewrites
each file whose content differs instead of comparing, and the run then **fails** with the list of
the files it rewrote, so an update can never pass for a green test run. Review the rewritten
files with `git diff`, commit them, and run the tests again without the flag.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from pathlib import Path

import pytest

UPDATE_ENV = "UPREF_UPDATE_GOLDEN"

# the golden files update mode rewrote in this run, in the order they were written
_REWRITTEN = pytest.StashKey[dict[Path, None]]()
_DIFF_LINES = 40  # at most this much of a unified diff in a failure message


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


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_REWRITTEN] = {}


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
    # update mode never ends green: the rewritten files are not tested until the next run
    if update_mode(session.config) and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


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
