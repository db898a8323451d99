"""The message catalogues: gettext `.po` files, read with Babel.

Each part of upref that says something keeps its sentences beside it: `upref/text/locale/` the
sentences of the house (the screens, the page, the commands), and each game's package its own
(`upref/games/<game>/locale/`), so a game stays one folder. A `locale/` folder holds the
template `messages.pot` (every key the code there uses, made by `make messages`) and one
`<lang>.po` a language, keyed by the English with its named gaps (`docs/translating.md` says
how a translator adds one). A sentence a catalogue lacks, or holds as fuzzy or empty, is said in
English: a partial catalogue falls back line by line. `completeness` says how much of the
templates a language has.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from upref.text.codes import ENGLISH

__all__ = [
    "MISSED",
    "Completeness",
    "Language",
    "available",
    "completeness",
    "language",
    "locale_dirs",
    "template",
    "template_keys",
]

DOMAIN = "upref"


@dataclass(frozen=True)
class Language:
    """One language's catalogues, read: their sentences (key -> template, plural key -> forms),
    all of them and each catalogue's own (by `domain`: 'text' the house's, 'games/<game>' a
    game's), and its plural rule (a count -> the index of the form)."""

    code: str
    name: str
    singular: dict[str, str]
    plural: dict[str, tuple[str, ...]]
    form: Callable[[int], int]
    domains: dict[str, tuple[dict[str, str], dict[str, tuple[str, ...]]]]


TEMPLATE = "messages.pot"


def locale_dirs() -> tuple[resources.abc.Traversable, ...]:
    """Every packaged `locale/` folder: the house's, then each game package's."""
    return tuple(folder for _, folder in _domains())


def _domains() -> tuple[tuple[str, resources.abc.Traversable], ...]:
    """Each catalogue's domain ('text', 'games/<game>') and its `locale/` folder."""
    found = [("text", resources.files("upref.text").joinpath("locale"))]
    games = resources.files("upref.games")
    for entry in sorted(games.iterdir(), key=lambda e: e.name):
        if entry.is_dir() and entry.joinpath("locale").is_dir():
            found.append((f"games/{entry.name}", entry.joinpath("locale")))
    return tuple(found)


def available() -> tuple[str, ...]:
    """The languages upref can speak: English and every language some catalogue has, in code
    order."""
    found = {
        entry.name.removesuffix(".po")
        for folder in locale_dirs()
        for entry in folder.iterdir()
        if entry.name.endswith(".po")
    }
    return (ENGLISH, *sorted(found - {ENGLISH}))


def _read(path: resources.abc.Traversable, locale: str | None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale, domain=DOMAIN)


@cache
def language(code: str) -> Language | None:
    """Every catalogue of `code` ('de') read as one, or None when upref has none for it."""
    paths = [(domain, d.joinpath(f"{code}.po")) for domain, d in _domains()]
    paths = [(domain, p) for domain, p in paths if p.is_file()]
    if code == ENGLISH or not paths:
        return None
    singular: dict[str, str] = {}
    plural: dict[str, tuple[str, ...]] = {}
    domains: dict[str, tuple[dict[str, str], dict[str, tuple[str, ...]]]] = {}
    catalog = None
    for domain, path in paths:
        catalog = _read(path, code)
        own: tuple[dict[str, str], dict[str, tuple[str, ...]]] = ({}, {})
        _take(catalog, *own)
        domains[domain] = own
        for key, text in own[0].items():
            singular.setdefault(key, text)
        for key, forms in own[1].items():
            plural.setdefault(key, forms)
    assert catalog is not None
    name = catalog.locale.get_display_name(code) if catalog.locale else code
    form = gettext.c2py(catalog.plural_expr)
    return Language(code, name or code, singular, plural, form, domains)


def _take(catalog: Catalog, singular: dict[str, str], plural: dict[str, tuple[str, ...]]) -> None:
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, (tuple, list)):
            forms = tuple(message.string or ())
            if forms and all(forms):
                plural[message.id[0]] = forms
        elif message.string:
            singular[message.id] = message.string


MISSED: set[tuple[str, str]] = set()
"""(language, key) of every sentence said in English because the language's catalogue lacks it
(what a test of a language's completeness reads; bounded by the number of keys)."""


def template(key: str, many: str | None, n: int | None, lang: str, domain: str = "text") -> str:
    """`lang`'s template for `key` (with `many`, the form for the count `n`), from the catalogue
    of the code that wrote it (`domain`), else the house's, else any; the English when none
    has it (noted in `MISSED`)."""
    found = language(lang)
    if found is None:
        MISSED.add((lang, key))
        return key if many is None or n == 1 else many
    own = found.domains.get(domain, ({}, {}))
    house = found.domains.get("text", ({}, {}))
    if many is None:
        text = own[0].get(key) or house[0].get(key) or found.singular.get(key)
        if text is None:
            MISSED.add((lang, key))
            return key
        return text
    forms = own[1].get(key) or house[1].get(key) or found.plural.get(key)
    if forms is None:
        MISSED.add((lang, key))
        return key if n == 1 else many
    return forms[min(found.form(n if n is not None else 0), len(forms) - 1)]


@dataclass(frozen=True)
class Completeness:
    """How much of the template a language has: `done` of `total` keys."""

    code: str
    name: str
    done: int
    total: int

    @property
    def percent(self) -> int:
        return 100 if not self.total else (100 * self.done) // self.total


def template_keys() -> tuple[str, ...]:
    """Every key the code uses, from the packaged templates (`locale/messages.pot`)."""
    keys: list[str] = []
    for folder in locale_dirs():
        if folder.joinpath(TEMPLATE).is_file():
            catalog = _read(folder.joinpath(TEMPLATE), None)
            keys.extend(m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id)
    return tuple(dict.fromkeys(keys))


def completeness(code: str) -> Completeness:
    """How complete `code`'s catalogue is against the template (English: always whole)."""
    keys = template_keys()
    found = language(code)
    if found is None:
        whole = code == ENGLISH
        return Completeness(
            code, "English" if whole else code, len(keys) if whole else 0, len(keys)
        )
    done = sum(1 for k in keys if k in found.singular or k in found.plural)
    return Completeness(code, found.name, done, len(keys))
