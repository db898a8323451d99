"""Every game under every fault (issue 19): each game's demo, in its short variant, played whole
on the simulated board clean, and then once under each fault mid-game (line noise for the whole
game, a board reset, an unplug, a Ctrl-C at a line start, a burst of random bytes, the host
killed with SIGKILL and the game resumed, at a still moment and with a card on the reader that
the referee has counted (issue 32): the verdicts' words, the scores and the winner are the clean
game's. Line noise 1e-2 for a whole game is issue 24's case too: Up's and Flip a
Bird's demos (and every other game's) must give the clean game's verdicts under it.

`make faults` prints the same matrix for the games in full: what this leaves out is Up And
Down's full game (to two cards, with its wrong-hole step), which only `make faults` plays; every
other game has no shorter variant and is played whole here.

Nothing here waits on the clock: the players wait until the referee has heard what they did,
the kill waits for the host's own kill point (for `kill-card`, the referee's word that the card
arrived: the card then lies on the reader), and a game is cut only after 5 minutes (a hang,
whose missing verdicts are then its difference)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from upref.commands.faults import (
    FAULTS,
    NOTICES,
    Moment,
    Result,
    drawn_kills,
    fault_at,
    first_difference,
    main,
    run_matrix,
)
from upref.registry import games

GAMES = [g.name for g in games() if g.demo is not None]
JOBS = 12
"""Games played at once, each in a process of its own (they mostly wait on the table's pace):
the short matrix, with its kill with a card on the reader, takes about 2 minutes so on 2 cores."""


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], tuple[str, Result]]:
    """Every game's short game clean and under every fault, all played at once (each game in a
    process of its own), once for the module: (game, fault) -> its matrix line and result."""
    start = time.monotonic()
    lines: dict[tuple[str, str], tuple[str, Result]] = {}
    for g, f, line, got in run_matrix(
        GAMES, FAULTS, Path(tmp_path_factory.mktemp("faults")), short=True, jobs=JOBS
    ):
        lines[g, f] = line, got
        print(f"{line} [{got.seconds:.0f} s, {got.bad_frames} bad frames]")
    print(f"the fault matrix took {time.monotonic() - start:.0f} s")
    return lines


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("game", GAMES)
def test_a_game_under_a_fault_says_what_the_clean_game_said(
    game: str, fault: str, matrix: dict[tuple[str, str], tuple[str, Result]]
) -> None:
    assert (game, "clean") not in matrix, matrix.get((game, "clean"))
    line, got = matrix[game, fault]
    assert line == f"{game} {fault}: identical"
    if fault == "noise":  # the line's noise did damage frames all game long
        assert got.bad_frames >= 10, got.bad_frames


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
    assert NOTICES["unplug"][1] == "The board is back online."
    pair = ("Offline.", "Online.")
    assert first_difference(clean, Result(("A plays.", *pair, "B wins."), (1, 2), ("B",)), pair) is None
    assert first_difference(clean, clean, pair) == "the fault's notices 'Offline.' / 'Online.' never came together"
    assert first_difference(clean, Result(("Offline.", "A plays.", "Online.", "B wins."), (1, 2), ("B",)), pair)
    assert first_difference(clean, Result((*pair, *pair, "A plays.", "B wins."), (1, 2), ("B",)), pair)


CLEAN = Result(
    tuple(f"verdict {i}" for i in range(1, 41)), (1, 2), ("B",),
    actions=tuple((said, verb) for said in range(0, 40, 2) for verb in ("tap", "remove")),
)


def test_kill_moments_are_drawn_across_the_whole_game_and_again_from_the_same_seed() -> None:
    drawn = drawn_kills("updown", CLEAN, 4242, 3)
    assert drawn == drawn_kills("updown", CLEAN, 4242, 3)
    assert len(set(drawn)) == 3
    assert drawn != drawn_kills("updown", CLEAN, 4243, 3) or drawn != drawn_kills("upturn", CLEAN, 4242, 3)
    moments = [Moment.parse(k.removeprefix("kill@")) for k in drawn]
    assert all((m.said, m.verb) in CLEAN.actions for m in moments)
    many = [Moment.parse(k.removeprefix("kill@")) for k in drawn_kills("updown", CLEAN, 1, 20)]
    assert min(m.said for m in many) < 10 and max(m.said for m in many) > 30  # the whole game
    assert {m.heard for m in many} == {True, False}  # heard by the referee, and not yet


def test_the_card_kill_strikes_at_the_tap_nearest_the_middle() -> None:
    assert fault_at("kill-card", CLEAN) == 20
    late = Result(CLEAN.verdicts, actions=((3, "tap"), (5, "remove"), (30, "tap")))
    assert fault_at("kill-card", late) == 30
    assert fault_at("kill", late) == 20


def test_a_kill_moment_reads_back_and_says_itself_in_words() -> None:
    m = Moment(7, "tap", heard=False)
    assert Moment.parse(m.arg()) == m
    assert m.words() == "after verdict 7, at a tap, before the host heard it"
    assert Moment(3).words() == "after verdict 3, at the table still"


def test_a_fault_that_is_none_is_refused_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--fault", "kill@7:juggle:heard"])
    err = capsys.readouterr().err
    assert "no fault 'kill@7:juggle:heard'" in err and "kill@7:tap:heard" in err
