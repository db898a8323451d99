"""Upturn's tile catalogue: the packaged default, the validator's refusals (each named), the
items `upref enroll upturn` walks through, and an enrolment of all 106 tiles."""

from __future__ import annotations

import copy
import io
import json
import queue
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from upref.commands import enroll
from upref.games.upturn.tiles import ACTION_COUNTS, Catalogue, load_catalogue, parse_catalogue
from upref.link.notices import LinkItem
from upref.link.protocol import CardArrived, CardLeft, Ok
from upref.registry import find_game
from upref.store.tags import TagBook

CAT = load_catalogue()
DATA: dict[str, Any] = CAT.to_dict()
RULEBOOK_NUMBERS = (4, 9, 20, 22, 24, 32, 36, 40, 48, 54, 63, 64, 71, 81, 86)


def test_the_default_set_is_the_rulebooks_106_tiles() -> None:
    assert len(CAT) == 106
    numbered = CAT.numbered()
    assert len(numbered) == 80 and len({t.number for t in numbered}) == 80
    assert {k: sum(1 for t in CAT if t.action == k) for k in ACTION_COUNTS} == {
        "up": 6, "down": 6, "updown": 6, "skip": 3, "doubleskip": 3, "joker": 2,
    }
    assert [t.number for t in numbered if t.twin] == [11, 22, 33, 44, 55, 66, 77, 88, 99]
    assert [t.number for t in numbered if t.penalty] == [7, 17, 27, 37, 47, 57, 67, 87, 97]
    assert all(t.id == f"N{t.number}" for t in numbered)
    assert {t.number for t in numbered} >= set(RULEBOOK_NUMBERS)  # every example's tile exists
    missing = set(range(1, 100)) - {t.number for t in numbered}
    assert missing == {3, 5, 10, 15, 25, 30, 35, 45, 50, 60, 65, 70, 75, 80, 85, 90, 95, 96, 98}
    actions = [t.id for t in CAT if not t.numbered]
    assert actions[:2] == ["UP1", "UP2"] and actions[-2:] == ["JOKER1", "JOKER2"]
    assert {a.rstrip("0123456789") for a in actions} == {"UP", "DOWN", "UD", "SKIP", "DSKIP", "JOKER"}


def broken(change: Callable[[list[dict[str, Any]]], None]) -> str:
    data = copy.deepcopy(DATA)
    change(data["tiles"])
    with pytest.raises(ValueError) as info:
        parse_catalogue(data, source="test")
    return str(info.value)


def tile(tiles: list[dict[str, Any]], tid: str) -> dict[str, Any]:
    return next(t for t in tiles if t["id"] == tid)


def test_the_validator_checks_the_action_counts() -> None:
    text = broken(lambda ts: tile(ts, "JOKER2").update(action="skip"))
    assert "4 Skip tiles, but a set has 3" in text and "1 Joker tiles, but a set has 2" in text


def test_the_validator_checks_twins_are_multiples_of_eleven() -> None:
    text = broken(lambda ts: tile(ts, "N42").update(twin=True))
    assert "N42 (42) is marked Twin, but Twin tiles are multiples of 11" in text


def test_the_validator_refuses_a_tile_both_twin_and_penalty() -> None:
    text = broken(lambda ts: tile(ts, "N22").update(penalty=True))
    assert "N22 (22) is marked both Twin and Penalty" in text


