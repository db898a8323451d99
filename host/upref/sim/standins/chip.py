# The simulated ESP32's clock, and what the firmware's operations cost on the real chip: the
# simulator's cost model (docs/simulator.md, "The chip's time", states every figure's source).
#
# In the firmware process the simulator starts (runtime.py), the firmware's `time` is this
# clock: ticks_ms/ticks_us read it, sleep_ms/sleep_us advance it. With the cost model on
# (UPREF_SIM_COST=1, the simulator's default) every hardware operation the stand-ins carry out
# advances it by what that operation takes on the chip: an ADC read, an SPI transaction and its
# bytes on the bus, a pin written, the MFRC522's timer and the card's answer on the air
# (mfrc522_model.py), a frame written into the UART's 128-byte FIFO at 115200 baud (a write
# that finds it full waits for the next FreeRTOS tick, as MicroPython's uart_stdout_tx_strn
# does). The interpreter is charged too: here, the "light" charge, each call from bytecode into
# a built-in (a pin write, an ADC read, a sleep, a clock read) and the bytecode of the scan's
# loop around each sensor read, far below what the firmware runs. Under CPython runtime.py puts
# opcount.CountingChip in this chip's place: it counts every bytecode operation of the
# firmware (UPREF_SIM_OPS=count) or charges an estimate per sensor read (estimate), priced at
# one end of a range (UPREF_SIM_CHIP=slow|fast). This module is the firmware's `time` under
# the unix port and stays as small as it was: a few more names here moved the firmware's heap
# enough for a MemoryError at boot under the MicroPython backend's 120K budget.
#
# The clock is paced against the machine's: a sleep waits in real time until real time has
# caught up with the chip's, so the simulated board never runs ahead of the chip it models.
# When this process falls behind (a loaded machine), the chip's clock stays behind too, so the
# firmware's own timing stays what the model says; only past CATCH_UP_US behind does it jump
# forward, and each jump is counted (`jumps`) and reported, so a measurement can leave it out.
#
# With the cost model off (standalone use, or UPREF_SIM_COST=0) the clock is the machine's own.
#
# Runs under CPython and the MicroPython unix port; reading the clock allocates nothing.

import sys

_MP = sys.implementation.name == "micropython"
if _MP:  # the built-in time, even where runtime.py has put this module in its place
    _path = sys.path
    sys.path = []
    import time as _rt

    sys.path = _path
    del _path
else:
    import time as _rt

TICKS_MASK = (1 << 30) - 1
_TICKS_HALF = 1 << 29

# ---- what an operation costs on the chip (us at 240 MHz; CPU-bound costs scale with the clock)
REF_MHZ = 240
ADC_READ_US = 37  # one ADC1 conversion through the driver: 27.2 ksps measured (labfruits.com,
# "ESP32 ADC Speed", adc1_get_raw at 240 MHz) = 36.8 us
PY_CALL_US = 3  # MicroPython calling a built-in method from bytecode (look-up, arguments, the
# return): read_u16, Pin.value, sleep_us, ticks_us (estimate: issue 22 puts a read_u16 call at
# 25-40 us and a whole channel at 55-65 us, read, select, sleep_us(10) and loop together)
SCAN_LOOP_US = 6  # the bytecode around each sensor read in HallMux.scan: the loop, the plan's
# array subscripts, the select's bit tests (estimate, the rest of issue 22's 55-65 us a channel)
MPY_IMPORT_US = 5000  # importing a .mpy module from the flash's filesystem: open, read, link
# (3-10 ms, issue 22's estimate for a rarely used module)
FLASH_SECTOR_ERASE_US = 45000  # 4 KB sector erase of the module's SPI flash, typical (GD25Q32C
# datasheet tSE 45 ms typ.; W25Q32JV the same), the CPU stalled with the flash cache off
FLASH_PAGE_US = 700  # 256-byte page program, typical (GD25Q32C tPP 0.7 ms)
SPI_TXN_US = 23  # one SPI transaction of up to 4 bytes, interrupt-driven: 22-23 us (ESP-IDF SPI
# Master driver docs, "Transaction Duration"; MicroPython's machine.SPI uses spi_device_transmit)
PIN_US = 2  # Pin.value(): MicroPython's call and gpio_set_level (estimate)
TICKS_CALL_US = 1  # time.ticks_ms()/ticks_us(): a call into esp_timer_get_time (estimate)
PWM_US = 8  # PWM.freq()/duty_u16(): LEDC register writes through the driver (estimate)
WDT_US = 2  # WDT.feed() (estimate)
NEOPIXEL_BIT_NS = 1250  # WS2812B: 1.25 us a bit (WS2812B datasheet), 24 bits a pixel
UART_FIFO = 128  # bytes in the UART's TX FIFO (ESP32 Technical Reference Manual, UART)
UART_BYTES_PER_S = 11520  # 115200 baud, 8N1: 10 bits a byte
RTOS_TICK_US = 10000  # FreeRTOS tick at CONFIG_FREERTOS_HZ=100, ESP-IDF's default (MicroPython
# keeps it): a write that finds the FIFO full waits for the next tick
CATCH_UP_US = 250000  # behind the machine by more than this: jump (counted in `jumps`)


def _real_us_cpython():
    return _rt.monotonic_ns() // 1000


