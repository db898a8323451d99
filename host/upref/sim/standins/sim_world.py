# The simulated board's physical world as the firmware's stand-ins (machine.py, neopixel.py)
# see it, inside the process that runs the firmware.
#
# Runs unchanged under CPython and the MicroPython unix port: no typing, dataclasses, enum,
# f-string "=", os.path. The hot paths (adc_read, pin writes, poll) allocate nothing.
#
# Sensor supply: when the pin map has mux.power (one supply switch per multiplexer bank), a
# bank's sensors are powered only while the firmware holds its switch signal at the active
# level (low for the P-MOSFET gates). Unpowered they read about 0 (near 0 counts); for t_on_us
# (HALL_TON_US) after switch-on they read a low, wrong level. Without mux.power every sensor is
# always powered.
#
# The sensors' supply rail and the chip's warm-up. The DRV5055 is ratiometric: its output,
# resting level and sensitivity alike, scales with its supply, while the ADC reads against its
# own reference. The rail is supply_uv (3.3 V unless a P record says otherwise: a weak USB port
# or a long cable leaves less) less led_drop_uv times the status LED's share of full white (the
# LED's current through the port's and the cable's resistance: it steps every time the LED
# switches). A reference channel (mux.ref in the pin map) reads the rail halved, through the
# bank's switch like that bank's sensors. The chip warms after power-on (a T record gives how
# much, in tenths of a degree): its ADC reference moves VREF_UV_PER_C per degree, and each
# sensor's resting output SENSOR_UV_PER_C[k] per degree (the model's figures: Espressif and TI
# publish none for these; see docs/simulator.md).
#
# Two modes:
#   * connected (the simulator started this process): UPREF_SIM_FIFO names a FIFO on which the
#     simulator sends world records (below); reports go to stderr as lines starting with
#     REPORT_PREFIX. UPREF_SIM_PINMAP, UPREF_SIM_RESET and UPREF_SIM_MAC configure the board.
#   * standalone (a test imported machine directly): no FIFO, no reports; tests set the world
#     through World methods (set_level, set_button, set_cards, ...), read led/tones/resets.
#
# World records (simulator -> here), RECORD_SIZE bytes each, ASCII words separated by spaces,
# padded with spaces, the last byte "\n". Fixed size because MicroPython's readinto() blocks
# until its buffer is full: a whole record is always there when poll says so.
#   L <k> <uv> <ramp_ms> <delay_ms> [<stamp>]   sensor k's output (0-based k) moves to uv
#                                        microvolts over ramp_ms, starting delay_ms from now (0 0:
#                                        at once), or from <stamp> (the simulator's clock, ms,
#                                        when it happened)
#   V <mv>                               the chip's ADC reference (Vref), mV: its ADC curve
#   F <k> <mode>                         sensor mode: 0 ok, 1 floating, 2 railed high, 3 railed low
#   B <0|1> [<stamp>]                    button pressed (1) or released (0), at the stamp (as K+)
#   N <sigma>                            the ADC's noise, standard deviation in read_u16 counts
#   S <seed>                             seed of the noise generator
#   K0                                   the RFID field is empty
#   K+ <uid hex> [<stamp>]               a card lies in the field (stays until K- or K0); the
#                                        stamp (the simulator's clock, ms) says when it was laid
#                                        (make bench dates the card's arrival by it: probe.py)
#   K- <uid hex>                         the card left the field
#   KE <uid hex> <pct>                   the card lies at the edge of the field: unpowered at a
#                                        read with this chance (%), never three reads in a row
#   KB <uid hex> <pct>                   a marginal card: each of its answers has a bit wrong
#                                        with this chance (%)
#   KW <uid hex> <page> <8 hex>          an NTAG's page (0..44) holds these 4 bytes: sent just
#                                        before its card is laid (K+), each time (the reader's
#                                        model forgets a card's memory when it leaves, unless a
#                                        WRITE changed it): the simulated deck's records, a
#                                        sticker locked or filled by a test
#   RC <keep> <pct>                      the reader: keep 1 when the chip leaves a checked CRC_A
#                                        in the FIFO (0: it removes it), and the chance (%) that
#                                        any card's answer has a bit wrong
#   R <version>                          the MFRC522's VersionReg (0 or 255: a dead reader)
#   P <supply_uv> <led_drop_uv>          the sensors' supply rail, and how far the LED at full
#                                        white pulls it down
#   T <tenths of a degree>               how far the chip and the board have warmed since power-on
#
# Reports (here -> simulator), one line each on stderr: REPORT_PREFIX, then
#   boot <backend>        the stand-ins are up
#   face firmware|repl    what answers on the USB port now
#   led <r> <g> <b>       the status LED shows this colour
#   tone <hz> <duty_u16>  the buzzer's PWM changed (duty 0: silent)
#   wdt <timeout_ms>      a watchdog was started
#   feed                  the watchdog was fed (at most every FEED_REPORT_MS)
#   reset hard|soft|deepsleep [ms]   the firmware asked for a reset; the simulator kills and
#                         restarts this process (this process just waits)
#   booted                boot.py is done: main.py runs next (or the REPL)
#   kbd <char>            micropython.kbd_intr(char): -1, the firmware reads Ctrl-C itself (the
#                         simulator then passes 0x03 on as data); 3, Ctrl-C interrupts again
#   freq <hz>             machine.freq(hz): the CPU's clock (the cost model scales with it)
#   clock <jumps> <us>    the chip's clock caught up with the machine's (it fell far behind)
#   rtc <hex>             machine.RTC().memory(data): the simulator keeps it for the next start
#                         (UPREF_SIM_RTC) and forgets it at a power-on

