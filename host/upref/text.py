"""Words for people: lists joined with "and", plurals and counts. One copy, used by every game's
verdicts and every view."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["and_join", "count", "lower_first", "plural"]


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
