"""The game registry: every game upref referees, found, not listed.

    find_game("updown").referee          # the class that referees it
    [g.name for g in games()]            # what `upref play` offers

A game is one package whose `__init__.py` declares its one entry, `GAME = Game(...)`
(`upref.game`). The registry finds the games the first time it is asked:

1. every package under `upref.games` (`upref/games/<name>/`) that declares a `GAME`;
2. beyond them, every installed distribution that declares an entry point in the group
   `upref.games` (in its pyproject.toml: `[project.entry-points."upref.games"]`,
   `pile = "pile_game"`), whose object is a `Game` or a module with a `GAME`. So a game can be
   published as a package of its own, and adding a game adds one folder and edits nothing here.

A game that cannot be loaded is left out with a line on standard error that names it and why;
the others still play. Tests (and anyone embedding upref) may `register` a game of their own.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from types import ModuleType

import upref.games
from upref.game import Game
from upref.referee.base import Referee, TagLookup
from upref.store.gamelog import GameInfo, GameLogError
from upref.text import Msg

__all__ = [
    "ENTRY_POINT_GROUP",
    "Game",
    "UnknownGame",
    "find_game",
    "games",
    "referee_for",
    "register",
    "titles",
    "unregister",
]

ENTRY_POINT_GROUP = "upref.games"
"""The entry-point group through which an installed distribution offers a game."""

_GAMES: dict[str, Game] = {}
_ALIASES: dict[str, str] = {}
_found = False


class UnknownGame(ValueError):
    """A name that is no game of this upref; the message lists the games."""


def register(game: Game) -> Game:
    """Add a game (or replace the one of the same name); returns it.

    :raises ValueError: when one of its aliases is another game's name.
    """
    _find()
    _add(game)
    return game


def unregister(name: str) -> None:
    """Remove a game (a test's own, once the test is over)."""
    _find()
    game = _GAMES.pop(name, None)
    if game is not None:
        for alias in game.aliases:
            _ALIASES.pop(alias, None)


def games() -> tuple[Game, ...]:
    """Every game, by its place on the shelf (`Game.shelf`), then by name."""
    _find()
    return tuple(sorted(_GAMES.values(), key=lambda g: (g.shelf, g.name)))


def find_game(name: str) -> Game:
    """The game called `name` (or one of its aliases).

    :raises UnknownGame: naming the games there are.
    """
    _find()
    key = name.strip().lower() if isinstance(name, str) else name
    game = _GAMES.get(_ALIASES.get(key, key))
    if game is None:
        known = ", ".join(g.name for g in games())
        raise UnknownGame(Msg("unknown game {name!r}: the games are {known}", name=name, known=known))
    return game


def titles() -> Mapping[str, str]:
    """name -> title of every game (a referee names a tag enrolled for another game by it)."""
    _find()
    return {g.name: g.title for g in games()}


def referee_for(info: GameInfo, registry: TagLookup | None = None) -> Referee:
    """A fresh referee set up as a log's header says (for replay and resume).

    :raises GameLogError: for a game this upref does not know, or a header it cannot read.
    """
    try:
        game = find_game(info.game)
    except UnknownGame as exc:
        raise GameLogError(Msg("game {id} of the log: {why}", id=info.id, why=_why(exc))) from None
    try:
        return game.referee.from_config(info.config, registry, titles=titles())
    except (KeyError, TypeError, ValueError) as exc:
        raise GameLogError(
            Msg("game {id} of the log: its settings cannot be read ({exc}); the log may come from a newer upref",
                id=info.id, exc=str(exc))
        ) from None


def _why(exc: BaseException) -> str:
    """What an error says, as raised: its sentence (still a catalogue's), or its text."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, str) else str(exc)


def _add(game: Game) -> None:
    for alias in game.aliases:
        if alias in _GAMES and alias != game.name:
            raise ValueError(f"{game.name}: alias {alias!r} is the game {alias!r}")
    _GAMES[game.name] = game
    for alias in game.aliases:
        _ALIASES[alias] = game.name


def _find() -> None:
    """Load every game there is, once: upref's own packages, then the entry points."""
    global _found
    if _found:
        return
    _found = True
    for info in sorted(pkgutil.iter_modules(upref.games.__path__), key=lambda m: m.name):
        if info.ispkg:
            _load(f"upref.games.{info.name}", lambda name=info.name: _own_game(name))
    for point in entry_points(group=ENTRY_POINT_GROUP):
        _load(f"{point.name} ({point.value})", lambda point=point: _entry_of(point.load()))


def _own_game(name: str) -> Game | None:
    module = importlib.import_module(f"upref.games.{name}")
    game = getattr(module, "GAME", None)
    return game if isinstance(game, Game) else None


def _entry_of(obj: object) -> Game | None:
    if isinstance(obj, ModuleType):
        obj = getattr(obj, "GAME", None)
    if not isinstance(obj, Game):
        raise TypeError(f"it gives {type(obj).__name__}, not a Game (upref.game.Game)")
    return obj


def _load(where: str, load: Callable[[], Game | None]) -> None:
    """Add the game that `load()` gives; a game that fails to load is named and left out."""
    try:
        game = load()
        if game is not None:
            _add(game)
    except Exception as exc:  # a broken game must not take the others down with it
        print(
            f"upref: the game {where} could not be loaded and is left out: "
            f"{type(exc).__name__}: {exc}",
            file=sys.stderr,
        )
