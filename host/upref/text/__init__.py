"""Words for people: lists joined with "and", plurals and counts, numbers for the ear. One copy,
used by every game's verdicts and every view.

Every sentence is a catalogue's (`upref.text.words`: `Msg`, `Plural`), so that it can be said in
any language upref has a catalogue for; these helpers keep a sentence translatable when they
join, count or change it. On plain text they work as they always did, in English.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from upref.text.codes import ENGLISH
from upref.text.numbers import english_words
from upref.text.numbers import numbers_in_words as _numbers_in_words
from upref.text.words import Joined, Mapped, Msg, Plural, Words, in_lang, join_words

__all__ = [
    "ENGLISH",
    "Msg",
    "Plural",
    "Words",
    "and_join",
    "count",
    "in_lang",
    "join_words",
    "lower_first",
    "number_words",
    "numbers_in_words",
    "plural",
    "said_count",
    "sentence",
    "upper_first",
]


def and_join(parts: Sequence[str]) -> str:
    """'Ann' / 'Ann and Bob' / 'Ann, Bob and Cy' ('' for none); with 'und' in German."""
    if len(parts) <= 1:
        return parts[0] if parts else ""
    return Joined(parts)


def plural(n: int, word: str, many: str | None = None) -> str:
    """`word` for one, else `many` (default: `word` + 's'). English only: a sentence with a count
    in it is a `Plural`, whose forms each language gives."""
    if n == 1:
        return word
    return many if many is not None else word + "s"


def count(n: int, word: str, many: str | None = None) -> str:
    """'1 shovel', '3 shovels', '0 tiles'. English only (see `plural`)."""
    return f"{n} {plural(n, word, many)}"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def _changed(text: str, change: Any) -> str:
    return Mapped(text, change) if isinstance(text, Words) else change(text)


def lower_first(text: str) -> str:
    """The text with its first letter in lower case ('Turn the pair' -> 'turn the pair'), in
    whatever language it is said."""
    return _changed(text, _lower_first)


def upper_first(text: str) -> str:
    """The text with its first letter in upper case, in whatever language it is said."""
    return _changed(text, _upper_first)


def sentence(text: str) -> str:
    """The text ending as a sentence: a full stop added unless it ends with one (or ! or ?)."""
    return _changed(text, _sentence)


def number_words(n: int) -> str:
    """A whole number as it is said in English: 7 -> 'seven', 52 -> 'fifty-two', -10 -> 'minus
    ten', 300 -> 'three hundred'; from a million on, its digits."""
    return english_words(n)


def said_count(n: int, word: str, many: str | None = None) -> str:
    """`count` for the ear: 'one shovel', 'three shovels', 'no tiles'. English only."""
    return f"{'no' if n == 0 else number_words(n)} {plural(n, word, many)}"


class _InWords(Words):
    """A sentence for the ear: its numbers said in words of the language it is said in."""

    base: str

    def __new__(cls, base: str) -> _InWords:
        self = super().__new__(cls, _numbers_in_words(str.__str__(base), ENGLISH))
        self.base = base
        return self

    def render(self, lang: str) -> str:
        return _numbers_in_words(in_lang(self.base, lang), lang)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_InWords, (self.base,))


def numbers_in_words(text: str) -> str:
    """Every whole number standing alone in a sentence for the ear, in words ('higher than 52'
    -> 'higher than fifty-two', '-2' -> 'minus two'); numbers inside names (T05, R2c) stay. A
    translatable sentence stays one: in German, 'minus zwei'."""
    if isinstance(text, Words):
        return _InWords(text)
    return _numbers_in_words(text, ENGLISH)
