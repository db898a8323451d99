"""The records the stats are made of: one finished game (`Result`), one game that gave no
result (`NotCounted`), and what was read (`Harvest`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

__all__ = ["ABANDONED", "CLOSED", "ELSEWHERE", "UNFINISHED", "Harvest", "NotCounted", "Result"]

UNFINISHED = "unfinished"
ELSEWHERE = "being played now"
CLOSED = "closed without a result"
ABANDONED = "abandoned before a move"


@dataclass(frozen=True)
class Result:
    """One finished game, as its log declares it.

    :param source: the file it was read from.
    :param log: the game row's number in that file (`upref games` lists it).
    :param number: which game of that session at the table (1, 2, ... after `next`).
    :param game: the game's name ('updown').
    :param t: when it ended (the log's input time, Unix seconds).
    :param players: the names, in seat order, as merged (`names`).
    :param winners: who won (several on a shared win; none when nobody scored).
    :param scores: each player's final score, in seat order; empty when the game keeps none.
    :param termination: why it ended, the game's own id ('stopped' for a game stopped early).
    :param started: when the session began (with `game`, `players`, `number`: one game's
        identity, however many copies of its log are read).
    """

    source: str
    log: int
    number: int
    game: str
    t: float
    players: tuple[str, ...]
    winners: tuple[str, ...]
    scores: tuple[int, ...]
    termination: str
    started: float = 0.0

    @property
    def stopped(self) -> bool:
        """Stopped early at the table (`e`): the referee declared the leader the winner."""
        return self.termination == "stopped"

    def key(self) -> tuple[str, float, tuple[str, ...], int]:
        """One game's identity: the same game read twice (a copy of the database, an export
        imported again) has the same key."""
        return (self.game, self.started, self.players, self.number)

    def renamed(self, name_of: dict[str, str]) -> Result:
        """The same result with each name replaced by its merged spelling."""
        return Result(self.source, self.log, self.number, self.game, self.t,
                      tuple(name_of.get(p, p) for p in self.players),
                      tuple(name_of.get(p, p) for p in self.winners),
                      self.scores, self.termination, self.started)


@dataclass(frozen=True)
class NotCounted:
    """A game of the logs that gave no result: unfinished, being played now, closed by hand or
    abandoned before a move. Shown as such, never counted."""

    source: str
    log: int
    game: str
    t: float
    players: tuple[str, ...]
    state: str

    def renamed(self, name_of: dict[str, str]) -> NotCounted:
        return replace(self, players=tuple(name_of.get(p, p) for p in self.players))


@dataclass
class Harvest:
    """Everything read from the logs: the results (each game once), the games that gave none,
    and one line for each file or game that could not be read."""

    results: list[Result] = field(default_factory=list)
    not_counted: list[NotCounted] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    """The files read."""
    unread: list[str] = field(default_factory=list)
    """The files that could not be read at all."""
