"""`make bench`: measure, print, assert nothing.

Figures (goals from the issues in brackets):
- the modelled chip at both ends of the range of a bytecode operation's time (bench_chip, every
  operation of the firmware counted), each figure on a line that begins `chip (slow end):` or
  `chip (fast end):` with its sample count: scan time per period (mean, worst), hole seated ->
  host event p95, card arrival -> host event p95, every game's action -> verdict p95 over its
  demo [at the slow end: seated <= 25 ms, card <= 40 ms, action -> verdict <= 60 ms]
- the firmware's time per scan on the ESP32, as the simulator's cost model puts it (ADC reads,
  SPI transactions, the MFRC522's timer and the air, the UART's FIFO; docs/simulator.md): mean
  and worst per scan period and the worst lateness of a scan, with no card and with a card on
  the reader, and during a RAW dump, at 160 MHz (ESP32_GENERIC's clock at reset) and at 240 MHz
  (what boot.py sets) [no scan later than one 10 ms period]
- scans per second of the firmware loop under the MicroPython unix port [>= 100]
- heap in use after boot under the MicroPython unix port, and its peak during a calibration and
  a RAW dump (the sensor self-test's); the chip's GC heap after boot, estimated part by part
  (each module kept loaded, the objects made at boot): its byte data (bytecode, constants and
  native preludes read from the chip's .mpy, names with their pool entries, buffers) at its
  size, its words at half the unix port's bytes [goal <= 40 KB]; and the executable memory the
  chip's native code takes, outside that heap [limit <= 12 KB] (docs/build.md, "Native code")
- bytes per frame for each frame type
- `make deploy` to the simulated board at 115200 baud with the real mpremote: time and bytes
  for the whole firmware onto a fresh board, then for a deploy that finds nothing changed
- for every game in the registry: random playouts per second of its engine and its own heavy
  computation (`Game.figures`)
- the scoreboard page (`bench_page`): action -> page updated in a browser, p50/p95, and how much
  after the terminal [p95 <= 100 ms over the terminal]; with 50 viewers at once: the referee's
  latency against the run without them, the server's CPU
- `upref stats` over a synthetic games database of 10 000 games (`bench_stats`): wall clock and
  CPU of the command as typed, the table, --json and --csv [< 1 s]
- the spoken referee (`bench_speech`): verdict -> first audio sample p50/p95 and CPU per spoken
  second for each voice (espeak-ng; piper where `upref[voice]` is installed), and action ->
  verdict on the scoreboard over a demo with --speak against the same without [the same]
- the scoreboard's languages (`bench_lang`): each game's action -> verdict p95 with the
  terminal's scoreboard drawn in English and in German, taken in turns in one run [the same]

Machines here are shared and noisy: read the figures as a whole, compare ratios within one run.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from upref import paths
from upref.commands import bench_chip, bench_lang, bench_page, bench_speech, bench_stats
from upref.commands.bench_chip import CARDS, CHANGES, bench_scan_timing
from upref.commands.bench_mpy import MpyParts, mpy_parts
from upref.game import Game
from upref.link.protocol import Heartbeat
from upref.registry import games


def bench_micropython_scan_rate(seconds: float) -> list[int]:
    """Scans per second reported in the heartbeats of the firmware under the unix port."""
    from upref.link.connection import Link
    from upref.sim.board import SimBoard, SimSettings

    with tempfile.TemporaryDirectory(prefix="upref-bench-") as tmp:
        os.environ["UPREF_RUNTIME_DIR"] = str(Path(tmp) / "run")
        with SimBoard(SimSettings(backend="micropython", seed=1, name="bench-mp", flash_dir=Path(tmp) / "flash")) as board:
            link = Link(board.port)
            sps: list[int] = []
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                try:
                    item = link.events.get(timeout=0.2)
                except queue.Empty:
                    continue
                if isinstance(item, Heartbeat) and item.uptime_ms > 1500:
                    sps.append(item.sps)
            link.close()
    return sps


SCAN_CLOCKS_MHZ = (160, 240)  # ESP32_GENERIC's clock at reset, and what boot.py sets
SCAN_PERIOD_MS = 10  # firmware/app.py SCAN_MS
MPY_IMPORT_MS = 5.0  # standins/chip.py MPY_IMPORT_US at 240 MHz
HEAP_GOAL_KB = 40  # the chip's GC heap after boot, native code apart (issue 31)


HEAP_PROBE = r"""
import gc, sys, os, time
root, mpy, flash, order = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
sys.path.insert(0, root + "/host/upref/sim/standins")
sys.path.insert(0, root + "/host/upref/chip")  # the chip's ADC curve, which the stand-ins read
import esp32_micropython
sys.modules["micropython"] = esp32_micropython
import machine, neopixel, sim_world
sim_world.world._reader()  # the simulator's MFRC522 model loads on first use: not firmware
# the board's flash, as make deploy lays it out, mounted as "/" (the simulator does the same): its
# files in /, the libraries in /lib, searched first (main.py); so each module's __file__, a name
# the chip interns, is the chip's ("/lib/ring.mpy", "app.mpy")
import vfs
vfs.umount("/")
vfs.mount(vfs.VfsPosix(flash), "/")
os.chdir("/")
sys.path.insert(0, "")
sys.path.insert(0, "/lib")


