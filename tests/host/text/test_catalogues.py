"""The catalogues against the code: every key the code uses is in its template, every language's
entry keeps its key's named gaps, and German has every key."""

from __future__ import annotations

import string
from importlib.resources.abc import Traversable

import pytest
from babel.messages.pofile import read_po
from upref.text import catalogue
from upref.text.extract import main as extract


def test_the_templates_say_what_the_code_says() -> None:
    assert extract(["--check"]) == 0, "a template is stale: run make messages"


def _gaps(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", [c for c in catalogue.available() if c != catalogue.ENGLISH])
def test_each_entry_keeps_its_keys_named_gaps(lang: str) -> None:
    found = catalogue.language(lang)
    assert found is not None
    wrong = [k for k, t in found.singular.items() if _gaps(t) != _gaps(k)]
    wrong += [k for k, forms in found.plural.items() for f in forms if _gaps(f) - ({"n"} | _gaps(k))]
    assert not wrong, f"{lang}: entries whose gaps differ from their key's: {wrong}"


def _where(folder: object) -> str:
    return str(folder).split("upref/", 1)[-1]


@pytest.mark.parametrize("folder", catalogue.locale_dirs(), ids=_where)
def test_german_has_every_key(folder: Traversable) -> None:
    template = read_po(folder.joinpath(catalogue.TEMPLATE).open("rb"))
    keys = [m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id]
    german = catalogue.language("de")
    assert german is not None
    lacking = [k for k in keys if k not in german.singular and k not in german.plural]
    assert not lacking, f"{_where(folder)}: German lacks {len(lacking)} of {len(keys)}: {lacking[:20]}"


def test_upref_says_how_complete_german_is() -> None:
    assert catalogue.completeness("de").percent == 100
