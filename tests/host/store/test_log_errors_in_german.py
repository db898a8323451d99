"""What a person is told of a game log that cannot be read, and of a game upref does not know,
said in German (as `upref replay --lang de` prints it) with no English left; in English, the
lines they were."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from still_english import missed, still_english
from upref.registry import UnknownGame, find_game, games
from upref.store.gamelog import GameLog, GameLogError
from upref.store.replay import load_log
from upref.text import catalogue, in_lang


@pytest.fixture(autouse=True)
def _own_misses() -> Iterator[None]:
    """Only this test's keys said in English count: what other tests of this process missed is
    put back after it."""
    earlier = set(catalogue.MISSED)
    catalogue.MISSED.clear()
    yield
    catalogue.MISSED.update(earlier)


def _told(exc: BaseException) -> str:
    return str(exc.args[0])


def _german(exc: BaseException, *names: str) -> str:
    said = in_lang(exc.args[0], "de")
    assert still_english([said], names) == [] and missed("de") == []
    return said


def test_no_log_a_folder_and_an_empty_file_are_said_in_german(tmp_path: Path) -> None:
    missing = tmp_path / "games.sqlite"
    with pytest.raises(GameLogError) as none:
        load_log(missing)
    assert _told(none.value).startswith(f"there is no game log at {missing}: play a game first")
    assert _german(none.value, str(missing), "upref play", "games.sqlite", ".jsonl").startswith(
        f"unter {missing} gibt es kein Spielprotokoll: spielt zuerst eine Partie"
    )
    with pytest.raises(GameLogError) as folder:
        GameLog.open(tmp_path, 1, read_only=True)
    assert _german(folder.value, str(tmp_path), "upref play", "games.sqlite", ".jsonl").startswith(
        f"{tmp_path} ist ein Ordner, kein Spielprotokoll: nenne die games.sqlite"
    )
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    with pytest.raises(GameLogError) as blank:
        GameLog.open(empty, 1, read_only=True)
    assert _told(blank.value).startswith(f"{empty} is empty, not an upref game log: name the games.sqlite")
    assert _german(blank.value, str(empty), "upref play", "games.sqlite", ".jsonl").startswith(
        f"{empty} ist leer, kein Spielprotokoll von upref"
    )


def test_an_unknown_game_is_said_in_german() -> None:
    with pytest.raises(UnknownGame) as unknown:
        find_game("chess")
    known = ", ".join(g.name for g in games())
    assert _told(unknown.value) == f"unknown game 'chess': the games are {known}"
    assert _german(unknown.value, *known.split(", ")) == f"unbekanntes Spiel 'chess': die Spiele sind {known}"
