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


def wiring_svg(pinmap: dict[str, Any]) -> str:
    """The wiring diagram of `pinmap` as SVG text."""
    schemdraw.use("svg")
    schemdraw.svgconfig.text = "text"
    sig = pinmap["signals"]
    spi = pinmap["spi"]
    mux = pinmap["mux"]

    order: list[str] = []
    for name in (
        spi["sck"],
        spi["mosi"],
        spi["miso"],
        "rfid_cs",
        "rfid_rst",
        *mux["select"],
        *mux["banks"],
        *(mux.get("power") or []),
        "button",
        "led_data",
        "buzzer",
    ):
        if name in sig and name not in order:
            order.append(name)
    order += sorted((n for n in sig if n not in order), key=lambda n: sig[n]["gpio"])
    nets = {n: _Net(n, sig[n]["gpio"]) for n in order}

    with schemdraw.Drawing(show=False) as d:
        d.config(fontsize=FONT, unit=2.0)
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
        for n in order:
            nets[n].pin = tuple(getattr(esp, f"s_{n}"))  # type: ignore[assignment]

        lane0 = ESP_W + 3.0 + LANE * n_pins  # the first signal's lane, rightmost
        part_x = lane0 + 1.5
        y = 1.5  # top of the next part, going down

        # MFRC522 module
        rfid_pins = [
            ("SCK", spi["sck"]),
            ("MOSI", spi["mosi"]),
            ("MISO", spi["miso"]),
            ("SDA (NSS)", "rfid_cs"),
            ("RST", "rfid_rst"),
        ]
        h = len(rfid_pins) + 1.6
        rfid = elm.Ic(
            pins=[
                elm.IcPin(name=p, side="left", anchorname=f"r{i}")
                for i, (p, _) in reversed(list(enumerate(rfid_pins)))
            ]
            + [
                elm.IcPin(name="3.3V", side="top", anchorname="vcc"),
                elm.IcPin(name="GND", side="bottom", anchorname="gnd"),
                elm.IcPin(name="IRQ", side="right", anchorname="irq"),
            ],
            pinspacing=1.0,
            edgepadH=0.8,
            size=(4.0, h),
            lsize=FONT,
            leadlen=0.6,
        )
        rfid.theta(0).at((part_x + 0.6, y - h - 1.0)).label(
            "MFRC522 module (RC522)", loc="top", fontsize=FONT
        )
        d.add(rfid)
        d.add(elm.Vdd().at(rfid.vcc).label("3.3 V", fontsize=FONT - 1))
        d.add(elm.Ground().at(rfid.gnd))
        d.add(elm.NoConnect().at(rfid.irq))
        for i, (_, n) in enumerate(rfid_pins):
            if n in nets:
                nets[n].targets.append(tuple(getattr(rfid, f"r{i}")))  # type: ignore[arg-type]
        y -= h + 3.5

        # the multiplexers
        for b, bank in enumerate(mux["banks"]):
            left = [(f"S{i}", s) for i, s in enumerate(mux["select"])] + [
                ("SIG (COM)", bank),
                ("EN", ""),
            ]
            h = 16 + 1.6
            pins = [
                elm.IcPin(name=p, side="left", anchorname=f"m{i}")
                for i, (p, _) in reversed(list(enumerate(left)))
            ]
            pins += [
                elm.IcPin(name=_sensor_label(pinmap, b, ch), side="right", anchorname=f"c{ch}")
                for ch in reversed(range(16))
            ]
            pins += [
                elm.IcPin(name="VCC", side="top", anchorname="vcc"),
                elm.IcPin(name="GND", side="bottom", anchorname="gnd"),
            ]
            m = elm.Ic(
                pins=pins,
                pinspacing=1.0,
                edgepadH=0.8,
                size=(6.5, h),
                lsize=FONT,
                plblsize=FONT - 1,
                leadlen=0.6,
            )
            m.theta(0).at((part_x + 0.6, y - h - 1.0)).label(
                f"CD74HC4067 bank {chr(ord('A') + b)} ({bank})", loc="top", fontsize=FONT
            )
            d.add(m)
            d.add(elm.Vdd().at(m.vcc).label("3.3 V", fontsize=FONT - 1))
            d.add(elm.Ground().at(m.gnd))
            en = tuple(getattr(m, f"m{len(left) - 1}"))
            d.add(elm.Line().at(en).left(0.4))
            d.add(elm.Ground())
            for i, (_, n) in enumerate(left):
                if n in nets:
                    nets[n].targets.append(tuple(getattr(m, f"m{i}")))  # type: ignore[arg-type]
            y -= h + 3.5
        # the sensor supply switches: GPIO - gate of a P-MOSFET, 10 kOhm pull-up to 3.3 V,
        # source on 3.3 V, drain to the VCC of that bank's sensors
        if mux.get("power"):
            y -= 1.5  # room for the pull-ups above the first gate
        for b, name in enumerate(mux.get("power") or []):
            if name not in nets:
                continue
            t = (part_x, y)
            nets[name].targets.append(t)
            d.add(elm.Line().at(t).right(1.2))
            gate = d.here
            d.add(elm.Dot())
            d.add(elm.Resistor().up().length(2.0).label("10 kΩ", loc="bottom", fontsize=FONT - 1))
            d.add(elm.Vdd().label("3.3 V", fontsize=FONT - 1))
            d.add(elm.Line().at(gate).right(1.0))
            q = (
                elm.PFet()
                .reverse()
                .anchor("gate")
                .label(f"AO3401A\nbank {chr(ord('A') + b)}", loc="right", fontsize=FONT - 1)
            )
            d.add(q)
            d.add(elm.Line().at(q.source).up(0.8))
            d.add(elm.Vdd().label("3.3 V", fontsize=FONT - 1))
            d.add(elm.Line().at(q.drain).down(0.8))
            d.add(
                elm.Dot(open=True).label(
                    f"VCC of every bank {chr(ord('A') + b)} sensor ({_bank_holes(pinmap, b)})",
                    loc="right",
                    fontsize=FONT - 1,
                )
            )
            y -= 5.0

        # the button: GPIO - switch - GND
        if "button" in nets:
            t = (part_x, y)
            nets["button"].targets.append(t)
            d.add(elm.Button().at(t).right().label("button (B3F-1000)", fontsize=FONT - 1))
            d.add(elm.Ground())
            y -= 4.0

        # the status LED: GPIO - 330 Ohm - DIN; VDD from 5 V through a 1N4148
        if "led_data" in nets:
            t = (part_x, y)
            nets["led_data"].targets.append(t)
            d.add(elm.Resistor().at(t).right().label("330 Ω", fontsize=FONT - 1))
            led = (
                elm.Ic(
                    pins=[
                        elm.IcPin(name="DIN", side="left", anchorname="din"),
                        elm.IcPin(name="DOUT", side="right", anchorname="dout"),
                        elm.IcPin(name="VDD", side="top", anchorname="vdd"),
                        elm.IcPin(name="GND", side="bottom", anchorname="gnd"),
                    ],
                    size=(4.5, 2.0),
                    lsize=FONT,
                    leadlen=0.5,
                )
                .theta(0)
                .anchor("din")
            )
            d.add(led.label("WS2812B", loc="center", fontsize=FONT))
            d.add(elm.NoConnect().at(led.dout))
            d.add(elm.Ground().at(led.gnd))
            d.add(
                elm.Diode()
                .at(led.vdd)
                .up()
                .reverse()
                .label("1N4148", loc="bottom", fontsize=FONT - 1)
            )
            d.add(elm.Vdd().label("5 V", fontsize=FONT - 1))
            y -= 7.0

        # the buzzer: GPIO - 1 kOhm - NPN base; piezo and 1 kOhm from 5 V to the collector
        if "buzzer" in nets:
            t = (part_x, y)
            nets["buzzer"].targets.append(t)
            d.add(elm.Resistor().at(t).right().label("1 kΩ", fontsize=FONT - 1))
            q = (
                elm.BjtNpn(circle=True)
                .anchor("base")
                .label("2N3904", loc="right", fontsize=FONT - 1)
            )
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
            y -= 7.0

        # any other signal: a labelled stub
        for n in order:
            if not nets[n].targets:
                t = (part_x, y)
                nets[n].targets.append(t)
                d.add(
                    elm.Dot(open=True)
                    .at(t)
                    .label(f"{n}: {sig[n].get('function', '')}", loc="right", fontsize=FONT - 1)
                )
                y -= 1.5

        d.add(
            elm.Label()
            .at((part_x, y + 2.5))
            .label(
                "each channel: one DRV5055A2\n(VCC from its bank's switch, GND, OUT to the channel)\n"
                "with 100 nF from VCC to GND at the sensor;\n100 nF at every multiplexer"
                + (
                    f";\nreference: 2 x 10 kOhm in series from bank {chr(ord('A') + mux['ref']['bank'])}'s"
                    f" switched VCC\nto GND, the midpoint to its C{mux['ref']['channel']}"
                    if mux.get("ref")
                    else ""
                ),
                fontsize=FONT - 1,
                halign="left",
            )
        )

        # the wires, one lane each
        for i, n in enumerate(order):
            net = nets[n]
            lane = lane0 - i * LANE
            px, py = net.pin
            d.add(
                elm.Line()
                .at((px, py))
                .to((lane, py))
                .label(
                    f"{n} (GPIO {net.gpio})", loc="top", fontsize=FONT - 2, ofst=0.2, halign="left"
                )
            )
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

        d.add(
            elm.Label()
            .at((0, 3.5))
            .label(
                "upref wiring: generated from hardware/pinmap.json by "
                "`python -m upref.hardware diagram`; do not edit by hand",
                fontsize=FONT + 1,
                halign="left",
            )
        )
    data = d.get_imagedata("svg")
    return data.decode("utf-8") if isinstance(data, bytes) else str(data)
