"""The page's server: what it serves and with which headers, the live stream (the latest picture
at once, then each new one), private pages behind their tokens, nothing that changes the game,
and a stalled viewer dropped without slowing anyone."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator

import pytest
from upref.web.hub import QUEUE, Edition, Hub
from upref.web.server import WebScoreboard, is_loopback, parse_address


@pytest.fixture
def served() -> Iterator[tuple[Hub, WebScoreboard]]:
    hub = Hub(("Ann", "Bob"))
    hub.publish(Edition("g1:0", "Up And Down", "<p>PUBLIC-0</p>", {0: "<p>ANN-SECRET</p>", 1: "<p>BOB-SECRET</p>"}))
    server = WebScoreboard(hub, "127.0.0.1", 0).start()
    yield hub, server
    server.stop()


def get(server: WebScoreboard, path: str, method: str = "GET") -> tuple[int, dict[str, str], str]:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=5)
    conn.request(method, path)
    r = conn.getresponse()
    body = r.read().decode()
    conn.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, body


class Stream:
    """An SSE client: the events of one stream, read as they come."""

    def __init__(self, server: WebScoreboard, path: str) -> None:
        self.conn = http.client.HTTPConnection(server.host, server.port, timeout=5)
        self.conn.request("GET", path)
        self.resp = self.conn.getresponse()

    def next_board(self) -> dict[str, str]:
        event = None
        while True:
            line = self.resp.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "board":
                return json.loads(line[6:])

    def close(self) -> None:
        self.conn.close()


def test_the_page_and_its_files_with_strict_headers(served: tuple[Hub, WebScoreboard]) -> None:
    _, server = served
    status, headers, body = get(server, "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "default-src 'none'" in csp
    assert "<script src=\"/static/page.js\"" in body and "<script>" not in body
    assert "http" not in body.replace("http-equiv", "")  # nothing from elsewhere
    for name, kind in (("page.js", "text/javascript"), ("scoreboard.css", "text/css")):
        status, headers, text = get(server, f"/static/{name}")
        assert status == 200 and headers["content-type"].startswith(kind) and "http" not in text
    assert get(server, "/static/../hub.py")[0] == 404


def test_nothing_changes_the_game(served: tuple[Hub, WebScoreboard]) -> None:
    _, server = served
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        assert get(server, "/", method)[0] == 405
        assert get(server, "/events", method)[0] == 405


def test_the_stream_starts_with_the_latest_picture_then_follows(served: tuple[Hub, WebScoreboard]) -> None:
    hub, server = served
    s = Stream(server, "/events")
    assert s.resp.getheader("Content-Type") == "text/event-stream"
    first = s.next_board()
    assert first["version"] == "g1:0" and first["html"] == "<p>PUBLIC-0</p>"
    hub.publish(Edition("g2:0", "Up And Down", "<p>NEW GAME</p>", {0: "<p>ANN-SECRET</p>"}))
    second = s.next_board()
    assert second == {"version": "g2:0", "title": "Up And Down", "html": "<p>NEW GAME</p>"}
    s.close()


def test_a_seat_sees_its_own_page_and_a_wrong_token_gets_nothing(served: tuple[Hub, WebScoreboard]) -> None:
    hub, server = served
    token = hub.token_of(0)
    assert len(token) >= 24
    status, headers, _ = get(server, f"/seat/{token}")
    assert status == 200 and "no-store" in headers["cache-control"]
    s = Stream(server, f"/seat/{token}/events")
    html = s.next_board()["html"]
    assert "ANN-SECRET" in html and "PUBLIC-0" in html and "BOB-SECRET" not in html
    s.close()
    for path in ("/seat/nope", "/seat/nope/events", f"/seat/{token[:-1]}/events"):
        status, _, body = get(server, path)
        assert status == 404 and "SECRET" not in body and "PUBLIC" not in body
    pub = Stream(server, "/events")
    assert "SECRET" not in json.dumps(pub.next_board())
    pub.close()


def test_a_stalled_viewer_is_dropped_and_never_holds_up_publishing(served: tuple[Hub, WebScoreboard]) -> None:
    hub, server = served
    s = Stream(server, "/events")  # connected, but never reads again
    s.next_board()
    deadline = time.monotonic() + 5
    while hub.viewers < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    big = "<p>" + "x" * 200_000 + "</p>"
    for i in range(QUEUE * 20):  # all return: publishing never waits on a viewer
        hub.publish(Edition(f"g1:{i}", "t", big))
    deadline = time.monotonic() + 5
    while hub.dropped == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert hub.dropped >= 1 and hub.viewers == 0
    s.close()


def test_addresses() -> None:
    assert parse_address(None) == ("127.0.0.1", 8765)
    assert parse_address("0.0.0.0:8080") == ("0.0.0.0", 8080)
    assert parse_address(":9000") == ("127.0.0.1", 9000)
    assert parse_address("[::1]:8765") == ("::1", 8765)
    with pytest.raises(ValueError, match="give HOST:PORT"):
        parse_address("host:port")
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")


def test_web_takes_an_address_only_when_one_follows() -> None:
    from upref.commands.play import web_argv

    assert web_argv(["updown", "--web", "Ann", "Bob"]) == ["updown", "--web=127.0.0.1:8765", "Ann", "Bob"]
    assert web_argv(["updown", "--web", "0.0.0.0:9000", "Ann"]) == ["updown", "--web", "0.0.0.0:9000", "Ann"]
    assert web_argv(["updown", "Ann", "--web"]) == ["updown", "Ann", "--web=127.0.0.1:8765"]
    assert web_argv(["updown", "--web", ":8080", "Ann"])[2] == ":8080"
