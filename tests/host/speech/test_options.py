"""`--speak`, `--speak=all`, `--speak-to DIR` and `--voice` read the same in `upref play` and
`upref demo`, wherever they stand."""

from __future__ import annotations

import pytest
from upref.commands import demo, play
from upref.commands.game_option import parse_for_game
from upref.commands.speech_option import speak_argv


@pytest.mark.parametrize(
    ("argv", "speak", "to", "voice"),
    [
        (["--speak", "updown"], "on", None, "espeak"),
        (["updown", "--speak"], "on", None, "espeak"),
        (["--speak=all", "updown"], "all", None, "espeak"),
        (["--speak", "all", "updown"], "all", None, "espeak"),
        (["updown", "--speak-to", "out", "--voice", "piper"], None, "out", "piper"),
        (["updown"], None, None, "espeak"),
    ],
)
def test_demo_reads_the_speech_options(argv: list[str], speak: str | None, to: str | None, voice: str) -> None:
    game, args = parse_for_game(speak_argv(argv), demo._parser)
    assert (game.name, args.speak, args.speak_to, args.voice) == ("updown", speak, to, voice)


def test_play_reads_a_bare_speak_before_the_players() -> None:
    game, args = play.parse(speak_argv(["whatsup", "--speak", "Ann", "Bob", "Cy"]))
    assert (game.name, args.players, args.speak) == ("whatsup", ["Ann", "Bob", "Cy"], "on")


def test_an_unknown_voice_is_refused_with_the_voices_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        play.parse(["updown", "Ann", "Bob", "--voice", "robot"])
    assert "espeak" in capsys.readouterr().err
