"""The Up And Down task-card catalogue and its validator (Landau's theorem: a card is
achievable iff some tournament among the five colours gives its counts)."""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from upref.games.updown.cards import (
    COLOURS,
    PAIRS,
    is_achievable,
    landau,
    load_catalogue,
    parse_catalogue,
    validate_card,
)
from upref.games.updown.solver import N_ORIENTATIONS, analyse, counts_of, satisfying_set

# The default catalogue as designed, with each card's "orientations": how many of the 1024 board
# states satisfy it, counted when the catalogue was designed (not by the solver under test).
RULINGS_TABLE = {
    "T01": (1, "R1", 256), "T02": (1, "B2", 384), "T03": (1, "Y3", 256),
    "T04": (1, "W1", 256), "T05": (1, "K2", 384), "T06": (1, "R3", 256),
    "T07": (2, "K3 R1", 80), "T08": (2, "B2 Y2", 144), "T09": (2, "W3 B1", 80),
    "T10": (2, "Y1 K2", 96), "T11": (2, "R2 W2", 144), "T12": (2, "B3 K2", 96),
    "T13": (2, "Y2 R3", 96), "T14": (2, "W1 Y2", 96), "T15": (2, "K1 B3", 80),
    "T16": (3, "R2 B2 Y2", 56), "T17": (3, "W3 K1 R2", 32), "T18": (3, "B1 Y3 W2", 32),
    "T19": (3, "K3 R3 B1", 20), "T20": (3, "Y0 W2 K3", 10), "T21": (3, "R1 Y1 B4", 8),
    "T22": (3, "W1 K2 Y3", 32), "T23": (3, "B0 R3 K2", 10), "T24": (3, "Y2 W4 R1", 10),
    "T25": (4, "R2 B2 Y2 W2", 24), "T26": (4, "R4 B3 Y2 W1", 1), "T27": (4, "K3 W3 Y3 B1", 2),
    "T28": (4, "R0 B1 Y3 K3", 2), "T29": (4, "W4 K2 R1 B1", 4), "T30": (4, "Y1 R2 K2 W3", 14),
}  # fmt: skip

IMPOSSIBLE_3 = [(0, 1, 1), (0, 4, 4), (1, 4, 4), (2, 4, 4), (3, 4, 4), (4, 4, 4), (3, 3, 4)]
ACHIEVABLE_3 = [
    (0, 1, 2), (0, 1, 3), (0, 1, 4), (0, 2, 2), (0, 2, 3), (0, 2, 4), (0, 3, 3), (0, 3, 4),
    (1, 1, 1), (1, 1, 2), (1, 1, 3), (1, 1, 4), (1, 2, 2), (1, 2, 3), (1, 2, 4), (1, 3, 3),
    (1, 3, 4), (2, 2, 2), (2, 2, 3), (2, 2, 4), (2, 3, 3), (2, 3, 4), (3, 3, 3),
]  # fmt: skip
ACHIEVABLE_4 = [
    (0, 1, 2, 3), (0, 1, 2, 4), (0, 1, 3, 3), (0, 1, 3, 4), (0, 2, 2, 2), (0, 2, 2, 3),
    (0, 2, 2, 4), (0, 2, 3, 3), (0, 2, 3, 4), (0, 3, 3, 3), (1, 1, 1, 3), (1, 1, 1, 4),
    (1, 1, 2, 2), (1, 1, 2, 3), (1, 1, 2, 4), (1, 1, 3, 3), (1, 1, 3, 4), (1, 2, 2, 2),
    (1, 2, 2, 3), (1, 2, 2, 4), (1, 2, 3, 3), (1, 2, 3, 4), (1, 3, 3, 3), (2, 2, 2, 2),
    (2, 2, 2, 3), (2, 2, 2, 4), (2, 2, 3, 3),
]  # fmt: skip
SCORE_SEQUENCES = [
    (0, 1, 2, 3, 4), (0, 1, 3, 3, 3), (0, 2, 2, 2, 4), (0, 2, 2, 3, 3), (1, 1, 1, 3, 4),
    (1, 1, 2, 2, 4), (1, 1, 2, 3, 3), (1, 2, 2, 2, 3), (2, 2, 2, 2, 2),
]  # fmt: skip

