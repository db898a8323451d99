# Stand-in for MicroPython's `machine` module on an ESP32 (v1.29 API), wired to the simulated
# board's world (sim_world.py) by signal name from pinmap.json: move a pin in the map and it
# moves here too.
#
# Runs unchanged under CPython and the MicroPython unix port (where a machine.py on sys.path
# overrides the built-in module). Only what an ESP32 has, with the ESP32's limits: GPIO numbers,
# input-only pins 34..39, ADC pins, SPI ids 1 and 2, the 12-bit ADC and its attenuation.
# Pin writes, ADC reads and SPI transfers allocate nothing.

import time

import chip as _cm
import esp32_adc as _adc
from sim_world import world as _w

_chip = _cm.chip  # the chip's clock and cost model (standins/chip.py)

# reset causes (machine.reset_cause())
PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5
# wake reasons
PIN_WAKE = 2
EXT0_WAKE = 2
EXT1_WAKE = 3
TIMER_WAKE = 4
TOUCHPAD_WAKE = 5
ULP_WAKE = 6
# IRQ wake values
SLEEP = 2
DEEPSLEEP = 4

_VALID_GPIO = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23,
               25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39)
_ADC1_GPIO = (32, 33, 34, 35, 36, 37, 38, 39)
_ADC2_GPIO = (0, 2, 4, 12, 13, 14, 15, 25, 26, 27)
_CPU_FREQS = (20000000, 40000000, 80000000, 160000000, 240000000)
_freq = 160000000


def _gpio_of(p):
    if isinstance(p, Pin):
        return p._id
    if isinstance(p, int):
        if p not in _VALID_GPIO:
            raise ValueError("invalid pin")
        return p
    raise TypeError("expecting a Pin or an int")


class Pin:
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_DOWN = 1
    PULL_UP = 2
    PULL_HOLD = 4
    IRQ_RISING = 1
    IRQ_FALLING = 2
    WAKE_LOW = 4
    WAKE_HIGH = 5
    DRIVE_0 = 0
    DRIVE_1 = 1
    DRIVE_2 = 2
    DRIVE_3 = 3

    # As on the ESP32 (ports/esp32/machine_pin.c), Pin(n) is the one static object of GPIO n:
    # making one allocates nothing, and the board's heap holds none of them.
    def __new__(cls, id, *args, **kwargs):
        if not isinstance(id, int) or id not in _VALID_GPIO:
            raise ValueError("invalid pin")
        if cls is not Pin:
            return object.__new__(cls)
        return _PINS[id]

    def __init__(self, id, mode=-1, pull=-1, *, value=None, drive=None, hold=None):
        if not isinstance(id, int) or id not in _VALID_GPIO:
            raise ValueError("invalid pin")
        self._id = id
        self.init(mode, pull, value=value, drive=drive, hold=hold)

    def init(self, mode=-1, pull=-1, *, value=None, drive=None, hold=None):
        g = self._id
        if value is not None:
            self._set(value)
        if mode is not None and mode != -1:
            if mode not in (Pin.IN, Pin.OUT, Pin.OPEN_DRAIN):
                raise ValueError("invalid pin mode: %d" % mode)
            if mode != Pin.IN and g >= 34:
                raise ValueError("pin can only be input")
            _w.pin_mode[g] = mode
            if mode != Pin.IN:
                _w.pin_written(g, _w.pin_level[g])
        if pull is not None and pull != -1:
            if pull not in (Pin.PULL_UP, Pin.PULL_DOWN, Pin.PULL_HOLD):
                raise ValueError("invalid pull: %d" % pull)
            if g >= 34 and pull != Pin.PULL_HOLD:
                raise ValueError("pins 34..39 have no pull resistors")
            _w.pin_pull[g] = pull
        elif pull is None:
            _w.pin_pull[g] = 0

    def _set(self, v):
        _chip.cpu(_cm.PIN_US + _cm.PY_CALL_US)
        g = self._id
        v = 1 if v else 0
        if _w.pin_level[g] != v:
            _w.pin_level[g] = v
            if _w.pin_mode[g] != Pin.IN and _w.pin_mode[g] != 0:
                _w.pin_written(g, v)

    def value(self, x=None):
        if x is None:
            _chip.cpu(_cm.PIN_US)
            g = self._id
            if _w.pin_mode[g] == Pin.OUT:
                return _w.pin_level[g]
            return _w.pin_read(g, _w.pin_pull[g])
        self._set(x)

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self._set(1)

    def off(self):
        self._set(0)

    def toggle(self):
        self._set(1 - _w.pin_level[self._id])

    def mode(self, mode=None):
        if mode is None:
            return _w.pin_mode[self._id]
        self.init(mode)

    def pull(self, pull=None):
        if pull is None:
            return _w.pin_pull[self._id] or None
        self.init(-1, pull)

    def drive(self, drive=None):
        if drive is None:
            return Pin.DRIVE_2
        return None

    def irq(self, handler=None, trigger=3, *, wake=None, hard=False):
        if handler is not None and _w.role[self._id] == 4:  # the button
            _w.button_irqs.append((self, handler, trigger))
        return None

    def __repr__(self):
        return "Pin(%d)" % self._id


