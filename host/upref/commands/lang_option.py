"""The `--lang LANG` option of the commands whose output is for the table (`upref play`, `upref
demo`, `upref watch`, ...), defined once: its choices (every language upref has a catalogue for),
its default from the environment as gettext reads it, and the one line said when the language
asked for cannot be spoken.

    ap = argparse.ArgumentParser()
    add_lang_option(ap)
    args = ap.parse_args(argv)
    lang = chosen_lang(args, "upref play")     # 'de', or 'en'; a line on stderr when it falls back

The environment: the first of LANGUAGE (a list, `de:en`), LC_ALL, LC_MESSAGES and LANG that is
set names the language ('de_DE.UTF-8' -> 'de'); C, POSIX or a language upref has no catalogue
for means English. Only a language asked for by name (`--lang`, or the environment naming one
upref lacks, e.g. `LANG=fr_FR.UTF-8`) is worth a line when it falls back; the C locale is not.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping

from upref.commands import argparse_words
from upref.text import ENGLISH, Msg, in_lang
from upref.text.catalogue import available

__all__ = [
    "ENV_ORDER",
    "add_lang_option",
    "argv_lang",
    "chosen_lang",
    "env_lang",
    "lang_of_locale",
    "said",
    "said_error",
    "use_lang",
]

ENV_ORDER = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The variables gettext reads for the language of messages, first one set wins."""
_PLAIN = frozenset({"", "c", "posix"})
_USED: list[str] = []
"""The language of this process's own messages, once chosen (`use_lang`)."""


def use_lang(lang: str) -> str:
    """Say this process's own messages (`said`), argparse's own words too, in `lang` from now
    on; returns it."""
    _USED[:] = [lang]
    argparse_words.speak(lang)
    return lang


def said(text: str) -> str:
    """A message of the command said in the process's language (`use_lang`; before one is
    chosen, the environment's)."""
    if not _USED:
        use_lang(env_lang()[0])
    return in_lang(text, _USED[0])


def said_error(exc: BaseException | str) -> str:
    """What an error says, as raised: its sentence (still a catalogue's, so said in the
    language asked for), or its text."""
    if isinstance(exc, str):
        return exc
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, str) else str(exc)


def argv_lang(argv: list[str], environ: Mapping[str, str] | None = None) -> str:
    """The language a command line asks for (`--lang de`, `--lang=de`), else the
    environment's; a language upref lacks counts as English (the command says so later)."""
    for i, word in enumerate(argv):
        value = word.split("=", 1)[1] if word.startswith("--lang=") else None
        if word == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        if value is not None:
            code = lang_of_locale(value)
            return code if code in available() else ENGLISH
    return env_lang(environ)[0]


def lang_of_locale(name: str) -> str:
    """A locale's language code: 'de_DE.UTF-8' -> 'de', 'de' -> 'de', 'C.UTF-8' -> 'c'."""
    return name.split(".", 1)[0].split("@", 1)[0].split("_", 1)[0].split("-", 1)[0].strip().lower()


def env_lang(environ: Mapping[str, str] | None = None) -> tuple[str, str | None]:
    """The language the environment asks for, and the one it named that upref has no catalogue
    for (None: it named one upref speaks, or only C/POSIX or nothing)."""
    env = os.environ if environ is None else environ
    known = available()
    for var in ENV_ORDER:
        value = env.get(var, "")
        if not value:
            continue
        names = (
            [lang_of_locale(v) for v in value.split(":")]
            if var == "LANGUAGE"
            else [lang_of_locale(value)]
        )
        for code in names:
            if code in known:
                return code, None
        wanted = next((c for c in names if c not in _PLAIN), None)
        return ENGLISH, wanted
    return ENGLISH, None


def add_lang_option(ap: argparse.ArgumentParser) -> None:
    """Give `ap` `--lang LANG` (`args.lang`: a code of `available()`, or None: the
    environment's)."""
    known = available()
    ap.add_argument(
        "--lang",
        type=lang_of_locale,
        metavar="LANG",
        help=said(
            Msg(
                "the language of the screens, the page and the voice: {langs} (default: from "
                "LANGUAGE, LC_ALL, LC_MESSAGES or LANG; `upref languages` lists them)",
                langs=", ".join(known),
            )
        ),
    )


def chosen_lang(
    args: argparse.Namespace, prog: str, environ: Mapping[str, str] | None = None
) -> str:
    """The language `args.lang` asks for (or else the environment): a code upref speaks, from
    now on that of the command's own messages too (`said`). When the one asked for by name is
    not one, a line on stderr says so and English is spoken."""
    asked = getattr(args, "lang", None)
    if asked is not None:
        if asked in available():
            return use_lang(str(asked))
        missing: str | None = asked
        lang = ENGLISH
    else:
        lang, missing = env_lang(environ)
    if missing is not None:
        print(_fallback_line(prog, missing, lang), file=sys.stderr, flush=True)
    return use_lang(lang)


def _fallback_line(prog: str, missing: str, lang: str) -> str:
    return in_lang(
        Msg(
            "{prog}: upref has no catalogue for the language {missing!r}, so it speaks English: "
            "the languages are {langs} (`upref languages`; docs/translating.md says how to add "
            "one)",
            prog=prog,
            missing=missing,
            langs=", ".join(available()),
        ),
        lang,
    )
