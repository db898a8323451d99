"""The page's server: aiohttp, in a thread of its own, with Server-Sent Events.

    server = WebScoreboard(hub, "127.0.0.1", 8765).start()   # prints nothing; .url says where
    hub.publish(Edition(...))                                  # from the referee's thread
    server.stop()

Routes (GET and HEAD only; nothing changes the game):

- `/` the table's page; `/events` its live editions (SSE, event "board");
- `/seat/<token>` one seat's own page and `/seat/<token>/events`; a wrong token gets 404 and
  nothing else;
- `?lang=de` on any of these: the page in that language (one upref has a catalogue for; else
  the page's own, `Hub.lang`), with a small switch to the others at its top;
- `/static/<file>` the style sheet and the script (no external fonts or scripts);
- `/stats` who wins what, from the game logs (`upref.web.stats_page`), when the server was
  given the stats to draw: names, games and results only.

A GET or HEAD with a body gets 400 and an HTTP version but 1.0 and 1.1 gets 505, both before any
route, with one line on the terminal a minute per kind (`upref.web.refusals`).

Every answer carries a strict content security policy (no inline script, nothing from
elsewhere); private pages are never cached. Each SSE stream starts with the latest edition and
tells the browser to reconnect after a second, so a page survives the server restarting and is
never stale after a new game (each edition replaces the whole page).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import threading
import time
from collections.abc import Callable, Mapping
from html import escape as html_escape
from importlib import resources
from typing import Any

from aiohttp import web

from upref.text import Msg, in_lang
from upref.text.catalogue import available, language
from upref.web.hub import MAX_VIEWERS, Hub
from upref.web.refusals import QUIET_S, Refusals, refuse_bodies_and_old_versions
from upref.web.stats_page import render_stats, render_stats_error

__all__ = ["DEFAULT_ADDRESS", "WebScoreboard", "is_loopback", "parse_address"]

DEFAULT_ADDRESS = "127.0.0.1:8765"
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
NO_STORE = {"Cache-Control": "no-store, private", "Pragma": "no-cache"}
STATIC = {"scoreboard.css": "text/css", "page.js": "text/javascript"}
StatsSource = Callable[[], Mapping[str, Any]]
"""What `/stats` draws, asked at each visit: the stats as data (`Stats.as_json()`); a
ValueError saying why there are none (a merge of two players of one table)."""
KEEPALIVE_S = 15.0


def parse_address(text: str | None) -> tuple[str, int]:
    """'0.0.0.0:8080' / ':8080' / '192.168.1.5' -> (host, port); default 127.0.0.1:8765.

    :raises ValueError: naming what is wrong with it.
    """
    text = (text or DEFAULT_ADDRESS).strip()
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = text, "8765"
    host = host.strip("[]") or "127.0.0.1"
    try:
        number = int(port)
    except ValueError:
        raise ValueError(
            Msg("not an address: {text!r}; give HOST:PORT, e.g. 0.0.0.0:8765", text=text)
        ) from None
    if not 0 < number < 65536:
        raise ValueError(Msg("port {number} is out of range 1..65535", number=number))
    return host, number


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _page(title: str, events: str, lang: str, switch: str) -> str:
    """The page's frame in `lang`: its words said there, the script's own words (for what the
    link does) handed to it as data, and `switch` the links to the other languages."""

    def say(text: str) -> str:
        return html_escape(in_lang(text, lang), quote=True)

    live, lost = say(Msg("live")), say(Msg("reconnecting to the referee…"))
    connecting, label = say(Msg("connecting…")), say(Msg("the scoreboard"))
    words = f'data-live="{live}" data-lost="{lost}" data-gone="{say(_GONE)}"'
    return (
        f"<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{html_escape(title)}</title><link rel=\"stylesheet\" href=\"/static/scoreboard.css\">"
        "<script src=\"/static/page.js\" defer></script></head>"
        f"<body><div class=\"top\">{switch}<p id=\"link\" class=\"link\" {words}>{connecting}</p></div>"
        f"<main id=\"board\" data-events=\"{events}\" aria-label=\"{label}\">"
        "</main></body></html>\n"
    )


_GONE = Msg(
    "This link is no longer valid: upref was started again. Ask at the referee's laptop for your "
    "new link (key w)."
)


def _switch(path: str, lang: str) -> str:
    """Links to the page in each other language upref speaks, each named in its own language."""
    others = [code for code in available() if code != lang]
    if not others:
        return ""
    links = " ".join(
        f'<a href="{path}?lang={code}" hreflang="{code}" lang="{code}">{html_escape(_name(code))}</a>'
        for code in others
    )
    label = html_escape(in_lang(Msg("language"), lang), quote=True)
    return f'<nav class="langs" aria-label="{label}">{links}</nav>'


def _name(code: str) -> str:
    """A language's name in that language ('Deutsch', 'English')."""
    found = language(code)
    return found.name if found is not None else "English" if code == "en" else code


