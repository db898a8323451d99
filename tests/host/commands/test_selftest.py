"""The self-test's analysis: from readings (expected end, reported code, raw levels) to a
verdict per sensor and findings per magnet. Pure: no board here
(tests/e2e/test_selftest_on_the_board.py runs the whole self-test on the simulated board)."""

from __future__ import annotations

import io

from rich.console import Console
from upref.board.codes import CodeTable, code_of
from upref.commands.selftest import (
    End,
    Reading,
    SelftestReport,
    analyse,
    cover_ends,
    reading_text,
    render_report,
)

CODES = CodeTable.load()
COVER = cover_ends()


def flip(magnets: str, *, at: int | None = None) -> str:
    """magnets with N and S swapped (everywhere, or at position `at`, 0-based)."""
    swap = {"N": "S", "S": "N", "-": "-"}
    return "".join(swap[m] if at is None or i == at else m for i, m in enumerate(magnets))


def drop(magnets: str, at: int) -> str:
    return magnets[:at] + "-" + magnets[at + 1 :]


def walk(
    hole: int, ends: list[End], seen_of=lambda e: e.magnets, empty: str = "----"
) -> list[Reading]:
    """The readings of one hole: empty, then each end, with what the board reported."""
    rs = [Reading(hole, None, code_of(empty), (32768,) * 4, (32768,) * 4)]
    for e in ends:
        rs.append(Reading(hole, e, code_of(seen_of(e)), (40000,) * 4, (32768,) * 4))
    return rs


def verdicts(readings: list[Reading]) -> dict[tuple[int, int], str]:
    sensors, _ = analyse(readings)
    return {(s.hole, s.position): s.verdict for s in sensors}


def test_the_cover_set_puts_n_s_and_nothing_over_every_position() -> None:
    assert len(COVER) == 4
    for p in range(4):
        assert {e.magnets[p] for e in COVER} == {"N", "S", "-"}
    assert sorted(e.code for e in cover_ends("all")) == CODES.codes()
    assert all(CODES.lookup(e.code).pair_id == e.pair for e in COVER)  # type: ignore[union-attr]


def test_a_good_hole_is_ok_everywhere() -> None:
    rs = walk(1, COVER) + walk(2, COVER)
    sensors, magnets = analyse(rs)
    assert {s.verdict for s in sensors} == {"ok"} and len(sensors) == 8
    assert magnets == []
    report = SelftestReport(rs, sensors, magnets)
    assert report.ok and report.problems() == []


def test_a_sensor_mounted_upside_down_reads_every_pole_the_other_way() -> None:
    rs = walk(3, COVER, lambda e: flip(e.magnets, at=1))
    v = verdicts(rs)
    assert v[(3, 2)] == "wrong pole"
    assert {v[(3, p)] for p in (1, 3, 4)} == {"ok"}
    _, magnets = analyse(rs)
    assert magnets == []  # the sensor's fault, not the magnets'
    sensors, _ = analyse(rs)
    assert "upside down" in next(s.advice for s in sensors if s.position == 2)


def test_a_sensor_that_never_sees_a_magnet_is_a_wiring_problem() -> None:
    rs = walk(4, COVER, lambda e: drop(e.magnets, 3))
    assert verdicts(rs)[(4, 4)] == "no magnet"
    # its raw level at ground says more: no supply
    grounded = [
        Reading(r.hole, r.end, r.code, (r.levels[0], r.levels[1], r.levels[2], 20), r.zeros)
        for r in rs
    ]
    sensors, magnets = analyse(grounded)
    s = next(s for s in sensors if s.position == 4)
    assert "check its wiring" in s.advice and "0 V" in s.advice
    assert magnets == []


def test_crosstalk_and_a_stray_field() -> None:
    # position 2 reads N when the end has no magnet there (its neighbours' field)
    cross = walk(
        5, COVER, lambda e: e.magnets if e.magnets[1] != "-" else e.magnets[0] + "N" + e.magnets[2:]
    )
    assert verdicts(cross)[(5, 2)] == "crosstalk"
    # position 1 reads S with the hole empty
    stray = walk(6, COVER, empty="S---")
    assert verdicts(stray)[(6, 1)] == "stray field"


def test_a_weak_magnet_is_the_ends_fault_and_named_with_its_hole_and_position() -> None:
    weak = COVER[0]  # its magnet at P3 lost
    assert weak.magnets[2] in "NS"

    def seen(e: End) -> str:
        return drop(e.magnets, 2) if e == weak else e.magnets

    rs = walk(1, COVER, seen) + walk(7, COVER, seen)
    sensors, magnets = analyse(rs)
    assert {s.verdict for s in sensors} == {"ok"}  # every sensor reads other ends' magnets
    assert len(magnets) == 1
    m = magnets[0]
    assert (m.end, m.position, m.seen, m.holes, m.of_holes) == (weak, 3, "-", (1, 7), 2)
    assert "weak or lost" in m.advice and "every hole" in m.advice
    bad = [r for r in rs if not r.ok]
    assert len(bad) == 2
    text = reading_text(CODES, bad[0])
    code = code_of(drop(weak.magnets, 2))
    assert text.startswith(f"hole 1, {weak.pair} {CODES.colour_name(weak.down)} down: ")
    assert f"invalid code {code}" in text and f"expected {weak.code}" in text
    assert "P3 saw none (expected N" in text or "P3 saw none (expected S" in text
    report = SelftestReport(rs, sensors, magnets)
    assert not report.ok
    assert report.problems(CODES) == [
        f"{weak.pair} {CODES.colour_name(weak.down)} end, magnet P3 "
        f"({weak.magnets[2]} facing the sensor): {m.advice}"
    ]


def test_a_magnet_glued_the_wrong_way_up() -> None:
    bad_end = COVER[1]

    def seen(e: End) -> str:
        return flip(e.magnets, at=0) if e == bad_end else e.magnets

    _, magnets = analyse(walk(2, COVER, seen))
    assert [(m.end, m.position) for m in magnets] == [(bad_end, 1)]
    assert "wrong way up" in magnets[0].advice


def test_the_report_table_shows_each_sensor_per_reading() -> None:
    rs = walk(1, COVER, lambda e: flip(e.magnets, at=1))
    sensors, magnets = analyse(rs)
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(
        render_report(SelftestReport(rs, sensors, magnets), CODES)
    )
    text = out.getvalue()
    assert "empty" in text and f"{COVER[0].pair} {COVER[0].down}" in text
    assert "upside down" in text and "+7232" in text