class Sink:  # the USB port's output, thrown away
    def write(self, buf, off, n):
        pass


def used():
    gc.collect()
    return gc.mem_alloc()


def qstr_chars(mark):
    # the characters of the names interned since the start: qstr_info() prints them
    print("QSTR " + mark)
    esp32_micropython.qstr_info()


before = used()
qstr_chars("before")
imported = []
for m in order.split(","):  # the modules the firmware keeps, each after those it imports
    if not m:
        continue
    t = used()
    __import__(m)
    imported.append((m, used() - t))
    qstr_chars(m)
import board, app
a = app.App(board.Board())
a.out._port = Sink()
a.boot()
a.step(time.ticks_ms())  # one pass of the loop: what was loaded for the boot is let go
after = used() - before
qstr_chars("after")
code = sorted(k for k in sys.modules if k not in ("machine", "neopixel", "sim_world", "esp32_micropython", "micropython", "mfrc522_model", "esp32_adc", "chip"))


def peak_of(command, until):
    top = 0
    a.command(1, command, [])
    t = time.ticks_ms()
    for i in range(100):
        top = max(top, used())
        if until():
            break
        a.step(time.ticks_add(t, 10 * (i + 1)))
        time.sleep_ms(10)
    a.step(time.ticks_ms())
    return top - before


def byte_data(roots, seen):
    # bytes the firmware's objects hold in buffers and arrays, here and on the 32-bit chip:
    # the same but for an array of 8-byte items, which is an array('l') (the firmware makes
    # no 'q' or 'd'): 4 bytes an item there. A str is left out: the names are counted as
    # interned (qstr_info), string constants with the bytecode they came with. So is a bytes
    # object reached from a module's globals: a constant of its .mpy (a tuple of them too),
    # counted with its constants already. A module is looked into only when it is one of the
    # roots, and what an earlier part counted (seen) is not counted again.
    n, c, todo = 0, 0, [(r, False) for r in roots]
    while todo:
        o, const = todo.pop()
        if id(o) in seen:
            continue
        t = type(o)
        if t is bytes and const:
            continue  # left for an instance that holds it, if any, to count
        seen.add(id(o))
        if t in (bytes, bytearray):
            n += len(o)
            c += len(o)
        elif t.__name__ == "array":
            b = len(bytes(o))
            n += b
            c += b // 2 if len(o) and b == 8 * len(o) else b
        elif t in (list, tuple):
            todo.extend((x, const) for x in o)
        elif t is dict:
            todo.extend((x, const) for x in o.values())
        elif t is type(sys):
            if o in roots:
                todo.extend((x, True) for x in o.__dict__.values())  # a module's globals
        elif not isinstance(o, type) and hasattr(o, "__dict__"):
            todo.extend((x, False) for x in o.__dict__.values())  # an instance's attributes
    return "%d %d" % (n, c)


