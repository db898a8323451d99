"""The tag registry: enrol, look up, forget, refusals, UID checks, persistence, catalogues."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from upref.store.tags import (
    GAMES,
    CatalogueUnavailable,
    ItemTaken,
    RegistryError,
    Tag,
    TagRegistry,
    TagTaken,
    catalogue_items,
    normalize_uid,
)

UID7 = "04A1B2C3D4E5F6"
UID7B = "04112233445566"
UID4 = "DEADBEEF"
UID10 = "0102030405060708090A"


@pytest.fixture
def reg(tmp_path: Path) -> Iterator[TagRegistry]:
    r = TagRegistry(tmp_path / "registry.sqlite")
    yield r
    r.close()


def test_an_enrolled_tag_is_found_and_forgotten(reg: TagRegistry) -> None:
    assert reg.lookup(UID7) is None
    result = reg.enroll(UID7, "updown", "T07")
    assert result.created and result.replaced is None
    assert result.tag == Tag(UID7, "updown", "T07")
    assert result.tag.enrolled_at.endswith("Z")
    assert reg.lookup(UID7) == Tag(UID7, "updown", "T07")
    assert reg.tag_of("updown", "T07") == Tag(UID7, "updown", "T07")
    assert reg.forget(UID7) == Tag(UID7, "updown", "T07")
    assert reg.lookup(UID7) is None
    assert reg.forget(UID7) is None


def test_a_tag_known_under_another_card_is_refused_naming_both(reg: TagRegistry) -> None:
    reg.enroll(UID7, "updown", "T07")
    with pytest.raises(TagTaken) as info:
        reg.enroll(UID7, "updown", "T13")
    message = str(info.value)
    assert f"tag {UID7} is already enrolled as updown T07" in message
    assert "T13" in message
    assert f"`upref enroll updown --forget {UID7}`" in message
    assert info.value.existing == Tag(UID7, "updown", "T07")
    assert isinstance(info.value, ValueError)
    assert reg.items("updown") == {"T07": UID7}


def test_a_tag_of_one_game_is_refused_for_another(reg: TagRegistry) -> None:
    reg.enroll(UID7, "whatsup", "W03")
    with pytest.raises(TagTaken, match=r"whatsup W03.*upref enroll whatsup --forget"):
        reg.enroll(UID7, "updown", "T01")


def test_the_same_tag_as_the_same_card_again_changes_nothing(reg: TagRegistry) -> None:
    first = reg.enroll(UID7, "updown", "T07")
    again = reg.enroll(UID7.lower(), "updown", "T07")
    assert not again.created
    assert again.tag.enrolled_at == first.tag.enrolled_at
    assert reg.tags("updown") == [Tag(UID7, "updown", "T07")]


def test_a_card_has_one_tag_and_a_new_one_needs_replace(reg: TagRegistry) -> None:
    reg.enroll(UID7, "updown", "T07")
    with pytest.raises(
        ItemTaken, match=rf"updown T07 is already enrolled with tag {UID7}.*--replace"
    ):
        reg.enroll(UID7B, "updown", "T07")
    assert reg.lookup(UID7B) is None
    result = reg.enroll(UID7B, "updown", "T07", replace=True)
    assert result.created and result.replaced == Tag(UID7, "updown", "T07")
    assert reg.lookup(UID7) is None
    assert reg.items("updown") == {"T07": UID7B}


def test_the_same_item_id_in_two_games_is_two_cards(reg: TagRegistry) -> None:
    reg.enroll(UID7, "updown", "X1")
    reg.enroll(UID7B, "whatsup", "X1")
    assert reg.items("updown") == {"X1": UID7}
    assert reg.items("whatsup") == {"X1": UID7B}


@pytest.mark.parametrize(
    ("text", "uid"),
    [
        ("04a1b2c3d4e5f6", UID7),
        ("04:A1:B2:C3:D4:E5:F6", UID7),
        ("04 a1 b2 c3 d4 e5 f6", UID7),
        ("de-ad-be-ef", UID4),
        (UID10, UID10),
    ],
)
def test_uids_are_normalised_to_upper_case_hex(text: str, uid: str) -> None:
    assert normalize_uid(text) == uid


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("04A1B2C3D4E5", "12 hex digits"),  # 6 bytes
        ("DEADBEE", "7 hex digits"),
        ("04A1B2C3D4E5F6G7", "hex digits 0-9 A-F"),
        ("", "hex digits 0-9 A-F"),
        ("T07", "hex digits 0-9 A-F"),
    ],
)
def test_a_malformed_uid_is_refused_with_what_a_uid_is(
    reg: TagRegistry, text: str, why: str
) -> None:
    with pytest.raises(RegistryError, match=why) as info:
        reg.enroll(text, "updown", "T01")
    assert repr(text) in str(info.value)
    if text:
        assert "4, 7 or 10 bytes" in str(info.value) or "e.g." in str(info.value)
    with pytest.raises(RegistryError):
        reg.lookup(text)
    assert reg.tags() == []


def test_unknown_games_and_malformed_items_are_refused(reg: TagRegistry) -> None:
    with pytest.raises(RegistryError, match=r"unknown game 'chess'; the games are updown"):
        reg.enroll(UID7, "chess", "T01")
    with pytest.raises(RegistryError, match="not an item id"):
        reg.enroll(UID7, "updown", "T 07")
    with pytest.raises(RegistryError, match="not an item id"):
        reg.enroll(UID7, "updown", "")
    assert reg.tags() == []


def test_enrolments_persist_across_instances(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "registry.sqlite"
    with TagRegistry(path) as a:
        a.enroll(UID7, "updown", "T01")
        a.enroll(UID4, "updown", "T02")
    with TagRegistry(path) as b:
        assert b.lookup(UID4) == Tag(UID4, "updown", "T02")
        b.forget(UID7)
    with TagRegistry(path) as c:
        assert c.items("updown") == {"T02": UID4}


def test_two_open_registries_see_each_others_writes(tmp_path: Path) -> None:
    path = tmp_path / "registry.sqlite"
    with TagRegistry(path) as writer, TagRegistry(path) as reader:
        writer.enroll(UID7, "updown", "T01")
        assert reader.lookup(UID7) == Tag(UID7, "updown", "T01")
        with pytest.raises(TagTaken):
            reader.enroll(UID7, "updown", "T02")


def test_the_default_file_is_in_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UPREF_DATA_DIR", str(tmp_path / "data"))
    with TagRegistry() as reg:
        reg.enroll(UID7, "updown", "T01")
        assert reg.path == tmp_path / "data" / "registry.sqlite"
    assert (tmp_path / "data" / "registry.sqlite").is_file()


def test_a_file_that_is_not_a_registry_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "registry.sqlite"
    path.write_bytes(b"this is not an sqlite database, just text " * 50)
    with pytest.raises(RegistryError, match="cannot open the tag registry"):
        TagRegistry(path)


def test_missing_lists_the_unenrolled_items_in_order(reg: TagRegistry) -> None:
    reg.enroll(UID7, "updown", "T02")
    reg.enroll(UID4, "whatsup", "T01")  # another game's T01 does not count
    assert reg.missing("updown", ["T01", "T02", "T03"]) == ["T01", "T03"]
    default = reg.missing("updown")
    assert len(default) == 29 and default[:2] == ["T01", "T03"] and "T02" not in default


# --- catalogues ----------------------------------------------------------------------------


def test_the_updown_catalogue_is_the_thirty_task_cards_with_labels() -> None:
    items = catalogue_items("updown")
    assert [i for i, _ in items] == [f"T{n:02d}" for n in range(1, 31)]
    labels = dict(items)
    assert labels["T07"] == "T07: 2 shovels — black 3, red 1"
    assert labels["T13"] == "T13: 2 shovels — yellow 2, red 3"
    assert labels["T01"] == "T01: 1 shovel — red 1"


def test_the_whatsup_catalogue_follows_rulings() -> None:
    items = catalogue_items("whatsup")
    assert len(items) == 30
    labels = dict(items)
    # spot checks of the default catalogue: every pair of faces a card may carry (same count
    # and another colour, or same colour and another count) once, numbered by count then colour
    assert labels["W01"] == "W01: 1 red / 1 yellow"
    assert labels["W05"] == "W05: 1 red / 3 red"
    assert labels["W11"] == "W11: 1 green / 2 green"
    assert labels["W22"] == "W22: 2 green / 2 purple"
    assert labels["W30"] == "W30: 3 green / 3 purple"
    faces: Counter[str] = Counter()
    for _, label in items:
        a, b = label.split(": ")[1].split(" / ")
        faces.update([a, b])
        (n1, c1), (n2, c2) = a.split(), b.split()
        assert (n1 == n2) != (c1 == c2), f"{label} breaks the card rule"
    assert len(faces) == 12 and set(faces.values()) == {5}


def test_the_flipabird_catalogue_has_48_birds_and_12_specials() -> None:
    items = dict(catalogue_items("flipabird"))
    assert len(items) == 60
    assert items["R2c"] == "R2c: red, 2 birds, covered cage on the back"
    assert sum("open cage" in label for label in items.values()) == 30
    assert sum(i.startswith("S-") for i in items) == 12


@pytest.mark.parametrize("game", ["up", "upturn"])
def test_a_game_without_tag_ids_says_so(game: str) -> None:
    with pytest.raises(CatalogueUnavailable, match=rf"\({game}\) catalogue is not available yet"):
        catalogue_items(game)


def test_every_game_is_known_and_nothing_else() -> None:
    assert GAMES == ("updown", "upturn", "flipabird", "whatsup", "up")
    with pytest.raises(RegistryError, match="unknown game"):
        catalogue_items("monopoly")
