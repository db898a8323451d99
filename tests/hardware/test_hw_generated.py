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
    # the design window, over the ESP32s' ADC references (docs/build.md: 7,700-14,300)
    assert 7_700 <= a.direct_min and a.direct_max <= 14_300
    assert a.neighbour_max <= 2_500
    sigma5 = 5 * magnetics.NOISE_SIGMA
    assert a.empty_max + sigma5 < THRESHOLDS["off"]
    assert a.weakest - sigma5 >= THRESHOLDS["on"]


def test_the_calibration_windows_hold_on_every_esp32() -> None:
    a = magnetics.analyse(THRESHOLDS)
    # sensors at rest on chips at both ends of the 1000..1200 mV reference range
    assert 26_000 < a.zero_low < 27_000 and 34_000 < a.zero_high < 34_500
    assert THRESHOLDS["cal_zero_low"] <= a.zero_low and a.zero_high <= THRESHOLDS["cal_zero_high"]
    # one board's zeros stay within the limit of its median; a pair left in a hole does not
    assert a.zero_spread <= THRESHOLDS["cal_max_offset"] < a.detect_min
    # the old window, zeros within 6000 of mid-scale, refuses an empty board on some chips
    assert a.zero_low < 32768 - 6000


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
