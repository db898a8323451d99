"""The game log: committed at once, resumed after a crash, replayed exactly, exported and read
back; the golden whole-game log; replay throughput (printed, not asserted)."""

from __future__ import annotations

import gc
import io
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from golden_session import golden_session
from updown_table import (
    CODES,
    PLAYERS,
    Chaos,
    Table,
    enrolled_tags,
    other_end,
    random_session,
    state,
)
from upref.board.model import ButtonObservation, CardObservation, FaultObservation, HoleObservation
from upref.commands.replay import export_main, replay_main
from upref.games.updown.referee import Hint, UpDownReferee
from upref.games.updown.variant import Variant
from upref.referee.inputs import (
    BoardOnline,
    BoardPicture,
    EndGame,
    Input,
    Key,
    NextGame,
    Observe,
    StartGame,
    TagInfo,
    Tick,
    Undo,
)
from upref.referee.status import OK
from upref.registry import referee_for
from upref.store.gamelog import GameLog, GameLogError, list_games, load_jsonl
from upref.store.replay import load_log, replay, resume, verdict_dict

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "updown"
GOLDEN_LOG = GOLDEN / "session.jsonl"
GOLDEN_VERDICTS = GOLDEN / "session.verdicts.jsonl"


def new_session(db: Path, seed: int = 4, **kwargs: object) -> tuple[GameLog, UpDownReferee, Table]:
    ref = UpDownReferee(CODES, enrolled_tags(path=db.with_name("tags.sqlite")), **kwargs)  # type: ignore[arg-type]
    log = GameLog.create(
        db, game="updown", players=PLAYERS, seed=seed, config=ref.config(), created=1000.0
    )
    ref.attach(log)
    tb = Table(ref, seed=seed)
    tb.feed(StartGame(PLAYERS, Variant(), seed, tb.at()))
    return log, ref, tb


def state_of(ref: UpDownReferee) -> tuple[object, ...]:
    eng = ref.engine
    assert eng is not None
    return (
        eng.view(None),
        eng.board,
        eng.turned,
        eng.stack,
        tuple(eng.task(s) for s in range(eng.num_players())),
        ref.status(),
        ref.picture,
        ref.phase,
    )


def test_every_input_round_trips_through_json() -> None:

    inputs: list[Input] = [
        StartGame(
            PLAYERS, Variant(short_game_target=3, mole_mix=True), 9, 1.5, {"holes": [39] * 10}
        ),
        StartGame(("Ann",), Variant(), 0, 2.0, {}),
        Observe(HoleObservation(3, 39, 0, state(39), state(0)), 3.25),
        Observe(HoleObservation(4, 0, 40, state(0), state(40)), 3.5),
        Observe(CardObservation(True, "04A1B2C3D4E5F6"), 4.0, TagInfo("updown", "T07")),
        Observe(CardObservation(True, "DEADBEEF"), 4.0, TagInfo(None, None)),
        Observe(CardObservation(False, "DEADBEEF"), 4.5),
        Observe(ButtonObservation(True), 5.0),
        Observe(FaultObservation("s7", True, "sensor", "s7", "reads 0"), 6.0),
        BoardOnline(False, 7.0),
        BoardPicture((39, 0, 65) + (0,) * 7, 7.5),
        Undo(8.0),
        EndGame(9.0),
        NextGame(10.0),
        Tick(11.0),
        Hint(12.0),
        Key("draw", 13.0),
        Key("gift", 14.0, "Bob 2, Cy 1"),
    ]
    codec = UpDownReferee(CODES).codec
    for inp in inputs:
        d = json.loads(json.dumps(codec.to_dict(inp)))
        assert codec.from_dict(d, CODES) == inp, d
    with pytest.raises(ValueError, match="unknown input kind 'nonsense'"):
        codec.from_dict({"kind": "nonsense", "t": 0}, CODES)