_PINS = {}
for _g in _VALID_GPIO:
    _p = object.__new__(Pin)
    _p._id = _g
    _PINS[_g] = _p
del _g, _p


class Signal:
    def __init__(self, pin, *args, invert=False, **kwargs):
        if not isinstance(pin, Pin):
            pin = Pin(pin, *args, **kwargs)
        self._pin = pin
        self._invert = invert

    def value(self, x=None):
        if x is None:
            return self._pin.value() ^ (1 if self._invert else 0)
        self._pin.value((1 if x else 0) ^ (1 if self._invert else 0))

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class ADC:
    """ADC1/ADC2 of the classic ESP32 as MicroPython v1.29 has them: 11 dB unless told
    otherwise (ports/esp32/machine_adc.c: an ADC made without atten= gets ADC_ATTEN_MAX),
    `read_u16` the raw 12-bit reading scaled (`raw << 4 | raw >> 8`, no calibration: the
    reading follows the chip's own curve, upref/chip/esp32_adc.py), `read_uv` Espressif's
    calibrated voltage for the reference in the chip's eFuse."""

    ATTN_0DB = 0
    ATTN_2_5DB = 1
    ATTN_6DB = 2
    ATTN_11DB = 3
    WIDTH_9BIT = 9
    WIDTH_10BIT = 10
    WIDTH_11BIT = 11
    WIDTH_12BIT = 12

    # static objects too, one per ADC channel (ports/esp32/machine_adc.c: madc_obj)
    def __new__(cls, id, *args, **kwargs):
        g = _gpio_of(id)
        if g not in _ADC1_GPIO and g not in _ADC2_GPIO:
            raise ValueError("invalid pin for ADC")
        a = _ADCS.get(g)
        if a is None:
            a = _ADCS[g] = object.__new__(cls)
        return a

    def __init__(self, id, *, atten=None, sample_ns=None):
        g = _gpio_of(id)
        if g not in _ADC1_GPIO and g not in _ADC2_GPIO:
            raise ValueError("invalid pin for ADC")
        self._gpio = g
        self._bank = _w.role_arg[g] if _w.role[g] == 7 else -1
        self._atten = ADC.ATTN_11DB
        self._bits = 12
        if atten is not None:
            self.atten(atten)

    def init(self, *, atten=None, sample_ns=None):
        if atten is not None:
            self.atten(atten)

    def atten(self, atten):
        if atten not in (0, 1, 2, 3):
            raise ValueError("invalid attenuation: %r" % (atten,))
        self._atten = atten

    def width(self, bits):
        if bits not in (9, 10, 11, 12):
            raise ValueError("invalid width: %r" % (bits,))
        self._bits = bits

    def _raw(self):
        """One conversion: the 12-bit raw reading (at the width set, left-aligned to 12)."""
        _chip.cpu(_cm.ADC_READ_US + _cm.PY_CALL_US + _cm.SCAN_LOOP_US)
        w = _w
        r16 = w.curves[self._atten].raw16(w.adc_read(self._bank))
        if 0 < r16 < 65535:  # below its offset the ADC reads 0, and at its top 4095, steadily
            r16 += w.adc_noise()
        if r16 < 0:
            r16 = 0
        elif r16 > 65535:
            r16 = 65535
        return (r16 >> (16 - self._bits)) << (12 - self._bits)

    def read_u16(self):
        raw = self._raw() >> (12 - self._bits)
        b = self._bits
        return (raw << (16 - b)) | (raw >> (2 * b - 16))

    def read(self):
        return self._raw() >> (12 - self._bits)

    def read_uv(self):
        return _adc.raw_to_mv(self._raw(), _adc.efuse_vref(_w.vref_mv), self._atten) * 1000

    def deinit(self):
        pass


