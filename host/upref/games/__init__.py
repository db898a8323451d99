"""Layer 3, the games: one pure rules engine per game, each a package `upref.games.<name>` on
the verbs of `upref.games.base` (state, legal actions, apply, undo, outcome, typed views,
variants). No I/O beyond reading the game's own catalogue data file, no clock, randomness only
through a `random.Random` passed in; nothing here imports serial, rich or textual.

Which games exist is the registry's business (`upref.registry`), not this package's.
"""

from upref.games.base import CHANCE, TERMINAL, GameState, GameView, IllegalMoveError, Outcome

__all__ = ["CHANCE", "TERMINAL", "GameState", "GameView", "IllegalMoveError", "Outcome"]
