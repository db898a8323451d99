"""The live page while a game runs: `upref play --web` and `upref demo --web`.

`LivePage` serves the page (`upref.web.server`) and, for every frame the table publishes after a
reply (`upref.views.frame`), draws the table's scoreboard and each seat's own screen as HTML and
publishes them (`upref.web.hub`), in the page's language and in each other language a browser
asked for (`?lang=de`): one table can show the TV in German while the laptop is in English. It is handed frames and asks neither the referee nor the table
anything; the page changes nothing.
"""

from __future__ import annotations

import itertools
import sys
import threading
from collections import deque
from collections.abc import Callable
from html import escape as html_escape
from typing import TextIO

import segno

from upref.games.base import GameView
from upref.referee.status import Verdict
from upref.text import ENGLISH, Msg, in_lang
from upref.views import html
from upref.views.blocks import Block, Feed, said_in
from upref.views.frame import Frame
from upref.views.scoreboard import Panel, feed_line, scoreboard, waiting_scoreboard
from upref.web.hub import Edition, Hub
from upref.web.reach import Announcement, Interfaces, announce, found, is_wildcard
from upref.web.server import StatsSource, WebScoreboard, parse_address

__all__ = ["PRIVATE_VERDICTS", "STATS_POINTER", "LivePage", "looks_like_address"]

STATS_WORDS = Msg("Who wins what: the stats of every evening")
"""The link shown between games (before the first, after one ends): the way to `/stats`."""


def stats_pointer(lang: str) -> str:
    """The way to `/stats`, said in `lang`."""
    href = "/stats" if lang == ENGLISH else f"/stats?lang={lang}"
    return f'<p class="stats-link"><a href="{href}">{html_escape(in_lang(STATS_WORDS, lang))}</a></p>'


STATS_POINTER = stats_pointer(ENGLISH)
"""The way to `/stats` in English."""
PRIVATE_VERDICTS = 2
"""The newest verdicts addressed to one seat (hints) that its own page shows."""


def looks_like_address(text: str) -> bool:
    """Whether a word after `--web` is meant as its address (host:port, :port, an IP) rather
    than a player's name or a game's; a wrong one ('0.0.0.0:99999') counts too, so that it is
    refused as an address instead of taken for a name."""
    return ":" in text or (text.replace(".", "").isdigit() and "." in text)


class LivePage:
    """The page of one session at the table.

    :param panel: the game's panel (`Game.panel`): what the scoreboard shows of its views.
    :param address: HOST:PORT to serve on (`upref.web.server.parse_address`).
    :param session: names this session in each edition's version (the log's game id), so that a
        page never mixes two sessions.
    :param network: this machine's network addresses, asked for when the page is served on
        every interface (`upref.web.reach.found`), to announce it by one a phone can open.
    :param stats: what `/stats` draws (`upref.web.server.StatsSource`); with it, the page
        points to `/stats` between games.
    :param lang: the page's language when a browser asks for none, and the terminal's lines'.
    :raises ValueError: for an address that is not one.
    """

    def __init__(
        self,
        panel: Panel[GameView],
        address: str | None,
        players: tuple[str, ...],
        session: str,
        network: Callable[[], Interfaces] = found,
        stats: StatsSource | None = None,
        lang: str = ENGLISH,
    ) -> None:
        self.panel = panel
        self.session = session
        self.lang = lang
        host, port = parse_address(address)
        self.hub = Hub(players, lang)
        self.hub.on_new_lang = self._publish_in
        self.server = WebScoreboard(self.hub, host, port, stats=stats)
        self._frame: Frame | None = None
        self._version = ""
        self._drawing = threading.Lock()  # the referee's thread and a new language's first page
        self._network = network
        self.announced: Announcement | None = None
        self._count = itertools.count()
        self._said: deque[tuple[int, Verdict]] = deque(maxlen=4 * PRIVATE_VERDICTS * len(players))

    def start(self, frame: Frame, out: TextIO = sys.stderr) -> None:
        """Serve the page, showing the table as `frame` has it, and say where: by an address
        phones on the network can open, with a QR code of it; or, on loopback, that phones
        cannot reach it and how to let them (`upref.web.reach.announce`).

        :raises OSError: when the address cannot be served (in use, not this machine's).
        """
        self.server.start()
        self._publish(frame)
        host = self.server.host
        said = announce(host, self.server.port, self._network() if is_wildcard(host) else Interfaces())
        self.announced = said
        for text in said.lines:
            print(in_lang(text, self.lang), file=out)
        if said.reachable:
            segno.make(said.url, error="m").terminal(out=out, compact=True)

    @property
    def url(self) -> str:
        """The page's address as announced: one a phone can open when the page is served on
        every interface (the server's own before `start`)."""
        return self.announced.url if self.announced is not None else self.server.url

    def seat_url(self, seat: int, lang: str | None = None) -> str:
        """One seat's own page, by the announced address (in `lang`, when not the page's)."""
        asked = f"?lang={lang}" if lang is not None and lang != self.lang else ""
        return f"{self.url}seat/{self.hub.token_of(seat)}{asked}"

    def update(self, frame: Frame) -> None:
        """Publish the table as the frame has it; its reply's verdicts addressed to one seat
        (hints) are kept for that seat's page alone."""
        for v in frame.verdicts:
            if v.seat is not None:
                self._said.append((frame.number, v))
        self._publish(frame)

    def _publish(self, frame: Frame) -> None:
        with self._drawing:
            self._frame = frame
            self._version = version = f"{self.session}:{self._number(frame)}:{next(self._count)}"
            for lang in self.hub.langs:
                self.hub.publish(self._edition(frame, version, lang), lang)

    def _publish_in(self, lang: str) -> None:
        """The latest frame's edition in a language a page asks for the first time (the same
        edition, by its version, as the other languages')."""
        with self._drawing:
            if self._frame is not None:
                self.hub.publish(self._edition(self._frame, self._version, lang), lang)

    @staticmethod
    def _number(frame: Frame) -> int:
        return frame.number if frame.view is not None else 0

    def _edition(self, frame: Frame, version: str, lang: str) -> Edition:
        """The page as `frame` has it, said in `lang`."""
        view = frame.view
        if view is None:
            board = waiting_scoreboard(frame.game, frame.title, frame.status, panel=self.panel)
        else:
            board = scoreboard(view, frame.status, self.panel)
        board = said_in(board, lang)
        private: dict[int, str] = {}
        for seat, seen in enumerate(frame.seats if view is not None else ()):
            if seen is not None:
                private[seat] = html.render_blocks(said_in(self._own(seat, seen, frame), lang))
        body = html.render_body(board)
        if self.server.stats is not None and (view is None or view.outcome is not None):
            body += stats_pointer(lang)  # between games: who wins what, on the page beside this one
        return Edition(version, board.title, body, private, html.render_head(board) + "\n")

    def _own(self, seat: int, seen: GameView, frame: Frame) -> tuple[Block, ...]:
        """A seat's own blocks: what its view shows it alone, and the hints and reminders said
        to it in this reply."""
        own = list(self.panel.private(seen))
        said = [feed_line(v) for n, v in self._said if v.seat == seat and n == self._number(frame)]
        if said:  # a hint, the reminder of one's own card: for this seat alone
            own.append(Feed(tuple(said[-PRIVATE_VERDICTS:])))
        return tuple(own)

    def stop(self) -> None:
        self.server.stop()
