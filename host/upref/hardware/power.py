"""The power budget: what every part draws, against what the DevKitC and a USB port can give.

Everything the board carries runs from the DevKitC's USB connector: the 3.3 V parts through
its AMS1117-3.3 linear regulator (so their current is also drawn from USB at 5 V), the 5 V
parts (the status LED, the buzzer) straight from USB. Three limits apply:

- the USB 2.0 port: 500 mA at 5 V for a configured high-power device;
- the regulator's heat: it burns (Vin - 3.3 V) x I in a SOT-223 whose junction-to-ambient
  resistance is 46 to over 90 C/W depending on the copper under it (AMS1117 datasheet); the
  DevKitC's copper is small, so 90 C/W, 40 C inside the box and a 125 C junction give the
  continuous limit;
- the regulator's current limit: 900 mA at least (AMS1117 datasheet), for peaks.

A design passes when its worst case (every part at its datasheet maximum at once) stays under
`Limits.margin` (90 %) of each limit. `budget()` computes it; `report()` is what
`hardware/power.json` holds. With all 40 sensors powered all the time it does not pass, so the
board is built with a switched supply (`mux.power` in the pin map, `switched_supply()`): one
multiplexer bank of sensors is powered at a time, only while it is read. A pin map without
`mux.power` is budgeted as unswitched and gets the switches as a proposal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from upref.hardware import pinmap as pinmap_rules

RAIL_3V3 = "3v3"
RAIL_5V = "5v"


@dataclass(frozen=True)
class Load:
    """One kind of part on a rail: quantity and current per part, typical and maximum, mA."""

    key: str
    name: str
    rail: str
    qty: int
    typ_ma: float
    max_ma: float
    source: str
    switched: bool = False  # a hall sensor: powered per bank when the switched supply is fitted


@dataclass(frozen=True)
class Limits:
    usb_ma: float = 500.0
    usb_source: str = "USB 2.0 specification: 500 mA for a configured high-power device"
    ldo_current_limit_ma: float = 900.0
    ldo_rated_ma: float = 1000.0
    ldo_iq_typ_ma: float = 5.0
    ldo_iq_max_ma: float = 11.0
    ldo_source: str = (
        "AMS1117 datasheet: 1 A output, current limit 900 mA min, quiescent "
        "current 5 mA typ / 11 mA max, theta-JA 46 to over 90 C/W (SOT-223, "
        "depends on copper), junction 125 C max"
    )
    vin_max: float = 4.9  # USB 5.25 V max less the DevKitC's series diode (~0.35 V)
    vout: float = 3.3
    theta_ja: float = 90.0
    ambient_c: float = 40.0
    tj_max_c: float = 125.0
    margin: float = 0.9

    @property
    def thermal_ma(self) -> float:
        """The continuous 3.3 V current at which the regulator's junction reaches tj_max."""
        return (
            (self.tj_max_c - self.ambient_c) / (self.theta_ja * (self.vin_max - self.vout)) * 1000
        )


@dataclass(frozen=True)
class ScanTiming:
    """One full scan with a switched supply: each bank is powered, left to start, read, and
    switched off again."""

    period_ms: float = 10.0  # a full scan every 10 ms (about 100 scans a second)
    power_on_us: float = 350.0  # DRV5055 tON 330 us max, rounded up
    settle_us: float = 10.0  # mux.settle_us of the pin map
    read_us: float = 40.0  # select lines + one ADC read in MicroPython (estimate; make bench)

    def bank_on_us(self, sensors: int) -> float:
        return self.power_on_us + sensors * (self.settle_us + self.read_us)


