"""Every game under every fault (issue 19): each game's demo, in its short variant, played whole
on the simulated board clean, and then once under each fault mid-game (line noise for the whole
game, a board reset, an unplug, a Ctrl-C at a line start, a burst of random bytes, the host
killed with SIGKILL and the game resumed): the verdicts' words, the scores and the winner are
the clean game's. `make faults` prints the same matrix for the games in full."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from upref.commands.faults import FAULTS, Result, first_difference, run_case
from upref.registry import find_game, games

GAMES = [g.name for g in games() if g.demo is not None]

_clean: dict[str, Result] = {}


def clean_run(name: str, folder: Path) -> Result:
    """The game's clean short game, played once for all its faults."""
    if name not in _clean:
        got = run_case(find_game(name), None, folder, short=True)
        assert got.error is None and got.winners is not None, f"the clean {name} game did not end: {got}"
        _clean[name] = got
    return _clean[name]


@pytest.mark.skipif(
    os.environ.get("UPREF_FAULTS") != "1",
    reason="the whole matrix takes far longer than its 6 minutes yet: UPREF_FAULTS=1 runs it",
)
@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("game", GAMES)
def test_a_game_under_a_fault_says_what_the_clean_game_said(
    game: str, fault: str, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(tmp_path_factory.getbasetemp() / "faults-run"))
    clean = clean_run(game, tmp_path_factory.mktemp(f"{game}-clean"))
    got = run_case(find_game(game), fault, tmp_path_factory.mktemp(f"{game}-{fault}"),
                   at=clean.steps // 2, short=True)
    diff = first_difference(clean, got)
    assert diff is None, f"{game} {fault}: DIFFERS ({diff})"


def test_the_first_difference_is_named_in_words() -> None:
    clean = Result(("A plays.", "B wins."), (1, 2), ("B",))
    assert first_difference(clean, clean) is None
    assert first_difference(clean, Result(("A plays.", "A wins."), (1, 2), ("B",))) == (
        "verdict 2 is 'A wins.' where the clean game said 'B wins.'")
    assert first_difference(clean, Result(("A plays.",), (1, 2), ("B",))) == (
        "verdict 2, 'B wins.', never came")
    assert first_difference(clean, Result((*clean.verdicts, "Refused."), (1, 2), ("B",))) == (
        "verdict 3, 'Refused.', is one the clean game never said")
    assert first_difference(clean, Result(clean.verdicts, (2, 2), ("B",))) == (
        "scores (2, 2) where the clean game had (1, 2)")


def test_an_unplug_must_say_offline_and_back_online_together_and_nothing_else() -> None:
    clean = Result(("A plays.", "B wins."), (1, 2), ("B",))
    pair = ("Offline.", "Online.")
    assert first_difference(clean, Result(("A plays.", *pair, "B wins."), (1, 2), ("B",)), pair) is None
    assert first_difference(clean, clean, pair) == "the fault's notices 'Offline.' / 'Online.' never came together"
    assert first_difference(clean, Result(("Offline.", "A plays.", "Online.", "B wins."), (1, 2), ("B",)), pair)
    assert first_difference(clean, Result((*pair, *pair, "A plays.", "B wins."), (1, 2), ("B",)), pair)
