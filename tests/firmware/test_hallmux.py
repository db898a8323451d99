# HallMux against fake select pins and bank ADCs (plain asserts: runs under pytest and MicroPython).

from array import array

from fake_hall import FakeMux, Sensors, pinmap
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
