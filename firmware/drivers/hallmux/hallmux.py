# Hall sensors behind CD74HC4067 16-channel analog multiplexers.
#
# Several multiplexers ("banks") share the four select lines S0..S3; each bank's common pin
# goes to its own ADC1 input. Select lines are only written when they change (select()).
#
# Two scan orders:
#   * switched supply (power_pins given, one per bank): the sensors of a bank are powered only
#     while that bank is read. Bank by bank: switch the bank on (its pin low: a P-MOSFET's
#     gate), wait power_on_us (the DRV5055 needs up to 330 us before its output is valid),
#     then for each of the bank's channels in Gray code order (one select line changes from
#     one channel to the next; every other bank backwards, from where the last one ended) set
#     the select lines, wait settle_us and read; switch the bank off (also when a read raises).
#   * always powered (no power_pins): channel by channel, reading every bank that has a sensor
#     on that channel, so each channel is selected once per scan.
#
# A reference channel (ref, optional): a VCC/2 divider from a bank's switched sensor supply to a
# free channel of that bank's multiplexer, read with the bank like one more sensor into
# out[n_sensors]. The hall sensors are ratiometric and the ADC has its own reference, so a
# change of the supply (or of the ADC as the chip warms) moves every zero as it moves this
# reading: holes.HoleScanner corrects every zero by it.
#
# The driver never builds pins or ADCs (board.py does) and allocates nothing in scan(): the
# channel plan is turned into flat lookup arrays once, in __init__, by hallmux_plan.py, which
# is loaded for that and let go again (its code is needed only at boot: about 1.5 KB of heap).
#
# The switched scan is the board's hottest code: about 3 300 bytecode operations a pass, nearly
# half of all the loop runs. It is compiled to viper code (@micropython.viper, docs/build.md
# "Native code": machine integers, raw pointers into the plan's arrays) and sets the select
# lines itself rather than call select() for each of the 41 channels it reads. The
# always-powered scan (not the board as built) stays bytecode: native code takes about three
# times the room.

import micropython
from micropython import const
from array import array
import sys
import time

# (CD74HC4067 datasheet: 16 channels, selected by S3..S0 as a 4-bit binary number: the plan's
# checks are in hallmux_plan.py)
# supply switch levels: a P-MOSFET conducts while its gate is low
_POWER_ON = const(0)
_POWER_OFF = const(1)
_SEVERAL = const(4)  # hallmux_plan._SEVERAL: several select lines change (or are not known)


def ptr8(buf):
    """Viper's cast to a byte pointer, where the scan runs as Python (CPython, a build without
    native code): the buffer itself, indexed alike."""
    return buf


ptr16 = ptr8  # and to a pointer to 16-bit words


