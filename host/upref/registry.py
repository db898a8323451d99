"""The game registry: every game upref referees, found by name.

    find_game("updown").referee          # the class that referees it
    [g.name for g in games()]            # what `upref play` offers

A game is one `Game` entry (`upref.plugins.base`), defined in its own `upref.plugins.<name>`
module. Adding a game adds its files and one line below; no generic module changes. Tests (and
anyone embedding upref) may `register` a game of their own.
"""

from __future__ import annotations

from collections.abc import Mapping

from upref.plugins import flipabird, up, updown, upturn, whatsup
from upref.plugins.base import Game
from upref.referee.base import Referee, TagLookup
from upref.store.gamelog import GameInfo, GameLogError

__all__ = [
    "Game",
    "UnknownGame",
    "find_game",
    "games",
    "referee_for",
    "register",
    "titles",
    "unregister",
]

_GAMES: dict[str, Game] = {}
_ALIASES: dict[str, str] = {}


class UnknownGame(ValueError):
    """A name that is no game of this upref; the message lists the games."""


def register(game: Game) -> Game:
    """Add a game (or replace the one of the same name); returns it.

    :raises ValueError: when one of its aliases is another game's name.
    """
    for alias in game.aliases:
        if alias in _GAMES and alias != game.name:
            raise ValueError(f"{game.name}: alias {alias!r} is the game {alias!r}")
    _GAMES[game.name] = game
    for alias in game.aliases:
        _ALIASES[alias] = game.name
    return game


def unregister(name: str) -> None:
    """Remove a game (a test's own, once the test is over)."""
    game = _GAMES.pop(name, None)
    if game is not None:
        for alias in game.aliases:
            _ALIASES.pop(alias, None)


def games() -> tuple[Game, ...]:
    """Every registered game, in the order they were registered."""
    return tuple(_GAMES.values())


def find_game(name: str) -> Game:
    """The game called `name` (or one of its aliases).

    :raises UnknownGame: naming the games there are.
    """
    key = name.strip().lower() if isinstance(name, str) else name
    game = _GAMES.get(_ALIASES.get(key, key))
    if game is None:
        known = ", ".join(g.name for g in _GAMES.values())
        raise UnknownGame(f"unknown game {name!r}: the games are {known}")
    return game


def titles() -> Mapping[str, str]:
    """name -> title of every game (a referee names a tag enrolled for another game by it)."""
    return {g.name: g.title for g in _GAMES.values()}


def referee_for(info: GameInfo, registry: TagLookup | None = None) -> Referee:
    """A fresh referee set up as a log's header says (for replay and resume).

    :raises GameLogError: for a game this upref does not know, or a header it cannot read.
    """
    try:
        game = find_game(info.game)
    except UnknownGame as exc:
        raise GameLogError(f"game {info.id} of the log: {exc}") from None
    try:
        return game.referee.from_config(info.config, registry, titles=titles())
    except (KeyError, TypeError, ValueError) as exc:
        raise GameLogError(
            f"game {info.id} of the log: its settings cannot be read ({exc}); the log may come "
            "from a newer upref"
        ) from None


for _game in (updown.GAME, upturn.GAME, flipabird.GAME, whatsup.GAME, up.GAME):
    register(_game)
