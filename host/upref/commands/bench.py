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
  a RAW dump (the sensor self-test's); and an estimate of the heap after boot on the 32-bit chip:
  byte data (bytecode, interned names, buffers) at its size, everything else (words) at half
  [our goal after boot <= 40 KB, not reached: docs/simulator.md, "The firmware's heap"]
- bytes per frame for each frame type
- `make deploy` to the simulated board at 115200 baud with the real mpremote: time and bytes
  for the whole firmware onto a fresh board, then for a deploy that finds nothing changed
- for every game in the registry: random playouts per second of its engine and its own heavy
  computation (`Game.figures`)
- the scoreboard page (`bench_page`): action -> page updated in a browser, p50/p95, and how much
  after the terminal [p95 <= 100 ms over the terminal]; with 50 viewers at once: the referee's
  latency against the run without them, the server's CPU
- the spoken referee (`bench_speech`): verdict -> first audio sample p50/p95 and CPU per spoken
  second for each voice (espeak-ng; piper where `upref[voice]` is installed), and action ->
  verdict on the scoreboard over a demo with --speak against the same without [the same]

Machines here are shared and noisy: read the figures as a whole, compare ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from upref import paths
from upref.commands import bench_chip, bench_page, bench_speech
from upref.commands.bench_chip import bench_scan_timing
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
HEAP_GOAL_KB = 40  # the heap after boot on the chip we aimed at (the issue asks only for the estimate)


HEAP_PROBE = r"""
import gc, sys, os, time
root, mpy, flash = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, root + "/host/upref/sim/standins")
sys.path.insert(0, root + "/host/upref/chip")  # the chip's ADC curve, which the stand-ins read
sys.path.insert(0, mpy + "/lib")  # the board's /lib, then its /, as make deploy lays them out
sys.path.insert(0, mpy)
import esp32_micropython
sys.modules["micropython"] = esp32_micropython
import machine, neopixel, sim_world
sim_world.world._reader()  # the simulator's MFRC522 model loads on first use: not firmware
os.chdir(flash)


class Sink:  # the USB port's output, thrown away
    def write(self, buf, off, n):
        pass


def used():
    gc.collect()
    return gc.mem_alloc()


def qstr_chars():
    # the characters of the names interned since the start: qstr_info() prints them
    esp32_micropython.qstr_info()


before = used()
print("QSTR before")
qstr_chars()
import board, app
a = app.App(board.Board())
a.out._port = Sink()
a.boot()
a.step(time.ticks_ms())  # one pass of the loop: what was loaded for the boot is let go
after = used() - before
print("QSTR after")
qstr_chars()
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




def byte_data(roots):
    # bytes the firmware's objects hold in buffers and arrays: data that takes as many bytes
    # on a 32-bit chip (a str is left out: the names are counted as interned, qstr_info, and
    # string constants with the bytecode they came with)
    n, seen, todo = 0, set(), list(roots)
    while todo:
        o = todo.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        t = type(o)
        if t in (bytes, bytearray):
            n += len(o)
        elif t.__name__ == "array":
            n += len(bytes(o))
        elif t in (list, tuple):
            todo.extend(o)
        elif t is dict:
            todo.extend(o.values())
        elif t is type(sys) or (not isinstance(o, type) and hasattr(o, "__dict__")):
            todo.extend(o.__dict__.values())  # a module's globals, an instance's attributes
    return n


cal = peak_of("CAL", lambda: a.cal is None)
raw = peak_of("RAW", lambda: True)
rest = used() - before
held = byte_data([a] + [sys.modules[m] for m in code])
sys.stderr.write("HEAP %d %d %d %d %d %s\n" % (after, cal, raw, rest, held, ",".join(code)))
"""


def chip_heap(unix_bytes: int, byte_data: int) -> int:
    """The heap a figure of the 64-bit unix port would take on the 32-bit ESP32. The GC's blocks
    are four words on both (32 bytes here, 16 on the chip) and an object made of words (a list,
    a dict, an instance, a function) holds as many words on both, so it takes the same number
    of blocks: half the bytes on the chip. Byte data (buffers, strings, the bytecode and names
    loaded from .mpy, the names interned) takes the same bytes on both. So: the byte data
    counted once, plus half of the rest (never less than half the whole)."""
    byte_data = min(byte_data, unix_bytes)
    return byte_data + (unix_bytes - byte_data) // 2


def bench_heap() -> dict[str, object] | None:
    """Bytes of heap the firmware holds under the unix port, loaded from the .mpy files that
    `make deploy` builds (deploy.build: the same compiler flags and file names): after boot
    (its code, its objects), at the peak of a calibration and of a RAW dump, and once they are
    over; and the modules it keeps loaded."""
    from upref.commands import deploy

    root = paths.repo_root()
    sys.path.insert(0, str(root / "tests" / "micropython_port"))
    from mpy import tool  # type: ignore[import-not-found]

    with tempfile.TemporaryDirectory(prefix="upref-heap-") as tmp:
        t = Path(tmp)
        deploy.build(out_dir=t / "mpy")
        for name in ("main.py", "boot.py", "pinmap.json"):  # the probe boots the firmware itself
            (t / "mpy" / name).unlink()
        (t / "flash").mkdir()
        shutil.copy(paths.pinmap_path(), t / "flash" / "pinmap.json")
        (t / "probe.py").write_text(HEAP_PROBE)
        res = subprocess.run(
            [tool("micropython"), "-X", "heapsize=400K", str(t / "probe.py"), str(root), str(t / "mpy"), str(t / "flash")],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )
        chars = _qstr_chars(res.stdout)
        for line in res.stderr.splitlines():
            if line.startswith("HEAP ") and chars is not None:
                after, cal, raw, rest, held, mods = line.split()[1:]
                modules = mods.split(",")
                files = [f for m in modules for f in (t / "mpy" / f"{m}.mpy", t / "mpy" / "lib" / f"{m}.mpy")
                         if f.exists()]
                code = sum(f.stat().st_size - mpy_names_bytes(f.read_bytes()) for f in files)
                data = int(held) + code + chars
                return {"after_boot": int(after), "calibration": int(cal), "raw": int(raw),
                        "after": int(rest), "bytes": data, "buffers": int(held), "code": code,
                        "names": chars, "modules": modules, "chip_after_boot": chip_heap(int(after), data)}
        print(res.stdout[-1000:], res.stderr[-2000:], file=sys.stderr)
        return None


def _qstr_chars(stdout: str) -> int | None:
    """Bytes of the names interned between the probe's two `micropython.qstr_info()` (its
    line `qstr pool: n_pool=.., n_qstr=.., n_str_data_bytes=N, ...` after each mark)."""
    got: dict[str, int] = {}
    mark = ""
    for line in stdout.splitlines():
        if line.startswith("QSTR "):
            mark = line.split()[1]
        elif line.startswith("qstr pool:") and mark:
            fields = dict(f.strip().split("=") for f in line.split(":", 1)[1].split(","))
            got[mark] = int(fields["n_str_data_bytes"])
    if "before" not in got or "after" not in got:
        return None
    return got["after"] - got["before"]


def _vuint(data: bytes, i: int) -> tuple[int, int]:
    v = 0
    while True:
        b = data[i]
        i += 1
        v = (v << 7) | (b & 0x7F)
        if not b & 0x80:
            return v, i


def mpy_names_bytes(data: bytes) -> int:
    """Bytes the names table of a .mpy file (format 6: py/persistentcode.c) takes: each name
    not among MicroPython's static ones is stored whole (length, characters, NUL). Loading the
    module interns them, and a name already interned (by the port's ROM or another module)
    takes nothing again: they are counted by what the probe sees interned, not here."""
    if len(data) < 4 or data[0] != ord("M") or data[1] != 6:
        raise ValueError("not a .mpy file of format 6")
    i = 4
    if data[2] & 0xFC:  # an architecture's flags follow the header
        _, i = _vuint(data, i)
    n_qstr, i = _vuint(data, i)
    _, i = _vuint(data, i)  # the constant objects, after the names
    start = i
    for _ in range(n_qstr):
        v, i = _vuint(data, i)
        if not v & 1:  # a name stored whole: its characters and a NUL
            i += (v >> 1) + 1
    return i - start


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


def _print_replay(quick: bool) -> None:
    """How fast the referee replays a long log from SQLite."""
    count, secs = bench_replay(10_000 if quick else 50_000)
    print(f"referee replay of a long log from SQLite: {count} events in {secs:.2f} s = {count / secs:,.0f} events/s"
          " [goal >= 50 000/s]")


def _print_heap() -> None:
    """The firmware's heap under the MicroPython unix port, and the estimate for the ESP32."""
    heap = bench_heap()
    if heap:
        kb = {k: v / 1024 for k, v in heap.items() if isinstance(v, int)}
        print(f"\nfirmware heap under the MicroPython unix port (64-bit, from .mpy):"
              f"\n  after boot {kb['after_boot']:.1f} KB; peak during a calibration"
              f" {kb['calibration']:.1f} KB, during a RAW dump {kb['raw']:.1f} KB; after them"
              f" {kb['after']:.1f} KB\n  modules kept loaded: {', '.join(heap['modules'])}")  # type: ignore[arg-type]
        reached = kb["chip_after_boot"] <= HEAP_GOAL_KB
        print(f"  after boot on the 32-bit ESP32, estimated: {kb['chip_after_boot']:.1f} KB [our goal <= {HEAP_GOAL_KB} KB"
              f"{'' if reached else ': not reached, see below'}]"
              f"\n  (method: of the {kb['after_boot']:.1f} KB here, {min(kb['bytes'], kb['after_boot']):.1f} KB is byte data,"
              " the same bytes on the chip:"
              f" {kb['code']:.1f} KB of bytecode and constants from the .mpy files kept loaded,"
              f"\n  {kb['names']:.1f} KB of names interned (micropython.qstr_info), {kb['buffers']:.1f} KB of buffers and"
              " arrays the firmware holds; the rest is words, 8 bytes here and 4 there,\n  in blocks of 32 bytes here"
              " and 16 there: half. It errs high: names the ESP32's ROM holds and the unix port's does not are counted)")
        if not reached:
            print(f"  why not {HEAP_GOAL_KB} KB: the code kept loaded ({kb['code'] + kb['names']:.1f} KB of bytecode and names, and"
                  " the objects of its functions and classes) is most of it,\n  and what runs all the time must stay"
                  " loaded: importing a .mpy takes about 5 ms of a 10 ms scan period; boot-only code and the service side"
                  "\n  (service.py: HELLO, SNAP, RAW, CAL, ...) are loaded for the occasion and let go (docs/simulator.md, \"The firmware's heap\")")


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
                  f" at {mhz} MHz, in the period of a scan; the firmware's boot.py sets 240 MHz)")
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
    ap.add_argument("--changes", type=int, default=200)
    ap.add_argument("--cards", type=int, default=40)
    ap.add_argument("--quick", action="store_true", help="fewer samples")
    args = ap.parse_args(argv)
    if args.quick:
        args.changes, args.cards = 40, 10

    print("upref bench (figures only; goals in brackets)\n")
    _print_frames()
    _print_games(args.quick)
    _print_chip(args.quick, args.changes, args.cards)
    _print_page_and_speech(args.quick)
    _print_replay(args.quick)
    _print_heap()
    _print_scan_timing(args.quick)
    _print_scan_rate(args.quick)
    _print_deploy()
    return 0


if __name__ == "__main__":
    sys.exit(main())
