"""One person, one name: players are matched by name (case and spacing aside), and two
spellings of one person are merged by the names file or `--same`.

The names file (`data_dir()/names.txt`, or `--names FILE`) holds one person a line, the name to
show first: `Mum = Mama = Mother`; `#` starts a comment. `--same "Mum=Mama"` says the same for
one run. Without either, 'ann' and 'Ann ' are Ann (the spelling seen first is shown).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from upref.paths import data_dir
from upref.text import Msg, and_join

__all__ = ["NAMES_FILE", "MergeError", "Names", "default_names_file", "parse_same"]

NAMES_FILE = "names.txt"


class MergeError(ValueError):
    """A merge that cannot be: a line of the names file or a `--same` that is not
    `A = B`, or two merged names that sat at the same table (two people, not one)."""


def default_names_file() -> Path:
    """Where the names file lives unless `--names` says otherwise."""
    return data_dir(create=False) / NAMES_FILE


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def parse_same(text: str, where: str = "--same") -> tuple[str, ...]:
    """'Mum = Mama' -> ('Mum', 'Mama').

    :raises MergeError: for text that is not two names or more joined by '='.
    """
    names = tuple(" ".join(n.split()) for n in text.split("="))
    if len(names) < 2 or not all(names):
        raise MergeError(Msg("{where}: {text!r} is not two names joined by '=': write it as \"Mum=Mama\"",
                             where=where, text=text.strip()))
    return names


class Names:
    """The shown name of every spelling: merged groups first, then each name by its key."""

    def __init__(self, groups: Iterable[Sequence[str]] = ()) -> None:
        self._shown: dict[str, str] = {}
        self._seen: dict[str, str] = {}  # each spelling met, to its shown name
        for group in groups:
            for n in group:
                self._shown[_key(n)] = group[0]

    @classmethod
    def from_file(cls, path: Path, same: Iterable[str] = ()) -> Names:
        """The names file's groups (a missing file has none) and `--same`'s, these last.

        :raises MergeError: naming the file and line, or the `--same`, that is not a merge.
        """
        groups: list[tuple[str, ...]] = []
        try:
            lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
        except (OSError, UnicodeDecodeError) as exc:
            raise MergeError(Msg("cannot read the names file {path} ({exc}): fix it or give --names",
                                 path=str(path), exc=str(exc))) from None
        for number, line in enumerate(lines, start=1):
            text = line.split("#", 1)[0]
            if text.strip():
                groups.append(parse_same(text, Msg("{path}, line {number}", path=str(path), number=number)))
        groups.extend(parse_same(s) for s in same)
        return cls(groups)

    def shown(self, name: str) -> str:
        """The name shown for `name`: its group's first, or the first spelling seen."""
        known = self._seen.get(name)
        if known is None:
            known = self._seen[name] = self._shown.setdefault(_key(name), " ".join(name.split()))
        return known

    def mapping(self, names: Iterable[str]) -> dict[str, str]:
        """Each spelling of `names` to its shown name."""
        return {n: self.shown(n) for n in names}

    def check_table(self, players: Sequence[str], where: str) -> None:
        """:raises MergeError: when two players of one game are merged into one person."""
        shown = [self.shown(p) for p in players]
        for i, name in enumerate(shown):
            if name in shown[:i]:
                twins = [p for p, s in zip(players, shown, strict=True) if s == name]
                raise MergeError(Msg(
                    "{twins} sat at the same table ({where}), so they are two people: take them apart in "
                    "the names file or --same", twins=and_join(twins), where=where,
                ))
