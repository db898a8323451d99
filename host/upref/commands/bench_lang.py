"""`make bench`'s side-by-side of the scoreboard's languages: each game's demo on the simulated
board, its action -> verdict latency with the terminal's scoreboard drawn in English and in
German, the two taken in turns in the same run so that the machine's load falls on both alike."""

from __future__ import annotations

import time
from collections.abc import Iterator

from upref.commands.bench_game import bench_game_latency, pct
from upref.game import Game
from upref.registry import games
from upref.text import ENGLISH

__all__ = ["GERMAN", "language_lines"]

GERMAN = "de"
SAMPLES = {False: 100, True: 40}
"""Actions each language's p95 rests on (quick: True)."""


def _in_turns(game: Game, samples: int, limit: float) -> dict[str, list[float]]:
    """Each language's latencies (ms): the game's demo played in English, then in German, again
    and again until each has `samples` actions, or `limit` seconds have gone by."""
    got: dict[str, list[float]] = {ENGLISH: [], GERMAN: []}
    stop = time.monotonic() + limit
    while min(len(v) for v in got.values()) < samples and time.monotonic() < stop:
        for lang in (ENGLISH, GERMAN):
            left = max(1.0, stop - time.monotonic())
            played = bench_game_latency(game, left, lang=lang)
            if not played:
                return got
            got[lang] += played
    return got


def language_lines(quick: bool) -> Iterator[str]:
    """One line a game: its action -> verdict p95 with the scoreboard in English and in German."""
    for game in games():
        if game.demo is None:
            continue
        got = _in_turns(game, SAMPLES[quick], 60.0 if quick else 150.0)
        if not got[ENGLISH] or not got[GERMAN]:
            yield f"{game.title}: action -> verdict: no verdict came in its demo"
            continue
        en, de = pct(got[ENGLISH], 95), pct(got[GERMAN], 95)
        yield (
            f"{game.title}: action -> verdict p95, scoreboard in English {en:.1f} ms "
            f"(n={len(got[ENGLISH])}), in German {de:.1f} ms (n={len(got[GERMAN])}): "
            f"German/English {de / en:.2f}"
        )
