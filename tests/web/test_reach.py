"""The page's address as it is announced: a page on every interface is given out by an address a
phone on the same network can open (in the terminal, its QR code and every seat's link), a page on
loopback says phones cannot reach it and how to let them, a given address is announced as itself."""

from __future__ import annotations

import io
import ipaddress
import socket
import sys
from pathlib import Path

import pytest
import segno

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "host" / d) for d in ("views", "support")]

from updown_cases import state_solved  # noqa: E402
from upref.registry import find_game  # noqa: E402
from upref.table import frame_of  # noqa: E402
from upref.web import reach  # noqa: E402
from upref.web.live import LivePage  # noqa: E402
from upref.web.reach import Interfaces, announce, mdns_name  # noqa: E402

HOME = Interfaces(ipv4=("192.168.1.23", "10.8.0.2"), ipv6=("fd00::23",), mdns="table.local")


def test_all_interfaces_is_announced_by_the_lan_address_then_the_others() -> None:
    said = announce("0.0.0.0", 8797, HOME)
    assert said.url == "http://192.168.1.23:8797/" and said.reachable
    assert said.also == ("http://10.8.0.2:8797/", "http://table.local:8797/")
    assert said.lines[0] == "The scoreboard page: http://192.168.1.23:8797/"
    assert "0.0.0.0" not in " ".join(said.lines)
    assert "http://table.local:8797/" in said.lines[1]
    assert said.lines[-1].startswith("Warning: the page is served to every machine on your network")


def test_all_ipv6_interfaces_is_announced_by_the_ipv6_lan_address_in_brackets() -> None:
    said = announce("::", 8765, HOME)
    assert said.url == "http://[fd00::23]:8765/" and said.reachable
    assert said.also == ()  # the IPv4 addresses and the mDNS name reach no IPv6-only server


def test_loopback_says_phones_cannot_reach_it_and_how_to_let_them() -> None:
    for host in ("127.0.0.1", "localhost", "::1"):
        said = announce(host, 8766, HOME)
        assert not said.reachable and said.also == ()
        assert said.lines[0] == f"The scoreboard page: {said.url}"
        assert "phones and a TV cannot reach" in said.lines[1]
        assert "--web 0.0.0.0:8766" in said.lines[1]
        assert not [ln for ln in said.lines if "Warning" in ln]


def test_a_given_address_is_announced_as_itself() -> None:
    said = announce("192.168.7.40", 8765, HOME)
    assert said.url == "http://192.168.7.40:8765/" and said.reachable and said.also == ()
    assert "every machine that reaches 192.168.7.40" in said.lines[-1]


def test_no_network_address_says_so_and_what_to_do() -> None:
    said = announce("0.0.0.0", 8765, Interfaces())
    assert not said.reachable and said.url == "http://127.0.0.1:8765/"
    assert "no network address" in said.lines[1] and "start upref again" in said.lines[1]


def test_the_mdns_name_only_where_a_responder_answers() -> None:
    assert mdns_name("table", "linux", lambda: True) == "table.local"
    assert mdns_name("table.home.lan", "linux", lambda: True) == "table.local"
    assert mdns_name("table", "linux", lambda: False) is None
    assert mdns_name("Anns-Mac.local", "darwin", lambda: False) == "Anns-Mac.local"
    assert mdns_name("localhost", "linux", lambda: True) is None


def test_this_machines_network_holds_no_loopback_and_sends_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[object] = []
    real = socket.socket

    class Watched(real):  # type: ignore[misc, valid-type]
        def send(self, *a: object, **k: object) -> int:
            sent.append(a)
            return 0

        def sendto(self, *a: object, **k: object) -> int:
            sent.append(a)
            return 0

    monkeypatch.setattr(socket, "socket", Watched)
    here = reach.found()
    assert sent == []
    for address in (*here.ipv4, *here.ipv6):
        ip = ipaddress.ip_address(address)
        assert not ip.is_loopback and not ip.is_link_local and not ip.is_unspecified


def _free() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _served(address: str, network: Interfaces) -> tuple[LivePage, str]:
    scene = state_solved()
    names = scene.ref.view(None).names  # type: ignore[union-attr]
    page = LivePage(find_game("updown").panel, address, names, "s1", network=lambda: network)
    out = io.StringIO()
    page.start(frame_of(scene.ref), out)
    return page, out.getvalue()


def _qr(url: str) -> str:
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def test_the_terminal_the_qr_code_and_the_seat_links_give_the_lan_address() -> None:
    port = _free()
    lan = Interfaces(ipv4=("192.168.1.23",))
    page, said = _served(f"0.0.0.0:{port}", lan)
    try:
        url = f"http://192.168.1.23:{port}/"
        assert f"The scoreboard page: {url}" in said.splitlines()
        assert _qr(url) in said  # the QR code a phone scans is the LAN address's
        assert _qr(f"http://0.0.0.0:{port}/") not in said
        assert page.url == url
        assert page.seat_url(1) == f"{url}seat/{page.hub.token_of(1)}"
        assert page.server.host == "0.0.0.0"  # it still listens where it was asked to
    finally:
        page.stop()


def test_a_page_on_loopback_prints_no_qr_code_and_says_how_to_open_it_to_phones() -> None:
    port = _free()
    page, said = _served(f"127.0.0.1:{port}", HOME)
    try:
        lines = said.splitlines()
        assert lines[0] == f"The scoreboard page: http://127.0.0.1:{port}/"
        assert f"--web 0.0.0.0:{port}" in lines[1]
        assert not any(ch in said for ch in "█▀▄")
        assert page.seat_url(0).startswith(f"http://127.0.0.1:{port}/seat/")
    finally:
        page.stop()
