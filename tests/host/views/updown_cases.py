"""Scenes for the scoreboard tests: a real `UpDownReferee` fed by the physical table of
`updown_table` (pairs pulled and put back, cards tapped, the button, the board going away),
so every verdict, correction and "waiting for" line on the scoreboard is the referee's own."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from updown_table import CODES, Chaos, Table, enrolled_tags
from upref.board.model import FaultObservation
from upref.games.base import CHANCE
from upref.games.updown.cards import Catalogue, load_catalogue
from upref.games.updown.engine import UpDownState
from upref.games.updown.panel import PANEL
from upref.games.updown.referee import Hint, UpDownReferee
from upref.games.updown.variant import Variant
from upref.games.updown.view import UpDownView
from upref.referee.inputs import BoardOnline, Observe, StartGame
from upref.referee.status import END, ILLEGAL, SOLVED, TableStatus
from upref.registry import titles
from upref.views.blocks import Scoreboard
from upref.views.scoreboard import scoreboard

PLAYERS = ("Ann", "Bob", "Cy")


def subset_catalogue(ids: list[str]) -> Catalogue:
    full = load_catalogue()
    return Catalogue(tuple(full.card(i) for i in ids), (), "test subset")


@dataclass
class Scene:
    """A referee and the table that feeds it."""

    ref: UpDownReferee
    tb: Table

    @property
    def game(self) -> UpDownState:
        eng = self.ref.engine
        assert eng is not None
        return eng

    def view(self) -> UpDownView:
        v = self.ref.view(None)
        assert isinstance(v, UpDownView)
        return v

    def status(self) -> TableStatus:
        return self.ref.status()

    def board(self, status: TableStatus | None = None) -> Scoreboard:
        return scoreboard(self.view(), status or self.status(), PANEL)

    def kinds(self) -> list[str]:
        """The kinds of the verdicts of the last input."""
        return [v.kind for v in self.tb.replies[-1][1].verdicts]

    def step(self) -> None:
        """One move of a player following the hint (cards drawn from the top of the stack)."""
        if self.game.current_player() == CHANCE:
            self.tb.draw()
        else:
            self.tb.play_turn()

    def until(self, done: Callable[[], bool], limit: int = 500) -> None:
        for _ in range(limit):
            if done():
                return
            self.step()
        raise AssertionError(f"not reached in {limit} steps: {self.game!r}")


def new_scene(
    seed: int = 1,
    players: tuple[str, ...] = PLAYERS,
    variant: Variant | None = None,
    catalogue: Catalogue | None = None,
) -> Scene:
    ref = UpDownReferee(CODES, enrolled_tags(), hints=True, catalogue=catalogue, titles=titles())
    tb = Table(ref, seed=seed)
    tb.feed(StartGame(players, variant or Variant(), seed, tb.at()))
    return Scene(ref, tb)


def _said(scene: Scene, kind: str) -> bool:
    return any(v.kind == kind for _, r in scene.tb.replies[-4:] for v in r.verdicts)


# --- the states of the golden files --------------------------------------------------------


def state_start() -> Scene:
    """Every player has drawn; the first turn has not begun."""
    s = new_scene(1)
    s.tb.draw_all()
    return s


def state_mid_turn() -> Scene:
    """Two of three pairs turned."""
    s = state_start()
    s.tb.flip(4)
    s.tb.flip(7)
    return s


def state_illegal() -> Scene:
    """The pair in hole 4 turned a second time: refused (M-1), its correction outstanding."""
    s = state_mid_turn()
    s.tb.flip(4)
    assert s.kinds() == [ILLEGAL] and s.status().corrections, s.tb.replies[-1]
    return s


def state_solved() -> Scene:
    """A card just solved; the solver has drawn a new one and the next player turned a pair.
    The next player asked for a hint: it went to that seat only."""
    s = new_scene(2)
    s.until(lambda: _said(s, SOLVED))
    s.tb.draw_all()
    s.tb.flip(2)
    s.tb.feed(Hint(s.tb.at()))
    return s


def state_end() -> Scene:
    """Short game to two cards: over, one winner."""
    s = new_scene(3, variant=Variant(short_game_target=2))
    s.until(lambda: s.ref.phase == "over")
    out = s.game.outcome()
    assert out is not None and len(out.winners) == 1, out
    return s


def state_tie() -> Scene:
    """Three one-shovel cards, two players: each solves one, the stack runs out, shared win."""
    s = new_scene(4, players=("Ann", "Bob"), catalogue=subset_catalogue(["T01", "T02", "T03"]))
    s.until(lambda: s.ref.phase == "over")
    out = s.game.outcome()
    assert out is not None and len(out.winners) == 2, out
    return s


def state_offline() -> Scene:
    """Mid-turn, a hole that never settles, then the board gone."""
    s = state_mid_turn()
    s.tb.feed(Observe(FaultObservation("h2", True, "hole", "h2", "never settles"), s.tb.at()))
    s.tb.feed(BoardOnline(False, s.tb.at()))
    return s


def state_mole_mix() -> Scene:
    """Mole Mix: the box turned twice; the next turn under way."""
    s = new_scene(5, variant=Variant(mole_mix=True))
    s.until(lambda: s.game.rotations == 2 and _said(s, SOLVED))
    s.tb.draw_all()
    hint = s.game.hint() or (1,)
    s.tb.flip(hint[0])
    return s


STATES: dict[str, Callable[[], Scene]] = {
    "start": state_start,
    "mid_turn": state_mid_turn,
    "illegal": state_illegal,
    "solved": state_solved,
    "end": state_end,
    "tie": state_tie,
    "offline": state_offline,
    "mole_mix": state_mole_mix,
}


def random_scenes(seed: int, variant: Variant | None = None, steps: int = 250) -> Iterator[Scene]:
    """Random table behaviour, legal and not (`updown_table.Chaos`), fed to a real referee;
    the scene after each step."""
    s = new_scene(seed, variant=variant)
    chaos = Chaos(s.tb, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        chaos.step()
        if rng.random() < 0.1:
            s.tb.feed(Hint(s.tb.at()))
        yield s
        if s.ref.phase == "over" and _said(s, END):
            return
