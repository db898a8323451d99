"""The stand-ins for MicroPython's machine and neopixel modules, wired by the pin map to the
simulated world: mux and ADC, the banks' switched sensor supply, noise and sensor faults, button, LED, buzzer, SPI to the MFRC522
model, the world records the simulator sends, and (under the real MicroPython unix port) hot
paths that allocate nothing."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from upref import paths
from upref.chip import esp32_adc
from upref.sim import firmware_process
from upref.sim.cpython import install

STANDINS = firmware_process.STANDINS
CHIP = firmware_process.CHIP
PINMAP = json.loads(paths.pinmap_path().read_text())
SIG = {name: s["gpio"] for name, s in PINMAP["signals"].items()}


@pytest.fixture
def sim(monkeypatch: pytest.MonkeyPatch) -> Iterator[SimpleNamespace]:
    """Fresh stand-in modules in standalone mode (no simulator attached)."""
    install()
    for var in ("UPREF_SIM_FIFO", "UPREF_SIM_PINMAP", "UPREF_SIM_RESET", "UPREF_SIM_MAC"):
        monkeypatch.delenv(var, raising=False)
    names = ("sim_world", "machine", "neopixel", "mfrc522_model")
    saved = {n: sys.modules.pop(n) for n in names if n in sys.modules}
    monkeypatch.syspath_prepend(str(CHIP))
    monkeypatch.syspath_prepend(str(STANDINS))
    import machine
    import neopixel
    import sim_world

    yield SimpleNamespace(machine=machine, neopixel=neopixel, world=sim_world.world, sim_world=sim_world)
    for n in names:
        sys.modules.pop(n, None)
    sys.modules.update(saved)


def select(m: ModuleType, channel: int) -> list[object]:
    pins = [m.Pin(SIG[n], m.Pin.OUT, value=0) for n in PINMAP["mux"]["select"]]
    for i, p in enumerate(pins):
        p.value((channel >> i) & 1)
    return pins


def adcs(m: ModuleType) -> list[object]:
    return [m.ADC(m.Pin(SIG[n]), atten=m.ADC.ATTN_11DB) for n in PINMAP["mux"]["banks"]]


def switches(m: ModuleType) -> list[object]:
    """The banks' supply switches as the firmware builds them: outputs at 1 (off)."""
    return [m.Pin(SIG[n], m.Pin.OUT, value=1) for n in PINMAP["mux"]["power"]]


def power_all(m: ModuleType) -> list[object]:
    """Every bank switched on, and their sensors given their power-on time."""
    pins = switches(m)
    for p in pins:
        p.value(0)
    time.sleep(2 * HALL_TON_S)
    return pins


HALL_TON_S = 330e-6  # DRV5055 power-on time, max


def nominal(uv: int) -> int:
    """What read_u16 returns for uv at the pin on a chip of the nominal Vref (1100 mV)."""
    return esp32_adc.Curve(1100).read_u16(uv)


def test_each_sensor_is_read_through_its_mux_bank_and_channel(sim: SimpleNamespace) -> None:
    m, w = sim.machine, sim.world
    assert w.vref_mv == 1100  # standalone: a chip of the nominal reference
    for k in range(w.n_sensors):
        w.set_level(k, 1_000_000 + 40_000 * k)  # microvolts at each sensor's output
    banks = adcs(m)
    power_all(m)
    for k, (bank, ch) in enumerate(PINMAP["hall"]["channels"]):
        select(m, ch)
        v = banks[bank].read_u16()
        assert v == nominal(1_000_000 + 40_000 * k), (k, v)
        assert v & 0xF == (v >> 12)  # the ESP32's read_u16 scaling of a 12-bit reading


