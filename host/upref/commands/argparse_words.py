"""argparse's own words ("usage:", "options", "show this help message and exit", its errors)
in the language the command speaks.

argparse asks Python's `gettext` for each of its phrases, through the `_` and `ngettext` it
imported, under gettext's default domain, for which no language ships a catalogue. So the
phrases a person meets are keys of the house's catalogue here (`Msg`, `Plural`, so that `make
messages` extracts them and a translator translates them with the rest), and `speak(lang)` hands
argparse a `_` and an `ngettext` that say them in `lang` (English: argparse's own again). A phrase
not listed here, or that a newer Python words differently, stays as argparse has it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from upref.text import ENGLISH, Msg, Plural, in_lang

__all__ = ["PHRASES", "speak"]

PHRASES: tuple[Msg, ...] = (
    Msg("usage: "),
    Msg("positional arguments"),
    Msg("options"),
    Msg("show this help message and exit"),
    Msg("%(prog)s: error: %(message)s\n"),
    Msg("argument %(argument_name)s: %(message)s"),
    Msg("the following arguments are required: %s"),
    Msg("unrecognized arguments: %s"),
    Msg("not allowed with argument %s"),
    Msg("one of the arguments %s is required"),
    Msg("expected one argument"),
    Msg("expected at most one argument"),
    Msg("expected at least one argument"),
    Msg("ambiguous option: %(option)s could match %(matches)s"),
    Msg("invalid %(type)s value: %(value)r"),
    Msg("invalid choice: %(value)r (choose from %(choices)s)"),
    Msg("ignored explicit argument %r"),
)
"""argparse's phrases a person at the terminal meets, each the key of its translation. The
translation of "usage: " must keep its length (7): argparse cuts that many characters off the
usage line when it parses options between positional arguments."""
_PLURALS = {("expected %s argument", "expected %s arguments")}
_BY_KEY = {m.key: m for m in PHRASES}
_ORIGINAL: tuple[Callable[[str], str], Callable[[str, str, int], str]] = (
    argparse._,  # type: ignore[attr-defined]
    argparse.ngettext,  # type: ignore[attr-defined]
)


def speak(lang: str) -> None:
    """argparse says its phrases in `lang` from now on (English: as it always did)."""
    if lang == ENGLISH:
        argparse._, argparse.ngettext = _ORIGINAL  # type: ignore[attr-defined]
        return
    gettext, ngettext = _ORIGINAL

    def said(text: str) -> str:
        found = _BY_KEY.get(text)
        return in_lang(found, lang) if found is not None else gettext(text)

    def said_n(one: str, many: str, n: int) -> str:
        if (one, many) in _PLURALS:
            return in_lang(Plural("expected %s argument", "expected %s arguments", n=n), lang)
        return ngettext(one, many, n)

    argparse._, argparse.ngettext = said, said_n  # type: ignore[attr-defined]
