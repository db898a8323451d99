"""Speech runs beside the referee and never in its way: a game replayed with a speaker taking
every reply gives the very verdicts of its golden file, even while the voice is stuck on its
first line; a missing voice or sound device is said in one line and the game goes on silent."""

from __future__ import annotations

import json
import threading
import wave
from collections.abc import Iterator
from pathlib import Path

import pytest
from upref.referee.status import ILLEGAL
from upref.registry import referee_for
from upref.speech.outputs import NoSoundDevice
from upref.speech.speaker import Speaker
from upref.speech.voices import VoiceMissing
from upref.store.replay import load_log, replay, verdict_dict

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
SESSIONS = ["updown", "up"]  # the games with a golden session log and its verdicts


class Beep:
    """A voice that says each line as a short silence; with `hold`, it waits for it first."""

    name = "beep"
    rate = 8000

    def __init__(self, hold: threading.Event | None = None) -> None:
        self.hold = hold
        self.started = threading.Event()

    def stream(self, text: str) -> Iterator[bytes]:
        self.started.set()
        if self.hold is not None:
            self.hold.wait(30)
        yield b"\0\0" * (self.rate // 10)


def _verdicts(game: str, speaker: Speaker | None) -> tuple[list[str], int]:
    """The session's verdicts (each as its golden line) and how many were refusals."""
    info, entries = load_log(GOLDEN / game / "session.jsonl")
    lines, refusals = [], 0
    for r in replay(info, entries, referee_for):
        if speaker is not None:
            speaker.offer(r.reply)
        for v in r.reply.verdicts:
            lines.append(json.dumps(verdict_dict(r.entry.seq, v), ensure_ascii=False))
            refusals += v.kind == ILLEGAL and v.seat is None
    return lines, refusals


@pytest.mark.parametrize("game", SESSIONS)
def test_the_verdicts_are_the_golden_ones_with_speech_on(game: str, tmp_path: Path) -> None:
    want = (GOLDEN / game / "session.verdicts.jsonl").read_text(encoding="utf-8").splitlines()
    speaker = Speaker(folder=tmp_path, make_voice=lambda _n: Beep()).start()
    got, refusals = _verdicts(game, speaker)
    speaker.close()
    assert got == want
    written = sorted(tmp_path.glob("*.wav"))
    assert refusals and len(written) == len(speaker.spoken) >= refusals
    with wave.open(str(written[0]), "rb") as w:
        assert w.getnframes() == Beep.rate // 10


def test_a_voice_stuck_on_its_first_line_holds_nothing_up(tmp_path: Path) -> None:
    hold = threading.Event()
    voice = Beep(hold)
    speaker = Speaker(folder=tmp_path, make_voice=lambda _n: voice).start()
    try:
        got, _ = _verdicts("updown", speaker)  # the whole game, while the voice is stuck
        assert voice.started.wait(30) and not hold.is_set()
        assert len(speaker.queue.pending()) > 1  # the rest waits its turn beside the game
        assert got == (GOLDEN / "updown" / "session.verdicts.jsonl").read_text(
            encoding="utf-8"
        ).splitlines()
    finally:
        hold.set()
        speaker.close()
    assert len(list(tmp_path.glob("*.wav"))) == len(speaker.spoken) > 1


@pytest.mark.parametrize(
    "trouble",
    [
        VoiceMissing("the speech engine espeak-ng is not installed: make voice installs it"),
        NoSoundDevice("this machine has no sound device to play on"),
    ],
)
def test_a_missing_voice_or_device_is_said_once_and_the_game_goes_on(trouble: Exception) -> None:
    said: list[str] = []

    def broken(_name: str) -> Beep:
        raise trouble

    if isinstance(trouble, VoiceMissing):
        speaker = Speaker(say=said.append, make_voice=broken)
    else:
        speaker = Speaker(say=said.append, make_voice=lambda _n: Beep(), make_output=lambda: broken(""))
    speaker.start()
    speaker.close()
    assert len(said) == 1 and str(trouble) in said[0] and "goes on silent" in said[0]
    got, _ = _verdicts("updown", speaker)
    assert got == (GOLDEN / "updown" / "session.verdicts.jsonl").read_text(encoding="utf-8").splitlines()
    assert speaker.silent and speaker.spoken == [] and len(said) == 1
