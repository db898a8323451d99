"""Pile's referee: a tap of the "one" or "two" card, or the key `t`, takes tiles."""

from __future__ import annotations

from typing import Any, ClassVar

from upref.games.base import IllegalMoveError, Outcome
from upref.referee.base import PLAY, KeyOffer, Referee
from upref.referee.inputs import Key, StartGame
from upref.referee.status import END, ILLEGAL, OK, Verdict
from upref.text import and_join

from .rules import NAME, TITLE, PileGame, PileVariant, Take


class PileReferee(Referee):
    GAME: ClassVar[str] = NAME
    TITLE: ClassVar[str] = TITLE

    @property
    def game(self) -> PileGame:
        eng = self.engine
        assert isinstance(eng, PileGame)
        return eng

    def make_engine(self, start: StartGame) -> PileGame:
        return PileGame(start.players, PileVariant.from_dict(start.variant_data))

    def next_engine(self, engine: Any) -> PileGame:
        return PileGame(engine.players, engine.variant)

    def on_tap(self, item: str, uid: str, out: list[Verdict]) -> None:
        self._take(1 if item == "one" else 2, out)

    def game_keys(self) -> tuple[KeyOffer, ...]:
        if self.phase != PLAY:
            return ()
        return (KeyOffer("t", "take tiles", lambda t, a: Key("take", t, a), "How many?", "1"),)

    def on_key(self, name: str, arg: str | None, out: list[Verdict]) -> bool:
        if name != "take" or self.phase != PLAY:
            return False
        if arg not in ("1", "2"):
            out.append(Verdict(ILLEGAL, f"Take 1 or 2, not {arg!r}.", "take"))
            return True
        self._take(int(arg), out)
        return True

    def _take(self, n: int, out: list[Verdict]) -> None:
        if self.phase != PLAY:
            return
        try:
            text = self.game.play(Take(n))
        except IllegalMoveError as err:
            out.append(Verdict(ILLEGAL, err.message, err.rule, err.correction))
            return
        self.note_play()
        out.append(Verdict(OK, text))
        outcome = self.game.outcome()
        if outcome is not None:
            out.append(Verdict(END, f"The game ends. {self.result_text(outcome)}."))
            self.note_game_over(outcome)

    def turn_start(self) -> int | None:
        return self.plays

    def stop_outcome(self) -> Outcome:
        taken = self.game.view(None).taken
        best = max(taken)
        return Outcome("stopped", tuple(i for i, n in enumerate(taken) if n == best), taken)

    def result_text(self, outcome: Outcome) -> str:
        return f"{and_join([self.game.players[w] for w in outcome.winners])} wins"

    def waiting_for_game(self) -> str | None:
        if self.phase == PLAY:
            v = self.game.view(None)
            assert v.to_move is not None
            return f"{v.names[v.to_move]}: take one or two tiles (tap a card)."
        return "The next game (or a new one)."
