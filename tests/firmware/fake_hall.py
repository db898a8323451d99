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


class FakeMux:
    """The shared select lines and every bank's 16 inputs: levels[bank * 16 + channel]."""

    def __init__(self, n_banks=3):
        self.n_banks = n_banks
        self.levels = array("H", [MID] * (n_banks * N_CHANNELS))
        self.sel = 0
        self.pin_writes = 0
        self.reads = array("L", [0] * n_banks)
        self.pins = [FakePin(self, i) for i in range(4)]
        self.adcs = [FakeADC(self, b) for b in range(n_banks)]

    def set(self, bank, channel, level):
        self.levels[bank * N_CHANNELS + channel] = level

    def reset_counts(self):
        self.pin_writes = 0
        for b in range(self.n_banks):
            self.reads[b] = 0


class FakePin:
    def __init__(self, mux, bit):
        self._mux = mux
        self._mask = 1 << bit
        self._v = 0

    def value(self, v=None):
        if v is None:
            return self._v
        v = 1 if v else 0
        self._v = v
        m = self._mux
        m.pin_writes += 1
        if v:
            m.sel |= self._mask
        else:
            m.sel &= ~self._mask
        return None


class FakeADC:
    def __init__(self, mux, bank):
        self._mux = mux
        self._bank = bank

    def read_u16(self):
        m = self._mux
        m.reads[self._bank] += 1
        return m.levels[self._bank * N_CHANNELS + m.sel]


class Sensors:
    """FakeMux wired as pinmap.json says: set levels by sensor index k."""

    def __init__(self, channels, n_banks=3):
        self.mux = FakeMux(n_banks)
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
