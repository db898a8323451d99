"""The What's Up deck and its validator: the thirty cards of the default catalogue (every pair of
faces the card rule allows, once), the card rule, each face on exactly five sides, thirty cards;
and `upref enroll whatsup`'s list of them."""

from __future__ import annotations

import copy
import io
import itertools
import json
import queue
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from upref.commands import enroll
from upref.games.whatsup.cards import (
    COLOURS,
    COUNTS,
    Face,
    load_catalogue,
    parse_catalogue,
    parse_face,
)
from upref.link.errors import LinkError
from upref.link.notices import LinkItem
from upref.link.protocol import CardArrived, CardLeft, Ok
from upref.registry import find_game
from upref.store.tags import TagBook

DATA: dict[str, Any] = json.loads(
    (Path(__file__).parents[4] / "host/upref/games/whatsup/data/cards.json").read_text("utf-8")
)

# The deck as the rules' component table lists it (side a, side b), written out here by hand.
TABLE = {
    "W01": ("1 red", "1 yellow"), "W02": ("1 red", "1 green"), "W03": ("1 red", "1 purple"),
    "W04": ("1 red", "2 red"), "W05": ("1 red", "3 red"), "W06": ("1 yellow", "1 green"),
    "W07": ("1 yellow", "1 purple"), "W08": ("1 yellow", "2 yellow"), "W09": ("1 yellow", "3 yellow"),
    "W10": ("1 green", "1 purple"), "W11": ("1 green", "2 green"), "W12": ("1 green", "3 green"),
    "W13": ("1 purple", "2 purple"), "W14": ("1 purple", "3 purple"), "W15": ("2 red", "2 yellow"),
    "W16": ("2 red", "2 green"), "W17": ("2 red", "2 purple"), "W18": ("2 red", "3 red"),
    "W19": ("2 yellow", "2 green"), "W20": ("2 yellow", "2 purple"), "W21": ("2 yellow", "3 yellow"),
    "W22": ("2 green", "2 purple"), "W23": ("2 green", "3 green"), "W24": ("2 purple", "3 purple"),
    "W25": ("3 red", "3 yellow"), "W26": ("3 red", "3 green"), "W27": ("3 red", "3 purple"),
    "W28": ("3 yellow", "3 green"), "W29": ("3 yellow", "3 purple"), "W30": ("3 green", "3 purple"),
}  # fmt: skip


def test_the_default_deck_is_the_rulings_table() -> None:
    cat = load_catalogue()
    assert cat.ids() == tuple(f"W{n:02d}" for n in range(1, 31))
    assert {c.id: (str(c.a), str(c.b)) for c in cat} == TABLE


def test_the_deck_is_every_allowed_pair_of_faces_once() -> None:
    """The twelve faces, joined where the card rule lets them share a card, make 30 edges: the
    deck has each of them exactly once (18 same count, 12 same colour)."""
    faces = [Face(n, c) for n in COUNTS for c in COLOURS]
    allowed = {
        frozenset((a, b))
        for a, b in itertools.combinations(faces, 2)
        if (a.count == b.count) != (a.colour == b.colour)
    }
    deck = [frozenset((c.a, c.b)) for c in load_catalogue()]
    assert len(allowed) == 30 and sorted(deck, key=sorted) == sorted(allowed, key=sorted)
    same_count = sum(1 for c in load_catalogue() if c.a.count == c.b.count)
    assert same_count == 18
    sides = Counter(f for c in load_catalogue() for f in (c.a, c.b))
    assert set(sides.values()) == {5} and len(sides) == 12


def _with(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(DATA)
    change(data)
    return data


def test_the_validator_names_a_card_that_breaks_the_card_rule() -> None:
    def bad(d: dict[str, Any]) -> None:
        d["cards"][0]["b"] = "2 yellow"  # 1 red / 2 yellow: neither same count nor same colour

    with pytest.raises(ValueError) as info:
        parse_catalogue(_with(bad), source="test")
    text = str(info.value)
    assert "W01 (1 red / 2 yellow) breaks the card rule" in text
    # the swap also unbalances two faces
    assert "face 1 yellow is on 4 card sides" in text and "face 2 yellow is on 6 card sides" in text


def test_the_validator_names_every_face_not_on_five_sides() -> None:
    def twice(d: dict[str, Any]) -> None:
        d["cards"][1] = {"id": "W02", "a": "1 red", "b": "1 yellow"}  # a second 1 red / 1 yellow

    with pytest.raises(ValueError) as info:
        parse_catalogue(_with(twice))
    assert "face 1 yellow is on 6 card sides" in str(info.value)
    assert "face 1 green is on 4 card sides" in str(info.value)


def test_the_validator_wants_thirty_cards() -> None:
    with pytest.raises(ValueError, match="the deck has 29 cards; What's Up has 30"):
        parse_catalogue(_with(lambda d: d["cards"].pop()))


@pytest.mark.parametrize(
    ("card", "fault"),
    [
        ({"id": "W01", "a": "1 red", "b": "1 yellow"}, "W01 appears twice"),
        ({"id": "W02", "a": "4 red", "b": "1 yellow"}, "W02 side a: face '4 red': a face shows 1, 2 or 3 birds"),
        ({"id": "W02", "a": "1 blue", "b": "1 yellow"}, "the colours are red, yellow, green, purple"),
        ({"id": "W02", "a": "red", "b": "1 yellow"}, "not a face 'red'"),
        ({"a": "1 red", "b": "1 green"}, "card #2 has no id"),
        ("W02", "card #2 is not an object"),
    ],
)
def test_the_validator_names_a_malformed_card(card: Any, fault: str) -> None:
    def put(d: dict[str, Any]) -> None:
        d["cards"][1] = card

    with pytest.raises(ValueError) as info:
        parse_catalogue(_with(put))
    assert fault in str(info.value)


def test_a_catalogue_file_is_loaded_and_checked(tmp_path: Path) -> None:
    good = tmp_path / "deck.json"
    good.write_text(json.dumps(DATA), encoding="utf-8")
    assert load_catalogue(good).source == str(good)
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match="not JSON"):
        load_catalogue(broken)
    with pytest.raises(ValueError, match="'colours' must be red, yellow, green, purple"):
        parse_catalogue(_with(lambda d: d.update(colours=["red", "blue"])))


