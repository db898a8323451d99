# Stand-in for MicroPython's `neopixel` module: a WS2812 strip whose colours the simulated board
# shows (the first pixel on the pin map's led_data pin is the board's status LED).
# Runs unchanged under CPython and the MicroPython unix port.

from chip import NEOPIXEL_BIT_NS as _NEOPIXEL_BIT_NS
from sim_world import world as _w, ROLE_LED


class NeoPixel:
    ORDER = (1, 0, 2, 3)  # the strip wants G, R, B(, W)

    def __init__(self, pin, n, bpp=3, timing=1):
        if bpp not in (3, 4):
            raise ValueError("bpp must be 3 or 4")
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = bytearray(n * bpp)
        pin.init(pin.OUT)
        self._gpio = pin._id

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError("pixel index out of range")
        offset = i * self.bpp
        for j in range(self.bpp):
            self.buf[offset + self.ORDER[j]] = v[j]

    def __getitem__(self, i):
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError("pixel index out of range")
        offset = i * self.bpp
        return tuple(self.buf[offset + self.ORDER[j]] for j in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        # the strip's bits at 1.25 us each (WS2812B datasheet), sent with interrupts off
        _w.chip.bus(self.n * self.bpp * 8 * _NEOPIXEL_BIT_NS // 1000)
        if _w.role[self._gpio] == ROLE_LED and self.n:
            b = self.buf
            _w.set_led(b[1], b[0], b[2])