def test_the_adc_reads_each_chips_own_curve_uncalibrated_and_read_uv_calibrates(
    sim: SimpleNamespace,
) -> None:
    m, w = sim.machine, sim.world
    power_all(m)
    select(m, 0)
    adc = adcs(m)[0]
    w.set_level(0, 1_650_000)  # a DRV5055 at rest: VCC / 2
    got = {}
    for vref in (1000, 1100, 1200):
        w.apply(firmware_process.encode_record("V", vref))
        got[vref] = adc.read_u16()
        # read_uv applies Espressif's calibration with the chip's eFuse Vref: the voltage again
        assert abs(adc.read_uv() - 1_650_000) <= 5_000, (vref, adc.read_uv())
    # read_u16 is not calibrated: the same 1.65 V reads far from mid-scale, chip to chip
    assert 32_500 < got[1000] < 33_500 and 29_500 < got[1100] < 30_500 and 27_000 < got[1200] < 28_000
    # nothing below the 11 dB offset (about 0.14 V), and the curve bends near the top
    w.set_level(0, 100_000)
    assert adc.read_u16() == 0
    w.set_level(0, 3_300_000)
    assert adc.read_u16() == 65535
    c = esp32_adc.Curve(1100)
    low_slope = c.raw16(1_900_000) - c.raw16(1_800_000)
    top_slope = c.raw16(2_900_000) - c.raw16(2_800_000)
    assert top_slope > 1.2 * low_slope  # more counts per volt near the top: 4095 comes early


