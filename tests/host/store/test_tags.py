"""The tag book: enrol, look up, forget, refusals, UID checks, persistence, catalogues."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from upref.registry import UnknownGame, find_game
from upref.store.tags import (
    ItemTaken,
    Tag,
    TagBook,
    TagBookError,
    TagTaken,
    check_game,
    normalize_uid,
)

UID7 = "04A1B2C3D4E5F6"
UID7B = "04112233445566"
UID4 = "DEADBEEF"
UID10 = "0102030405060708090A"


@pytest.fixture
def reg(tmp_path: Path) -> Iterator[TagBook]:
    r = TagBook(tmp_path / "tags.sqlite")
    yield r
    r.close()


def test_an_enrolled_tag_is_found_and_forgotten(reg: TagBook) -> None:
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


def test_a_tag_known_under_another_card_is_refused_naming_both(reg: TagBook) -> None:
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


def test_a_tag_of_one_game_is_refused_for_another(reg: TagBook) -> None:
    reg.enroll(UID7, "whatsup", "W03")
    with pytest.raises(TagTaken, match=r"whatsup W03.*upref enroll whatsup --forget"):
        reg.enroll(UID7, "updown", "T01")


def test_the_same_tag_as_the_same_card_again_changes_nothing(reg: TagBook) -> None:
    first = reg.enroll(UID7, "updown", "T07")
    again = reg.enroll(UID7.lower(), "updown", "T07")
    assert not again.created
    assert again.tag.enrolled_at == first.tag.enrolled_at
    assert reg.tags("updown") == [Tag(UID7, "updown", "T07")]


def test_a_card_has_one_tag_and_a_new_one_needs_replace(reg: TagBook) -> None:
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


def test_the_same_item_id_in_two_games_is_two_cards(reg: TagBook) -> None:
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
    reg: TagBook, text: str, why: str
) -> None:
    with pytest.raises(TagBookError, match=why) as info:
        reg.enroll(text, "updown", "T01")
    assert repr(text) in str(info.value)
    if text:
        assert "4, 7 or 10 bytes" in str(info.value) or "e.g." in str(info.value)
    with pytest.raises(TagBookError):
        reg.lookup(text)
    assert reg.tags() == []


def test_malformed_game_names_and_items_are_refused(reg: TagBook) -> None:
    with pytest.raises(TagBookError, match=r"not a game's name: 'Chess!'"):
        reg.enroll(UID7, "Chess!", "T01")
    with pytest.raises(TagBookError, match="not an item id"):
        reg.enroll(UID7, "updown", "T 07")
    with pytest.raises(TagBookError, match="not an item id"):
        reg.enroll(UID7, "updown", "")
    assert reg.tags() == []


def test_enrolments_persist_across_instances(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "tags.sqlite"
    with TagBook(path) as a:
        a.enroll(UID7, "updown", "T01")
        a.enroll(UID4, "updown", "T02")
    with TagBook(path) as b:
        assert b.lookup(UID4) == Tag(UID4, "updown", "T02")
        b.forget(UID7)
    with TagBook(path) as c:
        assert c.items("updown") == {"T02": UID4}


def test_two_open_registries_see_each_others_writes(tmp_path: Path) -> None:
    path = tmp_path / "tags.sqlite"
    with TagBook(path) as writer, TagBook(path) as reader:
        writer.enroll(UID7, "updown", "T01")
        assert reader.lookup(UID7) == Tag(UID7, "updown", "T01")
        with pytest.raises(TagTaken):
            reader.enroll(UID7, "updown", "T02")


def test_the_default_file_is_in_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UPREF_DATA_DIR", str(tmp_path / "data"))
    with TagBook() as reg:
        reg.enroll(UID7, "updown", "T01")
        assert reg.path == tmp_path / "data" / "tags.sqlite"
    assert (tmp_path / "data" / "tags.sqlite").is_file()


def test_a_file_that_is_not_a_registry_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "tags.sqlite"
    path.write_bytes(b"this is not an sqlite database, just text " * 50)
    with pytest.raises(TagBookError, match="cannot open the tag book"):
        TagBook(path)


def test_missing_lists_the_unenrolled_items_in_order(reg: TagBook) -> None:
    reg.enroll(UID7, "updown", "T02")
    reg.enroll(UID4, "whatsup", "T01")  # another game's T01 does not count
    assert reg.missing("updown", ["T01", "T02", "T03"]) == ["T01", "T03"]


# --- catalogues, through the game registry ------------------------------------------------


def test_the_updown_catalogue_is_the_thirty_task_cards_with_labels() -> None:
    items = find_game("updown").items()
    assert [i for i, _ in items] == [f"T{n:02d}" for n in range(1, 31)]
    labels = dict(items)
    assert labels["T07"] == "T07: 2 shovels — black 3, red 1"
    assert labels["T13"] == "T13: 2 shovels — yellow 2, red 3"
    assert labels["T01"] == "T01: 1 shovel — red 1"


def test_an_unknown_game_is_named_with_the_games_there_are() -> None:
    with pytest.raises(UnknownGame, match=r"unknown game 'monopoly': the games are updown"):
        find_game("monopoly")
    with pytest.raises(TagBookError, match="not a game's name"):
        check_game("Up And Down")  # the tag book itself checks only a name's form


# --- sharing as CSV ----------------------------------------------------------------------------


def test_a_club_shares_its_tags_as_csv(tmp_path: Path) -> None:
    import io

    with TagBook(tmp_path / "a.sqlite") as a, TagBook(tmp_path / "b.sqlite") as b:
        a.enroll(UID7, "updown", "T07")
        a.enroll(UID4, "updown", "T01")
        a.enroll(UID10, "whatsup", "W03")
        buf = io.StringIO()
        assert a.export_csv(buf, "updown") == 2
        lines = buf.getvalue().splitlines()
        assert lines[0] == "uid,game,item,enrolled_at" and len(lines) == 3
        b.enroll(UID7B, "updown", "T30")
        result = b.import_csv(lines)
        assert (result.added, result.unchanged, result.refused) == (2, 0, [])
        assert b.items("updown") == {"T07": UID7, "T01": UID4, "T30": UID7B}
        again = b.import_csv(lines)
        assert (again.added, again.unchanged) == (0, 2)


def test_an_import_reports_conflicts_by_line_and_refuses_a_malformed_file(tmp_path: Path) -> None:
    with TagBook(tmp_path / "r.sqlite") as reg:
        reg.enroll(UID7, "updown", "T02")
        lines = ["uid,game,item,enrolled_at", f"{UID7},updown,T07,", f"{UID4},updown,T08,"]
        result = reg.import_csv(lines)
        assert result.added == 1 and len(result.refused) == 1
        assert result.refused[0].startswith("line 2: tag 04A1B2C3D4E5F6 is already enrolled")
        with pytest.raises(TagBookError, match="first line must be the header"):
            reg.import_csv(["a,b,c", "x,y,z"])
        before = reg.tags()
        with pytest.raises(TagBookError, match="tag list line 3: not a tag UID"):
            reg.import_csv(["uid,game,item", f"{UID10},updown,T09", "XYZ,updown,T10"])
        assert reg.tags() == before  # all rows checked before anything is enrolled


def test_read_only_creates_nothing_and_a_missing_file_is_an_empty_registry(tmp_path: Path) -> None:
    """`upref play` only looks tags up: it opens the tag book read-only."""
    missing = tmp_path / "none" / "tags.sqlite"
    ro = TagBook(missing, read_only=True)
    assert ro.lookup(UID7) is None and ro.tags() == [] and ro.items("updown") == {}
    with pytest.raises(TagBookError, match="opened to read only"):
        ro.enroll(UID7, "updown", "T07")
    ro.close()
    assert not missing.parent.exists()
    path = tmp_path / "tags.sqlite"
    with TagBook(path) as rw:
        rw.enroll(UID7, "updown", "T07")
    before = path.read_bytes()
    with TagBook(path, read_only=True) as ro:
        assert ro.lookup(UID7) == Tag(UID7, "updown", "T07")
        with pytest.raises(TagBookError, match="opened to read only"):
            ro.forget(UID7)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tags.sqlite"]


def test_read_only_refuses_a_file_that_is_not_a_registry_untouched(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(TagBookError, match="is not an upref tag book"):
        TagBook(path, read_only=True)
    assert path.read_bytes() == before


def test_an_older_uprefs_tag_file_is_still_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tag book's file had another name (registry.sqlite) before: where only that file
    exists, it is the one used, so a club's enrolled deck is not left behind."""
    from upref.store.tags import default_path

    monkeypatch.setenv("UPREF_DATA_DIR", str(tmp_path))
    assert default_path() == tmp_path / "tags.sqlite"
    (tmp_path / "registry.sqlite").write_bytes(b"")
    assert default_path() == tmp_path / "registry.sqlite"
    (tmp_path / "tags.sqlite").write_bytes(b"")
    assert default_path() == tmp_path / "tags.sqlite"
