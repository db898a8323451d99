# A whole fake board for firmware/app.py: the real HallMux over fake multiplexers (fake_hall), a
# scripted RFID reader (the MFRC522 driver itself is tested against the register-level model in
# test_mfrc522.py; the whole chain runs end to end on the simulated board), a button, LED,
# buzzer and a USB port whose input the test scripts. Runs under CPython and MicroPython.

import wire
from fake_hall import Sensors, pinmap
from hallmux import HallMux

_HALL = None
UID7_FOR_ALLOC = bytes([0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])


def hall():
    """(holes, per_hole, channels, thresholds) from the pin map, read once, kept compact."""
    global _HALL
    if _HALL is None:
        h = pinmap()["hall"]
        _HALL = (h["holes"], h["sensors_per_hole"], tuple((c[0], c[1]) for c in h["channels"]),
                 h["thresholds"])
    return _HALL


class FakePort:
    """The USB port: input the test scripts, output kept in a preallocated buffer (writing
    allocates nothing, so a test can lock the heap around the board's loop)."""

    def __init__(self):
        self.inbox = bytearray()
        self._pos = 0
        self._out = bytearray(4096)
        self._n = 0

    def read_byte(self):
        if self._pos >= len(self.inbox):
            return -1
        c = self.inbox[self._pos]
        self._pos += 1
        return c

    def write(self, buf, off=0, n=-1):
        if n < 0:
            n = len(buf) - off
        out = self._out
        j = self._n
        if j + n > len(out):
            raise ValueError("FakePort output full: read it with frames()")
        for i in range(n):
            out[j + i] = buf[off + i]
        self._n = j + n

    def send(self, seq, ftype, args=()):
        """Queue a host command, framed as the host frames it."""
        class Sink:
            def __init__(self):
                self.data = bytearray()

            def write(self, b, n):
                self.data.extend(b[:n])

        s = Sink()
        w = wire.FrameWriter(s)
        w.seq = seq
        w.begin(ftype.encode())
        for a in args:
            w.arg(a.encode())
        w.end()
        self.inbox.extend(s.data)

    def frames(self):
        """Every frame written so far as (type, args), checked; clears the output."""
        got = []
        for line in bytes(self._out[:self._n]).split(b"\r\n"):
            if not line:
                continue
            buf = bytearray(line)
            star = wire.check(buf, len(buf))
            if star < 0:
                raise AssertionError("board wrote a bad frame: %r" % line)
            _, ftype, args = wire.split(buf, star)
            got.append((ftype, args))
        self._n = 0
        return got


class FakeReader:
    """The MFRC522 driver's interface as CardWatcher uses it: init(wait_ms), version,
    read_start() and read_step() (a read with a card in the field takes `steps` steps)."""

    def __init__(self):
        self.version = 0x92
        self.field = []
        self.inits = 0
        self.steps = 3
        self._left = 0

    def set_field(self, uids):
        self.field = list(uids)

    def init(self, wait_ms=50):
        self.inits += 1
        if self.version in (0x00, 0xFF):
            raise OSError("MFRC522 not answering: VersionReg=0x%02X" % self.version)

    def read_start(self):
        self._left = self.steps

    def ahead(self):  # no frame goes out ahead: each step is a whole exchange
        return False

    def read_step(self, into):
        if self.version in (0x00, 0xFF):
            raise OSError("MFRC522 not answering")
        if not self.field:
            return 0
        self._left -= 1
        if self._left > 0:
            return -1
        return self.read_uid(into)

    def read_uid(self, into):
        if self.version in (0x00, 0xFF):
            raise OSError("MFRC522 not answering")
        if not self.field:
            return 0
        uid = self.field[0]
        for i in range(len(uid)):
            into[i] = uid[i]
        return len(uid)


class FakeTags:
    """The sticker reader as CardWatcher uses it (ntag.NtagReader: start, step, length, buf, n,
    command): every card with a 7-byte UID carries `message` (None: none does). Allocates
    nothing."""

    def __init__(self, message=None):
        self.message = message
        self.buf = bytearray(64)
        self.length = -1
        self.n = 0

    def start(self, uid_len):
        self.length = -1
        self.n = 0
        return uid_len == 7 and self.message is not None

    def step(self):
        m = self.message
        for i in range(len(m)):
            self.buf[i] = m[i]
        self.length = len(m)
        self.n = len(m)
        return 0  # ntag.NONE: the read is over

    def command(self, a, seq, cmd, args):
        return False


class FakeNeoPixel:
    def __init__(self):
        self.pixels = [(0, 0, 0)]
        self.shown = (0, 0, 0)

    def __setitem__(self, i, v):
        self.pixels[i] = v

    def __getitem__(self, i):
        return self.pixels[i]

    def write(self):
        self.shown = self.pixels[0]


class FakePWM:
    def __init__(self):
        self.hz = 0
        self.duty = 0
        self.log = []

    def freq(self, hz=None):
        if hz is None:
            return self.hz
        self.hz = hz

    def duty_u16(self, d=None):
        if d is None:
            return self.duty
        self.duty = d
        self.log.append(self.hz if d else 0)


class FakeWDT:
    def __init__(self, ms):
        self.timeout = ms
        self.feeds = 0

    def feed(self):
        self.feeds += 1


class FakeButton:
    def __init__(self):
        self.pressed = 0


class FakeHw:
    def __init__(self):
        self.holes, self.per_hole, self.channels, self.thresholds = hall()
        self.settle_us = 0
        self.sensors = Sensors(self.channels)
        self.mux_adcs = self.sensors.mux.adcs
        self.mux_select = self.sensors.mux.pins
        self.mux = HallMux(self.mux_adcs, self.mux_select, self.channels, self.settle_us)
        self.rfid = FakeReader()
        self.reader = self.rfid
        self.led = FakeNeoPixel()
        self.buzzer = FakePWM()
        self.port = FakePort()
        self.board_id = b"A4CF12345678"
        self.reset_cause = b"power"
        self.button = FakeButton()
        self.resets = 0
        self.released = False
        self.wdt = None

    def button_pressed(self):
        return self.button.pressed

    def watchdog(self):
        self.wdt = FakeWDT(8000)
        return self.wdt

    def release_watchdog(self):
        self.released = True

    def reset(self):
        self.resets += 1

    def put_magnets(self, hole, magnets):
        """Magnets as a 4-letter string like 'N-SN' over hole `hole` (1-based)."""
        for p in range(4):
            k = (hole - 1) * 4 + p
            c = magnets[p]
            self.sensors.set(k, 32768 + 12000 if c == "N" else 32768 - 12000 if c == "S" else 32768)
