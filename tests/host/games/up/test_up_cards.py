"""Up's catalogue: ten 13-card sets as data, the validator, the deck of a game, and what
`upref enroll up` walks through."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from upref.commands.enroll import list_tags, resolve_item
from upref.games.up.cards import load_catalogue, parse_catalogue
from upref.registry import find_game
from upref.store.tags import TagBook

FACES = [str(v) for v in range(1, 12)] + ["-2", "disposal"]


def data() -> dict[str, Any]:
    path = Path(__file__).resolve().parents[4] / "host" / "upref" / "games" / "up" / "data" / "cards.json"
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_packaged_catalogue_is_ten_complete_sets() -> None:
    cat = load_catalogue()
    assert cat.sets == tuple("ABCDEFGHIJ") and cat.max_players == 10
    assert len(cat.cards) == 130
    for s in cat.sets:
        assert sorted((c.face for c in cat.cards if c.set == s), key=FACES.index) == FACES
    assert cat.card("C7").value == 7 and cat.card("C7").face == "7"
    assert cat.card("J-2").kind == "minus2" and cat.card("AD").kind == "disposal"
    assert cat.source == "the packaged Up catalogue"


def test_a_game_deck_is_one_set_per_player() -> None:
    cat = load_catalogue()
    deck = cat.deck(cat.default_sets(3))
    assert len(deck) == 39 and {c[0] for c in deck} == {"A", "B", "C"}
    without = cat.deck("ABCD", minus2=False)
    assert len(without) == 48 and not any(cat.card(c).kind == "minus2" for c in without)
    assert len(cat.deck(cat.default_sets(10))) == 130
    with pytest.raises(ValueError, match="no set Z"):
        cat.deck("AZ")


def test_enrol_walks_through_every_card_set_by_set_with_labels_people_can_match() -> None:
    items = find_game("up").items()
    ids = [i for i, _ in items]
    assert len(ids) == 130 == len(set(ids))
    assert ids[:13] == [*(f"A{v}" for v in range(1, 12)), "A-2", "AD"]
    assert ids[13] == "B1" and ids[-1] == "JD"
    labels = dict(items)
    assert labels["A7"] == "A7: set A, 7"
    assert labels["B-2"] == "B-2: set B, the -2 card"
    assert labels["JD"] == "JD: set J, the disposal card (big arrows)"
    assert resolve_item("b-2", ids) == "B-2" and resolve_item("ad", ids) == "AD"
    assert resolve_item("7", ids) is None  # ten sevens: a bare number names none


def test_a_club_with_one_box_sees_its_four_sets_enrolled_and_the_rest_missing(tmp_path: Path) -> None:
    ids = [i for i, _ in find_game("up").items()]
    with TagBook(tmp_path / "r.sqlite") as reg:
        for n, item in enumerate(ids[:52]):
            reg.enroll(f"04AA{n:010X}", "up", item)
        out = io.StringIO()
        list_tags(reg, "up", out)
    text = out.getvalue()
    assert text.startswith("Up (up): 52 of 130 enrolled")
    assert "Missing (78):" in text and "E1: set E, 1" in text and "D7: set D, 7" in text.split("Missing")[0]


def test_the_catalogue_round_trips_as_data() -> None:
    cat = load_catalogue()
    again = parse_catalogue(cat.to_dict())
    assert again.sets == cat.sets and again.cards == cat.cards


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["cards"].pop(6), "set A has no 7 card"),
        (lambda d: d["cards"].__setitem__(7, {"id": "A8x", "set": "A", "kind": "number", "value": 7}),
         "set A has 2 7 cards (A7, A8x): a set has one of each"),
        (lambda d: d["cards"].append(dict(d["cards"][0])), "card A1 is listed twice"),
        (lambda d: d["cards"][0].__setitem__("id", "A 1"), "id 'A 1' must be 1 to 32 letters"),
        (lambda d: d["cards"][0].__setitem__("kind", "joker"), "card A1: kind 'joker' must be one of"),
        (lambda d: d["cards"][0].__setitem__("value", 12), "a number card's value must be 1 to 11"),
        (lambda d: d["cards"][11].__setitem__("value", 3), "card A-2: a -2 card has no value"),
        (lambda d: d["cards"][0].__setitem__("set", "Q"), "card A1: set 'Q' is not one of the sets"),
        (lambda d: d["sets"].__setitem__(1, {"letter": "a"}), "its letter must be one capital letter"),
        (lambda d: d["sets"].append({"letter": "A"}), "set A is listed twice"),
        (lambda d: d.update(sets=[{"letter": "A"}], cards=d["cards"][:13]), "Up needs one set per player, two at least"),
        (lambda d: d.update(sets={}), "'sets' must be a list"),
    ],
)
def test_the_validator_names_what_is_wrong(change: Any, message: str) -> None:
    d = copy.deepcopy(data())
    change(d)
    with pytest.raises(ValueError) as info:
        parse_catalogue(d, source="test.json")
    assert str(info.value).startswith("Up catalogue test.json: ")
    assert message in str(info.value)


def test_a_catalogue_file_that_is_not_json_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "cards.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match=r"Up catalogue .*cards.json: not JSON"):
        load_catalogue(bad)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(data()), encoding="utf-8")
    assert len(load_catalogue(good).cards) == 130
