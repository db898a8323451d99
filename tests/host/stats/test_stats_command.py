"""`upref stats` over two evenings of logs: who won what, runs of wins, averages, the games
that gave no result shown apart, each game counted once, damaged files named and skipped, and
the same numbers as text, JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from stats_logs import Logs
from upref.commands.stats import main
from upref.store.gamelog import GameLog


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def as_json(capsys: pytest.CaptureFixture[str], logs: Logs, *argv: str) -> dict[str, Any]:
    dbs = [a for p in logs.all for a in ("--db", str(p))]
    code, out, _ = run(capsys, *dbs, "--same", "Mum=Mama", *argv, "--json")
    assert code == 0
    return json.loads(out)


def line(data: dict[str, Any], player: str, game: str | None) -> dict[str, Any]:
    found = [x for x in data["lines"] if x["player"] == player and x["game"] == game]
    assert len(found) == 1, found
    return found[0]


def test_wins_shared_wins_runs_and_averages_per_player_and_game(capsys: pytest.CaptureFixture[str], logs: Logs) -> None:
    data = as_json(capsys, logs)
    kid = line(data, "Kid", "updown")  # W W L(Mum) W L(Ann, after midnight)
    assert (kid["played"], kid["won"], kid["shared"]) == (5, 3, 0)
    assert (kid["current_run"], kid["longest_run"]) == (0, 2)
    assert kid["average"] == (5 + 6 + 3 + 5 + 1) / 5 and kid["score"] == "shovels"
    kid_upturn = line(data, "Kid", "upturn")  # shared with Ann, then lost to Bob (fewest tiles win)
    assert (kid_upturn["played"], kid_upturn["won"], kid_upturn["shared"]) == (2, 0, 1)
    assert kid_upturn["fewest_win"] is True and kid_upturn["score"] == "tiles"
    ann = line(data, "Ann", "updown")  # 2023: W W; 2026: L L L W
    assert (ann["played"], ann["won"], ann["current_run"], ann["longest_run"]) == (6, 3, 1, 2)
    everything = line(data, "Kid", None)  # W W W(shared) L W L L
    assert (everything["played"], everything["won"], everything["shared"]) == (7, 3, 1)
    assert everything["longest_run"] == 3 and everything["average"] is None


def test_merged_names_are_one_player_and_unmerged_are_two(capsys: pytest.CaptureFixture[str], logs: Logs) -> None:
    merged = as_json(capsys, logs)
    mum = line(merged, "Mum", "updown")
    assert (mum["played"], mum["won"]) == (2, 1)
    assert not [x for x in merged["lines"] if x["player"] == "Mama"]
    code, out, _ = run(capsys, "--db", str(logs.home), "--names", str(logs.home.parent / "none.txt"), "--json")
    apart = json.loads(out)
    assert code == 0 and {x["player"] for x in apart["lines"]} >= {"Mum", "Mama"}


def test_the_names_file_merges_and_a_merge_of_two_at_one_table_is_refused(
    capsys: pytest.CaptureFixture[str], logs: Logs, names_file: Path
) -> None:
    names_file.write_text("# one person a line\nMum = Mama = Mother\n", encoding="utf-8")
    code, out, _ = run(capsys, "--db", str(logs.home), "--names", str(names_file), "--json")
    assert code == 0 and line(json.loads(out), "Mum", "updown")["played"] == 2
    code, out, err = run(capsys, "--db", str(logs.home), "--same", "Ann=Kid")
    assert code == 1 and out == ""
    assert "Ann and Kid sat at the same table" in err and "two people" in err and "Traceback" not in err
    names_file.write_text("Mum\n", encoding="utf-8")
    code, _, err = run(capsys, "--db", str(logs.home), "--names", str(names_file))
    assert code == 1 and f"{names_file}, line 1" in err and "Mum=Mama" in err


def test_each_game_counts_once_and_what_gave_no_result_is_shown_apart(
    capsys: pytest.CaptureFixture[str], logs: Logs
) -> None:
    data = as_json(capsys, logs)
    # home: 1-6 and the golden session's two games; club: one more; copy: game 6 again
    assert data["counted"] == 6 + 2 + 1
    resumed = [r for e in data["evenings"] for r in e["results"] if r["scores"] == {"Ann": 6, "Bob": 5, "Kid": 1}]
    assert len(resumed) == 1 and resumed[0]["winners"] == ["Ann"]
    states = sorted((n["title"], n["state"]) for n in data["not_counted"])
    assert states == [("Up And Down", "abandoned before a move"), ("Up And Down", "closed without a result"),
                      ("Upturn", "unfinished")]
    bob = line(data, "Bob", "updown")  # the closed game and the abandoned one are not played games
    assert bob["played"] == 5


def test_a_session_of_two_games_gives_both_results(capsys: pytest.CaptureFixture[str], logs: Logs) -> None:
    data = as_json(capsys, logs, "--until", "2023-12-31")
    (evening,) = data["evenings"]
    assert [(r["number"], r["winners"], r["stopped"]) for r in evening["results"]] == [
        (1, ["Ann"], False), (2, ["Ann"], True)]


def test_a_damaged_file_and_a_damaged_game_are_named_in_one_line_and_the_rest_counted(
    capsys: pytest.CaptureFixture[str], logs: Logs
) -> None:
    dbs = [a for p in logs.all for a in ("--db", str(p))]
    code, out, err = run(capsys, *dbs)
    assert code == 0 and "9 games counted" in out
    lines = err.splitlines()
    assert len(lines) == 2 and "Traceback" not in err
    assert str(logs.broken) in lines[1] and "damaged" in lines[1] and "left out" in lines[1]
    assert f"{logs.club}, log 2" in lines[0] and "damaged" in lines[0]
    code, out, err = run(capsys, "--db", str(logs.broken))
    assert code == 1 and out == "" and str(logs.broken) in err


def test_filters_by_game_player_and_date(capsys: pytest.CaptureFixture[str], logs: Logs) -> None:
    upturn = as_json(capsys, logs, "--game", "upturn")
    assert {x["game"] for x in upturn["lines"]} == {"upturn"} and upturn["counted"] == 2
    mama = as_json(capsys, logs, "--player", "mama")  # Mum's other spelling, any case
    assert mama["counted"] == 2 and line(mama, "Mum", "updown")["played"] == 2
    assert {x["player"] for x in mama["lines"]} == {"Mum"}
    saturday = as_json(capsys, logs, "--since", "2026-11-07")  # 00:30 on Sunday is Saturday evening
    assert [e["evening"] for e in saturday["evenings"]] == ["2026-11-07"] and saturday["counted"] == 3
    friday = as_json(capsys, logs, "--since", "2026-11-06", "--until", "2026-11-06")
    assert friday["counted"] == 4
    with pytest.raises(SystemExit) as refused:
        main(["--since", "last week"])
    assert refused.value.code == 2 and "YYYY-MM-DD" in capsys.readouterr().err
    code, _, err = run(capsys, "--db", str(logs.home), "--game", "chess")
    assert code == 1 and "chess" in err and "Traceback" not in err


def test_text_and_csv_say_what_the_json_says(capsys: pytest.CaptureFixture[str], logs: Logs) -> None:
    data = as_json(capsys, logs)
    dbs = [a for p in logs.all for a in ("--db", str(p))]
    _, out, _ = run(capsys, *dbs, "--same", "Mum=Mama", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == len(data["lines"])
    for row, x in zip(rows, data["lines"], strict=True):
        assert (row["player"], int(row["played"]), int(row["won"]), int(row["shared"])) == (
            x["player"], x["played"], x["won"], x["shared"])
    _, text, _ = run(capsys, *dbs, "--same", "Mum=Mama")
    assert "Evening of Saturday 7 November 2026:" in text
    assert "Upturn: Ann and Kid share the win (tiles: Ann 2, Kid 2)" in text
    assert "Upturn (Ann, Kid): unfinished, not counted" in text
    assert "Ann wins (shovels: Ann 1, Bob 0) — stopped early" in text


def test_no_logs_yet_says_what_to_do(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "--db", str(tmp_path / "games.sqlite"))
    assert code == 1 and out == "" and "play a game first" in err


def test_an_exported_game_read_beside_its_database_counts_once(
    capsys: pytest.CaptureFixture[str], logs: Logs, tmp_path: Path
) -> None:
    exported = tmp_path / "game.jsonl"

    with GameLog.open(logs.home, 1, read_only=True) as log, exported.open("w", encoding="utf-8") as f:
        log.export_jsonl(None, f)
    _, out, _ = run(capsys, "--db", str(logs.home), "--json")
    _, both, _ = run(capsys, "--db", str(logs.home), "--db", str(exported), "--json")
    _, only, _ = run(capsys, "--db", str(exported), "--json")
    assert json.loads(both)["counted"] == json.loads(out)["counted"] == 8
    assert json.loads(only)["counted"] == 1 and json.loads(both)["sources"][1] == str(exported)


def test_a_game_being_played_now_is_shown_as_such(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with GameLog.create(db, game="upturn", players=("Ann", "Kid")) as log:
        log.append({"kind": "start", "t": 1.0, "players": ["Ann", "Kid"], "variant": {}, "seed": 1})
        assert log.mark_playing()  # as `upref play` holds it
        code, out, _ = run(capsys, "--db", str(db), "--json")
    data = json.loads(out)
    assert code == 0 and data["counted"] == 0
    assert [n["state"] for n in data["not_counted"]] == ["being played now"]
    _, text, _ = run(capsys, "--db", str(db))
    assert "No finished game" in text and "1 abandoned before a move" in text