class HallMux:
    """HallMux(adcs, select_pins, channels, settle_us=10, power_pins=None, power_on_us=350,
            ref=None)

    adcs: one object per multiplexer bank with read_u16() (machine.ADC).
    select_pins: the 4 shared select lines S0..S3, objects with value(v) (machine.Pin, output).
    channels: (bank, channel) of each sensor k, as in pinmap.json hall.channels.
    settle_us: wait after switching the select lines, before reading (time.sleep_us).
    power_pins: None (sensors always powered), or one supply switch per bank, objects with
        value(v), active low: value(0) powers the bank's sensors, value(1) switches them off.
        The caller makes them outputs at 1 (off); scan() leaves every bank off.
    power_on_us: wait after switching a bank on, before its first read.
    ref: None, or (bank, channel) of the reference divider: scan() reads it into
        out[n_sensors], so out needs n_levels = n_sensors + 1 entries.
    """

    # made by hallmux_plan.make (declared here for the type checker; MicroPython ignores these)
    _chan: "array"  # the channel of each step of the scan
    _line: "array"  # the select line that changes at each channel (or _SEVERAL)
    _bank: "array"
    _sensor: "array"
    _first: "array"
    _step_bank: "array"
    _n_steps: "int"
    _adcs: "tuple"
    _pins: "tuple"
    _power: "tuple | None"
    _power_on_us: "int"
    _settle_us: "int"
    _sel: "int"  # the select lines as driven; -1 not yet: the first scan sets all four
    n_sensors: "int"
    n_levels: "int"
    has_ref: "bool"
    switched: "bool"

    def __init__(self, adcs, select_pins, channels, settle_us=10, power_pins=None,
                 power_on_us=350, ref=None):
        # the checks, the plan and the making: boot-only code, loaded for this and let go
        # (hallmux_plan.py)
        import hallmux_plan

        try:
            hallmux_plan.make(self, adcs, select_pins, channels, settle_us, power_pins, power_on_us, ref)
        finally:
            del sys.modules["hallmux_plan"]

    def select(self, ch):
        """Drive the select lines to channel ch, touching only the lines that change."""
        cur = self._sel
        diff = 0x0F if cur < 0 else (ch ^ cur)
        if diff:
            pins = self._pins
            if diff & 1:
                pins[0].value(ch & 1)
            if diff & 2:
                pins[1].value((ch >> 1) & 1)
            if diff & 4:
                pins[2].value((ch >> 2) & 1)
            if diff & 8:
                pins[3].value((ch >> 3) & 1)
            self._sel = ch

    def power_off(self):
        """Switch every bank's sensors off (no-op without a switched supply)."""
        if self._power is not None:
            for p in self._power:
                p.value(_POWER_OFF)

    def scan(self, out):
        """Read every sensor into out[k] (an array('H') of at least n_levels), and the reference,
        if any, into out[n_sensors]. Allocates nothing."""
        if len(out) < self.n_levels:
            raise ValueError("scan buffer too short: %d < %d" % (len(out), self.n_levels))
        power = self._power
        if power is not None:
            self._scan_switched(out, power)
            return
        chan = self._chan
        first = self._first
        bank = self._bank
        sensor = self._sensor
        adcs = self._adcs
        settle = self._settle_us
        for i in range(self._n_steps):
            j0 = first[i]
            self.select(chan[j0])
            if settle:
                time.sleep_us(settle)
            for j in range(j0, first[i + 1]):
                out[sensor[j]] = adcs[bank[j]].read_u16()

    @micropython.viper
    def _scan_switched(self, out, power):
        """scan() with the switched supply. Viper: machine integers and raw pointers into the
        plan's arrays and `out` (an array('H')); the pins, the ADCs and the sleeps are called as
        objects, as from bytecode. The plan says which select line changes at each channel
        (one, in Gray code order), so only the scan's first channel and a jump of several
        lines work out what to write."""
        chan = ptr8(self._chan)
        line = ptr8(self._line)
        first = ptr16(self._first)
        sensor = ptr16(self._sensor)
        step_bank = ptr8(self._step_bank)
        levels = ptr16(out)
        adcs = self._adcs
        pins = self._pins
        sleep_us = time.sleep_us
        settle = int(self._settle_us)
        on_us = self._power_on_us
        sel = int(self._sel)  # what the lines hold (-1: not known)
        self._sel = -1  # not known while the scan goes on (a read that raises ends it midway)
        n_steps = int(self._n_steps)
        for i in range(n_steps):
            b = step_bank[i]
            pin = power[b]
            adc = adcs[b]
            pin.value(_POWER_ON)
            try:
                sleep_us(on_us)
                for j in range(first[i], first[i + 1]):
                    ch = chan[j]
                    ln = line[j]
                    if ln < _SEVERAL:  # one line changes: the plan says which
                        pins[ln].value((ch >> ln) & 1)
                    elif ln == _SEVERAL:  # select(ch), written out: only the lines that change
                        if j:
                            sel = chan[j - 1]
                        diff = 0x0F if sel < 0 else (ch ^ sel)
                        if diff & 1:
                            pins[0].value(ch & 1)
                        if diff & 2:
                            pins[1].value((ch >> 1) & 1)
                        if diff & 4:
                            pins[2].value((ch >> 2) & 1)
                        if diff & 8:
                            pins[3].value((ch >> 3) & 1)
                    if settle:
                        sleep_us(settle)
                    levels[sensor[j]] = int(adc.read_u16())
            finally:
                pin.value(_POWER_OFF)
        self._sel = chan[int(first[n_steps]) - 1]
