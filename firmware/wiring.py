# The board's wiring: the only module that builds machine.Pin/ADC/SPI/PWM objects.
#
# Every pin comes from pinmap.json, copied onto the board's flash from hardware/pinmap.json
# (the one source for the firmware, the simulator, the docs and the checks). Drivers get their
# buses and pins passed in. board.Board runs build() once at boot and lets this module go: its
# code (and the pin map it parsed) takes no heap while the board runs.

import json

import machine
import neopixel

from hallmux import HallMux
from mfrc522 import MFRC522

_RESET_CAUSES = (
    (machine.PWRON_RESET, b"power"),
    (machine.HARD_RESET, b"hard"),
    (machine.WDT_RESET, b"wdt"),
    (machine.DEEPSLEEP_RESET, b"deepsleep"),
    (machine.SOFT_RESET, b"soft"),
)

_HEX = b"0123456789ABCDEF"


def build(b, path, port):
    """Build everything the firmware drives from the pin map at `path` into the attributes of
    `b` (a board.Board); `port` is the USB port object."""
    with open(path) as f:
        pm = json.load(f)
    sig = pm["signals"]

    def gpio(name):
        if name not in sig:
            raise ValueError("pin map has no signal %s" % name)
        return sig[name]["gpio"]

    Pin = machine.Pin
    spi = pm["spi"]
    b.spi = machine.SPI(
        spi["id"],
        baudrate=spi["baudrate"],
        polarity=0,
        phase=0,
        sck=Pin(gpio(spi["sck"])),
        mosi=Pin(gpio(spi["mosi"])),
        miso=Pin(gpio(spi["miso"])),
    )
    b.rfid_cs = Pin(gpio("rfid_cs"), Pin.OUT, value=1)
    b.rfid_rst = Pin(gpio("rfid_rst"), Pin.OUT, value=1)
    b.reader = MFRC522(b.spi, b.rfid_cs, b.rfid_rst)

    mux = pm["mux"]
    b.mux_select = [Pin(gpio(n), Pin.OUT, value=0) for n in mux["select"]]
    b.mux_adcs = [machine.ADC(Pin(gpio(n)), atten=machine.ADC.ATTN_11DB) for n in mux["banks"]]
    b.settle_us = mux.get("settle_us", 10)
    # the sensors' supply switch per bank (P-MOSFET gate, active low): built off (1)
    b.mux_power = None
    b.power_on_us = mux.get("power_on_us", 350)
    if mux.get("power"):
        for n in mux["power"]:
            if sig[n].get("active", "low") != "low":
                raise ValueError("pin map: supply switch %s must be active low" % n)
        b.mux_power = [Pin(gpio(n), Pin.OUT, value=1) for n in mux["power"]]

    hall = pm["hall"]
    b.holes = hall["holes"]
    b.per_hole = hall["sensors_per_hole"]
    b.thresholds = hall.get("thresholds", {})
    ref = mux.get("ref")  # the VCC/2 divider that corrects every zero (holes.py)
    b.mux = HallMux(b.mux_adcs, b.mux_select, [(c[0], c[1]) for c in hall["channels"]],
                    b.settle_us, power_pins=b.mux_power, power_on_us=b.power_on_us,
                    ref=(ref["bank"], ref["channel"]) if ref else None)

    btn = sig["button"]
    b._button = Pin(btn["gpio"], Pin.IN, Pin.PULL_UP if btn.get("pull") == "up" else Pin.PULL_DOWN)
    b._button_low = btn.get("active", "low") == "low"
    b.led = neopixel.NeoPixel(Pin(gpio("led_data"), Pin.OUT), 1)
    b.buzzer = machine.PWM(Pin(gpio("buzzer")), freq=1000, duty_u16=0)

    b.port = port
    uid = machine.unique_id()
    ident = bytearray(2 * len(uid))
    for i in range(len(uid)):
        ident[2 * i] = _HEX[uid[i] >> 4]
        ident[2 * i + 1] = _HEX[uid[i] & 15]
    b.board_id = bytes(ident)
    cause = machine.reset_cause()
    b.reset_cause = b"other"
    for code, name in _RESET_CAUSES:
        if code == cause:
            b.reset_cause = name
