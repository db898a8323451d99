# HallMux against fake select pins and bank ADCs (plain asserts: runs under pytest and MicroPython).

from array import array

import hallmux
from fake_hall import EV_POWER, EV_READ, EV_SELECT, EV_SLEEP, FakeMux, Sensors, pinmap
from hallmux import HallMux


def _channels():
    return [(c[0], c[1]) for c in pinmap()["hall"]["channels"]]


def _raises(fn, text):
    try:
        fn()
    except ValueError as e:
        assert text in str(e), str(e)
        return
    raise AssertionError("no ValueError")


def test_scan_reads_every_sensor_on_its_bank_and_channel():
    ch = _channels()
    s = Sensors(ch)
    for k in range(len(ch)):
        s.set(k, 1000 + 37 * k)
    mux = HallMux(s.mux.adcs, s.mux.pins, ch, settle_us=0)
    out = array("H", [0] * len(ch))
    mux.scan(out)
    for k in range(len(ch)):
        assert out[k] == 1000 + 37 * k, (k, out[k])
    # a second scan sees new levels
    s.set(39, 60000)
    s.set(0, 5)
    mux.scan(out)
    assert out[39] == 60000 and out[0] == 5 and out[1] == 1037


def test_each_channel_selected_once_and_only_changed_lines_written():
    ch = _channels()
    s = Sensors(ch)
    mux = HallMux(s.mux.adcs, s.mux.pins, ch)
    out = array("H", [0] * len(ch))
    mux.scan(out)
    # each bank read once per sensor on it: 16, 16 and 8 sensors
    assert list(s.mux.reads) == [16, 16, 8]
    # first scan: all 4 lines driven once, then bit toggles over 0..15: 15 + 7 + 3 + 1
    assert s.mux.pin_writes == 4 + 26, s.mux.pin_writes
    s.mux.reset_counts()
    mux.scan(out)
    # back from channel 15 to 0 flips all four lines
    assert s.mux.pin_writes == 4 + 26, s.mux.pin_writes
    assert list(s.mux.reads) == [16, 16, 8]


def test_only_channels_in_use_are_visited():
    m = FakeMux(2)
    chans = [(1, 3), (0, 3), (0, 9)]
    m.set(0, 3, 111)
    m.set(1, 3, 222)
    m.set(0, 9, 333)
    mux = HallMux(m.adcs, m.pins, chans, settle_us=0)
    out = array("H", [0] * 3)
    mux.scan(out)
    assert list(out) == [222, 111, 333]
    assert list(m.reads) == [2, 1]
    m.reset_counts()
    mux.scan(out)
    # 9 -> 3 (0b1001 -> 0b0011) flips S1 and S3, then 3 -> 9 flips them back
    assert m.pin_writes == 4, m.pin_writes
    assert mux.n_sensors == 3


def _with_clock(m, fn):
    """Run fn() with hallmux's time module replaced by m's FakeClock (sleeps are logged)."""
    saved = hallmux.time
    hallmux.time = m.clock
    try:
        return fn()
    finally:
        hallmux.time = saved


GRAY = [0, 1, 3, 2, 6, 7, 5, 4, 12, 13, 15, 14, 10, 11, 9, 8]  # 16 channels, one bit apart


def _switched(t_on_us=330, power_on_us=350, settle_us=10):
    ch = _channels()
    s = Sensors(ch, switched=True, t_on_us=t_on_us)
    for k in range(len(ch)):
        s.set(k, 1000 + 37 * k)
    mux = HallMux(s.mux.adcs, s.mux.pins, ch, settle_us=settle_us,
                  power_pins=s.mux.power_pins, power_on_us=power_on_us)
    return ch, s, mux


def test_switched_supply_reads_bank_by_bank_after_the_power_on_time():
    ch, s, mux = _switched()
    m = s.mux
    assert mux.switched
    out = array("H", [0] * len(ch))
    _with_clock(m, lambda: mux.scan(out))
    for k in range(len(ch)):
        assert out[k] == 1000 + 37 * k, (k, out[k])
    assert list(m.powered) == [0, 0, 0]  # every bank off again
    # the order: bank on, wait, (select, settle, read) per channel, bank off; bank by bank
    want_banks = [0, 1, 2]
    ev = m.events()
    i = 0
    for b in want_banks:
        assert ev[i] == EV_POWER + b * 2 + 0, (b, hex(ev[i]))
        assert ev[i + 1] == EV_SLEEP + 350
        i += 2
        # Gray code order, every other bank backwards: one select line changes a channel
        order = GRAY if b % 2 == 0 else GRAY[::-1]
        chans = [c for c in order if (b, c) in ch]
        for c in chans:
            while ev[i] & 0xF000 == EV_SELECT:
                i += 1
            assert ev[i] == EV_SLEEP + 10, (b, c, hex(ev[i]))
            assert ev[i + 1] == EV_READ + b * 16 + c, (b, c, hex(ev[i + 1]))
            i += 2
        assert ev[i] == EV_POWER + b * 2 + 1, (b, hex(ev[i]))
        i += 1
    assert i == len(ev)
    assert list(m.reads) == [16, 16, 8]


