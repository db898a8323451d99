"""The pin map validator: the real map passes, and each rule catches its own mistake."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from upref import paths
from upref.hardware import pinmap

REAL: dict[str, Any] = json.loads(paths.pinmap_path().read_text(encoding="utf-8"))


def test_the_real_map_passes() -> None:
    assert pinmap.validate(REAL) == []
    assert pinmap.load_and_validate() == []


def test_the_real_map_has_the_switched_supply() -> None:
    assert REAL["mux"]["power"] == ["hall_pwr_a", "hall_pwr_b", "hall_pwr_c"]
    assert REAL["mux"]["power_on_us"] >= pinmap.HALL_POWER_ON_US
    # two of the switches sit on strapping pins, allowed only because they idle high (off)
    for name in REAL["mux"]["power"]:
        sig = REAL["signals"][name]
        assert (sig["mode"], sig["active"], sig["boot"]) == ("out", "low", "high")
    assert {REAL["signals"][n]["gpio"] for n in REAL["mux"]["power"]} & pinmap.STRAPPING == {5, 15}


def test_a_map_without_switches_passes_too() -> None:
    pm = copy.deepcopy(REAL)
    for name in pm["mux"].pop("power"):
        del pm["signals"][name]
    del pm["mux"]["power_on_us"]
    assert pinmap.validate(pm) == []


def _set(signal: str, **kv: Any) -> Callable[[dict[str, Any]], None]:
    def f(pm: dict[str, Any]) -> None:
        pm["signals"][signal].update(kv)

    return f


def _unswitched(breaker: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    """`breaker` applied to the map without its sensor supply switches (which take the last
    free output pins, among them the strapping pins 5 and 15)."""

    def f(pm: dict[str, Any]) -> None:
        for name in pm["mux"].pop("power"):
            del pm["signals"][name]
        del pm["mux"]["power_on_us"]
        breaker(pm)

    return f


def _drop_signal(pm: dict[str, Any]) -> None:
    del pm["signals"]["buzzer"]


def _three_select_lines(pm: dict[str, Any]) -> None:
    pm["mux"]["select"] = pm["mux"]["select"][:3]


def _fourth_bank(pm: dict[str, Any]) -> None:
    pm["signals"]["mux_d_sig"] = {"gpio": 35, "mode": "adc", "function": "a fourth mux"}
    pm["mux"]["banks"].append("mux_d_sig")


def _short_channels(pm: dict[str, Any]) -> None:
    pm["hall"]["channels"].pop()


def _duplicate_channel(pm: dict[str, Any]) -> None:
    pm["hall"]["channels"][39] = [0, 0]


def _channel_16(pm: dict[str, Any]) -> None:
    pm["hall"]["channels"][39] = [2, 16]


def _bank_3(pm: dict[str, Any]) -> None:
    pm["hall"]["channels"][39] = [3, 7]


def _adc_on_17(pm: dict[str, Any]) -> None:
    pm["signals"]["buzzer"]["gpio"] = 2
    pm["signals"]["mux_b_sig"]["gpio"] = 17


def _miso_is_an_output(pm: dict[str, Any]) -> None:
    pm["spi"]["miso"] = "rfid_rst"


def _power_list_short(pm: dict[str, Any]) -> None:
    pm["mux"]["power"] = pm["mux"]["power"][:2]


def _power_names_nothing(pm: dict[str, Any]) -> None:
    pm["mux"]["power"][1] = "hall_pwr_x"


def _power_twice(pm: dict[str, Any]) -> None:
    del pm["signals"]["hall_pwr_c"]
    pm["mux"]["power"][2] = "hall_pwr_a"


def _power_on_too_short(pm: dict[str, Any]) -> None:
    pm["mux"]["power_on_us"] = 100


def _power_on_too_long(pm: dict[str, Any]) -> None:
    pm["mux"]["power_on_us"] = 3000


def _power_on_missing(pm: dict[str, Any]) -> None:
    del pm["mux"]["power_on_us"]


# (what is broken, how, the one rule that must fire, words the message must contain)
BROKEN: list[tuple[str, Callable[[dict[str, Any]], None], str, list[str]]] = [
    ("analog input on ADC2", _set("mux_a_sig", gpio=2), "adc1", ["mux_a_sig", "GPIO 2", "ADC2"]),
    (
        "analog input on a pin without an ADC",
        _adc_on_17,
        "adc1",
        ["mux_b_sig", "GPIO 17", "no ADC"],
    ),
    (
        "output on an input-only pin",
        _set("rfid_rst", gpio=35),
        "input-only",
        ["rfid_rst", "GPIO 35", "inputs only"],
    ),
    ("PWM on an input-only pin", _set("buzzer", gpio=36), "input-only", ["buzzer", "GPIO 36"]),
    ("flash pin", _set("buzzer", gpio=9), "flash-pin", ["buzzer", "GPIO 9", "flash"]),
    ("UART0 pin", _set("led_data", gpio=1), "uart0", ["led_data", "GPIO 1", "USB serial"]),
    ("no such GPIO", _set("led_data", gpio=20), "no-such-gpio", ["led_data", "GPIO 20"]),
    ("GPIO 37 is not brought out", _set("led_data", gpio=37), "no-such-gpio", ["GPIO 37"]),
    (
        "GPIO 12 held high at reset",
        _set("led_data", gpio=12, boot="high"),
        "strapping",
        ["led_data", "GPIO 12", "1.8 V"],
    ),
    ("MISO on GPIO 12", _set("spi_miso", gpio=12), "strapping", ["spi_miso", "GPIO 12", "MISO"]),
    ("an output on GPIO 0", _set("led_data", gpio=0), "strapping", ["led_data", "GPIO 0", "BOOT"]),
    (
        "GPIO 0 held low at reset",
        _set("button", gpio=0, boot="low"),
        "strapping",
        ["button", "GPIO 0", "download"],
    ),
    (
        "GPIO 2 held high at reset",
        _set("led_data", gpio=2, boot="high"),
        "strapping",
        ["led_data", "GPIO 2", "download"],
    ),
    (
        "GPIO 15 held low at reset",
        _unswitched(_set("led_data", gpio=15, boot="low")),
        "strapping",
        ["led_data", "GPIO 15", "boot log"],
    ),
    (
        "an input on GPIO 5",
        _unswitched(_set("button", gpio=5)),
        "strapping",
        ["button", "GPIO 5", "idles high"],
    ),
    (
        "an idle-low output on GPIO 5",
        _unswitched(_set("led_data", gpio=5)),
        "strapping",
        ["led_data", "GPIO 5"],
    ),
    (
        "a GPIO used twice",
        _set("buzzer", gpio=16),
        "duplicate-gpio",
        ["buzzer", "led_data", "GPIO 16"],
    ),
    ("a required signal missing", _drop_signal, "required", ["buzzer", "missing"]),
    (
        "a required signal in the wrong mode",
        _set("button", mode="out"),
        "role",
        ["button", "GPIO 4", "'in'"],
    ),
    (
        "a pull-up on an input-only pin",
        _set("mux_c_sig", pull="up"),
        "no-pull",
        ["mux_c_sig", "GPIO 34", "no internal pull"],
    ),
    ("three select lines", _three_select_lines, "mux-select", ["mux.select", "4 select lines"]),
    ("a bank without a switch", _power_list_short, "mux-power", ["mux.power", "one supply switch"]),
    ("a switch that is no signal", _power_names_nothing, "mux-power", ["hall_pwr_x", "no signal"]),
    ("one switch for two banks", _power_twice, "mux-power", ["listed twice"]),
    (
        "an active-high switch",
        _set("hall_pwr_a", active="high"),
        "mux-power",
        ["hall_pwr_a", "GPIO 25", "'active' must be 'low'"],
    ),
    (
        "a switch without its gate pull-up",
        _set("hall_pwr_c", boot="float"),
        "mux-power",
        ["hall_pwr_c", "GPIO 15", "pull-up"],
    ),
    (
        "a switch that is an input",
        _set("hall_pwr_a", mode="in"),
        "mux-power",
        ["hall_pwr_a", "'out'"],
    ),
    ("power-on shorter than the DRV5055's", _power_on_too_short, "mux-power", ["100 us", "330"]),
    ("power-on waits too long", _power_on_too_long, "mux-power", ["11000 us", "one scan"]),
    ("power-on wait missing", _power_on_missing, "mux-power", ["mux.power_on_us", "None"]),
    ("a bank with no sensor", _unswitched(_fourth_bank), "hall-channels", ["3 banks", "lists 4"]),
    ("39 channels", _short_channels, "hall-channels", ["39 entries", "need 40"]),
    ("a channel used twice", _duplicate_channel, "hall-channels", ["sensors 0 and 39"]),
    ("channel 16", _channel_16, "hall-channels", ["channel 16", "0..15"]),
    ("a bank that does not exist", _bank_3, "hall-channels", ["bank 3", "has 3"]),
    ("MISO names an output", _miso_is_an_output, "spi", ["spi.miso", "rfid_rst"]),
    ("a gpio that is not a number", _set("led_data", gpio="16"), "structure", ["led_data", "gpio"]),
    ("an unknown mode", _set("led_data", mode="analog"), "structure", ["led_data", "mode"]),
]


@pytest.mark.parametrize(("what", "breaker", "rule", "words"), BROKEN, ids=[b[0] for b in BROKEN])
def test_each_rule_catches_its_mistake_and_nothing_else(
    what: str, breaker: Callable[[dict[str, Any]], None], rule: str, words: list[str]
) -> None:
    pm = copy.deepcopy(REAL)
    breaker(pm)
    problems = pinmap.check(pm)
    assert [p.rule for p in problems] == [rule], problems
    message = pinmap.validate(pm)[0]
    for w in words:
        assert w in message, message


def test_every_rule_is_exercised() -> None:
    assert {b[2] for b in BROKEN} == set(pinmap.RULES) - {"mux-banks"}


def test_a_bank_that_is_not_an_adc_signal() -> None:
    pm = copy.deepcopy(REAL)
    pm["mux"]["banks"][2] = "button"
    rules = [p.rule for p in pinmap.check(pm)]
    assert rules == ["mux-banks"]


def test_not_a_map_at_all() -> None:
    assert pinmap.validate([]) == ["pin map: needs a 'signals' object [structure]"]


def test_unreadable_files_are_reported(tmp_path: Any) -> None:
    bad = tmp_path / "pinmap.json"
    bad.write_text("{nope", encoding="utf-8")
    assert "not valid JSON" in pinmap.load_and_validate(bad)[0]
    assert "cannot read" in pinmap.load_and_validate(tmp_path / "missing.json")[0]


def test_the_check_command(tmp_path: Any) -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "upref.hardware", "check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "pin map: 18 signals" in ok.stdout
    pm = copy.deepcopy(REAL)
    pm["signals"]["buzzer"]["gpio"] = 9
    path = tmp_path / "pinmap.json"
    path.write_text(json.dumps(pm), encoding="utf-8")
    bad = subprocess.run(
        [sys.executable, "-m", "upref.hardware", "--pinmap", str(path), "check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 1
    assert "buzzer (GPIO 9)" in bad.stdout


def test_a_switch_on_a_strapping_pin_must_idle_high() -> None:
    pm = copy.deepcopy(REAL)
    pm["signals"]["hall_pwr_b"]["active"] = "high"  # GPIO 5: on (and low) while idle
    rules = sorted(p.rule for p in pinmap.check(pm))
    assert rules == ["mux-power", "strapping"]
    pm = copy.deepcopy(REAL)
    pm["signals"]["hall_pwr_c"]["boot"] = "low"  # GPIO 15 held low at reset
    rules = sorted(p.rule for p in pinmap.check(pm))
    assert rules == ["mux-power", "strapping"]
