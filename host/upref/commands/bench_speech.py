"""The spoken referee's figures for `make bench`: for each voice, the time from a verdict to its
first audio sample (p50, p95) and the CPU time per second of speech; and the referee's
action -> scoreboard latency over a demo with speech on, against the same run without it (speech
runs beside the referee, so the two must not differ beyond the machine's noise).

    python -m upref.commands.bench_speech          # the voices only (runs where piper is installed)
"""

from __future__ import annotations

import argparse
import resource
import statistics
import threading
import time
from collections.abc import Iterator

from upref.commands.bench_game import bench_game_latency, pct
from upref.game import Game
from upref.referee.status import ILLEGAL, Verdict
from upref.speech.speaker import Speaker
from upref.speech.voices import VOICES, VoiceMissing, find_voice
from upref.table import Table
from upref.views.frame import Frame

__all__ = ["LINES", "bench_voice", "report", "voice_lines"]

LINES = (
    "Bob, your turn: higher than fifty-two.",
    "Bob, no. The next number must be higher than fifty-two; thirty-one is not. Take "
    "thirty-one back.",
    "Ann solved a card: three points in all. Draw a new card.",
    "Cy, two purple does not fit: it stays on the table.",
    "The game is over. Ann wins, with two points!",
)
"""Lines like the ones a game says: a turn, a refusal with its correction, a solved card, a
card that does not fit, the winner."""


class _Null:
    """An output that keeps nothing and says when a line is done."""

    def __init__(self) -> None:
        self.done = threading.Event()

    def begin(self, text: str, rate: int) -> None:
        pass

    def write(self, pcm: bytes) -> None:
        pass

    def end(self) -> None:
        self.done.set()

    def close(self) -> None:
        pass


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def bench_voice(name: str, rounds: int = 6) -> dict[str, float] | str:
    """Verdict -> first audio sample (ms, p50 and p95) and CPU seconds per spoken second for
    the voice `name`, over `rounds` of `LINES`, each line offered once the last is done (so no
    line waits behind another); or why the voice cannot be measured here."""
    try:
        t = time.monotonic()
        voice = find_voice(name)
        load_s = time.monotonic() - t
    except VoiceMissing as exc:
        return str(exc)
    out = _Null()
    speaker = Speaker(make_voice=lambda _n: voice, make_output=lambda: out).start()
    cpu0 = _cpu()
    for _ in range(rounds):
        for text in LINES:
            out.done.clear()
            speaker.offer(Frame("", "", verdicts=(Verdict(ILLEGAL, text, spoken=text),)))
            out.done.wait(60)
    cpu = _cpu() - cpu0
    speaker.close()
    ms = [x * 1000 for x in speaker.latencies]
    return {
        "p50": statistics.median(ms),
        "p95": pct(ms, 95),
        "cpu_per_s": cpu / speaker.audio_s if speaker.audio_s else float("nan"),
        "audio_s": speaker.audio_s,
        "load_s": load_s,
        "lines": len(ms),
    }


def voice_lines(rounds: int = 6) -> Iterator[str]:
    """The voices' figures, one line each."""
    for name in VOICES:
        got = bench_voice(name, rounds)
        if isinstance(got, str):
            yield f"  {name}: not measured: {got}"
            continue
        yield (
            f"  {name}: verdict -> first audio sample p50 {got['p50']:.0f} ms   p95 "
            f"{got['p95']:.0f} ms; {got['cpu_per_s'] * 1000:.0f} ms of CPU per spoken second "
            f"({got['lines']:.0f} lines, {got['audio_s']:.0f} s of speech; voice loaded in "
            f"{got['load_s']:.1f} s)"
        )


class _Speaking:
    """A probe that hands every frame to a speaker, as `upref play --speak` does."""

    def __init__(self) -> None:
        self.speaker = Speaker(make_output=_Null).start()

    def attach(self, game: Game, table: Table, players: tuple[str, ...]) -> None:
        pass

    def show(self, frame: Frame) -> None:
        self.speaker.offer(frame)

    def answered(self, t0: float, terminal_ms: float) -> None:
        pass

    def close(self) -> None:
        self.speaker.close(5)


def report(game: Game, limit: float, without: list[float] | None = None) -> list[str]:
    """The voices' lines, then `game`'s action -> scoreboard latency with speech on, against
    `without` (the same demo without speech; measured here when not given)."""
    lines = list(voice_lines())
    if without is None:
        without = bench_game_latency(game, limit)
    probe = _Speaking()
    with_speech = bench_game_latency(game, limit, probe)
    if without and with_speech:
        lines.append(
            f"  {game.title}'s demo, action -> verdict on the scoreboard: without speech p50 "
            f"{statistics.median(without):.1f} ms p95 {pct(without, 95):.1f} ms; with --speak "
            f"p50 {statistics.median(with_speech):.1f} ms p95 {pct(with_speech, 95):.1f} ms "
            f"({len(probe.speaker.spoken)} lines spoken) [the same]"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m upref.commands.bench_speech")
    ap.add_argument("--rounds", type=int, default=6, help="rounds of the sample lines per voice")
    args = ap.parse_args(argv)
    print("the spoken referee's voices:")
    for line in voice_lines(args.rounds):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