import sys
import time

try:
    import os
except ImportError:  # pragma: no cover
    os = None

from array import array

import chip as _chipmod
import esp32_adc

REPORT_PREFIX = "%%sim "
RECORD_SIZE = 32
FEED_REPORT_MS = 100
POLL_EVERY_MS = 3

MODE_OK = 0
MODE_FLOAT = 1
MODE_RAIL_HIGH = 2
MODE_RAIL_LOW = 3

# Pin roles (what the pin map wires a GPIO to)
ROLE_NONE = 0
ROLE_MUX_SELECT = 1
ROLE_RFID_CS = 2
ROLE_RFID_RST = 3
ROLE_BUTTON = 4
ROLE_LED = 5
ROLE_BUZZER = 6
ROLE_MUX_BANK = 7
ROLE_MUX_POWER = 8  # a bank's sensor supply switch (mux.power), role_arg = bank

# A bank's hall sensors with their supply switched off read about 0 V (their output sinks to
# ground), and for this long after it is switched on their output is not valid yet (TI DRV5055
# datasheet: power-on time tON 330 us max): the ADC then reads a low, wrong level.
HALL_TON_US = 330
OFF_UV_MAX = 16383  # an unpowered sensor's output: 0..16 mV (noise on ground), reads 0
SUPPLY_UV = 3300000  # the sensors' supply: a railed-high output
REST_UV = 1650000  # a sensor at rest, nominally (VCC / 2)
REF_K = -2  # sensor_at's mark of the reference channel (mux.ref)
VREF_UV_PER_C = 200  # the ADC reference's drift as the chip warms, uV per degree (the model's)
SENSOR_UV_MAX_PER_C = 30  # a sensor's own resting drift, up to +-this uV per degree (the model's)

N_GPIO = 40
MUX_CHANNELS = 16

_NOISE_SIGMA_OF_SUM = 148  # standard deviation of the sum of four uniform bytes


def _unhex(text):
    try:
        return bytes(int(text[i:i + 2], 16) for i in range(0, len(text) - 1, 2))
    except ValueError:
        return b""


def _getenv(name):
    if os is None:
        return None
    try:
        return os.getenv(name)
    except Exception:
        return None


def _dirname(path):
    i = path.rfind("/")
    if i < 0:
        return "."
    if i == 0:
        return "/"
    return path[:i]


def _exists(path):
    try:
        open(path, "rb").close()
        return True
    except OSError:
        return False


def default_pinmap_path():
    """The pin map: UPREF_SIM_PINMAP, else pinmap.json on the flash (cwd), else the one upref
    ships (upref/resources/hardware/pinmap.json)."""
    p = _getenv("UPREF_SIM_PINMAP")
    if p:
        return p
    if _exists("pinmap.json"):
        return "pinmap.json"
    # upref/sim/standins -> upref
    package = _dirname(_dirname(_dirname(__file__)))
    return package + "/resources/hardware/pinmap.json"


