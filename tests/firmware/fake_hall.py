# Fakes for the hall multiplexers: select pins and bank ADCs that allocate nothing when set or
# read (levels come from one preallocated array), so they can run under micropython.heap_lock().
# Plain Python, shared by the CPython (pytest) and MicroPython runs.

from array import array
import gc
import json

N_CHANNELS = 16
MID = 32768

_root = None


def root():
    """The repository root: the sys.path entry that ends in /tests/firmware, two levels up
    (works for sources and for modules compiled by mpy-cross into another folder)."""
    global _root
    if _root is None:
        import sys

        for p in sys.path:
            p = p.replace("\\", "/")
            if p.endswith("/tests/firmware"):
                _root = p[: -len("/tests/firmware")]
                break
        else:
            raise ValueError("tests/firmware is not on sys.path")
    return _root


def pinmap():
    gc.collect()  # the heap is capped near the ESP32's: parse from the stream, on a clean heap
    with open(root() + "/hardware/pinmap.json") as f:
        return json.load(f)


# what FakeMux.log records, one array('H') entry per event (no allocation)
EV_SELECT = 0x1000  # + line * 2 + level: a select line written
EV_POWER = 0x2000  # + bank * 2 + level: a bank's supply switch written (0 = on)
EV_SLEEP = 0x3000  # + us (capped at 0xFFF): time.sleep_us through FakeClock
EV_READ = 0x4000  # + bank * 16 + channel: an ADC read


class FakeMux:
    """The shared select lines and every bank's 16 inputs: levels[bank * 16 + channel].

    switched: each bank has a supply switch (power_pins, active low). A bank's inputs read 0
    while it is off and GARBAGE until t_on_us (of FakeClock time) after it was switched on.
    Every pin write, read and FakeClock sleep is logged in order (log[:n_log], EV_*)."""

    GARBAGE = 1

    def __init__(self, n_banks=3, switched=False, t_on_us=0):
        self.n_banks = n_banks
        self.levels = array("H", [MID] * (n_banks * N_CHANNELS))
        self.sel = 0
        self.pin_writes = 0
        self.reads = array("L", [0] * n_banks)
        self.pins = [FakePin(self, i) for i in range(4)]
        self.adcs = [FakeADC(self, b) for b in range(n_banks)]
        self.log = array("H", [0] * 512)
        self.n_log = 0
        self.now_us = 0
        self.t_on_us = t_on_us
        self.clock = FakeClock(self)
        self.powered = bytearray([0 if switched else 1] * n_banks)
        self.on_at = array("l", [0] * n_banks)
        self.power_pins = [FakePowerPin(self, b) for b in range(n_banks)] if switched else None

    def set(self, bank, channel, level):
        self.levels[bank * N_CHANNELS + channel] = level

    def note(self, event):
        if self.n_log < len(self.log):
            self.log[self.n_log] = event
            self.n_log += 1

    def events(self):
        return list(self.log[: self.n_log])

    def reset_counts(self):
        self.pin_writes = 0
        self.n_log = 0
        for b in range(self.n_banks):
            self.reads[b] = 0


class FakeClock:
    """Stands in for the time module inside hallmux: sleep_us() advances FakeMux.now_us."""

    def __init__(self, mux):
        self._mux = mux

    def sleep_us(self, us):
        m = self._mux
        m.now_us += us
        m.note(EV_SLEEP + (us if us < 0xFFF else 0xFFF))


class FakePin:
    def __init__(self, mux, bit):
        self._mux = mux
        self._bit = bit
        self._mask = 1 << bit
        self._v = 0

    def value(self, v=None):
        if v is None:
            return self._v
        v = 1 if v else 0
        self._v = v
        m = self._mux
        m.pin_writes += 1
        m.note(EV_SELECT + self._bit * 2 + v)
        if v:
            m.sel |= self._mask
        else:
            m.sel &= ~self._mask
        return None


class FakePowerPin:
    """A bank's supply switch: the gate of a P-MOSFET, low = on. Starts off (pulled up)."""

    def __init__(self, mux, bank):
        self._mux = mux
        self._bank = bank
        self._v = 1

    def value(self, v=None):
        if v is None:
            return self._v
        v = 1 if v else 0
        self._v = v
        m = self._mux
        m.note(EV_POWER + self._bank * 2 + v)
        if v == 0 and not m.powered[self._bank]:
            m.on_at[self._bank] = m.now_us
        m.powered[self._bank] = 1 - v
        return None


class FakeADC:
    def __init__(self, mux, bank):
        self._mux = mux
        self._bank = bank

    def read_u16(self):
        m = self._mux
        b = self._bank
        m.reads[b] += 1
        m.note(EV_READ + b * N_CHANNELS + m.sel)
        if not m.powered[b]:
            return 0  # an unpowered sensor's output sits at ground
        if m.now_us - m.on_at[b] < m.t_on_us:
            return FakeMux.GARBAGE  # not yet valid after power-on
        return m.levels[b * N_CHANNELS + m.sel]


class Sensors:
    """FakeMux wired as pinmap.json says: set levels by sensor index k."""

    def __init__(self, channels, n_banks=3, switched=False, t_on_us=0):
        self.mux = FakeMux(n_banks, switched, t_on_us)
        self.channels = channels
        self._index = array("H", [b * N_CHANNELS + c for b, c in channels])

    def set(self, k, level):
        self.mux.levels[self._index[k]] = level

    def set_all(self, levels):
        for k in range(len(self._index)):
            self.mux.levels[self._index[k]] = levels[k]


class NullOut:
    """A stream whose write() copies into a preallocated buffer and allocates nothing."""

    def __init__(self, size=8192):
        self.buf = bytearray(size)
        self.n = 0
        self.overflow = 0

    def write(self, data, ln=-1):
        n = self.n
        if ln < 0:
            ln = len(data)
        if n + ln > len(self.buf):
            self.overflow += 1
            return 0
        b = self.buf
        for i in range(ln):
            b[n + i] = data[i]
        self.n = n + ln
        return ln

    def lines(self):
        return bytes(self.buf[: self.n]).split(b"\r\n")[:-1]
