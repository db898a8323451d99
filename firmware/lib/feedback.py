# Board feedback: the status LED (one WS2812B) and the buzzer (PWM), driven by host commands.
# Patterns run from the main loop's update(now), never by blocking: the scan loop keeps going
# while a beep plays.

import time

from micropython import const

_MAX_STEPS = const(8)
# a beep's tones: 20..20000 Hz (0 a pause), each step 1..5000 ms (service.feedback_refused says
# these limits in words)
_MIN_HZ = const(20)
_MAX_HZ = const(20000)
_MAX_STEP_MS = const(5000)
_BEEP_DUTY = const(32768)  # 50 % square wave


class Feedback:
    # made by making.feedback (declared here for the type checker; MicroPython ignores these)
    _hz: "list[int]"  # the beep pattern's tones (Hz, 0 a pause) and lengths (ms), _MAX_STEPS at most
    _ms: "list[int]"
    _steps: "int"
    _step: "int"
    _step_end: "int"
    _led_until: "int"
    _led_timed: "bool"

    def __init__(self, pixels, pwm):
        import making  # boot-only code (let go once the board is built)

        making.feedback(self)
        self._np = pixels
        self._pwm = pwm
        self.off()

    def off(self):
        self.set_led(0, 0, 0, 0, time.ticks_ms())
        self._tone(0)
        self._steps = 0
        self._step = -1

    def set_led(self, r, g, b, ms, now):
        """LED to (r, g, b); with ms > 0 it goes off again ms after `now`."""
        for v in (r, g, b):
            if v < 0 or v > 255:
                raise ValueError  # (the host is told why by service.py: feedback_refused)
        self._np[0] = (r, g, b)
        self._np.write()
        self._led_timed = ms > 0
        if ms > 0:
            self._led_until = time.ticks_add(now, ms)

    def beep(self, pattern, now):
        """Start a pattern: a sequence of (hz, ms) pairs, hz 0 for a pause, at most _MAX_STEPS."""
        if len(pattern) > _MAX_STEPS:
            raise ValueError  # (the host is told why by service.py: feedback_refused)
        for i in range(len(pattern)):
            hz, ms = pattern[i]
            if hz != 0 and (hz < _MIN_HZ or hz > _MAX_HZ) or ms < 1 or ms > _MAX_STEP_MS:
                raise ValueError
            self._hz[i] = hz
            self._ms[i] = ms
        self._steps = len(pattern)
        self._step = -1
        self._next(now)

    def _tone(self, hz):
        if hz:
            self._pwm.freq(hz)
            self._pwm.duty_u16(_BEEP_DUTY)
        else:
            self._pwm.duty_u16(0)

    def _next(self, now):
        self._step += 1
        if self._step >= self._steps:
            self._step = -1
            self._tone(0)
            return
        self._tone(self._hz[self._step])
        self._step_end = time.ticks_add(now, self._ms[self._step])

    def update(self, now):
        """Advance a running pattern and end a timed LED colour."""
        if self._step >= 0 and time.ticks_diff(now, self._step_end) >= 0:
            self._next(now)
        if self._led_timed and time.ticks_diff(now, self._led_until) >= 0:
            self._led_timed = False
            self.set_led(0, 0, 0, 0, now)


def parse_rgb(text):
    """'rrggbb' -> (r, g, b); ValueError otherwise. (The errors of LED and BEEP are bare: a
    malformed command is rare, and service.py, loaded for it, tells the host why.)"""
    if len(text) != 6:
        raise ValueError
    v = int(text, 16)
    return (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF


def parse_pattern(text):
    """'880:100,0:50,880:100' -> [(880, 100), (0, 50), (880, 100)]; ValueError otherwise."""
    steps = []
    for part in text.split(","):
        bits = part.split(":")
        if len(bits) != 2:
            raise ValueError
        steps.append((int(bits[0]), int(bits[1])))
    return steps
