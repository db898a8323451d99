# Calibrator and the zero file (plain asserts: pytest and MicroPython).

from array import array
import os
import time

import calib
from calib import CalSettings, Calibrator
import service  # the zeros' file is read by the board's service side (at boot)

N = 40


def _tmpdir():
    try:
        import tempfile

        return tempfile.mkdtemp()
    except ImportError:  # MicroPython
        d = "/tmp/upref_calib_%d" % time.ticks_us()
        os.mkdir(d)
        return d


def _cleanup(d):
    for name in os.listdir(d):
        os.remove(d + "/" + name)
    os.rmdir(d)


def _noise(i, k):
    # deterministic "noise" of a few hundred counts
    return ((i * 7919 + k * 104729) % 601) - 300


def _fill(cal, base, override=None):
    scan = array("H", [0] * N)
    i = 0
    while not cal.done():
        for k in range(N):
            scan[k] = base[k] + _noise(i, k)
        if override:
            for k in override:
                scan[k] = override[k]
        cal.add(scan)
        i += 1
    return i


def _error(cal):
    try:
        cal.result(array("H", [0] * N))
    except ValueError as e:
        return str(e)
    return None


def test_averages_scans_into_zeros():
    cal = Calibrator(N)
    base = [32768 + (k * 131) % 4000 - 2000 for k in range(N)]
    assert not cal.done()
    assert _fill(cal, base) == 32
    assert cal.done() and cal.count == 32
    assert cal.add(array("H", [0] * N))  # beyond samples: ignored
    z = array("H", [0] * N)
    assert cal.result(z) is z
    for k in range(N):
        exact = sum(base[k] + _noise(i, k) for i in range(32))
        assert z[k] == (exact + 16) // 32, (k, z[k])
    cal.reset()
    assert cal.count == 0 and not cal.done()


def test_result_before_enough_scans_is_refused():
    cal = Calibrator(N, settings=CalSettings(samples=4))
    cal.add(array("H", [32768] * N))
    assert _error(cal) == "calibration needs 4 scans, has 1"


def test_magnet_near_a_sensor_is_refused_naming_hole_and_sensor():
    cal = Calibrator(N, settings=CalSettings(samples=8))
    _fill(cal, [32768] * N, {5: 32768 + 10000})  # hole 2, position 2: a pair left in
    z = array("H", [7] * N)
    msg = _error(cal)
    assert msg is not None
    # the median of the 40 sensors (32,768 give or take the noise of the 8 scans)
    assert msg.startswith("hole 2 sensor 2 reads 42768, ") and "from the board's median 327" in msg, msg
    assert "remove the pair from hole 2" in msg and msg.endswith("calibrate again"), msg
    assert list(z) == [7] * N  # untouched


def test_several_holes_with_pairs_are_all_named():
    cal = Calibrator(N, settings=CalSettings(samples=2))
    _fill(cal, [32768] * N, {13: 32768 - 9000, 14: 32768 - 9000, 38: 32768 + 12000})
    msg = _error(cal)
    assert msg.startswith("hole 4 sensor 2 reads 23768, ") and "from the board's median 327" in msg, msg
    assert "remove the pairs from holes 4 and 10 and calibrate again" in msg, msg


def test_a_pair_in_every_hole_names_all_ten_and_the_frame_keeps_the_whole_sentence():
    cal = Calibrator(N, settings=CalSettings(samples=2))
    _fill(cal, [32768] * N, {4 * h + 1: 32768 + 9000 for h in range(10)})
    msg = _error(cal)
    assert msg.endswith(
        "remove the pairs from holes 1, 2, 3, 4, 5, 6, 7, 8, 9 and 10 and calibrate again"
    ), msg
    import wire

    assert wire.safe_text(msg) == msg  # the ERR frame carries it whole


# What sensors at rest read on real ESP32s (read_u16 is the raw reading, uncalibrated): a
# DRV5055 at 1.59..1.71 V reads 26,358..28,550 on a chip whose ADC reference is 1200 mV, and
# 31,639..34,248 on one of 1000 mV (host/upref/chip/esp32_adc.py, Espressif's curve).
VREF_1200 = (26358, 28550)
VREF_1000 = (31639, 34248)