DEFAULT_DATA: dict[str, Any] = json.loads(
    (
        Path(__file__).parents[4] / "host" / "upref" / "games" / "updown" / "data" / "cards.json"
    ).read_text(encoding="utf-8")
)


def all_partial_cards() -> list[dict[str, int]]:
    """Every card over any non-empty set of colours with counts 0..4."""
    out = []
    for k in range(1, 6):
        for colours in itertools.combinations(COLOURS, k):
            for counts in itertools.product(range(5), repeat=k):
                out.append(dict(zip(colours, counts, strict=True)))
    return out


# --- the default catalogue -----------------------------------------------------------------


def test_default_catalogue_matches_rulings() -> None:
    cat = load_catalogue()
    assert cat.impossible == ()
    assert cat.ids() == tuple(RULINGS_TABLE)
    for card in cat.cards:
        shovels, code, orientations = RULINGS_TABLE[card.id]
        assert (card.shovels, card.code) == (shovels, code)
        assert analyse(card).orientations == orientations, card.id  # the difficulty column
    by_shovels = [sum(c.shovels == s for c in cat.cards) for s in (1, 2, 3, 4)]
    assert by_shovels == [6, 9, 9, 6]
    assert all(len(c.counts) == 1 for c in cat.cards if c.shovels == 1)
    assert cat.card("T07").describe() == "3 black and 1 red"
    assert cat.card("T23").describe() == "no blue, 3 red and 2 black"


def test_pairs_are_the_edges_of_k5() -> None:
    assert list(PAIRS) == DEFAULT_DATA["pairs"]
    assert len({frozenset(p[2:]) for p in PAIRS}) == 10
    for c in COLOURS:
        assert sum(c in p[2:] for p in PAIRS) == 4


# --- Landau --------------------------------------------------------------------------------


def test_landau_matches_enumeration_of_all_1024_boards() -> None:
    vectors = {tuple(counts_of(m).values()) for m in range(N_ORIENTATIONS)}
    assert len(vectors) == 291
    assert sorted({tuple(sorted(v)) for v in vectors}) == SCORE_SEQUENCES
    for v in itertools.product(range(5), repeat=5):
        assert landau(v) == (v in vectors), v


def test_validator_agrees_with_enumeration_for_every_possible_card() -> None:
    for counts in all_partial_cards():
        reason = validate_card(counts, "T99")
        assert (reason is None) == bool(satisfying_set(counts)), (counts, reason)
        assert is_achievable(counts) == (reason is None)
        if reason is not None:  # always explained by a set of colours, never the fallback
            assert reason.startswith("T99 asks for ") and "no board shows that" not in reason


def _classify(k: int) -> tuple[set[tuple[int, ...]], set[tuple[int, ...]]]:
    ok, bad = set(), set()
    for counts in all_partial_cards():
        if len(counts) == k:
            key = tuple(sorted(counts.values()))
            (ok if validate_card(counts) is None else bad).add(key)
    assert not ok & bad  # colours are symmetric: the multiset decides
    return ok, bad


def test_one_and_two_colour_cards() -> None:
    ok1, bad1 = _classify(1)
    assert ok1 == {(n,) for n in range(5)} and not bad1
    ok2, bad2 = _classify(2)
    assert bad2 == {(0, 0), (4, 4)}
    assert len(ok2) == 15 - 2


def test_three_colour_cards_as_rulings_lists_them() -> None:
    ok, bad = _classify(3)
    assert ok == set(ACHIEVABLE_3)
    assert {b for b in bad if b[:2] != (0, 0)} == set(IMPOSSIBLE_3)
    assert {b for b in bad if b[:2] == (0, 0)} == {(0, 0, x) for x in range(5)}


def test_four_colour_cards_exactly_27_achievable() -> None:
    ok, _ = _classify(4)
    assert ok == set(ACHIEVABLE_4) and len(ok) == 27


