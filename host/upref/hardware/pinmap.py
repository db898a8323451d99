"""Checks for `hardware/pinmap.json`: would this wiring work on an ESP32-WROOM-32 DevKitC?

`validate(pinmap)` returns one message per problem (an empty list means the map is fine); every
message names the signal, its GPIO and why. `check(pinmap)` returns the same problems as
`Problem` records, with the rule that found each one. The rules, with their reasons (ESP32
datasheet, "Pin Definitions" and "Strapping Pins"; ESP32-WROOM-32 datasheet, "Pin Definitions";
ESP32-DevKitC V4 user guide):

- ``structure``: the map has a ``signals`` object; each signal has an integer ``gpio`` and a
  ``mode`` of ``in``, ``out``, ``adc`` or ``pwm``; ``pull`` is ``up``/``down``, ``active`` is
  ``low``/``high``, ``boot`` is ``high``/``low``/``float`` when present.
- ``required``: every signal the firmware builds (``firmware/board.py``) exists.
- ``role``: those signals have the mode the firmware drives them with (the SPI clock and data
  out, MISO in, chip select and reset out, the mux select lines out, the button in, the LED data
  out, the buzzer PWM).
- ``no-such-gpio``: the GPIO is one the WROOM-32 module brings out (0-5, 12-19, 21-23, 25-27,
  32-36, 39; 6-11 and 1/3 have rules of their own).
- ``flash-pin``: GPIO 6-11 run the module's SPI flash; touching them crashes the chip.
- ``uart0``: GPIO 1 and 3 are UART0, the USB serial port the link and the REPL use.
- ``adc1``: an ``adc`` signal is on ADC1 (GPIO 32-39). ADC2 cannot be read while Wi-Fi runs
  (the Wi-Fi driver takes it over: Espressif's ESP32 ADC documentation), and the other pins have
  no ADC at all.
- ``input-only``: GPIO 34-39 are inputs only; an ``out`` or ``pwm`` signal there never drives.
- ``no-pull``: GPIO 34-39 have no internal pull resistors, so ``pull`` (which the firmware turns
  into ``Pin.PULL_UP``/``PULL_DOWN``) does nothing there: fit an external resistor instead.
- ``strapping``: the ESP32 samples GPIO 0, 2, 5, 12 and 15 at reset. ``boot`` says what the
  attached circuit holds the pin at while the chip resets (default ``float``: a GPIO is an input
  during reset, so an output the firmware drives later does not count):

  * GPIO 0 low selects the serial download mode, and the DevKitC's BOOT button and its
    auto-program transistor pull it to GND: no ``boot: low``, and no ``out``/``pwm`` signal
    (the button would short the driven pin).
  * GPIO 2 must be low or floating for the download mode (esptool, ``make flash``): no
    ``boot: high``.
  * GPIO 12 (MTDI) high selects 1.8 V for the flash, and the WROOM-32's 3.3 V flash then fails:
    no ``boot: high``, and not a SPI MISO (an SPI device may hold it high while it resets).
  * GPIO 15 (MTDO) low silences the ROM's boot log on the USB port, the first thing to look at
    when a board does not start: no ``boot: low``.
  * GPIO 5 sets the SDIO slave timing and is pulled up at reset: only for an ``out`` signal
    that idles high (``active: low``, such as a chip select or an enable) and never ``boot: low``.

  The sensor supply switches ``hall_pwr_b`` (GPIO 5) and ``hall_pwr_c`` (GPIO 15) sit on
  strapping pins for one reason only: each is the gate of a P-MOSFET with a 10 kOhm pull-up to
  3.3 V (``active: low``, ``boot: high``), so through reset the pin is held high, which is both
  the pin's strapping default and "sensors off". The ``mux-power`` rule insists on exactly
  that; an active-high switch, or one without its pull-up, would not pass there.
- ``duplicate-gpio``: no GPIO carries two signals.
- ``spi``: ``spi.sck``/``mosi``/``miso`` name three different signals: two outputs and an input.
- ``mux-select``: ``mux.select`` lists 4 different ``out`` signals (S0..S3, shared by every bank).
- ``mux-banks``: ``mux.banks`` lists different ``adc`` signals, one per multiplexer.
- ``mux-power`` (optional: a board without switched sensor supplies leaves it out):
  ``mux.power`` lists one supply switch per bank, in the order of ``mux.banks``, each a
  different ``out`` signal with ``active: low`` (a P-MOSFET conducts with its gate low) and
  ``boot: high`` (its gate pull-up keeps the bank off while the ESP32 resets and its GPIOs
  float); ``mux.power_on_us`` is at least the DRV5055's power-on time (330 us max), and
  every bank's power-on wait plus every sensor's settle and read fits in one scan period
  (10 ms).
- ``hall-channels``: ``hall.channels`` has ``holes * sensors_per_hole`` entries ``[bank,
  channel]`` with ``0 <= bank < len(mux.banks)``, ``0 <= channel < 16``, no entry twice, and
  every bank of ``mux.banks`` used. ``mux.ref`` (optional), the reference divider, is
  ``{"bank", "channel"}`` on a channel no sensor uses, on a bank with a supply switch when the
  supplies are switched (the divider hangs on that bank's switched supply).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upref import paths

MODES = ("in", "out", "adc", "pwm")
FLASH_PINS = frozenset(range(6, 12))
UART0_PINS = {1: "TXD0", 3: "RXD0"}
INPUT_ONLY = frozenset(range(34, 40))
# GPIOs the ESP32-WROOM-32 module has pads for (flash and UART0 pins included; 37/38 are not
# brought out, 20, 24 and 28-31 do not exist)
MODULE_GPIOS = frozenset(
    [
        0,
        1,
        2,
        3,
        4,
        5,
        *range(6, 12),
        *range(12, 20),
        21,
        22,
        23,
        25,
        26,
        27,
        32,
        33,
        34,
        35,
        36,
        39,
    ]
)
ADC1 = {36: 0, 37: 1, 38: 2, 39: 3, 32: 4, 33: 5, 34: 6, 35: 7}
ADC2 = {4: 0, 0: 1, 2: 2, 15: 3, 13: 4, 12: 5, 14: 6, 27: 7, 25: 8, 26: 9}
STRAPPING = frozenset([0, 2, 5, 12, 15])
MUX_CHANNELS = 16
MUX_SELECT_LINES = 4
HALL_POWER_ON_US = 330  # TI DRV5055 datasheet: power-on time tON 175 us typ, 330 us max
SCAN_PERIOD_US = 10_000  # the firmware scans every 10 ms (firmware/app.py SCAN_MS)
READ_US = 40  # select lines and one ADC read in MicroPython (estimate; `make bench`)

# signal -> the mode the firmware uses it in (firmware/board.py)
REQUIRED: dict[str, str] = {
    "spi_sck": "out",
    "spi_mosi": "out",
    "spi_miso": "in",
    "rfid_cs": "out",
    "rfid_rst": "out",
    "mux_s0": "out",
    "mux_s1": "out",
    "mux_s2": "out",
    "mux_s3": "out",
    "button": "in",
    "led_data": "out",
    "buzzer": "pwm",
}

RULES = (
    "structure",
    "required",
    "role",
    "no-such-gpio",
    "flash-pin",
    "uart0",
    "adc1",
    "input-only",
    "no-pull",
    "strapping",
    "duplicate-gpio",
    "spi",
    "mux-select",
    "mux-banks",
    "mux-power",
    "hall-channels",
)


@dataclass(frozen=True)
class Problem:
    """One broken rule: which rule, the signal (or map section) and GPIO concerned, and why."""

    rule: str
    where: str
    gpio: int | None
    why: str

    def __str__(self) -> str:
        pin = f" (GPIO {self.gpio})" if self.gpio is not None else ""
        return f"{self.where}{pin}: {self.why} [{self.rule}]"


def validate(pinmap: Any) -> list[str]:
    """Every problem of a parsed pin map, as messages; empty when the map is fine."""
    return [str(p) for p in check(pinmap)]


def load_and_validate(path: Path | str | None = None) -> list[str]:
    """Read a pin map (default: the one upref ships, `paths.pinmap_path()`) and validate it.
    An unreadable file or bad JSON is reported as a problem, not raised."""
    p = Path(path) if path is not None else paths.pinmap_path()
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        return [f"{p}: cannot read the pin map: {exc.strerror or exc} [structure]"]
    except json.JSONDecodeError as exc:
        return [f"{p}: not valid JSON: {exc} [structure]"]
    return validate(data)


def check(pinmap: Any) -> list[Problem]:
    """Every problem of a parsed pin map, as `Problem` records (see the module docstring)."""
    out: list[Problem] = []
    if not isinstance(pinmap, dict) or not isinstance(pinmap.get("signals"), dict):
        return [Problem("structure", "pin map", None, "needs a 'signals' object")]
    signals: dict[str, dict[str, Any]] = {}
    for name, sig in pinmap["signals"].items():
        problem = _structure(name, sig)
        if problem:
            out.append(problem)
        else:
            signals[name] = sig
    out += _required(pinmap["signals"], signals)
    users: dict[int, list[str]] = {}
    for name, sig in signals.items():
        out += _pin_rules(name, sig, pinmap)
        users.setdefault(sig["gpio"], []).append(name)
    for gpio, names in sorted(users.items()):
        if len(names) > 1:
            out.append(
                Problem(
                    "duplicate-gpio",
                    " and ".join(sorted(names)),
                    gpio,
                    "one GPIO cannot carry two signals",
                )
            )
    out += _spi(pinmap.get("spi"), signals)
    out += _mux(pinmap.get("mux"), signals)
    out += _mux_power(pinmap.get("mux"), pinmap.get("hall"), signals)
    out += _hall(pinmap.get("hall"), pinmap.get("mux"))
    return out


def _structure(name: str, sig: Any) -> Problem | None:
    if not isinstance(sig, dict):
        return Problem("structure", name, None, "a signal must be an object with 'gpio' and 'mode'")
    gpio = sig.get("gpio")
    if not isinstance(gpio, int) or isinstance(gpio, bool):
        return Problem("structure", name, None, f"'gpio' must be an integer, not {gpio!r}")
    if sig.get("mode") not in MODES:
        return Problem(
            "structure",
            name,
            gpio,
            f"'mode' must be one of {', '.join(MODES)}, not {sig.get('mode')!r}",
        )
    for key, allowed in (
        ("pull", ("up", "down")),
        ("active", ("low", "high")),
        ("boot", ("high", "low", "float")),
    ):
        if key in sig and sig[key] not in allowed:
            return Problem(
                "structure",
                name,
                gpio,
                f"'{key}' must be one of {', '.join(allowed)}, not {sig[key]!r}",
            )
    return None


def _required(raw: dict[str, Any], signals: dict[str, dict[str, Any]]) -> list[Problem]:
    out = []
    for name, mode in REQUIRED.items():
        if name not in raw:
            out.append(
                Problem(
                    "required",
                    name,
                    None,
                    "missing: the firmware builds this signal (firmware/board.py)",
                )
            )
        elif name in signals and signals[name]["mode"] != mode:
            out.append(
                Problem(
                    "role",
                    name,
                    signals[name]["gpio"],
                    f"the firmware uses it as '{mode}', the map says '{signals[name]['mode']}'",
                )
            )
    return out


def _pin_rules(name: str, sig: dict[str, Any], pinmap: dict[str, Any]) -> list[Problem]:
    gpio: int = sig["gpio"]
    mode: str = sig["mode"]
    out: list[Problem] = []

    def bad(rule: str, why: str) -> None:
        out.append(Problem(rule, name, gpio, why))

    if gpio in FLASH_PINS:
        bad("flash-pin", "GPIO 6-11 run the module's SPI flash; using one crashes the chip")
        return out
    if gpio in UART0_PINS:
        bad(
            "uart0",
            f"GPIO {gpio} is UART0 {UART0_PINS[gpio]}, the USB serial port of the "
            "link and the REPL",
        )
        return out
    if gpio not in MODULE_GPIOS:
        bad(
            "no-such-gpio",
            "the ESP32-WROOM-32 brings out GPIO 0-5, 12-19, 21-23, 25-27, 32-36 and 39 only",
        )
        return out
    if mode == "adc" and gpio not in ADC1:
        if gpio in ADC2:
            bad(
                "adc1",
                f"an analog input must be on ADC1 (GPIO 32-39); GPIO {gpio} is "
                f"ADC2_CH{ADC2[gpio]}, which cannot be read while Wi-Fi is on",
            )
        else:
            bad("adc1", f"an analog input must be on ADC1 (GPIO 32-39); GPIO {gpio} has no ADC")
    if gpio in INPUT_ONLY:
        if mode in ("out", "pwm"):
            bad("input-only", f"GPIO 34-39 are inputs only and cannot drive a '{mode}' signal")
        if "pull" in sig:
            bad(
                "no-pull",
                f"GPIO 34-39 have no internal pull resistors, so pull "
                f"'{sig['pull']}' does nothing: fit an external resistor and drop "
                "'pull'",
            )
    if gpio in STRAPPING:
        why = _strapping(gpio, name, sig, pinmap)
        if why:
            bad("strapping", why)
    return out


def _strapping(gpio: int, name: str, sig: dict[str, Any], pinmap: dict[str, Any]) -> str:
    mode = sig["mode"]
    boot = sig.get("boot", "float")
    if gpio == 0:
        if boot == "low":
            return "strapping pin: GPIO 0 low at reset starts the serial download mode, not the firmware"
        if mode in ("out", "pwm"):
            return (
                "strapping pin: the DevKitC's BOOT button and auto-program circuit pull "
                "GPIO 0 to GND, so an output there can be shorted and a low at reset enters "
                "the download mode"
            )
    elif gpio == 2:
        if boot == "high":
            return (
                "strapping pin: GPIO 2 must be low or floating at reset, or the download "
                "mode (esptool, make flash) cannot start"
            )
    elif gpio == 12:
        if boot == "high":
            return (
                "strapping pin: GPIO 12 high at reset selects 1.8 V for the flash and the "
                "WROOM-32 (3.3 V flash) does not boot"
            )
        spi = pinmap.get("spi")
        if isinstance(spi, dict) and spi.get("miso") == name:
            return (
                "strapping pin: an SPI device may hold MISO high while the chip resets, "
                "and GPIO 12 high selects 1.8 V flash, so the WROOM-32 does not boot"
            )
    elif gpio == 15:
        if boot == "low":
            return (
                "strapping pin: GPIO 15 low at reset silences the ROM boot log on the USB "
                "port, the first thing to read when a board does not start"
            )
    elif gpio == 5:
        if boot == "low":
            return "strapping pin: GPIO 5 must not be held low at reset (SDIO slave timing)"
        if mode != "out" or sig.get("active") != "low":
            return (
                "strapping pin: GPIO 5 is pulled up at reset (SDIO slave timing); use it "
                "only for an output that idles high ('active': 'low', e.g. a chip select)"
            )
    return ""


def _spi(spi: Any, signals: dict[str, dict[str, Any]]) -> list[Problem]:
    if not isinstance(spi, dict):
        return [Problem("spi", "spi", None, "needs an 'spi' object naming sck, mosi and miso")]
    out = []
    names = [spi.get(k) for k in ("sck", "mosi", "miso")]
    for key, want in (("sck", "out"), ("mosi", "out"), ("miso", "in")):
        name = spi.get(key)
        if name not in signals:
            out.append(Problem("spi", f"spi.{key}", None, f"names no signal of the map: {name!r}"))
        elif signals[name]["mode"] != want:
            out.append(
                Problem(
                    "spi",
                    f"spi.{key} = {name}",
                    signals[name]["gpio"],
                    f"SPI {key.upper()} must be an '{want}' signal, not '{signals[name]['mode']}'",
                )
            )
    if len(set(map(str, names))) != len(names):
        out.append(
            Problem("spi", "spi", None, f"sck, mosi and miso must be three signals: {names}")
        )
    return out


def _mux(mux: Any, signals: dict[str, dict[str, Any]]) -> list[Problem]:
    if not isinstance(mux, dict):
        return [
            Problem("mux-select", "mux", None, "needs a 'mux' object with 'select' and 'banks'")
        ]
    out = []
    select = mux.get("select")
    if not isinstance(select, list) or len(select) != MUX_SELECT_LINES:
        out.append(
            Problem(
                "mux-select",
                "mux.select",
                None,
                f"the CD74HC4067 has {MUX_SELECT_LINES} select lines S0..S3; "
                f"the map lists {select!r}",
            )
        )
    else:
        for i, name in enumerate(select):
            if name not in signals or signals[name]["mode"] != "out":
                out.append(
                    Problem(
                        "mux-select",
                        f"mux.select S{i} = {name}",
                        signals[name]["gpio"] if name in signals else None,
                        "must name an 'out' signal of the map",
                    )
                )
        if len(set(map(str, select))) != len(select):
            out.append(
                Problem("mux-select", "mux.select", None, f"a line is listed twice: {select}")
            )
    banks = mux.get("banks")
    if not isinstance(banks, list) or not banks:
        out.append(
            Problem("mux-banks", "mux.banks", None, "must list one ADC signal per multiplexer")
        )
    else:
        for i, name in enumerate(banks):
            if name not in signals or signals[name]["mode"] != "adc":
                out.append(
                    Problem(
                        "mux-banks",
                        f"mux.banks[{i}] = {name}",
                        signals[name]["gpio"] if name in signals else None,
                        "each multiplexer's common pin needs its own 'adc' signal",
                    )
                )
        if len(set(map(str, banks))) != len(banks):
            out.append(Problem("mux-banks", "mux.banks", None, f"a bank is listed twice: {banks}"))
    return out


def _power_problem(where: str, why: str, gpio: int | None = None) -> Problem:
    return Problem("mux-power", where, gpio, why)


def _power_switch(i: int, name: Any, signals: dict[str, dict[str, Any]]) -> list[Problem]:
    """The problems of mux.power[i]: a P-MOSFET gate the firmware drives low, pulled up."""
    where = f"mux.power[{i}] = {name}"
    sig = signals.get(name) if isinstance(name, str) else None
    if sig is None:
        return [_power_problem(where, "names no signal of the map")]
    out = []
    gpio = sig["gpio"]
    if sig["mode"] != "out":
        out.append(_power_problem(
            where,
            f"a supply switch is a gate the firmware drives: needs an 'out' "
            f"signal, not '{sig['mode']}'",
            gpio,
        ))
    if sig.get("active") != "low":
        out.append(_power_problem(
            where, "the P-MOSFET switch conducts while its gate is low: 'active' must be 'low'",
            gpio,
        ))
    if sig.get("boot") != "high":
        out.append(_power_problem(
            where,
            "needs its 10 kOhm gate pull-up ('boot': 'high'): without it "
            "the bank's sensors may be on while the ESP32 resets (and GPIO 5 or "
            "15 leave their strapping default)",
            gpio,
        ))
    return out


def _power_on_time(mux: dict[str, Any], hall: Any, banks: list[Any]) -> list[Problem]:
    """The problems of mux.power_on_us: long enough for the sensors, short enough for a scan."""
    on_us = mux.get("power_on_us")
    if not isinstance(on_us, (int, float)) or isinstance(on_us, bool):
        return [_power_problem(
            "mux.power_on_us", f"needs the wait after switching a bank on, in us, not {on_us!r}"
        )]
    if on_us < HALL_POWER_ON_US:
        return [_power_problem(
            "mux.power_on_us",
            f"{on_us:g} us is shorter than the DRV5055's power-on "
            f"time ({HALL_POWER_ON_US} us max): the first reads of a bank would be "
            "garbage",
        )]
    settle = mux.get("settle_us", 10)
    n = (
        len(hall["channels"])
        if isinstance(hall, dict) and isinstance(hall.get("channels"), list)
        else 0
    )
    scan = len(banks) * on_us + n * (settle + READ_US) if isinstance(settle, int) else 0
    if scan > SCAN_PERIOD_US:
        return [_power_problem(
            "mux.power_on_us",
            f"{len(banks)} banks x {on_us:g} us plus {n} "
            f"sensors x {settle + READ_US} us is {scan:g} us: more than the "
            f"{SCAN_PERIOD_US} us of one scan",
        )]
    return []


def _mux_power(mux: Any, hall: Any, signals: dict[str, dict[str, Any]]) -> list[Problem]:
    if not isinstance(mux, dict) or ("power" not in mux and "power_on_us" not in mux):
        return []  # sensors powered all the time: allowed, the power budget says what it costs
    banks = mux.get("banks") if isinstance(mux.get("banks"), list) else []
    power = mux.get("power")
    if not isinstance(power, list) or len(power) != len(banks):
        return [
            _power_problem(
                "mux.power",
                f"needs one supply switch per bank of mux.banks ({len(banks)}), in the same "
                f"order; the map lists {power!r}",
            )
        ]
    out = []
    for i, name in enumerate(power):
        out += _power_switch(i, name, signals)
    if len(set(map(str, power))) != len(power):
        out.append(_power_problem("mux.power", f"a switch is listed twice: {power}"))
    return out + _power_on_time(mux, hall, banks)


def _hall_problem(why: str) -> Problem:
    return Problem("hall-channels", "hall.channels", None, why)


def _hall_channels(channels: list[Any], n_banks: int
                   ) -> tuple[list[Problem], dict[tuple[int, int], int], set[int]]:
    """The problems of each sensor's [bank, channel]; which sensor has each (bank, channel), and
    the banks used."""
    out = []
    seen: dict[tuple[int, int], int] = {}
    used: set[int] = set()
    for k, entry in enumerate(channels):
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in entry)
        ):
            out.append(_hall_problem(f"sensor {k}: entry must be [bank, channel], not {entry!r}"))
            continue
        bank, ch = entry
        if not 0 <= bank < n_banks:
            out.append(_hall_problem(
                f"sensor {k}: bank {bank}, but mux.banks has {n_banks} (0..{n_banks - 1})"))
        if not 0 <= ch < MUX_CHANNELS:
            out.append(_hall_problem(
                f"sensor {k}: channel {ch}, but a CD74HC4067 has channels 0..{MUX_CHANNELS - 1}"))
        if (bank, ch) in seen:
            out.append(_hall_problem(
                f"sensors {seen[(bank, ch)]} and {k} both on bank {bank} channel {ch}"))
        seen.setdefault((bank, ch), k)
        used.add(bank)
    return out, seen, used


def _hall_ref(ref: Any, n_banks: int, seen: dict[tuple[int, int], int]) -> list[Problem]:
    """The problems of mux.ref, the reference channel: it exists and no sensor has it."""
    if ref is None:
        return []
    if not isinstance(ref, dict) or not all(
        isinstance(ref.get(x), int) and not isinstance(ref.get(x), bool) for x in ("bank", "channel")
    ):
        return [_hall_problem(f"mux.ref must be {{\"bank\": b, \"channel\": c}}, not {ref!r}")]
    if not (0 <= ref["bank"] < n_banks and 0 <= ref["channel"] < MUX_CHANNELS):
        return [_hall_problem(f"mux.ref: bank {ref['bank']} channel {ref['channel']} does not exist")]
    if (ref["bank"], ref["channel"]) in seen:
        return [_hall_problem(
            f"mux.ref: bank {ref['bank']} channel {ref['channel']} is sensor "
            f"{seen[(ref['bank'], ref['channel'])]}'s: the reference needs a free channel"
        )]
    return []


def _hall(hall: Any, mux: Any) -> list[Problem]:
    if not isinstance(hall, dict):
        return [_hall_problem("needs a 'hall' object with holes, sensors_per_hole and channels")]
    holes, per_hole, channels = (
        hall.get("holes"),
        hall.get("sensors_per_hole"),
        hall.get("channels"),
    )
    if (
        not isinstance(holes, int)
        or not isinstance(per_hole, int)
        or not isinstance(channels, list)
    ):
        return [_hall_problem("hall needs integer 'holes' and 'sensors_per_hole' and a 'channels' list")]
    n_banks = (
        len(mux["banks"]) if isinstance(mux, dict) and isinstance(mux.get("banks"), list) else 0
    )
    out = []
    if len(channels) != holes * per_hole:
        out.append(_hall_problem(
            f"{len(channels)} entries, but {holes} holes x {per_hole} sensors "
            f"need {holes * per_hole}"
        ))
    problems, seen, used = _hall_channels(channels, n_banks)
    out += problems
    out += _hall_ref(mux.get("ref") if isinstance(mux, dict) else None, n_banks, seen)
    if n_banks and not out and len(used) != n_banks:
        out.append(_hall_problem(
            f"the sensors use {len(used)} banks, but mux.banks lists {n_banks}: "
            "a multiplexer with no sensor (or a missing bank)"
        ))
    return out


def signal_table(pinmap: dict[str, Any]) -> list[tuple[str, int, str, str]]:
    """(signal, gpio, mode, function) for every signal, in GPIO order: for the docs and the
    diagram."""
    rows = [
        (name, sig["gpio"], sig["mode"], sig.get("function", ""))
        for name, sig in pinmap["signals"].items()
    ]
    return sorted(rows, key=lambda r: (r[1], r[0]))


def bank_sizes(pinmap: dict[str, Any]) -> list[int]:
    """How many sensors each multiplexer bank carries, in mux.banks order."""
    n = len(pinmap["mux"]["banks"])
    sizes = [0] * n
    for bank, _ in pinmap["hall"]["channels"]:
        sizes[bank] += 1
    return sizes
