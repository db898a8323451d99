"""Pure rules engines, one per game, sharing the verbs of `upref.games.base`.

No I/O (beyond reading a game's own catalogue data file), no clock, randomness only through a
`random.Random` passed in; nothing here imports serial, rich or textual.
"""

from upref.games.base import CHANCE, TERMINAL, GameState, IllegalMoveError, Outcome

GAMES: tuple[str, ...] = ("updown", "upturn", "flipabird", "whatsup", "up")
"""The games' names as `upref play <game>` and `upref enroll <game>` take them."""

GAME_TITLES: dict[str, str] = {
    "updown": "Up And Down",
    "upturn": "Upturn",
    "flipabird": "Flip a Bird",
    "whatsup": "What's Up",
    "up": "Up",
}

__all__ = ["CHANCE", "GAMES", "GAME_TITLES", "TERMINAL", "GameState", "IllegalMoveError", "Outcome"]
