"""What the page shows now, and who is watching.

The referee's thread `publish`es each new edition (the public scoreboard as HTML, and each
seat's own page) in each language a page asked for (`ask`); the web server's loop hands it to
every viewer of that language. A viewer's queue is bounded:
one that falls behind is dropped (its browser reconnects and gets the latest edition at once),
so a slow or stalled viewer never slows the referee or the other viewers.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from upref.text import ENGLISH

__all__ = ["MAX_VIEWERS", "QUEUE", "Edition", "Hub", "Viewer"]

QUEUE = 8
"""Editions a viewer may have waiting before it counts as stalled and is dropped."""
MAX_VIEWERS = 200
"""Open pages the server feeds at most; one more is told to come back later (503)."""


@dataclass(frozen=True)
class Edition:
    """One edition of the page: `version` changes with every edition (a new game changes its
    first part), `title` for the browser's tab, `public` the table's scoreboard as HTML,
    `private` each seat's own blocks as HTML (never sent without that seat's token), and `head`
    the big lines (whose turn, the last verdict, who won) at the top of every page, a seat's
    own above its own blocks, so that a phone's first screen shows them."""

    version: str
    title: str
    public: str
    private: Mapping[int, str] = field(default_factory=dict)
    head: str = ""

    def message(self, seat: int | None) -> str:
        """The SSE data for a viewer: JSON with the version, title and the HTML to show."""
        body = self.public if seat is None else self.private.get(seat, "") + self.public
        body = self.head + body
        return json.dumps({"version": self.version, "title": self.title, "html": body})


class Viewer:
    """One open page: its seat (None: the table's), its language, the editions waiting for
    it, and whether it was dropped."""

    def __init__(self, seat: int | None, lang: str = ENGLISH) -> None:
        self.seat = seat
        self.lang = lang
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=QUEUE)
        self.dropped = False


class Hub:
    """The latest edition and the viewers, shared by the referee's thread and the server's loop.

    :param seats: the players' names; each seat gets an unguessable token for its own page.
    :param lang: the page's language when a browser asks for none (`?lang=`).
    """

    def __init__(self, seats: tuple[str, ...] = (), lang: str = ENGLISH) -> None:
        self.tokens: dict[str, int] = {secrets.token_urlsafe(18): s for s in range(len(seats))}
        self.seats = seats
        self.lang = lang
        self.langs: tuple[str, ...] = (lang,)
        """The languages the editions are made in: the default, and each one a page asked for."""
        self.on_new_lang: Callable[[str], None] | None = None
        """Called (on the server's loop) with a language a page asks for the first time, to
        publish the latest edition in it."""
        self._lock = threading.Lock()
        self._latest: dict[str, Edition] = {}
        self._viewers: set[Viewer] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.dropped = 0

    def token_of(self, seat: int) -> str:
        return next(t for t, s in self.tokens.items() if s == seat)

    def seat_of(self, token: str) -> int | None:
        """The seat a token opens, or None for a wrong one (compared in constant time)."""
        found = None
        for t, s in self.tokens.items():
            if secrets.compare_digest(t, token):
                found = s
        return found

    @property
    def latest(self) -> Edition | None:
        """The latest edition in the default language."""
        return self.latest_in(self.lang)

    def latest_in(self, lang: str) -> Edition | None:
        with self._lock:
            return self._latest.get(lang)

    def ask(self, lang: str) -> None:
        """A page wants `lang`: from now on every edition is made in it too (the latest one
        at once, by `on_new_lang`; without it, pages get the page's own language)."""
        with self._lock:
            if lang in self.langs or self.on_new_lang is None:  # none to make it: the page's own
                return
            self.langs = (*self.langs, lang)
        self.on_new_lang(lang)

    @property
    def viewers(self) -> int:
        return len(self._viewers)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The server's loop, on which viewers are fed."""
        self._loop = loop

    def publish(self, edition: Edition, lang: str | None = None) -> None:
        """A new edition in `lang` (default: the page's), from any thread; returns at once."""
        said = self.lang if lang is None else lang
        with self._lock:
            self._latest[said] = edition
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._fan_out, edition, said)

    def join(self, seat: int | None, lang: str | None = None) -> Viewer:
        """A new viewer (on the server's loop) of a page in `lang` (default: the page's), given
        the latest edition at once."""
        if lang is not None:
            self.ask(lang)
        v = Viewer(seat, lang if lang in self.langs else self.lang)
        self._viewers.add(v)
        latest = self.latest_in(v.lang)
        if latest is not None:
            v.queue.put_nowait(latest.message(seat))
        return v

    def leave(self, v: Viewer) -> None:
        self._viewers.discard(v)

    def close_viewers(self) -> None:
        """Give every open stream the latest edition, then tell it to end (on the server's
        loop): the server is stopping, and the page keeps showing how the game stood."""
        for v in list(self._viewers):
            self._viewers.discard(v)
            while not v.queue.empty():
                v.queue.get_nowait()
            latest = self.latest_in(v.lang)
            if latest is not None:
                v.queue.put_nowait(latest.message(v.seat))
            v.queue.put_nowait("")

    def _fan_out(self, edition: Edition, lang: str) -> None:
        said: dict[int | None, str] = {}  # one message per seat (and the table), however many watch
        for v in list(self._viewers):
            if v.lang != lang:
                continue
            if v.seat not in said:
                said[v.seat] = edition.message(v.seat)
            try:
                v.queue.put_nowait(said[v.seat])
            except asyncio.QueueFull:  # stalled: drop it; its browser reconnects
                v.dropped = True
                self.dropped += 1
                self._viewers.discard(v)
                while not v.queue.empty():
                    v.queue.get_nowait()
                v.queue.put_nowait("")  # tells its connection to close
