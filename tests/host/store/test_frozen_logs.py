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
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from upref.registry import referee_for
from upref.store.replay import load_log, replay, verdict_dict

LOGS = Path(__file__).resolve().parents[2] / "golden" / "logs"
NAMES = sorted(p.name.removesuffix(".jsonl") for p in LOGS.glob("*.jsonl") if ".verdicts" not in p.name)
CORRECTED = {"updown_golden_session", "updown_random"}
"""The frozen logs whose verdicts issue 13 changed (several reasons at once)."""
CORRECTED_19 = {"updown_demo", "updown_golden_session", "updown_random"}
"""The frozen logs whose verdicts issue 19 (ruling M-14) and issue 20 (the words of M-1 and
M-2) changed: `NAME.verdicts.issue19.jsonl` beside the file before it, and `NAME.issue19.json`
listing the changed entries (a flip counted at once changes how many verdicts an entry gives,
so the note lists entries, not lines)."""

_SEVERAL = re.compile(r"The turn cannot end yet, for (\d+) reasons\. \(1\) (.+)")
_FIRST = re.compile(r"First (.+) The turn can end after that\.")


def test_the_frozen_logs_are_all_there() -> None:
    assert NAMES == ["updown_demo", "updown_golden_session", "updown_random"]
    assert {n for n in NAMES if (LOGS / f"{n}.issue13.json").exists()} == CORRECTED
    assert {n for n in NAMES if (LOGS / f"{n}.issue19.json").exists()} == CORRECTED_19


def _before_19(name: str) -> str:
    return f"{name}.verdicts.issue13.jsonl" if name in CORRECTED else f"{name}.verdicts.jsonl"


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
    want_file = f"{name}.verdicts.issue19.jsonl" if name in CORRECTED_19 else _before_19(name)
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


# --- issue 19 (M-14) and issue 20 (the words of M-1 and M-2) -----------------------------------

_M1_OLD = re.compile(
    r"The pair in hole (\d+) \((\w+) up\) was already turned this turn, and a turn needs three "
    r"different pairs: turn it back and choose another pair\."
)
_M1_NEW = re.compile(
    r"Hole (\d+) shows (\w+) now, but its pair was already turned this turn, and a turn needs "
    r"three different pairs: turn it back so that (\w+) is up again, and choose another pair\."
)
_FOURTH_OLD = re.compile(
    r"Three pairs are turned already \(holes ([\d, and]+)\): the pair in hole (\d+) \((\w+) up\) "
    r"may not be turned as well\. Turn it back and end the turn\."
)
_FOURTH_NEW = re.compile(
    r"Three pairs are turned already \(holes ([\d, and]+)\): hole (\d+) shows (\w+) now, but its "
    r"pair may not be turned as well\. Turn the pair in hole (\d+) back so that (\w+) is up "
    r"again, and end the turn\."
)
_M2_OLD = re.compile(
    r"The pair from hole (\d+) \((\w+) up\) went into hole (\d+), but a pair must go back into "
    r"its own molehill: put it back in hole (\d+)\."
)
_M2_NEW = re.compile(
    r"The pair from hole (\d+) went into hole (\d+) \((\w+) up now\), but a pair must go back "
    r"into its own molehill: put it back in hole (\d+)\."
)
_DEFERRED = re.compile(r"First (.+) Hole (\d+) is taken into account after that\.")
_FLIP = re.compile(r"Hole (\d+) turned: \w+ up \([123] of 3\)\..*")


def _by_entry(path: Path) -> dict[int, list[dict[str, Any]]]:
    entries: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for text in _lines(path):
        v = json.loads(text)
        entries[v["seq"]].append(v)
    return entries


def _same_but_words(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Issue 20: the same refusal (entry, kind, rule, correction), now saying what the hole
    shows (another colour than the one turning it back brings, for M-1) and what to do."""
    if {k: v for k, v in old.items() if k != "text"} != {k: v for k, v in new.items() if k != "text"}:
        return False
    if (a := _M1_OLD.fullmatch(old["text"])) and (b := _M1_NEW.fullmatch(new["text"])):
        return a[1] == b[1] and a[2] == b[3] != b[2] and old["rule"] == "M-1"
    if (a := _FOURTH_OLD.fullmatch(old["text"])) and (b := _FOURTH_NEW.fullmatch(new["text"])):
        return a[1] == b[1] and a[2] == b[2] == b[4] and a[3] == b[5] != b[3]
    if (a := _M2_OLD.fullmatch(old["text"])) and (b := _M2_NEW.fullmatch(new["text"])):
        return (a[1], a[3], a[4]) == (b[1], b[2], b[4]) and old["rule"] == "M-2"
    return False


@pytest.mark.parametrize("name", sorted(CORRECTED_19))
def test_issue19_changes_only_the_entries_the_note_lists_each_as_the_ruling_says(name: str) -> None:
    note = json.loads((LOGS / f"{name}.issue19.json").read_text(encoding="utf-8"))
    assert note["verdicts_file"] == _before_19(name)
    changed = {int(k): why for k, why in note["changed_entries"].items()}
    old = _by_entry(LOGS / note["verdicts_file"])
    new = _by_entry(LOGS / f"{name}.verdicts.issue19.jsonl")
    assert changed, "a corrected file with no changed entry is not needed"
    deferrals = [s for s, vs in old.items() if any(_DEFERRED.fullmatch(v["text"]) for v in vs)]
    first = min(deferrals, default=None)
    checked = 0
    apart = False  # a count has changed and the turn has not been undone or a game begun since
    for seq in sorted(set(old) | set(new)):
        o, n = old.get(seq, []), new.get(seq, [])
        where = f"{name} entry {seq}"
        if seq not in changed:
            assert n == o, f"{where} changed but the note does not list it"
            if any(v["rule"] == "undo" or v["text"].startswith("Game ") for v in o):
                apart = False
            continue
        assert n != o, f"{where}: listed, but it did not change"
        # nothing waits for a correction any more (M-14)
        assert not any("taken into account after that" in v["text"] for v in n), where
        assert not any("for the correction" in v["text"] for v in n), where
        if changed[seq] == "words":
            assert len(o) == len(n), where
            assert all(a == b or _same_but_words(a, b) for a, b in zip(o, n, strict=True)), where
            continue
        assert changed[seq] == "m14", where
        # a change of count can only follow a flip that waited for a correction before
        assert first is not None and seq >= first, where
        if apart:
            continue  # the game went on from another count: no verdict to compare it with
        apart = True
        # where the two agreed so far, the first change is a flip that waited for a correction
        assert any(_DEFERRED.fullmatch(v["text"]) for v in o), where
        for v in o:
            if (m := _DEFERRED.fullmatch(v["text"])) is None:
                continue
            # the flip that waited is judged at once: counted, or refused as a fourth
            hole = m[2]
            flips = [w for w in n if (f := _FLIP.fullmatch(w["text"])) and f[1] == hole]
            fourth = [w for w in n if w["rule"] == "M-1" and f"hole {hole} shows" in w["text"]]
            assert len(n) == 1 and (flips or fourth), where
            assert n[0]["kind"] == ("ok" if flips else "illegal"), where
            checked += 1
    assert checked or not deferrals, f"{name}: no flip that waited was compared"
