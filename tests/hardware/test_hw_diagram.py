"""The wiring diagram comes from the pin map: every signal and GPIO is in it, and a changed pin
changes it."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from upref import paths
from upref.hardware import diagram

PINMAP: dict[str, Any] = json.loads(paths.pinmap_path().read_text(encoding="utf-8"))


def _texts(svg: str) -> str:
    return " ".join(re.findall(r"<tspan[^>]*>([^<]*)</tspan>", svg))


def _check_has_every_signal(svg: str, pm: dict[str, Any]) -> None:
    text = _texts(svg)
    for name, sig in pm["signals"].items():
        assert f"{name} (GPIO {sig['gpio']})" in text, name
        assert f"GPIO{sig['gpio']}" in text, name


def test_regenerated_diagram_names_every_signal_and_gpio(tmp_path: Path) -> None:
    out = tmp_path / "wiring.svg"
    r = subprocess.run(
        [sys.executable, "-m", "upref.hardware", "diagram", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    svg = out.read_text(encoding="utf-8")
    _check_has_every_signal(svg, PINMAP)
    text = _texts(svg)
    for label in (
        "MFRC522",
        "CD74HC4067 bank A",
        "CD74HC4067 bank C",
        "WS2812B",
        "C0: hole 1 P1",
        "C7: hole 10 P4",
    ):
        assert label in text


def test_a_changed_pin_changes_the_diagram() -> None:
    pm = copy.deepcopy(PINMAP)
    pm["signals"]["led_data"]["gpio"] = 25
    before, after = diagram.wiring_svg(PINMAP), diagram.wiring_svg(pm)
    assert before != after
    assert "led_data (GPIO 25)" in _texts(after)
    assert "led_data (GPIO 16)" not in _texts(after)


def test_a_new_signal_gets_a_pin_and_a_stub() -> None:
    pm = copy.deepcopy(PINMAP)
    pm["signals"]["spare_led"] = {
        "gpio": 2,
        "mode": "out",
        "function": "a second LED",
    }
    svg = diagram.wiring_svg(pm)
    _check_has_every_signal(svg, pm)
    assert "spare_led: a second LED" in _texts(svg)


def test_every_bank_has_its_supply_switch() -> None:
    text = _texts(diagram.wiring_svg(PINMAP))
    for b, name in enumerate(PINMAP["mux"]["power"]):
        bank = "ABC"[b]
        assert f"{name}: " not in text  # drawn as a switch, not as a stub
        assert f"bank {bank}" in text
    assert text.count("AO3401A") == 3 and text.count("10 kΩ") == 3
    assert "VCC of every bank A sensor (holes 1-4)" in text
    assert "VCC of every bank C sensor (holes 9-10)" in text


def test_the_committed_diagram_is_current() -> None:
    committed = (paths.hardware_dir() / "wiring.svg").read_text(encoding="utf-8")
    _check_has_every_signal(committed, PINMAP)
    assert committed == diagram.wiring_svg(PINMAP), (
        "hardware/wiring.svg is stale: run python -m upref.hardware all"
    )
