"""Logs written before the game seam replay, through today's referee, to the very verdicts they
gave then (tests/golden/logs/README.md): saved games keep their meaning across refactors.

Where a later ruling changed a verdict on purpose, the old verdicts stay as they were and a
corrected file sits beside them (`NAME.verdicts.issue13.jsonl`), with a note of the lines that
changed and why (`NAME.issue13.json`). The replay must give the corrected file; the corrected
file must equal the old one on every other line; and each changed line must be exactly the
correction the issue asked for (checked below, not only listed)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from upref.registry import referee_for
from upref.store.replay import load_log, replay, verdict_dict

LOGS = Path(__file__).resolve().parents[2] / "golden" / "logs"
NAMES = sorted(p.name.removesuffix(".jsonl") for p in LOGS.glob("*.jsonl") if ".verdicts" not in p.name)
CORRECTED = {"updown_golden_session", "updown_random"}
"""The frozen logs whose verdicts issue 13 changed (several reasons at once)."""

_SEVERAL = re.compile(r"The turn cannot end yet, for (\d+) reasons\. \(1\) (.+)")
_FIRST = re.compile(r"First (.+) The turn can end after that\.")


def test_the_frozen_logs_are_all_there() -> None:
    assert NAMES == ["updown_demo", "updown_golden_session", "updown_random"]
    assert {n for n in NAMES if (LOGS / f"{n}.issue13.json").exists()} == CORRECTED


def _replayed(name: str) -> list[str]:
    info, entries = load_log(LOGS / f"{name}.jsonl")
    return [
        json.dumps(verdict_dict(r.entry.seq, v), ensure_ascii=False)
        for r in replay(info, entries, referee_for)
        for v in r.reply.verdicts
    ]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("name", NAMES)
def test_a_log_from_before_the_seam_replays_to_the_same_verdicts(name: str) -> None:
    got = _replayed(name)
    want_file = f"{name}.verdicts.issue13.jsonl" if name in CORRECTED else f"{name}.verdicts.jsonl"
    want = _lines(LOGS / want_file)
    assert len(got) == len(want)
    for number, (w, g) in enumerate(zip(want, got, strict=True), start=1):
        assert g == w, f"{want_file} line {number}"


@pytest.mark.parametrize("name", sorted(CORRECTED))
def test_the_corrected_verdicts_differ_from_the_frozen_ones_only_where_the_note_says(
    name: str,
) -> None:
    note = json.loads((LOGS / f"{name}.issue13.json").read_text(encoding="utf-8"))
    changed = {int(k): why for k, why in note["changed_lines"].items()}
    old = _lines(LOGS / f"{name}.verdicts.jsonl")
    new = _lines(LOGS / f"{name}.verdicts.issue13.jsonl")
    assert len(old) == len(new)
    assert changed, "a corrected file with no changed line is not needed"
    for number, (o, n) in enumerate(zip(old, new, strict=True), start=1):
        if number not in changed:
            assert n == o, f"{name}: line {number} changed but the note does not list it"
            continue
        assert n != o, f"{name}: the note lists line {number}, which did not change"
        assert "several reasons" in changed[number]
        _check_several_reasons(json.loads(o), json.loads(n), f"{name} line {number}")


def _check_several_reasons(old: dict[str, Any], new: dict[str, Any], where: str) -> None:
    """The old verdict named one outstanding correction ("First X The turn can end after
    that."); the new one names it first and every other reason after it, in the documented
    order, for the same entry, with the same kind and rule."""
    for key in ("seq", "kind", "rule", "seat"):
        assert new[key] == old[key], (where, key)
    first = _FIRST.fullmatch(old["text"])
    several = _SEVERAL.match(new["text"])
    assert first and several, where
    n = int(several.group(1))
    assert n >= 2, where
    parts = re.findall(r"\((\d)\) ([^\[]+) \[([^\]]+)\]\.", new["text"])
    assert [int(p[0]) for p in parts] == list(range(1, n + 1)), where
    # (1) is the correction the old verdict named, with its rule
    assert parts[0][1] == old["correction"].rstrip("."), where
    assert parts[0][2] == old["rule"], where
    # the documented order: corrections, then empty holes (M-4), then pairs to turn (M-1)
    rank = [
        0 if p[1].startswith(("Reseat", "Move", "Turn the pair")) else 1 if p[2] == "M-4" else 2
        for p in parts
    ]
    assert rank == sorted(rank), where
    assert new["correction"].startswith(old["correction"]), where
