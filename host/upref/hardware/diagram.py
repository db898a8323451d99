"""The wiring diagram, drawn from the pin map with schemdraw, so it cannot disagree with it.

`wiring_svg(pinmap)` returns the SVG text: the ESP32 DevKitC on the left with every signal of
the pin map on its own pin (signal name and GPIO), each wired to its part on the right: the
MFRC522 on the SPI bus, the shared select lines S0..S3 to every multiplexer, each
multiplexer's common pin to its ADC1 input with the sensor (hole and position) on each of its
channels, each bank's sensor supply switch (a P-MOSFET with its gate pull-up), the button to GND, the WS2812B status LED and the buzzer's transistor. A signal the
diagram has no part for (a new one) still gets its pin and a labelled stub. Wires run in
lanes ordered like the pins, so the SPI and the single-part signals never cross.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import schemdraw
import schemdraw.elements as elm

LANE = 0.55  # between neighbouring vertical wire lanes
ESP_W = 5.0
FONT = 11


@dataclass
class _Net:
    name: str
    gpio: int
    pin: tuple[float, float] = (0.0, 0.0)
    targets: list[tuple[float, float]] = field(default_factory=list)
    note: str = ""


def _sensor_label(pinmap: dict[str, Any], bank: int, ch: int) -> str:
    per_hole = pinmap["hall"]["sensors_per_hole"]
    for k, (b, c) in enumerate(pinmap["hall"]["channels"]):
        if b == bank and c == ch:
            return f"C{ch}: hole {k // per_hole + 1} P{k % per_hole + 1}"
    ref = pinmap["mux"].get("ref")
    if ref and ref["bank"] == bank and ref["channel"] == ch:
        return f"C{ch}: reference, VCC/2"
    return f"C{ch}: unused, to GND"


def _bank_holes(pinmap: dict[str, Any], bank: int) -> str:
    per_hole = pinmap["hall"]["sensors_per_hole"]
    holes = sorted(
        {k // per_hole + 1 for k, (b, _) in enumerate(pinmap["hall"]["channels"]) if b == bank}
    )
    if holes and holes == list(range(holes[0], holes[-1] + 1)) and len(holes) > 1:
        return f"holes {holes[0]}-{holes[-1]}"
    return "hole" + ("s " if len(holes) > 1 else " ") + ", ".join(map(str, holes))


@dataclass
class _Sheet:
    """The drawing under way: the pin map, every net by signal name (in lane order), the x of the
    parts' wired edge and the top of the next part, going down."""

    d: Any
    pinmap: dict[str, Any]
    nets: dict[str, _Net]
    part_x: float
    y: float = 1.5

    def wire(self, name: str, at: Any) -> None:
        """A part's pin `at` is on net `name` (if the pin map has that signal)."""
        if name in self.nets:
            self.nets[name].targets.append(tuple(at))  # type: ignore[arg-type]

    def free(self, name: str) -> tuple[float, float]:
        """Where a part of net `name` starts: at the parts' edge, at the current height."""
        t = (self.part_x, self.y)
        self.nets[name].targets.append(t)
        return t


def _order(pinmap: dict[str, Any]) -> list[str]:
    """The signals in lane order: the SPI, the reader, the multiplexers, the single parts, then
    any other signal by GPIO."""
    sig, spi, mux = pinmap["signals"], pinmap["spi"], pinmap["mux"]
    order: list[str] = []
    for name in (spi["sck"], spi["mosi"], spi["miso"], "rfid_cs", "rfid_rst", *mux["select"],
                 *mux["banks"], *(mux.get("power") or []), "button", "led_data", "buzzer"):
        if name in sig and name not in order:
            order.append(name)
    return order + sorted((n for n in sig if n not in order), key=lambda n: sig[n]["gpio"])


