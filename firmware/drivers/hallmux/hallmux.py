# Hall sensors behind CD74HC4067 16-channel analog multiplexers.
#
# Several multiplexers ("banks") share the four select lines S0..S3; each bank's common pin
# goes to its own ADC1 input. Select lines are only written when they change (select()).
#
# Two scan orders:
#   * switched supply (power_pins given, one per bank): the sensors of a bank are powered only
#     while that bank is read. Bank by bank: switch the bank on (its pin low: a P-MOSFET's
#     gate), wait power_on_us (the DRV5055 needs up to 330 us before its output is valid),
#     then for each of the bank's channels in ascending order set the select lines, wait
#     settle_us and read; switch the bank off (also when a read raises).
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
# channel plan is turned into flat lookup arrays once, in __init__.

from micropython import const
from array import array
import time

# CD74HC4067 datasheet: 16 channels, selected by S3..S0 as a 4-bit binary number
_N_CHANNELS = const(16)
_N_SELECT = const(4)
# supply switch levels: a P-MOSFET conducts while its gate is low
_POWER_ON = const(0)
_POWER_OFF = const(1)


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

    def __init__(self, adcs, select_pins, channels, settle_us=10, power_pins=None,
                 power_on_us=350, ref=None):
        if len(select_pins) != _N_SELECT:
            raise ValueError("need %d mux select pins, got %d" % (_N_SELECT, len(select_pins)))
        if len(adcs) < 1:
            raise ValueError("need at least one mux bank ADC")
        if settle_us < 0:
            raise ValueError("invalid mux settle time: %d us" % settle_us)
        nb = len(adcs)
        if power_pins is not None:
            if len(power_pins) != nb:
                raise ValueError("need one power pin per mux bank (%d), got %d"
                                 % (nb, len(power_pins)))
            if power_on_us < 0:
                raise ValueError("invalid sensor power-on time: %d us" % power_on_us)
        n = len(channels)
        if n < 1:
            raise ValueError("no hall sensor channels")
        # owner[bank * 16 + channel] = sensor index + 1 (0: unused)
        owner = [0] * (nb * _N_CHANNELS)
        for k in range(n):
            bank, ch = channels[k]
            if ch < 0 or ch >= _N_CHANNELS:
                raise ValueError("invalid mux channel: %d" % ch)
            if bank < 0 or bank >= nb:
                raise ValueError("invalid mux bank: %d" % bank)
            i = bank * _N_CHANNELS + ch
            if owner[i]:
                raise ValueError(
                    "mux bank %d channel %d used by sensors %d and %d" % (bank, ch, owner[i] - 1, k)
                )
            owner[i] = k + 1
        if ref is not None:  # read as one more sensor, index n: out[n]
            bank, ch = ref
            if ch < 0 or ch >= _N_CHANNELS or bank < 0 or bank >= nb:
                raise ValueError("invalid reference channel: bank %d channel %d" % (bank, ch))
            i = bank * _N_CHANNELS + ch
            if owner[i]:
                raise ValueError("mux bank %d channel %d is sensor %d's, not free for the reference"
                                 % (bank, ch, owner[i] - 1))
            owner[i] = n + 1
        # Flat plan, as (channel, bank, sensor) triples in scan order: _chan[j], _bank[j],
        # _sensor[j]; step i of the scan reads triples _first[i] .. _first[i + 1] - 1.
        # Switched supply: one step per bank (its channels ascending; _step_bank[i] is the bank).
        # Always powered: one step per channel in use (every bank with a sensor on it).
        chan = []
        bank_of = []
        sensor_of = []
        first = [0]
        step_bank = []
        if power_pins is not None:
            for b in range(nb):
                for ch in range(_N_CHANNELS):
                    k1 = owner[b * _N_CHANNELS + ch]
                    if k1:
                        chan.append(ch)
                        bank_of.append(b)
                        sensor_of.append(k1 - 1)
                if len(chan) > first[-1]:
                    first.append(len(chan))
                    step_bank.append(b)
        else:
            for ch in range(_N_CHANNELS):
                for b in range(nb):
                    k1 = owner[b * _N_CHANNELS + ch]
                    if k1:
                        chan.append(ch)
                        bank_of.append(b)
                        sensor_of.append(k1 - 1)
                if len(chan) > first[-1]:
                    first.append(len(chan))
        self._chan = array("B", chan)
        self._bank = array("B", bank_of)
        self._sensor = array("H", sensor_of)
        self._first = array("H", first)
        self._step_bank = array("B", step_bank)
        self._n_steps = len(first) - 1
        self._adcs = tuple(adcs)
        self._pins = tuple(select_pins)
        self._power = tuple(power_pins) if power_pins is not None else None
        self._power_on_us = power_on_us
        self._settle_us = settle_us
        self._sel = -1  # select lines not driven yet: the first scan sets all four
        self.n_sensors = n
        self.n_levels = n + 1 if ref is not None else n
        self.has_ref = ref is not None
        self.switched = power_pins is not None

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

    def _scan_switched(self, out, power):
        chan = self._chan
        first = self._first
        sensor = self._sensor
        settle = self._settle_us
        for i in range(self._n_steps):
            b = self._step_bank[i]
            pin = power[b]
            adc = self._adcs[b]
            pin.value(_POWER_ON)
            try:
                time.sleep_us(self._power_on_us)
                for j in range(first[i], first[i + 1]):
                    self.select(chan[j])
                    if settle:
                        time.sleep_us(settle)
                    out[sensor[j]] = adc.read_u16()
            finally:
                pin.value(_POWER_OFF)
