# The `micropython` module as the ESP32 port has it, for the MicroPython unix port: everything
# of the built-in module, plus what only the ESP32 port offers. runtime.py installs it as
# sys.modules["micropython"] before the firmware runs (a built-in module cannot be patched).
from micropython import *  # noqa: F403


def alloc_emergency_exception_buf(size):
    return None
