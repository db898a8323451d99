"""`upref sim` and `upref simctl` from the command side: the simulated board's front ends
(upref.sim.cli) handed the games' catalogues, so that a card is named by its piece's id
(`upref simctl tap T05`) as well as by its UID. The sim knows no game; the registry does."""

from __future__ import annotations

from upref.board.simtags import Catalogues
from upref.registry import games
from upref.sim import cli

__all__ = ["catalogues", "sim_main", "simctl_main"]


def catalogues() -> Catalogues:
    """Every registered game's tagged pieces: game name -> (item id, label), in catalogue order."""
    return {game.name: tuple(game.items()) for game in games()}


def sim_main(argv: list[str]) -> int:
    """`upref sim`: its console takes pieces by their ids."""
    return cli.sim_main(argv, catalogues)


def simctl_main(argv: list[str]) -> int:
    """`upref simctl`: a card by its piece's id or its UID."""
    return cli.simctl_main(argv, catalogues)
