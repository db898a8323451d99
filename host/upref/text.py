"""Words for people: lists joined with "and", plurals and counts. One copy, used by every game's
verdicts and every view."""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["and_join", "count", "lower_first", "number_words", "numbers_in_words", "plural", "said_count"]


def and_join(parts: Sequence[str]) -> str:
    """'Ann' / 'Ann and Bob' / 'Ann, Bob and Cy' ('' for none)."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def plural(n: int, word: str, many: str | None = None) -> str:
    """`word` for one, else `many` (default: `word` + 's')."""
    if n == 1:
        return word
    return many if many is not None else word + "s"


def count(n: int, word: str, many: str | None = None) -> str:
    """'1 shovel', '3 shovels', '0 tiles'."""
    return f"{n} {plural(n, word, many)}"


def lower_first(text: str) -> str:
    """The text with its first letter in lower case ('Turn the pair' -> 'turn the pair')."""
    return text[:1].lower() + text[1:]


_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """A whole number as it is said: 7 -> 'seven', 52 -> 'fifty-two', -10 -> 'minus ten',
    300 -> 'three hundred'; from a million on, its digits."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("-" + _ONES[ones] if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return _ONES[hundreds] + " hundred" + (" and " + number_words(rest) if rest else "")
    if n < 1_000_000:
        thousands, rest = divmod(n, 1000)
        tail = "" if not rest else (" and " if rest < 100 else " ") + number_words(rest)
        return number_words(thousands) + " thousand" + tail
    return str(n)


def said_count(n: int, word: str, many: str | None = None) -> str:
    """`count` for the ear: 'one shovel', 'three shovels', 'no tiles'."""
    return f"{'no' if n == 0 else number_words(n)} {plural(n, word, many)}"


def numbers_in_words(text: str) -> str:
    """Every whole number standing alone in a sentence for the ear, in words ('higher than 52'
    -> 'higher than fifty-two', '-2' -> 'minus two'); numbers inside names (T05, R2c) stay."""
    return _NUMBER.sub(lambda m: number_words(int(m.group().replace("\u2212", "-"))), text)


_NUMBER = re.compile(r"(?:(?<![\w.,])[-\u2212](?=\d)|(?<![\w.,\-\u2212]))\d+(?![\w]|[.,]\d)")
