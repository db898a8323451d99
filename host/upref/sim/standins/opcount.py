# The firmware's bytecode operations, counted for the chip's clock (chip.py): under CPython,
# sys.settrace with opcode events on, only in the frames whose code is one of the firmware's
# files, so the stand-ins, the simulator and the standard library cost the chip nothing.
# Each operation adds one to chip.ops (or ops_native, ops_viper for code compiled to native
# code: the stand-in `micropython` module's native/viper decorators name it in NATIVE and
# VIPER); the chip charges them when its clock is next read (Chip.settle).
#
# CPython only: the MicroPython unix port that upref installs is built without
# MICROPY_PY_SYS_SETTRACE, and there the chip charges an estimate per sensor read instead.
# A counted operation costs this process about 0.45 us (a Python call per opcode event), so the
# count is switched on only where the chip's time is measured (UPREF_SIM_OPS=count: make bench,
# `upref sim`, the cost model's tests).

import sys

import chip as _cm


def _firmware_code(dirs, names):
    """A test of a code object: is it the firmware's? (by its file: under one of `dirs`, or
    one of `names`, the files run as source, as main.py and boot.py are)"""

    import os

    dirs = tuple(os.path.realpath(d) + "/" for d in dirs)  # the firmware is often reached by a link

    def mine(code):
        f = code.co_filename
        if f in names:
            return True
        f = os.path.realpath(f)
        for d in dirs:
            if f.startswith(d):
                return True
        return False

    return mine


VIPER_CASTS = ("ptr8", "ptr16", "ptr32")
"""Viper's casts. In viper code on the chip they are no calls at all (the compiler turns them into
a pointer to the buffer's data); where that code runs as Python, the firmware's own functions of
these names stand in for them (the buffer itself) and cost the chip nothing."""


def count(chip, dirs, names=("main.py", "boot.py")):
    """Count the operations of every frame whose code is under `dirs` (folders, each ending
    in "/") or named in `names`, from now on, on `chip`."""
    mine = _firmware_code(dirs, tuple(names))
    verdict = {}  # code object -> the local tracer for its frames, or None

    def op(frame, event, arg):
        if event == "opcode":
            chip.ops += 1
        return op

    def op_native(frame, event, arg):
        if event == "opcode":
            chip.ops_native += 1
        return op_native

    def op_viper(frame, event, arg):
        if event == "opcode":
            chip.ops_viper += 1
        return op_viper

    def kind(code):
        if not mine(code) or code.co_name in VIPER_CASTS:
            return None
        mp = sys.modules.get("micropython")
        if mp is not None and id(code) in getattr(mp, "VIPER", ()):
            return op_viper
        if mp is not None and id(code) in getattr(mp, "NATIVE", ()):
            return op_native
        return op

    def on_call(frame, event, arg):
        code = frame.f_code
        local = verdict.get(code, 0)
        if local == 0:
            local = verdict[code] = kind(code)
        if local is None:
            return None
        frame.f_trace_lines = False
        frame.f_trace_opcodes = True
        return local

    chip.counting = True
    sys.settrace(on_call)
    return on_call


# What each call into a built-in costs the chip (chip.py's sums) -> the hardware's share alone,
# when the count holds the call's interpreter time (PY_CALL_US, SCAN_LOOP_US)
_HARDWARE_ONLY = {
    _cm.ADC_READ_US + _cm.PY_CALL_US + _cm.SCAN_LOOP_US: _cm.ADC_READ_US,  # ADC._raw
    _cm.PIN_US + _cm.PY_CALL_US: _cm.PIN_US,  # Pin.value(v)
    _cm.TICKS_CALL_US + _cm.PY_CALL_US: _cm.TICKS_CALL_US,  # ticks_us, ticks_ms
    _cm.PY_CALL_US: 0,  # sleep_us, sleep_ms
}
_ADC = _cm.ADC_READ_US + _cm.PY_CALL_US + _cm.SCAN_LOOP_US