def test_a_bank_reads_right_only_while_powered_and_after_its_power_on_time(
    sim: SimpleNamespace,
) -> None:
    m, w = sim.machine, sim.world
    assert w.switched and w.t_on_us == 330

    def level(k: int) -> int:
        return 1_300_000 + 25_000 * k

    for k in range(w.n_sensors):
        w.set_level(k, level(k))
    banks = adcs(m)
    pins = switches(m)
    assert list(w.bank_on) == [0, 0, 0]  # built off (value=1: the gates' pull-up level)

    def read(k: int) -> int:
        bank, ch = PINMAP["hall"]["channels"][k]
        select(m, ch)
        return banks[bank].read_u16()

    def right(k: int, v: int) -> bool:
        return v == nominal(level(k))

    # unpowered: every sensor reads ground, whatever its level
    for k in range(w.n_sensors):
        assert read(k) == 0, k
    # bank B on: its sensors read low and wrong during the power-on time; A and C stay at 0
    w.t_on_us = 60_000_000  # a power-on time of a minute: these reads fall inside it for sure
    pins[1].value(0)
    early = [read(k) for k in range(16, 32)]
    assert all(v < nominal(level(k) // 2) + 32 for k, v in zip(range(16, 32), early, strict=True))
    assert not any(right(k, v) for k, v in zip(range(16, 32), early, strict=True))
    # with the DRV5055's own power-on time (330 us) they read their levels once it is over
    w.t_on_us = sim.sim_world.HALL_TON_US
    end = time.monotonic() + 5
    while not all(right(k, read(k)) for k in range(16, 32)):
        assert time.monotonic() < end, [read(k) for k in range(16, 32)]
    assert all(read(k) == 0 for k in list(range(16)) + list(range(32, 40)))
    # off again: back to ground; a floating input floats whether powered or not
    pins[1].value(1)
    assert all(read(k) == 0 for k in range(16, 32))
    w.set_mode(20, sim.sim_world.MODE_FLOAT)
    assert len({read(20) for _ in range(50)}) > 10


def test_without_supply_switches_in_the_map_the_sensors_are_always_powered(
    sim: SimpleNamespace, tmp_path: Path
) -> None:
    pm = json.loads(json.dumps(PINMAP))
    for name in pm["mux"].pop("power"):
        del pm["signals"][name]
    path = tmp_path / "pinmap.json"
    path.write_text(json.dumps(pm))
    w = sim.sim_world.World(str(path))
    assert not w.switched and list(w.bank_on) == [1, 1, 1]
    w.set_level(0, 2_000_000)
    w.mux_sel = 0
    assert w.adc_read(0) == 2_000_000  # no switch to turn on: bank A reads at once


def test_records_from_the_simulator_drive_the_world(sim: SimpleNamespace) -> None:
    w = sim.world
    for rec in (
        firmware_process.encode_record("V", 1180),
        firmware_process.encode_record("L", 5, 2_100_000, 0, 0),
        firmware_process.encode_record("F", 6, 2),
        firmware_process.encode_record("B", 1),
        firmware_process.encode_record("N", 150),
        firmware_process.encode_record("K+", "04A1B2C3D4E5F6"),
        firmware_process.encode_record("K+", "DEADBEEF"),
        firmware_process.encode_record("K-", "04A1B2C3D4E5F6"),
        firmware_process.encode_record("R", 0),
    ):
        assert len(rec) == sim.sim_world.RECORD_SIZE and rec.endswith(b"\n")
        w.apply(rec)
    assert w.vref_mv == 1180 and w.curves[3].vref_mv == 1180
    assert w.level_at(5, w.now()) == 2_100_000
    assert w.mode[6] == sim.sim_world.MODE_RAIL_HIGH and w.sensor_read(6) == sim.sim_world.SUPPLY_UV
    assert w.button == 1 and w.noise == 150
    assert w.cards == [bytes.fromhex("DEADBEEF")]
    assert w.rfid_version == 0
    w.apply(firmware_process.encode_record("K0"))
    assert w.cards == []


def test_levels_ramp_after_their_delay(sim: SimpleNamespace) -> None:
    w = sim.world
    w.set_level(0, 1_600_000)
    now = w.now()
    w.set_level(0, 2_000_000, 10, 5)
    assert w.level_at(0, now) == 1_600_000
    assert w.level_at(0, now + 5) == 1_600_000
    assert w.level_at(0, now + 10) == 1_800_000
    assert w.level_at(0, now + 15) == 2_000_000
    assert w.level_at(0, now + 1000) == 2_000_000


def test_adc_noise_has_the_set_deviation_and_faults_misbehave(sim: SimpleNamespace) -> None:
    m, w = sim.machine, sim.world
    power_all(m)
    select(m, 3)
    adc = adcs(m)[0]
    w.set_level(3, 1_650_000)
    quiet = nominal(1_650_000)
    w.noise = 150
    w.seed(7)
    samples = [adc.read_u16() for _ in range(5000)]
    assert abs(statistics.mean(samples) - quiet) < 15
    assert 130 < statistics.pstdev(samples) < 175  # 150, plus the 12-bit steps of 16 counts
    w.set_mode(3, sim.sim_world.MODE_FLOAT)
    wander = [adc.read_u16() for _ in range(5000)]
    assert len(set(wander)) > 1000 and max(wander) - min(wander) > 30000
    w.set_mode(3, sim.sim_world.MODE_RAIL_LOW)
    assert adc.read_u16() == 0  # below the ADC's offset: a steady 0, noise or not
    w.set_mode(3, sim.sim_world.MODE_RAIL_HIGH)
    assert adc.read_u16() == 65535
    w.set_mode(3, sim.sim_world.MODE_OK)
    w.noise = 0
    assert adc.read_u16() == quiet


def test_adc_attenuation_and_esp32_pin_rules(sim: SimpleNamespace) -> None:
    m, w = sim.machine, sim.world
    for k in range(w.n_sensors):
        w.set_level(k, 1_650_000)
    power_all(m)
    select(m, 0)
    bank_pin = m.Pin(SIG[PINMAP["mux"]["banks"][0]])
    # MicroPython v1.29 makes an ADC at 11 dB unless told otherwise (machine_adc.c)
    assert m.ADC(bank_pin).read_u16() == nominal(1_650_000)
    assert m.ADC(bank_pin, atten=m.ADC.ATTN_0DB).read_u16() == 65535  # 0 dB tops out near 1 V
    assert m.ADC(bank_pin, atten=m.ADC.ATTN_11DB).read() == nominal(1_650_000) >> 4
    with pytest.raises(ValueError, match="invalid pin"):
        m.Pin(20)
    with pytest.raises(ValueError, match="only be input"):
        m.Pin(34, m.Pin.OUT)
    with pytest.raises(ValueError, match="invalid pin for ADC"):
        m.ADC(m.Pin(5))
    with pytest.raises(ValueError, match="doesn't exist"):
        m.SPI(0)


def test_button_led_buzzer_and_board_identity(sim: SimpleNamespace) -> None:
    m, np, w = sim.machine, sim.neopixel, sim.world
    button = m.Pin(SIG["button"], m.Pin.IN, m.Pin.PULL_UP)
    assert button.value() == 1
    w.set_button(1)
    assert button.value() == 0  # to GND, active low
    w.set_button(0)
    led = np.NeoPixel(m.Pin(SIG["led_data"], m.Pin.OUT), 1)
    led[0] = (255, 128, 0)
    assert w.led == (0, 0, 0)  # nothing shows before write()
    led.write()
    assert w.led == (255, 128, 0) and led[0] == (255, 128, 0)
    pwm = m.PWM(m.Pin(SIG["buzzer"]), freq=1000, duty_u16=0)
    pwm.freq(440)
    pwm.duty_u16(32768)
    pwm.duty_u16(0)
    assert [(hz, d) for _, hz, d in w.tones] == [(440, 32768), (0, 0)]
    m.PWM(m.Pin(2), freq=440, duty_u16=32768)  # not the buzzer: silent
    assert len(w.tones) == 2
    assert m.reset_cause() == m.PWRON_RESET
    assert len(m.unique_id()) == 6
    with pytest.raises(SystemExit):
        m.reset()
    assert w.resets == ["hard"]


def test_spi_reaches_the_mfrc522_model_while_its_chip_select_is_low(sim: SimpleNamespace) -> None:
    m, w = sim.machine, sim.world
    spi = m.SPI(2, baudrate=4_000_000, polarity=0, phase=0, sck=m.Pin(SIG["spi_sck"]),
                mosi=m.Pin(SIG["spi_mosi"]), miso=m.Pin(SIG["spi_miso"]))
    cs = m.Pin(SIG["rfid_cs"], m.Pin.OUT, value=1)
    m.Pin(SIG["rfid_rst"], m.Pin.OUT, value=1)
    tx = bytes([0x80 | (0x37 << 1), 0x00])  # read VersionReg
    rx = bytearray(2)
    spi.write_readinto(tx, rx)
    assert rx[1] == 0xFF  # not selected: MISO floats
    cs.value(0)
    spi.write_readinto(tx, rx)
    cs.value(1)
    assert rx[1] == 0x92
    w.set_rfid_version(0)
    cs.value(0)
    spi.write_readinto(tx, rx)
    cs.value(1)
    assert rx[1] == 0x00  # a dead reader


MP_HOT_PATH = r"""
import sys
sys.path.insert(0, CHIP)
sys.path.insert(0, STANDINS)
import machine, micropython, json, time
pm = json.load(open(PINMAP))
sig = pm["signals"]
sel = [machine.Pin(sig[n]["gpio"], machine.Pin.OUT, value=0) for n in pm["mux"]["select"]]
adc = machine.ADC(machine.Pin(sig[pm["mux"]["banks"][0]]["gpio"]), atten=machine.ADC.ATTN_11DB)
pwr = machine.Pin(sig[pm["mux"]["power"][0]]["gpio"], machine.Pin.OUT, value=1)
btn = machine.Pin(sig["button"]["gpio"], machine.Pin.IN, machine.Pin.PULL_UP)
spi = machine.SPI(2, baudrate=4000000)
cs = machine.Pin(sig["rfid_cs"]["gpio"], machine.Pin.OUT, value=1)
tx = bytearray(2); rx = bytearray(2)
tx[0] = 0x80 | (0x37 << 1)
machine.world().noise = 150
total = 0
for warm in (0, 1):
    if warm:
        micropython.heap_lock()
    for ch in range(16):
        for i in range(4):
            sel[i].value((ch >> i) & 1)
        total += adc.read_u16()  # unpowered
        pwr.value(0)
        total += adc.read_u16()  # powering up
        time.sleep_us(400)
        total += adc.read_u16()  # powered
        pwr.value(1)
        total += btn.value()
    cs.value(0)
    spi.write_readinto(tx, rx)
    cs.value(1)
micropython.heap_unlock()
print("ok", rx[1], total > 0)
"""


def test_stand_in_hot_paths_allocate_nothing_under_micropython(tmp_path: Path) -> None:
    exe = firmware_process.micropython_exe()
    script = tmp_path / "hot.py"
    script.write_text(f"STANDINS = {str(STANDINS)!r}\nCHIP = {str(CHIP)!r}\n"
                      f"PINMAP = {str(paths.pinmap_path())!r}\n" + MP_HOT_PATH)
    res = subprocess.run([exe, "-X", "heapsize=256K", str(script)], capture_output=True, text=True, timeout=30)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.strip() == "ok 146 True"


def _reader_on_the_board(sim: SimpleNamespace, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The firmware's MFRC522 driver on the stand-ins' SPI bus, as the board wires it."""
    monkeypatch.syspath_prepend(str(paths.firmware_dir() / "drivers" / "mfrc522"))
    for name in ("mfrc522", "mfrc522_setup"):
        sys.modules.pop(name, None)
    from mfrc522 import MFRC522

    m = sim.machine
    spi = m.SPI(2, baudrate=4_000_000, polarity=0, phase=0)
    reader = MFRC522(spi, m.Pin(SIG["rfid_cs"], m.Pin.OUT, value=1),
                     m.Pin(SIG["rfid_rst"], m.Pin.OUT, value=1))
    reader.init()
    return reader


def test_the_reader_records_set_the_chips_crc_and_the_cards_bit_errors(
        sim: SimpleNamespace, monkeypatch: pytest.MonkeyPatch) -> None:
    w = sim.world
    good, weak = "DEADBEEF", "04A1B2C3D4E5F6"
    for rec in (firmware_process.encode_record("RC", 1, 0),
                firmware_process.encode_record("K+", weak),
                firmware_process.encode_record("KB", weak, 100)):
        w.apply(rec)
    reader = _reader_on_the_board(sim, monkeypatch)
    buf = bytearray(10)
    with pytest.raises(OSError, match="receive error"):
        reader.read_uid(buf)  # every answer of the marginal card has a bit wrong
    w.apply(firmware_process.encode_record("K0"))
    w.apply(firmware_process.encode_record("K+", good))
    assert w.rfid.keep_crc  # the chip leaves the SAK's CRC_A in the FIFO; the driver takes it
    n = reader.read_uid(buf)
    assert bytes(buf[:n]) == bytes.fromhex(good)
    w.apply(firmware_process.encode_record("RC", 0, 100))  # now every card's answers
    with pytest.raises(OSError, match="receive error"):
        reader.read_uid(buf)
    assert not w.rfid.keep_crc


def test_a_card_laid_answers_the_readers_next_transmission(
        sim: SimpleNamespace, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A card is in the field the moment the hand lays it: the reader's next transmission reads
    the simulator's records first, however lately the world last looked at them (a real reader
    would not miss a card laid just before its look, to see it a scan period later)."""
    w = sim.world
    uid = "04A1B2C3D4E5F6"
    path = tmp_path / "world"
    os.mkfifo(path)
    opening = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # so the simulator's end opens at once
    feed = os.open(path, os.O_WRONLY)
    try:
        w.connect(str(path))
        os.close(opening)
        reader = _reader_on_the_board(sim, monkeypatch)
        buf = bytearray(10)
        assert reader.read_uid(buf) == 0  # an empty field
        w.poll(True)  # the world has just looked at its records
        os.write(feed, firmware_process.encode_record("K+", uid, firmware_process.ticks_now()))
        n = reader.read_uid(buf)
        assert bytes(buf[:n]) == bytes.fromhex(uid)
    finally:
        os.close(feed)


def test_a_cards_arrival_is_dated_when_the_hand_laid_it(
        sim: SimpleNamespace, monkeypatch: pytest.MonkeyPatch) -> None:
    """make bench dates a card's arrival on the chip's clock by its record's stamp, no earlier
    than the chip's last look at its records (standins/probe.py): not when the chip next reads
    them, which would leave the wait before the reader's next look out of the card's figure."""
    import chip
    import probe

    c = chip.chip
    monkeypatch.setattr(c, "on", True)
    monkeypatch.setattr(c, "us", 1_000_000)
    w = sim.world
    reports: list[str] = []
    probe._dated(w, reports.append)
    w.poll(True)  # the chip looks at its records at 1.000 s on its clock
    c.us += 8_000  # and next reads them 8 ms later
    real = c.real_ticks_ms()
    w.apply(firmware_process.encode_record("K+", "04A1B2C3D4E5F6", real - 5))  # laid 5 ms ago
    w.apply(firmware_process.encode_record("K+", "DEADBEEF", real - 50))  # before the last look
    w.apply(firmware_process.encode_record("K+", "CAFEBABE"))  # no stamp: when it is read
    dates = {words[2]: int(words[3]) for words in (r.split() for r in reports) if words[1] == "K"}
    assert 1_008_000 - 6_000 <= dates["04A1B2C3D4E5F6"] <= 1_008_000 - 5_000, dates
    assert dates["DEADBEEF"] == 1_000_000
    assert dates["CAFEBABE"] == 1_008_000
