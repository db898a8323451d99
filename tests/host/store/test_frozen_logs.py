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
from dataclasses import dataclass
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
CORRECTED_29 = {"updown_random"}
"""The frozen logs whose verdicts issue 29 (ruling M-15: what each pair owes, named once) changed:
`NAME.verdicts.issue29.jsonl` beside the issue 19 file, and `NAME.issue29.json` listing the
changed entries, each with a short reason."""

_SEVERAL = re.compile(r"The turn cannot end yet, for (\d+) reasons\. \(1\) (.+)")
_FIRST = re.compile(r"First (.+) The turn can end after that\.")


def test_the_frozen_logs_are_all_there() -> None:
    assert NAMES == ["updown_demo", "updown_golden_session", "updown_random"]
    assert {n for n in NAMES if (LOGS / f"{n}.issue13.json").exists()} == CORRECTED
    assert {n for n in NAMES if (LOGS / f"{n}.issue19.json").exists()} == CORRECTED_19
    assert {n for n in NAMES if (LOGS / f"{n}.issue29.json").exists()} == CORRECTED_29


def _before_19(name: str) -> str:
    return f"{name}.verdicts.issue13.jsonl" if name in CORRECTED else f"{name}.verdicts.jsonl"


def _before_29(name: str) -> str:
    return f"{name}.verdicts.issue19.jsonl" if name in CORRECTED_19 else _before_19(name)


def _now(name: str) -> str:
    """The verdicts file a log must replay to today."""
    return f"{name}.verdicts.issue29.jsonl" if name in CORRECTED_29 else _before_29(name)


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
    want_file = _now(name)
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


# --- issue 29 (M-15: what each pair owes, each thing named once) -------------------------------

_REASON = re.compile(r"\((\d+)\) (.+?) \[([^\]]+)\]\.(?= \(\d+\) |$)")
_MOVE = re.compile(r"Move the pair from hole (\d+) back into hole (\d+)")
_TURN_BACK = re.compile(r"Turn the pair in hole (\d+) back so that (\w+) is up again")
_RESEAT = re.compile(r"Reseat the pair in hole (\d+)")
_EMPTY = re.compile(
    r"Holes? ([\d, and]+) (?:is|are) empty: every molehill needs its pair before the turn can end"
)
_MORE = r"turn (one|two|three) more different pairs?"
_NONE_TURNED = (
    "No pair turned yet: every turn needs three different pairs turned, even when the card "
    "already matches"
)
_ONLY = re.compile(rf"Only ([12]) of 3 pairs turned: {_MORE}")
_COMING = re.compile(
    rf"(?:No pair turned yet|Only ([12]) of 3 pairs turned), ([123]) of 3 once the pairs? for "
    rf"holes? ([\d, and]+) (?:is|are) home the way (?:it is|they are) now: {_MORE}"
)
_WORDS = {"one": 1, "two": 2, "three": 3}
_NOTE_COLOUR = re.compile(
    r"colour: owed by the pairs? for holes? ([\d, and]+) \(M-1 after (?:its|their) M-2\)"
)
_NOTE_FLIPS = re.compile(
    r"flips: the pairs? for holes? ([\d, and]+) counts? once home; (\d) still to make, not (\d)"
)
_NOTE_OUT = re.compile(
    r"colour in hand: owed by the pair for hole (\d+), out while another pair sits there, with no "
    r"flip left for it"
)
_NOTE_IN_HAND = re.compile(
    r"in hand: the pair for hole (\d+) shows its counted colour already, no M-1; hole \1 empty \(M-4\)"
)


def _holes(text: str) -> list[int]:
    return [int(h) for h in re.findall(r"\d+", text)]


def _reasons(v: dict[str, Any], where: str) -> list[tuple[str, str]]:
    """The reasons a refused end of turn names, in order: (text, rule)."""
    if first := _FIRST.fullmatch(v["text"]):
        return [(first[1].rstrip("."), v["rule"])]
    several = _SEVERAL.match(v["text"])
    assert several, f"{where}: not a refused end of turn: {v['text']}"
    parts = _REASON.findall(v["text"].split(" reasons. ", 1)[1])
    assert [int(p[0]) for p in parts] == list(range(1, int(several[1]) + 1)), where
    assert v["rule"] == parts[0][2], where
    return [(p[1], p[2]) for p in parts]


