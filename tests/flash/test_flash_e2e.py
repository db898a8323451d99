"""`make flash` and `make deploy` end to end against the simulated ESP32, with the real esptool
(ROM bootloader and flasher stub: rom.py) and the real mpremote (raw REPL, raw-paste: rawrepl.py)
over the simulator's pty paced at 115200 baud."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import ROOT, make, python_m
from images import ESP32_S3, app_byte_offset, merged_image
from upref.commands import deploy
from upref.link.connection import Link, LinkSettings
from upref.link.protocol import PROTO_VERSION
from upref.sim import bytecode
from upref.sim.board import SimBoard, SimSettings

FW_VERSION = deploy.expected_fw_version()
pytestmark = pytest.mark.board  # make flash and make deploy against simulated boards


@pytest.fixture(scope="module")
def where(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("flash")
    mp = pytest.MonkeyPatch()
    mp.setenv("UPREF_RUNTIME_DIR", str(d / "run"))
    mp.setenv("UPREF_CACHE_DIR", str(d / "cache"))
    mp.setenv("UPREF_MICROPYTHON_PAGE", "http://127.0.0.1:9/")  # offline: nothing is downloaded here
    yield d
    mp.undo()


@pytest.fixture(scope="module")
def image(where: Path) -> tuple[Path, bytes]:
    data = merged_image()
    path = where / "micropython-test.bin"
    path.write_bytes(data)
    return path, data


@pytest.fixture(scope="module")
def flashed(where: Path, image: tuple[Path, bytes]) -> Iterator[tuple[SimBoard, int, str]]:
    """A simulated board after `make flash PORT=<it> FIRMWARE=<test image>`."""
    board = SimBoard(SimSettings(name="flashme", flash_dir=where / "flash", seed=5))
    board.start()
    board.wait_for(lambda st: st["booted"], timeout=10)
    rc, out, _ = make("flash", f"PORT={board.port}", f"FIRMWARE={image[0]}")
    yield board, rc, out
    board.stop()


def copied(output: str) -> list[str]:
    return re.findall(r"^  copied (\S+) \(", output, re.M)


def test_make_flash_writes_the_image_deploys_every_module_and_the_board_answers(
        flashed: tuple[SimBoard, int, str], image: tuple[Path, bytes]) -> None:
    board, rc, out = flashed
    assert rc == 0, out
    # esptool: erase, then the image byte-exact at 0x1000, with its progress shown
    assert "$ esptool --chip esp32 --port" in out and "erase-flash" in out and "write-flash -z 0x1000" in out
    assert "Writing at 0x" in out and "Hash of data verified." in out
    spi = board.spi.path.read_bytes()
    assert spi[0x1000 : 0x1000 + len(image[1])] == image[1]
    assert spi[0x1000 + len(image[1]) :] == b"\xff" * (len(spi) - 0x1000 - len(image[1]))  # erased
    # the deploy: every module compiled (for the MicroPython the simulated board runs) and copied,
    # boot.py and main.py as source
    items = deploy.build(march=bytecode.host_march())  # what a simulated board runs
    expected = {it.board_path for it in items if it.board_path != "/pinmap.json"}
    assert {"/main.py", "/boot.py", "/app.mpy", "/lib/wire.mpy"} <= expected
    assert expected <= set(copied(out)), out
    flash_dir = board.flash_dir
    for it in items:
        assert hashlib.sha256((flash_dir / it.board_path.lstrip("/")).read_bytes()).hexdigest() == it.sha256
    # the board runs the deployed files (bytecode: under the MicroPython unix port) and answers
    st = board.wait_for(lambda s: s["face"] == "firmware", timeout=10)
    assert st["firmware"] == "flash" and st["runner"] == "micropython"
    assert f"the board answers: firmware {FW_VERSION}, protocol {PROTO_VERSION}" in out
    link = Link(board.port, LinkSettings(connect_timeout=10))
    try:
        assert link.hello is not None
        assert (link.hello.fw, link.hello.proto) == (FW_VERSION, PROTO_VERSION)
    finally:
        link.close()


def test_a_second_deploy_copies_nothing_and_keeps_the_boards_own_files(flashed: tuple[SimBoard, int, str]) -> None:
    board, rc, _ = flashed
    assert rc == 0
    calib = board.flash_dir / "calib.json"
    before = calib.read_bytes(), calib.stat().st_mtime_ns
    (board.flash_dir / "notes.txt").write_text("mine\n")
    rc, out, secs = make("deploy", f"PORT={board.port}")
    assert rc == 0, out
    assert "up to date: all" in out and "nothing copied" in out and not copied(out)
    assert (calib.read_bytes(), calib.stat().st_mtime_ns) == before
    assert (board.flash_dir / "notes.txt").read_text() == "mine\n"
    assert "kept on the board, untouched: .sim-seed, calib.json, notes.txt" in out
    assert f"the board answers: firmware {FW_VERSION}" in out


def test_a_changed_module_is_the_only_one_copied_and_runs(flashed: tuple[SimBoard, int, str], tmp_path: Path) -> None:
    board, rc, _ = flashed
    assert rc == 0
    fw = tmp_path / "firmware"
    shutil.copytree(ROOT / "firmware", fw)
    app = fw / "app.py"
    app.write_text(re.sub(r'^FW_VERSION = "[^"]*"', 'FW_VERSION = "9.9.9-test"', app.read_text(), flags=re.M))
    calib = (board.flash_dir / "calib.json").read_bytes()
    rc, out, _ = python_m("upref.commands.deploy", "--port", board.port, "--firmware-dir", str(fw))
    assert rc == 0, out
    assert copied(out) == ["/app.mpy"]
    assert "the board answers: firmware 9.9.9-test" in out  # what runs is what was deployed
    assert (board.flash_dir / "calib.json").read_bytes() == calib


def test_the_deployed_firmware_runs_native_code_and_finds_its_modules_in_lib_first(
        flashed: tuple[SimBoard, int, str]) -> None:
    board, rc, _ = flashed
    assert rc == 0
    # Ctrl-C into the raw REPL without a soft reset: what main.py left is still there
    script = ("import sys, holes\n"
              "print('PATH', sys.path)\n"
              "f = open(holes.__file__, 'rb')\n"
              "print('LOADED', holes.__file__, f.read(3)[2] >> 2)\n"
              "f.close()\n")
    res = deploy.mpremote(board.port, ["resume", "exec", script], 30)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    assert "PATH ['/lib', '', '.frozen']" in out, out  # the modules loaded on demand: found at once
    loaded = re.search(r"LOADED /lib/holes\.mpy (\d+)", out)
    assert loaded, out
    arch = bytecode.host_march()  # the native build for the MicroPython it runs on
    assert bytecode.arch_name(int(loaded.group(1))) == ("" if arch == bytecode.BYTECODE else arch), out


def test_the_calibration_read_before_the_erase_goes_back_only_where_the_board_has_none(
        flashed: tuple[SimBoard, int, str]) -> None:
    board, rc, out = flashed
    assert rc == 0 and "kept the board's calibration (" in out  # read before esptool erased it
    calib = board.flash_dir / "calib.json"
    saved = calib.read_bytes()
    calib.unlink()
    said: list[str] = []
    r = deploy.deploy(board.port, out=said.append, keep={"/calib.json": saved})
    assert r.copied[0] == "/calib.json" and calib.read_bytes() == saved
    said.clear()
    r = deploy.deploy(board.port, out=said.append, keep={"/calib.json": b"[1, 2, 3]"})
    assert "/calib.json" not in r.copied and calib.read_bytes() == saved  # never over the board's own
    assert "/calib.json: the board has one; it stays as it is" in said


@pytest.fixture
def fresh(where: Path, request: pytest.FixtureRequest) -> Iterator[SimBoard]:
    name = "fresh-" + re.sub(r"[^a-z0-9]+", "-", request.node.name.lower())[-30:].strip("-")
    board = SimBoard(SimSettings(name=name, flash_dir=where / name))
    board.start()
    board.wait_for(lambda st: st["booted"], timeout=10)
    yield board
    board.stop()


def untouched(board: SimBoard, files_before: list[str]) -> None:
    st = board.state()
    assert st["rom"]["commands"] == 0 and st["face"] == "firmware" and st["resets"] == 0
    assert not board.spi.path.exists()
    assert sorted(os.listdir(board.flash_dir)) == files_before


@pytest.mark.parametrize("damage", ["app-byte", "other-chip", "pinned-sha"])
def test_a_bad_image_is_refused_before_the_board_is_touched(fresh: SimBoard, image_dir: Path, damage: str) -> None:
    before = sorted(os.listdir(fresh.flash_dir))
    if damage == "other-chip":
        data, extra, why = merged_image(chip_id=ESP32_S3), [], "built for ESP32-S3 (chip id 9), not the classic ESP32"
    elif damage == "app-byte":
        buf = bytearray(merged_image())
        buf[app_byte_offset()] ^= 0x40
        data, extra, why = bytes(buf), [], "application 'factory' at flash 0x10000 is damaged"
    else:
        data, extra, why = merged_image(), ["MICROPYTHON_SHA256=" + "ab" * 32], "not the pinned MICROPYTHON_SHA256"
    img = image_dir / f"{damage}.bin"
    img.write_bytes(data)
    rc, out, _ = make("flash", f"PORT={fresh.port}", f"FIRMWARE={img}", *extra)
    assert rc != 0 and why in out, out
    assert "esptool" not in out.split("flash failed:")[0].split("\n", 1)[1]  # never ran
    untouched(fresh, before)


def test_a_cached_image_whose_sha256_changed_since_it_was_recorded_is_refused(fresh: SimBoard, where: Path) -> None:
    before = sorted(os.listdir(fresh.flash_dir))
    cache = where / "cache"
    cache.mkdir(exist_ok=True)
    img = cache / "ESP32_GENERIC-20260829-v1.29.0.bin"
    img.write_bytes(merged_image())
    (cache / (img.name + ".sha256")).write_text(f"{'cd' * 32}  {img.name}\n")
    try:
        rc, out, _ = make("flash", f"PORT={fresh.port}")
    finally:
        img.unlink()
    assert rc != 0 and "the file has changed since" in out and "Refusing to flash it" in out, out
    untouched(fresh, before)


@pytest.fixture
def silent_port() -> Iterator[str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    yield os.ttyname(slave)
    os.close(slave)
    os.close(master)


def test_a_silent_port_times_out_with_advice(silent_port: str) -> None:
    rc, out, secs = make("deploy", f"PORT={silent_port}", timeout=60)
    assert rc != 0 and secs < 20, (secs, out)
    assert "sent nothing back to Ctrl-C" in out and "EN (RST)" in out and "no other program holds the port" in out


def test_esptool_on_a_board_not_in_download_mode_explains_boot_and_en(silent_port: str, image: tuple[Path, bytes]) -> None:
    rc, out, secs = make("flash", f"PORT={silent_port}", f"FIRMWARE={image[0]}", timeout=120)
    assert rc != 0 and secs < 60, (secs, out)
    assert "No serial data received" in out  # esptool's own words, shown
    assert "Hold the BOOT button, press and release EN (RST), release BOOT" in out


def test_the_esp32_build_holds_xtensa_code_exactly_where_the_firmware_asks_for_native_code(tmp_path: Path) -> None:
    items = deploy.build(out_dir=tmp_path / "built")
    mpys = [it for it in items if it.compiled]
    assert len(mpys) >= 8
    native = {it.board_path for it in mpys if bytecode.strip_native(it.source.read_bytes()) != it.source.read_bytes()}
    assert {"/lib/wire.mpy", "/lib/holes.mpy", "/lib/hallmux.mpy"} <= native
    for it in mpys:
        assert it.data[:2] == b"M\x06", f"{it.board_path}: not an .mpy of version 6"
        want = "xtensawin" if it.board_path in native else ""
        assert bytecode.mpy_arch(it.data) == want, f"{it.board_path}: code for {bytecode.mpy_arch(it.data)!r}"


def test_every_mpy_produced_for_this_machine_is_what_the_unix_port_loads(tmp_path: Path) -> None:
    out = tmp_path / "built"
    items = deploy.build(out_dir=out, march=bytecode.host_march())
    mpys = [it for it in items if it.compiled]
    assert len(mpys) >= 8
    for it in mpys:
        assert it.data[:2] == b"M\x06", f"{it.board_path}: not an .mpy of version 6"
        assert (out / it.board_path.lstrip("/")).read_bytes() == it.data
    names = [it.board_path.rsplit("/", 1)[1][:-4] for it in mpys]
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import sys\n"
        f"sys.path[:0] = [{str(out)!r}, {str(out / 'lib')!r}, {str(ROOT / 'host/upref/sim/standins')!r}, "
        f"{str(ROOT / 'host/upref/chip')!r}]\n"
        "import esp32_micropython\nsys.modules['micropython'] = esp32_micropython\n"
        f"for n in {names!r}:\n"
        "    m = __import__(n)\n"
        "    assert m.__file__.endswith('.mpy'), m.__file__\n"
        "print('loaded', len(sys.modules))\n"
    )
    res = subprocess.run([deploy.tool("micropython"), str(probe)], capture_output=True, text=True, timeout=60,
                         cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert res.returncode == 0 and "loaded" in res.stdout, res.stdout + res.stderr