def test_each_entry_is_committed_before_the_referee_acts(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    ref = UpDownReferee(CODES, enrolled_tags(path=tmp_path / "tags.sqlite"))
    log = GameLog.create(db, game="updown", players=PLAYERS, seed=1, config=ref.config())
    seen: list[tuple[int, str | None]] = []
    other = sqlite3.connect(db)

    class Spy:
        def append(self, inp: dict[str, object]) -> int:
            seq = log.append(inp)
            # another connection sees the row at once, while the referee has not acted yet
            row = other.execute(
                "SELECT kind FROM entries WHERE game_id = ? AND seq = ?", (log.game_id, seq)
            ).fetchone()
            seen.append((seq, row[0] if row else None))
            if inp["kind"] == "start":
                assert not ref.has_engine and inp["holes"] is not None
            return seq

        def finish(self, outcome: object, t: float | None = None) -> None:
            log.finish(outcome, t)  # type: ignore[arg-type]

        def reopen(self) -> None:
            log.reopen()

    ref.attach(Spy())
    tb = Table(ref, seed=1)
    tb.feed(StartGame(PLAYERS, Variant(), 1, tb.at()))
    tb.draw()
    assert [k for _, k in seen] == ["hole"] * 10 + ["start", "card", "card"]
    n = other.execute("SELECT COUNT(*) FROM entries WHERE game_id = ?", (log.game_id,))
    assert n.fetchone()[0] == 13
    start = json.loads(other.execute("SELECT payload FROM entries WHERE seq = 11").fetchone()[0])
    assert start["holes"] == [tb.codes[h] for h in range(1, 11)]
    card = json.loads(other.execute("SELECT payload FROM entries WHERE seq = 12").fetchone()[0])
    assert card["tag"]["game"] == "updown"  # what the tag book said is in the log
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    other.close()
    log.close()


def test_resume_after_the_host_dies_mid_turn(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    log, ref, tb = new_session(db)
    tb.draw_all()
    tb.play_turn()
    tb.draw_all()
    tb.flip(1)
    tb.flip(2)
    tb.flip(2)  # M-1: a correction outstanding
    assert ref.status().corrections
    before = state_of(ref)
    live = [r for _, r in tb.replies]
    game_id = log.game_id
    # the host dies: nothing is finished or closed
    del log, ref
    gc.collect()

    log2 = GameLog.open_latest(db)
    assert log2 is not None and log2.game_id == game_id and log2.header.status == "playing"
    ref2 = resume(log2, referee_for)  # no tag book needed: the log holds what it said
    assert state_of(ref2) == before
    # while the host was away, hole 6 was turned; the board's picture brings it in
    tb.ref = ref2
    tb.codes[6] = other_end(tb.codes[6])
    tb.feed(BoardPicture(tuple(tb.codes[h] for h in range(1, 11)), tb.at()))
    assert [v.kind for v in tb.replies[-1][1].verdicts] == [OK]  # counts at once (M-14)
    assert tb.replies[-1][1].verdicts[0].text.startswith("Hole 6 turned")
    tb.flip(2)  # right again
    assert [v.text.split(" ")[:2] for v in tb.replies[-1][1].verdicts] == [["Hole", "2"]]
    tb.tick()
    # the log now holds the whole session: a replay agrees with what was said live
    info, entries = load_log(db, game_id)
    again = [r.reply for r in replay(info, entries, referee_for)]
    assert again == live + [r for _, r in tb.replies[len(live) :]]
    log2.close()


def test_replay_is_deterministic_and_equals_the_live_run(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    log, ref, tb = new_session(db, seed=2, hints=True)
    chaos = Chaos(tb, 2)
    for _ in range(1500):
        chaos.step()
    live = [r for _, r in tb.replies]
    info, entries = load_log(db, log.game_id)
    assert len(entries) == len(tb.replies)
    first = [r.reply for r in replay(info, entries, referee_for)]
    second = [r.reply for r in replay(info, entries, referee_for)]
    assert first == second == live
    log.close()


def test_export_jsonl_round_trip(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    log, ref, tb = new_session(db, seed=3)
    tb.draw_all()
    tb.play_turn()
    tb.feed(EndGame(tb.at()))
    buf = io.StringIO()
    lines = log.export_jsonl(None, buf)
    text = buf.getvalue()
    assert lines == len(text.splitlines()) == len(log.entries()) + 1
    header = json.loads(text.splitlines()[0])
    assert header["kind"] == "game" and header["players"] == list(PLAYERS)
    assert header["status"] == "finished" and header["outcome"]["termination"] == "stopped"
    info, entries = load_jsonl(text.splitlines())
    assert info == log.header and entries == log.entries()
    # into another database and out again: the same lines but for the id
    copy = GameLog.import_jsonl(text.splitlines(), tmp_path / "other.sqlite")
    buf2 = io.StringIO()
    copy.export_jsonl(None, buf2)

    def strip(text: str) -> list[dict[str, object]]:
        rows = [json.loads(x) for x in text.splitlines()]
        rows[0]["id"] = 0
        return rows

    assert strip(buf2.getvalue()) == strip(text)
    # and a replay from the JSON Lines says what the table heard
    assert [r.reply for r in replay(info, entries, referee_for)] == [r for _, r in tb.replies]
    with pytest.raises(GameLogError):
        load_jsonl(['{"kind": "tick", "t": 1}'])
    log.close()
    copy.close()


def test_finish_reopen_and_open_latest(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    log, ref, tb = new_session(db)
    tb.draw_all()
    tb.feed(EndGame(tb.at()))
    head = log.header
    assert head.status == "finished" and head.finished == tb.t
    assert head.outcome == {
        "game_number": 1,
        "termination": "stopped",
        "winners": [],  # stopped before anyone solved a card: nobody won
        "scores": {"Ann": 0, "Bob": 0, "Cy": 0},
    }
    assert GameLog.open_latest(db) is None
    latest = GameLog.open_latest(db, unfinished=False)
    assert latest is not None and latest.game_id == log.game_id
    tb.feed(NextGame(tb.at()))
    assert log.header.status == "finished"  # `n` alone: nothing of the next game yet
    tb.feed(Key("x", tb.at()))
    assert log.header.status == "playing"  # someone acted: the session goes on
    assert [g.id for g in list_games(db)] == [log.game_id]
    with pytest.raises(GameLogError):
        GameLog.open(db, 999)
    latest.close()
    log.close()


def test_cli_replay_and_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite"
    log, ref, tb = new_session(db)
    tb.draw_all()
    tb.flip(1)
    tb.flip(1)
    log.close()
    assert replay_main([str(db), "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [json.loads(line) for line in out]
    said = [verdict_dict(0, v) | {"seq": 0} for _, r in tb.replies for v in r.verdicts]
    assert [r | {"seq": 0} for r in rows] == said
    assert all(isinstance(r["seq"], int) and r["seq"] > 10 for r in rows)
    assert rows[-1]["kind"] == "illegal" and rows[-1]["rule"] == "M-1"
    target = tmp_path / "game.jsonl"
    assert export_main(["--db", str(db), "-o", str(target)]) == 0
    assert replay_main([str(target), "--json"]) == 0
    assert capsys.readouterr().out.splitlines() == out
    assert replay_main([str(target)]) == 0
    text = capsys.readouterr().out
    assert "ILLEGAL" in text and "[M-1]" in text
    assert export_main(["--db", str(db), "--list"]) == 0
    assert "Ann, Bob, Cy" in capsys.readouterr().out
    assert replay_main([str(tmp_path / "missing.sqlite")]) == 1


# --- golden whole game --------------------------------------------------------------------------


def test_golden_game_log(tmp_path: Path, golden: Callable[[Path, str], None]) -> None:
    log, tb = golden_session(tmp_path / "golden.sqlite")
    buf = io.StringIO()
    log.export_jsonl(None, buf)
    produced = buf.getvalue()
    info, entries = load_jsonl(produced.splitlines())
    verdicts = [
        json.dumps(verdict_dict(r.entry.seq, v), ensure_ascii=False)
        for r in replay(info, entries, referee_for)
        for v in r.reply.verdicts
    ]
    live = [v for _, r in tb.replies for v in r.verdicts]
    assert len(verdicts) == len(live)  # (the first picture gives no verdicts)
    assert [json.loads(v)["text"] for v in verdicts] == [v.text for v in live]
    # the scripted session still writes the same log, which replays to the same verdicts ...
    golden(GOLDEN_LOG, produced)
    golden(GOLDEN_VERDICTS, "\n".join(verdicts) + "\n")
    # ... and the stored log, replayed, gives the stored verdicts
    g_info, g_entries = load_jsonl(GOLDEN_LOG.read_text(encoding="utf-8").splitlines())
    replayed = [
        json.dumps(verdict_dict(r.entry.seq, v), ensure_ascii=False)
        for r in replay(g_info, g_entries, referee_for)
        for v in r.reply.verdicts
    ]
    expected = GOLDEN_VERDICTS.read_text(encoding="utf-8").splitlines()
    for number, (want, got) in enumerate(zip(expected, replayed, strict=False), start=1):
        assert got == want, f"{GOLDEN_VERDICTS.name}:{number}"
    assert len(replayed) == len(expected)
    log.close()


# --- a long session --------------------------------------------------------------------------


def test_a_long_session_of_several_games_replays_from_sqlite_to_the_same_table(tmp_path: Path) -> None:
    # (its throughput is a figure of `make bench`, not a test)
    ref, inputs = random_session(5000)
    db = tmp_path / "long.sqlite"
    log = GameLog.create(
        db, game="updown", players=PLAYERS, seed=8, config=ref.config(), durable=False
    )
    log.append_many(inputs)
    log.close()
    info, entries = load_log(db)
    again = referee_for(info, None)
    for e in entries:
        again.handle(again.decode(e.input_dict()))
    assert len(entries) == len(inputs)
    assert ref.has_engine and ref.engine.game_number > 1
    assert again.view(None) == ref.view(None) and again.status() == ref.status()
