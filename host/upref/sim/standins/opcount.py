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

    def mine(code):
        f = code.co_filename
        if f in names:
            return True
        for d in dirs:
            if f.startswith(d):
                return True
        return False

    return mine


def install(chip, dirs, names=("main.py", "boot.py")):
    """Count the operations of every frame whose code is under `dirs` (folders, each ending
    in "/") or named in `names`, from now on, on `chip`."""
    mine = _firmware_code(tuple(dirs), tuple(names))
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
        if not mine(code):
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


class CountingChip(_cm.Chip):
    """The chip under CPython (runtime.py puts it in chip.chip's place): the firmware's
    operations counted (install() adds them to ops, ops_native, ops_viper and sets
    `counting`), charged on the clock before it is next read or the hardware is touched. Kept
    out of chip.py: the unix port's chip stays as small as it was."""

    counting = False  # install() counts the firmware's operations
    ops = 0  # bytecode operations counted and not yet charged
    ops_native = 0  # ... in @micropython.native code
    ops_viper = 0  # ... in @micropython.viper code
    ops_total = 0  # operations charged since start (natives weighted as bytecode)
    _ns = 0  # what is left of a microsecond charged

    def settle(self):
        """The operations counted since the last look, charged on the clock."""
        n = self.ops
        nn = self.ops_native
        nv = self.ops_viper
        if n or nn or nv:
            self.ops = self.ops_native = self.ops_viper = 0
            self.ops_total += n + nn + nv
            k = self.op_ns
            ns = self._ns + (n * k + nn * k // _cm.NATIVE_DIV + nv * k // _cm.VIPER_DIV) * _cm.REF_MHZ // self.mhz
            self.us += ns // 1000
            self._ns = ns % 1000

    def now_us(self):
        if self.on:
            self.settle()
        return super().now_us()

    def cpu(self, us_at_240):
        if self.on:
            self.settle()
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

    def set_speed(self, end):
        self.op_ns = _cm.OP_NS[end]

    def call(self, us_at_240):
        """A call into a built-in: counting, its interpreter time is in the count, so only the
        hardware's time is charged."""
        if self.on and self.counting:
            self.settle()
            self.us += us_at_240 * _cm.REF_MHZ // self.mhz
        else:
            super().call(us_at_240)

    def sensor_read(self):
        if self.on and self.counting:
            self.settle()
            self.us += _cm.ADC_READ_US * _cm.REF_MHZ // self.mhz
            return
        super().sensor_read()
        if self.on and not self.light:
            self.ops_total += _cm.OPS_PER_CHANNEL