@dataclass
class _Named:
    """A refused end of turn's reasons, sorted by what they ask."""

    moves: list[tuple[int, int]]  # M-2: (the hole the pair is in, its own hole)
    turns: list[int]  # M-1: the own hole of each pair to turn back
    homing: list[int]  # the turns named right after the pair's own M-2 (a pair in a wrong hole)
    reseats: list[int]
    empty: list[int]  # M-4
    turned: int  # flips counted
    coming: list[int]  # own holes of pairs whose way home is a flip, as the flips reason names them
    missing: int  # flips still to make

    @property
    def fixes(self) -> set[tuple[str, int]]:
        """The moves and reseats (which M-15 does not change: no pair is moved by a ruling)."""
        moves = {("move", a * 100 + b) for a, b in self.moves}
        return moves | {("reseat", h) for h in self.reseats}


def _flips(text: str, where: str) -> tuple[int, list[int], int] | None:
    """(flips counted, pairs counted once home, flips still to make) from a missing-flips
    reason, or None for another reason."""
    if text == _NONE_TURNED:
        return 0, [], 3
    if m := _ONLY.fullmatch(text):
        return int(m[1]), [], _WORDS[m[2]]
    if m := _COMING.fullmatch(text):
        turned, coming, more = int(m[1] or 0), _holes(m[3]), _WORDS[m[4]]
        assert int(m[2]) == turned + len(coming), where
        return turned, coming, more
    return None


def _named(reasons: list[tuple[str, str]], where: str, m15: bool = True) -> _Named:
    """What the reasons ask. With `m15`, they must follow M-15's order and name each thing
    once: the corrections in hole order by the hole each pair is in now (M-2 before M-1 for one
    pair, an M-1 of a pair out of every hole by its own hole), then the empty holes no
    correction fills (M-4), then the flips still missing; three flips in all, counted or coming
    home."""
    named = _Named([], [], [], [], [], 3, [], 0)
    keys: list[tuple[int, int]] = []
    stage = 0  # 0 corrections, 1 empty holes, 2 flips
    for i, (text, rule) in enumerate(reasons):
        if m := _MOVE.fullmatch(text):
            assert stage == 0 and rule in ("M-2", "undo") and m[1] != m[2], (where, text)
            named.moves.append((int(m[1]), int(m[2])))
            keys.append((int(m[1]), 0))
        elif m := _TURN_BACK.fullmatch(text):
            assert stage == 0 and rule in ("M-1", "undo", "draw"), (where, text)
            own = int(m[1])
            before = _MOVE.fullmatch(reasons[i - 1][0]) if i else None
            at = int(before[1]) if before and int(before[2]) == own else own
            named.turns.append(own)
            if at != own:
                named.homing.append(own)
            keys.append((at, 1))
        elif m := _RESEAT.fullmatch(text):
            assert stage == 0 and rule == "sensor", (where, text)
            named.reseats.append(int(m[1]))
            keys.append((int(m[1]), 0))
        elif m := _EMPTY.fullmatch(text):
            assert stage == 0 and rule == "M-4", (where, text)
            stage, named.empty = 1, _holes(m[1])
        else:
            flips = _flips(text, where)
            assert flips is not None and stage < 2 and rule == "M-1", (where, text)
            stage = 2
            named.turned, named.coming, named.missing = flips
    if m15:
        assert keys == sorted(keys), f"{where}: corrections out of hole order"
        _check_each_once(named, where)
    return named


def _check_each_once(named: _Named, where: str) -> None:
    """No hole is named twice for the same thing, an empty hole only where no correction fills
    it, and a pair that owes its hole and its colour is named M-2 first, right before its M-1
    (the key order above puts them together)."""
    froms, homes = [a for a, _ in named.moves], [b for _, b in named.moves]
    for holes in (froms, homes, named.turns, named.reseats, named.empty, named.coming):
        assert len(holes) == len(set(holes)), f"{where}: a hole named twice: {holes}"
    assert not set(froms) & set(named.reseats), where  # one hole holds one pair
    assert set(named.turns) & set(homes) == set(named.homing), f"{where}: M-1 not right after M-2"
    filled = set(froms) | set(homes) | set(named.turns) | set(named.reseats)
    assert not set(named.empty) & filled, f"{where}: a hole named empty that a correction fills"
    # a pair counted as coming home is not also told to turn back
    assert not set(named.coming) & set(named.turns), where
    assert set(named.coming) <= set(homes) | set(named.empty), where
    assert named.turned + len(named.coming) + named.missing == 3, f"{where}: three flips in all"