def _esp(d: Any, pinmap: dict[str, Any], order: list[str]) -> Any:
    """The DevKitC, every signal on its own pin on the right, the supplies on the left."""
    sig = pinmap["signals"]
    n_pins = len(order)
    esp = (
        elm.Ic(
            pins=[
                elm.IcPin(name=f"GPIO{sig[n]['gpio']}", side="right", anchorname=f"s_{n}")
                for n in reversed(order)
            ]
            + [
                elm.IcPin(name=nm, side="left", anchorname=a)
                for nm, a in (("GND", "gnd"), ("5V", "v5"), ("3V3", "v33"))
            ],
            pinspacing=1.0,
            edgepadH=0.8,
            size=(ESP_W, n_pins + 1.6),
            lsize=FONT,
            plblsize=FONT - 1,
        )
        .theta(0)
        .at((0, -(n_pins + 1.6)))
        .label("ESP32-DevKitC\n(ESP32-WROOM-32)", loc="top", fontsize=FONT + 2)
    )
    d.add(esp)
    d.add(elm.Line().at(esp.v33).left(0.8))
    d.add(elm.Vdd().label("3.3 V", fontsize=FONT - 1))
    d.add(elm.Line().at(esp.v5).left(0.8))
    d.add(elm.Vdd().label("5 V", fontsize=FONT - 1))
    d.add(elm.Line().at(esp.gnd).left(0.8))
    d.add(elm.Ground())
    return esp


def _ic(left: list[str], right: list[str], size: tuple[float, float], **kw: Any) -> Any:
    """An IC with pins `left` (anchors l0.., top first) and `right` (anchors c0.., top first),
    VCC on top and GND below."""
    pins = [elm.IcPin(name=p, side="left", anchorname=f"l{i}")
            for i, p in reversed(list(enumerate(left)))]
    pins += [elm.IcPin(name=p, side="right", anchorname=f"c{i}")
             for i, p in reversed(list(enumerate(right)))]
    pins += [elm.IcPin(name=kw.pop("vcc", "VCC"), side="top", anchorname="vcc"),
             elm.IcPin(name="GND", side="bottom", anchorname="gnd")]
    return elm.Ic(pins=pins, pinspacing=1.0, edgepadH=0.8, size=size, lsize=FONT, leadlen=0.6,
                  **kw)


def _rfid(s: _Sheet) -> None:
    """The MFRC522 module on the SPI bus, its IRQ unconnected."""
    spi = s.pinmap["spi"]
    pins = [("SCK", spi["sck"]), ("MOSI", spi["mosi"]), ("MISO", spi["miso"]),
            ("SDA (NSS)", "rfid_cs"), ("RST", "rfid_rst")]
    h = len(pins) + 1.6
    rfid = _ic([p for p, _ in pins], ["IRQ"], (4.0, h), vcc="3.3V")
    rfid.theta(0).at((s.part_x + 0.6, s.y - h - 1.0)).label(
        "MFRC522 module (RC522)", loc="top", fontsize=FONT
    )
    s.d.add(rfid)
    s.d.add(elm.Vdd().at(rfid.vcc).label("3.3 V", fontsize=FONT - 1))
    s.d.add(elm.Ground().at(rfid.gnd))
    s.d.add(elm.NoConnect().at(rfid["c0"]))
    for i, (_, n) in enumerate(pins):
        s.wire(n, rfid[f"l{i}"])
    s.y -= h + 3.5


def _muxes(s: _Sheet) -> None:
    """Each multiplexer: the shared selects, its common pin, EN to GND, a sensor per channel."""
    mux = s.pinmap["mux"]
    for b, bank in enumerate(mux["banks"]):
        left = [(f"S{i}", sel) for i, sel in enumerate(mux["select"])] + [("SIG (COM)", bank),
                                                                          ("EN", "")]
        h = 16 + 1.6
        channels = [_sensor_label(s.pinmap, b, ch) for ch in range(16)]
        m = _ic([p for p, _ in left], channels, (6.5, h), plblsize=FONT - 1)
        m.theta(0).at((s.part_x + 0.6, s.y - h - 1.0)).label(
            f"CD74HC4067 bank {chr(ord('A') + b)} ({bank})", loc="top", fontsize=FONT
        )
        s.d.add(m)
        s.d.add(elm.Vdd().at(m.vcc).label("3.3 V", fontsize=FONT - 1))
        s.d.add(elm.Ground().at(m.gnd))
        s.d.add(elm.Line().at(m[f"l{len(left) - 1}"]).left(0.4))
        s.d.add(elm.Ground())
        for i, (_, n) in enumerate(left):
            s.wire(n, m[f"l{i}"])
        s.y -= h + 3.5


