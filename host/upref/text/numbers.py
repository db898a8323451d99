"""Whole numbers as they are said, in each language upref speaks: 52 -> 'fifty-two',
'zweiundfünfzig'; -2 -> 'minus two', 'minus zwei'. From a million on, the digits."""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["number_words", "numbers_in_words"]

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def english_words(n: int) -> str:
    """7 -> 'seven', 52 -> 'fifty-two', -10 -> 'minus ten', 300 -> 'three hundred'."""
    if n < 0:
        return "minus " + english_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("-" + _ONES[ones] if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return _ONES[hundreds] + " hundred" + (" and " + english_words(rest) if rest else "")
    if n < 1_000_000:
        thousands, rest = divmod(n, 1000)
        tail = "" if not rest else (" and " if rest < 100 else " ") + english_words(rest)
        return english_words(thousands) + " thousand" + tail
    return str(n)


_EINS = (
    "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn "
    "fünfzehn sechzehn siebzehn achtzehn neunzehn"
).split()
_ZIG = "_ _ zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig".split()


def german_words(n: int) -> str:
    """7 -> 'sieben', 21 -> 'einundzwanzig', -2 -> 'minus zwei', 101 -> 'hunderteins',
    1000 -> 'tausend', 2000 -> 'zweitausend': written as one word, as German writes numbers."""
    if n < 0:
        return "minus " + german_words(-n)
    if n < 20:
        return _EINS[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return (("ein" if ones == 1 else _EINS[ones]) + "und" if ones else "") + _ZIG[tens]
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return _leading(hundreds) + "hundert" + (german_words(rest) if rest else "")
    if n < 1_000_000:
        thousands, rest = divmod(n, 1000)
        return _leading(thousands) + "tausend" + (german_words(rest) if rest else "")
    return str(n)


def _leading(n: int) -> str:
    """A count before 'hundert'/'tausend': nothing for one ('hundert', as it is said), else
    the number."""
    return "" if n == 1 else german_words(n)


_BY_LANGUAGE: dict[str, Callable[[int], str]] = {"en": english_words, "de": german_words}


def number_words(n: int, lang: str = "en") -> str:
    """`n` as said in `lang` (a language with no words of its own here: its digits)."""
    say = _BY_LANGUAGE.get(lang)
    return say(n) if say else str(n)


_NUMBER = re.compile(r"(?:(?<![\w.,])[-\u2212](?=\d)|(?<![\w.,\-\u2212]))\d+(?![\w]|[.,]\d)")


def numbers_in_words(text: str, lang: str = "en") -> str:
    """Every whole number standing alone in a sentence for the ear, in words ('higher than 52'
    -> 'higher than fifty-two', '-2' -> 'minus two'); numbers inside names (T05, R2c) stay."""
    return _NUMBER.sub(lambda m: number_words(int(m.group().replace("\u2212", "-")), lang), text)
