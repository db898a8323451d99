"""The code table: checks, one-flip neighbours, the proof that 12 pairs is the minimum, the
referee's suspect readings, the glue-up sheet."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest
from upref.board.codes import CodeTable, code_of, magnets_of
from upref.hardware import codetable

DATA: dict[str, Any] = codetable.load()
THREE_MAGNET_CODES = [c for c in range(81) if magnets_of(c).count("-") == 1]


def test_the_real_table_is_valid() -> None:
    assert codetable.validate(DATA) == []
    assert codetable.load_and_validate() == []


def _edit(fn: Any) -> list[str]:
    data = copy.deepcopy(DATA)
    fn(data)
    return codetable.validate(data)


def test_a_code_that_does_not_match_its_magnets() -> None:
    def f(d: dict[str, Any]) -> None:
        d["pairs"][0]["ends"][0]["code"] = 40

    problems = _edit(f)
    assert any("code 40 does not match magnets '-NNN' (which make 39)" in p for p in problems)


def test_an_end_with_two_magnets() -> None:
    def f(d: dict[str, Any]) -> None:
        d["pairs"][0]["ends"][0].update(magnets="--NN", code=code_of("--NN"))

    assert any("has 2 magnets" in p for p in _edit(f))


def test_a_code_used_twice() -> None:
    def f(d: dict[str, Any]) -> None:
        d["pairs"][1]["ends"][0].update(magnets="-NNN", code=39)

    problems = _edit(f)
    assert any("code 39 is also P-RB end R" in p for p in problems)
    assert any("19 distinct codes" in p for p in problems)


def test_both_ends_hiding_one_colour() -> None:
    def f(d: dict[str, Any]) -> None:
        d["pairs"][0]["ends"][1]["hidden"] = "R"

    problems = _edit(f)
    assert any("both ends hide R" in p for p in problems)
    assert any("no pair joins B-R" in p for p in problems)


def test_pairs_that_are_not_k5() -> None:
    def f(d: dict[str, Any]) -> None:  # P-RB becomes a second R-Y pair
        d["pairs"][0]["ends"][1]["hidden"] = "Y"

    problems = _edit(f)
    assert any("no pair joins B-R" in p for p in problems)
    assert any("2 pairs join R-Y" in p for p in problems)
    assert any("P-RB: its ends hide R and Y" in p for p in problems)


def test_flips_never_move_a_magnet() -> None:
    """Neighbours always leave the same position empty: the 32 codes are 4 separate cubes."""
    for a in THREE_MAGNET_CODES:
        for b in codetable.flip_neighbours(a):
            assert magnets_of(a).index("-") == magnets_of(b).index("-")
            assert sum(x != y for x, y in zip(magnets_of(a), magnets_of(b), strict=True)) == 1
    assert len(THREE_MAGNET_CODES) == 32


def test_the_table_has_12_one_flip_pairs() -> None:
    pairs = codetable.one_flip_pairs(DATA)
    assert len(pairs) == 12
    assert (17, 26) in pairs  # SSN- and SSS-
    assert codetable.one_flip_pairs(CodeTable.load()) == pairs


def test_cube_minima_by_exhaustion() -> None:
    assert codetable.cube_minima(3) == [0, 0, 0, 0, 0, 3, 6, 9, 12]
    assert codetable.cube_minima(2) == [0, 0, 0, 2, 4]


def test_12_is_the_minimum_for_20_three_magnet_codes() -> None:
    assert codetable.min_one_flip_pairs(20) == 12
    assert codetable.min_one_flip_pairs(16) == 0  # an independent set per cube
    assert codetable.min_one_flip_pairs(32) == 48  # every edge of four cubes


def test_the_group_split_agrees_with_brute_force_on_a_smaller_case() -> None:
    """Three positions, two magnets: 3 groups of 4 (squares). Try every subset."""
    codes = [c for c in range(27) if magnets_of(c)[:3].count("-") == 1 and magnets_of(c)[3] == "-"]
    assert len(codes) == 12
    for n in range(len(codes) + 1):
        brute = min(
            sum(1 for a, b in itertools.combinations(s, 2) if b in codetable.flip_neighbours(a))
            for s in itertools.combinations(codes, n)
        )
        assert codetable.min_one_flip_pairs(n, positions=3, magnets=2) == brute


def test_flip_neighbours() -> None:
    assert codetable.flip_neighbours(39) == sorted(
        [code_of("-SNN"), code_of("-NSN"), code_of("-NNS")]
    )
    assert codetable.flip_neighbours(26, DATA) == [17, 23, 25]  # SSN-, SNS-, NSS-


def test_suspect_readings() -> None:
    assert codetable.suspect(17, 26)  # SSN- where SSS- was expected: one pole misread
    assert not codetable.suspect(26, 26)
    assert not codetable.suspect(39, 26)  # another group: a wrong hole, not a misread
    assert codetable.suspect(62, [39, 59])  # SS-S is one flip from SN-S
    assert not codetable.suspect(0, 26)
    assert not codetable.suspect(17, [])


def test_the_self_test_set_covers_every_position() -> None:
    cover = codetable.cover_set(DATA)
    assert len(cover) == 4  # each end leaves one position empty, so at least four
    for p in range(4):
        assert {e[3][p] for e in cover} == {"-", "N", "S"}


@pytest.fixture(scope="module")
def sheet() -> str:
    return codetable.glueup_svg(DATA)


def test_the_glue_up_sheet_shows_every_end(sheet: str) -> None:
    assert sheet.startswith("<svg") and sheet.rstrip().endswith("</svg>")
    for pid, hidden, _, magnets, code in codetable.ends(DATA):
        assert f"{pid} - end {hidden}" in sheet
        assert f"code {code}: {magnets}" in sheet
    n_magnets = sum(3 for _ in codetable.ends(DATA))
    assert (
        sheet.count('font-weight="bold" fill="#fff">N</text>')
        + sheet.count('font-weight="bold" fill="#fff">S</text>')
        == n_magnets + 2
    )  # + the legend's two
    assert "key flat" in sheet and "mirror image" in sheet