LOADS: tuple[Load, ...] = (
    Load(
        "esp32",
        "ESP32-WROOM-32, Wi-Fi off, CPU at 240 MHz",
        RAIL_3V3,
        1,
        50,
        80,
        "ESP32 Series Datasheet, power consumption by power modes: modem-sleep at 240 MHz "
        "30-68 mA; 80 mA leaves room for the module's flash",
    ),
    Load(
        "mfrc522",
        "MFRC522 reader module (RC522)",
        RAIL_3V3,
        1,
        26,
        116.5,
        "NXP MFRC522 datasheet, quick reference data: IDDD 6.5 mA, IDDA 10 mA max, transmitter "
        "IDD(TVDD) 60 mA typ / 100 mA max; 26 mA is the RC522 modules' usual working figure",
    ),
    Load(
        "hall",
        "DRV5055A2 hall sensor",
        RAIL_3V3,
        40,
        6,
        10,
        "TI DRV5055 datasheet (SBAS640), electrical characteristics: ICC 6 mA typ / 10 mA max "
        "(newer silicon draws less; plan for the datasheet maximum)",
        switched=True,
    ),
    Load(
        "mux",
        "CD74HC4067 multiplexer",
        RAIL_3V3,
        3,
        0.01,
        0.16,
        "TI CD74HC4067 datasheet: ICC 160 uA max over temperature",
    ),
    Load(
        "button",
        "button pull-up (internal, about 45 kOhm)",
        RAIL_3V3,
        1,
        0,
        0.1,
        "ESP32 datasheet: internal pull-up about 45 kOhm; only while the button is held",
    ),
    Load(
        "buzzer_base",
        "buzzer transistor base (1 kOhm from GPIO 17)",
        RAIL_3V3,
        1,
        0,
        2.6,
        "(3.3 V - 0.7 V) / 1 kOhm while the tone's pulse is high",
    ),
    Load(
        "devkit",
        "DevKitC power LED and pull-ups",
        RAIL_3V3,
        1,
        2,
        3,
        "estimate, not from a datasheet",
    ),
    Load(
        "ws2812b",
        "WS2812B status LED (5 V through a 1N4148)",
        RAIL_5V,
        1,
        5,
        60,
        "WS2812B: 3 colours x 20 mA at full white; a status colour at low brightness is a few mA",
    ),
    Load(
        "piezo",
        "piezo buzzer with 1 kOhm across it",
        RAIL_5V,
        1,
        0,
        5,
        "5 V / 1 kOhm while the transistor conducts; the piezo itself draws microamps",
    ),
    Load(
        "usb_bridge",
        "DevKitC USB-UART bridge (CP2102N)",
        RAIL_5V,
        1,
        10,
        15,
        "estimate, not from a datasheet",
    ),
)

RADIO = Load(
    "esp32_radio",
    "ESP32 Wi-Fi transmitting (the firmware never turns it on)",
    RAIL_3V3,
    1,
    0,
    170,
    "ESP32 Series Datasheet: TX 802.11b at 19.5 dBm 240 mA, i.e. about 170 mA on top "
    "of the figure above",
)


@dataclass
class Check:
    what: str
    value_ma: float
    limit_ma: float
    ok: bool


@dataclass
class Budget:
    """The budget of one configuration. Rails in mA: typical (average), worst case average and
    worst case peak; sensors powered per bank count at their duty cycle on average and one
    bank at a time at peak."""

    rows: list[dict[str, Any]]
    rail_3v3: dict[str, float]
    usb_5v: dict[str, float]
    checks: list[Check] = field(default_factory=list)

    @property
    def fits(self) -> bool:
        return all(c.ok for c in self.checks)


def _load_row(ld: Load, banks: list[int] | None, timing: ScanTiming | None
              ) -> tuple[dict[str, Any], float, float, float]:
    """One load's row of the budget and its typical, worst and peak mA (a switched load is on
    one bank at a time, for its share of every scan)."""
    typ, worst = ld.typ_ma * ld.qty, ld.max_ma * ld.qty
    peak = worst
    if ld.switched and banks is not None and timing is not None:
        if sum(banks) != ld.qty:
            raise ValueError(f"{ld.name}: {ld.qty} parts, but the banks hold {sum(banks)}")
        duty = sum(n * timing.bank_on_us(n) for n in banks) / (timing.period_ms * 1000)
        typ, worst = ld.typ_ma * duty, ld.max_ma * duty
        peak = ld.max_ma * max(banks)
    row = {
        "part": ld.name,
        "rail": ld.rail,
        "qty": ld.qty,
        "typ_ma_each": ld.typ_ma,
        "max_ma_each": ld.max_ma,
        "typ_ma": round(typ, 2),
        "worst_ma": round(worst, 2),
        "peak_ma": round(peak, 2),
        "source": ld.source,
    }
    return row, typ, worst, peak


