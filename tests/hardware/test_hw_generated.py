"""Generated artifacts are current, and the magnet layout keeps the firmware's thresholds."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from upref import paths
from upref.hardware import codetable, guide, magnetics

PINMAP: dict[str, Any] = json.loads(paths.pinmap_path().read_text(encoding="utf-8"))
THRESHOLDS = PINMAP["hall"]["thresholds"]


def test_the_layout_keeps_crosstalk_under_the_thresholds() -> None:
    a = magnetics.analyse(THRESHOLDS)
    assert a.ok, [c for c in a.checks if not c[4]]
    assert 8_500 <= a.direct_min and a.direct_max <= 14_500  # the 9,000-14,000 design window
    assert a.neighbour_max <= 2_500
    assert a.empty_max < THRESHOLDS["off"]
    assert a.weakest >= THRESHOLDS["on"]


def test_the_field_model() -> None:
    m = magnetics.MAGNET
    # on the axis the disc model must equal the closed form for a cylinder
    z, t, r, br = 6.7, m.thickness_mm, m.diameter_mm / 2, 1.45
    closed = br / 2 * ((z + t) / ((z + t) ** 2 + r * r) ** 0.5 - z / (z * z + r * r) ** 0.5) * 1000
    assert magnetics.field_mT(0, z, br) == pytest.approx(closed, rel=1e-6)
    # far to the side the vertical field reverses, as a dipole's does
    assert magnetics.field_mT(20, 6.7, br) < 0


def test_a_closer_spacing_breaks_the_margins() -> None:
    tight = dataclasses.replace(magnetics.LAYOUT, pitch_mm=5.0)
    a = magnetics.analyse(THRESHOLDS, layout=tight)
    assert not a.ok


def test_the_glue_up_sheet_is_current() -> None:
    committed = (paths.hardware_dir() / "glue-up.svg").read_text(encoding="utf-8")
    assert committed == codetable.glueup_svg(codetable.load()), (
        "hardware/glue-up.svg is stale: run python -m upref.hardware all"
    )


def test_the_build_guide_tables_are_current() -> None:
    text = guide.guide_path().read_text(encoding="utf-8")
    sections = guide.sections(PINMAP, codetable.load())
    assert set(guide.names_in(text)) == set(sections)
    assert guide.update(text, sections) == text, (
        "docs/build.md's generated tables are stale: run python -m upref.hardware all"
    )
