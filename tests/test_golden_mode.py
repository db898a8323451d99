"""The `golden` fixture of tests/conftest.py, run in a throw-away pytest: a normal run passes on
a matching golden file and fails on a differing or missing one; update mode (--update-golden or
UPREF_UPDATE_GOLDEN=1) rewrites the files and always fails the run, naming what it rewrote."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = Path(__file__).with_name("conftest.py")

# one golden file, compared with whatever the environment variable PRODUCED says
TEST_FILE = """
import os
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden" / "board.txt"

def test_board(golden):
    golden(GOLDEN, os.environ["PRODUCED"])
"""

OLD = "hole 1: P-RB\nhole 2: P-YW\n"
NEW = "hole 1: P-RB\nhole 2: P-WK\n"


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    # in-process; without the hypothesis plugin, which would import hypothesis anew each run
    return pytester.runpytest("-p", "no:hypothesispytest", "-p", "no:cacheprovider", *args)


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with our conftest, one golden test and its golden file holding OLD."""
    monkeypatch.delenv("UPREF_UPDATE_GOLDEN", raising=False)
    pytester.makeconftest(CONFTEST.read_text(encoding="utf-8"))
    pytester.makepyfile(test_golden_probe=TEST_FILE)  # a name no project test has
    path = pytester.path / "golden" / "board.txt"
    path.parent.mkdir()
    path.write_text(OLD, encoding="utf-8")
    return path


def test_a_matching_golden_file_passes(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRODUCED", OLD)
    result = run(pytester)
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.OK
    assert "golden files" not in result.stdout.str()


def test_a_differing_golden_file_fails_and_says_where(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRODUCED", NEW)
    result = run(pytester)
    result.assert_outcomes(failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "*golden*board.txt differs from what the code produces now, first at line 2:",
            "*golden:   'hole 2: P-YW'",
            "*produced: 'hole 2: P-WK'",
            "*pytest --update-golden*",
        ]
    )
    assert project.read_text(encoding="utf-8") == OLD  # a normal run never writes


def test_a_missing_golden_file_fails_and_says_how_to_create_it(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.unlink()
    monkeypatch.setenv("PRODUCED", OLD)
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*golden file golden/board.txt is missing*--update-golden*"])
    assert not project.exists()


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_update_mode_rewrites_the_file_and_fails_the_run_naming_it(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setenv("PRODUCED", NEW)
    if how == "flag":
        result = run(pytester, "--update-golden")
    else:
        monkeypatch.setenv("UPREF_UPDATE_GOLDEN", "1")
        result = run(pytester)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert project.read_text(encoding="utf-8") == NEW
    result.stdout.fnmatch_lines(
        [
            "*golden files (update mode: this run fails)*",
            "rewrote 1 golden file(s):",
            "  golden/board.txt",
            "Review them with `git diff`*",
        ]
    )
    # the next normal run tests the rewritten file, and passes
    monkeypatch.delenv("UPREF_UPDATE_GOLDEN", raising=False)
    again = run(pytester)
    again.assert_outcomes(passed=1)
    assert again.ret == pytest.ExitCode.OK


def test_update_mode_creates_a_missing_file_and_fails(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.unlink()
    project.parent.rmdir()
    monkeypatch.setenv("PRODUCED", NEW)
    result = run(pytester, "--update-golden")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert project.read_text(encoding="utf-8") == NEW
    result.stdout.fnmatch_lines(["rewrote 1 golden file(s):", "  golden/board.txt"])


def test_update_mode_fails_even_when_nothing_changed(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRODUCED", OLD)
    result = run(pytester, "--update-golden")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert project.read_text(encoding="utf-8") == OLD
    result.stdout.fnmatch_lines(["no golden file changed: every one already matched.*"])
    assert "rewrote" not in result.stdout.str()


def test_update_mode_keeps_a_failing_test_failing(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_golden_probe_broken="def test_broken():\n    assert 1 + 1 == 3\n")
    monkeypatch.setenv("PRODUCED", NEW)
    result = run(pytester, "--update-golden")
    result.assert_outcomes(passed=1, failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["rewrote 1 golden file(s):", "  golden/board.txt"])


def test_update_mode_on_several_workers_names_what_each_rewrote(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make test` runs the files on pytest-xdist workers: each worker's rewritten files reach
    the list the run ends with."""
    other = pytester.path / "golden" / "table.txt"
    other.write_text(OLD, encoding="utf-8")
    pytester.makepyfile(test_golden_probe_other=TEST_FILE.replace("board.txt", "table.txt"))
    monkeypatch.setenv("PRODUCED", NEW)
    result = run(pytester, "-n", "2", "--dist", "loadfile", "-v", "--update-golden")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert project.read_text(encoding="utf-8") == NEW and other.read_text(encoding="utf-8") == NEW
    out = result.stdout.str()
    ran_on = {ln.split()[0] for ln in result.stdout.lines if " PASSED test_golden_probe" in ln}
    assert ran_on == {"[gw0]", "[gw1]"}, out  # one file on each worker
    result.stdout.fnmatch_lines(["rewrote 2 golden file(s):"])
    assert {"  golden/board.txt", "  golden/table.txt"} <= set(result.stdout.lines), out
