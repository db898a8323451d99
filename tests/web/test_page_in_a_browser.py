"""The page in a real browser (headless Chromium): it follows the game live, shows whose turn it
is and the last verdict, survives the server restarting, is replaced whole by a new game, keeps
private pages private, and a wrong token gets nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from browser import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from upref.web.hub import Edition, Hub
from upref.web.server import WebScoreboard


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def browser() -> Iterator[object]:
    with chromium() as d:
        yield d


def _text(d: object) -> str:
    return d.find_element(By.TAG_NAME, "body").text  # type: ignore[attr-defined]


def _until(d: object, cond: Callable[[object], bool], what: str, timeout: float = 10) -> None:
    WebDriverWait(d, timeout).until(cond, f"timed out waiting for {what}")


def test_the_page_follows_restarts_and_new_games(browser: object) -> None:
    d = browser
    port = _free_port()
    hub = Hub(("Ann", "Bob"))
    hub.publish(Edition("g1:1:0", "upref — X", '<header class="big"><p class="turn">Ann to move</p></header><p>PIC-0</p>',
                        {0: "<p>ANN-SECRET</p>"}))
    server = WebScoreboard(hub, "127.0.0.1", port).start()
    try:
        d.get(server.url)  # type: ignore[attr-defined]
        _until(d, lambda d: "PIC-0" in _text(d), "the first picture")
        assert "Ann to move" in _text(d) and "ANN-SECRET" not in d.page_source  # type: ignore[attr-defined]
        hub.publish(Edition("g1:1:1", "upref — X", "<p>PIC-1</p>"))
        _until(d, lambda d: "PIC-1" in _text(d) and "PIC-0" not in _text(d), "the next picture")
        server.stop()
        _until(d, lambda d: "reconnecting" in _text(d), "the page to notice the server gone")
        hub.publish(Edition("g2:1:0", "upref — X", "<p>NEW GAME</p>"))  # while it is down
        server = WebScoreboard(hub, "127.0.0.1", port).start()
        _until(d, lambda d: "NEW GAME" in _text(d) and "PIC-1" not in _text(d), "the page back after a restart")
        assert "live" in _text(d)
        # a seat's own page, and a wrong token
        d.get(server.seat_url(0))  # type: ignore[attr-defined]
        hub.publish(Edition("g2:1:1", "upref — X", "<p>PUBLIC</p>", {0: "<p>ANN-SECRET</p>", 1: "<p>BOB-SECRET</p>"}))
        _until(d, lambda d: "ANN-SECRET" in _text(d), "Ann's own page")
        assert "BOB-SECRET" not in d.page_source  # type: ignore[attr-defined]
        d.get(f"{server.url}seat/wrong-token")  # type: ignore[attr-defined]
        assert "SECRET" not in d.page_source and "PUBLIC" not in d.page_source  # type: ignore[attr-defined]
    finally:
        server.stop()


def test_the_german_page_says_its_own_words_in_german(browser: object) -> None:
    """The page of a live table asked for in German (`?lang=de`): the scoreboard, and what the
    page says of its link when the referee goes away, in German; the English page beside it."""
    import io
    import sys
    from pathlib import Path

    sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "host" / d) for d in ("views", "support")]
    from updown_cases import state_solved
    from upref.registry import find_game
    from upref.table import frame_of
    from upref.web.live import LivePage

    d = browser
    scene = state_solved()
    names = scene.ref.view(None).names  # type: ignore[union-attr]
    page = LivePage(find_game("updown").panel, f"127.0.0.1:{_free_port()}", names, "s1")
    page.start(frame_of(scene.ref, scene.tb.replies[-1][1]), io.StringIO())
    try:
        d.get(page.url + "?lang=de")  # type: ignore[attr-defined]
        _until(d, lambda d: "live" in _text(d) and "Ann" in _text(d), "the German page's first picture")
        assert d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"  # type: ignore[attr-defined]
        assert "English" in _text(d)  # the switch to the other language
    finally:
        page.stop()
    _until(d, lambda d: "verbinde wieder mit dem Schiedsrichter" in _text(d), "the German page to notice the server gone")
    assert "reconnecting" not in _text(d)


def test_a_seat_page_from_an_earlier_session_drops_its_secrets(browser: object) -> None:
    d = browser
    port = _free_port()
    first = Hub(("Ann", "Bob"))
    first.publish(Edition("g1:1:0", "upref — X", "<p>PUBLIC</p>", {0: "<p>ANN-SECRET</p>"}))
    server = WebScoreboard(first, "127.0.0.1", port).start()
    try:
        d.get(server.seat_url(0))  # type: ignore[attr-defined]
        _until(d, lambda d: "ANN-SECRET" in _text(d), "Ann's own page")
        server.stop()
        # upref started again: a new session, new tokens; the old link opens nothing now
        second = Hub(("Ann", "Bob"))
        second.publish(Edition("g2:1:0", "upref — X", "<p>NEW PUBLIC</p>", {0: "<p>NEW-SECRET</p>"}))
        server = WebScoreboard(second, "127.0.0.1", port).start()
        _until(d, lambda d: "no longer valid" in _text(d), "the page to say its link is void", timeout=15)
        assert "ANN-SECRET" not in d.page_source and "NEW-SECRET" not in d.page_source  # type: ignore[attr-defined]
        assert "key w" in _text(d)
    finally:
        server.stop()