def test_switched_scan_writes_only_the_select_lines_that_change():
    ch, s, mux = _switched()
    m = s.mux
    out = array("H", [0] * len(ch))
    _with_clock(m, lambda: mux.scan(out))
    m.reset_counts()
    level = [p.value() for p in m.pins]
    _with_clock(m, lambda: mux.scan(out))
    for e in m.events():
        if e & 0xF000 == EV_SELECT:
            line, v = (e - EV_SELECT) // 2, (e - EV_SELECT) % 2
            assert level[line] != v, hex(e)  # every write changes its line
            level[line] = v
    # channels 0..15 of bank A in Gray code order (0, 1, 3, 2, ... 9, 8: 15 single flips), bank B
    # backwards from 8 (no flip to begin it, 15 flips), then bank C's 0..7 from 0 (no flip, 7
    # flips); from C's last channel, 4, to A's first, 0, of this scan: one line
    assert m.pin_writes == 1 + 15 + 15 + 7, m.pin_writes


def test_only_the_bank_being_read_is_powered():
    ch, s, mux = _switched()
    m = s.mux
    out = array("H", [0] * len(ch))
    _with_clock(m, lambda: mux.scan(out))
    on = [0, 0, 0]
    for e in m.events():
        kind = e & 0xF000
        if kind == EV_POWER:
            b, v = (e - EV_POWER) // 2, (e - EV_POWER) % 2
            on[b] = 1 - v
            assert sum(on) <= 1, on
        elif kind == EV_READ:
            assert on[(e - EV_READ) // 16] == 1


def test_a_power_on_wait_shorter_than_the_sensors_reads_garbage():
    # the fake sensors need 330 us: waiting 100 us reads their power-up garbage, which is what
    # the simulated board models too; the pin map's power_on_us (>= 330) avoids it
    ch, s, mux = _switched(t_on_us=330, power_on_us=100, settle_us=10)
    out = array("H", [0] * len(ch))
    _with_clock(s.mux, lambda: mux.scan(out))
    # 100 us + 16 channels x 10 us of settling is still under 330 us: the whole bank is wrong
    assert list(out) == [FakeMux.GARBAGE] * len(ch)


def test_a_bank_is_switched_off_when_a_read_fails():
    ch, s, mux = _switched()
    m = s.mux

    class Broken:
        def read_u16(self):
            raise OSError("adc")

    mux._adcs = (m.adcs[0], Broken(), m.adcs[2])
    out = array("H", [0] * len(ch))
    try:
        _with_clock(m, lambda: mux.scan(out))
    except OSError:
        pass
    else:
        raise AssertionError("no OSError")
    assert list(m.powered) == [0, 0, 0]
    assert m.events()[-1] == EV_POWER + 1 * 2 + 1


def test_without_power_pins_the_scan_is_channel_by_channel():
    ch = _channels()
    s = Sensors(ch)
    mux = HallMux(s.mux.adcs, s.mux.pins, ch, settle_us=10)
    assert not mux.switched
    out = array("H", [0] * len(ch))
    _with_clock(s.mux, lambda: mux.scan(out))
    ev = s.mux.events()
    assert not [e for e in ev if e & 0xF000 == EV_POWER]
    reads = [e - EV_READ for e in ev if e & 0xF000 == EV_READ]
    # channel 0 of banks A, B, C, then channel 1 of each, ...: one settle per channel
    assert reads[:3] == [0, 16, 32] and reads[3:6] == [1, 17, 33]
    assert len([e for e in ev if e == EV_SLEEP + 10]) == 16
    mux.power_off()  # nothing to switch: no error


def test_invalid_configuration_is_refused():
    m = FakeMux(3)
    _raises(lambda: HallMux(m.adcs, m.pins, [(0, 16)]), "invalid mux channel: 16")
    _raises(lambda: HallMux(m.adcs, m.pins, [(0, -1)]), "invalid mux channel: -1")
    _raises(lambda: HallMux(m.adcs, m.pins, [(3, 0)]), "invalid mux bank: 3")
    _raises(lambda: HallMux(m.adcs, m.pins, [(0, 1), (0, 1)]), "used by sensors 0 and 1")
    _raises(lambda: HallMux(m.adcs, m.pins[:3], [(0, 1)]), "select pins")
    _raises(lambda: HallMux(m.adcs, m.pins, []), "no hall sensor channels")
    _raises(lambda: HallMux(m.adcs, m.pins, [(0, 0)], settle_us=-1), "settle")
    mux = HallMux(m.adcs, m.pins, [(0, 0), (0, 1)])
    _raises(lambda: mux.scan(array("H", [0])), "too short")
    p = FakeMux(3, switched=True)
    _raises(lambda: HallMux(p.adcs, p.pins, [(0, 0)], power_pins=p.power_pins[:2]),
            "one power pin per mux bank (3), got 2")
    _raises(lambda: HallMux(p.adcs, p.pins, [(0, 0)], power_pins=p.power_pins, power_on_us=-1),
            "power-on")
