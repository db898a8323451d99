"""The shared game-state verbs (upref.games.base), on a toy game: take 1 or 2 from a pile of
five; whoever takes the last wins."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from upref.games.base import TERMINAL, GameState, GameView, IllegalMoveError, Outcome


@dataclass(frozen=True, order=True)
class Take:
    n: int


@dataclass(frozen=True, kw_only=True)
class PileView(GameView):
    pile: int


class Pile(GameState[Take]):
    def __init__(self) -> None:
        super().__init__()
        self._s: tuple[int, int] = (5, 0)  # pile, player to move

    def num_players(self) -> int:
        return 2

    @property
    def players(self) -> tuple[str, ...]:
        return ("A", "B")

    def current_player(self) -> int:
        return TERMINAL if self._s[0] == 0 else self._s[1]

    def legal_actions(self) -> list[Take]:
        return [Take(n) for n in (1, 2) if n <= self._s[0]]

    def check(self, action: Take) -> None:
        if action not in self.legal_actions():
            raise IllegalMoveError(
                "take", f"You cannot take {action.n} now.", "Take 1 or 2.", action
            )

    def outcome(self) -> Outcome | None:
        if self._s[0]:
            return None
        winner = 1 - self._s[1]
        return Outcome("last", (winner,), tuple(int(s == winner) for s in range(2)))

    def view(self, seat: int | None) -> PileView:
        over = self._s[0] == 0
        return PileView(
            game="pile", game_number=1, names=self.players, phase="over" if over else "take",
            to_move=None if over else self._s[1], outcome=self.outcome(), verdict="",
            seat=seat, pile=self._s[0],
        )

    def clone(self) -> Pile:
        other = Pile()
        other._s = self._s
        other._undo_stack = list(self._undo_stack)
        return other

    def _snapshot(self) -> object:
        return self._s

    def _restore(self, snapshot: object) -> None:
        assert isinstance(snapshot, tuple)
        self._s = snapshot  # type: ignore[assignment]

    def _do(self, action: Take) -> str:
        if action.n == 2 and self._s[0] == 3:  # a fault half-way through (for the test)
            self._s = (1, self._s[1])
            raise RuntimeError("boom")
        self._s = (self._s[0] - action.n, 1 - self._s[1])
        return f"took {action.n}"


def test_illegal_move_error() -> None:
    err = IllegalMoveError("M-2", "Put it back in hole 3.", "Move it.", action=Take(9))
    assert isinstance(err, ValueError)
    assert str(err) == "Put it back in hole 3." and err.rule == "M-2"
    assert err.correction == "Move it." and err.action == Take(9)
    assert "M-2" in repr(err) and "Take(n=9)" in repr(err)


def test_play_apply_undo_returns() -> None:
    game = Pile()
    assert game.returns() == (0.0, 0.0) and not game.is_terminal()
    assert game.play(Take(2)) == "took 2"
    with pytest.raises(IllegalMoveError) as info:
        game.play(Take(3))
    assert info.value.rule == "take"
    with pytest.raises(IllegalMoveError) as info:
        game.apply(Take(3))  # trusting, but never corrupting
    assert info.value.rule == "apply" and "Take(n=3)" in str(info.value)
    assert game.view(None).pile == 3 and game.is_legal(Take(1)) and not game.is_legal(Take(3))
    with pytest.raises(RuntimeError):
        game.apply(Take(2))  # a fault inside _do restores the state
    assert game.view(None).pile == 3
    twin = game.clone()
    twin.apply(Take(1))
    assert game.view(None).pile == 3 and twin.view(None).pile == 2
    game.apply(Take(1))
    game.apply(Take(2))
    assert game.is_terminal() and game.current_player() == TERMINAL
    assert game.returns() == (1.0, 0.0)
    game.undo()
    assert game.view(None).pile == 2
    game.undo()
    game.undo()
    assert game.view(None).pile == 5 and not game.can_undo()
    with pytest.raises(IndexError):
        game.undo()
