"""Pile's rules: a pile of tiles; in turn each player takes one or two; whoever takes the last
one wins. Pure: they import nothing of the host but the rules' base."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from upref.games.base import TERMINAL, GameState, GameView, IllegalMoveError, Outcome
from upref.text import count

NAME = "pile"
TITLE = "Pile"
ITEMS = (("one", "one: take one tile"), ("two", "two: take two tiles"))


@dataclass(frozen=True)
class PileVariant:
    size: int = 7

    def to_dict(self) -> dict[str, Any]:
        return {"size": self.size}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> PileVariant:
        return cls(int((data or {}).get("size", 7)))

    def describe(self) -> str:
        return f"a pile of {self.size}"


@dataclass(frozen=True, order=True)
class Take:
    n: int


@dataclass(frozen=True, kw_only=True)
class PileView(GameView):
    pile: int
    taken: tuple[int, ...]


class PileGame(GameState[Take]):
    def __init__(self, players: Sequence[str], variant: PileVariant) -> None:
        super().__init__()
        if len(players) < 2:
            raise ValueError("Pile needs two players or more")
        self._players = tuple(players)
        self.variant = variant
        self._s: tuple[int, int, tuple[int, ...], str] = (
            variant.size, 0, (0,) * len(players), f"Pile of {variant.size}: {players[0]} begins."
        )

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    def num_players(self) -> int:
        return len(self._players)

    def current_player(self) -> int:
        return TERMINAL if self._s[0] == 0 else self._s[1]

    def legal_actions(self) -> list[Take]:
        return [Take(n) for n in (1, 2) if n <= self._s[0]]

    def check(self, action: Take) -> None:
        if self._s[0] == 0:
            raise IllegalMoveError("over", "The pile is gone: the game is over.", None, action)
        if action not in self.legal_actions():
            raise IllegalMoveError(
                "take",
                f"{self._players[self._s[1]]} cannot take {action.n}: only {self._s[0]} left.",
                "Put the tiles back and take one.",
                action,
            )

    def outcome(self) -> Outcome | None:
        pile, to_move, taken, _ = self._s
        if pile:
            return None
        winner = (to_move - 1) % len(self._players)
        return Outcome("last-tile", (winner,), taken)

    def view(self, seat: int | None) -> PileView:
        pile, to_move, taken, verdict = self._s
        over = pile == 0
        return PileView(
            game=NAME, game_number=1, names=self._players, phase="over" if over else "take",
            to_move=None if over else to_move, outcome=self.outcome(), verdict=verdict,
            seat=seat, pile=pile, taken=taken,
        )

    def clone(self) -> PileGame:
        other = PileGame(self._players, self.variant)
        other._s = self._s
        other._undo_stack = list(self._undo_stack)
        return other

    def _snapshot(self) -> object:
        return self._s

    def _restore(self, snapshot: object) -> None:
        self._s = snapshot  # type: ignore[assignment]

    def _do(self, action: Take) -> str:
        pile, to_move, taken, _ = self._s
        who = self._players[to_move]
        counts = list(taken)
        counts[to_move] += action.n
        pile -= action.n
        text = f"{who} takes {count(action.n, 'tile')}: {pile} left."
        if pile == 0:
            text += f" {who} took the last one and wins."
        self._s = (pile, (to_move + 1) % len(self._players), tuple(counts), text)
        return text