def _budget_checks(r3: dict[str, float], usb: dict[str, float], limits: Limits) -> list[Check]:
    """The regulator's heat and current limit, and the USB port, each used up to the margin."""
    m = limits.margin
    return [
        Check(
            "3.3 V regulator heat (worst case, average)",
            r3["worst"],
            m * limits.thermal_ma,
            r3["worst"] <= m * limits.thermal_ma,
        ),
        Check(
            "3.3 V regulator current limit (worst case, peak)",
            r3["peak"],
            m * limits.ldo_current_limit_ma,
            r3["peak"] <= m * limits.ldo_current_limit_ma,
        ),
        Check(
            "USB 2.0 port at 5 V (worst case, average)",
            usb["worst"],
            m * limits.usb_ma,
            usb["worst"] <= m * limits.usb_ma,
        ),
    ]


def budget(
    loads: tuple[Load, ...] | list[Load] = LOADS,
    limits: Limits = Limits(),
    *,
    banks: list[int] | None = None,
    timing: ScanTiming | None = None,
) -> Budget:
    """The budget of `loads`. With `banks` (sensors per multiplexer bank) the switched sensors
    are powered one bank at a time, each for `timing.bank_on_us` of every scan period."""
    if banks is not None and timing is None:
        timing = ScanTiming()
    rows = []
    sums = {r: {"typ": 0.0, "worst": 0.0, "peak": 0.0} for r in (RAIL_3V3, RAIL_5V)}
    for ld in loads:
        row, typ, worst, peak = _load_row(ld, banks, timing)
        rows.append(row)
        s = sums[ld.rail]
        s["typ"] += typ
        s["worst"] += worst
        s["peak"] += peak
    r3, r5 = sums[RAIL_3V3], sums[RAIL_5V]
    usb = {
        "typ": r3["typ"] + limits.ldo_iq_typ_ma + r5["typ"],
        "worst": r3["worst"] + limits.ldo_iq_max_ma + r5["worst"],
        "peak": r3["peak"] + limits.ldo_iq_max_ma + r5["peak"],
    }
    checks = _budget_checks(r3, usb, limits)
    rnd = {k: round(v, 1) for k, v in r3.items()}
    return Budget(rows, rnd, {k: round(v, 1) for k, v in usb.items()}, checks)


# -- the switched supply ----------------------------------------------------------------------

# The switches as the pin map names them (hardware/pinmap.json signals hall_pwr_*, mux.power).
# Used to propose them for a map that has none; a map that has them is described from itself.
PROPOSAL_SIGNALS: dict[str, dict[str, Any]] = {
    "hall_pwr_a": {
        "gpio": 25,
        "mode": "out",
        "active": "low",
        "boot": "high",
        "function": "AO3401A P-MOSFET gate: 3.3 V of the bank A sensors (holes 1-4), low = on; "
        "10 kOhm pull-up holds it off through reset",
    },
    "hall_pwr_b": {
        "gpio": 5,
        "mode": "out",
        "active": "low",
        "boot": "high",
        "function": "AO3401A P-MOSFET gate: 3.3 V of the bank B sensors (holes 5-8), low = on; "
        "10 kOhm pull-up (GPIO 5's strapping default)",
    },
    "hall_pwr_c": {
        "gpio": 15,
        "mode": "out",
        "active": "low",
        "boot": "high",
        "function": "AO3401A P-MOSFET gate: 3.3 V of the bank C sensors (holes 9-10), low = on; "
        "10 kOhm pull-up (GPIO 15's strapping default)",
    },
}

SWITCH_PARTS: list[dict[str, Any]] = [
    {
        "qty_per_bank": 1,
        "part": "P-channel MOSFET, SOT-23 (on a SOT-23 to DIP adapter for perfboard)",
        "manufacturer": "Alpha & Omega Semiconductor",
        "mpn": "AO3401A",
        "why": "high-side switch per bank; VGS(th) -0.5 to -1.3 V, RDS(on) under 85 mOhm at "
        "VGS = -2.5 V (AO3401A datasheet), so a 3.3 V GPIO turns it fully on and 16 "
        "sensors at 10 mA drop under 14 mV",
    },
    {
        "qty_per_bank": 1,
        "part": "10 kOhm resistor, gate pull-up to 3.3 V",
        "manufacturer": "Yageo",
        "mpn": "CFR-25JB-52-10K",
        "why": "keeps every bank off while the ESP32 resets (its GPIOs float) and holds GPIO 5 "
        "and 15 at their strapping defaults",
    },
]


