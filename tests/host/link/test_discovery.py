"""Finding the board: USB VID:PID, else a live simulator's registry file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from upref.link import discovery
from upref.link.connection import LinkError


@dataclass
class Port:
    """The fields of pyserial's ListPortInfo that discovery reads."""

    device: str
    vid: int | None = None
    pid: int | None = None
    description: str = "n/a"
    product: str | None = None


@pytest.fixture
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "run"
    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(d))
    d.mkdir()
    return d


def ports(monkeypatch: pytest.MonkeyPatch, *found: Port) -> None:
    monkeypatch.setattr(discovery.list_ports, "comports", lambda: list(found))


def register(runtime: Path, name: str, port: str, pid: int) -> Path:
    f = runtime / f"sim-{name}.json"
    f.write_text(
        json.dumps({"pid": pid, "port": port, "control": "x", "backend": "cpython", "name": name}),
        encoding="utf-8",
    )
    return f


@pytest.fixture
def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.mark.parametrize(
    ("vid", "pid"), [(0x10C4, 0xEA60), (0x1A86, 0x7523), (0x1A86, 0x55D4), (0x303A, 0x1001)]
)
def test_usb_bridges_are_found(
    monkeypatch: pytest.MonkeyPatch, runtime: Path, vid: int, pid: int
) -> None:
    ports(
        monkeypatch,
        Port("/dev/ttyS0"),
        Port("/dev/ttyACM3", 0x2341, 0x0043, "Arduino"),
        Port("/dev/ttyUSB0", vid, pid, "USB bridge"),
    )
    assert discovery.find_board() == "/dev/ttyUSB0"


def test_usb_board_wins_over_a_simulator(
    monkeypatch: pytest.MonkeyPatch, runtime: Path, tmp_path: Path
) -> None:
    pty = tmp_path / "pty"
    pty.touch()
    register(runtime, "a", str(pty), os.getpid())
    ports(monkeypatch, Port("/dev/ttyUSB0", 0x10C4, 0xEA60))
    assert discovery.find_board() == "/dev/ttyUSB0"


def test_several_boards_need_a_choice(monkeypatch: pytest.MonkeyPatch, runtime: Path) -> None:
    ports(monkeypatch, Port("/dev/ttyUSB0", 0x10C4, 0xEA60), Port("/dev/ttyUSB1", 0x1A86, 0x7523))
    with pytest.raises(LinkError, match="(?s)several ESP32 boards.*--port") as info:
        discovery.find_board()
    assert "/dev/ttyUSB1" in str(info.value)


def test_live_simulator_is_found(
    monkeypatch: pytest.MonkeyPatch, runtime: Path, tmp_path: Path, dead_pid: int
) -> None:
    ports(monkeypatch)
    live = tmp_path / "pts-live"
    live.touch()
    register(runtime, "dead", str(tmp_path / "pts-dead"), dead_pid)
    register(runtime, "gone", str(tmp_path / "pts-gone"), os.getpid())  # port path missing
    entry = register(runtime, "live", str(live), os.getpid())
    (runtime / "sim-garbage.json").write_text("{not json", encoding="utf-8")
    assert discovery.find_board() == str(live)
    entry.unlink()  # without the live one, the others are listed with why they do not count
    with pytest.raises(LinkError) as info:
        discovery.find_board()
    seen = [line for line in str(info.value).splitlines() if "registry sim-" in line]
    lines = {line.split()[4]: line for line in seen}
    assert sorted(lines) == ["dead", "gone"]
    assert lines["dead"].endswith(f"(process {dead_pid} is gone)")
    assert lines["gone"].endswith("(its port is gone)")


def test_newest_simulator_first(
    monkeypatch: pytest.MonkeyPatch, runtime: Path, tmp_path: Path
) -> None:
    ports(monkeypatch)
    old, new = tmp_path / "old", tmp_path / "new"
    old.touch()
    new.touch()
    f_old = register(runtime, "old", str(old), os.getpid())
    register(runtime, "new", str(new), os.getpid())
    os.utime(f_old, (1, 1))
    assert discovery.find_board() == str(new)


def test_nothing_found_says_what_was_seen_and_what_to_do(
    monkeypatch: pytest.MonkeyPatch, runtime: Path, dead_pid: int
) -> None:
    ports(monkeypatch, Port("/dev/ttyACM3", 0x2341, 0x0043, "Arduino Uno"), Port("/dev/ttyS0"))
    register(runtime, "old", "/nonexistent/pts/9", dead_pid)
    with pytest.raises(LinkError) as info:
        discovery.find_board()
    text = str(info.value)
    assert "/dev/ttyACM3  [2341:0043]  Arduino Uno" in text
    assert "/dev/ttyS0" in text and "/nonexistent/pts/9" in text
    assert "--port" in text and "upref sim" in text and "plug" in text


def test_no_ports_at_all(monkeypatch: pytest.MonkeyPatch, runtime: Path) -> None:
    ports(monkeypatch)
    with pytest.raises(LinkError, match="no serial ports at all"):
        discovery.find_board()


def test_link_without_url_uses_discovery(monkeypatch: pytest.MonkeyPatch, runtime: Path) -> None:
    from upref.link.connection import Link, LinkSettings

    ports(monkeypatch, Port("/dev/ttyUSB5", 0x303A, 0x1001))
    asked: list[str] = []

    def factory(url: str, **kwargs: object) -> Any:
        asked.append(url)
        raise OSError(2, "No such file or directory")

    with pytest.raises(LinkError, match="cannot open /dev/ttyUSB5"):
        Link(None, LinkSettings(serial_factory=factory))
    assert asked == ["/dev/ttyUSB5"]
