"""The bill of materials: it parses, its quantities follow the pin map and the code table, and
its totals add up."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from upref import paths
from upref.hardware import bom, codetable

PINMAP: dict[str, Any] = json.loads(paths.pinmap_path().read_text(encoding="utf-8"))
CODES: dict[str, Any] = codetable.load()


def test_the_bom_parses_and_checks() -> None:
    lines, total = bom.load()
    assert len(lines) >= 15
    assert bom.check(lines, total, PINMAP, CODES) == []


def test_quantities_follow_the_pin_map_and_the_code_table() -> None:
    lines, _ = bom.load()
    by_id = {ln.id: ln for ln in lines}
    hall = PINMAP["hall"]
    assert by_id["hall_sensor"].qty == hall["holes"] * hall["sensors_per_hole"] == 40
    assert by_id["mux"].qty == len(PINMAP["mux"]["banks"]) == 3
    assert by_id["magnet"].qty == 3 * len(codetable.codes_of(CODES)) == 60
    # the switched sensor supply: a P-MOSFET and its gate pull-up per bank
    assert by_id["pmos"].qty == by_id["resistor_10k"].qty == len(PINMAP["mux"]["power"]) == 3
    assert bom.tag_count() == 30 + 52 + 60 + 30 + 106
    assert bom.tag_count() <= by_id["tag"].qty


def test_the_total_is_the_sum() -> None:
    lines, total = bom.load()
    assert round(sum(ln.ext_eur for ln in lines), 2) == round(total, 2)
    for ln in lines:
        assert round(ln.qty * ln.unit_eur, 2) == round(ln.ext_eur, 2), ln.id


def test_the_check_catches_a_wrong_quantity_and_a_wrong_total() -> None:
    lines, total = bom.load()
    wrong = [
        dataclasses.replace(ln, qty=39, ext_eur=round(39 * ln.unit_eur, 2))
        if ln.id == "hall_sensor"
        else ln
        for ln in lines
    ]
    problems = bom.check(wrong, total, PINMAP, CODES)
    assert "'hall_sensor': 39, but the board needs 40" in problems
    assert any(p.startswith("the lines add up to") for p in problems)
    assert bom.check(lines, total + 1, PINMAP, CODES) == [
        f"the lines add up to {total:.2f} EUR, the total row says {total + 1:.2f}"
    ]


def test_a_bom_without_a_total_row_is_refused(tmp_path: Path) -> None:
    text = bom.bom_path().read_text(encoding="utf-8")
    cut = tmp_path / "bom.csv"
    cut.write_text(
        "\n".join(ln for ln in text.splitlines() if not ln.startswith("total,")) + "\n",
        encoding="utf-8",
    )
    try:
        bom.load(cut)
    except ValueError as exc:
        assert "no 'total' row" in str(exc)
    else:
        raise AssertionError("accepted a BOM without a total")


def test_markdown_has_every_part_and_the_total() -> None:
    lines, total = bom.load()
    md = bom.render_markdown(lines, total)
    for ln in lines:
        assert f"`{ln.mpn}`" in md
    assert f"**{total:.2f}**" in md


def test_a_switched_map_needs_its_switches_in_the_bom() -> None:
    lines, total = bom.load()
    fewer = [ln for ln in lines if ln.id != "resistor_10k"]
    problems = bom.check(fewer, total - 0.15, PINMAP, CODES)
    assert "no 'resistor_10k' line (need 3)" in problems
    unswitched = {**PINMAP, "mux": {k: v for k, v in PINMAP["mux"].items() if k != "power"}}
    assert not any("pmos" in p for p in bom.check(lines, total, unswitched, CODES))
