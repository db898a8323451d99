"""The page `/stats` on the page's server, without a browser: served with the page's strict
headers when the server has the stats to draw, 404 when it has none, every name escaped, a merge
that cannot be said on the page instead of a traceback; and the live page's pointer to it
between games."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from test_server import get
from upref.registry import find_game
from upref.stats.names import MergeError
from upref.views.frame import Frame
from upref.web.hub import Hub
from upref.web.live import STATS_POINTER, LivePage
from upref.web.server import WebScoreboard
from upref.web.stats_page import SHOWN_GAMES, render_stats

STATS: dict[str, Any] = {
    "counted": 1,
    "games": {"updown": {"title": "Up And Down", "score": "shovels", "fewest_win": False}},
    "lines": [
        {"player": "<b>Ann</b>", "game": "updown", "title": "Up And Down", "played": 1, "won": 1, "shared": 0,
         "current_run": 1, "longest_run": 1, "average": 5.0, "score": "shovels", "fewest_win": False,
         "rating": {"mu": 27.6, "sigma": 8.0}},
        {"player": "Bob", "game": "updown", "title": "Up And Down", "played": 1, "won": 0, "shared": 0,
         "current_run": 0, "longest_run": 0, "average": 2.0, "score": "shovels", "fewest_win": False,
         "rating": {"mu": 22.4, "sigma": 8.0}},
    ],
    "ratings": [
        {"player": "<b>Ann</b>", "game": "updown", "history": [{"mu": 27.6, "sigma": 8.0, "t": 1.0, "log": 1, "number": 1}]},
        {"player": "Bob", "game": "updown", "history": [{"mu": 22.4, "sigma": 8.0, "t": 1.0, "log": 1, "number": 1}]},
    ],
    "evenings": [{"evening": "2026-11-06", "results": [
        {"log": 1, "number": 1, "game": "updown", "title": "Up And Down", "ended": "2026-11-06T20:00:00",
         "players": ["<b>Ann</b>", "Bob"], "winners": ["<b>Ann</b>"], "scores": {"<b>Ann</b>": 5, "Bob": 2},
         "stopped": False}], "not_counted": []}],
    "not_counted": [],
    "skipped": [],
}


def test_stats_are_served_with_strict_headers_and_every_name_escaped() -> None:
    with WebScoreboard(Hub(("Ann",)), "127.0.0.1", 0, stats=lambda: STATS) as server:
        status, headers, body = get(server, "/stats")
    assert status == 200 and "default-src 'none'" in headers["content-security-policy"]
    assert "no-store" in headers["cache-control"]
    assert "<b>Ann</b>" not in body and "&lt;b&gt;Ann&lt;/b&gt;" in body
    assert "<script" not in body and 'data-chart="wins"' in body and 'data-chart="rating"' in body
    assert "Friday 6 November 2026" in body


def test_no_stats_to_draw_is_404_and_a_merge_that_cannot_be_is_said() -> None:
    with WebScoreboard(Hub(("Ann",)), "127.0.0.1", 0) as server:
        assert get(server, "/stats")[0] == 404

    def refused() -> Mapping[str, Any]:
        raise MergeError("Ann and Kid sat at the same table (log 3 of games.sqlite), so they are two people")

    with WebScoreboard(Hub(("Ann",)), "127.0.0.1", 0, stats=refused) as server:
        status, _, body = get(server, "/stats")
    assert status == 200 and "The stats cannot be drawn" in body and "two people" in body
    assert "Traceback" not in body


def test_an_empty_log_says_so() -> None:
    with WebScoreboard(Hub(("Ann",)), "127.0.0.1", 0, stats=lambda: {"counted": 0}) as server:
        status, _, body = get(server, "/stats")
    assert status == 200 and "No finished game in the logs yet" in body


def test_the_live_page_points_to_the_stats_between_games_only_when_it_has_them() -> None:
    panel = find_game("updown").panel
    with_stats = LivePage(panel, "127.0.0.1:8765", ("Ann", "Bob"), "s1", stats=lambda: STATS)
    with_stats.update(Frame("updown", "Up And Down"))  # not served: the edition alone
    assert with_stats.hub.latest is not None and STATS_POINTER in with_stats.hub.latest.public
    without = LivePage(panel, "127.0.0.1:8765", ("Ann", "Bob"), "s1")
    without.update(Frame("updown", "Up And Down"))
    assert without.hub.latest is not None and "/stats" not in without.hub.latest.public


def test_a_rating_chart_draws_the_latest_games_only() -> None:
    many = [{"mu": 25.0 + i / 10, "sigma": 8.0 - i / 100, "t": float(i), "log": i, "number": 1}
            for i in range(SHOWN_GAMES + 10)]
    data = {**STATS, "ratings": [{"player": "Bob", "game": "updown", "history": many}]}
    page = render_stats(data)
    drawn = [int(n) for n in re.findall(r'data-chart="rating"[^>]*data-log="(\d+)"', page)]
    assert drawn == list(range(10, SHOWN_GAMES + 10))