cal = peak_of("CAL", lambda: a.cal is None)
raw = peak_of("RAW", lambda: a.raw is None)  # its frames go out a hole a pass
rest = used() - before
seen = set()
for m, grew in imported:
    sys.stderr.write("PART %s %d %s\n" % (m, grew, byte_data([sys.modules[m]], seen)))
sys.stderr.write("HEAP %d %d %d %d %s %s\n" % (after, cal, raw, rest, byte_data([a], seen), ",".join(code)))
"""

ESP32_EXEC_KB = 128
"""Executable RAM of the ESP32 for the heap_caps allocator (ESP-IDF components/heap/port/esp32/
memory_layout.c): the IRAM at 0x40080000-0x4009FFFF, less the firmware's own IRAM code."""
EXEC_GOAL_KB = 12
"""Our limit for the native code loaded, in that IRAM: what an ESP32_GENERIC build leaves free
there is its 128 KB less its static IRAM (`idf.py size`, not known here: docs/build.md,
"Native code", says how a board shows it); past it, heap_caps_malloc(MALLOC_CAP_EXEC) takes
the internal RAM that MicroPython's heap grows into."""


QSTR_ENTRY = {"unix": 11, "chip": 7}
"""Bytes of a qstr pool's entry: its string's address (8 bytes here, 4 on the chip), a 2-byte
hash and a 1-byte length (py/qstr.c; both ports build with MICROPY_QSTR_BYTES_IN_HASH 2)."""
QSTR_POOL_FIRST = 20
"""Entries of the first pool the chip makes for the names interned at run time: twice the
`alloc` of the pool before it (py/qstr.c qstr_add), which the frozen modules' pool sets to at
most 10 (tools/mpy-tool.py) and the ROM's to MICROPY_ALLOC_QSTR_ENTRIES_INIT, 10; each pool
after it has twice the entries of the one before."""
QSTR_POOL_HEAD = 24  # the chip's qstr_pool_t before its entries: six 4-byte words (py/qstr.h)
CHIP_BLOCK = 16  # the chip's GC block: four 4-byte words