def is_switched(pinmap: dict[str, Any]) -> bool:
    """True when the pin map gives every multiplexer bank a supply switch (`mux.power`)."""
    power = pinmap.get("mux", {}).get("power")
    return isinstance(power, list) and len(power) == len(pinmap["mux"]["banks"]) > 0


def timing_of(pinmap: dict[str, Any]) -> ScanTiming:
    """The scan timing of a pin map: its settle time and (when switched) its power-on wait."""
    mux = pinmap["mux"]
    return ScanTiming(
        power_on_us=float(mux.get("power_on_us", ScanTiming.power_on_us)),
        settle_us=float(mux.get("settle_us", ScanTiming.settle_us)),
    )


def switched_supply(pinmap: dict[str, Any], timing: ScanTiming | None = None) -> dict[str, Any]:
    """The switched sensor supply of this pin map (or, for a map without one, the proposal):
    signals, parts, scan timing, what the firmware does."""
    t = timing or timing_of(pinmap)
    built = is_switched(pinmap)
    banks = pinmap_rules.bank_sizes(pinmap)
    names = pinmap["mux"]["banks"]
    if built:
        switches = list(pinmap["mux"]["power"])
        signals = {n: pinmap["signals"][n] for n in switches}
    else:
        switches = list(PROPOSAL_SIGNALS)
        signals = PROPOSAL_SIGNALS
    on = [t.bank_on_us(n) for n in banks]
    gpios = ", ".join(
        f"bank {chr(ord('A') + i)} on GPIO {signals[s]['gpio']}" for i, s in enumerate(switches)
    )
    return {
        "built": built,
        "summary": "Each multiplexer bank's sensors are powered only while that bank is read: "
        "a P-MOSFET high-side switch per bank, its gate on a GPIO (low = on), "
        f"{gpios}. At most one bank ({max(banks)} sensors) draws current at a time.",
        "signals": signals,
        "mux_power": {"banks": names, "power": switches, "power_on_us": t.power_on_us},
        "gpio_choice": "Besides the other signals, the free output-capable GPIOs are 0, 2, 5, "
        "12, 15 and 25. 25 is clean. 5 and 15 are strapping pins pulled up at "
        "reset; the gate pull-up holds them high, their default, and keeps the "
        "sensors off while the chip resets (pin map rule 'mux-power'). 0 (BOOT "
        "button), 2 (must be low for download mode) and 12 (high selects 1.8 V "
        "flash) are not usable this way.",
        "parts": [dict(p, qty=p["qty_per_bank"] * len(banks)) for p in SWITCH_PARTS],
        "timing": {
            "scan_period_us": t.period_ms * 1000,
            "power_on_us": t.power_on_us,
            "power_on_source": "TI DRV5055 datasheet: power-on time tON 175 us typ, 330 us max",
            "per_channel_us": t.settle_us + t.read_us,
            "per_channel_note": f"settle {t.settle_us:g} us (mux.settle_us) + select and ADC "
            f"read ~{t.read_us:g} us in MicroPython (estimate: measure with "
            "make bench)",
            "banks": [
                {"bank": b, "sensors": n, "on_us": round(u)}
                for b, n, u in zip(names, banks, on, strict=True)
            ],
            "scan_us": round(sum(on)),
            "budget_used": round(sum(on) / (t.period_ms * 1000), 3),
        },
        "firmware": [
            "pinmap.json: the hall_pwr_* signals, mux.power (one per bank, in the order of "
            "mux.banks) and mux.power_on_us",
            "firmware/board.py builds the switch pins with value=1 (off) and passes them to "
            "HallMux as power_pins",
            "HallMux.scan goes bank by bank: gate low, sleep_us(power_on_us), each of the "
            "bank's channels (only the select lines that change, settle, read), gate high",
            "calibration uses the same scan, so the switch's small voltage drop is part of "
            "every sensor's zero",
        ],
        "alternative": "One switch for all 40 sensors (one GPIO, no change of scan order): the "
        "average falls as much, but the peak stays at 40 sensors (400 mA max), "
        "drawn from the rail in one burst every scan.",
    }