def _supply_switches(s: _Sheet) -> None:
    """Each bank's sensor supply: GPIO to the gate of a P-MOSFET with a 10 kOhm pull-up to
    3.3 V, source on 3.3 V, drain to the VCC of that bank's sensors."""
    d, power = s.d, s.pinmap["mux"].get("power") or []
    if power:
        s.y -= 1.5  # room for the pull-ups above the first gate
    for b, name in enumerate(power):
        if name not in s.nets:
            continue
        d.add(elm.Line().at(s.free(name)).right(1.2))
        gate = d.here
        d.add(elm.Dot())
        d.add(elm.Resistor().up().length(2.0).label("10 kΩ", loc="bottom", fontsize=FONT - 1))
        d.add(elm.Vdd().label("3.3 V", fontsize=FONT - 1))
        d.add(elm.Line().at(gate).right(1.0))
        bank = chr(ord("A") + b)
        q = elm.PFet().reverse().anchor("gate").label(f"AO3401A\nbank {bank}", loc="right",
                                                      fontsize=FONT - 1)
        d.add(q)
        d.add(elm.Line().at(q.source).up(0.8))
        d.add(elm.Vdd().label("3.3 V", fontsize=FONT - 1))
        d.add(elm.Line().at(q.drain).down(0.8))
        d.add(elm.Dot(open=True).label(
            f"VCC of every bank {bank} sensor ({_bank_holes(s.pinmap, b)})", loc="right",
            fontsize=FONT - 1))
        s.y -= 5.0


def _button(s: _Sheet) -> None:
    """The button: GPIO - switch - GND."""
    if "button" in s.nets:
        s.d.add(elm.Button().at(s.free("button")).right().label("button (B3F-1000)",
                                                               fontsize=FONT - 1))
        s.d.add(elm.Ground())
        s.y -= 4.0


def _led(s: _Sheet) -> None:
    """The status LED: GPIO - 330 Ohm - DIN; VDD from 5 V through a 1N4148."""
    if "led_data" not in s.nets:
        return
    d = s.d
    d.add(elm.Resistor().at(s.free("led_data")).right().label("330 Ω", fontsize=FONT - 1))
    led = elm.Ic(
        pins=[elm.IcPin(name="DIN", side="left", anchorname="din"),
              elm.IcPin(name="DOUT", side="right", anchorname="dout"),
              elm.IcPin(name="VDD", side="top", anchorname="vdd"),
              elm.IcPin(name="GND", side="bottom", anchorname="gnd")],
        size=(4.5, 2.0), lsize=FONT, leadlen=0.5,
    ).theta(0).anchor("din")
    d.add(led.label("WS2812B", loc="center", fontsize=FONT))
    d.add(elm.NoConnect().at(led.dout))
    d.add(elm.Ground().at(led.gnd))
    d.add(elm.Diode().at(led.vdd).up().reverse().label("1N4148", loc="bottom", fontsize=FONT - 1))
    d.add(elm.Vdd().label("5 V", fontsize=FONT - 1))
    s.y -= 7.0


def _buzzer(s: _Sheet) -> None:
    """The buzzer: GPIO - 1 kOhm - NPN base; piezo and 1 kOhm from 5 V to the collector."""
    if "buzzer" not in s.nets:
        return
    d = s.d
    d.add(elm.Resistor().at(s.free("buzzer")).right().label("1 kΩ", fontsize=FONT - 1))
    q = elm.BjtNpn(circle=True).anchor("base").label("2N3904", loc="right", fontsize=FONT - 1)
    d.add(q)
    d.add(elm.Ground().at(q.emitter))
    d.add(elm.Line().at(q.collector).up(0.8))
    node = d.here
    d.add(elm.Dot())
    d.add(elm.Crystal().up().label("piezo\nPS1240P02BT", loc="top", fontsize=FONT - 1))
    d.add(elm.Dot())
    top = d.here
    d.add(elm.Vdd().label("5 V", fontsize=FONT - 1))
    d.add(elm.Line().at(node).right(2.5))
    d.add(elm.Resistor().up().label("1 kΩ", loc="bottom", fontsize=FONT - 1))
    d.add(elm.Line().to(top))
    s.y -= 7.0


