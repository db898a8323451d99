"""What a game is in upref: one `Game` entry (python-chess's `chess.variant` idea: a game is an
entry that everything else looks up by name, `upref.registry.find_game`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from upref.games.base import GameState, Variant
from upref.referee.base import Referee
from upref.views.scoreboard import Panel

if TYPE_CHECKING:  # type names only: the demo's board and table are the commands' business
    from upref.sim.board import SimBoard
    from upref.table import Table

__all__ = ["Demo", "DemoStep", "Game", "StepPlan", "StepTable", "TableStep"]

DemoStep = tuple[str, float]
"""What the scripted players just did, in words ('' for nothing worth saying), and how many
seconds the table then pumps events while the world stays as it is."""


class Demo(Protocol):
    """The scripted players of a game's demo (`upref demo <game>`)."""

    players: tuple[str, ...]
    seed: int
    settings: dict[str, Any]
    """Keyword arguments for the referee (`settle_s`, ...)."""

    def variant(self, options: argparse.Namespace) -> Variant:
        """The variant the demo plays (from `upref demo`'s options)."""
        ...

    def script(
        self, board: SimBoard, table: Table, uid_of: dict[str, str]
    ) -> Iterator[DemoStep]:
        """The people at the table as a script, step by step, until the game is over:
        physical actions on the simulated `board` (taps of the tags in `uid_of`, pairs pulled
        and put back, button presses) and keys sent to the `table`."""
        ...


@dataclass(frozen=True)
class StepTable:
    """What a whole step at the simulated table is planned from: the game now played, its
    referee rebuilt from its log (what the referee knows: who draws, which cards are laid, the
    stack), the simulated board's `state` and the UID of each piece's simulated tag."""

    referee: Referee
    board: Mapping[str, Any]
    uid_of: Mapping[str, str]
    seed: int
    """The game's seed: a step's random choices (cards dealt) follow it."""


@dataclass(frozen=True)
class StepPlan:
    """A whole step as the simulated board's own verbs (`upref simctl`'s lines, in order, each
    answered before the next is sent), and what it does in words ('Ann draws T05 ...')."""

    lines: tuple[str, ...]
    said: str


@dataclass(frozen=True)
class TableStep:
    """A whole step at the simulated table by hand, one `upref simctl <name>` (What's Up's
    lay-out, Up's deal, drawing the stack's top card): `plan` turns the table as it is into the
    simulated board's own verbs, or raises ValueError saying why the step cannot be done now and
    what to do."""

    summary: str
    plan: Callable[[StepTable], StepPlan]


@dataclass(frozen=True)
class Game:
    """One game: its name and title, and where each of its parts is.

    :param name: what `upref play <name>` takes.
    :param engine: the rules engine's state class (pure, `upref.games.<name>`).
    :param referee: the referee class (`upref.referee.<name>`).
    :param panel: its part of the scoreboard (`upref.views.<name>`).
    :param piece: what one tagged piece is called ('card', 'tile'), in what `upref enroll` says.
    :param items: the catalogue's tagged pieces, (item id, label a person can match against
        the printed piece), in the order `upref enroll` suggests them.
    :param variant: the variant class (`from_dict` reads a log's variant data).
    :param add_options: adds the variant's options to `upref play` and `upref demo`.
    :param variant_from_args: the variant from those options.
    :param players: the fewest and most players.
    :param demo: the scripted players of `upref demo <name>`.
    :param guide: the player's guide in the documentation (`docs/games/<name>.md`).
    :param playout: one random game of the engine to its end from a seed (for the invariant
        tests and `make bench`); returns the number of actions.
    :param figures: the game's own heavy computations measured for `make bench` (argument:
        quick), one line of figures each.
    :param short: the demo's options for its shortest game (`make faults --short` and the
        tests play it); empty when the demo has none shorter.
    :param shelf: where the game stands when upref lists its games (lowest first, then by name):
        the first is the one `upref demo` plays when no game is named.
    :param steps: the whole table steps `upref simctl <name>` does for this game on the
        simulated board, by name.
    """

    name: str
    title: str
    engine: type[GameState[Any]]
    referee: type[Referee]
    panel: Panel[Any]
    items: Callable[[], Sequence[tuple[str, str]]]
    variant: type[Variant]
    add_options: Callable[[argparse.ArgumentParser], None]
    variant_from_args: Callable[[argparse.Namespace], Variant]
    players: tuple[int, int]
    demo: Demo | None = None
    guide: str = ""
    playout: Callable[[int], int] | None = None
    figures: Callable[[bool], Sequence[str]] | None = None
    aliases: tuple[str, ...] = field(default=())
    piece: str = "card"
    short: Mapping[str, Any] = field(default_factory=dict)
    shelf: int = 100
    steps: Mapping[str, TableStep] = field(default_factory=dict)
