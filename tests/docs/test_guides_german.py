"""Every player's guide in `docs/games/` has its German twin, `<game>.de.md` (issue 33), and the
twin says the same things a player acts on: the same rule ids (a verdict's "[M-2]" can be looked
up in either language), the same commands to type, and a link each way between the two; the user
guide names every German guide."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "docs" / "games"
ENGLISH = sorted(p for p in GAMES.glob("*.md") if "." not in p.stem)
"""The English guides: `updown.md`, not a translation such as `updown.de.md`."""
RULING_ID = re.compile(r"\b[A-Z]-\d{1,2}\b")
TABLE_ID = re.compile(r"^\| (?:\*\*([A-Z]-\d+)\*\*|`([a-z-]+)`) \|", re.M)
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
SPAN = re.compile(r"`([^`]+)`")
COMMAND = re.compile(r"(?:upref|make|simctl) ")


def twin(english: Path) -> Path:
    return english.with_name(f"{english.stem}.de.md")


def rule_ids(text: str) -> set[str]:
    """Every ruling id named anywhere ("M-14") and the first column of every table: the rule
    words ("`draw`"), the keys ("`u`") and the options ("`--mole-mix`"), all typed or shown as is."""
    return set(RULING_ID.findall(text)) | {a or b for a, b in TABLE_ID.findall(text)}


def commands(text: str) -> set[str]:
    """What a reader types: the command lines of the code blocks (without their comments, which
    are translated) and the code spans that begin with `upref`, `make` or `simctl`."""
    lines = [line.split("#", 1)[0] for block in FENCE.findall(text) for line in block.splitlines()]
    spans = SPAN.findall(FENCE.sub("", text))
    found = {" ".join(s.split()) for s in [*lines, *spans]}
    return {c for c in found if COMMAND.match(c)}


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def both(english: Path) -> tuple[str, str]:
    """The English guide's text and its German twin's, failing with what to do when it is missing."""
    german = twin(english)
    if not german.is_file():
        pytest.fail(f"{german.relative_to(ROOT)} is missing: translate {english.relative_to(ROOT)} "
                    "into German beside it (issue 33)")
    return read(english), read(german)


def test_the_scan_finds_the_guides() -> None:
    assert len(ENGLISH) >= 5, f"only {len(ENGLISH)} English guides found in {GAMES}: the scan is broken"
    assert all(commands(read(p)) and rule_ids(read(p)) for p in ENGLISH), "no command or rule id read"


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: p.stem)
def test_the_twins_name_the_same_rule_ids(english: Path) -> None:
    en, de = map(rule_ids, both(english))
    assert (sorted(en - de), sorted(de - en)) == ([], []), (
        f"rule ids only in {english.name} (left) and only in {twin(english).name} (right): "
        "keep every id as it is when translating"
    )


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: p.stem)
def test_the_twins_give_the_same_commands(english: Path) -> None:
    en, de = map(commands, both(english))
    assert (sorted(en - de), sorted(de - en)) == ([], []), (
        f"commands only in {english.name} (left) and only in {twin(english).name} (right): "
        "a command is typed the same in every language"
    )


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: p.stem)
def test_the_twins_link_to_each_other(english: Path) -> None:
    german = twin(english)
    head_en, head_de = (text.split("\n## ", 1)[0] for text in both(english))
    assert f"]({german.name})" in head_en, f"{english.name}: link to {german.name} near the top"
    assert f"]({english.name})" in head_de, f"{german.name}: link back to {english.name} near the top"


def test_the_user_guide_names_every_german_guide() -> None:
    guide = read(ROOT / "docs" / "user-guide.md")
    unnamed = [p.name for p in sorted(GAMES.glob("*.de.md")) if f"](games/{p.name})" not in guide]
    assert unnamed == [], "docs/user-guide.md: link each German guide in its list of the guides"


def test_no_german_guide_without_its_english_one() -> None:
    orphans = [p.name for p in sorted(GAMES.glob("*.de.md")) if not p.with_name(f"{p.name[:-6]}.md").is_file()]
    assert orphans == [], f"German guides in {GAMES.relative_to(ROOT)} with no English guide beside them"
