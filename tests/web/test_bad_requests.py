"""What anyone on the network may send the scoreboard's server: a malformed request costs one
quiet line on the terminal (never aiohttp's traceback, never one line per request), and the
live viewers are capped, one more getting a 503 that says why."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_server import Stream, get
from upref.web import server as server_module
from upref.web.hub import MAX_VIEWERS, Edition, Hub
from upref.web.refusals import Refusals
from upref.web.server import WebScoreboard

_SEND_GARBAGE = """
import socket, time
from upref.web.hub import Hub
from upref.web.server import WebScoreboard
server = WebScoreboard(Hub(("Ann", "Bob")), "127.0.0.1", 0).start()
for payload in [b"GET / HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: abc\\r\\n\\r\\n"] * 5 + [
    b"GARBAGE\\r\\n\\r\\n", b"\\x16\\x03\\x01\\x00\\xa5\\x01\\x00\\x00\\xa1\\x03\\x03" + bytes(50),
]:
    c = socket.create_connection(("127.0.0.1", server.port))
    c.sendall(payload)
    c.recv(4096)
    c.close()
time.sleep(0.3)
server.stop()
print("served")
"""


def test_malformed_requests_cost_one_quiet_line_and_no_traceback() -> None:
    host = Path(server_module.__file__).parents[2]
    env = dict(os.environ, PYTHONPATH=f"{host}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    done = subprocess.run(
        [sys.executable, "-c", _SEND_GARBAGE], capture_output=True, text=True, env=env, timeout=60,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == "served", done.stderr
    assert "Traceback" not in done.stderr and "Error handling request" not in done.stderr.split("[")[0]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr  # seven bad requests within a minute: one line
    assert lines[0].startswith("upref web: a request was refused: Invalid character in Content-Length")


@pytest.fixture
def capped(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Hub, WebScoreboard]]:
    monkeypatch.setattr(server_module, "MAX_VIEWERS", 3)
    hub = Hub(("Ann", "Bob"))
    hub.publish(Edition("g1:0", "Up And Down", "<p>PUBLIC-0</p>", {0: "<p>ANN</p>", 1: "<p>BOB</p>"}))
    server = WebScoreboard(hub, "127.0.0.1", 0).start()
    yield hub, server
    server.stop()


def test_viewers_beyond_the_cap_get_a_503_that_says_why(capped: tuple[Hub, WebScoreboard]) -> None:
    assert MAX_VIEWERS == 200
    hub, server = capped
    streams = [Stream(server, "/events"), Stream(server, f"/seat/{hub.token_of(0)}/events")]
    streams.append(Stream(server, "/events"))
    for s in streams:
        assert s.next_board()["html"]
    status, headers, body = get(server, "/events")
    assert status == 503
    assert "3 pages are watching this table already" in body and "close one" in body
    assert headers["retry-after"] == "30"
    assert "content-security-policy" in headers
    status, _, _ = get(server, "/")  # the page itself is still served
    assert status == 200
    # one page closed: its place is free again once the server has noticed
    streams.pop().close()
    deadline = time.monotonic() + 10
    n = 1
    while hub.viewers >= 3 and time.monotonic() < deadline:
        hub.publish(Edition(f"g1:{n}", "Up And Down", f"<p>PUBLIC-{n}</p>"))
        n += 1
        time.sleep(0.05)
    again = Stream(server, "/events")
    assert again.resp.status == 200 and again.next_board()["html"]
    for s in [*streams, again]:
        s.close()


def test_a_request_for_nothing_known_is_a_plain_404(capped: tuple[Hub, WebScoreboard]) -> None:
    _, server = capped
    conn = http.client.HTTPConnection(server.host, server.port, timeout=5)
    conn.request("GET", "/" + "x" * 4000)
    assert conn.getresponse().status == 404
    conn.close()


# --- bodies on GET and HEAD, HTTP versions but 1.0 and 1.1 -------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


Told = tuple[WebScoreboard, FakeClock, list[str]]


@pytest.fixture
def told() -> Iterator[Told]:
    """A server whose terminal lines are kept in a list, on a clock the test moves."""
    clock, lines = FakeClock(), list[str]()
    server = WebScoreboard(Hub(("Ann", "Bob")), "127.0.0.1", 0, Refusals(clock, lines.append)).start()
    yield server, clock, lines
    server.stop()


def raw(server: WebScoreboard, payload: bytes) -> bytes:
    """Send `payload` to the server on loopback; everything it answers until it closes."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as c:
        c.sendall(payload)
        return _until_closed(c)


def _until_closed(c: socket.socket) -> bytes:
    answer = b""
    while chunk := c.recv(65536):
        answer += chunk
    return answer