def chip_name_pools(names: int) -> int:
    """Bytes of the chip's GC heap the pools for `names` interned names take: 20 entries, 40,
    80 and so on, each pool made whole the moment the one before is full (so the last one is
    mostly room), each in 16-byte blocks."""
    total, alloc, room = 0, QSTR_POOL_FIRST, 0
    while room < names:
        size = QSTR_POOL_HEAD + alloc * QSTR_ENTRY["chip"]
        total += -(-size // CHIP_BLOCK) * CHIP_BLOCK
        room += alloc
        alloc *= 2
    return total


@dataclass
class HeapPart:
    """What one part of the firmware holds after boot: a module kept loaded (its import) or
    the objects made at boot (`name` "objects"). `unix`: its bytes of the unix port's GC heap;
    `unix_bytes` and `chip_bytes`: the byte data among them, here and on the chip (code,
    buffers, names); `names`: the characters of the names it interned, `qstrs` how many, and
    `pools` the bytes of qstr pools the unix port grew for them meanwhile (it may have had room
    left from before the firmware: on the chip each name takes a pool entry, counted whole)."""

    name: str
    unix: int
    unix_bytes: int
    chip_bytes: int
    names: int = 0
    pools: int = 0
    qstrs: int = 0

    def chip(self) -> int:
        """Its bytes of the chip's GC heap: the unix port's words halved (less the pools grown
        here), its byte data whole, and a pool entry for each name it interned."""
        pools = min(self.pools, max(0, self.unix - self.unix_bytes))
        return chip_heap(self.unix, self.unix_bytes + pools, self.chip_bytes + self.qstrs * QSTR_ENTRY["chip"])


def chip_heap(unix_bytes: int, unix_data: int, chip_data: int) -> int:
    """The GC heap a figure of the 64-bit unix port would take on the 32-bit ESP32. The GC's
    blocks are four words on both (32 bytes here, 16 on the chip) and an object made of words
    (a list, a dict, an instance, a function, a raw code) holds as many words on both, so it
    takes half the bytes on the chip. Byte data (buffers, the bytecode and constants loaded from
    .mpy, the names interned) takes the same bytes on both, but not the same data: the native
    code is outside the GC heap on both, and the ESP32 keeps the preludes of native functions
    in it (bench_mpy). So: the unix port's words halved, plus the chip's byte data."""
    unix_data = min(unix_data, unix_bytes)
    return (unix_bytes - unix_data) // 2 + chip_data


def _import_order(modules: list[str]) -> list[str]:
    """`modules` with each one after the firmware modules it imports when it is loaded (the
    imports at its top level), so each import's growth of the heap is its own."""
    sources = {p.stem: p for p in paths.firmware_dir().rglob("*.py")}
    out: list[str] = []

    def visit(name: str) -> None:
        if name in out or name not in modules:
            return
        for node in ast.parse(sources[name].read_text()).body:
            for sub in ast.walk(node) if isinstance(node, ast.Try) else [node]:
                if isinstance(sub, ast.Import):
                    for alias in sub.names:
                        visit(alias.name)
                elif isinstance(sub, ast.ImportFrom) and sub.module:
                    visit(sub.module)
        out.append(name)

    for m in modules:
        visit(m)
    return out


def _dropped(name: str) -> frozenset[str]:
    """The functions firmware module `name` deletes at its top level once they have run."""
    src = next(paths.firmware_dir().rglob(f"{name}.py"), None)
    if src is None:
        return frozenset()
    return frozenset(t.id for node in ast.parse(src.read_text()).body if isinstance(node, ast.Delete)
                     for t in node.targets if isinstance(t, ast.Name))


def _parts_of(folder: Path, name: str) -> MpyParts:
    for f in (folder / f"{name}.mpy", folder / "lib" / f"{name}.mpy"):
        if f.exists():
            return mpy_parts(f.read_bytes(), _dropped(name))
    return MpyParts()


def _run_probe(t: Path, order: list[str]) -> subprocess.CompletedProcess[str]:
    sys.path.insert(0, str(paths.repo_root() / "tests" / "micropython_port"))
    from mpy import tool  # type: ignore[import-not-found]

    return subprocess.run(
        [tool("micropython"), "-X", "heapsize=400K", str(t / "probe.py"), str(paths.repo_root()), str(t / "mpy"),
         str(t / "mpy"), ",".join(order)],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )


def _heap_parts(res: subprocess.CompletedProcess[str], t: Path, march: str) -> dict[str, object] | None:
    """The probe's figures as HeapParts: one per module kept loaded, then the objects."""
    marks = _qstr_marks(res.stdout)
    parts: list[HeapPart] = []
    prev = marks.get("before", (0, 0, 0))
    for line in res.stderr.splitlines():
        f = line.split()
        if f[:1] == ["PART"]:
            here, chip = _parts_of(t / "mpy", f[1]), _parts_of(t / "esp32", f[1])
            now = marks.get(f[1], prev)
            names, pools, n = (x - y for x, y in zip(now, prev, strict=True))
            prev = now
            parts.append(HeapPart(f[1], int(f[2]), int(f[3]) + names + here.gc_bytes(march),
                                  int(f[4]) + names + chip.gc_bytes("xtensawin"), names, pools, n))
        elif f[:1] == ["HEAP"] and "after" in marks:
            after, cal, raw, rest, held, chip_held = (int(x) for x in f[1:7])
            names, pools, n = (x - y for x, y in zip(marks["after"], prev, strict=True))
            parts.append(HeapPart("objects", after - sum(p.unix for p in parts), held + names, chip_held + names,
                                  names, pools, n))
            modules = f[7].split(",")
            parts.append(_pool_room(parts))
            return {"after_boot": after, "calibration": cal, "raw": raw, "after": rest, "parts": parts,
                    "modules": modules, "exec": sum(_parts_of(t / "esp32", m).exec_bytes() for m in modules),
                    "chip_after_boot": sum(p.chip() for p in parts)}
    return None


def _pool_room(parts: list[HeapPart]) -> HeapPart:
    """The room left in the chip's name pools: each part counts its names' pool entries, but the
    pools are made whole, doubling (chip_name_pools). Counted as if the firmware interned the
    chip's first names: boot.py and main.py intern next to none, and the names the unix port
    has in its ROM and the chip has not (or the other way round) move it a little either way."""
    n = sum(p.qstrs for p in parts)
    room = chip_name_pools(n) - n * QSTR_ENTRY["chip"]
    return HeapPart("name pools' room", 0, 0, room)


def bench_heap() -> dict[str, object] | None:
    """Bytes of heap the firmware holds under the unix port, loaded from the .mpy files that
    `make deploy` builds (deploy.build: the same compiler flags and file names): after boot
    (its code, its objects), at the peak of a calibration and of a RAW dump, and once they are
    over; the modules it keeps loaded; each part's share (HeapPart), the estimate for the
    chip's GC heap after boot, and the executable memory the chip's native code takes."""
    from upref.commands import deploy
    from upref.sim.bytecode import host_march

    with tempfile.TemporaryDirectory(prefix="upref-heap-") as tmp:
        t = Path(tmp)
        march = host_march()
        deploy.build(out_dir=t / "mpy", march=march)  # the native code this machine loads
        deploy.build(out_dir=t / "esp32")  # the chip's: its sizes are the code counted below
        for name in ("main.py", "boot.py"):  # the probe boots the firmware itself
            (t / "mpy" / name).unlink()
        (t / "probe.py").write_text(HEAP_PROBE)
        first = _heap_parts(_run_probe(t, []), t, march)  # which modules stay loaded
        order = _import_order(list(first["modules"])) if first else []  # type: ignore[call-overload]
        res = _run_probe(t, order)
        got = _heap_parts(res, t, march)
        if got is None:
            print(res.stdout[-1000:], res.stderr[-2000:], file=sys.stderr)
        return got


def _qstr_marks(stdout: str) -> dict[str, tuple[int, int, int]]:
    """At each of the probe's marks (its line `QSTR <mark>`, then `micropython.qstr_info()`'s
    `qstr pool: n_pool=.., n_qstr=Q, n_str_data_bytes=N, n_total_bytes=T`): the bytes of the
    names interned so far, the bytes of the pools that hold them (T - N: py/qstr.c
    qstr_pool_info) and how many there are (Q)."""
    got: dict[str, tuple[int, int, int]] = {}
    mark = ""
    for line in stdout.splitlines():
        if line.startswith("QSTR "):
            mark = line.split()[1]
        elif line.startswith("qstr pool:") and mark:
            fields = dict(f.strip().split("=") for f in line.split(":", 1)[1].split(","))
            chars = int(fields["n_str_data_bytes"])
            got[mark] = (chars, int(fields["n_total_bytes"]) - chars, int(fields["n_qstr"]))
    return got


def bench_deploy() -> dict[str, dict[str, float]]:
    """`deploy.deploy` onto a fresh simulated board (CPython firmware, pty paced at 115200
    baud), then again with nothing changed: seconds (build, hashes, copy, soft reset and
    handshake included), bytes each way on the line, files and bytes copied."""
    from upref.commands import deploy
    from upref.sim.board import SimBoard, SimSettings

    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="upref-bench-") as tmp:
        os.environ["UPREF_RUNTIME_DIR"] = str(Path(tmp) / "run")
        with SimBoard(SimSettings(seed=1, name="bench-deploy", flash_dir=Path(tmp) / "flash")) as board:
            board.wait_for(lambda st: st["booted"], timeout=10)
            for label in ("whole", "unchanged"):
                before = board.state()["line"]
                t0 = time.monotonic()
                r = deploy.deploy(board.port, out=lambda s: None)
                secs = time.monotonic() - t0
                after = board.state()["line"]
                figures[label] = {
                    "s": secs,
                    "to_board": after["to_board"] - before["to_board"],
                    "from_board": after["from_board"] - before["from_board"],
                    "files": len(r.copied),
                    "file_bytes": sum(len(it.data) for it in r.items if it.board_path in r.copied),
                    "all_files": len(r.items),
                }
    return figures


