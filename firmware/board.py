# The board's wiring: the only module that builds machine.Pin/ADC/SPI/PWM objects.
#
# Every pin comes from pinmap.json, copied onto the board's flash from hardware/pinmap.json
# (the one source for the firmware, the simulator, the docs and the checks). Drivers get their
# buses and pins passed in.

import json
import select
import sys

import machine
import neopixel

import watchdog
from hallmux import HallMux
from mfrc522 import MFRC522

PINMAP_FILE = "pinmap.json"

_RESET_CAUSES = (
    (machine.PWRON_RESET, b"power"),
    (machine.HARD_RESET, b"hard"),
    (machine.WDT_RESET, b"wdt"),
    (machine.DEEPSLEEP_RESET, b"deepsleep"),
    (machine.SOFT_RESET, b"soft"),
)

_HEX = b"0123456789ABCDEF"


class UsbPort:
    """The USB serial port, shared with the REPL: non-blocking byte reads, buffer writes."""

    def __init__(self):
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._one = bytearray(1)
        for _ in self._poll.ipoll(0):  # ipoll allocates its result tuple on first use only
            pass

    def read_byte(self):
        """The next byte from the host, or -1 when none is waiting. Never blocks."""
        for _ in self._poll.ipoll(0):
            if self._in.readinto(self._one) == 1:
                return self._one[0]
        return -1

    def write(self, buf, off, n):
        """Write buf[off:off + n] (MicroPython streams take an offset and a length: no slice)."""
        self._out.write(buf, off, n)


class Board:
    """Everything the firmware drives, built from the pin map."""

    def __init__(self, path=PINMAP_FILE):
        with open(path) as f:
            pm = json.load(f)
        sig = pm["signals"]

        def gpio(name):
            if name not in sig:
                raise ValueError("pin map has no signal %s" % name)
            return sig[name]["gpio"]

        Pin = machine.Pin
        spi = pm["spi"]
        self.spi = machine.SPI(
            spi["id"],
            baudrate=spi["baudrate"],
            polarity=0,
            phase=0,
            sck=Pin(gpio(spi["sck"])),
            mosi=Pin(gpio(spi["mosi"])),
            miso=Pin(gpio(spi["miso"])),
        )
        self.rfid_cs = Pin(gpio("rfid_cs"), Pin.OUT, value=1)
        self.rfid_rst = Pin(gpio("rfid_rst"), Pin.OUT, value=1)
        self.reader = MFRC522(self.spi, self.rfid_cs, self.rfid_rst)

        mux = pm["mux"]
        self.mux_select = [Pin(gpio(n), Pin.OUT, value=0) for n in mux["select"]]
        self.mux_adcs = [machine.ADC(Pin(gpio(n)), atten=machine.ADC.ATTN_11DB) for n in mux["banks"]]
        self.settle_us = mux.get("settle_us", 10)
        # the sensors' supply switch per bank (P-MOSFET gate, active low): built off (1)
        self.mux_power = None
        self.power_on_us = mux.get("power_on_us", 350)
        if mux.get("power"):
            for n in mux["power"]:
                if sig[n].get("active", "low") != "low":
                    raise ValueError("pin map: supply switch %s must be active low" % n)
            self.mux_power = [Pin(gpio(n), Pin.OUT, value=1) for n in mux["power"]]

        hall = pm["hall"]
        self.holes = hall["holes"]
        self.per_hole = hall["sensors_per_hole"]
        self.channels = [(c[0], c[1]) for c in hall["channels"]]
        self.thresholds = hall.get("thresholds", {})
        self.mux = HallMux(self.mux_adcs, self.mux_select, self.channels, self.settle_us,
                           power_pins=self.mux_power, power_on_us=self.power_on_us)

        b = sig["button"]
        self._button = Pin(b["gpio"], Pin.IN, Pin.PULL_UP if b.get("pull") == "up" else Pin.PULL_DOWN)
        self._button_low = b.get("active", "low") == "low"
        self.led = neopixel.NeoPixel(Pin(gpio("led_data"), Pin.OUT), 1)
        self.buzzer = machine.PWM(Pin(gpio("buzzer")), freq=1000, duty_u16=0)

        self.port = UsbPort()
        uid = machine.unique_id()
        ident = bytearray(2 * len(uid))
        for i in range(len(uid)):
            ident[2 * i] = _HEX[uid[i] >> 4]
            ident[2 * i + 1] = _HEX[uid[i] & 15]
        self.board_id = bytes(ident)
        cause = machine.reset_cause()
        self.reset_cause = b"other"
        for code, name in _RESET_CAUSES:
            if code == cause:
                self.reset_cause = name

    def button_pressed(self):
        v = self._button.value()
        return 1 if (v == 0) == self._button_low else 0

    def watchdog(self):
        """The watchdog, now to be fed by the caller's loop (see lib/watchdog.py)."""
        return watchdog.take()

    def release_watchdog(self):
        """Hand the feeding back to a timer: the REPL is in charge now."""
        watchdog.release()

    def reset(self):
        machine.reset()
