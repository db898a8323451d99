"""`upref languages`: the languages upref speaks, each with how complete its catalogue is.

    de  Deutsch  100% (812 of 812)

A language whose catalogue lacks sentences is still spoken: each missing sentence is said in
English (docs/translating.md says how to add one or fill it in). `--lang LANG` (and the
environment, LANG and LC_*) picks the one the commands speak.
"""

from __future__ import annotations

import argparse

from upref.commands.lang_option import add_lang_option, chosen_lang, said
from upref.text import Msg
from upref.text.catalogue import Completeness, available, completeness

__all__ = ["main", "table"]


def table(found: list[Completeness]) -> list[str]:
    """One line a language: its code, its name, and how much of the templates it has."""
    width = max((len(c.name) for c in found), default=0)
    return [
        said(
            Msg(
                "{code:<3} {name}  {percent:>3}% ({done} of {total})",
                code=c.code,
                name=c.name.ljust(width),
                percent=c.percent,
                done=c.done,
                total=c.total,
            )
        )
        for c in found
    ]


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="upref languages",
        description=said(
            Msg("List the languages upref speaks, each with how complete its catalogue is.")
        ),
    )
    add_lang_option(ap)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    chosen_lang(args, "upref languages")
    for line in table([completeness(code) for code in available()]):
        print(line)
    return 0
