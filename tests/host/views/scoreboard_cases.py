"""Helpers for the scoreboard tests: games played with the real engine (guided by its hints,
or at random), the referee verdicts those plays would give, and the states of the golden files."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console, RenderableType
from upref.games.base import CHANCE, IllegalMoveError
from upref.games.updown.cards import Catalogue, load_catalogue
from upref.games.updown.engine import (
    Action,
    DrawTask,
    EndTurn,
    Reinsert,
    UpDownGame,
    Variant,
)
from upref.referee.status import END, ILLEGAL, INFO, OK, SOLVED, TURN, TableStatus, Verdict

PLAYERS = ("Ann", "Bob", "Cy")


def console_text(renderable: RenderableType, width: int = 80) -> str:
    """What a terminal shows, without colour; trailing blanks cut from each line (so the golden
    files survive editors)."""
    console = Console(width=width, file=io.StringIO(), color_system=None, force_terminal=True)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(line.rstrip() for line in out.splitlines()) + "\n"


def flip(game: UpDownGame, hole: int) -> Reinsert:
    e = game.board[hole - 1]
    return Reinsert(hole, hole, e.pair, e.visible)


def subset_catalogue(ids: list[str]) -> Catalogue:
    full = load_catalogue()
    return Catalogue(tuple(full.card(i) for i in ids), (), "test subset")


@dataclass
class Table:
    """A game and what the referee has said at the table so far (newest last)."""

    game: UpDownGame
    said: list[Verdict]

    def play(self, action: Action) -> Verdict:
        """Play `action`; the verdict the referee would give (also for a refusal)."""
        game = self.game
        try:
            text = game.play(action)
        except IllegalMoveError as err:
            v = Verdict(ILLEGAL, err.message, err.rule, err.correction)
        else:
            if isinstance(action, DrawTask):
                kind = OK
            elif isinstance(action, Reinsert):
                kind = OK if game.turned and game.turned[-1] == action.from_hole else INFO
            elif game.is_terminal():
                kind = END
            else:
                kind = SOLVED if " solved " in text else TURN
            v = Verdict(kind, text)
        self.said.append(v)
        return v

    def guided(self) -> Verdict:
        """One step as a player following the engine's hint would play (cards dealt in stack
        order)."""
        game = self.game
        if game.current_player() == CHANCE:
            return self.play(game.deal_action())
        holes = game.hint()
        return self.play(flip(game, holes[0]) if holes else EndTurn())

    def until(self, done: Callable[[Verdict], bool], limit: int = 2000) -> None:
        for _ in range(limit):
            if done(self.guided()):
                return
        raise AssertionError(f"not reached in {limit} steps: {self.game!r}")

    def deal(self) -> None:
        while self.game.current_player() == CHANCE:
            self.guided()

    def hint_for_player(self) -> Verdict | None:
        """The hint the referee would show the player to move on their own screen: it names
        their secret card (and a pair, to be sure it would leak): for that seat only."""
        game = self.game
        seat = game.current_player()
        holes = game.hint()
        card = game.task(seat) if seat >= 0 else None
        if holes is None or card is None:
            return None
        pair = game.board[(holes[0] if holes else 1) - 1].pair
        text = (
            f"Hint for {game.players[seat]}: your card {card.id} ({card.describe()}); turn "
            f"holes {', '.join(map(str, holes)) or 'none'} (first {pair})."
        )
        return Verdict(INFO, text, seat=seat)

    def status(self, last: int = 6, **kw: object) -> TableStatus:
        return TableStatus(verdicts=tuple(self.said[-last:]), **kw)  # type: ignore[arg-type]


def new_table(
    seed: int = 1,
    players: tuple[str, ...] = PLAYERS,
    variant: Variant | None = None,
    catalogue: Catalogue | None = None,
) -> Table:
    return Table(UpDownGame.new(list(players), rng=seed, variant=variant, catalogue=catalogue), [])


def waiting_text(game: UpDownGame) -> str | None:
    seat = game.current_player()
    if game.is_terminal():
        return None
    if seat == CHANCE:
        drawer = game.view(None)["drawing"]
        return f"{game.players[drawer]}: draw a task card and tap it on the reader"
    left = 3 - len(game.turned)
    if left == 0:
        return f"{game.players[seat]}: press the button to end the turn"
    return f"{game.players[seat]}: turn {left} more {'pair' if left == 1 else 'pairs'}"


def random_playout(seed: int, variant: Variant | None = None, max_steps: int = 300):
    """Random legal play with illegal attempts mixed in; yields the table after each step."""
    rng = random.Random(seed)
    table = new_table(seed, variant=variant)
    game = table.game
    for _ in range(max_steps):
        if game.is_terminal():
            break
        roll = rng.random()
        if roll < 0.15 and game.current_player() >= 0:
            h = rng.randint(1, 10)
            e = game.board[h - 1]
            bad: Action = rng.choice(
                [
                    EndTurn(),
                    EndTurn((h,)),
                    Reinsert(h, h % 10 + 1, e.pair, e.hidden),
                    flip(game, game.turned[0]) if game.turned else flip(game, h),
                    Reinsert(h, h, e.pair, e.hidden),  # put back unturned
                ]
            )
            table.play(bad)
        elif roll < 0.2 and game.current_player() == CHANCE:
            table.play(DrawTask(game.view(None)["drawing"], rng.choice(game.catalogue.ids())))
        elif roll < 0.6:
            table.guided()
        else:
            table.play(rng.choice(game.legal_actions()))
        yield table


# --- the states of the golden files --------------------------------------------------------


def state_start() -> tuple[UpDownGame, TableStatus]:
    """Every player has drawn; the first turn has not begun."""
    t = new_table(1)
    t.deal()
    return t.game, t.status(waiting_for=waiting_text(t.game))


def _mid_turn() -> Table:
    t = new_table(1)
    t.deal()
    t.play(flip(t.game, 4))
    t.play(flip(t.game, 7))
    return t


def state_mid_turn() -> tuple[UpDownGame, TableStatus]:
    """Two of three pairs turned."""
    t = _mid_turn()
    return t.game, t.status(waiting_for=waiting_text(t.game))


def state_illegal() -> tuple[UpDownGame, TableStatus]:
    """The pair in hole 4 turned a second time: refused, with the correction outstanding."""
    t = _mid_turn()
    e = t.game.board[3]
    v = t.play(Reinsert(4, 4, e.pair, e.visible))
    assert v.kind == ILLEGAL and v.correction, v
    return t.game, t.status(waiting_for="Ann: hole 4 put right", corrections=(v.correction,))


def state_solved() -> tuple[UpDownGame, TableStatus]:
    """A card just solved; the solver draws a new one. A hint to one seat is in the status
    (it must not show)."""
    t = new_table(2)
    t.until(lambda v: v.kind == SOLVED)
    t.guided()  # the solver draws
    t.play(flip(t.game, 2))
    hint = t.hint_for_player()
    assert hint is not None
    t.said.append(hint)
    return t.game, t.status(waiting_for=waiting_text(t.game))


def state_end() -> tuple[UpDownGame, TableStatus]:
    """Short game to two cards: over, one winner."""
    t = new_table(3, variant=Variant(short_game_target=2))
    t.until(lambda v: v.kind == END)
    out = t.game.outcome()
    assert out is not None and len(out.winners) == 1, out
    return t.game, t.status()


def state_tie() -> tuple[UpDownGame, TableStatus]:
    """Three one-shovel cards, two players: each solves one, the stack runs out, shared win."""
    t = new_table(4, players=("Ann", "Bob"), catalogue=subset_catalogue(["T01", "T02", "T03"]))
    t.until(lambda v: v.kind == END)
    out = t.game.outcome()
    assert out is not None and len(out.winners) == 2, out
    return t.game, t.status()


def state_offline() -> tuple[UpDownGame, TableStatus]:
    """Mid-turn, the board gone and a fault reported."""
    t = _mid_turn()
    t.said.append(Verdict("board", "The board stopped answering (no heartbeat for 3 s)."))
    return t.game, t.status(
        board_online=False,
        waiting_for="the board to come back (check its USB cable)",
        faults=(
            "hole 4 never settles: its code keeps changing. Seat the pair firmly and keep hands "
            "off; if it goes on, check that hole's sensors with upref doctor",
        ),
    )


def state_mole_mix() -> tuple[UpDownGame, TableStatus]:
    """Mole Mix: the box turned twice; the next turn under way."""
    t = new_table(5, variant=Variant(mole_mix=True))
    t.until(lambda v: v.kind == SOLVED and t.game.rotations == 2)
    t.guided()  # the solver draws
    t.guided()  # the next player turns a pair
    return t.game, t.status(waiting_for=waiting_text(t.game))


STATES: dict[str, Callable[[], tuple[UpDownGame, TableStatus]]] = {
    "start": state_start,
    "mid_turn": state_mid_turn,
    "illegal": state_illegal,
    "solved": state_solved,
    "end": state_end,
    "tie": state_tie,
    "offline": state_offline,
    "mole_mix": state_mole_mix,
}
