"""Which address the page is announced by: one a phone on the same network can open.

A page bound to all interfaces (`--web 0.0.0.0:8765`) has no address of its own: `0.0.0.0` is
where the server listens, not where a phone can find it. `announce` picks the address to give
out (in the terminal, the QR code and every seat's link) from this machine's network addresses,
and says when phones cannot reach the page at all (a page bound to loopback) and how to let
them. It is pure: `found()` gathers what it needs, so tests hand it interfaces of their own.

    here = found() if is_wildcard(host) else Interfaces()
    said = announce(host, port, here)      # said.url, said.also, said.lines, said.reachable

`found()` sends nothing anywhere: connecting a UDP socket only asks the system which of its
addresses would carry traffic to a documentation-only address (TEST-NET, never routed), and the
machine's own name is looked up in its own resolver. The mDNS name (`<host>.local`) is offered
only where a responder answers for it: Avahi's socket on Linux, macOS always.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from upref.text import Msg
from upref.web.server import is_loopback

__all__ = ["AVAHI_SOCKET", "Announcement", "Interfaces", "announce", "found", "is_wildcard", "mdns_name"]

AVAHI_SOCKET = Path("/run/avahi-daemon/socket")
"""Where Avahi (Linux's mDNS responder) listens while it runs."""
_PROBE_V4 = "192.0.2.1"  # TEST-NET-1 (RFC 5737): routed nowhere; a UDP connect sends nothing
_PROBE_V6 = "2001:db8::1"  # the documentation prefix (RFC 3849)
_WILDCARDS = ("0.0.0.0", "::", "")


@dataclass(frozen=True)
class Interfaces:
    """This machine's addresses that another machine on its network could use, best first
    (the one the default route leaves by), without loopback or link-local ones; and its mDNS
    name where a responder answers for it ('table.local'), else None."""

    ipv4: tuple[str, ...] = ()
    ipv6: tuple[str, ...] = ()
    mdns: str | None = None


@dataclass(frozen=True)
class Announcement:
    """How the page is announced: `url` the address the terminal, the QR code and the seat
    links give; `also` other addresses of the same page; `reachable` whether a phone on the
    network can open `url`; `lines` what the terminal says."""

    url: str
    also: tuple[str, ...]
    reachable: bool
    lines: tuple[str, ...]


def is_wildcard(host: str) -> bool:
    """Whether `host` means every interface of this machine (0.0.0.0, ::)."""
    return host in _WILDCARDS


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def announce(host: str, port: int, here: Interfaces) -> Announcement:
    """The page served at `host`:`port`, announced by an address phones can open (see the
    module's docstring); `here` is this machine's network, used when `host` is a wildcard."""
    if is_loopback(host):
        return Announcement(
            _url(host, port),
            (),
            False,
            (
                Msg("The scoreboard page: {url}", url=_url(host, port)),
                Msg(
                    "Only this machine can open it: phones and a TV cannot reach {host}. To let "
                    "them, serve the page on your network: --web 0.0.0.0:{port}.",
                    host=host,
                    port=port,
                ),
            ),
        )
    if not is_wildcard(host):
        who = Msg("every machine that reaches {host} (your whole network)", host=host)
        return _open(_url(host, port), (), who)
    v6 = host == "::"
    addresses = here.ipv6 if v6 else here.ipv4
    if not addresses:
        local = _url("::1" if v6 else "127.0.0.1", port)
        family = "IPv6 " if v6 else ""
        return Announcement(
            local,
            (),
            False,
            (
                Msg("The scoreboard page: {url}", url=local),
                Msg(
                    "This machine has no {family}network address now (no Wi-Fi or cable?), so "
                    "phones cannot reach the page. Connect it to the table's network and start "
                    "upref again to get an address phones can open.",
                    family=family,
                ),
            ),
        )
    urls = [_url(a, port) for a in addresses]
    if here.mdns is not None and not v6:
        urls.append(_url(here.mdns, port))
    return _open(urls[0], tuple(urls[1:]), Msg("every machine on your network"))


def _open(url: str, also: tuple[str, ...], who: str) -> Announcement:
    lines: list[str] = [Msg("The scoreboard page: {url}", url=url)]
    if also:
        lines.append(Msg("The same page also at: {urls}", urls=", ".join(also)))
    lines.append(
        Msg(
            "Warning: the page is served to {who}. It is read-only; each player's own page "
            "needs that player's token (key w).",
            who=who,
        )
    )
    return Announcement(url, also, True, tuple(lines))


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _routed(family: socket.AddressFamily, probe: str) -> list[str]:
    """The address the system would send from towards `probe`: a UDP connect picks the route
    and sends no packet."""
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as s:
        s.connect((probe, 9))
        return [str(s.getsockname()[0])]
    return []


def _named(family: socket.AddressFamily) -> list[str]:
    """The addresses this machine's own name resolves to (its hosts file, its resolver)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return [str(info[4][0]) for info in infos]


def _best(candidates: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(a for a in candidates if _usable(a)))


def mdns_name(
    hostname: str | None = None,
    platform: str = sys.platform,
    responder: Callable[[], bool] = AVAHI_SOCKET.exists,
) -> str | None:
    """'table.local' where this machine answers mDNS queries for its name: macOS always
    does; Linux does while Avahi runs (its socket is there). Else None."""
    name = (hostname if hostname is not None else socket.gethostname()).strip().rstrip(".")
    if not name or name == "localhost":
        return None
    if platform != "darwin" and not responder():
        return None
    first = name.split(".", 1)[0]
    return name if name.lower().endswith(".local") else f"{first}.local"


def found() -> Interfaces:
    """This machine's network as another machine would reach it (see the module's docstring).
    Sends nothing."""
    v4 = _best([*_routed(socket.AF_INET, _PROBE_V4), *_named(socket.AF_INET)])
    v6 = _best([*_routed(socket.AF_INET6, _PROBE_V6), *_named(socket.AF_INET6)])
    return Interfaces(v4, v6, mdns_name())
