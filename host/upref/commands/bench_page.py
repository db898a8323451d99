"""The scoreboard page's figures for `make bench`: a game's demo on the simulated board with the
page served and open in headless Chromium.

- action (a hole change, a tap) -> the page updated in the browser, p50 and p95, and how much
  later than the terminal's own scoreboard [goal: p95 <= 100 ms over the terminal's latency];
- the same with 50 more viewers on the page at once (a separate process reading 50 event
  streams): the referee's latency against the run without them, the server thread's CPU, the
  messages the viewers got and how many were dropped for falling behind.

`python -m upref.commands.bench_page --viewers URL N` is that viewers' process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

from upref.commands.bench_game import bench_game_latency, pct
from upref.game import Game
from upref.table import Table
from upref.views.frame import Frame
from upref.web.headless import OBSERVE, chromium
from upref.web.live import LivePage

__all__ = ["PageProbe", "report"]

VIEWERS = 50


def _free_address() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{s.getsockname()[1]}"


def _thread_cpu_s(thread: threading.Thread | None) -> float:
    """CPU seconds (user + system) a thread of this process has used, from /proc (Linux)."""
    if thread is None or thread.native_id is None:
        return 0.0
    try:
        with open(f"/proc/self/task/{thread.native_id}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class PageProbe:
    """The page served and watched in a browser while the demo plays (`bench_game.Probe`)."""

    browser: object
    viewers: int = 0
    marks: list[tuple[float, str, float]] = field(default_factory=list)  # (t0, version, terminal ms)
    page_ms: list[float] = field(default_factory=list)
    over_terminal_ms: list[float] = field(default_factory=list)
    cpu_s: float = 0.0
    wall_s: float = 0.0
    got: dict[str, int] = field(default_factory=dict)
    page: LivePage | None = None
    _proc: subprocess.Popen[str] | None = None
    _t0: tuple[float, float] = (0.0, 0.0)

    def attach(self, game: Game, table: Table, players: tuple[str, ...]) -> None:
        page = LivePage(game.panel, _free_address(), players, "bench")
        page.start(table.frame, out=io.StringIO())
        self.page = page
        d = self.browser
        d.get(page.server.url)  # type: ignore[attr-defined]
        self._until(page.hub.latest.version if page.hub.latest else "")
        d.execute_script(OBSERVE)  # type: ignore[attr-defined]
        if self.viewers:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "upref.commands.bench_page", "--viewers", f"{page.server.url}events", str(self.viewers)],
                stdout=subprocess.PIPE, text=True,
            )
            end = time.monotonic() + 20
            while page.hub.viewers < self.viewers + 1 and time.monotonic() < end:
                time.sleep(0.05)
        self._t0 = (_thread_cpu_s(page.server._thread), time.monotonic())

    def show(self, frame: Frame) -> None:
        if self.page is not None:
            self.page.update(frame)

    def answered(self, t0: float, terminal_ms: float) -> None:
        assert self.page is not None and self.page.hub.latest is not None
        self.marks.append((t0, self.page.hub.latest.version, terminal_ms))

    def close(self) -> None:
        page = self.page
        if page is None:
            return
        self.cpu_s = _thread_cpu_s(page.server._thread) - self._t0[0]
        self.wall_s = time.monotonic() - self._t0[1]
        last = page.hub.latest.version if page.hub.latest else ""
        with contextlib.suppress(Exception):
            self._until(last)
        seen = self.browser.execute_script("return window.__seen")  # type: ignore[attr-defined]
        shown: dict[str, float] = {}
        for version, _text, ms in seen:
            shown.setdefault(version, ms)
        for t0, version, terminal in self.marks:
            if version in shown:
                ms = shown[version] - t0 * 1000
                self.page_ms.append(ms)
                self.over_terminal_ms.append(ms - terminal)
        if self._proc is not None:
            self._proc.send_signal(signal.SIGTERM)
            out, _ = self._proc.communicate(timeout=20)
            self.got = json.loads(out or "{}")
        self.got["dropped"] = page.hub.dropped
        page.stop()

    def _until(self, version: str, timeout: float = 10) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            el = self.browser.find_element("id", "board")  # type: ignore[attr-defined]
            if el.get_attribute("data-version") == version:
                return
            time.sleep(0.02)
        raise TimeoutError(f"the page never showed picture {version}")


def _added(pictures: list[float], words: list[float]) -> str:
    if not pictures or not words:
        return "no samples"
    return f"{pct(pictures, 95) - pct(words, 95):+.1f} ms"


def _p(values: list[float]) -> str:
    if not values:
        return "no samples"
    return f"p50 {statistics.median(values):.1f} ms   p95 {pct(values, 95):.1f} ms"


class _WordsOnly:
    """A game's panel without its drawing: the page as it was before the drawings, to measure
    what drawing them costs in the same run."""

    def __init__(self, panel: Any) -> None:
        self._panel = panel

    def __getattr__(self, name: str) -> Any:
        if name == "drawing":
            raise AttributeError(name)
        return getattr(self._panel, name)


def report(game: Game, limit: float) -> list[str]:
    """The page's figures over `game`'s demo, as lines to print."""
    try:
        with chromium() as d:
            words = PageProbe(d)
            bench_game_latency(replace(game, panel=_WordsOnly(game.panel)), limit, words)
        with chromium() as d:
            alone = PageProbe(d)
            bench_game_latency(game, limit, alone)
        with chromium() as d:
            crowd = PageProbe(d, viewers=VIEWERS)
            bench_game_latency(game, limit, crowd)
    except RuntimeError as e:
        return [f"  not measured: {e}"]
    term = [m[2] for m in alone.marks]
    term_crowd = [m[2] for m in crowd.marks]
    cpu = lambda p: 100 * p.cpu_s / p.wall_s if p.wall_s else 0.0  # noqa: E731
    return [
        f"  action -> page updated in headless Chromium, {len(alone.page_ms)} actions: {_p(alone.page_ms)}",
        f"  the terminal's own scoreboard, same actions:      {_p(term)}",
        f"  page later than the terminal:                     {_p(alone.over_terminal_ms)} [goal p95 <= 100 ms]",
        f"  the same page without its pictures (words only):  {_p(words.page_ms)}; later than the"
        f" terminal {_p(words.over_terminal_ms)}",
        f"  the pictures add at p95: {_added(alone.over_terminal_ms, words.over_terminal_ms)} [goal <= 30 ms]",
        f"  web server thread CPU over the game: {cpu(alone):.1f}% of one core (one browser)",
        f"  with {VIEWERS} more viewers: action -> terminal {_p(term_crowd)} (without them {_p(term)})",
        f"    action -> page {_p(crowd.page_ms)}; server thread CPU {cpu(crowd):.1f}% of one core;"
        f" {crowd.got.get('messages', 0)} messages to the viewers, fewest to one"
        f" {crowd.got.get('fewest', 0)}, {crowd.got.get('dropped', 0)} viewers dropped",
    ]


# --- the viewers' process ------------------------------------------------------------------


async def _read(url: str, n: int) -> dict[str, int]:
    import aiohttp

    counts = [0] * n
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)

    async def one(session: aiohttp.ClientSession, i: int) -> None:
        async with session.get(url) as r:
            async for line in r.content:
                if line.startswith(b"event: board"):
                    counts[i] += 1

    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None)) as session:
        tasks = [asyncio.create_task(one(session, i)) for i in range(n)]
        await stop.wait()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"messages": sum(counts), "fewest": min(counts)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m upref.commands.bench_page")
    ap.add_argument("--viewers", nargs=2, metavar=("URL", "N"), required=True)
    args = ap.parse_args(argv)
    url, n = args.viewers[0], int(args.viewers[1])
    print(json.dumps(asyncio.run(_read(url, n))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