def _scenario(b: Budget, note: str) -> dict[str, Any]:
    """One configuration's budget as power.json holds it."""
    return {
        "note": note,
        "rail_3v3_ma": b.rail_3v3,
        "usb_5v_ma": b.usb_5v,
        "checks": [
            {
                "what": c.what,
                "ma": round(c.value_ma, 1),
                "limit_ma": round(c.limit_ma, 1),
                "ok": c.ok,
            }
            for c in b.checks
        ],
        "fits": b.fits,
        "parts": b.rows,
    }


def _notes_and_verdict(built: bool, sensors: int, unswitched: Budget,
                       switched: Budget) -> tuple[tuple[str, str, str], str]:
    """What each configuration is (unswitched, switched, switched with Wi-Fi), and the verdict,
    for a board built with the bank switches or without."""
    if built:
        notes = (
            f"without the bank switches: all {sensors} sensors powered all the time",
            "as built: one bank of sensors powered at a time (mux.power in the pin map)",
            "as built, if a future firmware turned Wi-Fi on (it does not)",
        )
        ok_text = "fits" if switched.fits else "DOES NOT FIT"
        verdict = f"as built (sensors switched per bank) the board {ok_text}; " + (
            "without the switches it would not."
            if not unswitched.fits
            else "it would fit without them too."
        )
        return notes, verdict
    notes = (
        f"as built: all {sensors} sensors powered all the time",
        "proposal: one bank of sensors powered at a time",
        "the proposal if a future firmware turned Wi-Fi on (it does not)",
    )
    verdict = (
        "as built the board does not fit: " if not unswitched.fits else "as built it fits; "
    ) + (
        "the switched supply would."
        if switched.fits
        else "the switched supply would not either."
    )
    return notes, verdict


def _limits(limits: Limits) -> dict[str, Any]:
    """The limits as power.json holds them."""
    return {
        "usb_ma": limits.usb_ma,
        "usb_source": limits.usb_source,
        "regulator": "AMS1117-3.3 on the ESP32-DevKitC",
        "regulator_rated_ma": limits.ldo_rated_ma,
        "regulator_current_limit_ma": limits.ldo_current_limit_ma,
        "regulator_thermal_ma": round(limits.thermal_ma, 1),
        "regulator_thermal_basis": f"({limits.tj_max_c:g} C - {limits.ambient_c:g} C) / "
        f"({limits.theta_ja:g} C/W x ({limits.vin_max:g} V - "
        f"{limits.vout:g} V))",
        "regulator_source": limits.ldo_source,
        "margin": limits.margin,
    }


def report(pinmap: dict[str, Any], limits: Limits = Limits()) -> dict[str, Any]:
    """Everything `hardware/power.json` holds."""
    t = timing_of(pinmap)
    built = is_switched(pinmap)
    banks = pinmap_rules.bank_sizes(pinmap)
    sensors = pinmap["hall"]["holes"] * pinmap["hall"]["sensors_per_hole"]
    loads = tuple(replace(ld, qty=sensors) if ld.switched else ld for ld in LOADS)
    unswitched = budget(loads, limits)
    switched = budget(loads, limits, banks=banks, timing=t)
    with_radio = budget((*loads, RADIO), limits, banks=banks, timing=t)
    notes, verdict = _notes_and_verdict(built, sensors, unswitched, switched)
    return {
        "about": "Power budget of the upref board, computed by `python -m upref.hardware power` "
        "(host/upref/hardware/power.py) from the pin map. Currents in mA; typ = "
        "typical average, worst = every part at its datasheet maximum (average), "
        "peak = worst instant. A configuration fits when every worst case stays "
        f"under {limits.margin:.0%} of its limit. `as_built` names the configuration "
        "the pin map describes.",
        "limits": _limits(limits),
        "as_built": "switched" if built else "unswitched",
        "switched": _scenario(switched, notes[1]),
        "unswitched": _scenario(unswitched, notes[0]),
        "switched_with_wifi": _scenario(with_radio, notes[2]),
        "verdict": verdict,
        "switched_supply": switched_supply(pinmap, t),
    }


def to_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
