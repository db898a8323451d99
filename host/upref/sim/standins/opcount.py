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