def test_faces_parse_and_print() -> None:
    assert parse_face("3 red") == Face(3, "red") and str(Face(2, "green")) == "2 green"
    card = load_catalogue().card("W05")
    assert card.side_of(Face(3, "red")) == 1 and card.face(0) == Face(1, "red")
    with pytest.raises(ValueError, match="has no side 2 red"):
        card.side_of(Face(2, "red"))


def test_enroll_walks_through_the_thirty_cards_with_both_sides_on_each_label() -> None:
    items = find_game("whatsup").items()
    assert [i for i, _ in items] == [f"W{n:02d}" for n in range(1, 31)]
    labels = dict(items)
    assert labels["W01"] == "W01: 1 red / 1 yellow"
    assert labels["W05"] == "W05: 1 red / 3 red"
    assert labels["W11"] == "W11: 1 green / 2 green"
    assert labels["W22"] == "W22: 2 green / 2 purple"
    assert labels["W30"] == "W30: 3 green / 3 purple"


# --- upref enroll whatsup ------------------------------------------------------------------------


class _Taps(queue.Queue[LinkItem]):
    """The scripted taps; once they run out, a blocking wait is Ctrl-C (the person stops)."""

    def get(self, block: bool = True, timeout: float | None = None) -> LinkItem:
        if block and self.empty():
            raise KeyboardInterrupt
        return super().get(block, timeout)


class _Link:
    def __init__(self, uids: list[str]) -> None:
        self.events: queue.Queue[LinkItem] = _Taps()
        for uid in uids:
            self.events.put(CardArrived(uid))
            self.events.put(CardLeft(uid))
        self.url = "fake://board"
        self.error: LinkError | None = None

    def command(self, ftype: str, *args: str | int, timeout: float = 1.0, retries: int = 2) -> Ok:
        return Ok(0, ftype, "")

    def close(self) -> None:
        pass


def _enroll(reg: TagBook, *argv: str, uids: list[str] | None = None) -> tuple[int, str]:
    out = io.StringIO()
    code = enroll.main(
        ["whatsup", *argv],
        opener=lambda port: _Link(uids or []),
        input_fn=lambda prompt: "",
        out=out,
        err=out,
        tag_book=reg,
    )
    return code, out.getvalue()


def test_upref_enroll_whatsup_walks_the_deck_lists_it_and_shares_it_as_csv(tmp_path: Path) -> None:
    uids = [f"04C0FFEE{n:06X}" for n in range(1, 31)]
    with TagBook(tmp_path / "a.sqlite") as reg:
        code, out = _enroll(reg, "--auto", uids=uids[:3])
        assert code == 0
        assert "0 of 30 enrolled.\nTap W01: 1 red / 1 yellow\n" in out
        assert f"Enrolled W03: 1 red / 1 purple (tag {uids[2]})." in out
        assert "Stopped: 3 of 30 whatsup cards enrolled, all saved." in out
        assert reg.items("whatsup") == {"W01": uids[0], "W02": uids[1], "W03": uids[2]}
        code, out = _enroll(reg, "--auto", uids=uids[3:])
        assert code == 0 and len(reg.items("whatsup")) == 30
        code, out = _enroll(reg, "--list")
        assert code == 0 and out.startswith("What's Up (whatsup): 30 of 30 enrolled\n")
        assert f"  {uids[4]}        W05: 1 red / 3 red" in out
        csv = tmp_path / "deck.csv"
        assert _enroll(reg, "--export", str(csv))[0] == 0
    with TagBook(tmp_path / "b.sqlite") as other:
        code, out = _enroll(other, "--import", str(csv))
        assert code == 0 and other.items("whatsup") == reg_items(tmp_path / "a.sqlite")


def reg_items(path: Path) -> dict[str, str]:
    with TagBook(path) as reg:
        return reg.items("whatsup")
