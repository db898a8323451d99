# The `micropython` module as the ESP32 port has it, for the MicroPython unix port: everything
# of the built-in module, plus what only the ESP32 port offers. runtime.py installs it as
# sys.modules["micropython"] before the firmware runs (a built-in module cannot be patched).
from micropython import *  # noqa: F403


def alloc_emergency_exception_buf(size):
    return None


def kbd_intr(c):
    """As the ESP32's: -1 lets 0x03 through as data while code runs, 3 makes it Ctrl-C again.
    Reported to the simulator, which turns 0x03 into SIGINT only while it is 3 (the unix port's
    own kbd_intr would change this process's SIGINT handling instead)."""
    import sim_world

    sim_world.world.kbd_intr(c)