def bench_replay(events: int) -> tuple[int, float]:
    """(events, seconds) to replay a long game log from SQLite through the referee. The log
    comes from random play driven by board observations (the referee tests' physical table)."""
    sys.path.insert(0, str(paths.repo_root() / "tests" / "host" / "support"))
    from updown_table import PLAYERS, random_session  # type: ignore[import-not-found]

    from upref.registry import referee_for
    from upref.store.gamelog import GameLog
    from upref.store.replay import load_log, replay

    ref, inputs = random_session(events)
    with tempfile.TemporaryDirectory(prefix="upref-bench-") as tmp:
        db = Path(tmp) / "long.sqlite"
        log = GameLog.create(
            db, game=ref.GAME, players=PLAYERS, seed=8, config=ref.config(), durable=False
        )
        log.append_many(inputs)
        log.close()
        t0 = time.perf_counter()
        info, entries = load_log(db)
        count = sum(1 for _ in replay(info, entries, referee_for))
        return count, time.perf_counter() - t0


def bench_playouts(game: Game, seconds: float) -> tuple[int, int, float]:
    """(games, actions, seconds): random playouts of the engine to the end, back to back."""
    assert game.playout is not None
    games = actions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        actions += game.playout(games)
        games += 1
    return games, actions, time.perf_counter() - t0