class Chip:
    """The chip's clock (us since this process started) and its cost model."""

    def __init__(self):
        self.on = False
        self.mhz = 160  # ESP32_GENERIC's CPU clock until machine.freq() changes it
        self.us = 0
        self._last = _rt.ticks_us() if _MP else 0
        self._real = 0
        self._base = 0 if _MP else _real_us_cpython()
        self.jumps = 0  # times the clock jumped to catch up with the machine
        self.jumped_us = 0
        self.uart_waits = 0  # writes that found the UART FIFO full and waited for a tick
        self._fifo = 0  # bytes in the UART FIFO at _fifo_t
        self._fifo_t = 0

    # ---- the machine's time ----

    def real_us(self):
        """Microseconds of the machine's monotonic clock since this process started."""
        if _MP:
            t = _rt.ticks_us()
            d = _rt.ticks_diff(t, self._last)
            self._last = t
            if d > 0:
                self._real += d
            return self._real
        return _real_us_cpython() - self._base

    def real_ticks_ms(self):
        """The machine's CLOCK_MONOTONIC in ms, as MicroPython's unix port counts ticks_ms: the
        base every process on the machine shares (the simulator dates world changes with it)."""
        if _MP:
            return _rt.ticks_ms()
        return (_rt.monotonic_ns() // 1000000) & TICKS_MASK

    # ---- the chip's time ----

    def now_us(self):
        if not self.on:
            return self.real_us()
        return self.us

    def cpu(self, us_at_240):
        """An operation the CPU carries out: slower at a lower clock."""
        if self.on:
            self.us += us_at_240 * REF_MHZ // self.mhz

    def bus(self, us):
        """An operation the hardware times (a bus, a timer): the same at any CPU clock."""
        if self.on:
            self.us += us

    def sleep_us(self, us):
        if us <= 0:
            return
        if not self.on:
            _rt.sleep_us(us) if _MP else _rt.sleep(us / 1000000)
            return
        self.us += us
        self.pace()

    def pace(self):
        """Wait until the machine's clock has caught up with the chip's; jump ahead when the
        machine is far ahead of the chip (this process was held up)."""
        if not self.on:
            return
        lag = self.real_us() - self.us
        if lag > CATCH_UP_US:
            self.us += lag
            self.jumps += 1
            self.jumped_us += lag
        elif lag < -500:
            ahead = -lag
            if _MP:
                _rt.sleep_us(ahead)
            else:
                _rt.sleep(ahead / 1000000)

    def catch_up(self):
        """The chip's clock to the machine's (a REPL waiting for a key: nothing to model)."""
        r = self.real_us()
        if r > self.us:
            self.us = r

    def flash_write(self, n):
        """n bytes written to a file on the flash: a sector erased and its pages programmed,
        with the CPU stalled meanwhile (the flash cache is off while the flash is written)."""
        if self.on and n > 0:
            self.us += FLASH_SECTOR_ERASE_US + (n + 255) // 256 * FLASH_PAGE_US

    def mpy_import(self):
        """A module imported from the flash: the CPU reads and links its .mpy."""
        self.cpu(MPY_IMPORT_US)

    def set_mhz(self, mhz):
        self.mhz = mhz

    # ---- the UART's FIFO ----

    def uart_write(self, n):
        """n bytes written to the console: into the FIFO as it has room; when it is full,
        wait for the next FreeRTOS tick and go on (the chip's time passes meanwhile)."""
        if not self.on:
            return
        while n > 0:
            self._drain()
            room = UART_FIFO - self._fifo
            k = n if n < room else room
            self._fifo += k
            n -= k
            if n > 0:
                self.us = (self.us // RTOS_TICK_US + 1) * RTOS_TICK_US
                self.uart_waits += 1

    def _drain(self):
        dt = self.us - self._fifo_t
        if dt <= 0:
            return
        gone = dt * UART_BYTES_PER_S // 1000000
        if gone >= self._fifo:
            self._fifo = 0
            self._fifo_t = self.us
        elif gone:
            self._fifo -= gone
            self._fifo_t += gone * 1000000 // UART_BYTES_PER_S


chip = Chip()


# ---- the firmware's `time`, on this clock -------------------------------------------------


def ticks_us():
    c = chip
    c.cpu(TICKS_CALL_US + PY_CALL_US)
    return c.now_us() & TICKS_MASK


def ticks_ms():
    c = chip
    c.cpu(TICKS_CALL_US + PY_CALL_US)
    return (c.now_us() // 1000) & TICKS_MASK


def ticks_cpu():
    return ticks_us()


def ticks_add(ticks, delta):
    return (ticks + delta) & TICKS_MASK


def ticks_diff(t1, t2):
    return ((t1 - t2 + _TICKS_HALF) & TICKS_MASK) - _TICKS_HALF


def sleep_ms(ms):
    chip.cpu(PY_CALL_US)
    chip.sleep_us(ms * 1000)


def sleep_us(us):
    chip.cpu(PY_CALL_US)
    chip.sleep_us(us)


def sleep(s):
    chip.sleep_us(int(s * 1000000))


def time():
    return _rt.time()


def localtime(*a):
    return _rt.localtime(*a)


def gmtime(*a):
    return _rt.gmtime(*a)


def mktime(t):
    return _rt.mktime(t)
