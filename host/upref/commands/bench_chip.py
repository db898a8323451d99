"""`make bench`'s figures for the modelled chip, at both ends of the range of a bytecode
operation's time (docs/simulator.md, "The chip's time"): each on a line of its own that begins
`chip (slow end):` or `chip (fast end):`, with the samples it rests on. The simulated board runs
with every operation of the firmware counted (SimSettings.ops="count"). The two ends run at once,
each in a process of its own (`python -m upref.commands.bench_chip --end slow`), so the whole
takes the time of one; here too are the measures on a simulated board that `bench` shares."""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from upref import paths
from upref.commands.bench_game import Timed, bench_game_stages, pct
from upref.commands.bench_latency import USB_MS, Latencies, bench_latency
from upref.game import Game
from upref.link.protocol import Heartbeat
from upref.registry import games

__all__ = ["CARDS", "CHANGES", "ENDS", "bench_scan_timing", "chip_lines", "chip_lines_both"]

ENDS = ("slow", "fast")
SCAN_SCENES = ("no card", "a card on the reader")
GOALS = {"seated": 25.0, "card": 40.0, "verdict": 60.0}  # ms at the slow end (issue 31)
SCAN_PERIOD_MS = 10  # no rare pass may delay a scan by more than this (issue 31)
CHANGES = 400  # hole changes the latencies rest on: 200 pairs put in (seated), 200 pulled
CARDS = 200  # card taps


def settings_for(chip: str | None) -> dict[str, object]:
    """The SimSettings of a board whose chip counts every operation, priced at the `chip` end of
    the range ("slow", "fast"); None: the board's defaults."""
    return {} if chip is None else {"chip_speed": chip, "ops": "count"}


SCAN_CLOCK_MHZ = 240  # what boot.py sets


SCENES = ("no card", "a card on the reader", "a card, and a RAW dump every second")


def _heartbeats(link: Any, board: Any, seconds: float, raw: bool, held: list[int]) -> list[Heartbeat]:
    """The heartbeats `board` sends on `link` for `seconds` (the first left out: it holds the
    change of scene), a RAW dump asked for every second when `raw`; a heartbeat whose second
    held a jump of the chip's clock (the machine held the board up) is left out and counted in
    held[0]."""
    def jumps() -> int:
        return int(board.state()["chip"]["clock_jumps"])

    got: list[Heartbeat] = []
    end = time.monotonic() + seconds
    next_raw = time.monotonic()
    seen = jumps()
    while time.monotonic() < end:
        if raw and time.monotonic() >= next_raw:
            next_raw += 1.0
            link.command("RAW", timeout=2.0)
        try:
            item = link.events.get(timeout=0.1)
        except queue.Empty:
            continue
        if isinstance(item, Heartbeat) and item.tscan_us is not None:
            now = jumps()
            if now == seen:
                got.append(item)
            elif got:
                held[0] += 1
            seen = now
    return got[1:]


def bench_scan_timing(
    seconds: float, mhz: int = 240, backend: str = "cpython", chip: str | None = None,
    scenes: tuple[str, ...] = SCENES,
) -> dict[str, list[Heartbeat]]:
    """Heartbeats of the cost-modelled board with its CPU at `mhz`: with no card, with a card
    lying on the reader, and with a card while the host asks for a RAW dump every second (as
    `upref doctor`). The firmware's boot.py sets 240 MHz; for another clock the board runs a
    copy of the firmware whose boot.py asks for that one instead (the clock a chip keeps when
    nothing sets it is 160 MHz). "mhz" holds the clock the simulated chip reported running at.
    scenes: which of SCENES to measure (the first two always are).
    chip: "slow"/"fast", a chip that counts every operation at that end (None: the slow end's
    estimate per sensor read, no count)."""
    from upref.link.connection import Link
    from upref.sim.board import SimBoard, SimSettings

    out: dict[str, list[Heartbeat]] = {}
    with tempfile.TemporaryDirectory(prefix="upref-bench-") as tmp:
        os.environ["UPREF_RUNTIME_DIR"] = str(Path(tmp) / "run")
        fw = paths.firmware_dir()
        if mhz != 240:
            fw = Path(tmp) / "firmware"
            shutil.copytree(paths.firmware_dir(), fw)
            boot = fw / "boot.py"
            text = boot.read_text()
            if text.count("machine.freq(240000000)") != 1:
                raise RuntimeError(f"{boot}: no single machine.freq(240000000) to run the firmware at {mhz} MHz;"
                                   " bench_scan_timing must learn how boot.py sets the clock now")
            boot.write_text(text.replace("machine.freq(240000000)", f"machine.freq({mhz * 1_000_000})"))
        modelled = settings_for(chip) if chip is not None else {"ops": "estimate"}
        with SimBoard(SimSettings(backend=backend, seed=1, name="bench-scan", flash_dir=Path(tmp) / "flash",
                                  firmware_dir=fw, **modelled)) as board:  # type: ignore[arg-type]
            link = Link(board.port)

            held = [0]  # heartbeats left out: the machine held the board up in their second

            def collect(raw: bool) -> list[Heartbeat]:
                return _heartbeats(link, board, seconds, raw, held)

            collect(False)
            out[SCENES[0]] = collect(False)
            board.tap("04A1B2C3D4E5F6")
            out[SCENES[1]] = collect(False)
            if SCENES[2] in scenes:
                out[SCENES[2]] = collect(True)
            st = board.state()
            out["jumps"] = st["chip"]["clock_jumps"]  # type: ignore[assignment]
            out["held"] = held[0]  # type: ignore[assignment]
            out["mhz"] = st["cpu_hz"] // 1_000_000  # type: ignore[assignment]
            link.close()
    return out