def test_a_get_with_a_small_body_is_refused_with_400_saying_why(told: Told) -> None:
    server, _, lines = told
    answer = raw(server, b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ")
    assert b"Connection: close" in head and b"Content-Security-Policy: default-src 'none'" in head
    assert body.decode() == (
        "refused: a GET request carries no body here (its Content-Length or Transfer-Encoding "
        "says it does). Send it again without one.\n"
    )
    assert lines == [
        "upref web: the page refused a request from 127.0.0.1 with a body on GET (400); "
        "further such requests are refused quietly for a minute"
    ]


def test_a_10_mb_body_is_refused_from_its_headers_and_never_read(told: Told) -> None:
    server, _, _ = told
    size = 10 * 1024 * 1024
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as c:
        c.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % size + bytes(65536))
        answer = _until_closed(c)  # the server closes without waiting for the other 10 MB
        assert answer.startswith(b"HTTP/1.1 400 ") and b"carries no body" in answer
        with pytest.raises(OSError):  # nobody is reading the rest: it cannot be delivered
            c.sendall(bytes(size))
    assert get(server, "/")[0] == 200  # and the page is served as ever


def test_a_chunked_get_is_refused(told: Told) -> None:
    server, _, _ = told
    answer = raw(server, b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 ") and b"carries no body" in answer


def test_a_head_with_a_body_is_refused_with_no_body_in_the_answer(told: Told) -> None:
    server, _, lines = told
    answer = raw(server, b"HEAD /events HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ") and body == b""
    assert "with a body on HEAD (400)" in lines[0]


@pytest.mark.parametrize(
    ("request_line", "said"),
    [(b"GET / HTTP/0.9\r\n\r\n", "0.9"), (b"GET /\r\n\r\n", "0.9"), (b"GET / HTTP/2.0\r\nHost: x\r\n\r\n", "2.0")],
)
def test_http_but_1_0_and_1_1_is_refused_with_505_said_in_http_1_0(
    told: Told, request_line: bytes, said: str
) -> None:
    server, _, lines = told
    head, _, body = raw(server, request_line).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.0 505 HTTP Version Not Supported\r\n")
    assert body.decode() == (
        f"refused: this page speaks HTTP/1.1 and HTTP/1.0, not HTTP/{said}. Open it in a web browser.\n"
    )
    assert lines == [
        f"upref web: the page refused a request from 127.0.0.1 in HTTP/{said} (505); "
        "further such requests are refused quietly for a minute"
    ]


@pytest.mark.parametrize("request_line", [b"GET / HTTP/0.8", b"GET / HTTP/0.0", b"GET / HTTP/1", b"GET / HTTP/1.2"])
def test_older_or_odd_versions_are_refused_by_the_parser_and_never_served(
    told: Told, request_line: bytes
) -> None:
    server, _, _ = told
    answer = raw(server, request_line + b"\r\nHost: x\r\n\r\n")
    assert answer.startswith(b"HTTP/1.0 400 Bad Request\r\n") and b"<html" not in answer


@pytest.mark.parametrize("request_line", [b"GET / HTTP/1.1\r\nHost: x", b"GET / HTTP/1.0", b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0"])
def test_a_plain_get_is_still_served(told: Told, request_line: bytes) -> None:
    server, _, lines = told
    answer = raw(server, request_line + b"\r\nConnection: close\r\n\r\n")
    assert answer.split(b"\r\n")[0].endswith(b" 200 OK") and b"<main id=\"board\"" in answer
    assert lines == []


def test_each_kind_of_refusal_is_said_at_most_once_a_minute(told: Told) -> None:
    server, clock, lines = told
    body = b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx"
    for _ in range(3):
        assert raw(server, body).startswith(b"HTTP/1.1 400 ")
    assert raw(server, b"GET / HTTP/0.9\r\n\r\n").startswith(b"HTTP/1.0 505 ")
    assert len(lines) == 2  # one line for the three bodies, one for HTTP/0.9
    assert "with a body on GET (400)" in lines[0] and "in HTTP/0.9 (505)" in lines[1]
    clock.now += 59.9
    raw(server, body)
    assert len(lines) == 2  # still within the minute: refused quietly
    clock.now += 0.2
    raw(server, body)
    raw(server, b"GET / HTTP/0.9\r\n\r\n")
    assert len(lines) == 4 and "with a body on GET (400)" in lines[2] and "HTTP/0.9 (505)" in lines[3]


def test_refusals_are_counted_per_kind_on_the_clock_given() -> None:
    clock, lines = FakeClock(), list[str]()
    refusals = Refusals(clock, lines.append)
    refusals.refused("body", "192.0.2.7", "with a body on GET", 400)
    refusals.refused("body", "192.0.2.8", "with a body on HEAD", 400)
    refusals.refused("version", "192.0.2.8", "in HTTP/0.9", 505)
    assert lines == [
        "upref web: the page refused a request from 192.0.2.7 with a body on GET (400); "
        "further such requests are refused quietly for a minute",
        "upref web: the page refused a request from 192.0.2.8 in HTTP/0.9 (505); "
        "further such requests are refused quietly for a minute",
    ]
    clock.now += 60.0
    refusals.refused("body", "192.0.2.8", "with a body on HEAD", 400)
    assert lines[-1].startswith("upref web: the page refused a request from 192.0.2.8 with a body on HEAD")
