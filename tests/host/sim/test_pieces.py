"""The simulated deck: every piece of every game carries a tag whose UID follows one documented
rule (upref.board.simtags), and `upref simctl tap PIECE` / `remove PIECE` take a piece by its
catalogue id as well as by UID, with a message that says what to type when an id names no piece
or several."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from numbered_tags import numbered_uid, numbered_uids
from upref import cli as upref_cli
from upref.board import simtags
from upref.board.simtags import Piece, PieceError, find_piece, looks_like_uid, sim_uid
from upref.commands import simctl
from upref.registry import games
from upref.sim import cli, verbs
from upref.sim.board import SimBoard, SimSettings

MAIN = "import time\nwhile True:\n    time.sleep_ms(5)\n"


@pytest.fixture
def fw(tmp_path: Path) -> Path:
    d = tmp_path / "fw"
    d.mkdir()
    (d / "main.py").write_text(MAIN)
    return d


# ---- the rule -----------------------------------------------------------------------------------


def test_a_pieces_uid_is_04_and_six_bytes_of_the_sha256_of_game_slash_item() -> None:
    want = "04" + hashlib.sha256(b"updown/T05").digest()[:6].hex().upper()
    assert sim_uid("updown", "T05") == want == "04A62C0714DAE4"


def test_every_piece_of_every_game_has_its_own_readable_ntag_uid() -> None:
    uids = {(g.name, item): sim_uid(g.name, item) for g in games() for item, _ in g.items()}
    assert len(uids) > 300
    assert len(set(uids.values())) == len(uids), "two pieces share a simulated tag"
    for uid in uids.values():
        raw = bytes.fromhex(uid)
        assert len(raw) == 7 and raw[0] == 0x04 and uid == uid.upper()
        assert raw[3] != simtags.CASCADE_TAG  # the reader would take it for a 10-byte UID


def test_a_fourth_byte_that_would_be_the_cascade_tag_is_hashed_again() -> None:
    # flipabird's TIP-G2 is the one piece whose first digest puts 0x88 there
    first = hashlib.sha256(b"flipabird/TIP-G2").digest()[:6]
    assert first[2] == 0x88
    again = hashlib.sha256(b"flipabird/TIP-G2/").digest()[:6]
    assert sim_uid("flipabird", "TIP-G2") == "04" + again.hex().upper()


def test_the_test_tables_numbered_tags_keep_the_uids_their_golden_logs_hold() -> None:
    # tests/golden/up/session.jsonl: Up's first three cards, numbered in catalogue order
    golden = (Path(__file__).parents[2] / "golden" / "up" / "session.jsonl").read_text()
    uids = numbered_uids("up", [("A1", ""), ("A2", ""), ("A3", "")])
    assert list(uids.values()) == ["0470000125D2E3", "047000024AD2E3", "047000036FD2E3"]
    assert all(f'"uid":"{u}"' in golden for u in uids.values())
    assert numbered_uid("up", 1) != sim_uid("up", "A1")  # not the simulated deck's


def test_the_demo_enrols_the_same_tags_as_a_game_by_hand(tmp_path: Path) -> None:
    from upref.commands.demo import enrol_all
    from upref.store.tags import TagBook

    for game in games():
        with TagBook(tmp_path / f"{game.name}.sqlite") as reg:
            uid_of = enrol_all(game, reg)
            assert uid_of == {item: sim_uid(game.name, item) for item, _ in game.items()}
            assert reg.items(game.name) == uid_of


# ---- naming a piece -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "game", "item"),
    [
        ("T05", "updown", "T05"),  # an Up And Down task card
        ("t05", "updown", "T05"),
        ("W03", "whatsup", "W03"),  # a What's Up card
        ("N12", "upturn", "N12"),  # an Upturn tile
        ("joker1", "upturn", "JOKER1"),
        ("B1a", "flipabird", "B1a"),  # a Flip a Bird card
        ("s-nc1", "flipabird", "S-NC1"),
        ("A7", "up", "A7"),  # an Up card of set A
        ("C-2", "up", "C-2"),  # set C's -2 card
        ("up:AD", "up", "AD"),  # set A's disposal card, the game named
        ("UPDOWN:t30", "updown", "T30"),
    ],
)
def test_a_piece_is_found_by_its_catalogue_id(word: str, game: str, item: str) -> None:
    piece = find_piece(word, simctl.catalogues())
    assert (piece.game, piece.item) == (game, item)
    assert piece.uid == sim_uid(game, item)


def test_an_id_of_several_games_asks_for_the_game() -> None:
    cats = {"updown": [("T05", "T05: 1 shovel")], "other": [("T05", "T05: another T05")]}
    with pytest.raises(PieceError) as exc:
        find_piece("T05", cats)
    assert str(exc.value) == (
        "'T05' is a piece of updown and other: name the game too, e.g. updown:T05 or other:T05"
    )
    assert find_piece("other:T05", cats) == Piece("other", "T05", "T05: another T05")


def test_an_exact_id_wins_over_one_in_another_case() -> None:
    cats = {"a": [("x1", "x1")], "b": [("X1", "X1")]}
    assert find_piece("X1", cats).game == "b"
    assert find_piece("x1", cats).game == "a"


@pytest.mark.parametrize(
    ("word", "message"),
    [
        ("T55", r"^'T55' is neither a tag's UID \(4, 7 or 10 bytes of hex.* nor the id of a "
                r"piece: pieces are named by their catalogue ids, e.g. T01 \(updown\), N1 \(upturn\)"),
        ("updown:W03", r"^updown has no piece 'W03': its pieces are named like T01, T02, T03 "
                       r"\(`upref enroll updown --list` lists them all\)"),
        ("chess:T05", r"^no game 'chess' in `chess:T05`: the games are updown, upturn,"),
    ],
)
def test_a_word_that_names_no_piece_says_what_to_type(word: str, message: str) -> None:
    with pytest.raises(PieceError, match=message):
        find_piece(word, simctl.catalogues())


def test_uids_are_told_from_piece_ids() -> None:
    assert looks_like_uid("04A62C0714DAE4") and looks_like_uid("de:ad:be:ef")
    for word in ("T05", "AD", "DD", "JOKER1", "S-NC1", "04A62C", "up:AD"):
        assert not looks_like_uid(word)
    assert verbs.piece_words(["tap", "T05"]) == [1]
    assert verbs.piece_words(["tap", "04A62C0714DAE4"]) == []
    assert verbs.piece_words(["remove", "W03"]) == [1]
    assert verbs.piece_words(["remove"]) == []
    assert verbs.piece_words(["pull", "4"]) == []


def test_the_front_end_turns_pieces_into_uids_and_names_them_in_answers() -> None:
    pieces = cli.Pieces(simctl.catalogues)
    uid = sim_uid("updown", "T05")
    assert pieces.line("tap T05") == f"tap {uid}"
    assert pieces.line("TAP updown:t05") == f"TAP {uid}"
    assert pieces.line("remove W03") == f"remove {sim_uid('whatsup', 'W03')}"
    assert pieces.line("tap 04A1B2C3D4E5F6") == "tap 04A1B2C3D4E5F6"
    assert pieces.line("pull 4") == "pull 4"
    with pytest.raises(PieceError, match=r"^tap: 'T55' is neither"):
        pieces.line("tap T55")
    assert pieces.told(f"card {uid} in the field") == (
        f"card {uid} (updown T05: 1 shovel — black 2) in the field"
    )
    assert pieces.told("card 04A1B2C3D4E5F6 in the field") == "card 04A1B2C3D4E5F6 in the field"
    # without catalogues (the sim's own front end in tests): UIDs only, words left as they are
    bare = cli.Pieces()
    assert bare.line("tap T05") == "tap T05"
    assert bare.told(f"card {uid} in the field") == f"card {uid} in the field"


def test_the_sim_itself_takes_uids_and_says_where_piece_ids_are_taken() -> None:
    with pytest.raises(verbs.CommandError, match=r"not 'T05'; a piece is named by its catalogue "
                                                 r"id \(T05\) through `upref simctl`"):
        verbs.parse_command("tap T05")


def test_upref_simctl_is_the_front_end_that_knows_the_catalogues() -> None:
    assert upref_cli.COMMANDS["simctl"][:2] == ("upref.commands.simctl", "simctl_main")
    assert upref_cli.COMMANDS["sim"][:2] == ("upref.commands.simctl", "sim_main")


# ---- on a running board -------------------------------------------------------------------------


def test_simctl_taps_and_removes_a_piece_by_its_id(
    rt: Path, fw: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t05, w03 = sim_uid("updown", "T05"), sim_uid("whatsup", "W03")
    with SimBoard(SimSettings(name="pieces", firmware_dir=fw)) as board:
        assert simctl.simctl_main(["tap", "T05"]) == 0
        assert capsys.readouterr().out == (
            f"card {t05} (updown T05: 1 shovel — black 2) in the field\n"
        )
        assert board.world.cards == [t05]
        assert simctl.simctl_main(["tap", w03]) == 0  # a UID still works, and is named
        assert "(whatsup W03: 1 red / 1 purple)" in capsys.readouterr().out
        assert simctl.simctl_main(["remove", "t05"]) == 0
        assert capsys.readouterr().out == f"removed {t05} (updown T05: 1 shovel — black 2)\n"
        assert board.world.cards == [w03]
        assert simctl.simctl_main(["remove", "A7"]) == 1  # not on the reader: the sim says so
        err = capsys.readouterr().err
        assert re.search(rf"card {sim_uid('up', 'A7')} \(up A7: set A, 7\) is not on the reader", err)
        assert simctl.simctl_main(["tap", "T55"]) == 1
        assert capsys.readouterr().err.startswith("upref simctl: tap: 'T55' is neither a tag's UID")
        assert board.world.cards == [w03]


# ---- the guide ----------------------------------------------------------------------------------

DOC = Path(__file__).resolve().parents[3] / "docs" / "simulator.md"


def test_the_simulator_guide_opens_with_a_game_by_hand_for_every_game() -> None:
    text = DOC.read_text(encoding="utf-8")
    sections = re.findall(r"^## (.+)$", text, flags=re.M)
    assert sections[0] == "Play a game by hand in five minutes"
    first = text.split("\n## ")[1]
    for step in ("upref sim ", "--simulated", "upref play updown"):
        assert step in first
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| ([^|]+?) \| (.+) \|$", first, re.M)}
    pieces = cli.Pieces(simctl.catalogues)
    for game in games():
        row = rows[game.title]
        assert f"upref enroll {game.name} --simulated" in row and f"upref play {game.name}" in row
        actions = re.findall(r"`simctl ([^`]+)`", row)
        assert len(actions) >= 2, row
        for action in actions:  # each parses, and names pieces of this very game
            if action.split()[0] in game.steps:  # a whole table step of this very game
                continue
            line = pieces.line(action)
            verbs.parse_command(line)
            for word in action.split()[1:]:
                if not word.isdigit():
                    assert find_piece(word, simctl.catalogues()).game == game.name, action


def test_the_guide_gives_the_rule_with_a_worked_example() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "the first six bytes of SHA-256 of `game/item`" in text
    assert f"T05 carries `{sim_uid('updown', 'T05')}`" in text
    assert "Flip a Bird's `TIP-G2`" in text