def _goal(end: str, what: str, value: float) -> str:
    if end != "slow":
        return ""
    goal = GOALS[what]
    if value == float("inf"):
        return f" [goal <= {goal:.0f} ms: missed]"
    return f" [goal <= {goal:.0f} ms: {'met' if value <= goal else f'missed by {value - goal:.1f} ms'}]"


def _scan_lines(end: str, seconds: float) -> Iterator[str]:
    timing = bench_scan_timing(seconds, SCAN_CLOCK_MHZ, chip=end, scenes=SCAN_SCENES)
    for scene in SCAN_SCENES:
        hbs = timing.get(scene)
        if not isinstance(hbs, list) or not hbs:
            yield f"chip ({end} end): scan time per period, {scene}: no heartbeats came"
            continue
        periods = sum(h.sps or 0 for h in hbs)
        mean = statistics.fmean(h.tscan_us or 0 for h in hbs) / 1000
        worst = max(h.tmax_us or 0 for h in hbs) / 1000
        yield (f"chip ({end} end): scan time per period, {scene}: mean {mean:.2f} ms, worst {worst:.2f} ms"
               f" (n={periods} periods in {len(hbs)} heartbeats)")
    if timing.get("jumps"):
        yield (f"chip ({end} end): (this machine held the simulated board up {timing['jumps']} times: its clock"
               f" jumped; the {timing.get('held', 0)} heartbeats whose second held a jump are left out)")


RARE = "a SNAP, a RAW dump and a SINCE replay every second"


def bench_rare_passes(seconds: float, chip: str) -> list[Heartbeat]:
    """Heartbeats of a board whose chip counts every operation at the `chip` end while the host
    asks, once a second, for a snapshot, a RAW dump and the replay of every kept event: the rare
    passes of the loop (each loads its module from flash, and the heartbeat comes besides)."""
    from upref.link.connection import Link
    from upref.sim.board import SimBoard, SimSettings

    got: list[Heartbeat] = []
    with tempfile.TemporaryDirectory(prefix="upref-bench-") as tmp:
        os.environ["UPREF_RUNTIME_DIR"] = str(Path(tmp) / "run")
        with SimBoard(SimSettings(seed=1, name="bench-rare", flash_dir=Path(tmp) / "flash",
                                  **settings_for(chip))) as board:  # type: ignore[arg-type]
            link = Link(board.port)
            for i in range(3):  # a few kept events for SINCE to replay
                board.pull(i + 1)
            end = time.monotonic() + seconds
            next_ask = time.monotonic() + 1.0
            seen = board.state()["chip"]["clock_jumps"]
            while time.monotonic() < end:
                if time.monotonic() >= next_ask:
                    next_ask += 1.0
                    link.request_snapshot("bench")
                    link.command("RAW", timeout=2.0)
                    link.command("SINCE", "all", timeout=2.0)
                try:
                    item = link.events.get(timeout=0.1)
                except queue.Empty:
                    continue
                if isinstance(item, Heartbeat) and item.late_ms is not None:
                    now = board.state()["chip"]["clock_jumps"]
                    if now == seen:  # a second in which the machine held the board up is left out
                        got.append(item)
                    seen = now
            link.close()
    return got[2:]  # the first heartbeats hold the boot and the first pulls


def _rare_lines(end: str, seconds: float) -> Iterator[str]:
    hbs = bench_rare_passes(seconds, end)
    if not hbs:
        yield f"chip ({end} end): worst scan lateness, {RARE}: no heartbeats came"
        return
    worst = max(h.late_ms or 0 for h in hbs)
    late = sum(h.nlate or 0 for h in hbs)
    verdict = "within one period" if worst <= SCAN_PERIOD_MS else "MORE than one period"
    yield (f"chip ({end} end): worst scan lateness, {RARE}: {worst} ms, {verdict}; {late} scans begun half a"
           f" period or more late (n={sum(h.sps or 0 for h in hbs)} periods in {len(hbs)} heartbeats)"
           + (f" [goal <= {SCAN_PERIOD_MS} ms: {'met' if worst <= SCAN_PERIOD_MS else 'missed'}]" if end == "slow" else ""))


def _stages(lat: Latencies) -> str:
    def both(v: list[float]) -> str:
        return f"{pct(v, 50):.1f}/{pct(v, 95):.1f} ms"

    return (f"p50/p95 of its stages: to the frame's last byte on the UART (the chip's clock) {both(lat.chip)},"
            f" USB {USB_MS:.1f} ms (modelled), the bytes read to the event (the host's clock) {both(lat.host)};"
            f" on the host's clock alone {both(lat.wall)}")


