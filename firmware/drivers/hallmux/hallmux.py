# Hall sensors behind CD74HC4067 16-channel analog multiplexers.
#
# Several multiplexers ("banks") share the four select lines S0..S3; each bank's common pin
# goes to its own ADC1 input. One scan visits the channels in use in ascending order, sets the
# select lines once per channel (only the lines that change), waits for the mux and the ADC's
# sample capacitor to settle, and reads every bank that has a sensor on that channel.
#
# The driver never builds pins or ADCs (board.py does) and allocates nothing in scan(): the
# channel plan is turned into flat lookup arrays once, in __init__.

from micropython import const
from array import array
import time

# CD74HC4067 datasheet: 16 channels, selected by S3..S0 as a 4-bit binary number
_N_CHANNELS = const(16)
_N_SELECT = const(4)


class HallMux:
    """HallMux(adcs, select_pins, channels, settle_us=10)

    adcs: one object per multiplexer bank with read_u16() (machine.ADC).
    select_pins: the 4 shared select lines S0..S3, objects with value(v) (machine.Pin, output).
    channels: (bank, channel) of each sensor k, as in pinmap.json hall.channels.
    settle_us: wait after switching the select lines, before reading (time.sleep_us).
    """

    def __init__(self, adcs, select_pins, channels, settle_us=10):
        if len(select_pins) != _N_SELECT:
            raise ValueError("need %d mux select pins, got %d" % (_N_SELECT, len(select_pins)))
        if len(adcs) < 1:
            raise ValueError("need at least one mux bank ADC")
        if settle_us < 0:
            raise ValueError("invalid mux settle time: %d us" % settle_us)
        n = len(channels)
        if n < 1:
            raise ValueError("no hall sensor channels")
        nb = len(adcs)
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
        # Flat plan: for the i-th channel in use, _chan[i] is its number and
        # _bank[_first[i]:_first[i + 1]], _sensor[...] the (bank, sensor) pairs read on it.
        chan = []
        first = [0]
        bank_of = []
        sensor_of = []
        for ch in range(_N_CHANNELS):
            used = False
            for b in range(nb):
                k1 = owner[b * _N_CHANNELS + ch]
                if k1:
                    bank_of.append(b)
                    sensor_of.append(k1 - 1)
                    used = True
            if used:
                chan.append(ch)
                first.append(len(bank_of))
        self._chan = array("B", chan)
        self._first = array("H", first)
        self._bank = array("B", bank_of)
        self._sensor = array("H", sensor_of)
        self._n_used = len(chan)
        self._adcs = tuple(adcs)
        self._pins = tuple(select_pins)
        self._settle_us = settle_us
        self._sel = -1  # select lines not driven yet: the first scan sets all four
        self.n_sensors = n

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

    def scan(self, out):
        """Read every sensor into out[k] (an array('H') of at least n_sensors). Allocates nothing."""
        if len(out) < self.n_sensors:
            raise ValueError("scan buffer too short: %d < %d" % (len(out), self.n_sensors))
        chan = self._chan
        first = self._first
        bank = self._bank
        sensor = self._sensor
        adcs = self._adcs
        settle = self._settle_us
        for i in range(self._n_used):
            self.select(chan[i])
            if settle:
                time.sleep_us(settle)
            for j in range(first[i], first[i + 1]):
                out[sensor[j]] = adcs[bank[j]].read_u16()
