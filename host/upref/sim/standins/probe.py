# The chip's own dates of what `make bench` times (docs/simulator.md, "What `make bench`
# prints"): when a change of the world reaches the chip and when a frame's last byte leaves its
# UART, both on the chip's clock, reported to the simulator. So a latency can be read on the
# chip's clock, which a loaded machine holds back with the firmware, instead of on the host's,
# which runs on while the simulated board waits for a core.
#
# Reports (sim_world.REPORT_PREFIX, then), in the order the chip made them:
#   probe L <k> <us>             sensor k's change is whole (its ramp at its end) at chip time us
#   probe K <uid> <us>           card uid lies in the field from chip time us: when the hand
#                                laid it (its record's stamp), no earlier than the chip's last
#                                look at its records
#   probe B <0|1> <us>           the button pressed (1) or let go (0) at chip time us, dated so
#   probe tx <us0> <us1> <line>  an event frame (HOLE, CARD, TAG, BTN) went into the UART at
#                                us0 and its last byte leaves at us1; <line> is the frame
#
# A change reaches the chip when the firmware process reads its record (every 3 ms of the chip's
# time at most, sim_world.POLL_EVERY_MS, and before each transmission of the reader). A sensor's
# record says when the hand made it (its stamp, on the machine's clock) and the world dates its
# ramp from then: while the chip's clock keeps up with the machine's, that is the chip's time
# too. A chip held back by a loaded machine would then get a ramp begun before its last look at
# its records, which its scans never saw: here the ramp begins no earlier than that look.
# CPython only (installed by opcount.install, where the chip's clock is modelled).

import sys

import chip as _cm

_EVENTS = (b"HOLE", b"CARD", b"TAG", b"BTN")
_KEEP = 64  # bytes of a frame kept for its report


class _Out:
    """sys.stdout.buffer with the frames' dates reported: the firmware's port writes here."""

    def __init__(self, raw, report):
        self._raw = raw
        self._report = report
        self._line = bytearray()
        self._us0 = -1  # when the current line's first byte went into the UART

    def fileno(self):
        return self._raw.fileno()

    def flush(self):
        return self._raw.flush()

    def write(self, buf, *args):
        n = self._raw.write(buf, *args)
        mv = memoryview(buf).cast("B")
        if len(args) == 1:
            mv = mv[: args[0]]
        elif len(args) == 2:
            mv = mv[args[0] : args[0] + args[1]]
        self._seen(bytes(mv))
        return n

    def _seen(self, data):
        c = _cm.chip
        now = c.now_us()
        rate = _cm.UART_BYTES_PER_S
        left = len(data)
        for i, b in enumerate(data):
            if self._us0 < 0:
                self._us0 = now
            if b == 10:  # the line's last byte: it leaves after what the FIFO holds behind it
                behind = left - 1 - i
                us1 = c._fifo_t + (c._fifo - behind) * 1000000 // rate
                self._frame(bytes(self._line).strip(), us1)
                self._line = bytearray()
                self._us0 = -1
            elif len(self._line) < _KEEP:
                self._line.append(b)

    def _frame(self, line, us1):
        words = line.split()
        if len(words) >= 2 and words[0][:1] == b"@" and words[1] in _EVENTS:
            self._report("probe tx %d %d %s" % (self._us0, us1, line.decode("ascii", "replace")))


def _dated(world, report):
    """world.apply and world.poll, wrapped: a ramp begins no earlier than the chip's last look
    at its records, and each change is reported with its chip time."""
    apply = world.apply
    poll = world.poll
    look = [_cm.chip.now_us()]  # the chip's time of its last look at its records

    def polled(force=False):
        before = world._last_poll
        poll(force)  # applies what came: each record sees the look before this one
        if force or world._last_poll != before:
            look[0] = _cm.chip.now_us()

    def applied(rec):
        words = bytes(rec).decode().split()
        if words and words[0] == "L" and len(words) > 5:
            since_ms = (_cm.chip.now_us() - look[0]) // 1000
            real = _cm.chip.real_ticks_ms()
            if _cm.ticks_diff(real, int(words[5])) > since_ms:
                words[5] = str(_cm.ticks_add(real, -since_ms))
                rec = " ".join(words).encode()
        apply(rec)
        if not words:
            return
        if words[0] == "L":
            k = int(words[1])
            ends = world.t_start[k] + world.ramp[k]
            report("probe L %d %d" % (k, _cm.chip.now_us() + (ends - world.now()) * 1000))
        elif words[0] == "K+":
            report("probe K %s %d" % (words[1].upper(), stamped(words)))
        elif words[0] == "B":
            report("probe B %s %d" % (words[1], stamped(words)))

    def stamped(words):
        """The chip's time of a card laid or the button pressed or let go: its record's stamp
        (the machine's ms), no earlier than the chip's last look; unstamped, now."""
        at = _cm.chip.now_us()
        if len(words) > 2:
            age_us = _cm.ticks_diff(_cm.chip.real_ticks_ms(), int(words[2])) * 1000
            at = max(look[0], at - age_us)
        return at

    world.poll = polled
    world.apply = applied


def install():
    """The probe in place: the frames' dates from the port the firmware writes to, the world's
    changes from the records it applies."""
    import sim_world

    world = sim_world.world
    sys.stdout.buffer = _Out(sys.stdout.buffer, world.report)
    _dated(world, world.report)