def _stubs(s: _Sheet) -> None:
    """Any other signal: a labelled stub."""
    for n, net in s.nets.items():
        if not net.targets:
            fn = s.pinmap["signals"][n].get("function", "")
            s.d.add(elm.Dot(open=True).at(s.free(n)).label(f"{n}: {fn}", loc="right",
                                                            fontsize=FONT - 1))
            s.y -= 1.5


def _sensor_note(s: _Sheet) -> None:
    """What every channel carries, and the reference divider."""
    mux = s.pinmap["mux"]
    ref = mux.get("ref")
    text = ("each channel: one DRV5055A2\n(VCC from its bank's switch, GND, OUT to the channel)\n"
            "with 100 nF from VCC to GND at the sensor;\n100 nF at every multiplexer")
    if ref:
        text += (f";\nreference: 2 x 10 kOhm in series from bank {chr(ord('A') + ref['bank'])}'s"
                 f" switched VCC\nto GND, the midpoint to its C{ref['channel']}")
    s.d.add(elm.Label().at((s.part_x, s.y + 2.5)).label(text, fontsize=FONT - 1, halign="left"))


# The parts on the right, top to bottom: each draws itself below the last and puts its pins on
# their nets.
PARTS = (_rfid, _muxes, _supply_switches, _button, _led, _buzzer, _stubs, _sensor_note)


def _wires(d: Any, nets: dict[str, _Net], lane0: float) -> None:
    """The wires, one lane each: pin to lane, along the lane, lane to every target."""
    for i, net in enumerate(nets.values()):
        lane = lane0 - i * LANE
        px, py = net.pin
        d.add(elm.Line().at((px, py)).to((lane, py)).label(
            f"{net.name} (GPIO {net.gpio})", loc="top", fontsize=FONT - 2, ofst=0.2, halign="left"))
        ys = [ty for _, ty in net.targets]
        low = min(ys + [py])
        high = max(ys + [py])
        if high > low:
            d.add(elm.Line().at((lane, high)).to((lane, low)))
        for tx, ty in net.targets:
            d.add(elm.Line().at((lane, ty)).to((tx, ty)))
            if ty not in (low, high):
                d.add(elm.Dot().at((lane, ty)))
        if py not in (low, high):
            d.add(elm.Dot().at((lane, py)))


def wiring_svg(pinmap: dict[str, Any]) -> str:
    """The wiring diagram of `pinmap` as SVG text."""
    schemdraw.use("svg")
    schemdraw.svgconfig.text = "text"
    sig = pinmap["signals"]
    order = _order(pinmap)
    nets = {n: _Net(n, sig[n]["gpio"]) for n in order}
    with schemdraw.Drawing(show=False) as d:
        d.config(fontsize=FONT, unit=2.0)
        esp = _esp(d, pinmap, order)
        for n in order:
            nets[n].pin = tuple(esp[f"s_{n}"])  # type: ignore[assignment]
        lane0 = ESP_W + 3.0 + LANE * len(order)  # the first signal's lane, rightmost
        sheet = _Sheet(d, pinmap, nets, part_x=lane0 + 1.5)
        for part in PARTS:
            part(sheet)
        _wires(d, nets, lane0)
        d.add(elm.Label().at((0, 3.5)).label(
            "upref wiring: generated from hardware/pinmap.json by "
            "`python -m upref.hardware diagram`; do not edit by hand",
            fontsize=FONT + 1, halign="left"))
    data = d.get_imagedata("svg")
    return data.decode("utf-8") if isinstance(data, bytes) else str(data)
