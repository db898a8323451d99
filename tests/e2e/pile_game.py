"""A throwaway game, registered only by the tests that use it, to prove the game seam: adding a
game adds files and one registry entry and edits no generic module.

*Pile*: a pile of tiles; in turn each player takes one or two; whoever takes the last one wins.
At the table a player taps the "one" card or the "two" card on the reader, or presses `t` and
answers how many. Taking more than the pile holds is refused (rule "take").
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from upref.games.base import TERMINAL, GameState, GameView, IllegalMoveError, Outcome
from upref.plugins.base import DemoStep, Game
from upref.referee.base import PLAY, KeyOffer, Referee
from upref.referee.inputs import Key, StartGame
from upref.referee.status import END, ILLEGAL, OK, Verdict
from upref.text import and_join, count
from upref.views.blocks import STRONG, TURN, WINNER, Block, Box, Column, Span, Table, line

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


class PileReferee(Referee):
    GAME: ClassVar[str] = NAME
    TITLE: ClassVar[str] = TITLE

    @property
    def game(self) -> PileGame:
        eng = self._engine
        assert isinstance(eng, PileGame)
        return eng

    def make_engine(self, start: StartGame) -> PileGame:
        return PileGame(start.players, PileVariant.from_dict(start.variant_data))

    def next_engine(self, engine: Any) -> PileGame:
        return PileGame(engine.players, engine.variant)

    def on_tap(self, item: str, uid: str, out: list[Verdict]) -> None:
        self._take(1 if item == "one" else 2, out)

    def game_keys(self) -> tuple[KeyOffer, ...]:
        if self._phase != PLAY:
            return ()
        return (KeyOffer("t", "take tiles", lambda t, a: Key("take", t, a), "How many?", "1"),)

    def on_key(self, name: str, arg: str | None, out: list[Verdict]) -> bool:
        if name != "take" or self._phase != PLAY:
            return False
        if arg not in ("1", "2"):
            out.append(Verdict(ILLEGAL, f"Take 1 or 2, not {arg!r}.", "take"))
            return True
        self._take(int(arg), out)
        return True

    def _take(self, n: int, out: list[Verdict]) -> None:
        if self._phase != PLAY:
            return
        try:
            text = self.game.play(Take(n))
        except IllegalMoveError as err:
            out.append(Verdict(ILLEGAL, err.message, err.rule, err.correction))
            return
        self._played()
        out.append(Verdict(OK, text))
        outcome = self.game.outcome()
        if outcome is not None:
            out.append(Verdict(END, f"The game ends. {self.result_text(outcome)}."))
            self._game_over(outcome)

    def turn_start(self) -> int | None:
        return self._plays

    def stop_outcome(self) -> Outcome:
        taken = self.game.view(None).taken
        best = max(taken)
        return Outcome("stopped", tuple(i for i, n in enumerate(taken) if n == best), taken)

    def result_text(self, outcome: Outcome) -> str:
        return f"{and_join([self.game.players[w] for w in outcome.winners])} wins"

    def waiting_for_game(self) -> str | None:
        if self._phase == PLAY:
            v = self.game.view(None)
            assert v.to_move is not None
            return f"{v.names[v.to_move]}: take one or two tiles (tap a card)."
        return "The next game (or a new one)."


class PilePanel:
    title = TITLE

    def header(self, view: PileView) -> str:
        return f"{count(view.pile, 'tile')} in the pile"

    def turn(self, view: PileView) -> str | None:
        return None if view.to_move is None else f"{view.names[view.to_move]} to take."

    def body(self, view: PileView) -> Sequence[Block]:
        rows = tuple(
            (Span(name, TURN if view.to_move == seat else None), Span(str(n)))
            for seat, (name, n) in enumerate(zip(view.names, view.taken, strict=True))
        )
        return (Table((Column("Player"), Column("Taken", "right")), rows), line(f"Pile: {view.pile}", meaning=STRONG))

    def result(self, view: PileView) -> Box | None:
        if view.outcome is None:
            return None
        names = and_join([view.names[w] for w in view.outcome.winners])
        return Box((line(f"{names} took the last tile", meaning=STRONG, align="center"),), meaning=WINNER)

    def footer(self, view: PileView) -> Sequence[Block]:
        return ()

    def scrub(self, text: str) -> str:
        return text

    def private(self, view: PileView) -> Sequence[Block]:
        return ()


class PileDemo:
    players = ("Ann", "Bob")
    seed = 1
    settings: dict[str, Any] = {}

    def variant(self, options: argparse.Namespace) -> PileVariant:
        return PileVariant(int(getattr(options, "size", None) or 5))

    def script(self, board: Any, table: Any, uid_of: dict[str, str]) -> Iterator[DemoStep]:
        rng = random.Random(self.seed)
        while table.referee.phase == PLAY:
            pile = table.referee.game.view(None).pile
            item = "two" if pile == 1 else rng.choice(["one", "two"] if pile > 2 else ["one"])
            board.tap(uid_of[item])
            yield f"someone taps {item}", 0.5
            board.remove()
            yield "", 0.3
            if item == "two" and pile == 1:  # refused: take one instead
                board.tap(uid_of["one"])
                yield "and taps one instead", 0.5
                board.remove()
                yield "", 0.3


def _options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--size", type=int, help="tiles in the pile")


def _playout(seed: int) -> int:
    rng = random.Random(seed)
    game = PileGame(["A", "B"], PileVariant(9))
    n = 0
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n


GAME = Game(
    name=NAME,
    title=TITLE,
    engine=PileGame,
    referee=PileReferee,
    panel=PilePanel(),
    items=lambda: ITEMS,
    variant=PileVariant,
    add_options=_options,
    variant_from_args=lambda a: PileVariant(a.size or 7),
    players=(2, 4),
    demo=PileDemo(),
    guide="",
    playout=_playout,
)
