"""The deploy's decisions without a board: the layout on the board, name clashes, shadowing
files, and the retries around a board that will not enter the raw REPL (mpremote stubbed)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from upref.commands import deploy
from upref.sim import bytecode


def fw(tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    d = tmp_path / "fw"
    for rel, text in {"main.py": "import app\n", "boot.py": "x = 1\n", "app.py": 'FW_VERSION = "1.2.3"\n',
                      "lib/wire.py": "A = 1\n", "drivers/dev/dev.py": "B = 2\n",
                      "drivers/dev/manifest.py": "module('dev.py')\n", **(extra or {})}.items():
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(text)
    return d


def test_the_layout_on_the_board(tmp_path: Path) -> None:
    pinmap = tmp_path / "pinmap.json"
    pinmap.write_text("{}")
    items = deploy.build(fw(tmp_path), pinmap)
    assert [it.board_path for it in items] == [
        "/app.mpy", "/lib/dev.mpy", "/lib/wire.mpy", "/pinmap.json", "/boot.py", "/main.py"]
    by = {it.board_path: it for it in items}
    assert by["/main.py"].data == b"import app\n" and by["/pinmap.json"].data == b"{}"
    assert by["/lib/wire.mpy"].data[:2] == b"M\x06"
    assert deploy.expected_fw_version(tmp_path / "fw") == "1.2.3"


def test_two_modules_with_one_name_are_refused(tmp_path: Path) -> None:
    with pytest.raises(deploy.DeployError, match="two firmware modules are called 'wire'"):
        deploy.sources(fw(tmp_path, {"drivers/dev/wire.py": "C = 3\n"}))


def test_a_syntax_error_names_the_file(tmp_path: Path) -> None:
    pinmap = tmp_path / "pinmap.json"
    pinmap.write_text("{}")
    with pytest.raises(deploy.DeployError, match=r"mpy-cross cannot compile .*lib/wire\.py"):
        deploy.build(fw(tmp_path, {"lib/wire.py": "match x:\n    case 1: pass\n"}), pinmap)


def test_files_that_would_shadow_a_deployed_module_are_named(tmp_path: Path) -> None:
    items = [deploy.Item("/lib/wire.mpy", Path("w"), b"M"), deploy.Item("/app.mpy", Path("a"), b"M")]
    files = deploy.BoardFiles({}, ["app.py", "wire.py", "lib"], ["wire.mpy"])
    assert deploy._shadowed(items, files) == ["/wire.py", "/app.py"]


def test_a_board_that_will_not_enter_the_raw_repl_is_interrupted_retried_then_given_advice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def fake_mpremote(port: str, args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
        calls.append("mpremote")
        return subprocess.CompletedProcess(args, 1, "", "mpremote.transport.TransportError: could not enter raw repl\n")

    def fake_probe(port: str, seconds: float = 1.5) -> bytes:
        calls.append("ctrl-c")
        return b">>> "

    monkeypatch.setattr(deploy, "mpremote", fake_mpremote)
    monkeypatch.setattr(deploy, "probe", fake_probe)
    said: list[str] = []
    with pytest.raises(deploy.DeployError) as e:
        deploy.ask_board("/dev/ttyX", ["/main.py"], said.append)
    assert calls == ["mpremote", "ctrl-c", "mpremote", "ctrl-c", "mpremote"]
    assert "will not enter MicroPython's raw REPL" in str(e.value) and "EN (RST)" in str(e.value)
    assert len(said) == 2 and "trying again" in said[0]


def test_the_hash_listing_is_parsed() -> None:
    text = ("noise\nUPREF-H [['/main.py', 'ab'], ['/x.mpy', None]]\nUPREF-ROOT ['main.py', 'lib']\n"
            "UPREF-LIB None\n")
    files = deploy._parse_listing(text)
    assert files is not None
    assert files.hashes == {"/main.py": "ab", "/x.mpy": None} and files.root == ["main.py", "lib"] and files.lib is None
    assert files.mpy == -1  # a board that did not say


def test_the_build_follows_the_architecture_the_board_reports() -> None:
    files = deploy._parse_listing("UPREF-H []\nUPREF-MPY 11014\n")  # the ESP32: .mpy 6.3, arch 10
    assert files is not None and deploy.board_march(files.mpy) == "xtensawin"
    assert deploy.board_march(6 | (3 | 2 << 2) << 8) == "x64"  # the unix port on a PC
    assert deploy.board_march(6 | 3 << 8) == bytecode.BYTECODE  # a MicroPython with no native emitter
    assert deploy.board_march(-1) == bytecode.host_march()  # the simulated board's CPython side
