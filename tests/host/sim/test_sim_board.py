"""The simulated board as a process: pty, pacing, line noise, tag_book, control socket, power,
resets, watchdog, Ctrl-C/REPL. Most tests run a tiny stand-in firmware (below) so they do not
depend on the real one; the last ones start the real firmware/main.py."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
import serial
from serial_helpers import read_until
from upref.link import protocol
from upref.sim import channel, physics
from upref.sim.board import SimBoard, SimSettings
from upref.sim.channel import SimControl
from upref.sim.cli import simctl_main
from upref.sim.errors import SimError

T = TypeVar("T")

# A tiny firmware speaking a line protocol of its own, MicroPython-compatible. Reads bytes the
# way the real firmware does (poll, then readinto one byte).
TINY_MAIN = r'''
import sys, select, time, json, machine, neopixel

print_ = sys.stdout.buffer.write
p = select.poll()
p.register(sys.stdin, select.POLLIN)
one = bytearray(1)
pm = json.load(open("pinmap.json"))
sig = pm["signals"]
sel = [machine.Pin(sig[n]["gpio"], machine.Pin.OUT, value=0) for n in pm["mux"]["select"]]
adcs = [machine.ADC(machine.Pin(sig[n]["gpio"]), atten=machine.ADC.ATTN_11DB) for n in pm["mux"]["banks"]]
chans = pm["hall"]["channels"]
power = [machine.Pin(sig[n]["gpio"], machine.Pin.OUT, value=1) for n in pm["mux"].get("power", [])]
button = machine.Pin(sig["button"]["gpio"], machine.Pin.IN, machine.Pin.PULL_UP)
led = neopixel.NeoPixel(machine.Pin(sig["led_data"]["gpio"]), 1)
buzzer = machine.PWM(machine.Pin(sig["buzzer"]["gpio"]), freq=1000, duty_u16=0)
wdt = None
feeding = True
print_(b"hello cause=%d\r\n" % machine.reset_cause())
line = bytearray()
t_first = 0


def level(k):
    bank, ch = chans[k]
    for i in range(4):
        sel[i].value((ch >> i) & 1)
    if power:
        power[bank].value(0)  # the bank's sensors on, given their power-on time
        time.sleep_us(pm["mux"]["power_on_us"])
    v = adcs[bank].read_u16()
    if power:
        power[bank].value(1)
    return v


def command(cmd):
    global wdt, feeding
    words = cmd.split()
    if not words:
        return
    op = words[0]
    if op == b"reset":
        machine.reset()
    elif op == b"soft":
        machine.soft_reset()
    elif op == b"burst":
        n = int(words[1])
        print_(b"x" * (n - 2) + b"\r\n")
    elif op == b"levels":
        print_(b"levels " + b",".join(b"%d" % level(k) for k in range(len(chans))) + b"\r\n")
    elif op == b"button":
        print_(b"button %d\r\n" % button.value())
    elif op == b"led":
        led[0] = (int(words[1]), int(words[2]), int(words[3]))
        led.write()
        print_(b"led ok\r\n")
    elif op == b"tone":
        buzzer.freq(int(words[1]))
        buzzer.duty_u16(32768)
        time.sleep_ms(int(words[2]))
        buzzer.duty_u16(0)
        print_(b"tone ok\r\n")
    elif op == b"wdt":
        wdt = machine.WDT(timeout=int(words[1]))
        print_(b"wdt ok\r\n")
    elif op == b"keeper":
        keeper = machine.Timer(0)
        keeper.init(mode=machine.Timer.PERIODIC, period=int(words[1]), callback=lambda t: wdt.feed())
        print_(b"keeper ok\r\n")
    elif op == b"hang":
        feeding = False
        print_(b"hanging\r\n")
    elif op == b"exit":
        import os
        os._exit(3)
    else:
        print_(b"len=%d ms=%d\r\n" % (len(cmd), time.ticks_diff(time.ticks_ms(), t_first)))


while True:
    got = False
    for _ in p.ipoll(0):
        got = True
        if sys.stdin.buffer.readinto(one) == 1:
            c = one[0]
            if not line:
                t_first = time.ticks_ms()
            if c == 10:
                command(bytes(line).strip())
                line = bytearray()
            else:
                line.append(c)
    if wdt is not None and feeding:
        wdt.feed()
    if not got:
        time.sleep_ms(1)
'''


@pytest.fixture
def fw(tmp_path: Path) -> Path:
    d = tmp_path / "fw"
    d.mkdir()
    (d / "main.py").write_text(TINY_MAIN)
    return d


def open_port(board: SimBoard, timeout: float = 2.0) -> serial.Serial:
    """Open the port once the firmware process runs (a Ctrl-C during boot is lost)."""
    board.wait_for(lambda st: st["booted"], timeout=10)
    return serial.serial_for_url(board.port, baudrate=115200, timeout=timeout)


def read_frame(ser: serial.Serial, ftype: bytes, timeout: float = 10.0) -> bytes:
    """The next whole frame of a type: b"@0003 SNAP holes=...*ABCD" (without the line end)."""
    end = time.monotonic() + timeout
    buf = b""
    while True:
        m = re.search(rb"@[0-9A-F]{4} " + ftype + rb" [^\r]*\r\n", buf)
        if m:
            return m.group(0)[:-2]
        if time.monotonic() > end:
            raise AssertionError(f"never saw a {ftype!r} frame; got {buf[-400:]!r}")
        buf += ser.read(ser.in_waiting or 1)


def until(get: Callable[[], T], ok: Callable[[T], bool], what: str, timeout: float = 5.0) -> T:
    """get() again and again until ok(value) holds; AssertionError naming `what` and the last
    value if it never does."""
    end = time.monotonic() + timeout
    while True:
        value = get()
        if ok(value):
            return value
        if time.monotonic() > end:
            raise AssertionError(f"never saw {what}; last: {value!r}")


def started(ser: serial.Serial, cause: int) -> bytes:
    return read_until(ser, b"hello cause=%d\r\n" % cause)


def reopen_until_up(board: SimBoard, cause: int) -> serial.Serial:
    """Open the port and make the board say hello (pyserial drops what came before open)."""
    ser = open_port(board)
    ser.write(b"\x03")  # to the REPL ...
    read_until(ser, b">>> ")
    ser.write(b"\x04")  # ... and a soft reboot gives a fresh hello
    read_until(ser, b"hello cause=5\r\n")
    return ser


def test_registry_port_and_control_socket_live_while_the_board_runs(rt: Path, fw: Path) -> None:
    board = SimBoard(SimSettings(name="reg", firmware_dir=fw))
    reg = rt / "sim-reg.json"
    assert not reg.exists()
    with board:
        entry = json.loads(reg.read_text())
        assert entry == {"pid": os.getpid(), "port": board.port, "control": board.control_path,
                         "backend": "cpython", "name": "reg"}
        assert os.path.islink(board.port) and os.readlink(board.port).startswith("/dev/pts/")
        assert channel.find_running() == [entry]
        assert channel.find_one()["name"] == "reg"
        with pytest.raises(SimError, match="already running"):
            SimBoard(SimSettings(name="reg", firmware_dir=fw)).start()
        with SimControl(board.control_path) as ctl:
            assert ctl.state()["board"] == "up"
            assert "pulled" in ctl.pull(3)
            with pytest.raises(channel.SimControlError, match="hole 3 is empty"):
                ctl.pull(3)
            assert "unknown command" in ctl.raw("dance")
            assert ctl.help().startswith("pull <hole>")
    assert not reg.exists()
    assert not os.path.lexists(board.port)
    assert not os.path.exists(board.control_path)
    assert channel.find_running() == []
    with pytest.raises(channel.SimControlError, match="no simulated board is running"):
        channel.find_one()


def test_simctl_cli_finds_the_one_running_board(rt: Path, fw: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SimBoard(SimSettings(name="cli", firmware_dir=fw, empty=True)):
        assert simctl_main(["insert", "4", "red-blue", "blue"]) == 0
        assert "P-RB with red up" in capsys.readouterr().out
        assert simctl_main(["insert", "4", "RY", "R"]) == 1
        assert "pull 4 first" in capsys.readouterr().err
        assert simctl_main(["--sim", "cli", "state"]) == 0
        st = json.loads(capsys.readouterr().out)
        assert st["holes"][3]["pair"] == "P-RB" and st["holes"][3]["up"] == "R"
        # --sim may also come after the verb, as people type it
        assert simctl_main(["flip", "4", "--sim", "cli"]) == 0
        capsys.readouterr()
        assert simctl_main(["state", "--sim=cli"]) == 0
        assert json.loads(capsys.readouterr().out)["holes"][3]["up"] == "B"
    assert simctl_main(["state"]) == 1
    assert "upref sim" in capsys.readouterr().err


def test_board_to_host_bytes_are_paced_at_115200_baud(rt: Path, fw: Path) -> None:
    with SimBoard(SimSettings(name="pace", firmware_dir=fw, rom_banner=False)) as board:
        ser = reopen_until_up(board, 1)
        n = 2304  # 0.2 s of line time
        ser.write(b"burst %d\n" % n)
        first = ser.read(1)
        t0 = time.monotonic()
        rest = read_until(ser, b"\r\n")
        dt = time.monotonic() - t0
        assert first + rest == b"x" * (n - 2) + b"\r\n"
        expect = (n - 1) * 10 / 115200
        assert 0.75 * expect < dt < expect + 0.15, dt


def test_host_to_board_bytes_are_paced_at_115200_baud(rt: Path, fw: Path) -> None:
    with SimBoard(SimSettings(name="pace2", firmware_dir=fw, rom_banner=False)) as board:
        ser = reopen_until_up(board, 1)
        n = 1152  # 0.1 s of line time
        ser.write(b"y" * (n - 1) + b"\n")
        got = read_until(ser, b"\r\n", timeout=3).split(b"\r\n")[-2]
        assert got.startswith(b"len=%d " % (n - 1))
        ms = int(got.split(b"ms=")[1])
        expect = (n - 1) * 10 / 115200 * 1000
        assert 0.75 * expect < ms < expect + 100, ms


def test_line_noise_flips_single_bits_at_the_given_rate(rt: Path, fw: Path) -> None:
    with SimBoard(SimSettings(name="noise", firmware_dir=fw, rom_banner=False, baud=0, seed=5)) as board:
        ser = reopen_until_up(board, 1)
        assert board.noise(0.01, "from-board") == "line noise 0.01 per byte from-board"
        n = 20000
        ser.write(b"burst %d\n" % n)
        got = b""
        end = time.monotonic() + 10
        while len(got) < n and time.monotonic() < end:
            got += ser.read(n - len(got))
        board.set_noise(0)  # the old name of noise(), kept for callers
        assert board.state()["line"]["noise_from_board"] == 0
        assert len(got) == n
        sent = b"x" * (n - 2) + b"\r\n"
        bad = [(a, b) for a, b in zip(sent, got, strict=True) if a != b]
        assert 0.006 * n < len(bad) < 0.014 * n, len(bad)
        assert all(bin(a ^ b).count("1") == 1 for a, b in bad)
        assert board.state()["line"]["flipped"] >= len(bad)


def test_ctrl_c_shows_the_repl_and_ctrl_d_soft_reboots(rt: Path, fw: Path) -> None:
    with SimBoard(SimSettings(name="repl", firmware_dir=fw)) as board:
        ser = open_port(board)
        ser.write(b"\x03")
        out = read_until(ser, b">>> ")
        assert b"Traceback (most recent call last):\r\n" in out
        assert b'  File "main.py", line ' in out
        assert b"KeyboardInterrupt: \r\n" in out
        assert out.endswith(
            b"MicroPython v1.29.0 on 2026-08-29; Generic ESP32 module with ESP32\r\n"
            b'Type "help()" for more information.\r\n>>> '
        )
        assert board.state()["board"] == "repl"
        ser.write(b"6*7\r")
        assert read_until(ser, b">>> ") == b"6*7\r\n42\r\n>>> "
        ser.write(b"abc\x03")
        assert read_until(ser, b">>> ") == b"abc\r\n>>> "
        ser.write(b"\x04")
        out = read_until(ser, b"hello cause=5\r\n")
        assert out == b"\r\nMPY: soft reboot\r\nhello cause=5\r\n"
        st = board.state()
        assert st["board"] == "up" and st["reset_cause"] == "soft"


def test_reset_restarts_the_firmware_as_from_power_on_and_machine_reset_is_hard(rt: Path, fw: Path) -> None:
    with SimBoard(SimSettings(name="reset", firmware_dir=fw)) as board:
        ser = open_port(board)
        resets = board.state()["resets"]
        assert board.reset() == "reset (EN button)"
        # the first start's hello may still be on its way: what follows the reset is the ROM's
        # boot text, then the firmware's hello; EN reads as power-on on the ESP32 (PWRON_RESET)
        read_until(ser, b"rst:0x1 (POWERON_RESET)")
        assert b"hello cause=" not in started(ser, 1)[:-len(b"hello cause=1\r\n")]
        assert board.state()["resets"] == resets + 1
        ser.write(b"reset\n")  # machine.reset() from the firmware
        started(ser, 2)
        ser.write(b"soft\n")  # machine.soft_reset()
        assert read_until(ser, b"hello cause=5\r\n").endswith(b"MPY: soft reboot\r\nhello cause=5\r\n")
        assert board.state()["resets"] == resets + 3


def test_unplug_removes_the_port_and_plugging_in_brings_it_back(rt: Path, fw: Path) -> None:
    with SimBoard(SimSettings(name="unplug", firmware_dir=fw)) as board:
        ser = open_port(board, timeout=0.5)
        old_pty = board.pty
        assert "unplugged" in board.unplug(1.0)
        assert not os.path.lexists(board.port)
        assert board.state()["board"] == "unplugged"
        with pytest.raises(serial.SerialException):
            for _ in range(4):
                ser.read(1)
        ser.close()
        with pytest.raises(serial.SerialException):
            serial.serial_for_url(board.port, baudrate=115200)
        board.wait_for(lambda st: st["board"] == "up", timeout=5)
        assert os.path.islink(board.port) and board.pty is not None
        assert board.state()["reset_cause"] == "power"
        ser = reopen_until_up(board, 1)
        ser.write(b"button\n")
        assert read_until(ser, b"\r\n").endswith(b"button 1\r\n")
        # unplug without a time: until `plug`
        board.unplug()
        with pytest.raises(SimError, match="plug"):
            board.reset()
        board.plug()
        assert os.path.islink(board.port)
        assert old_pty is not None


def test_watchdog_resets_a_firmware_that_stops_feeding_it(rt: Path, fw: Path) -> None:
    with SimBoard(SimSettings(name="wdt", firmware_dir=fw)) as board:
        ser = reopen_until_up(board, 1)
        resets = board.state()["resets"]
        ser.write(b"wdt 300\n")
        read_until(ser, b"wdt ok\r\n")
        # fed (a report at most every 100 ms): two timeouts' worth go by without a reset
        st = board.wait_for(lambda st: st["wdt_feeds"] >= 6 or st["resets"] > resets)
        assert st["wdt_resets"] == 0 and st["resets"] == resets
        ser.write(b"hang\n")
        out = started(ser, 3)
        assert b"task_wdt: Task watchdog got triggered" in out and b"Rebooting..." in out
        st = board.state()
        assert st["wdt_resets"] == 1 and st["reset_cause"] == "wdt"
        # as on an ESP32 the watchdog cannot be stopped: at the REPL nobody feeds it
        ser.write(b"wdt 300\n")
        read_until(ser, b"wdt ok\r\n")
        ser.write(b"\x03")
        read_until(ser, b">>> ")
        started(ser, 3)
        assert board.state()["wdt_resets"] == 2


def test_a_timer_can_feed_the_watchdog_at_the_repl_which_survives_a_soft_reboot(
    rt: Path, fw: Path
) -> None:
    # what firmware/lib/watchdog.py relies on: soft timer callbacks run while the REPL waits,
    # and the watchdog (unlike the timer) survives a soft reboot, as on an ESP32
    with SimBoard(SimSettings(name="keeper", firmware_dir=fw)) as board:
        ser = reopen_until_up(board, 1)
        # a timeout ten feeds long, so that a loaded machine that holds the board's process back
        # for a moment does not starve the watchdog of a feed the timer did make
        ser.write(b"wdt 1000\n")
        read_until(ser, b"wdt ok\r\n")
        ser.write(b"keeper 100\n")
        read_until(ser, b"keeper ok\r\n")
        ser.write(b"\x03")
        read_until(ser, b">>> ")
        # three timeouts' worth of feeds at the REPL (a report at most every 100 ms): the timer
        # keeps the watchdog fed
        st = board.state()
        fed, resets = st["wdt_feeds"], st["resets"]
        st = board.wait_for(lambda st: st["wdt_feeds"] >= fed + 30 or st["resets"] > resets)
        assert st["wdt_resets"] == 0 and st["resets"] == resets and st["face"] == "repl"
        ser.write(b"\x04")  # soft reboot: timers stop, the watchdog does not
        read_until(ser, b"MPY: soft reboot")
        started(ser, 3)
        assert board.state()["wdt_resets"] == 1


def test_world_reaches_the_firmware_through_the_stand_ins(rt: Path, fw: Path) -> None:
    with SimBoard(SimSettings(name="world", firmware_dir=fw, seed=2, sensor_noise=0)) as board:
        ser = reopen_until_up(board, 1)

        def levels() -> list[int]:
            ser.write(b"levels\n")
            line = read_until(ser, b"\r\n").split(b"levels ")[-1].strip()
            return [int(v) for v in line.split(b",")]

        w = board.world
        got = levels()
        want = w.levels()
        assert all(abs(a - b) <= 16 for a, b in zip(got, want, strict=True))  # 12-bit ADC
        board.pull(5)
        # the stand-ins take in the world as the firmware reads its sensors, and the magnets
        # leave over a few milliseconds: hole 5's sensors come to rest at their zeros
        until(levels, lambda got: all(abs(got[k] - w.offset[k]) <= 16 for k in range(16, 20)),
              "hole 5's sensors at their zeros after the pull")
        board.sensor(17, "rail")
        board.sensor("5.2", "rail-low")
        got = levels()
        assert got[16] == 65535 and got[17] == 0
        board.sensor(17, "ok")
        board.button("press")
        ser.write(b"button\n")
        assert read_until(ser, b"\r\n").endswith(b"button 0\r\n")  # active low
        board.button("release")
        ser.write(b"led 255 128 0\n")
        read_until(ser, b"led ok\r\n")
        ser.write(b"tone 440 60\n")
        read_until(ser, b"tone ok\r\n")
        st = board.wait_for(lambda s: s["buzzer"]["log"], timeout=2)
        assert st["led"] == "#ff8000"
        tone = st["buzzer"]["log"][-1]
        assert tone["hz"] == 440 and 40 <= tone["ms"] <= 200


def test_a_firmware_process_that_dies_leaves_a_board_that_reboots_on_ctrl_d(rt: Path, fw: Path) -> None:
    with SimBoard(SimSettings(name="dies", firmware_dir=fw)) as board:
        ser = reopen_until_up(board, 1)
        ser.write(b"exit\n")
        read_until(ser, b">>> ")
        assert board.state()["board"] == "halted"
        ser.write(b"\x04")
        started(ser, 5)


def test_physical_actions_with_timing(rt: Path, fw: Path) -> None:
    with SimBoard(SimSettings(name="hands", firmware_dir=fw, seed=3)) as board:
        w = board.world
        pid = w.holes[0].pair
        down = w.holes[0].down
        assert pid is not None and down is not None
        t0 = time.monotonic()
        answer = board.flip(1)
        assert time.monotonic() - t0 >= 0.6  # a hand takes its time
        assert "turned over" in answer and w.holes[0].down == w.pairs[pid].other(down)
        board.pull(2)
        board.move(1, 2)
        assert w.holes[0].pair is None and w.holes[1].pair == pid
        assert board.tap("04a1b2c3d4e5f6").startswith("card 04A1B2C3D4E5F6 in the field")
        board.tap("DEADBEEF")
        assert board.state()["cards"] == ["04A1B2C3D4E5F6", "DEADBEEF"]
        with pytest.raises(SimError, match="already lies"):
            board.tap("DEADBEEF")
        assert board.remove() == "removed 04A1B2C3D4E5F6, DEADBEEF"
        with pytest.raises(SimError, match="no card"):
            board.remove()
        assert board.button("click") == "button clicked"
        assert board.rfid("dead") == "RFID reader dead"
        assert board.state()["rfid"] == "dead"
        assert "magnet strength 0" in board.magnet(2, [i + 1 for i, s in enumerate(
            w.pairs[pid].end(w.holes[1].down or "").magnets) if s != "-"][0], 0)
        assert board.command("pull 11").startswith("error there is no hole 11")


def test_real_firmware_answers_hello_and_reports_holes(rt: Path) -> None:
    with SimBoard(SimSettings(name="real", seed=4)) as board:
        ser = open_port(board)
        ser.write(protocol.encode_command(1, "SNAP"))
        line = read_frame(ser, b"SNAP")
        codes = [board.world.expected_code(h) for h in range(10)]
        assert b"holes=" + ",".join(str(c) for c in codes).encode() in line
        board.pull(3)
        read_until(ser, b"HOLE 3 0*")
        ser.write(b"\x03")
        assert read_until(ser, b">>> ").count(b"KeyboardInterrupt") == 1


def test_real_firmware_runs_under_micropython(rt: Path) -> None:
    with SimBoard(SimSettings(name="mp", backend="micropython", seed=6)) as board:
        ser = open_port(board)
        ser.write(protocol.encode_command(1, "HELLO"))
        assert b" proto=2 " in read_frame(ser, b"HELLO")
        board.tap("04A1B2C3D4E5F6")
        read_until(ser, b"CARD + 04A1B2C3D4E5F6*")
        ser.write(b"\x03")
        out = read_until(ser, b">>> ")
        assert b'  File "main.py", line ' in out and b'  File "app.py", line ' in out
        assert b"standins" not in out and b"runtime.py" not in out
        assert out.endswith(b"KeyboardInterrupt: \r\n" + out[out.index(b"MicroPython v1.29.0"):])
        ser.write(b"import machine; machine.reset_cause()\r")
        assert read_until(ser, b">>> ").endswith(b"\r\n1\r\n>>> ")


def test_a_fresh_flash_is_calibrated_for_its_board(rt: Path, fw: Path, tmp_path: Path) -> None:
    flash = tmp_path / "flash"
    for seed in (1, 2):
        with SimBoard(SimSettings(name="cal", firmware_dir=fw, seed=seed, flash_dir=flash)) as board:
            assert json.loads((flash / "calib.json").read_text()) == board.world.offset
            assert (flash / "pinmap.json").read_bytes() == board.pinmap_path.read_bytes()
    with SimBoard(SimSettings(name="cal", firmware_dir=fw, seed=3, flash_dir=flash, calibrated=False)):
        assert not (flash / "calib.json").exists()


def _start_sim(rt: Path, *args: str) -> subprocess.Popen[str]:
    """`upref sim --name keep ...` in the background; returns once it is up."""
    env = {**os.environ, "UPREF_RUNTIME_DIR": str(rt)}
    p = subprocess.Popen([sys.executable, "-m", "upref", "sim", "--name", "keep", *args], env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert p.stdout is not None
    first = p.stdout.readline()
    assert first.startswith("upref simulated board 'keep'"), first + p.communicate()[0]
    p.first_line = first  # type: ignore[attr-defined]
    return p


def _stop_sim(p: subprocess.Popen[str]) -> None:
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=30)


def _holes(rt: Path) -> list[tuple[str | None, str | None]]:
    with SimControl.find("keep") as ctl:
        return [(h["pair"], h.get("down")) for h in ctl.state()["holes"]]


def test_a_restarted_simulator_keeps_its_table_unless_told_to_start_afresh(rt: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(rt))
    p = _start_sim(rt, "--seed", "4")
    try:
        with SimControl.find("keep") as ctl:
            ctl.pull(3)
            ctl.move(5, 3)
            ctl.flip(8)
            ctl.tap("04A1B2C3D4E5F6")
            pair = ctl.state()["holes"][0]
            ctl.magnet(1, next(i for i, m in enumerate(pair["magnets"]) if m != "-") + 1, 0.0)
            before = ctl.state()
    finally:
        _stop_sim(p)
    assert before["holes"][4]["pair"] is None  # moved away
    # restarted with no --seed and no --empty: the pairs are where the hands left them
    p = _start_sim(rt)
    try:
        assert "the table as the last run left it" in p.first_line  # type: ignore[attr-defined]
        with SimControl.find("keep") as ctl:
            after = ctl.state()
    finally:
        _stop_sim(p)
    assert after["seed"] == 4
    assert [(h["pair"], h.get("down"), h.get("strength")) for h in after["holes"]] == [
        (h["pair"], h.get("down"), h.get("strength")) for h in before["holes"]]
    assert after["cards"] == ["04A1B2C3D4E5F6"]
    # --seed: a fresh world of that seed; --empty: every pair out
    p = _start_sim(rt, "--seed", "4")
    try:
        fresh = _holes(rt)
    finally:
        _stop_sim(p)
    assert fresh == [(h.pair, h.down) for h in physics.World(seed=4).holes] != [
        (h["pair"], h.get("down")) for h in before["holes"]]
    p = _start_sim(rt, "--empty")
    try:
        assert all(pair is None for pair, _ in _holes(rt))
    finally:
        _stop_sim(p)