def _check_note(why: str, old: _Named, new: _Named, where: str) -> None:
    """The note's reason explains the whole change: colours owed by pairs in wrong holes
    (M-1 right after their M-2), a pair in hand already as the game has it (no M-1; its hole
    named empty), and flips counted once home; every move and reseat is as before."""
    assert new.fixes == old.fixes, f"{where}: M-15 moves no pair and reads no hole anew"
    added = [h for h in new.turns if h not in old.turns]
    dropped = [h for h in old.turns if h not in new.turns]
    colour = _NOTE_COLOUR.search(why)
    assert [h for h in added if h in new.homing] == (_holes(colour[1]) if colour else []), where
    # a pair out of every hole, whose hole another pair fills (named at its hole after that pair)
    out = _NOTE_OUT.search(why)
    assert [h for h in added if h not in new.homing] == ([int(out[1])] if out else []), where
    assert not out or int(out[1]) in [a for a, _ in new.moves], where
    homes = [b for _, b in new.moves]
    in_hand = _NOTE_IN_HAND.search(why)
    assert dropped == ([int(in_hand[1])] if in_hand else []), where
    assert [h for h in new.empty if h not in old.empty] == dropped, where
    assert not [h for h in old.empty if h not in new.empty], where
    assert not set(dropped) & {b for _, b in old.moves}, where  # that pair was in no wrong hole
    flips = _NOTE_FLIPS.search(why)
    told = (int(flips[2]), int(flips[3])) if flips else (old.missing, old.missing)
    assert (new.missing, old.missing) == told, where
    if flips:
        coming = _holes(flips[1])
        assert old.missing - new.missing == len(coming) and not old.coming, where
        assert set(coming) <= set(homes) - set(new.turns), where
        assert new.coming in ([], coming) and (new.coming or not new.missing), where
        assert old.turned == (new.turned if new.missing else 3 - len(coming)), where
    else:
        assert not new.coming and new.turned == old.turned, where


@pytest.mark.parametrize("name", sorted(CORRECTED_29))
def test_issue29_changes_only_the_entries_the_note_lists_each_as_m15_names_them(name: str) -> None:
    note = json.loads((LOGS / f"{name}.issue29.json").read_text(encoding="utf-8"))
    assert note["issue"] == 29 and note["verdicts_file"] == _before_29(name)
    assert note["corrected_file"] == f"{name}.verdicts.issue29.jsonl"
    changed = {int(k): why for k, why in note["changed_entries"].items()}
    assert changed, "a corrected file with no changed entry is not needed"
    old = _by_entry(LOGS / note["verdicts_file"])
    new = _by_entry(LOGS / note["corrected_file"])
    _, entries = load_log(LOGS / f"{name}.jsonl")
    inputs = {e.seq: e.input_dict() for e in entries}
    for seq in sorted(set(old) | set(new)):
        o, n = old.get(seq, []), new.get(seq, [])
        where = f"{name} entry {seq}"
        if seq not in changed:
            assert n == o, f"{where} changed but the note does not list it"
            continue
        assert n != o, f"{where}: listed, but it did not change"
        assert inputs[seq]["kind"] == "button" and inputs[seq]["pressed"], where
        assert len(o) == len(n), where
        for a, b in zip(o, n, strict=True):
            assert a["seq"] == b["seq"] == seq and a["kind"] == b["kind"] == "illegal", where
            if a == b:
                continue
            reasons = _reasons(b, where)
            fixes = [
                text
                for text, _ in reasons
                if _MOVE.fullmatch(text) or _TURN_BACK.fullmatch(text) or _RESEAT.fullmatch(text)
            ]
            assert b["correction"].startswith(" ".join(f"{f}." for f in fixes)), where
            before = _named(_reasons(a, where), where, m15=False)
            _check_note(changed[seq], before, _named(reasons, where), where)