def test_five_colour_cards_only_score_sequences() -> None:
    ok, _ = _classify(5)
    assert ok == set(SCORE_SEQUENCES)


def test_rejection_reasons_in_words() -> None:
    assert validate_card({"Y": 0, "W": 0}, "T99") == (
        "T99 asks for yellow 0 and white 0: two colours cannot both show no mole, since their "
        "own pair always shows one of them"
    )
    assert validate_card({"R": 4, "B": 4}, "T98") == (
        "T98 asks for red 4 and blue 4: two colours can show at most 7 moles between them, "
        "since their own pair shows only one of them"
    )
    assert validate_card({"R": 0, "B": 1, "Y": 1}, "T97") == (
        "T97 asks for red 0, blue 1 and yellow 1 (2 in all): these 3 colours always show at "
        "least 3 moles between them, one for each of the 3 pairs joining two of them"
    )
    assert validate_card({"K": 3, "W": 3, "Y": 4}, "T96") == (
        "T96 asks for black 3, white 3 and yellow 4 (10 in all): these 3 colours can show at "
        "most 9 moles between them, since each of the 3 pairs joining two of them shows only one"
    )
    assert "five colours always show exactly 10" in (
        validate_card({"R": 2, "B": 2, "Y": 2, "W": 2, "K": 3}, "T95") or ""
    )
    assert validate_card({"R": 5}, "T94") == "T94 asks for red 5: each colour has only 4 moles"
    assert validate_card({"R": -1}, "T93") == "T93 asks for red -1: a count cannot be negative"
    assert "unknown colour 'G'" in (validate_card({"G": 1}, "T92") or "")
    assert validate_card({}, "T91") == "T91 names no colour"
    assert validate_card({"K": 3, "R": 1}) is None


# --- loading -------------------------------------------------------------------------------


def _data(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(DEFAULT_DATA)
    data.update(changes)
    return data


def test_loader_names_every_bad_card() -> None:
    data = _data()
    data["cards"][6]["counts"] = {"Y": 0, "W": 0}  # T07
    data["cards"][20]["counts"] = {"R": 4, "B": 4, "K": 1}  # T21
    with pytest.raises(ValueError) as info:
        parse_catalogue(data, source="deck.json")
    text = str(info.value)
    assert "deck.json" in text and "T07 asks for yellow 0 and white 0" in text
    assert "T21 asks for red 4 and blue 4" in text
    cat = parse_catalogue(data, strict=False)  # M-11: keep them aside instead
    assert [c.id for c, _ in cat.impossible] == ["T07", "T21"] and len(cat.cards) == 28


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["cards"].append(dict(d["cards"][0])), "T01 appears twice"),
        (lambda d: d["cards"][0].update(shovels=5), "T01 has 5 shovels"),
        (
            lambda d: d["cards"][0].update(counts={"R": 1, "B": 1}),
            "one-shovel cards show one colour",
        ),
        (lambda d: d["cards"][7].update(counts={"G": 1}), "T08 names an unknown colour 'G'"),
        (lambda d: d["cards"][7].update(counts={}), "T08 has no counts"),
        (lambda d: d["cards"].pop(), "5 cards with 4 shovel(s), but the deck declares 6"),
        (lambda d: d.update(pairs=d["pairs"][:9]), "K5"),
        (lambda d: d["pairs"].__setitem__(0, "P-RR"), "'P-RR' is not a pair"),
        (lambda d: d["pairs"].__setitem__(1, "P-RB"), "'P-RB' appears twice"),
        (lambda d: d.update(colours={"R": "red"}), "five colours"),
        (lambda d: d.update(cards=[]), "'cards' must be a non-empty list"),
    ],
)
def test_loader_rejects_malformed_data(change: Any, message: str) -> None:
    data = _data()
    change(data)
    with pytest.raises(ValueError, match="invalid") as info:
        parse_catalogue(data)
    assert message in str(info.value)


def test_load_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(DEFAULT_DATA), encoding="utf-8")
    assert load_catalogue(path).ids() == load_catalogue().ids()
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="not JSON"):
        load_catalogue(path)
