# SPI bus and pins for firmware tests: they forward every byte and level change to a
# register-level device model (host/upref/sim/standins/mfrc522_model.py). Plain Python that
# runs under CPython and the MicroPython unix port.


class FakeSPI:
    """machine.SPI look-alike: each byte goes to model.xfer(byte) and its answer comes back."""

    def __init__(self, model):
        self.model = model
        self.bytes = 0  # bytes exchanged so far

    # (No bound methods kept in locals: under MicroPython that allocates, and the driver's
    # polls are checked to run with the heap locked.)

    def write(self, buf):
        model = self.model
        for i in range(len(buf)):
            model.xfer(buf[i])
        self.bytes += len(buf)

    def readinto(self, buf, write=0x00):
        model = self.model
        for i in range(len(buf)):
            buf[i] = model.xfer(write)
        self.bytes += len(buf)

    def write_readinto(self, tx, rx):
        if len(tx) != len(rx):
            raise ValueError("buffers of different lengths: %d, %d" % (len(tx), len(rx)))
        model = self.model
        for i in range(len(tx)):
            rx[i] = model.xfer(tx[i])
        self.bytes += len(tx)


class FakePin:
    """machine.Pin look-alike for outputs; on_change(level) is called on every write."""

    OUT = 1
    IN = 0

    def __init__(self, on_change=None, value=1):
        self._on_change = on_change
        self._value = 1 if value else 0
        self.writes = 0

    def init(self, *args, **kwargs):
        if "value" in kwargs:
            self.value(kwargs["value"])

    def value(self, v=None):
        if v is None:
            return self._value
        self._value = 1 if v else 0
        self.writes += 1
        if self._on_change is not None:
            self._on_change(self._value)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def __call__(self, v=None):
        return self.value(v)


class RegisterChip:
    """The MFRC522's SPI framing (datasheet 8.1.2) for a hand-written chip, written not to
    allocate: after CS falls, the first byte is an address, (reg << 1) | 0x80 to read, reg << 1
    to write; a read's value comes out during the next byte, which may name the next register
    to read; a write's data bytes all go to its register. A subclass answers `_get(reg)` and
    takes `_put(reg, value)`; here the 64 registers just hold what is written."""

    def __init__(self):
        self.regs = bytearray(64)
        self.regs[0x37] = 0x92  # VersionReg
        self.first = True
        self.reading = 0
        self.addr = 0
        self.pending = -1

    def cs(self, level):
        if not level:
            self.first = True
        self.pending = -1

    def _get(self, reg):
        return self.regs[reg]

    def _put(self, reg, v):
        self.regs[reg] = v

    def xfer(self, b):
        out = 0
        if self.pending >= 0:
            out = self._get(self.pending)
            self.pending = -1
        if self.first:
            self.first = False
            self.reading = b & 0x80
            if self.reading:
                self.pending = (b >> 1) & 0x3F
            else:
                self.addr = (b >> 1) & 0x3F
        elif self.reading:
            if b & 0x80:
                self.pending = (b >> 1) & 0x3F
        else:
            self._put(self.addr, b)
        return out
