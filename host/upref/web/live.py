"""The live page while a game runs: `upref play --web` and `upref demo --web`.

`LivePage` serves the page (`upref.web.server`) and, after every reply of the referee, draws the
table's scoreboard and each seat's own screen as HTML and publishes them (`upref.web.hub`). It
only reads the referee; the page changes nothing.
"""

from __future__ import annotations

import itertools
import sys
from collections import deque
from typing import TextIO

import segno

from upref.game import Game
from upref.referee.base import Reply
from upref.referee.status import Verdict
from upref.table import Table
from upref.views import html
from upref.views.blocks import Feed
from upref.views.scoreboard import feed_line, scoreboard, waiting_scoreboard
from upref.web.hub import Edition, Hub
from upref.web.server import WebScoreboard, is_loopback, parse_address

__all__ = ["PRIVATE_VERDICTS", "LivePage", "looks_like_address"]

PRIVATE_VERDICTS = 2
"""The newest verdicts addressed to one seat (hints) that its own page shows."""


def looks_like_address(text: str) -> bool:
    """Whether a word after `--web` is meant as its address (host:port, :port, an IP) rather
    than a player's name or a game's; a wrong one ('0.0.0.0:99999') counts too, so that it is
    refused as an address instead of taken for a name."""
    return ":" in text or (text.replace(".", "").isdigit() and "." in text)


class LivePage:
    """The page of one session at the table.

    :param address: HOST:PORT to serve on (`upref.web.server.parse_address`).
    :param session: names this session in each edition's version (the log's game id), so that a
        page never mixes two sessions.
    :raises ValueError: for an address that is not one.
    """

    def __init__(self, game: Game, table: Table, address: str | None, players: tuple[str, ...], session: str) -> None:
        self.game = game
        self.table = table
        self.session = session
        host, port = parse_address(address)
        self.hub = Hub(players)
        self.server = WebScoreboard(self.hub, host, port)
        self._count = itertools.count()
        self._said: deque[tuple[int, Verdict]] = deque(maxlen=4 * PRIVATE_VERDICTS * len(players))

    def start(self, out: TextIO = sys.stderr) -> None:
        """Serve the page and say where (a QR code for phones when it is not on loopback).

        :raises OSError: when the address cannot be served (in use, not this machine's).
        """
        self.server.start()
        self.update()
        print(f"The scoreboard page: {self.server.url}", file=out)
        if not is_loopback(self.server.host):
            print(
                f"Warning: the page is served to every machine that reaches {self.server.host} "
                "(your whole network). It is read-only; each player's own page needs that "
                "player's token (key w).",
                file=out,
            )
            segno.make(self.server.url, error="m").terminal(out=out, compact=True)

    def seat_url(self, seat: int) -> str:
        return self.server.seat_url(seat)

    def update(self, reply: Reply | None = None) -> None:
        """Publish the table as it is now; `reply` (the referee's latest) brings the verdicts
        addressed to one seat, which only that seat's page shows."""
        ref = self.table.referee
        game = ref.engine.game_number if ref.has_engine else 0
        for v in reply.verdicts if reply is not None else ():
            if v.seat is not None:
                self._said.append((game, v))
        view = ref.view(None)
        status = ref.status()
        if view is None:
            board = waiting_scoreboard(self.game.name, self.game.title, status, panel=self.game.panel)
        else:
            board = scoreboard(view, status, self.game.panel)
        number = game if view is not None else 0
        private: dict[int, str] = {}
        if view is not None:
            for seat in range(len(view.names)):
                seen = ref.view(seat)
                if seen is not None:
                    own = list(self.game.panel.private(seen))
                    said = [feed_line(v) for n, v in self._said if v.seat == seat and n == number]
                    if said:  # a hint, the reminder of one's own card: for this seat alone
                        own.append(Feed(tuple(said[-PRIVATE_VERDICTS:])))
                    private[seat] = html.render_blocks(own)
        version = f"{self.session}:{number}:{next(self._count)}"
        self.hub.publish(Edition(version, board.title, html.render(board), private))

    def stop(self) -> None:
        self.server.stop()
