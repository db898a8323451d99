"""`upref doctor --selftest` on the simulated board, its "ask the person" function driving the
board's control channel (insert, pull, a weakened magnet)."""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console
from upref.commands import doctor, selftest
from upref.commands.selftest import Step
from upref.link.connection import Link
from upref.sim import physics
from upref.sim.board import SimBoard

SETTLE = 0.12  # the simulated hand is steady: a shorter wait for a settled code


def driver(board: SimBoard, after_insert: Callable[[Step], None] = lambda s: None):
    """An Ask that does what it is asked on the simulated board, and records the steps."""
    steps: list[Step] = []

    def ask(step: Step) -> bool:
        steps.append(step)
        w = board.world
        if step.action == "pull":
            if w.holes[step.hole - 1].pair is not None:
                board.pull(step.hole)
        else:
            assert step.end is not None
            where = w.where(step.end.pair)
            if where is not None:
                board.pull(where)
            board.insert(step.hole, step.end.pair, step.end.down)
            after_insert(step)
        return True

    ask.steps = steps  # type: ignore[attr-defined]
    return ask


def console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=220, color_system=None), buf


def test_every_hole_and_every_code_of_the_cover_set_reads_right(make_board) -> None:
    board = make_board(seed=31, empty=False)  # starts with pairs in the holes: it empties them
    ask = driver(board)
    out, buf = console()
    with Link(board.port) as link:
        report = selftest.run(link, ask, out, settle=SETTLE)
    text = buf.getvalue()
    cover = selftest.cover_ends()
    assert report.ok, text
    assert [(r.hole, r.end) for r in report.readings] == [
        (h, e) for h in range(1, 11) for e in [None, *cover]
    ]
    assert all(r.code == r.expected_code for r in report.readings)
    assert len(report.sensors) == 40 and {s.verdict for s in report.sensors} == {"ok"}
    # each sensor saw N, S and nothing, and its raw level says so too, against the pin map's
    # thresholds: a magnet at least `on` from its zero, an empty position less than `off` (the
    # hardware's margins: at most ~2,550 of crosstalk there, 6 sigma of the noise below `off`)
    t = physics.load_thresholds()
    for r in report.readings:
        assert len(r.levels) == 4, r
        for p, m in enumerate(r.expected):
            d = r.delta(p)
            assert d is not None
            assert (d >= t["on"]) if m == "N" else (d <= -t["on"]) if m == "S" else abs(d) < t["off"], (r, p)
    for h in range(1, 11):
        for e in cover:
            assert f"hole {h}, {e.pair} " in text and f"ok (code {e.code} {e.magnets})" in text
    assert "self-test PASSED: 50 readings, 50 as expected, 0 problems" in text
    # the person was asked to empty the holes that held a pair, then to put in and pull out
    inserts = [s for s in ask.steps if s.action == "insert"]  # type: ignore[attr-defined]
    assert len(inserts) == 40
    assert inserts[0].text.startswith(f"put pair {cover[0].pair} into hole 1 with its ")


def test_all_twenty_ends_in_one_hole(make_board) -> None:
    board = make_board(seed=32, empty=True)
    out, buf = console()
    with Link(board.port) as link:
        report = selftest.run(link, driver(board), out, holes=[8], ends="all", settle=SETTLE)
    assert report.ok, buf.getvalue()
    assert sorted(r.code for r in report.readings if r.end is not None) == sorted(
        e.code for e in selftest.cover_ends("all")
    )


def test_a_weakened_magnet_reads_as_an_invalid_code_with_hole_and_position(make_board) -> None:
    board = make_board(seed=33, empty=True)
    weak = selftest.cover_ends()[0]
    pos = next(i for i, m in enumerate(weak.magnets) if m != "-" and i > 0) + 1

    def weaken(step: Step) -> None:
        if step.end == weak:
            board.magnet(step.hole, pos, 0.0)  # lost: stays lost in every hole after

    out, buf = console()
    rc = doctor.main(
        ["--port", board.port, "--selftest", "--holes", "2,9"],
        ask=driver(board, weaken),
        console=out,
        settle=SETTLE,
    )
    text = buf.getvalue()
    assert rc == 1, text
    lost = weak.magnets[: pos - 1] + "-" + weak.magnets[pos:]
    code = sum("-NS".index(m) * 3**i for i, m in enumerate(lost))
    for hole in (2, 9):
        line = next(ln for ln in text.splitlines() if ln.startswith(f"  hole {hole}, {weak.pair} "))
        assert f"invalid code {code} ({lost}), expected {weak.code} ({weak.magnets})" in line, line
        assert f"P{pos} saw none (expected {weak.magnets[pos - 1]}" in line, line
    # the sensors are fine: the magnet is named, with the end and position
    assert f"{weak.pair} red end, magnet P{pos} (N facing the sensor): not seen" in text
    assert weak.down == "R" and weak.magnets[pos - 1] == "N"
    assert "weak or lost" in text and "every hole" in text
    assert "self-test FAILED: 10 readings, 8 as expected, 1 problem" in text
    assert "upside down" not in text and "check its wiring" not in text


def test_the_person_can_stop_it(make_board) -> None:
    board = make_board(seed=34, empty=True)
    out, buf = console()
    with Link(board.port) as link:
        report = selftest.run(link, lambda step: False, out, holes=[1], settle=SETTLE)
    assert report.stopped and not report.ok
    assert "stopped by the person in hole 1" in report.problems()
