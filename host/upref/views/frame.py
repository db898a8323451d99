"""What the table hands every screen and the voice after each reply: one immutable `Frame`.

The table (`upref.table`) builds a frame from the referee once per reply and publishes it; the
terminal scoreboard (`upref.views.screen`), the keys (`upref.views.keys`), the live page
(`upref.web.live`) and the speaker (`upref.speech`) draw or say frames only and never ask the
referee or the table anything (Rich's renderables: a finished thing to draw, never asked back).

Secret information travels in `seats` alone: each seat's own view, for that seat's own screen
(its page, its panel), never for a screen that all players see. `view` and `status` are public;
a verdict of `verdicts` with `seat` set is for that seat alone, as everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from upref.games.base import GameView
from upref.referee.status import TableStatus, Verdict

__all__ = ["Frame", "Offer"]


class Offer(Protocol):
    """A key that means something now (the referee's `KeyOffer`): press `key` to send the input
    `make(t, answer)`; with a `prompt`, the answer is asked first, `default` offered."""

    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def make(self) -> Callable[[float, str | None], Any]: ...

    @property
    def prompt(self) -> str | None: ...

    @property
    def default(self) -> str | None: ...


@dataclass(frozen=True)
class Frame:
    """The table as it is after one reply of the referee.

    :param game: the game's name ('updown').
    :param title: the game's title ('Up And Down').
    :param number: the game of the match now on (0 before any game has begun).
    :param view: the public view; None before any game and while the next game of a match is
        being set up (the screen starts clean for it).
    :param seats: each seat's own view, by seat (empty while `view` is None): for that seat's
        own screen only. Left out of the frame's repr, so that no log line shows a secret.
    :param status: the referee's side of the scoreboard (nothing secret in it).
    :param verdicts: the reply's verdicts, in order (none for the frame before any reply).
    :param turn: whose turn it is, for the ear, when this reply passed the turn; else None.
    :param keys: the keys that mean something now, in the order the scoreboard lists them.
    """

    game: str
    title: str
    number: int = 0
    view: GameView | None = None
    seats: tuple[GameView | None, ...] = field(default=(), repr=False)
    status: TableStatus = field(default_factory=TableStatus)
    verdicts: tuple[Verdict, ...] = ()
    turn: str | None = None
    keys: tuple[Offer, ...] = ()

    @property
    def public(self) -> tuple[Verdict, ...]:
        """The reply's verdicts every screen may show (not those addressed to one seat)."""
        return tuple(v for v in self.verdicts if v.seat is None)