def test_the_validator_counts_106_tiles() -> None:
    text = broken(lambda ts: ts.remove(tile(ts, "N42")))
    assert "79 numbered tiles, but a set has 80" in text and "105 tiles in all, but a set has 106" in text
    text = broken(lambda ts: ts.append({"id": "N100", "number": 42}))
    assert "81 numbered tiles" in text and "107 tiles in all" in text


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda ts: tile(ts, "N42").update(number=100), "N42 has the number 100; numbers are 1 to 99"),
        (lambda ts: tile(ts, "N42").update(id="N41"), "N41 appears twice"),
        (lambda ts: tile(ts, "UP1").update(action="sideways"), "UP1 has an unknown action 'sideways'"),
        (lambda ts: tile(ts, "UP1").update(penalty=True), "UP1 is an action tile"),
        (lambda ts: tile(ts, "N42").update(action="up"), "N42 must have either a number or an action"),
        (lambda ts: tile(ts, "N42").update(colour="red"), "N42 has unknown fields: colour"),
        (lambda ts: tile(ts, "N42").pop("id"), "has no id"),
    ],
)
def test_the_validator_names_each_bad_tile(change: Callable[[list[dict[str, Any]]], None], words: str) -> None:
    assert words in broken(change)


def test_a_catalogue_file_round_trips_and_a_broken_one_is_named(tmp_path: Path) -> None:
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(DATA))
    again = load_catalogue(path)
    assert again.tiles == CAT.tiles and isinstance(again, Catalogue)
    path.write_text("{not json")
    with pytest.raises(ValueError, match=rf"Upturn tile catalogue {path}: not JSON"):
        load_catalogue(path)


def test_the_items_upref_enroll_walks_through() -> None:
    items = find_game("upturn").items()
    assert len(items) == 106 and len({i for i, _ in items}) == 106
    labels = dict(items)
    assert labels["N42"] == "N42: tile 42"
    assert labels["N22"] == "N22: red Twin tile 22"
    assert labels["N37"] == "N37: tile 37 with the penalty symbol"
    assert labels["UP3"] == "UP3: Up tile (3 of 6)"
    assert labels["UD6"] == "UD6: Up & Down tile (6 of 6)"
    assert labels["DSKIP1"] == "DSKIP1: Double Skip tile (1 of 3)"
    assert labels["JOKER2"] == "JOKER2: Joker tile (2 of 2)"
    assert [i for i, _ in items][:3] == ["N1", "N2", "N4"]


class FakeLink:
    """The board as `upref enroll` sees it: the scripted taps, then Ctrl-C."""

    def __init__(self, uids: list[str]) -> None:
        self.events: queue.Queue[LinkItem] = _Script()
        for uid in uids:
            self.events.put(CardArrived(uid))
            self.events.put(CardLeft(uid))
        self.url = "fake://board"
        self.error = None

    def command(self, ftype: str, *args: str | int, timeout: float = 1.0, retries: int = 2) -> Ok:
        return Ok(0, ftype, "")

    def close(self) -> None:
        pass


class _Script(queue.Queue[LinkItem]):
    def get(self, block: bool = True, timeout: float | None = None) -> LinkItem:
        if block and self.empty():
            raise KeyboardInterrupt
        return super().get(block, timeout)


def test_upref_enroll_upturn_walks_through_all_106_tiles(tmp_path: Path) -> None:
    uids = [f"04A1B2{n:08X}" for n in range(106)]
    out = io.StringIO()
    with TagBook(tmp_path / "tags.sqlite") as reg:
        code = enroll.main(
            ["upturn", "--auto"], opener=lambda _port: FakeLink(uids), out=out, err=io.StringIO(),
            tag_book=reg,
        )
        assert code == 0
        items = reg.items("upturn")
        assert len(items) == 106 and items["N1"] == uids[0] and items["JOKER2"] == uids[-1]
        text = out.getvalue()
        assert "0 of 106 enrolled.\nTap N1: tile 1" in text
        assert "Tap N22: red Twin tile 22" in text and "Tap UP1: Up tile (1 of 6)" in text
        assert "All 106 upturn tiles are enrolled." in text and " card" not in text
        listing = io.StringIO()
        assert enroll.main(["upturn", "--list"], out=listing, tag_book=reg) == 0
        shown = listing.getvalue()
        assert shown.startswith("Upturn (upturn): 106 of 106 enrolled")
        assert "Nothing missing." in shown and "JOKER2: Joker tile (2 of 2)" in shown
