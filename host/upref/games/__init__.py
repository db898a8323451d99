"""Pure rules engines, one per game, sharing the verbs of `upref.games.base`.

No I/O (beyond reading a game's own catalogue data file), no clock, randomness only through a
`random.Random` passed in; nothing here imports serial, rich or textual.
"""

from upref.games.base import CHANCE, TERMINAL, GameState, IllegalMoveError, Outcome

__all__ = ["CHANCE", "TERMINAL", "GameState", "IllegalMoveError", "Outcome"]