def frame_sizes() -> dict[str, list[int]]:
    vectors = json.loads((paths.repo_root() / "tests" / "vectors" / "frames.json").read_text())
    sizes: dict[str, list[int]] = defaultdict(list)
    for v in vectors["valid"]:
        if v["from"] == "board":
            sizes[v["type"]].append(len(v["bytes"].encode()))
    return sizes


def _print_frames() -> None:
    """The size of each board frame of the test vectors, and its time on the wire."""
    print("link: bytes per frame (test vectors)")
    for t, sizes in sorted(frame_sizes().items()):
        print(f"  {t:<6} {min(sizes):>4}..{max(sizes):<4} bytes  = {max(sizes) * 10 / 115200 * 1000:.1f} ms at 115200 baud")


def _print_games(quick: bool) -> None:
    """Each game's engine speed and its own figures (its demo's action -> verdict latency is
    among the chip's figures, at both ends of the range: _print_chip)."""
    for game in games():
        print(f"\n{game.title}:")
        if game.playout is not None:
            n, acts, secs = bench_playouts(game, 1.0 if quick else 3.0)
            print(f"  engine: {n / secs:,.0f} random playouts/s ({acts / secs:,.0f} actions/s)")
        for figure in game.figures(quick) if game.figures is not None else ():
            print(f"  {figure}")


def _print_chip(quick: bool, changes: int, cards: int) -> None:
    """The modelled chip's figures at both ends of the range."""
    print("\nthe modelled ESP32 at both ends of the range of a bytecode operation's time, every operation of the"
          "\nfirmware counted (docs/simulator.md, \"The chip's time\"); n = the samples each figure rests on:",
          flush=True)
    for line in bench_chip.chip_lines_both(quick, changes, cards):
        print(line, flush=True)