_ADCS = {}
for _g in _ADC1_GPIO + _ADC2_GPIO:
    _a = object.__new__(ADC)
    _a._gpio = _g
    _a._bank = _w.role_arg[_g] if _w.role[_g] == 7 else -1
    _a._atten = ADC.ATTN_11DB
    _a._bits = 12
    _ADCS[_g] = _a
del _g, _a


class SPI:
    MSB = 0
    LSB = 1

    def __init__(self, id, baudrate=500000, *, polarity=0, phase=0, bits=8, firstbit=0,
                 sck=None, mosi=None, miso=None):
        if id not in (1, 2):
            raise ValueError("SPI(%r) doesn't exist" % (id,))
        self._id = id
        self._ok = False
        self.init(baudrate, polarity=polarity, phase=phase, bits=bits, firstbit=firstbit,
                  sck=sck, mosi=mosi, miso=miso)

    def init(self, baudrate=500000, *, polarity=0, phase=0, bits=8, firstbit=0, sck=None,
             mosi=None, miso=None):
        if bits != 8:
            raise ValueError("invalid bits: %d" % bits)
        self._baud = baudrate
        self._ns_per_byte = 8000000000 // baudrate if baudrate > 0 else 0
        # the MFRC522 talks SPI mode 0, MSB first, at up to 10 MHz; anything else is garbage
        self._ok = polarity == 0 and phase == 0 and firstbit == 0 and baudrate <= 10000000
        _w.spi_ok = self._ok

    def deinit(self):
        self._ok = False
        _w.spi_ok = False

    def _txn(self, n):
        # one transaction: the driver's turn (spi_device_transmit), then n bytes on the bus
        c = _chip
        c.cpu(_cm.SPI_TXN_US)
        c.bus(n * self._ns_per_byte // 1000)

    # (a bound method stored in a variable allocates on MicroPython: call through the object)
    def write(self, buf):
        self._txn(len(buf))
        w = _w
        for b in buf:
            w.spi_xfer(b)
        return None

    def read(self, nbytes, write=0):
        buf = bytearray(nbytes)
        self.readinto(buf, write)
        return bytes(buf)

    def readinto(self, buf, write=0):
        self._txn(len(buf))
        w = _w
        for i in range(len(buf)):
            buf[i] = w.spi_xfer(write)
        return None

    def write_readinto(self, write_buf, read_buf):
        if len(write_buf) != len(read_buf):
            raise ValueError("buffers must be the same length")
        self._txn(len(write_buf))
        w = _w
        for i in range(len(write_buf)):
            read_buf[i] = w.spi_xfer(write_buf[i])
        return None


class SoftSPI(SPI):
    def __init__(self, baudrate=500000, *, polarity=0, phase=0, bits=8, firstbit=0, sck=None,
                 mosi=None, miso=None):
        self._id = -1
        self.init(baudrate, polarity=polarity, phase=phase, bits=bits, firstbit=firstbit,
                  sck=sck, mosi=mosi, miso=miso)


class PWM:
    def __init__(self, dest, *, freq=None, duty=None, duty_u16=None, duty_ns=None, invert=False):
        g = _gpio_of(dest)
        if g >= 34:
            raise ValueError("pin can only be input")
        self._gpio = g
        self._freq = 5000
        self._duty = 32768
        self._on = True
        self.init(freq=freq, duty=duty, duty_u16=duty_u16, duty_ns=duty_ns, invert=invert)

    def init(self, *, freq=None, duty=None, duty_u16=None, duty_ns=None, invert=False):
        self._on = True
        if freq is not None:
            self._check_freq(freq)
            self._freq = freq
        if duty is not None:
            self._duty = _clamp_duty(duty * 65535 // 1023)
        if duty_u16 is not None:
            self._duty = _clamp_duty(duty_u16)
        if duty_ns is not None:
            self._duty = _clamp_duty(duty_ns * self._freq * 65535 // 1000000000)
        self._invert = invert
        self._report()

    def _check_freq(self, f):
        if not 1 <= f <= 40000000:
            raise ValueError("frequency must be from 1Hz to 40MHz")

    def _report(self):
        _chip.cpu(_cm.PWM_US)
        if _w.role[self._gpio] != 6:  # only the buzzer makes sound
            return
        d = self._duty if self._on else 0
        if self._invert:
            d = 65535 - d
        if d == 65535:
            d = 0  # a constant level is silence
        _w.set_tone(self._freq if d else 0, d)

    def freq(self, value=None):
        if value is None:
            return self._freq
        self._check_freq(value)
        self._freq = value
        self._report()

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        self._duty = _clamp_duty(value)
        self._report()

    def duty(self, value=None):
        if value is None:
            return self._duty * 1023 // 65535
        self._duty = _clamp_duty(value * 65535 // 1023)
        self._report()

    def duty_ns(self, value=None):
        if value is None:
            return self._duty * 1000000000 // (65535 * self._freq)
        self._duty = _clamp_duty(value * self._freq * 65535 // 1000000000)
        self._report()

    def deinit(self):
        self._on = False
        self._report()


def _clamp_duty(d):
    if d < 0:
        return 0
    if d > 65535:
        return 65535
    return d


class WDT:
    def __init__(self, id=0, timeout=5000):
        if id != 0:
            raise ValueError("WDT(%r) doesn't exist" % (id,))
        if timeout < 1:
            raise ValueError("WDT timeout too short")
        _w.wdt_start(timeout)

    def feed(self):
        _chip.cpu(_cm.WDT_US)
        _w.wdt_feed()


class Timer:
    """machine.Timer: callbacks run from the simulated world's poll (firmware running) and
    from the REPL's input wait, as the ESP32 runs soft timer callbacks."""

    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id, *, mode=PERIODIC, period=-1, freq=-1, callback=None):
        if id < 0 or id > 3:
            raise ValueError("Timer(%r) doesn't exist" % (id,))
        self.id = id
        self.callback = None
        self.periodic = True
        self.period = 0
        self.due = 0
        if callback is not None:
            self.init(mode=mode, period=period, freq=freq, callback=callback)

    def init(self, *, mode=PERIODIC, period=-1, freq=-1, callback=None):
        if freq > 0:
            period = 1000 // freq
        if period < 1:
            raise ValueError("period must be >= 1 ms")
        self.periodic = mode == Timer.PERIODIC
        self.period = period
        self.callback = callback
        self.due = time.ticks_add(time.ticks_ms(), period)
        if callback is not None:
            _w.add_timer(self)

    def deinit(self):
        _w.remove_timer(self)
        self.callback = None


def reset():
    _w.reset("hard")


def soft_reset():
    _w.reset("soft")


def reset_cause():
    return _w.reset_cause


def wake_reason():
    return 0


def unique_id():
    return _w.mac


def freq(hz=None):
    global _freq
    if hz is None:
        return _freq
    if hz not in _CPU_FREQS:
        raise ValueError("frequency must be 20MHz, 40MHz, 80Mhz, 160MHz or 240MHz")
    _freq = hz
    _w.set_freq(hz)


def idle():
    _w.poll()
    time.sleep_ms(1)


def lightsleep(time_ms=None):
    if time_ms is not None:
        time.sleep_ms(time_ms)


def deepsleep(time_ms=0):
    _w.reset("deepsleep", time_ms)


def disable_irq():
    return 0


def enable_irq(state=0):
    pass


def bitstream(pin, encoding, timing, data):
    pass


def world():
    """The simulated world behind this module (not on a real board: for tests)."""
    return _w
