"""The page `/stats` in a real browser (headless Chromium), over the fixture of logs of
`stats_logs`: every mark of its charts (wins per player per game, each player's rating game
after game, the latest evening's results) says what `upref stats --json` says of the same logs;
it holds names, games and results only; it fits a phone's width; and the live page points to it
between games."""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "host" / "support")]

from browser import chromium  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from stats_logs import Logs, write_logs  # noqa: E402
from upref.registry import find_game  # noqa: E402
from upref.stats.names import Names  # noqa: E402
from upref.stats.report import Query, from_logs  # noqa: E402
from upref.views.frame import Frame  # noqa: E402
from upref.web.hub import Hub  # noqa: E402
from upref.web.live import LivePage  # noqa: E402
from upref.web.server import WebScoreboard  # noqa: E402
from upref.web.stats_page import SHOWN_GAMES  # noqa: E402

WAIT_S = 60  # a generous deadline: the machine is shared


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Logs:
    folder = tmp_path_factory.mktemp("stats-page")
    (folder / "names.txt").write_text("Mum = Mama\n", encoding="utf-8")
    return write_logs(folder)


@pytest.fixture(scope="module")
def told(logs: Logs) -> dict[str, Any]:
    """What `upref stats --json` says of the logs (the command itself, in its own process)."""
    dbs = [a for p in logs.all for a in ("--db", str(p))]
    names = logs.home.parent / "names.txt"
    done = subprocess.run([sys.executable, "-m", "upref", "stats", *dbs, "--names", str(names), "--json"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium() as d:
        yield d


def _source(logs: Logs) -> Callable[[], Mapping[str, Any]]:
    names = Names.from_file(logs.home.parent / "names.txt")
    return lambda: from_logs(logs.all, Query(), names).as_json()


def _marks(d: Any, chart: str) -> list[dict[str, str]]:
    found = d.find_elements(By.CSS_SELECTOR, f'[data-chart="{chart}"]')
    return [d.execute_script(
        "const o = {}; for (const a of arguments[0].attributes) if (a.name.startsWith('data-')) "
        "o[a.name.slice(5)] = a.value; return o;", e) for e in found]


def _open(d: Any, url: str) -> None:
    d.get(url)
    WebDriverWait(d, WAIT_S).until(lambda d: d.find_elements(By.CSS_SELECTOR, "section.m-table"),
                                   "timed out waiting for the stats page")


def test_every_chart_says_what_upref_stats_json_says(browser: Any, logs: Logs, told: dict[str, Any]) -> None:
    with WebScoreboard(Hub(("Ann",)), "127.0.0.1", 0, stats=_source(logs)) as server:
        _open(browser, server.url + "stats")
        wins = {(m["game"], m["player"]): (int(m["won"]), int(m["shared"]), int(m["played"]))
                for m in _marks(browser, "wins")}
        rating = [(m["game"], m["player"], float(m["mu"]), float(m["sigma"]), int(m["log"]), int(m["number"]))
                  for m in _marks(browser, "rating")]
        evening = [(m["game"], m.get("log"), m.get("winners"), m.get("state")) for m in _marks(browser, "evening")]
        source = browser.page_source
    assert wins == {(x["game"], x["player"]): (x["won"], x["shared"], x["played"])
                    for x in told["lines"] if x["game"] is not None}
    assert sorted(rating) == sorted((r["game"], r["player"], h["mu"], h["sigma"], h["log"], h["number"])
                                    for r in told["ratings"] for h in r["history"])
    assert len(rating) < SHOWN_GAMES  # the fixture's every rating is drawn
    last = told["evenings"][0]
    assert evening == [(r["game"], str(r["log"]), ", ".join(r["winners"]), None) for r in last["results"]] + [
        (n["game"], None, None, n["state"]) for n in last["not_counted"]]
    assert wins[("updown", "Mum")] == (1, 0, 2)  # Mama merged into Mum by the names file
    assert ".sqlite" not in source and "<script" not in source  # no file, no script


def test_the_page_fits_a_phone_and_the_live_page_points_to_it_between_games(browser: Any, logs: Logs) -> None:
    with socket.socket() as s:  # a free port
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    page = LivePage(find_game("updown").panel, f"127.0.0.1:{port}", ("Ann", "Bob"), "s1", stats=_source(logs))
    page.start(Frame("updown", "Up And Down"), out=io.StringIO())  # no game yet: between games
    try:
        browser.set_window_size(390, 844)
        browser.get(page.server.url)
        WebDriverWait(browser, WAIT_S).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, ".stats-link a"), "timed out waiting for the pointer to /stats")
        browser.find_element(By.CSS_SELECTOR, ".stats-link a").click()
        WebDriverWait(browser, WAIT_S).until(lambda d: d.current_url.endswith("/stats"), "timed out opening /stats")
        _open(browser, page.server.url + "stats")
        wide = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], f"the page is {wide[0]} px wide on a phone {wide[1]} px wide"
        assert "Who wins what" in browser.find_element(By.TAG_NAME, "body").text
    finally:
        page.stop()


def test_a_server_without_logs_serves_no_stats(browser: Any) -> None:
    with WebScoreboard(Hub(("Ann",)), "127.0.0.1", 0) as server:
        browser.get(server.url + "stats")
        assert "not found" in browser.find_element(By.TAG_NAME, "body").text
