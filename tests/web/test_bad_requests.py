"""What anyone on the network may send the scoreboard's server: a malformed request costs one
quiet line on the terminal (never aiohttp's traceback, never one line per request), and the
live viewers are capped, one more getting a 503 that says why."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_server import Stream, get
from upref.web import server as server_module
from upref.web.hub import MAX_VIEWERS, Edition, Hub
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
