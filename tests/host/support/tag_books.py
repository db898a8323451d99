"""Real tag books for the table helpers, each in a temporary folder of its own, filled once per
test process: a game's default enrolments (every card of its catalogue) are written into a
template book the first time they are asked for, and each book after that starts as a copy of
that file. Every enrolment is its own committed transaction, so filling a book of a hundred cards
on a disk costs a hundred syncs; a copy costs one file written."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from upref.store.tags import TagBook

_TEMPLATES: dict[str, Path] = {}


def _folder(prefix: str) -> Path:
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, True)
    return Path(folder)


def filled_book(prefix: str, fill: Callable[[TagBook], None], path: Path | None = None) -> TagBook:
    """A tag book with what `fill` enrols: at `path` (enrolled there by `fill`), else a copy of
    this process's template for `prefix` (built by `fill` the first time) in a fresh folder."""
    if path is not None:
        book = TagBook(path)
        fill(book)
        return book
    template = _TEMPLATES.get(prefix)
    if template is None:
        template = _folder(prefix + "template-") / "tags.sqlite"
        with TagBook(template) as book:
            fill(book)
        _TEMPLATES[prefix] = template
    copy = _folder(prefix) / "tags.sqlite"
    shutil.copyfile(template, copy)
    return TagBook(copy)