class World:
    """Everything outside the ESP32 that the stand-ins touch."""

    def __init__(self, pinmap_path=None):
        import json

        if pinmap_path is None:
            pinmap_path = default_pinmap_path()
        with open(pinmap_path) as f:
            pm = json.load(f)
        self._wire_pins(pm)
        self._wire_sensors(pm)
        del pm
        self._sensor_levels(self.n_sensors)
        self._pins_and_parts()
        self._from_simulator()

    def _wire_pins(self, pm):
        # what each GPIO is wired to (role, role_arg), from the pin map: the multiplexers'
        # selects and banks, the banks' supply switches, the reader, button, LED and buzzer
        sig = pm["signals"]
        self.role = bytearray(N_GPIO)
        self.role_arg = bytearray(N_GPIO)
        self.signal_of = {}
        for name in sig:
            g = sig[name]["gpio"]
            self.signal_of[g] = name
        mux = pm.get("mux", {})
        sel = mux.get("select", [])
        for i in range(len(sel)):
            g = sig[sel[i]]["gpio"]
            self.role[g] = ROLE_MUX_SELECT
            self.role_arg[g] = i
        banks = mux.get("banks", [])
        self.n_banks = len(banks)
        for i in range(len(banks)):
            g = sig[banks[i]]["gpio"]
            self.role[g] = ROLE_MUX_BANK
            self.role_arg[g] = i
        # sensor supply switches, one per bank (mux.power): the bank is on while its switch
        # signal is at its active level; no switches means every sensor is always powered
        power = mux.get("power") or []
        self.switched = len(power) > 0
        self.bank_on = bytearray([0 if self.switched else 1] * max(self.n_banks, 1))
        self.bank_on_level = bytearray(max(self.n_banks, 1))  # the level that switches it on
        self.bank_on_us = array("i", [0] * max(self.n_banks, 1))  # ticks_us when switched on
        self.t_on_us = HALL_TON_US
        for i in range(len(power)):
            if i < self.n_banks:
                s = sig[power[i]]
                self.role[s["gpio"]] = ROLE_MUX_POWER
                self.role_arg[s["gpio"]] = i
                self.bank_on_level[i] = 0 if s.get("active", "low") == "low" else 1
        for name, role in (("rfid_cs", ROLE_RFID_CS), ("rfid_rst", ROLE_RFID_RST),
                           ("button", ROLE_BUTTON), ("led_data", ROLE_LED),
                           ("buzzer", ROLE_BUZZER)):
            if name in sig:
                self.role[sig[name]["gpio"]] = role
        b = sig.get("button", {})
        self.button_active_low = b.get("active", "low") == "low"

    def _wire_sensors(self, pm):
        # which sensor each multiplexer input carries (sensor_at), and the reference channel
        mux = pm.get("mux", {})
        hall = pm.get("hall", {})
        chans = hall.get("channels", [])
        self.n_sensors = len(chans)
        n = self.n_sensors
        # sensor_at[bank * 16 + channel] = k, or -1 for an unconnected mux input
        self.sensor_at = array("h", [-1] * (max(self.n_banks, 1) * MUX_CHANNELS))
        for k in range(n):
            bank, ch = chans[k][0], chans[k][1]
            if 0 <= bank < self.n_banks and 0 <= ch < MUX_CHANNELS:
                self.sensor_at[bank * MUX_CHANNELS + ch] = k
        ref = mux.get("ref")
        if ref and 0 <= ref["bank"] < self.n_banks and 0 <= ref["channel"] < MUX_CHANNELS:
            self.sensor_at[ref["bank"] * MUX_CHANNELS + ref["channel"]] = REF_K

    def _sensor_levels(self, n):
        # sensor levels: a ramp from lv_from to lv_to over ramp ms from t_start (ms since _t0)
        m = n + 1  # the last slot is the level of an unconnected mux input
        self.lv_from = array("i", [REST_UV] * m)
        self.lv_to = array("i", [REST_UV] * m)
        self.t_start = array("i", [0] * m)
        self.ramp = array("i", [0] * m)
        self.mode = bytearray(m)
        self.mode[n] = MODE_FLOAT
        self.wander = array("i", [REST_UV] * m)
        self.noise = 0
        # the sensors' supply rail (P records, the LED), and the warm-up (T records)
        self.supply_uv = SUPPLY_UV
        self.led_drop_uv = 0
        self.rail_uv = SUPPLY_UV
        self._rail_f = 0  # (rail - 3.3 V) / 3.3 V in 1/16384: what the sensors' outputs scale by
        self.warm_c10 = 0
        self.drift_uv = array("i", [0] * m)
        # each sensor's own drift per degree, spread over +-SENSOR_UV_MAX_PER_C by its index
        self._sensor_tc = array("b", [((k * 40503) >> 4) % (2 * SENSOR_UV_MAX_PER_C + 1)
                                      - SENSOR_UV_MAX_PER_C for k in range(m)])
        # the chip's ADC: one curve per attenuation, for its reference voltage
        self.vref_mv = esp32_adc.VREF_NOMINAL_MV
        self.vref_cold_mv = self.vref_mv
        self.curves = None
        self.set_vref(self.vref_mv)
        self._rng = 0x2545F491
        self._t0 = time.ticks_ms()

    def _pins_and_parts(self):
        # GPIO state shared by every Pin object of the same number
        self.pin_level = bytearray(N_GPIO)
        self.pin_mode = bytearray(N_GPIO)  # 0: not configured, else Pin.IN/OUT/OPEN_DRAIN
        self.pin_pull = bytearray(N_GPIO)  # 0: none, else Pin.PULL_UP / PULL_DOWN
        self.mux_sel = 0
        self.button = 0
        self.button_irqs = []

        # RFID
        self.rfid = None
        self.rfid_version = 0x92
        self.cards = []
        self.edges = {}  # UID -> chance (%) of being unpowered at a read (KE)
        self.bit_errors = {}  # UID -> chance (%) that its answer has a bit wrong (KB)
        self.tag_pages = {}  # UID -> {page: 4 bytes} written by KW, for a reader made later
        self.rfid_keep_crc = False  # RC: the chip leaves a checked CRC_A in the FIFO
        self.rfid_bit_errors = 0  # RC: chance (%) that any card's answer has a bit wrong
        self.spi_ok = True

        # what the firmware drives
        self.led = (0, 0, 0)
        self.tone = (0, 0)
        self.tones = []  # (ticks_ms, hz, duty) in standalone mode
        self.wdt_timeout = 0
        self.timers = []  # machine.Timer objects with a callback, ticked from poll()
        self.resets = []  # standalone mode: the reset kinds asked for
        self._last_feed_report = 0
        self._last_poll = self._t0

    def _from_simulator(self):
        # what the simulator tells this process: the reset cause, the MAC, the world's FIFO
        cause = _getenv("UPREF_SIM_RESET")
        self.reset_cause = int(cause) if cause else 1  # PWRON_RESET
        rtc = _getenv("UPREF_SIM_RTC")  # the RTC's user memory, kept by the simulator
        self.rtc_memory = _unhex(rtc) if rtc else b""
        mac = _getenv("UPREF_SIM_MAC")
        if mac and len(mac) == 12:
            self.mac = bytes([int(mac[i:i + 2], 16) for i in range(0, 12, 2)])
        else:
            self.mac = b"\x24\x0a\xc4\x00\x00\x01"

        self.chip = _chipmod.chip
        self._jumps_told = 0
        self._fifo = None
        self.orphaned = False
        self._poll = None
        self._ipoll = False
        self._rec = bytearray(RECORD_SIZE)
        self.connected = False
        path = _getenv("UPREF_SIM_FIFO")
        if path:
            self.connect(path)

    # ---- the simulator link ----------------------------------------------------------------

    def connect(self, fifo_path):
        """Take world records from the FIFO at fifo_path and send reports on stderr."""
        import select

        self._fifo = open(fifo_path, "rb", buffering=0)  # no buffer between poll and readinto
        p = select.poll()
        p.register(self._fifo, select.POLLIN)
        self._poll = p
        self._ipoll = hasattr(p, "ipoll")
        self.connected = True
        self.poll(True)

    def report(self, text):
        if self.connected:
            sys.stderr.write(REPORT_PREFIX + text + "\n")
            try:
                sys.stderr.flush()
            except AttributeError:
                pass

    def poll(self, force=False):
        """Apply the world records that have arrived and run due timer callbacks; cheap when
        called often (works at most every POLL_EVERY_MS)."""
        now = time.ticks_ms()
        if not force and time.ticks_diff(now, self._last_poll) < POLL_EVERY_MS:
            return
        self._last_poll = now
        if self.timers:
            self.tick_timers(now)
        if self.chip.jumps != self._jumps_told:
            self._jumps_told = self.chip.jumps
            self.report("clock %d %d" % (self.chip.jumps, self.chip.jumped_us))
        if self._fifo is None:
            return
        for _ in range(256):
            if not self._ready():
                return
            n = self._fifo.readinto(self._rec)
            if not n:
                # the simulator is gone: a board without power stops
                self._fifo = None
                self.orphaned = True
                raise SystemExit(0)
            self.apply(self._rec)

    def add_timer(self, t):
        """Arm machine.Timer t; a timer with the same id is replaced, as on the ESP32."""
        for i in range(len(self.timers)):
            if self.timers[i] is t or self.timers[i].id == t.id:
                self.timers[i] = t
                return
        self.timers.append(t)

    def remove_timer(self, t):
        if t in self.timers:
            self.timers.remove(t)

    def tick_timers(self, now=None):
        """Run the callbacks of due timers (on the ESP32 they run as scheduled soft IRQs,
        between bytecodes and while the REPL waits for input)."""
        if now is None:
            now = time.ticks_ms()
        for t in list(self.timers):
            if time.ticks_diff(now, t.due) >= 0:
                if t.periodic:
                    t.due = time.ticks_add(t.due, t.period)
                    if time.ticks_diff(now, t.due) >= 0:
                        t.due = time.ticks_add(now, t.period)
                else:
                    self.remove_timer(t)
                t.callback(t)

    def _ready(self):
        if self._ipoll:
            for _obj, ev in self._poll.ipoll(0):
                return ev != 0
            return False
        return len(self._poll.poll(0)) > 0

    def apply(self, rec):
        """Apply one world record (bytes, see the file header)."""
        words = bytes(rec).decode().split()
        if not words:
            return
        op = words[0]
        if op == "L":
            # an optional 6th word dates the change (the machine's ticks_ms when it happened)
            age = time.ticks_diff(self.chip.real_ticks_ms(), int(words[5])) if len(words) > 5 else 0
            self.set_level(int(words[1]), int(words[2]), int(words[3]), int(words[4]) - max(0, age))
        elif op == "F":
            self.set_mode(int(words[1]), int(words[2]))
        elif op == "B":
            self.set_button(int(words[1]))
        elif op == "V":
            self.set_vref(int(words[1]))
        elif op == "N":
            self.noise = int(words[1])
        elif op == "S":
            self.seed(int(words[1]))
        elif op == "K0":
            self.set_cards([])
        elif op == "K+":
            uid = _unhex(words[1])
            if uid not in self.cards:
                self.set_cards(self.cards + [uid])
        elif op == "K-":
            uid = _unhex(words[1])
            self.set_cards([c for c in self.cards if c != uid])
        elif op == "KE":
            self.set_edge(_unhex(words[1]), int(words[2]))
        elif op == "KB":
            self.set_bit_errors(_unhex(words[1]), int(words[2]))
        elif op == "KW":
            self.write_tag(_unhex(words[1]), int(words[2]), _unhex(words[3]))
        elif op == "RC":
            self.set_rfid_air(words[1] == "1", int(words[2]))
        elif op == "R":
            self.set_rfid_version(int(words[1]))
        elif op == "P":
            self.set_supply(int(words[1]), int(words[2]))
        elif op == "T":
            self.set_warm(int(words[1]))

    # ---- sensors ---------------------------------------------------------------------------

    def now(self):
        return time.ticks_diff(time.ticks_ms(), self._t0)

    def seed(self, s):
        s &= 0xFFFFFFFF
        self._rng = s if s else 0x2545F491

    def _rand(self):
        x = self._rng
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self._rng = x
        return x

    def _noise(self):
        if not self.noise:
            return 0
        x = self._rand()
        s = (x & 255) + ((x >> 8) & 255) + ((x >> 16) & 255) + (x >> 24)
        return (s - 510) * self.noise // _NOISE_SIGMA_OF_SUM

    def set_level(self, k, level, ramp_ms=0, delay_ms=0):
        """Sensor k moves to `level` (no noise) over ramp_ms, starting delay_ms from now."""
        now = self.now()
        cur = self.level_at(k, now)
        self.lv_from[k] = cur
        self.lv_to[k] = level
        self.t_start[k] = now + delay_ms
        self.ramp[k] = ramp_ms

    def level_at(self, k, now):
        """The modelled level of sensor k (without noise) at `now` (ms since start)."""
        dt = now - self.t_start[k]
        r = self.ramp[k]
        if dt < 0:
            return self.lv_from[k]
        if dt >= r:
            return self.lv_to[k]
        a = self.lv_from[k]
        return a + (self.lv_to[k] - a) * dt // r

    def set_mode(self, k, mode):
        self.mode[k] = mode
        if mode == MODE_FLOAT:
            self.wander[k] = REST_UV

    def set_vref(self, mv):
        """The chip's ADC reference (mV), cold: every attenuation's curve follows it (warmed
        up by set_warm)."""
        self.vref_cold_mv = mv
        self._set_curves()

    def _set_curves(self):
        mv = self.vref_cold_mv + (self.warm_c10 * VREF_UV_PER_C + 5000) // 10000
        self.vref_mv = mv
        self.curves = tuple(esp32_adc.Curve(mv, a) for a in range(4))

    def set_warm(self, c10):
        """The chip and the board have warmed by c10 tenths of a degree since power-on."""
        self.warm_c10 = c10
        for k in range(len(self.drift_uv)):
            self.drift_uv[k] = c10 * self._sensor_tc[k] // 10
        self._set_curves()

    def set_supply(self, supply_uv, led_drop_uv):
        """The sensors' supply rail (uV) with the LED dark, and its drop with the LED at full white."""
        self.supply_uv = supply_uv
        self.led_drop_uv = led_drop_uv
        self._set_rail()

    def _set_rail(self):
        r, g, b = self.led
        rail = self.supply_uv - self.led_drop_uv * (r + g + b) // 765
        if rail < SUPPLY_UV - 1000000:
            rail = SUPPLY_UV - 1000000  # below that the ESP32 has browned out long before
        self.rail_uv = rail
        self._rail_f = (rail - SUPPLY_UV) // 32 * 16384 // (SUPPLY_UV // 32)  # small ints only

    def _powered(self, k):
        # sensor k's output on the rail as it is, warmed as the board is
        v = self.sensor_read(k)
        f = self._rail_f
        if f:
            v += ((v >> 4) * f) >> 10
        return v + self.drift_uv[k]

    def adc_noise(self):
        """One reading's noise, read_u16 counts (zero-mean, sigma set by the N record)."""
        return self._noise()

    def sensor_read(self, k):
        """Sensor k's output now, microvolts (0..SUPPLY_UV), before the ADC reads it."""
        if k < 0:
            k = self.n_sensors
        m = self.mode[k]
        if m == MODE_OK:
            v = self.level_at(k, self.now())
        elif m == MODE_FLOAT:
            x = self._rand()
            v = self.wander[k] + ((x & 1023) - 512) * 1100
            if x & 0xFC00 == 0:  # now and then a jump, as a floating input picks up charge
                v = ((x >> 16) & 0xFFFF) * 50
            if v < 0:
                v = -v
            if v > SUPPLY_UV:
                v = 2 * SUPPLY_UV - v
            self.wander[k] = v
        elif m == MODE_RAIL_HIGH:
            v = SUPPLY_UV
        else:
            v = 0
        if v < 0:
            return 0
        if v > SUPPLY_UV:
            return SUPPLY_UV
        return v

    def adc_read(self, bank):
        """The voltage (uV) at the ADC input of mux bank `bank` (-1: a pin with no sensor
        behind it), before the ADC reads it."""
        self.poll()
        if bank < 0:
            return self.sensor_read(-1)
        k = self.sensor_at[bank * MUX_CHANNELS + self.mux_sel]
        if k == REF_K:  # the divider: half the rail while the bank's switch is on, at once
            if not self.bank_on[bank]:
                return self._rand() & OFF_UV_MAX
            return self.rail_uv >> 1
        if k < 0 or self.mode[k] == MODE_FLOAT:
            return self.sensor_read(k)  # a floating input floats, powered or not
        if not self.bank_on[bank]:
            return self._rand() & OFF_UV_MAX  # unpowered: the output sits at ground
        if self.switched:
            dt = time.ticks_diff(time.ticks_us(), self.bank_on_us[bank])
            if dt < self.t_on_us:
                # still powering up: a low level on its way, not the sensor's reading
                if dt < 0:
                    dt = 0
                return self._powered(k) * dt // (2 * self.t_on_us)
        return self._powered(k)

    def set_bank_power(self, bank, on):
        """Switch bank `bank`'s sensors on (1) or off (0), as its supply switch does."""
        if on and not self.bank_on[bank]:
            self.bank_on_us[bank] = time.ticks_us()
        self.bank_on[bank] = 1 if on else 0

    # ---- pins ------------------------------------------------------------------------------

    def pin_written(self, gpio, v):
        """An output pin changed level: drive what hangs on it."""
        r = self.role[gpio]
        if r == ROLE_MUX_SELECT:
            bit = 1 << self.role_arg[gpio]
            if v:
                self.mux_sel |= bit
            else:
                self.mux_sel &= ~bit
        elif r == ROLE_MUX_POWER:
            b = self.role_arg[gpio]
            self.set_bank_power(b, 1 if v == self.bank_on_level[b] else 0)
        elif r == ROLE_RFID_CS:
            self._reader().cs(v)
        elif r == ROLE_RFID_RST:
            self._reader().rst(v)

    def pin_read(self, gpio, pull):
        """The level an input pin reads."""
        self.poll()
        if self.role[gpio] == ROLE_BUTTON and self.button:
            return 0 if self.button_active_low else 1
        if pull == 2:  # PULL_UP
            return 1
        if pull == 1:  # PULL_DOWN
            return 0
        return self._rand() & 1  # a floating input reads whatever it picks up

    def set_button(self, pressed):
        pressed = 1 if pressed else 0
        if pressed == self.button:
            return
        self.button = pressed
        for pin, handler, trigger in self.button_irqs:
            level = pin.value()
            # IRQ_RISING = 1, IRQ_FALLING = 2
            if (level and trigger & 1) or (not level and trigger & 2):
                handler(pin)

    # ---- RFID ------------------------------------------------------------------------------

    def _reader(self):
        r = self.rfid
        if r is None:
            try:
                from mfrc522_model import MFRC522Model
            except ImportError:
                MFRC522Model = None
            if MFRC522Model is None:
                r = _NoReader()
            else:
                # with the cost model on, the reader keeps the chip's time (its timer, the air)
                # and the air is real: overlapping cards garble each other
                r = MFRC522Model(self.rfid_version, self.chip.now_us if self.chip.on else None,
                                 real_air=True, keep_crc=self.rfid_keep_crc)
                r.bit_errors = self.rfid_bit_errors
                # a card is in the field the moment it is laid: before each transmission the
                # reader's records are read, as a real reader's field holds a card at once
                r.on_transceive = self._look
                r.set_field(self.cards)
                for uid in self.edges:
                    r.set_edge(uid, self.edges[uid])
                for uid in self.bit_errors:
                    r.set_bit_errors(uid, self.bit_errors[uid])
                for uid in self.tag_pages:
                    for page in self.tag_pages[uid]:
                        self._write_page(r, uid, page, self.tag_pages[uid][page])
            self.rfid = r
        return r

    def _look(self):
        """The world's records read now (the reader is about to transmit into its field)."""
        self.poll(True)

    def spi_xfer(self, b):
        if not self.spi_ok:
            return 0xFF
        return self._reader().xfer(b)

    def set_cards(self, uids):
        self.cards = [bytes(u) for u in uids]
        for uid in [u for u in self.edges if u not in self.cards]:
            del self.edges[uid]  # a card laid again lies where it is put
        for uid in [u for u in self.bit_errors if u not in self.cards]:
            del self.bit_errors[uid]
        if self.rfid is not None:
            self.rfid.set_field(self.cards)

    def write_tag(self, uid, page, data):
        """An NTAG's page holds `data` (4 bytes), as written before the board saw it."""
        uid = bytes(uid)
        if self.rfid is not None:
            self._write_page(self.rfid, uid, page, data)
        else:  # kept for the reader when it is made (the firmware's heap keeps nothing else)
            self.tag_pages.setdefault(uid, {})[page] = bytes(data)

    def _write_page(self, r, uid, page, data):
        memory = r.memory(uid) if hasattr(r, "memory") else None
        if memory is not None and 0 <= page < len(memory) // 4 and len(data) == 4:
            for i in range(4):
                memory[page * 4 + i] = data[i]

    def set_edge(self, uid, pct):
        """A card in the field at its edge: unpowered at a read with chance pct (%)."""
        self.edges[bytes(uid)] = pct
        if self.rfid is not None:
            self.rfid.set_edge(uid, pct)

    def set_bit_errors(self, uid, pct):
        """A marginal card in the field: each of its answers has a bit wrong with chance pct."""
        self.bit_errors[bytes(uid)] = pct
        if self.rfid is not None:
            self.rfid.set_bit_errors(uid, pct)

    def set_rfid_air(self, keep_crc, bit_errors):
        """The reader's chip and field: whether a checked CRC_A stays in the FIFO, and the
        chance (%) that any card's answer has a bit wrong."""
        self.rfid_keep_crc = bool(keep_crc)
        self.rfid_bit_errors = bit_errors
        if self.rfid is not None:
            self.rfid.keep_crc = self.rfid_keep_crc
            self.rfid.bit_errors = bit_errors

    def set_rfid_version(self, v):
        self.rfid_version = v
        if self.rfid is not None:
            self.rfid.version = v

    # ---- what the firmware drives ----------------------------------------------------------

    def set_led(self, r, g, b):
        c = (r, g, b)
        if c != self.led:
            self.led = c
            if self.led_drop_uv:
                self._set_rail()
            self.report("led %d %d %d" % c)

    def set_tone(self, hz, duty):
        t = (hz, duty)
        if t != self.tone:
            self.tone = t
            if self.connected:
                self.report("tone %d %d" % t)
            else:
                self.tones.append((time.ticks_ms(), hz, duty))

    def kbd_intr(self, c):
        """micropython.kbd_intr(c): the simulator delivers 0x03 as SIGINT only while c is 3."""
        self.report("kbd %d" % c)

    def set_freq(self, hz):
        self.chip.set_mhz(hz // 1000000)
        self.report("freq %d" % hz)

    def wdt_start(self, timeout_ms):
        self.wdt_timeout = timeout_ms
        self._last_feed_report = time.ticks_ms()
        self.report("wdt %d" % timeout_ms)

    def wdt_feed(self):
        self.poll()
        if not self.connected:
            return
        now = time.ticks_ms()
        if time.ticks_diff(now, self._last_feed_report) >= FEED_REPORT_MS:
            self._last_feed_report = now
            self.report("feed")

    def reset(self, kind, ms=0):
        """machine.reset()/soft_reset()/deepsleep(): the simulator restarts this process; on
        its own this raises SystemExit, the closest a test gets to a board that resets."""
        if not self.connected:
            self.resets.append(kind)
            raise SystemExit("machine reset: " + kind)
        if self.orphaned:
            raise SystemExit(0)
        try:
            sys.stdout.buffer.flush()
        except Exception:
            pass
        self.report("reset %s %d" % (kind, ms))
        while True:  # the simulator kills this process
            time.sleep_ms(1000)


class _NoReader:
    """No MFRC522 model available: MISO floats high."""

    def cs(self, level):
        pass

    def rst(self, level):
        pass

    def xfer(self, b):
        return 0xFF

    def set_field(self, uids):
        pass


def _unhex(s):
    return bytes([int(s[i:i + 2], 16) for i in range(0, len(s), 2)])


world = World()
