"""The language of the commands: `--lang`, and by default the environment as gettext reads it
(LANGUAGE, then LC_ALL, LC_MESSAGES, LANG), English for C/POSIX or a language upref has no
catalogue for (said in one line when it was asked for by name); `upref languages` says how
complete each catalogue is; the help, the screens' lines and the voice follow the language."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import pytest
from upref import cli
from upref.commands import lang_option, languages
from upref.commands.lang_option import add_lang_option, chosen_lang, env_lang
from upref.referee.status import BOARD, Verdict
from upref.speech.speaker import Speaker
from upref.speech.voices import VoiceMissing, find_voice
from upref.text import Msg, catalogue


@pytest.mark.parametrize(
    ("environ", "lang", "named"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de", None),
        ({"LC_ALL": "de_AT.UTF-8", "LANG": "en_GB.UTF-8"}, "de", None),
        ({"LC_MESSAGES": "de_CH", "LANG": "en_US.UTF-8"}, "de", None),
        ({"LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"}, "de", None),  # a list: the first upref has
        ({"LANGUAGE": "en", "LANG": "de_DE.UTF-8"}, "en", None),  # the tests' own: English first
        ({"LANG": "C.UTF-8"}, "en", None),
        ({"LC_ALL": "POSIX"}, "en", None),
        ({}, "en", None),
        ({"LANG": "fr_FR.UTF-8"}, "en", "fr"),
    ],
)
def test_the_environment_names_the_language(environ: dict[str, str], lang: str, named: str | None) -> None:
    assert env_lang(environ) == (lang, named)


def _args(*argv: str) -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    add_lang_option(ap)
    return ap.parse_args(list(argv))


def test_lang_wins_over_the_environment_and_a_missing_one_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    assert chosen_lang(_args("--lang", "de"), "upref demo", {"LANG": "en_US.UTF-8"}) == "de"
    assert chosen_lang(_args("--lang", "de_DE.UTF-8"), "upref demo", {}) == "de"
    assert capsys.readouterr().err == ""
    assert chosen_lang(_args(), "upref demo", {"LANG": "C"}) == "en"
    assert capsys.readouterr().err == ""  # the C locale asked for nothing: nothing to say
    assert chosen_lang(_args("--lang", "fr"), "upref demo", {"LANG": "de_DE.UTF-8"}) == "en"
    err = capsys.readouterr().err
    assert err.startswith("upref demo: upref has no catalogue for the language 'fr'") and "en, de" in err
    assert chosen_lang(_args(), "upref play", {"LANG": "sv_SE.UTF-8"}) == "en"
    assert "the language 'sv'" in capsys.readouterr().err


def test_upref_languages_says_how_complete_each_is(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["languages"]) == 0
    lines = capsys.readouterr().out.splitlines()
    total = len(catalogue.template_keys())
    german = catalogue.completeness("de")
    assert lines[0].split() == ["en", "English", "100%", f"({total}", "of", f"{total})"]
    assert lines[1].split() == ["de", "Deutsch", f"{german.percent}%", f"({german.done}", "of", f"{total})"]


def test_a_partial_catalogue_is_listed_with_what_it_has(monkeypatch: pytest.MonkeyPatch) -> None:
    half = catalogue.Completeness("xx", "Xish", 406, 812)
    assert languages.table([half]) == ["xx  Xish   50% (406 of 812)"]


def test_the_commands_speak_german_when_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "de")
    assert cli.main([]) == 2  # no command: what the commands are, in the environment's German
    said = capsys.readouterr().err
    assert said.startswith("upref: welcher Befehl?") and "Befehle:" in said and "Spiel am Tisch" in said
    monkeypatch.setenv("LANGUAGE", "en")
    with pytest.raises(SystemExit):
        cli.main(["play", "--lang", "de", "--help"])
    helped = capsys.readouterr().out
    assert helped.startswith("Nutze: upref play [-h] [--port PORT]"), helped[:80]  # argparse's own words too
    assert "die Sprache der Bildschirme, der Seite und der Stimme" in helped
    assert "Urteile als Zeilen ausgeben" in helped and "print verdicts as lines" not in helped


def test_a_wrong_player_count_is_said_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    from upref.commands import play

    assert play.main(["updown", "Ann", "--lang", "de"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("upref play: Up And Down ist für ") and "nenn die Spieler in Sitzreihenfolge" in err
    lang_option.use_lang("en")
    assert play.main(["updown", "Ann"]) == 2
    assert "is for " in capsys.readouterr().err


@dataclass(frozen=True)
class _Said:
    verdicts: tuple[Verdict, ...]
    turn: str | None = None


class _Silence:
    name = "silence"
    rate = 8000

    def stream(self, text: str):  # type: ignore[no-untyped-def]
        yield b"\0\0" * 80


def test_the_voice_says_its_lines_in_its_language(tmp_path: Path) -> None:
    line = Msg("two cards on the reader: tap one at a time")
    heard = {}
    for lang in ("en", "de"):
        speaker = Speaker(folder=tmp_path / lang, make_voice=lambda _n: _Silence(), lang=lang).start()
        speaker.offer(_Said((Verdict(BOARD, line, spoken=line),)))
        speaker.close()
        heard[lang] = speaker.spoken
    assert heard == {"en": ["two cards on the reader: tap one at a time"],
                     "de": ["zwei Karten auf dem Leser: leg immer nur eine auf"]}


def test_espeak_speaks_german_with_its_german_voice_and_piper_says_it_cannot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("shutil.which", lambda name: f"/usr/bin/{name}")
    assert find_voice("espeak", "de").voice == "de"  # type: ignore[attr-defined]
    assert find_voice("espeak", "en").voice == "en-us"  # type: ignore[attr-defined]
    with pytest.raises(VoiceMissing, match="--voice espeak"):
        find_voice("piper", "de")


def test_a_german_speaker_without_its_voice_says_so_in_german(tmp_path: Path) -> None:
    said: list[str] = []

    def missing(_name: str) -> _Silence:
        raise VoiceMissing(Msg("the speech engine espeak-ng is not installed: make voice (or apt-get install espeak-ng) installs it"))

    speaker = Speaker(folder=tmp_path, make_voice=missing, say=said.append, lang="de").start()
    speaker.close()
    assert said == [
        f"upref: --speak nach {tmp_path}: die Sprachausgabe espeak-ng ist nicht installiert: make voice "
        "(oder apt-get install espeak-ng) installiert sie; das Spiel geht stumm weiter."
    ]


def test_demo_and_watch_take_lang_and_say_their_help_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    from upref.commands import demo, watch

    for main, words in ((demo.main, "ein ganzes Spiel auf einem simulierten Brett"), (watch.main, "Zeigt die Ereignisse")):
        lang_option.use_lang("de")  # as `upref` does from the command line before the command's parser
        with pytest.raises(SystemExit):
            main(["--lang", "de", "--help"])
        helped = capsys.readouterr().out
        assert words in helped and "Optionen:" in helped and "diese Hilfe zeigen und beenden" in helped
