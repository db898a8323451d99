"""The `micropython` module as seen by firmware running under CPython (simulator and tests).

Only what the firmware uses: const() is the identity, heap_lock/unlock are no-ops here (the
allocation-free proof runs under the real MicroPython unix port), the rest are harmless.
native and viper, the code emitters MicroPython's compiler takes as decorators, return the
function unchanged: under CPython it runs as it is (they name its code for the simulated chip's
count, below).
"""


def const(x):
    return x


def heap_lock():
    return 0


def heap_unlock():
    return 0


def alloc_emergency_exception_buf(size):
    return None


def kbd_intr(ch):
    # in the simulated board's firmware process: tell the simulator (it turns 0x03 into SIGINT
    # only while the interrupt character is 3); elsewhere (unit tests) nothing to do
    import sys

    world = sys.modules.get("sim_world")
    if world is not None:
        world.world.kbd_intr(ch)


def mem_info(*args):
    return None


def schedule(func, arg):
    func(arg)
    return None


# Code compiled to native code on the board. Here the functions stay plain Python functions;
# their code objects are named so that the simulated chip's operation count (standins/
# opcount.py) charges their operations at the native emitters' rate (standins/chip.py). Keyed
# by id: code objects of the same text compare equal, and a plain twin must stay bytecode.
NATIVE = {}
VIPER = {}


def native(f):
    NATIVE[id(f.__code__)] = f.__code__
    return f


def viper(f):
    VIPER[id(f.__code__)] = f.__code__
    return f
