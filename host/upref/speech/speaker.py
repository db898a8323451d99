"""The speaker: a thread beside the referee that says each reply's lines.

    speaker = Speaker(everything=False, folder=None, say=print)
    speaker.start()
    speaker.offer(frame)        # each frame the table publishes, after the scoreboard: returns at once
    speaker.close()             # says (or writes) what still waits, then stops

The voice is loaded and the output opened on the speaker's own thread, so a slow neural voice
never holds up the start of a game; if either is missing, `say` gets one line and the speaker
goes silent (the game goes on). `latencies` keeps, for each line, the seconds from its reply to
its first audio sample (`make bench`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from upref.speech.lines import LineQueue, Said, lines_for
from upref.speech.outputs import NoSoundDevice, Output, SoundDevice, WavFolder
from upref.speech.voices import VOICES, Voice, VoiceMissing, find_voice
from upref.text import ENGLISH, Msg, in_lang

__all__ = ["Speaker"]


class Speaker:
    """Says replies' lines from a thread of its own.

    :param everything: also the ok and info verdicts (`--speak=all`).
    :param folder: write numbered WAV files there (`--speak-to`) instead of playing them; every
        line is kept then (a file has no voice to fall behind).
    :param voice: the voice's name (`upref.speech.voices.VOICES`).
    :param say: where the one line about a missing voice or sound device goes.
    :param make_voice: builds the voice from its name (tests and the bench hand in their own;
        default: `find_voice` for `lang`).
    :param make_output: builds the output (default: the folder's files, or the sound device).
    :param lang: the language the lines are said in (and the voice speaks).
    """

    def __init__(
        self,
        *,
        everything: bool = False,
        folder: Path | None = None,
        voice: str = VOICES[0],
        say: Callable[[str], None] = print,
        make_voice: Callable[[str], Voice] | None = None,
        make_output: Callable[[], Output] | None = None,
        clock: Callable[[], float] = time.monotonic,
        lang: str = ENGLISH,
    ) -> None:
        self.everything = everything
        self.lang = lang
        self.folder = folder
        self.voice_name = voice
        self.say = say
        self.clock = clock
        self._make_voice = make_voice or (lambda name: find_voice(name, lang))
        self._make_output = make_output or (
            (lambda: WavFolder(folder)) if folder is not None else SoundDevice
        )
        self.queue = LineQueue(keep_all=folder is not None, clock=clock)
        self.silent = False
        self.latencies: list[float] = []
        self.spoken: list[str] = []
        self.audio_s = 0.0
        self._thread = threading.Thread(target=self._run, name="upref-speech", daemon=True)

    def start(self) -> Speaker:
        self._thread.start()
        return self

    def offer(self, frame: Said) -> None:
        """Queue the lines of the reply a frame carries (`upref.views.frame.Frame`, or the
        reply itself); returns at once (never waits for the voice)."""
        if self.silent:
            return
        lines = [
            replace(line, text=in_lang(line.text, self.lang))
            for line in lines_for(frame, self.everything, self.clock())
        ]
        if lines:
            self.queue.put(lines)

    def close(self, timeout: float = 30.0) -> None:
        """Say what still waits (up to `timeout` seconds), then stop."""
        self.queue.close()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        try:
            voice = self._make_voice(self.voice_name)
            output = self._make_output()
        except (VoiceMissing, NoSoundDevice, OSError) as exc:
            self._give_up(_said(exc))
            return
        try:
            while (line := self.queue.get()) is not None:
                self._speak(voice, output, line.text, line.offered)
        except (OSError, RuntimeError, ValueError) as exc:  # the device went away, a full disk
            self._give_up(Msg("speaking failed ({why})", why=_said(exc)))
        finally:
            output.close()

    def _speak(self, voice: Voice, output: Output, text: str, offered: float) -> None:
        first = True
        samples = 0
        for pcm in voice.stream(text):
            if first:
                output.begin(text, voice.rate)
                self.latencies.append(self.clock() - offered)
                first = False
            output.write(pcm)
            samples += len(pcm) // 2
        if not first:
            output.end()
            self.spoken.append(text)
            self.audio_s += samples / voice.rate

    def _give_up(self, why: str) -> None:
        self.silent = True
        if self.folder is not None:
            line = Msg(
                "upref: --speak to {folder}: {why}; the game goes on silent.", folder=self.folder, why=why
            )
        else:
            line = Msg("upref: --speak: {why}; the game goes on silent.", why=why)
        self.say(in_lang(line, self.lang))
        while self.queue.get(timeout=0) is not None:  # what waits will not be said
            pass


def _said(exc: BaseException) -> str:
    """What an error says: its sentence as raised (still translatable), or its text."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, str) else str(exc)
