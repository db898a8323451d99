"""The speech options of `upref play` and `upref demo`, defined once: `--speak[=all]`,
`--speak-to DIR` and `--voice NAME`, a bare `--speak` before a name, and the speaker they ask
for.

    ap = argparse.ArgumentParser()
    add_speech_options(ap)
    args = ap.parse_args(speak_argv(argv))
    speaker = start_speaker(args, say)      # None without --speak or --speak-to
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from upref.commands.lang_option import said
from upref.speech.speaker import Speaker
from upref.speech.voices import VOICES
from upref.text import ENGLISH, Msg

__all__ = ["add_speech_options", "speak_argv", "start_speaker"]

_ON = "on"
_ALL = "all"


def add_speech_options(ap: argparse.ArgumentParser) -> None:
    """Give `ap` `--speak[=all]` (`args.speak`: None, 'on' or 'all'), `--speak-to DIR` and
    `--voice NAME`."""
    ap.add_argument(
        "--speak",
        nargs="?",
        const=_ON,
        choices=(_ON, _ALL),
        metavar="all",
        help=said(
            Msg(
                "say refusals and their corrections, whose turn it is, solved cards and claims, "
                "and the winner aloud; --speak=all says every verdict"
            )
        ),
    )
    ap.add_argument(
        "--speak-to",
        metavar="DIR",
        help=said(
            Msg(
                "write each spoken line as a numbered WAV file with its text (0001.wav, "
                "0001.txt) in DIR instead of playing it"
            )
        ),
    )
    ap.add_argument(
        "--voice",
        choices=VOICES,
        default=VOICES[0],
        help=said(
            Msg(
                "the voice (default {default}; piper needs pip install 'upref[voice]' and speaks "
                "English only)",
                default=VOICES[0],
            )
        ),
    )


def speak_argv(argv: list[str]) -> list[str]:
    """`--speak` followed by anything but `all` (a game, a player's name) means `--speak=on`."""
    out = list(argv)
    for i, word in enumerate(out):
        if word == "--speak" and (i + 1 == len(out) or out[i + 1] != _ALL):
            out[i] = f"--speak={_ON}"
    return out


def start_speaker(
    args: argparse.Namespace, say: Callable[[str], None] | None = None
) -> Speaker | None:
    """The speaker the options ask for, started (None: no speech asked for). A voice or sound
    device that is missing is said in one line (to stderr by default) and the game goes on
    silent. The lines are said in `args.lang` (English without it)."""
    speak = getattr(args, "speak", None)
    folder = getattr(args, "speak_to", None)
    if speak is None and folder is None:
        return None
    return Speaker(
        everything=speak == _ALL,
        folder=Path(folder) if folder is not None else None,
        voice=getattr(args, "voice", None) or VOICES[0],
        say=say or (lambda text: print(text, file=sys.stderr, flush=True)),
        lang=getattr(args, "lang", None) or ENGLISH,
    ).start()
