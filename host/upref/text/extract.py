"""`python -m upref.text.extract [--check] [--init LANG]`: the catalogues' templates made from the code
(`make messages`), and each language's catalogue brought up to date with them.

Every `Msg("…")` and `Plural("…", "…", n=…)` in the host package is a key. Each game's package
gets its own `locale/messages.pot` (its keys only), the house (everything else) gets
`upref/text/locale/messages.pot`; each `<lang>.po` beside a template then gains the new keys
(empty: said in English until translated) and marks the keys the code no longer uses as
obsolete. `--check` changes nothing and exits 1 naming each template that is not what the code
says (a key added or gone since `make messages`). `--init LANG` starts a new language: an empty
`LANG.po` beside every template (`docs/translating.md`).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

__all__ = ["KEYWORDS", "main", "templates"]

KEYWORDS = {"Msg": None, "Plural": (1, 2)}
"""The calls whose strings are keys: `Msg(key, ...)`, `Plural(one, many, n=...)`."""

PACKAGE = Path(__file__).resolve().parent.parent
HOUSE = PACKAGE / "text" / "locale"
_STAMP = datetime(2026, 1, 1, tzinfo=UTC)
"""The date every template and catalogue carries: a fixed one, so that `make messages` changes a
file only when its sentences change."""


def _owner(path: Path) -> Path:
    """The `locale/` folder a source file's keys go to: its game's, or the house's."""
    rel = path.relative_to(PACKAGE).parts
    if len(rel) > 2 and rel[0] == "games":
        return PACKAGE / "games" / rel[1] / "locale"
    return HOUSE


def _messages() -> Iterator[tuple[Path, int, str | tuple[str, ...], list[str]]]:
    method_map = [("**.py", "python")]
    keywords = {"Msg": None, "Plural": (1, 2)}
    for filename, lineno, message, comments, _context in extract_from_dir(
        str(PACKAGE), method_map, keywords=keywords, comment_tags=("TRANSLATORS:",)
    ):
        yield PACKAGE / filename, lineno, message, comments


def templates() -> dict[Path, Catalog]:
    """Each `locale/` folder with the template its code makes."""
    made: dict[Path, Catalog] = {}
    for path, lineno, message, comments in _messages():
        folder = _owner(path)
        catalog = made.setdefault(folder, Catalog(project="upref", fuzzy=False, creation_date=_STAMP))
        where = (str(path.relative_to(PACKAGE)), lineno)
        catalog.add(
            message, locations=[where], auto_comments=comments, flags=("python-brace-format",)
        )
    return made


def _written(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, omit_header=False, sort_output=True, no_location=True, width=100)
    return out.getvalue()


def _keys(data: bytes) -> list[object]:
    return sorted(str(m.id) for m in read_po(io.BytesIO(data)) if m.id)


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    check = "--check" in args
    new = args[args.index("--init") + 1] if "--init" in args[:-1] else None
    stale = []
    for folder, catalog in sorted(templates().items()):
        target = folder / "messages.pot"
        data = _written(catalog)
        old = target.read_bytes() if target.exists() else b""
        if check:
            if _keys(old) != _keys(data):
                stale.append(target)
            continue
        folder.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        if new is not None and not (folder / f"{new}.po").exists():
            _start(folder / f"{new}.po", new)
        for po in sorted(folder.glob("*.po")):
            _update(po, catalog)
    for target in stale:
        print(f"{target}: not what the code says; run make messages", file=sys.stderr)
    return 1 if stale else 0


def _start(po: Path, lang: str) -> None:
    catalog = Catalog(locale=lang, project="upref", fuzzy=False, creation_date=_STAMP)
    catalog.revision_date = _STAMP
    po.write_bytes(_written(catalog))


def _update(po: Path, template: Catalog) -> None:
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=po.stem)
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    catalog.creation_date = catalog.revision_date = _STAMP
    po.write_bytes(_written(catalog))
    print(
        f"{po}: {sum(1 for m in catalog if m.id and m.string)} of {sum(1 for m in catalog if m.id)} translated"
    )


if __name__ == "__main__":
    raise SystemExit(main())
