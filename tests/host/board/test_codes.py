"""The magnet code table: loading, validation, meanings."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from upref import paths
from upref.board.codes import (
    CodeTable,
    MoleEnd,
    code_of,
    magnet_count,
    magnets_of,
    one_flip_neighbours,
)

DATA: dict[str, Any] = json.loads(paths.codes_path().read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def table() -> CodeTable:
    return CodeTable.load()


def test_the_shipped_table_loads(table: CodeTable) -> None:
    assert len(table.codes()) == 20
    assert len(table.pairs) == 10
    assert all(magnet_count(c) == 3 for c in table.codes())
    colours = {frozenset((a.hidden, a.visible)) for a, _ in table.pairs.values()}
    assert len(colours) == 10  # every colour with every other exactly once


def test_lookup_maps_code_to_pair_and_visible_colour(table: CodeTable) -> None:
    assert table.lookup(39) == MoleEnd("P-RB", "R", "B")
    assert table.lookup(65) == MoleEnd("P-RB", "B", "R")
    assert table.lookup(0) is None
    assert table.lookup(40) is None
    assert table.is_valid(0) and table.is_valid(65) and not table.is_valid(40)


def test_describe(table: CodeTable) -> None:
    assert table.describe(0) == "empty"
    assert table.describe(65) == "P-RB with red up"
    assert table.describe(39) == "P-RB with blue up"
    two = table.describe(19)
    assert two.startswith("invalid code 19 (N-S- = 2 magnets): ")
    assert "reseat the pair or check its magnets" in two
    assert "magnets): " in table.describe(80) and "stray magnet" in table.describe(80)
    assert table.describe(81) == "invalid code 81 (out of range 0..80)"
    assert table.short(65) == "P-RB red up"
    assert table.short(0) == "empty"


def test_invalid_codes_are_never_named_as_a_pair(table: CodeTable) -> None:
    for code in range(81):
        if code not in table.codes() and code != 0:
            text = table.describe(code)
            assert text.startswith(f"invalid code {code} ")
            assert table.lookup(code) is None


def test_magnet_strings() -> None:
    assert magnets_of(39) == "-NNN"
    assert code_of("S-NS") == 65
    assert all(code_of(magnets_of(c)) == c for c in range(81))
    with pytest.raises(ValueError):
        magnets_of(81)
    with pytest.raises(ValueError):
        code_of("NNX-")


def test_one_flip_neighbours() -> None:
    assert one_flip_neighbours(39) == sorted([code_of("-SNN"), code_of("-NSN"), code_of("-NNS")])
    assert one_flip_neighbours(0) == []
    for code in range(81):
        for n in one_flip_neighbours(code):
            assert magnet_count(n) == magnet_count(code)
            assert code in one_flip_neighbours(n)
            diff = [a != b for a, b in zip(magnets_of(code), magnets_of(n), strict=True)]
            assert sum(diff) == 1


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    p = tmp_path / "codes.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


def _broken(change: str) -> dict[str, Any]:
    data = copy.deepcopy(DATA)
    ends = data["pairs"][0]["ends"]
    if change == "two magnets":
        ends[0]["magnets"], ends[0]["code"] = "-NN-", code_of("-NN-")
    elif change == "code mismatch":
        ends[0]["code"] = ends[0]["code"] + 1
    elif change == "duplicate code":
        other = data["pairs"][1]["ends"][0]
        ends[0]["magnets"], ends[0]["code"] = other["magnets"], other["code"]
    elif change == "same hidden colour":
        ends[1]["hidden"] = ends[0]["hidden"]
    elif change == "missing pair":
        del data["pairs"][-1]
    elif change == "unknown colour":
        ends[0]["hidden"] = "G"
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("two magnets", "has 2 magnets"),
        ("code mismatch", "does not match magnets"),
        ("duplicate code", "used twice"),
        ("same hidden colour", "both ends hide"),
        ("missing pair", "18 distinct codes in 9 pairs"),
        ("unknown colour", "unknown hidden colour 'G'"),
    ],
)
def test_validation_names_the_problem(tmp_path: Path, change: str, message: str) -> None:
    path = _write(tmp_path, _broken(change))
    with pytest.raises(ValueError, match=message) as info:
        CodeTable.load(path)
    assert str(path) in str(info.value)


def test_not_json(tmp_path: Path) -> None:
    p = tmp_path / "codes.json"
    p.write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match="not valid JSON"):
        CodeTable.load(p)
