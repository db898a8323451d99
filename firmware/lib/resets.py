# How often the chip has reset since it was powered on, by cause, for the HELLO frame's
# resets= (docs/protocol.md) and `upref doctor`.
#
# The counts live in the RTC's user memory (machine.RTC().memory() on the ESP32: RTC RAM that
# keeps its content through a soft reset, machine.reset(), a watchdog reset and deep sleep, and
# loses it when the power goes). Pure logic, no `import machine`: wiring.py reads the memory at
# boot, hands it to update() with the cause of this start, and writes back what update() gives.
#
# A start caused by power-on clears the counts: the ESP32 reports the EN pin (the button, or a
# USB bridge's reset line) as a power-on too, and RTC RAM holds garbage after a power cut, so
# "since power-on" means since the last power-on or EN reset. Memory that does not begin with
# the magic bytes (a power cut, another program's data) counts from zero as well.

from micropython import const

_MAGIC = b"upRS"
_N = const(4)  # soft, hard, wdt, other (deepsleep, brownout, panic)
SIZE = const(8)  # the magic and one byte per cause
_CAUSE_AT = {b"soft": 0, b"hard": 1, b"wdt": 2}


def update(mem, cause):
    """The RTC memory after a start caused by `cause` (b"power", b"soft", b"hard", b"wdt",
    b"deepsleep", b"other"), given what it held (bytes): the magic, then the four counts,
    each stopping at 255."""
    out = bytearray(SIZE)
    out[0:4] = _MAGIC
    if cause != b"power" and len(mem) == SIZE and bytes(mem[0:4]) == _MAGIC:
        out[4:SIZE] = mem[4:SIZE]
    if cause != b"power":
        i = 4 + _CAUSE_AT.get(cause, 3)
        if out[i] < 255:
            out[i] += 1
    return out


def counts(mem):
    """The resets= value of HELLO, `soft,hard,wdt,other` (bytes), from update()'s result."""
    return ("%d,%d,%d,%d" % (mem[4], mem[5], mem[6], mem[7])).encode()
