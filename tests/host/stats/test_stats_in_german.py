"""`upref stats --lang de` over the fixture's two evenings: the table, the evenings, the games
that gave no result and the files left out, said in German with no English left; the table's
columns still line up; the JSON keys and values stay the data they were."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from stats_logs import Logs
from still_english import missed, still_english
from upref.commands.stats import main
from upref.text import catalogue


@pytest.fixture(autouse=True)
def _own_misses() -> Iterator[None]:
    """Only this test's keys said in English count: what other tests of this process missed is
    put back after it."""
    earlier = set(catalogue.MISSED)
    catalogue.MISSED.clear()
    yield
    catalogue.MISSED.update(earlier)


def run(capsys: pytest.CaptureFixture[str], logs: Logs, *argv: str) -> tuple[int, str, str]:
    dbs = [a for p in logs.all for a in ("--db", str(p))]
    code = main([*dbs, "--same", "Mum=Mama", "--evenings", "9", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _said(text: str) -> list[str]:
    """The lines of `text` as the word net reads them: a command quoted (`upref games`) is a
    name, not a sentence."""
    return [re.sub(r"`[^`]*`", " ", line) for line in text.splitlines()]


def _paths(logs: Logs) -> list[str]:
    """The files' names as the lines quote them (a path is not a sentence)."""
    return [str(p) for p in logs.all]


def test_the_stats_said_in_german_hold_no_english(capsys: pytest.CaptureFixture[str], logs: Logs) -> None:
    code, out, err = run(capsys, logs, "--lang", "de")
    assert code == 0
    lines = out.splitlines()
    assert still_english(_said(out) + _said(err), _paths(logs)) == []
    assert missed("de") == []
    assert re.match(r"\d+ Partien gezählt, aus ", lines[0])
    assert lines[1].split()[:3] == ["Spieler", "Spiel", "gespielt"]
    assert "Abend am Freitag, 6. November 2026:" in lines
    assert "Abend am Samstag, 7. November 2026:" in lines
    assert any("Kid gewinnt (Schaufeln: " in x for x in lines)
    assert any("Ann und Kid teilen sich den Sieg" in x for x in lines)
    assert any("vor dem ersten Zug verlassen, zählt nicht" in x for x in lines)
    assert any(x.startswith("Zählt nicht: ") for x in lines)
    assert any(x.startswith("upref stats: weggelassen: ") for x in err.splitlines())


def test_the_german_table_lines_up_under_its_heads(capsys: pytest.CaptureFixture[str], logs: Logs) -> None:
    _, out, _ = run(capsys, logs, "--lang", "de")
    table = out.split("\n\n", 1)[0].splitlines()[1:]
    head = table[0]
    rating_at = head.index("Wertung") + len("Wertung")  # right-aligned: each rating ends under it
    ends = [len(row) for row in table[1:] if "±" in row]
    assert ends and set(ends) == {rating_at}


def test_the_data_stays_data_in_german(capsys: pytest.CaptureFixture[str], logs: Logs) -> None:
    _, english, _ = run(capsys, logs, "--json", "--lang", "en")
    _, german, _ = run(capsys, logs, "--json", "--lang", "de")
    assert json.loads(german) == json.loads(english)
    _, english_csv, _ = run(capsys, logs, "--csv")
    _, german_csv, _ = run(capsys, logs, "--csv", "--lang", "de")
    assert german_csv == english_csv and german_csv.startswith("player,game,played,won")


def test_a_refused_merge_is_said_in_german(capsys: pytest.CaptureFixture[str], logs: Logs, tmp_path: Path) -> None:
    code, _, err = run(capsys, logs, "--same", "Ann=Kid", "--lang", "de")
    assert code == 1
    assert "saßen am selben Tisch" in err and still_english(_said(err), _paths(logs)) == []