def _print_page_and_speech(quick: bool) -> None:
    """The scoreboard page and the spoken referee over the first game with a demo."""
    shown = next((g for g in games() if g.demo is not None), None)
    if shown is not None:
        print(f"\nthe scoreboard page over {shown.title}'s demo (served, open in headless Chromium):")
        for ln in bench_page.report(shown, 40.0 if quick else 60.0):
            print(ln)
        print("\nthe spoken referee (--speak): each voice, then the referee with speech on")
        for ln in bench_speech.report(shown, 40.0 if quick else 60.0):
            print(ln, flush=True)


def _print_languages(quick: bool) -> None:
    print("\nthe scoreboard in each language (the default board; English and German in turns, same run):")
    for line in bench_lang.language_lines(quick):
        print(f"  {line}", flush=True)


def _print_stats(quick: bool) -> None:
    print()
    for line in bench_stats.report(quick):
        print(line, flush=True)


def _print_replay(quick: bool) -> None:
    """How fast the referee replays a long log from SQLite."""
    count, secs = bench_replay(10_000 if quick else 50_000)
    print(f"referee replay of a long log from SQLite: {count} events in {secs:.2f} s = {count / secs:,.0f} events/s"
          " [goal >= 50 000/s]")


def _print_heap() -> None:
    """The firmware's heap under the MicroPython unix port, and the estimate for the ESP32:
    its GC heap after boot part by part, and the executable memory its native code takes."""
    heap = bench_heap()
    if not heap:
        return
    kb = {k: v / 1024 for k, v in heap.items() if isinstance(v, int)}
    print(f"\nfirmware heap under the MicroPython unix port (64-bit, from .mpy):"
          f"\n  after boot {kb['after_boot']:.1f} KB; peak during a calibration"
          f" {kb['calibration']:.1f} KB, during a RAW dump {kb['raw']:.1f} KB; after them"
          f" {kb['after']:.1f} KB\n  modules kept loaded: {', '.join(heap['modules'])}")  # type: ignore[arg-type]
    print(f"firmware GC heap after boot on the ESP32, estimated: {kb['chip_after_boot']:.1f} KB"
          f" [goal <= {HEAP_GOAL_KB} KB: {'met' if kb['chip_after_boot'] <= HEAP_GOAL_KB else 'NOT met'}]")
    print("  part by part (on the chip: byte data at its size - bytecode, constants and native preludes from the"
          " chip's .mpy,\n  names interned, buffers - and the rest, words, at half the unix port's bytes):")
    for p in heap["parts"]:  # type: ignore[attr-defined]
        if not p.unix:  # the room in the name pools, which only the chip's arithmetic gives
            print(f"    {p.name:<21} {p.chip() / 1024:5.1f} KB  (the pools are made whole, 20 entries, 40, 80 and so"
                  " on: the entries not used yet)")
            continue
        print(f"    {p.name if p.name != 'objects' else 'objects made at boot':<21} {p.chip() / 1024:5.1f} KB"
              f"  (byte data {p.chip_bytes / 1024:4.1f} KB, of it names {p.names / 1024:.1f} KB;"
              f" {p.qstrs:3} pool entries; words {(p.unix - min(p.unix, p.unix_bytes)) / 1024:4.1f} KB here)")
    print(f"firmware native code in the ESP32's executable RAM: {kb['exec']:.1f} KB [limit <= {EXEC_GOAL_KB} KB of"
          f" the {ESP32_EXEC_KB} KB IRAM less the firmware's own: {'met' if kb['exec'] <= EXEC_GOAL_KB else 'NOT met'}]"
          "\n  (each native function's Xtensa code from the .mpy, rounded to 4 bytes, and the port's 4-byte link;"
          " never freed before a soft reset)")


