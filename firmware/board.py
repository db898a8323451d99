# The board as the firmware drives it: the USB port, the button, the watchdog, a reset. Its
# parts are built from the pin map by wiring.py (the only module that builds machine objects),
# which Board loads once and lets go.

import select
import sys

import machine

import watchdog

PINMAP_FILE = "pinmap.json"


class Board:
    """Everything the firmware drives, built from the pin map (wiring.build): spi, reader (an
    MFRC522), tags (an ntag.NtagReader on it), mux (a HallMux), led, buzzer, port, holes, per_hole, thresholds, board_id,
    reset_cause, and the runtime helpers below. The USB serial port, shared with the REPL, is
    the board itself (`port`: read_byte and write, below; one object fewer on the heap)."""

    _button: machine.Pin  # set by wiring.build
    _button_low: bool
    _poll: "select.poll"  # set by wiring.usb_port
    _in: "object"
    _out: "object"
    _one: bytearray

    def __init__(self, path=PINMAP_FILE):
        import wiring

        try:
            wiring.build(self, path, wiring.usb_port(self))
        finally:
            del sys.modules["wiring"]
            sys.modules.pop("making", None)  # the sticker reader's making (making.py), done

    def read_byte(self):
        """The next byte from the host, or -1 when none is waiting. Never blocks."""
        for _ in self._poll.ipoll(0):
            if self._in.readinto(self._one) == 1:  # type: ignore[attr-defined]
                return self._one[0]
        return -1

    def write(self, buf, off, n):
        """Write buf[off:off + n] (MicroPython streams take an offset and a length: no slice)."""
        self._out.write(buf, off, n)  # type: ignore[attr-defined]

    def button_pressed(self):
        v = self._button.value()
        return 1 if (v == 0) == self._button_low else 0

    def watchdog(self):
        """The watchdog, now to be fed by the caller's loop (see lib/watchdog.py)."""
        return watchdog.take()

    def release_watchdog(self):
        """Hand the feeding back to a timer: the REPL is in charge now."""
        watchdog.release()

    def reset(self):
        machine.reset()
