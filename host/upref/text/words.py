"""Sentences that read as their English and can be said in any language of the catalogue.

A sentence a person sees or hears is built as a `Msg`: a key (the English sentence with named
gaps, `"{name} drew a task card."`) and its arguments. A `Msg` *is* its English text (a `str`),
so logs, golden files and every comparison see exactly the English they always saw; a screen,
the page or the voice that speaks another language asks `in_lang(text, "de")` and gets the
catalogue's sentence with the same arguments, each argument itself said in that language.

`Plural` is a `Msg` whose key depends on a count (`"{n} shovel"` / `"{n} shovels"`, picked by
the language's own plural rule); `Joined` a list said with the language's "and"; `Mapped` a
sentence transformed after it is said (`lower_first`, a full stop added); adding two sentences
with `+` keeps both translatable. An f-string or `str.join` over a `Msg` gives plain English,
which `tests/host/text/` and the German walk of every game find.

This module is pure: the catalogues are read by `upref.text.catalogue`, named here only by the
function a sentence is said with.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from upref.text.codes import ENGLISH

__all__ = ["ENGLISH", "Joined", "Mapped", "Msg", "Plural", "Words", "in_lang", "join_words"]


HOUSE = "text"
"""The catalogue of the sentences written outside any game (`upref/text/locale/`)."""


def _template(key: str, many: str | None, n: int | None, lang: str, domain: str) -> str:
    """The template of `lang`'s catalogue for a key (the catalogues are read the first time a
    language other than English is asked for)."""
    from upref.text.catalogue import template

    return template(key, many, n, lang, domain)


def _caller_domain() -> str:
    """The catalogue of the code that makes a sentence: its game's ('games/updown') when it is
    written in a game's package, else the house's. Two games may say one English key in
    different words (German cases differ), so each key is looked up where it was written."""
    module = sys._getframe(2).f_globals.get("__name__", "")
    parts = module.split(".")
    if len(parts) > 2 and parts[0] == "upref" and parts[1] == "games":
        return f"games/{parts[2]}"
    return HOUSE


class Words(str):
    """Text for people that can be said in another language (`render`); as a `str` it is the
    English."""

    def render(self, lang: str) -> str:
        """The text in `lang` (English: the text itself)."""
        return str.__str__(self)

    def __add__(self, other: str) -> Words:  # type: ignore[override]
        return Concat((self, other))

    def __radd__(self, other: str) -> Words:
        return Concat((other, self))


def in_lang(text: object, lang: str) -> str:
    """`text` said in `lang`: a `Words` rendered there, anything else as it is (a name, an id,
    a number)."""
    if isinstance(text, Words):
        return str.__str__(text) if lang == ENGLISH else text.render(lang)
    return text if isinstance(text, str) else str(text)


def _fill(template: str, args: Mapping[str, Any], lang: str) -> str:
    if lang == ENGLISH:
        return template.format_map(args)
    return template.format_map({k: _arg_in(v, lang) for k, v in args.items()})


def _arg_in(value: Any, lang: str) -> Any:
    return value.render(lang) if isinstance(value, Words) else value


class Msg(Words):
    """A catalogue sentence: `Msg("{name} drew a task card.", name="Ann")`. The key is the
    English with `{named}` gaps (str.format's, format specs allowed); the arguments may be
    sentences themselves, said in the same language."""

    key: str
    args: dict[str, Any]
    domain: str

    def __new__(cls, key: str, /, **args: Any) -> Msg:
        return cls._made(key, args, _caller_domain())

    @classmethod
    def _made(cls, key: str, args: dict[str, Any], domain: str) -> Msg:
        self = super().__new__(cls, _fill(key, args, ENGLISH))
        self.key, self.args, self.domain = key, args, domain
        return self

    def again(self, **args: Any) -> Msg:
        """The same sentence of the same catalogue said with these arguments changed."""
        return Msg._made(self.key, {**self.args, **args}, self.domain)

    def render(self, lang: str) -> str:
        if lang == ENGLISH:
            return str.__str__(self)
        return _fill(_template(self.key, None, None, lang, self.domain), self.args, lang)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_msg, (self.key, self.args, self.domain))


def _rebuild_msg(key: str, args: dict[str, Any], domain: str = HOUSE) -> Msg:
    return Msg._made(key, args, domain)


class Plural(Words):
    """A catalogue sentence whose words follow a count: `Plural("{n} shovel", "{n} shovels",
    n=3)`; `n` is an argument like the others (the English picks `one` for 1, `many` else; each
    language its own forms)."""

    key: str
    many: str
    n: int
    args: dict[str, Any]
    domain: str

    def __new__(cls, one: str, many: str, /, n: int, **args: Any) -> Plural:
        return cls._made(one, many, {**args, "n": n}, _caller_domain())

    @classmethod
    def _made(cls, one: str, many: str, args: dict[str, Any], domain: str) -> Plural:
        n = args["n"]
        self = super().__new__(cls, _fill(one if n == 1 else many, args, ENGLISH))
        self.key, self.many, self.n, self.args, self.domain = one, many, n, args, domain
        return self

    def again(self, **args: Any) -> Plural:
        """The same sentence of the same catalogue said with these arguments (and count)."""
        return Plural._made(self.key, self.many, {**self.args, **args}, self.domain)

    def render(self, lang: str) -> str:
        if lang == ENGLISH:
            return str.__str__(self)
        return _fill(_template(self.key, self.many, self.n, lang, self.domain), self.args, lang)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_plural, (self.key, self.many, self.args, self.domain))


def _rebuild_plural(one: str, many: str, args: dict[str, Any], domain: str = HOUSE) -> Plural:
    return Plural._made(one, many, args, domain)


class Concat(Words):
    """Sentences and plain text one after the other, each said in the language asked for."""

    parts: tuple[str, ...]

    def __new__(cls, parts: Sequence[str]) -> Concat:
        flat: list[str] = []
        for part in parts:
            flat.extend(part.parts if isinstance(part, Concat) else (part,))
        self = super().__new__(cls, "".join(str.__str__(p) for p in flat))
        self.parts = tuple(flat)
        return self

    def render(self, lang: str) -> str:
        return "".join(in_lang(p, lang) for p in self.parts)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Concat, (self.parts,))


def join_words(separator: str, parts: Sequence[str]) -> Words:
    """`separator.join(parts)`, each part said in the language asked for (the separator is
    punctuation or a space: the same in every language)."""
    out: list[str] = []
    for i, part in enumerate(parts):
        if i:
            out.append(separator)
        out.append(part)
    return Concat(out)


class Joined(Words):
    """A list said with the language's 'and': 'Ann, Bob and Cy' / 'Ann, Bob und Cy'."""

    parts: tuple[str, ...]

    def __new__(cls, parts: Sequence[str]) -> Joined:
        self = super().__new__(cls, _and_join([str.__str__(p) for p in parts], " and "))
        self.parts = tuple(parts)
        return self

    def render(self, lang: str) -> str:
        said = [in_lang(p, lang) for p in self.parts]
        return _and_join(said, " " + in_lang(_AND, lang) + " ")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Joined, (self.parts,))


def _and_join(parts: Sequence[str], conjunction: str) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + conjunction + parts[-1]


class Mapped(Words):
    """A sentence changed after it is said, in every language alike (its first letter lowered,
    a full stop added): `Mapped(text, lower_first)`."""

    base: str
    change: Callable[[str], str]

    def __new__(cls, base: str, change: Callable[[str], str]) -> Mapped:
        self = super().__new__(cls, change(str.__str__(base)))
        self.base, self.change = base, change
        return self

    def render(self, lang: str) -> str:
        return self.change(in_lang(self.base, lang))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Mapped, (self.base, self.change))


_AND = Msg("and")
