# HallMux's set-up (hallmux.py): the checks of its configuration and its channel plan, as flat
# lists in scan order. Code needed only when a HallMux is built (at boot): HallMux.__init__
# imports this module (make) and lets it go again, so its code takes no heap while the board runs.

from array import array

from micropython import const

_N_CHANNELS = const(16)  # CD74HC4067: 16 channels, selected by S3..S0
_N_SELECT = const(4)


def plan(nb, n_select, channels, settle_us, power_pins, power_on_us, ref):
    """(chan, bank_of, sensor_of, first, step_bank, line) for HallMux(...) with nb bank ADCs and
    n_select select pins; ValueError saying what is wrong with a configuration."""
    _check_settings(nb, n_select, settle_us, power_pins, power_on_us)
    chan, bank_of, sensor_of, first, step_bank = _scan_order(nb, _owners(nb, channels, ref), power_pins is not None)
    return chan, bank_of, sensor_of, first, step_bank, _lines(chan)


def make(m, adcs, select_pins, channels, settle_us, power_pins, power_on_us, ref):
    """HallMux `m`, made for HallMux(adcs, select_pins, channels, settle_us, power_pins,
    power_on_us, ref) (hallmux.py says what each is); ValueError for a configuration it cannot
    scan."""
    chan, bank_of, sensor_of, first, step_bank, line = plan(
        len(adcs), len(select_pins), channels, settle_us, power_pins, power_on_us, ref)
    n = len(channels)
    m._chan = array("B", chan)
    m._line = array("B", line)
    m._bank = array("B", bank_of)
    m._sensor = array("H", sensor_of)
    m._first = array("H", first)
    m._step_bank = array("B", step_bank)
    m._n_steps = len(first) - 1
    m._adcs = tuple(adcs)
    m._pins = tuple(select_pins)
    m._power = tuple(power_pins) if power_pins is not None else None
    m._power_on_us = power_on_us
    m._settle_us = settle_us
    m._sel = -1
    m.n_sensors = n
    m.n_levels = n + 1 if ref is not None else n
    m.has_ref = ref is not None
    m.switched = power_pins is not None


_SEVERAL = const(4)  # line[j]: several select lines change, or what they hold is not known
_NONE = const(5)  # line[j]: none changes (two banks read on the same channel)


def _lines(chan):
    """line[j]: which select line changes from channel chan[j - 1] to chan[j] in scan order,
    when one alone does (0..3), _SEVERAL, or _NONE; the scan's first channel is _SEVERAL."""
    line = [_SEVERAL]
    for j in range(1, len(chan)):
        d = chan[j] ^ chan[j - 1]
        if d == 0:
            line.append(_NONE)
        elif d & (d - 1):
            line.append(_SEVERAL)
        else:
            line.append((1, 2, 4, 8).index(d))
    return line


def _check_settings(nb, n_select, settle_us, power_pins, power_on_us):
    """ValueError unless the select pins, the banks, the times and the supply switches make a
    multiplexer this driver can scan."""
    if n_select != _N_SELECT:
        raise ValueError("need %d mux select pins, got %d" % (_N_SELECT, n_select))
    if nb < 1:
        raise ValueError("need at least one mux bank ADC")
    if settle_us < 0:
        raise ValueError("invalid mux settle time: %d us" % settle_us)
    if power_pins is not None:
        if len(power_pins) != nb:
            raise ValueError("need one power pin per mux bank (%d), got %d"
                             % (nb, len(power_pins)))
        if power_on_us < 0:
            raise ValueError("invalid sensor power-on time: %d us" % power_on_us)


def _owners(nb, channels, ref):
    """owner[bank * 16 + channel] = sensor index + 1 (0: unused), the reference channel read as
    one more sensor, index n: out[n]; ValueError for a channel out of range or used twice."""
    n = len(channels)
    if n < 1:
        raise ValueError("no hall sensor channels")
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
    if ref is not None:
        bank, ch = ref
        if ch < 0 or ch >= _N_CHANNELS or bank < 0 or bank >= nb:
            raise ValueError("invalid reference channel: bank %d channel %d" % (bank, ch))
        i = bank * _N_CHANNELS + ch
        if owner[i]:
            raise ValueError("mux bank %d channel %d is sensor %d's, not free for the reference"
                             % (bank, ch, owner[i] - 1))
        owner[i] = n + 1
    return owner


def _scan_order(nb, owner, switched):
    """The flat plan, as (channel, bank, sensor) triples in scan order: chan[j], bank_of[j],
    sensor_of[j]; step i of the scan reads triples first[i] .. first[i + 1] - 1. Switched
    supply: one step per bank (step_bank[i] is the bank), its channels in Gray code order
    (0, 1, 3, 2, 6, ...: one select line changes from a channel to the next, where counting up
    changes two on average), every other bank read in the reverse order, so it begins on the
    channel the bank before ended on. Always powered: one step per channel in use (every bank
    with a sensor on it), ascending."""
    chan = []
    bank_of = []
    sensor_of = []
    first = [0]
    step_bank = []
    if switched:
        gray = [i ^ (i >> 1) for i in range(_N_CHANNELS)]  # one select line changes a step
        for b in range(nb):
            for ch in gray:
                k1 = owner[b * _N_CHANNELS + ch]
                if k1:
                    chan.append(ch)
                    bank_of.append(b)
                    sensor_of.append(k1 - 1)
            if len(chan) > first[-1]:
                first.append(len(chan))
                step_bank.append(b)
                gray.reverse()  # the next bank begins where this one ended
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
    return chan, bank_of, sensor_of, first, step_bank
