"""What a German screen or voice must not hold: an English sentence.

Two nets. A sentence built as a catalogue's `Msg` whose German entry is missing is said in
English and noted in `upref.text.catalogue.MISSED`; text that never went through the catalogue
(an f-string, a plain string) is caught by its words: a line that holds English words that are
not German words too. Names (the players', the games' titles), rule ids and piece ids are not
sentences and are not looked at.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from upref.registry import titles
from upref.text import catalogue

ENGLISH_ONLY = frozenset(
    """the is are isn't your you must cannot can't with for from this that these has have
    were turn turns card cards pair pairs shovel shovels wins won winner player players draw drew
    tap tapped lift lifted game games score scores waiting next put take takes into onto until
    before again only every each one two three four five six seven eight nine ten yes its it's
    their they he she his her which what when where who why how would should could may might
    shall please board tile tiles bird birds tower round count points pile hand deck stack
    there here now then because shared nobody no""".split()
)
"""Words of English sentences that German does not use (a German word spelt the same, like
"was", "will", "hole", "not" or "after", is left out)."""

_WORD = re.compile(r"[^\W\d_][^\W\d_']*")
"""A word, of any letters: "höher" is one word, not "h" and "her"."""
_LABELS = (
    re.compile(r"\[[^\]\s]+ [^\]]+\]"),  # a verdict line's '[verboten hand]'
    re.compile(r"^\s*[A-ZÄÖÜ]{3,} [\w-]+:?(?=\s|$)"),  # the feed's 'VERBOTEN hand:'
)
"""A verdict's label with the rule id it names: the id ("hand", "count", "draw") stays as it is in
every language, so it is not looked at; nor is the board's own diagnostic, which a German line
quotes as the board sent it („no answer“)."""
_QUOTED = re.compile(r"„[^“]*“|'[\w-]+'")
"""The board's words quoted („no answer“), and an id in single quotes (a key's name, 'points')."""


def english_words(line: str, names: Iterable[str] = ()) -> list[str]:
    """The English-only words of `line`, its names (the players', rule ids such as "hand" or
    "draw", which stay as they are in every language) and the games' titles left out."""
    for label in (*_LABELS, _QUOTED):
        line = label.sub(" ", line)
    for name in sorted({*names, *titles().values()}, key=len, reverse=True):
        line = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", line)
    return [w for w in _WORD.findall(line) if w.lower() in ENGLISH_ONLY]


def still_english(lines: Iterable[str], names: Iterable[str] = ()) -> list[str]:
    """Each line that still holds English words, with them: '… [the, card]'."""
    names = tuple(names)
    found = []
    for line in lines:
        words = english_words(line, names)
        if words:
            found.append(f"{line!r}  [{', '.join(words)}]")
    return found


def missed(lang: str) -> list[str]:
    """The keys said in English so far because `lang`'s catalogue lacks them."""
    return sorted(key for code, key in catalogue.MISSED if code == lang)