def _print_scan_timing(quick: bool) -> None:
    """The firmware's time per scan on the ESP32 at each clock, from the simulator's cost model."""
    print("\nthe firmware's time per scan on the ESP32, as the simulator's cost model puts it without the count"
          "\n(hardware operations, .mpy imports from flash, and the interpreter estimated per sensor read"
          " at the slow end;\ndocs/simulator.md, \"The chip's time\"; the counted figures are the chip lines above):")
    for mhz in SCAN_CLOCKS_MHZ:
        timing = bench_scan_timing(3.0 if quick else 4.0, mhz)
        ran = timing.get("mhz")
        print(f"  at {mhz} MHz{'' if mhz != 240 else ' (the clock boot.py sets)'}"
              f"{'' if ran == mhz else f' (the chip reported {ran} MHz: the figures are not for {mhz})'}:")
        for label, hbs in timing.items():
            if not isinstance(hbs, list) or not hbs:
                continue
            mean = statistics.mean(h.tscan_us or 0 for h in hbs) / 1000
            worst = max(h.tmax_us or 0 for h in hbs) / 1000
            late = max(h.late_ms or 0 for h in hbs)
            if late > SCAN_PERIOD_MS:
                verdict = "a scan came later than one period"
            elif worst > SCAN_PERIOD_MS:
                verdict = "a period overran, the next scan within one period"
            else:
                verdict = "fits its period"
            print(f"    {label}: busy {mean:.2f} ms per 10 ms scan on average, {worst:.2f} ms at worst;"
                  f" scans late by up to {late} ms [<= 10 ms]: {verdict}")
        if mhz != 240:
            print(f"    (a RAW dump imports service.py from flash, {MPY_IMPORT_MS * 240 / mhz:.1f} ms"
                  f" at {mhz} MHz, in the pass of a scan, and answers at a later one; the firmware's boot.py"
                  " sets 240 MHz)")
        if timing.get("jumps"):
            print(f"    (this machine held the simulated board up {timing['jumps']} times: its clock jumped)")


def _print_scan_rate(quick: bool) -> None:
    """Firmware scans per second under the MicroPython unix port."""
    sps = bench_micropython_scan_rate(4.0 if quick else 8.0)
    if sps:
        print(f"\nfirmware scans per second under the MicroPython unix port: mean {statistics.mean(sps):.0f},"
              f" min {min(sps)} over {len(sps)} heartbeats [goal >= 100]")


def _print_deploy() -> None:
    """`make deploy` to the simulated board: the whole firmware, then nothing changed."""
    d = bench_deploy()
    w, u = d["whole"], d["unchanged"]
    print("\nmake deploy to the simulated board at 115200 baud (real mpremote; build, hashes, copy,"
          " soft reset and handshake included):")
    print(f"  whole firmware: {w['files']:.0f} of {w['all_files']:.0f} files, {w['file_bytes'] / 1024:.1f} KB,"
          f" in {w['s']:.1f} s; {w['to_board'] / 1024:.1f} KB sent to the board, {w['from_board'] / 1024:.1f} KB back")
    print(f"  nothing changed: {u['files']:.0f} files copied in {u['s']:.1f} s;"
          f" {u['to_board'] / 1024:.1f} KB sent, {u['from_board'] / 1024:.1f} KB back")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m upref.commands.bench", description="measure; assert nothing")
    # half the changes are pairs put in (hole seated), half pulled; a p95 of 40 taps moved by a
    # tenth run to run, and one of 100 seated pairs by more than that
    ap.add_argument("--changes", type=int, default=CHANGES)
    ap.add_argument("--cards", type=int, default=CARDS)
    ap.add_argument("--quick", action="store_true", help="fewer samples")
    args = ap.parse_args(argv)
    if args.quick:
        args.changes, args.cards = 40, 20

    print("upref bench (figures only; goals in brackets)\n")
    _print_frames()
    _print_games(args.quick)
    _print_chip(args.quick, args.changes, args.cards)
    _print_page_and_speech(args.quick)
    _print_languages(args.quick)
    _print_replay(args.quick)
    _print_stats(args.quick)
    _print_heap()
    _print_scan_timing(args.quick)
    _print_scan_rate(args.quick)
    _print_deploy()
    return 0


if __name__ == "__main__":
    sys.exit(main())