def _latency_lines(end: str, changes: int, cards: int) -> Iterator[str]:
    """Hole seated, hole emptied and card arrival -> host event, each with its stages."""
    got = bench_latency(changes, cards, settings_for(end))
    for what, name, goal in (("seated", "hole seated", "seated"), ("emptied", "hole emptied", None),
                             ("card", "card arrival", "card")):
        lat = got[what]
        left = f", {lat.jumped} left out: a jump of the chip's clock" if lat.jumped else ""
        left += f", {lat.undated} undated" if lat.undated else ""
        if not lat.total:
            yield (f"chip ({end} end): {name} -> host event: none of {lat.missed} reported"
                   + (_goal(end, goal, float("inf")) if goal else ""))
            continue
        p = pct(lat.total, 95)
        yield (f"chip ({end} end): {name} -> host event p95 {p:.1f} ms (n={len(lat.total)}, {lat.missed} never"
               f" reported{left}){_goal(end, goal, p) if goal else ''}")
        yield f"chip ({end} end):   {name}: {_stages(lat)}"


GAME_SAMPLES = {False: 150, True: 60}  # actions a game's p95 rests on (quick: True); a p95 of the
# 20 to 75 actions of one demo moved by a quarter from one run to the next


def game_samples(game: Game, end: str, samples: int, limit: float) -> tuple[list[Timed], int]:
    """A game's actions timed to their verdicts at the `end` of the range: its demo played on a
    fresh board again and again until `samples` actions are timed, or `limit` seconds have gone
    by; and how many demos were played."""
    out: list[Timed] = []
    plays = 0
    stop = time.monotonic() + limit
    while len(out) < samples and (left := stop - time.monotonic()) > 0:
        got = bench_game_stages(game, left, chip=end)
        plays += 1
        if not got:
            break
        out += got
    return out, plays


def _load() -> float:
    """The machine's load average over the last minute (0 where the system does not say)."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def _game_lines(end: str, samples: int, limit: float) -> Iterator[str]:
    """Each game's action -> verdict p95, stage by stage (`upref.commands.bench_game`: the
    chip's stage on the chip's clock, the host's on the host's; a key, which the board never
    sees, and an action the board did not date, on the host's clock alone), with the same
    actions timed on the host's clock alone and the machine's load while they were measured: a
    machine whose cores are all busy holds up the simulated board and the host alike
    (docs/simulator.md, "What `make bench` prints")."""
    for game in games():
        if game.demo is None:
            continue
        before = _load()
        gl, plays = game_samples(game, end, samples, limit)
        load = f"machine load {before:.1f}-{_load():.1f}"
        if not gl:
            yield (f"chip ({end} end): {game.title} action -> verdict: no verdict came in {limit:.0f} s of its demo"
                   f" ({load}){_goal(end, 'verdict', float('inf'))}")
            continue
        p = pct([t.wall if t.staged is None else t.staged for t in gl], 95)
        undated = sum(t.staged is None for t in gl)
        yield (f"chip ({end} end): {game.title} action -> verdict p95 {p:.1f} ms (n={len(gl)} over {plays}"
               f" {'demo' if plays == 1 else 'demos'}, {undated} on the host's clock alone: keys and"
               f" undated; on the host's clock alone, every action: p95 {pct([t.wall for t in gl], 95):.1f} ms;"
               f" {load}){_goal(end, 'verdict', p)}")


def chip_lines(end: str, quick: bool, changes: int, cards: int) -> Iterator[str]:
    """Every chip figure at one end of the range."""
    yield from _scan_lines(end, 3.0 if quick else 5.0)
    yield from _rare_lines(end, 6.0 if quick else 12.0)
    yield from _latency_lines(end, changes, cards)
    yield from _game_lines(end, GAME_SAMPLES[quick], 60.0 if quick else 150.0)


def chip_lines_both(quick: bool, changes: int, cards: int) -> Iterator[str]:
    """Every chip figure at both ends, measured at once in two processes: the slow end's lines,
    then the fast end's."""
    argv = [sys.executable, "-m", "upref.commands.bench_chip", "--changes", str(changes), "--cards", str(cards)]
    procs = [subprocess.Popen([*argv, "--end", end, *(["--quick"] if quick else [])], stdout=subprocess.PIPE,
                              text=True, stdin=subprocess.DEVNULL) for end in ENDS]
    outs = [p.communicate()[0] for p in procs]
    for end, p, out in zip(ENDS, procs, outs, strict=True):
        yield from out.splitlines()
        if p.returncode:
            yield f"chip ({end} end): the measurement stopped with exit status {p.returncode} (its error is above)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m upref.commands.bench_chip",
                                 description="the modelled chip's figures at one end of the range; assert nothing")
    ap.add_argument("--end", choices=ENDS, required=True)
    ap.add_argument("--changes", type=int, default=CHANGES)
    ap.add_argument("--cards", type=int, default=CARDS)
    ap.add_argument("--quick", action="store_true", help="shorter runs")
    args = ap.parse_args(argv)
    for line in chip_lines(args.end, args.quick, args.changes, args.cards):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