def _board(lo, hi):
    """Zeros spread over lo..hi, as the sensors' quiescent voltages spread on one chip."""
    return [lo + (hi - lo) * ((k * 17) % N) // (N - 1) for k in range(N)]


def test_an_empty_board_calibrates_on_chips_at_both_ends_of_the_reference_range():
    for lo, hi in (VREF_1200, VREF_1000):
        cal = Calibrator(N, settings=CalSettings(samples=4))
        base = _board(lo, hi)
        _fill(cal, base)
        z = array("H", [0] * N)
        assert _error(cal) is None, (lo, hi, _error(cal))
        cal.result(z)
        assert all(abs(z[k] - base[k]) <= 300 for k in range(N))
        # and a pair left in hole 7 (one magnet 6,000 counts up) is refused on either chip
        cal = Calibrator(N, settings=CalSettings(samples=4))
        _fill(cal, base, {25: base[25] + 6000})
        msg = _error(cal)
        assert msg is not None and "remove the pair from hole 7" in msg, msg


def test_a_median_no_sensor_at_rest_reads_is_refused():
    cal = Calibrator(N, settings=CalSettings(samples=2))
    _fill(cal, [40300] * N)  # most holes hold a pair, north up
    msg = _error(cal)
    assert msg is not None and msg.startswith("the sensors' median reads 40"), msg
    assert ", outside 25000..35500 where sensors at rest read on any ESP32" in msg, msg
    assert "take the pair out of every hole" in msg and "3.3 V supply" in msg, msg
    cal = Calibrator(N, settings=CalSettings(samples=2))
    _fill(cal, [5300] * N)  # unpowered sensors
    msg = _error(cal)
    assert msg is not None and msg.startswith("the sensors' median reads 5"), msg


def test_railed_or_unsteady_sensor_is_refused():
    cal = Calibrator(N, settings=CalSettings(samples=4))
    _fill(cal, [32768] * N, {39: 65535})
    msg = _error(cal)
    assert msg.startswith("hole 10 sensor 4 reads 65535..65535, at the rail"), msg
    cal = Calibrator(N, settings=CalSettings(samples=4))
    base = [32768] * N
    scan = array("H", base)
    for i in range(4):
        scan[0] = 20000 if i % 2 else 45000
        cal.add(scan)
    msg = _error(cal)
    assert msg.startswith("hole 1 sensor 1 is unsteady (20000..45000)"), msg


def test_save_load_round_trip():
    d = _tmpdir()
    try:
        path = d + "/zero.json"
        assert service.load(path, N) is None  # missing
        zeros = array("H", [30000 + k for k in range(N)])
        calib.save(path, zeros)
        got = service.load(path, N)
        assert isinstance(got, array) and list(got) == list(zeros)
        assert os.listdir(d) == ["zero.json"]  # no .tmp left behind
        # overwrite an existing file
        zeros[3] = 12345
        Calibrator.save(path, zeros)
        assert list(service.load(path, N)) == list(zeros)
        assert service.load(path, N + 1) is None  # saved for another board size
    finally:
        _cleanup(d)


def test_corrupt_file_loads_as_none():
    d = _tmpdir()
    try:
        path = d + "/zero.json"
        for data in ("[1, 2, 3", "not json", "", "{}", '["a"]' , "[70000]", "[-1]", "[true]"):
            with open(path, "w") as f:
                f.write(data)
            n = 1 if data.startswith("[") and "," not in data else 3
            assert service.load(path, n) is None, data
        with open(path, "wb") as f:
            f.write(b"\xff\xfe\x00[")
        assert service.load(path, 1) is None
    finally:
        _cleanup(d)


def test_invalid_settings_are_refused():
    for n, changes in ((0, {}), (N, {"samples": 0}), (N, {"zero_low": 36000})):
        refused = 0
        try:
            Calibrator(n, 4, False, CalSettings(**changes))
        except ValueError:
            refused = 1
        assert refused, (n, changes)
    refused = 0
    try:
        CalSettings(max_offset=10)
    except TypeError:
        refused = 1
    assert refused
    assert CalSettings(samples=4).zero_high == CalSettings.zero_high == 35500