class _QuietLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """What aiohttp says about a request it cannot handle, as one line without a traceback, and
    at most one line a minute (anyone on the network may send garbage: it must not scroll the
    scoreboard's terminal away)."""

    def __init__(self) -> None:
        super().__init__(logging.getLogger("upref.web"), {})
        self._last = -QUIET_S
        self._unsaid = 0

    def exception(self, msg: object, *args: object, exc_info: object = True, **kwargs: object) -> None:
        self._unsaid += 1
        now = time.monotonic()
        if now - self._last < QUIET_S:
            return
        self._last = now
        what = exc_info if isinstance(exc_info, BaseException) else None
        why = str(getattr(what, "message", "") or what or "").strip().splitlines()
        text = str(msg) % args if args else str(msg)
        more = f" (and {self._unsaid - 1} more this minute)" if self._unsaid > 1 else ""
        self._unsaid = 0
        self.logger.warning(
            "upref web: a request was refused%s: %s%s",
            more,
            why[0] if why else type(what).__name__ if what else "malformed",
            f" [{text}]" if text else "",
        )


class WebScoreboard:
    """The page's server in a thread of its own.

    :raises OSError: from `start` when the address cannot be bound (in use, not ours).
    """

    def __init__(
        self,
        hub: Hub,
        host: str = "127.0.0.1",
        port: int = 8765,
        refusals: Refusals | None = None,
        stats: StatsSource | None = None,
    ) -> None:
        self.hub = hub
        self.stats = stats
        self.refusals = refusals or Refusals()
        self.host = host
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._stopping: asyncio.Event | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def seat_url(self, seat: int) -> str:
        return f"{self.url}seat/{self.hub.token_of(seat)}"

    def app(self) -> web.Application:
        refuse = refuse_bodies_and_old_versions(self.refusals, HEADERS)
        app = web.Application(middlewares=[_headers, refuse])
        app.router.add_get("/", self._index)
        app.router.add_get("/events", self._events)
        app.router.add_get("/seat/{token}", self._seat_page)
        app.router.add_get("/seat/{token}/events", self._seat_events)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/stats", self._stats)
        return app

    def start(self) -> WebScoreboard:
        self._thread = threading.Thread(target=self._run, name="upref-web", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._error is not None:
            raise self._error
        return self

    def stop(self) -> None:
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stopping.set)
        if self._thread is not None:
            self._thread.join(timeout=10)

    def __enter__(self) -> WebScoreboard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- the loop --------------------------------------------------------------------------

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as exc:  # reported to start(), never lost
            self._error = exc
            self._ready.set()
        finally:
            loop.close()

    async def _serve(self) -> None:
        self._stopping = asyncio.Event()
        self.hub.bind(asyncio.get_running_loop())
        runner = web.AppRunner(
            self.app(), handle_signals=False, access_log=None, shutdown_timeout=2.0,
            logger=_QuietLog(),
        )
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port, reuse_address=True)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        if self.port == 0:
            server = site._server  # the port the system chose
            assert server is not None
            self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        self._runner = runner
        self._ready.set()
        await self._stopping.wait()
        self.hub.close_viewers()  # open streams end now: browsers reconnect to the next server
        await runner.cleanup()

    # --- handlers --------------------------------------------------------------------------

    def lang_of(self, request: web.Request) -> str:
        """The language a request asks for (`?lang=de`): one upref speaks, else the page's."""
        asked = request.query.get("lang", "")
        return asked if asked in available() else self.hub.lang

    def _framed(self, request: web.Request, path: str) -> str:
        lang = self.lang_of(request)
        self.hub.ask(lang)
        latest = self.hub.latest_in(lang)
        title = latest.title if latest else "upref"
        return _page(title, f"{path}/events?lang={lang}".replace("//", "/"), lang, _switch(path, lang))

    async def _index(self, request: web.Request) -> web.Response:
        return web.Response(text=self._framed(request, "/"), content_type="text/html")

    async def _seat_page(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        if self.hub.seat_of(token) is None:
            raise web.HTTPNotFound(text="not found")
        return web.Response(
            text=self._framed(request, f"/seat/{token}"), content_type="text/html", headers=NO_STORE
        )

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound(text="not found")
        body = resources.files("upref.web").joinpath("static", name).read_text(encoding="utf-8")
        return web.Response(text=body, content_type=STATIC[name])

    async def _stats(self, request: web.Request) -> web.Response:
        source = self.stats
        if source is None:
            raise web.HTTPNotFound(text="not found")
        lang = self.lang_of(request)
        page = await asyncio.get_running_loop().run_in_executor(None, _stats_page, source, lang)
        return web.Response(text=page, content_type="text/html", headers=NO_STORE)

    async def _events(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, None)

    async def _seat_events(self, request: web.Request) -> web.StreamResponse:
        seat = self.hub.seat_of(request.match_info["token"])
        if seat is None:
            raise web.HTTPNotFound(text="not found")
        return await self._stream(request, seat)

    async def _stream(self, request: web.Request, seat: int | None) -> web.StreamResponse:
        if self.hub.viewers >= MAX_VIEWERS:
            full = Msg(
                "{most} pages are watching this table already, the most it serves: close one of "
                "them, then reload this page",
                most=MAX_VIEWERS,
            )
            raise web.HTTPServiceUnavailable(
                text=in_lang(full, self.lang_of(request)), headers={"Retry-After": "30"}
            )
        headers = {**HEADERS, "Content-Type": "text/event-stream", "Cache-Control": "no-store"}
        resp = web.StreamResponse(headers=headers)
        viewer = self.hub.join(seat, self.lang_of(request))  # before the first await: the cap holds
        try:
            await resp.prepare(request)
            await resp.write(b"retry: 1000\n\n")
            while True:
                try:
                    data = await asyncio.wait_for(viewer.queue.get(), KEEPALIVE_S)
                except TimeoutError:
                    await resp.write(b": keep-alive\n\n")
                    continue
                if not data:  # dropped for falling behind
                    break
                await resp.write(f"event: board\ndata: {data}\n\n".encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.hub.leave(viewer)
        with contextlib.suppress(ConnectionResetError):
            await resp.write_eof()
        return resp


def _stats_page(source: StatsSource, lang: str) -> str:
    """The stats page in `lang`, read from the logs now (they may have grown since the last
    visit)."""
    try:
        return render_stats(source(), lang)
    except ValueError as exc:  # a merge that cannot be, a log that cannot be read at all
        why = exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], str) else str(exc)
        return render_stats_error(why, lang)


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    try:
        resp: web.StreamResponse = await handler(request)
    except web.HTTPException as exc:
        exc.headers.update(HEADERS)
        raise
    if not resp.prepared:
        resp.headers.update(HEADERS)
    return resp
