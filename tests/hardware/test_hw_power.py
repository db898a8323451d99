"""The power budget: sums, limits, the over-budget verdict and the switched sensor supply."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from upref import paths
from upref.hardware import power

PINMAP: dict[str, Any] = json.loads(paths.pinmap_path().read_text(encoding="utf-8"))

TWO = (
    power.Load("a", "part a", power.RAIL_3V3, 2, 10, 20, "test"),
    power.Load("b", "part b", power.RAIL_5V, 1, 5, 50, "test"),
)


def test_the_budget_sums_per_rail_and_adds_the_regulator_to_usb() -> None:
    lim = power.Limits()
    b = power.budget(TWO, lim)
    assert b.rail_3v3 == {"typ": 20.0, "worst": 40.0, "peak": 40.0}
    assert b.usb_5v["typ"] == 20 + lim.ldo_iq_typ_ma + 5
    assert b.usb_5v["worst"] == 40 + lim.ldo_iq_max_ma + 50
    assert b.fits


def test_an_over_budget_configuration_is_flagged() -> None:
    big = (*TWO, power.Load("c", "heater", power.RAIL_3V3, 1, 300, 600, "test"))
    b = power.budget(big)
    assert not b.fits
    failed = {c.what for c in b.checks if not c.ok}
    assert "3.3 V regulator heat (worst case, average)" in failed
    assert "USB 2.0 port at 5 V (worst case, average)" in failed


def test_the_regulator_heat_limit() -> None:
    lim = power.Limits()
    assert lim.thermal_ma == pytest.approx((125 - 40) / (90 * (4.9 - 3.3)) * 1000)


def test_switched_sensors_count_at_their_duty_cycle_and_one_bank_at_peak() -> None:
    t = power.ScanTiming(period_ms=10, power_on_us=350, settle_us=10, read_us=40)
    sensors = power.Load("s", "sensor", power.RAIL_3V3, 40, 6, 10, "test", switched=True)
    b = power.budget((sensors,), banks=[16, 16, 8], timing=t)
    duty = (16 * 1150 + 16 * 1150 + 8 * 750) / 10_000
    assert b.rail_3v3["worst"] == pytest.approx(10 * duty, abs=0.05)
    assert b.rail_3v3["peak"] == 160
    with pytest.raises(ValueError):
        power.budget((sensors,), banks=[16, 16])


def test_the_real_board_is_built_with_the_switched_supply() -> None:
    rep = power.report(PINMAP)
    assert rep["as_built"] == "switched"
    assert not rep["unswitched"]["fits"]
    assert rep["unswitched"]["rail_3v3_ma"]["worst"] > 400  # 40 sensors at 10 mA alone
    assert rep["switched"]["fits"]
    assert rep["switched"]["rail_3v3_ma"]["peak"] < rep["unswitched"]["rail_3v3_ma"]["peak"]
    sup = rep["switched_supply"]
    assert sup["built"]
    assert sup["mux_power"]["power"] == PINMAP["mux"]["power"]
    assert sup["signals"] == {n: PINMAP["signals"][n] for n in PINMAP["mux"]["power"]}
    timing = sup["timing"]
    assert [b["sensors"] for b in timing["banks"]] == [16, 16, 8]
    assert timing["scan_us"] < timing["scan_period_us"]
    assert timing["power_on_us"] == PINMAP["mux"]["power_on_us"] >= 330  # DRV5055 tON max
    assert {p["mpn"]: p["qty"] for p in sup["parts"]} == {"AO3401A": 3, "CFR-25JB-52-10K": 3}
    assert rep["verdict"].startswith("as built (sensors switched per bank) the board fits")


def test_a_map_without_switches_is_budgeted_unswitched_and_gets_the_proposal() -> None:
    pm = copy.deepcopy(PINMAP)
    for name in pm["mux"].pop("power"):
        del pm["signals"][name]
    del pm["mux"]["power_on_us"]
    rep = power.report(pm)
    assert rep["as_built"] == "unswitched"
    assert rep["verdict"] == "as built the board does not fit: the switched supply would."
    sup = rep["switched_supply"]
    assert not sup["built"] and sup["signals"] == power.PROPOSAL_SIGNALS
    gpios = {s["gpio"] for s in sup["signals"].values()}
    assert not gpios & {s["gpio"] for s in pm["signals"].values()}
    # the proposal's signals are the ones the real map carries
    assert power.PROPOSAL_SIGNALS == {n: PINMAP["signals"][n] for n in PINMAP["mux"]["power"]}


def test_a_longer_power_on_wait_costs_current() -> None:
    pm = copy.deepcopy(PINMAP)
    pm["mux"]["power_on_us"] = 1000
    slow = power.report(pm)["switched"]["rail_3v3_ma"]["worst"]
    assert slow > power.report(PINMAP)["switched"]["rail_3v3_ma"]["worst"]


def test_power_json_is_current() -> None:
    committed = (paths.hardware_dir() / "power.json").read_text(encoding="utf-8")
    assert committed == power.to_json(power.report(PINMAP)), (
        "hardware/power.json is stale: run python -m upref.hardware all"
    )
