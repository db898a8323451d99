# The board's wiring: the only module that builds machine.Pin/ADC/SPI/PWM objects.
#
# Every pin comes from pinmap.json, copied onto the board's flash from hardware/pinmap.json
# (the one source for the firmware, the simulator, the docs and the checks). Drivers get their
# buses and pins passed in. board.Board runs build() once at boot and lets this module go: its
# code (and the pin map it parsed) takes no heap while the board runs.

import json
import sys

import machine
import neopixel

from hallmux import HallMux
from mfrc522 import MFRC522
from ntag import NtagReader

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
    _reader(b, pm["spi"], sig)
    _hall(b, pm, sig)
    _controls(b, sig)
    b.port = port
    _identity(b)


def usb_port(b):
    """Board `b` made the USB serial port too (board.Board.read_byte and write): polled without
    blocking, written with offsets; returns it."""
    import select

    b._poll = select.poll()
    b._poll.register(sys.stdin, select.POLLIN)
    b._in = sys.stdin.buffer
    b._out = sys.stdout.buffer
    b._one = bytearray(1)
    for _ in b._poll.ipoll(0):  # ipoll allocates its result tuple on first use only
        pass
    return b


def _gpio(sig, name):
    """The GPIO number of the pin map's signal `name`."""
    if name not in sig:
        raise ValueError("pin map has no signal %s" % name)
    return sig[name]["gpio"]


def _reader(b, spi, sig):
    """The SPI bus (pin map "spi") and the MFRC522 on it, with its chip select and reset."""
    Pin = machine.Pin
    b.spi = machine.SPI(
        spi["id"],
        baudrate=spi["baudrate"],
        polarity=0,
        phase=0,
        sck=Pin(_gpio(sig, spi["sck"])),
        mosi=Pin(_gpio(sig, spi["mosi"])),
        miso=Pin(_gpio(sig, spi["miso"])),
    )
    b.rfid_cs = Pin(_gpio(sig, "rfid_cs"), Pin.OUT, value=1)
    b.rfid_rst = Pin(_gpio(sig, "rfid_rst"), Pin.OUT, value=1)
    b.reader = MFRC522(b.spi, b.rfid_cs, b.rfid_rst)
    b.tags = NtagReader(b.reader)  # reads an arriving sticker's NDEF message (docs/tags.md)


def _hall(b, pm, sig):
    """The multiplexers (pin map "mux": select lines, bank ADCs, the sensors' supply switches),
    the hall layout ("hall") and the HallMux that scans it."""
    Pin = machine.Pin
    mux = pm["mux"]
    # tuples: the HallMux keeps these very ones (tuple() of a tuple is the tuple), not copies
    b.mux_select = tuple(Pin(_gpio(sig, n), Pin.OUT, value=0) for n in mux["select"])
    b.mux_adcs = tuple(machine.ADC(Pin(_gpio(sig, n)), atten=machine.ADC.ATTN_11DB) for n in mux["banks"])
    b.settle_us = mux.get("settle_us", 10)
    # the sensors' supply switch per bank (P-MOSFET gate, active low): built off (1)
    b.mux_power = None
    b.power_on_us = mux.get("power_on_us", 350)
    if mux.get("power"):
        for n in mux["power"]:
            if sig[n].get("active", "low") != "low":
                raise ValueError("pin map: supply switch %s must be active low" % n)
        b.mux_power = tuple(Pin(_gpio(sig, n), Pin.OUT, value=1) for n in mux["power"])
    hall = pm["hall"]
    b.holes = hall["holes"]
    b.per_hole = hall["sensors_per_hole"]
    b.thresholds = hall.get("thresholds", {})
    ref = mux.get("ref")  # the VCC/2 divider that corrects every zero (holes.py)
    b.mux = HallMux(b.mux_adcs, b.mux_select, [(c[0], c[1]) for c in hall["channels"]],
                    b.settle_us, power_pins=b.mux_power, power_on_us=b.power_on_us,
                    ref=(ref["bank"], ref["channel"]) if ref else None)


def _controls(b, sig):
    """The button, the status LED and the buzzer."""
    Pin = machine.Pin
    btn = sig["button"]
    b._button = Pin(btn["gpio"], Pin.IN, Pin.PULL_UP if btn.get("pull") == "up" else Pin.PULL_DOWN)
    b._button_low = btn.get("active", "low") == "low"
    b.led = neopixel.NeoPixel(Pin(_gpio(sig, "led_data"), Pin.OUT), 1)
    b.buzzer = machine.PWM(Pin(_gpio(sig, "buzzer")), freq=1000, duty_u16=0)


def _identity(b):
    """The board's id (its unique id in hex) and why it last reset."""
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
    b.reset_counts = _count_reset(b.reset_cause)


def _count_reset(cause):
    """This start counted in the RTC's memory (lib/resets.py): HELLO's resets=, or None on a
    machine without RTC memory. Loaded for the occasion and let go."""
    import resets

    try:
        rtc = machine.RTC()
        mem = resets.update(rtc.memory(), cause)
        rtc.memory(mem)
        return resets.counts(mem)
    except (AttributeError, OSError):
        return None
    finally:
        del sys.modules["resets"]