class CountingChip(_cm.Chip):
    """The chip under CPython (runtime.py puts it in chip.chip's place): with the count on
    (install()), the firmware's operations counted and charged on the clock before it is next
    read or the hardware is touched, each call into a built-in charged the hardware's time only;
    with the estimate, each sensor read charged OPS_PER_CHANNEL operations instead of
    chip.SCAN_LOOP_US; with the light charge, chip.Chip as it is."""

    # One bytecode operation at 240 MHz, in ns: pystone 1.2 takes 500 operations a pass as this
    # module counts them (CPython 3.11 opcode events); MicroPython on an ESP32 at 240 MHz runs
    # 1014 pystones/s at the slow end (v1.13, micropython/micropython issue 6565) and 1661 at
    # the fast end (v1.12, micropython/micropython issue 5673): 1.97 us and 1.20 us
    OP_NS = {"slow": 1972, "fast": 1204}
    NATIVE_DIV = 2  # @micropython.native: half the bytecode's time an operation (conservative:
    # MicroPython's "Maximising MicroPython speed" and PR 5025 put native code near C)
    VIPER_DIV = 8  # @micropython.viper: an eighth (the MicroPython wiki, "Improving performance
    # with Viper code", measures 16x on an integer-array loop on an ESP32-S3; half of it, as
    # the firmware's viper code also calls and returns objects)
    OPS_PER_CHANNEL = 28  # the estimate: the operations a scan pass takes, per sensor read,
    # native and viper code's weighted at their rate (the whole pass, classification and frames
    # included, over its reads, as counted on the board as built: tests/host/sim/
    # test_cost_model.py holds it to the count; 104 before the scan and the classification
    # became viper code)

    counting = False  # install() counts the firmware's operations
    light = True  # without the count: chip.Chip's light charge (set_ops), not the estimate
    op_ns = OP_NS["slow"]
    ops = 0  # bytecode operations counted and not yet charged
    ops_native = 0  # ... in @micropython.native code
    ops_viper = 0  # ... in @micropython.viper code
    ops_total = 0  # operations charged since start (natives weighted as bytecode)
    _ns = 0  # what is left of a microsecond charged

    def set_speed(self, end):
        """Which end of the range of an operation's time the chip models: "slow" or "fast"."""
        self.op_ns = self.OP_NS[end]

    def set_ops(self, light):
        """Without the count: chip.Chip's light charge (light) or the estimate."""
        self.light = light

    def settle(self):
        """The operations counted since the last look, charged on the clock."""
        n = self.ops
        nn = self.ops_native
        nv = self.ops_viper
        if n or nn or nv:
            self.ops = self.ops_native = self.ops_viper = 0
            self.ops_total += n + nn + nv
            k = self.op_ns
            ns = self._ns + (n * k + nn * k // self.NATIVE_DIV + nv * k // self.VIPER_DIV) * _cm.REF_MHZ // self.mhz
            self.us += ns // 1000
            self._ns = ns % 1000

    def now_us(self):
        if self.on:
            self.settle()
        return super().now_us()

    def cpu(self, us_at_240):
        if self.on:
            self.settle()
            if self.counting:
                us_at_240 = _HARDWARE_ONLY.get(us_at_240, us_at_240)
            elif us_at_240 == _ADC and not self.light:
                self.ops_total += self.OPS_PER_CHANNEL
                us_at_240 += self.OPS_PER_CHANNEL * self.op_ns // 1000 - _cm.SCAN_LOOP_US
        super().cpu(us_at_240)

    def bus(self, us):
        if self.on:
            self.settle()
        super().bus(us)

    def sleep_us(self, us):
        if self.on:
            self.settle()
        super().sleep_us(us)

    def flash_write(self, n):
        if self.on:
            self.settle()
        super().flash_write(n)

    def uart_write(self, n):
        if self.on:
            self.settle()
        super().uart_write(n)

    def set_mhz(self, mhz):
        self.settle()  # what ran before the change, at the clock it ran at
        super().set_mhz(mhz)


def install(dirs, main_file):
    """Under CPython, in the simulator's firmware process: a CountingChip in the place of
    chip.chip, at the end of the range UPREF_SIM_CHIP names, charging the interpreter as
    UPREF_SIM_OPS says ("count": every operation of the firmware's files, those under `dirs`
    and boot.py, main.py and `main_file`; "estimate"; "light"). Returns the chip."""
    import os

    old = _cm.chip
    c = CountingChip()
    c.on = old.on
    c.mhz = old.mhz
    c.us = old.us
    c.set_speed(os.getenv("UPREF_SIM_CHIP") or "slow")
    ops = os.getenv("UPREF_SIM_OPS") or "light"
    c.set_ops(ops == "light")
    _cm.chip = c
    if ops == "count":
        main_name = main_file[main_file.rfind("/") + 1 :]
        count(c, [d.rstrip("/") + "/" for d in dirs], ("boot.py", "main.py", main_name))
    import probe  # the chip's dates of the world's changes and of the frames (make bench)

    probe.install()
    return c
