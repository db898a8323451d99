"""Where spoken lines go: numbered WAV files with their text beside them (`--speak-to DIR`:
0001.wav and 0001.txt, for tests and for machines without a sound card), or the default sound
device through sounddevice (PortAudio)."""

from __future__ import annotations

import wave
from pathlib import Path
from typing import Any, Protocol

from upref.text import Msg

__all__ = ["NoSoundDevice", "Output", "SoundDevice", "WavFolder"]


class NoSoundDevice(RuntimeError):
    """Nothing to play on (its message says why and what to do)."""


class Output(Protocol):
    """A line's audio, chunk by chunk: `begin`, `write`..., `end`."""

    def begin(self, text: str, rate: int) -> None: ...

    def write(self, pcm: bytes) -> None: ...

    def end(self) -> None: ...

    def close(self) -> None: ...


class WavFolder:
    """Each line as `NNNN.wav` (16-bit mono) and `NNNN.txt` (its words), numbered from 0001
    in the order spoken; the folder is made if need be.

    :raises OSError: when the folder cannot be made.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count = 0
        self._wav: Any = None

    def begin(self, text: str, rate: int) -> None:
        self.count += 1
        stem = self.folder / f"{self.count:04d}"
        stem.with_suffix(".txt").write_text(text + "\n", encoding="utf-8")
        self._wav = wave.open(str(stem.with_suffix(".wav")), "wb")
        self._wav.setnchannels(1)
        self._wav.setsampwidth(2)
        self._wav.setframerate(rate)

    def write(self, pcm: bytes) -> None:
        self._wav.writeframes(pcm)

    def end(self) -> None:
        if self._wav is not None:
            self._wav.close()
            self._wav = None

    def close(self) -> None:
        self.end()


class SoundDevice:
    """The default sound device, through sounddevice; a line is played as it is made.

    :raises NoSoundDevice: without sounddevice or PortAudio, or without an output device.
    """

    def __init__(self) -> None:
        try:
            import sounddevice  # type: ignore[import-not-found, import-untyped, unused-ignore]
        except (ImportError, OSError) as exc:  # OSError: the PortAudio library is missing
            raise NoSoundDevice(
                Msg(
                    "cannot play sound here ({why}): install the sound library (pip install "
                    "sounddevice, and the system's libportaudio2)",
                    why=str(exc),
                )
            ) from None
        try:
            sounddevice.query_devices(kind="output")
        except Exception as exc:  # PortAudioError, ValueError: no default output device
            raise NoSoundDevice(
                Msg(
                    "this machine has no sound device to play on ({why}): plug one in, or give "
                    "--speak-to DIR to write the spoken lines as WAV files",
                    why=str(exc),
                )
            ) from None
        self._sd = sounddevice
        self._stream: Any = None
        self._rate = 0

    def begin(self, text: str, rate: int) -> None:
        if self._stream is None or rate != self._rate:
            self.close()
            self._stream = self._sd.RawOutputStream(samplerate=rate, channels=1, dtype="int16")
            self._stream.start()
            self._rate = rate

    def write(self, pcm: bytes) -> None:
        self._stream.write(pcm)

    def end(self) -> None:
        pass

    def close(self) -> None:
        if self._stream is not None:
            self._stream.stop()
            self._stream.close()
            self._stream = None
