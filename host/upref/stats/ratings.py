"""A rating per player and game, from the results alone: openskill's Plackett-Luce model
(Weng and Lin's Bayesian approximation), which rates any number of players in one game and
takes ties as ties.

Each finished game updates its players' ratings in the order the games ended: the winners
share first place, the others follow by their final score (the game says whether the most or
the fewest win), equal scores sharing a place; a game that keeps no score ranks all but the
winners equal. A rating is shown with its uncertainty: `mu` ± `sigma`; it starts at 25 ± 8.33
and the uncertainty shrinks with every game. Nothing is stored: the same logs always give the
same ratings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from openskill.models import PlackettLuce, PlackettLuceRating

from upref.stats.records import Result

__all__ = ["Rating", "Ratings", "places", "rate"]


class Rating(NamedTuple):
    """A player's rating at one moment: after the game `log`/`number` that ended at `t` (a
    named tuple: 10 000 games make tens of thousands of them)."""

    mu: float
    sigma: float
    t: float = 0.0
    log: int = 0
    number: int = 0

    def as_dict(self) -> dict[str, float | int]:
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3), "t": self.t,
                "log": self.log, "number": self.number}


@dataclass
class Ratings:
    """Each (game, player)'s ratings, one after each game they played, oldest first."""

    history: dict[tuple[str, str], list[Rating]] = field(default_factory=dict)

    def now(self, game: str, player: str) -> Rating | None:
        h = self.history.get((game, player))
        return h[-1] if h else None


def places(result: Result, fewest: bool) -> list[float]:
    """Each seat's place (1 is best): the winners first, then by score, equal scores equal."""
    won = set(result.winners)
    scored = zip(result.players, result.scores, strict=True) if result.scores else ()
    others = sorted({s for p, s in scored if p not in won}, reverse=not fewest)
    out: list[float] = []
    for i, p in enumerate(result.players):
        if p in won:
            out.append(1)
        elif result.scores:
            out.append(2 + others.index(result.scores[i]))
        else:
            out.append(2)
    return out


def rate(results: Iterable[Result], fewest: Callable[[str], bool]) -> Ratings:
    """Every player's rating per game after each of `results` (in the order given); `fewest`
    says of a game whether its fewest points win. A game of one player rates no one."""
    model = PlackettLuce()
    out = Ratings()
    current: dict[tuple[str, str], PlackettLuceRating] = {}
    for r in results:
        if len(r.players) < 2:
            continue
        keys = [(r.game, p) for p in r.players]
        teams = [[current.get(k) or model.rating()] for k in keys]
        rated = model.rate(teams, ranks=places(r, fewest(r.game)))
        history = out.history
        for k, team in zip(keys, rated, strict=True):
            now = current[k] = team[0]
            history.setdefault(k, []).append(Rating(now.mu, now.sigma, r.t, r.log, r.number))
    return out
