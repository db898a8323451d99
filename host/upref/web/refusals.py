"""Requests the page refuses before any handler sees them, and the one line a minute that says so.

- a GET or HEAD that carries a body (a `Content-Length` over 0, or any `Transfer-Encoding`):
  400, answered from its headers alone; the body is never read and the connection is closed, so
  a 10 MB body costs the server nothing but the first packets the system had already taken in;
- an HTTP version other than 1.0 and 1.1 (`GET /` with no version, which aiohttp's parser takes
  for HTTP/0.9 once a blank line follows; `HTTP/0.9`; `HTTP/2.0` over plain text): 505, its
  status line in HTTP/1.0 (never `HTTP/0.9 ...`).

Each answer is a short plain text saying what was wrong. The terminal hears of each kind at most
once a minute (`Refusals`, its clock injectable for the tests).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping

from aiohttp import web
from aiohttp.http import HttpVersion10, HttpVersion11

__all__ = ["QUIET_S", "Refusals", "refuse_bodies_and_old_versions"]

QUIET_S = 60.0
"""At most one line per kind of refusal per this many seconds."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
WHY = {
    "body": (
        400,
        "with a body on {method}",
        "refused: a {method} request carries no body here (its Content-Length or "
        "Transfer-Encoding says it does). Send it again without one.\n",
    ),
    "version": (
        505,
        "in HTTP/{version}",
        "refused: this page speaks HTTP/1.1 and HTTP/1.0, not HTTP/{version}. "
        "Open it in a web browser.\n",
    ),
}


class Refusals:
    """Says on the terminal that the page refused a request, at most once a minute per kind.

    :param clock: seconds, only ever compared (`time.monotonic` unless a test gives its own).
    :param say: where the line goes (the `upref.web` logger's warnings unless given).
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self._clock = clock
        self._say = say or logging.getLogger("upref.web").warning
        self._last: dict[str, float] = {}

    def refused(self, kind: str, peer: str, what: str, status: int) -> None:
        """One request of `kind` from `peer` was refused with `status`; `what` says what was
        wrong with it ("with a body on GET", "in HTTP/0.9")."""
        now = self._clock()
        last = self._last.get(kind)
        if last is not None and now - last < QUIET_S:
            return
        self._last[kind] = now
        self._say(
            f"upref web: the page refused a request from {peer} {what} ({status}); "
            "further such requests are refused quietly for a minute"
        )


def refuse_bodies_and_old_versions(
    refusals: Refusals, headers: Mapping[str, str]
) -> Callable[..., Awaitable[web.StreamResponse]]:
    """The middleware that refuses what `refusals` reports (see the module's text), its answers
    carrying `headers` (the page's strict ones)."""

    @web.middleware
    async def refuse(request: web.Request, handler: Handler) -> web.StreamResponse:
        version = request.version
        if version not in (HttpVersion10, HttpVersion11):
            shown = f"{version.major}.{version.minor}"
            return await _refuse(request, refusals, headers, "version", request.method, shown)
        if request.method in ("GET", "HEAD") and _has_body(request):
            return await _refuse(request, refusals, headers, "body", request.method, "")
        return await handler(request)

    return refuse


def _has_body(request: web.Request) -> bool:
    if "Transfer-Encoding" in request.headers:
        return True
    length = request.content_length  # the parser has refused a malformed one already
    return length is not None and length > 0


async def _refuse(
    request: web.Request,
    refusals: Refusals,
    headers: Mapping[str, str],
    kind: str,
    method: str,
    version: str,
) -> web.StreamResponse:
    """Answer `kind`'s status and text, then close the connection without reading on."""
    status, what, text = WHY[kind]
    peer = request.remote or "an unknown address"
    refusals.refused(kind, peer, what.format(method=method, version=version), status)
    if request.version not in (HttpVersion10, HttpVersion11):
        # aiohttp writes the request's own version in the status line; a refusal of HTTP/0.9
        # must not itself claim to be HTTP/0.9, so the answer is said in HTTP/1.0
        # (aiohttp 3.14 keeps it in `_version`, cached by the `version` property)
        request._version = HttpVersion10
        request._cache.pop("version", None)
    said = text.format(method=method, version=version)
    resp = web.Response(status=status, text=said, headers=headers)
    resp.force_close()
    await resp.prepare(request)
    await resp.write_eof()
    request.protocol.force_close()  # no lingering read of a body nobody wants: the answer is sent
    return resp
