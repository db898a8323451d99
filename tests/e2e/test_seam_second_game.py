"""The seam holds for a second game: `pile_game` (a throwaway game defined and registered only
here) runs through `upref play`, `upref replay`, `upref export`, `upref enroll`, `upref demo`
and the scoreboard frame, on the simulated board, with no generic module knowing it."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pile_game
import pytest
from rich.console import Console
from upref.commands import demo, enroll, play
from upref.commands.replay import export_main, replay_main
from upref.link.connection import Link
from upref.registry import UnknownGame, find_game, register, unregister
from upref.sim.board import SimBoard
from upref.store.gamelog import GameLog, list_games
from upref.store.tags import TagBook


@pytest.fixture
def pile() -> Iterator[None]:
    register(pile_game.GAME)
    yield
    unregister(pile_game.NAME)


def _wait(cond: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _entries(db: Path) -> list[dict[str, object]]:
    if not db.exists():
        return []
    log = GameLog.open_latest(db, game=None, unfinished=False, durable=False)
    if log is None:
        return []
    with log:
        return [e.input_dict() for e in log.entries()]


def _tap(board: SimBoard, db: Path, uid: str) -> None:
    """Tap a card and wait until the game log has its arrival and its departure."""
    n = sum(1 for e in _entries(db) if e["kind"] == "card")
    board.tap(uid)
    _wait(lambda: sum(1 for e in _entries(db) if e["kind"] == "card") > n, f"the tap of {uid}")
    board.remove()
    _wait(lambda: sum(1 for e in _entries(db) if e["kind"] == "card") > n + 1, f"{uid} leaving")


def test_a_game_no_generic_module_knows_is_played_replayed_exported_and_enrolled(
    pile: None, make_board: Callable[..., SimBoard], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    board = make_board(seed=2)
    db, reg_path = tmp_path / "games.sqlite", tmp_path / "tags.sqlite"
    game = find_game("pile")
    with TagBook(reg_path) as reg:
        uid_of = demo.enrol_all(game, reg)
    keys: queue.Queue[str] = queue.Queue()

    @contextlib.contextmanager
    def fake_keys() -> Iterator[Callable[[], str | None]]:
        def read() -> str | None:
            try:
                return keys.get_nowait()
            except queue.Empty:
                return None

        yield read

    monkeypatch.setattr(play, "keys", fake_keys)
    result: list[int] = []
    argv = ["pile", "--size", "3", "Ann", "Bob", "--port", board.port, "--db", str(db),
            "--registry", str(reg_path), "--plain", "--seed", "1"]
    host = threading.Thread(target=lambda: result.append(play.main(argv)), daemon=True)
    host.start()
    _wait(lambda: any(e["kind"] == "start" for e in _entries(db)), "the game to start")
    _tap(board, db, uid_of["one"])  # Ann takes one: 2 left
    keys.put("t")  # Bob, by key: how many? Enter takes the default, one
    keys.put("\r")
    _wait(lambda: any(e["kind"] == "key" for e in _entries(db)), "Bob's key")
    _tap(board, db, uid_of["two"])  # Ann: two, but only one is left: refused
    _tap(board, db, uid_of["one"])  # Ann takes the last one and wins
    _wait(lambda: list_games(db)[0].status == "finished", "the game to finish")
    keys.put("q")
    host.join(timeout=15)
    assert result == [0]
    out = capsys.readouterr().out
    said = [
        "[info] Pile of 3: Ann begins.",
        "[ok] Ann takes 1 tile: 2 left.",
        "[ok] Bob takes 1 tile: 1 left.",
        "[illegal take] Ann cannot take 2: only 1 left.  -> Put the tiles back and take one.",
        "[ok] Ann takes 1 tile: 0 left. Ann took the last one and wins.",
        "[end] The game ends. Ann wins.",
    ]
    lines = [ln for ln in out.splitlines() if ln.startswith("[")]
    assert lines == said
    assert "upref — Pile" in out and "Ann took the last tile" in out  # the frame's last picture
    header = list_games(db)[0]
    assert header.game == "pile" and header.variant == {"size": 3}
    assert header.outcome is not None and header.outcome["winners"] == ["Ann"]

    # replay: the same verdicts from the log alone
    assert replay_main([str(db), "--json"]) == 0
    replayed = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(r["kind"], r["text"]) for r in replayed if r["kind"] != "board"] == [
        ("info", "Pile of 3: Ann begins."),
        ("ok", "Ann takes 1 tile: 2 left."),
        ("ok", "Bob takes 1 tile: 1 left."),
        ("illegal", "Ann cannot take 2: only 1 left."),
        ("ok", "Ann takes 1 tile: 0 left. Ann took the last one and wins."),
        ("end", "The game ends. Ann wins."),
    ]
    # export, and the export replays the same; the public export holds the verdicts only
    target = tmp_path / "pile.jsonl"
    assert export_main(["--db", str(db), "-o", str(target)]) == 0
    assert replay_main([str(target), "--json"]) == 0
    assert [json.loads(x) for x in capsys.readouterr().out.splitlines()] == replayed
    assert export_main(["--db", str(db), "--public"]) == 0
    public = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert public[0]["format"] == "upref-public" and public[0]["game"] == "pile"
    assert all("uid" not in line and "tag" not in line for line in public)
    # enrol: the catalogue's pieces, listed
    with TagBook(reg_path) as reg:
        out_buf = io.StringIO()
        assert enroll.main(["pile", "--list"], out=out_buf, tag_book=reg) == 0
    assert "Pile (pile): 2 of 2 enrolled" in out_buf.getvalue()


def test_the_generic_demo_plays_the_second_game(
    pile: None, make_board: Callable[..., SimBoard], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = make_board(seed=3)
    link = Link(board.port)
    try:
        quiet = Console(file=open(os.devnull, "w"))
        settings = demo.DemoSettings(tmp_path, argparse.Namespace(size=4), quiet)
        rc = demo.run_game(find_game("pile"), board, link, settings)
    finally:
        link.close()
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "took the last one and wins" in out and "upref — Pile" in out


def test_the_game_is_gone_once_unregistered() -> None:
    with pytest.raises(UnknownGame, match="unknown game 'pile'"):
        find_game("pile")
