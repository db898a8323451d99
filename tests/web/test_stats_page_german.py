"""The page `/stats` in German (`/stats?lang=de`), over the fixture of logs of `stats_logs`:
every title, label, legend and chart's aria text said in German with no English left, the same
marks drawn as on the English page; the live page's way to it keeps the page's language."""

from __future__ import annotations

import html
import json
import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "host" / "support")]

from stats_logs import Logs, write_logs  # noqa: E402
from still_english import missed, still_english  # noqa: E402
from test_server import get  # noqa: E402
from upref.stats.names import Names  # noqa: E402
from upref.stats.report import Query, from_logs  # noqa: E402
from upref.text import catalogue  # noqa: E402
from upref.web.hub import Hub  # noqa: E402
from upref.web.live import STATS_POINTER, stats_pointer  # noqa: E402
from upref.web.server import WebScoreboard  # noqa: E402
from upref.web.stats_page import render_stats  # noqa: E402


@pytest.fixture(autouse=True)
def _own_misses() -> Iterator[None]:
    """Only this test's keys said in English count: what other tests of this process missed is
    put back after it."""
    earlier = set(catalogue.MISSED)
    catalogue.MISSED.clear()
    yield
    catalogue.MISSED.update(earlier)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Logs:
    return write_logs(tmp_path_factory.mktemp("stats-german"))


@pytest.fixture(scope="module")
def data(logs: Logs) -> dict[str, Any]:
    """The stats as the page's server hands them (`Stats.as_json()`), with Mum and Mama one."""
    return from_logs(list(logs.all), Query(last=9), Names([("Mum", "Mama")])).as_json()


def said(page: str) -> list[str]:
    """What a person reads or hears of the page: its texts, its aria labels and the cells'
    labels, one a line."""
    labels = re.findall(r'(?:aria-label|data-label)="([^"]*)"', page)
    body = re.sub(r"<style.*?</style>", " ", page, flags=re.S)
    texts = re.split(r"<[^>]+>", body)
    return [html.unescape(t).strip() for t in [*labels, *texts] if t.strip()]


def players(data: Mapping[str, Any]) -> set[str]:
    return {x["player"] for x in data["lines"]}


def marks(page: str) -> list[str]:
    return re.findall(r"<(?:rect|circle|li)[^>]*data-chart=[^>]*>", page)


def test_the_german_page_holds_no_english(data: dict[str, Any]) -> None:
    page = render_stats(data, "de")
    assert still_english(said(page), players(data)) == []
    assert missed("de") == []
    assert '<html lang="de">' in page and "<title>upref — wer was gewinnt</title>" in page
    for words in ("Siege pro Spieler", "Wertungen, Partie für Partie", "Alle Spieler",
                  "Der Abend am Samstag, 7. November 2026", 'aria-label="Siege bei Up And Down"',
                  '<th>beste Serie</th>', "Schaufeln", "zählt nicht"):
        assert words in page, words
    assert marks(page) == marks(render_stats(data))  # the same charts, the same data
    assert marks(page) == marks(render_stats(json.loads(json.dumps(data)), "de"))  # as --json prints it


def test_the_route_follows_the_language_asked_for(data: dict[str, Any]) -> None:
    with WebScoreboard(Hub(("Ann",)), "127.0.0.1", 0, stats=lambda: data) as server:
        _, _, german = get(server, "/stats?lang=de")
        _, _, english = get(server, "/stats")
        _, _, unknown = get(server, "/stats?lang=xx")
    assert '<html lang="de">' in german and "Wer was gewinnt" in german
    assert '<a href="/?lang=de">Zurück zum Tisch</a>' in german
    assert english == unknown == render_stats(data)
    assert '<html lang="en">' in english and '<a href="/">Back to the table</a>' in english


def test_a_merge_that_cannot_be_is_said_in_german(logs: Logs) -> None:
    def refused() -> Mapping[str, Any]:
        return from_logs(list(logs.all), Query(), Names([("Ann", "Kid")])).as_json()

    with WebScoreboard(Hub(("Ann",)), "127.0.0.1", 0, stats=refused) as server:
        status, _, page = get(server, "/stats?lang=de")
    assert status == 200 and "Die Statistik lässt sich nicht zeichnen: Ann und Kid saßen am selben Tisch" in page
    assert still_english(said(page), ["Ann", "Kid", *(str(p) for p in logs.all)]) == []


def test_the_live_pages_way_to_the_stats_keeps_its_language() -> None:
    assert stats_pointer("en") == STATS_POINTER and 'href="/stats"' in STATS_POINTER
    german = stats_pointer("de")
    assert 'href="/stats?lang=de"' in german and still_english(said(german)) == []
