"""The Flip a Bird catalogue: the default deck as the rulings list it (ids a club's stickers
already carry), the validator refusing decks that break the counts, and `upref enroll`'s list."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest
from upref.games.flipabird.cards import load_catalogue, parse_catalogue
from upref.registry import find_game

CAT = load_catalogue()


def raw() -> dict[str, Any]:
    text = resources.files("upref.games.flipabird").joinpath("data/cards.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def test_the_default_deck_has_the_ids_an_earlier_upref_enrolled() -> None:
    birds = {f"{x}{n}{s}" for x in "BGRY" for n in (1, 2, 3) for s in "abcd"}
    specials = {
        "S-NC1", "S-NC2", "S-NB1", "S-NB2",
        "S-NOT-B", "S-NOT-R", "S-NOT-G", "S-NOT-Y",
        "S-DBL-G", "S-DBL-Y", "S-DBL-B", "S-DBL-R",
    }
    assert set(CAT.ids()) == birds | specials
    assert len(CAT.ids()) == 60


def test_bird_cards_colour_birds_and_back_follow_their_id() -> None:
    names = {"B": "blue", "G": "green", "R": "red", "Y": "yellow"}
    for card in CAT.cards:
        if not card.is_bird:
            continue
        letter, birds, suffix = card.id[0], int(card.id[1]), card.id[2]
        assert card.colour == letter and card.birds == birds
        assert card.back == ("open" if suffix in "ab" else "covered")
        assert card.label == (
            f"{card.id}: {names[letter]}, {birds} bird{'s' if birds > 1 else ''}, "
            f"{card.back} cage on the back"
        )
    assert CAT.card("R2c").label == "R2c: red, 2 birds, covered cage on the back"


def test_special_cards_kinds_colours_and_backs_are_the_rulings_table() -> None:
    want = {
        "S-NC1": ("no-specials", None, "open"),
        "S-NC2": ("no-specials", None, "covered"),
        "S-NB1": ("no-neighbours", None, "open"),
        "S-NB2": ("no-neighbours", None, "covered"),
        "S-NOT-B": ("colour-not", "B", "open"),
        "S-NOT-R": ("colour-not", "R", "open"),
        "S-NOT-G": ("colour-not", "G", "covered"),
        "S-NOT-Y": ("colour-not", "Y", "covered"),
        "S-DBL-G": ("colour-double", "G", "open"),
        "S-DBL-Y": ("colour-double", "Y", "open"),
        "S-DBL-B": ("colour-double", "B", "covered"),
        "S-DBL-R": ("colour-double", "R", "covered"),
    }
    got = {c.id: (c.kind, c.colour, c.back) for c in CAT.cards if c.is_special}
    assert got == want
    assert CAT.card("S-NB1").label == "S-NB1: Neighbour cards do not count, open cage on the back"
    assert CAT.card("S-DBL-R").face == "Red counts double"
    assert CAT.card("S-NOT-Y").face == "Yellow does not count"


def test_deck_counts_backs_and_birds() -> None:
    for colour in "BGRY":
        cards = [c for c in CAT.cards if c.is_bird and c.colour == colour]
        assert len(cards) == 12 and sum(c.birds for c in cards) == 24
    assert sum(1 for c in CAT.cards if c.back == "open") == 30
    assert sum(1 for c in CAT.cards if c.back == "covered") == 30
    kinds = [c.kind for c in CAT.cards if c.is_special]
    assert [kinds.count(k) for k in ("no-specials", "no-neighbours", "colour-not", "colour-double")] == [2, 2, 4, 4]


def test_tip_cards_one_red_and_one_green_per_seat() -> None:
    assert sorted((t.colour, t.seat) for t in CAT.tips) == sorted(
        (c, s) for c in ("red", "green") for s in range(1, 7)
    )
    assert CAT.tip("TIP-R3").label == "TIP-R3: red tip card of player 3"
    assert CAT.is_tip("TIP-G6") and not CAT.is_tip("R2c") and "TIP-G6" not in CAT


@pytest.mark.parametrize(("players", "limit"), [(3, 8), (4, 10), (5, 12), (6, 14)])
def test_the_row_limit_per_player_count(players: int, limit: int) -> None:
    assert CAT.limit(players) == limit


@pytest.mark.parametrize("players", [2, 7])
def test_a_player_count_outside_three_to_six_is_refused(players: int) -> None:
    with pytest.raises(ValueError, match=f"Flip a Bird is for 3 to 6 players, not {players}"):
        CAT.limit(players)


def _broken(change: str) -> dict[str, Any]:
    data = copy.deepcopy(raw())
    if change == "eleven green":
        data["birds"] = [b for b in data["birds"] if b["id"] != "G3d"]
    elif change == "no back":
        del data["birds"][0]["back"]
    elif change == "three neighbour cards":
        data["specials"].append({"id": "S-NB3", "kind": "no-neighbours", "colour": None, "back": "open"})
    elif change == "two blue doubles":
        for s in data["specials"]:
            if s["id"] == "S-DBL-R":
                s["colour"] = "B"
    elif change == "twice":
        data["birds"][1]["id"] = data["birds"][0]["id"]
    elif change == "tip seat":
        data["tips"][0]["seat"] = 2
    elif change == "no birds":
        data["birds"][0]["birds"] = 0
    elif change == "limits":
        del data["limits"]["6"]
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("eleven green", "11 green bird cards; a deck has 12 of each colour"),
        ("no back", "B1a has no back (open or covered), got None"),
        ("three neighbour cards", "3 special cards of kind no-neighbours; the deck has 2"),
        ("two blue doubles", "the colour-double cards must be one per colour, got B, B, G, Y"),
        ("twice", "B1a appears twice"),
        ("tip seat", "the red tip cards must be one per seat 1 to 6, got seats [2, 2, 3, 4, 5, 6]"),
        ("no birds", "B1a shows 0 birds; a bird card shows 1 or more"),
        ("limits", "'limits' must give the limit for 3 to 6 players, got [3, 4, 5]"),
    ],
)
def test_the_validator_names_what_is_wrong(change: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_catalogue(_broken(change), source="club.json")
    text = str(info.value)
    assert text.startswith("Flip a Bird catalogue club.json is invalid:")
    assert message in text


def test_a_catalogue_travels_in_a_log_and_reads_back_the_same() -> None:
    again = parse_catalogue(json.loads(json.dumps(CAT.to_dict())), source="game log")
    assert again.cards == CAT.cards and again.tips == CAT.tips and dict(again.limits) == dict(CAT.limits)


def test_enroll_walks_through_every_card_and_tip_card_with_its_printed_label() -> None:
    items = find_game("flipabird").items()
    assert len(items) == 72
    ids = [i for i, _ in items]
    assert ids[:60] == list(CAT.ids()) and ids[60:] == [t.id for t in CAT.tips]
    labels = dict(items)
    assert labels["R2c"] == "R2c: red, 2 birds, covered cage on the back"
    assert labels["S-NC2"] == "S-NC2: Special cards do not count, covered cage on the back"
    assert labels["TIP-G1"] == "TIP-G1: green tip card of player 1"
