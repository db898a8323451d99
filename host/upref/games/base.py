"""What every game engine shares: the error, the result and the verbs of a game state.

A game state is a pure state machine (no I/O, no clock, randomness only through a
`random.Random` passed in). The verbs follow OpenSpiel's `State` and python-chess's `Board`:

- `current_player()` is a seat (0, 1, ...), `CHANCE` while a card is drawn or dealt, or
  `TERMINAL` once the game is over;
- `legal_actions()` lists the actions that move the game on, sorted;
- `check(action)` / `is_legal(action)` validate; `play(action)` validates, applies and returns
  the verdict text for the table; `apply(action)` trusts its caller;
- `undo()` takes back the last applied action (a snapshot stack);
- `is_terminal()`, `outcome()` and `returns()` give the result;
- `clone()` gives an independent copy and `view(seat)` what one seat (or, for `None`, every
  player at the table) may see: a frozen dataclass, the game's own subclass of `GameView`.

Actions are frozen dataclasses defined by each game; so are its variants (`Variant`), which
travel as JSON data (`to_dict` / `from_dict`) in game logs and on command lines.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, overload

from upref.text import (
    Msg,
    Plural,
    Words,
    and_join,
    count,
    in_lang,
    numbers_in_words,
    plural,
    said_count,
)

__all__ = [
    "counted_words",
    "CHANCE",
    "TERMINAL",
    "ActionRule",
    "GameState",
    "StateField",
    "Termination",
    "MatchState",
    "NO_WINNER",
    "read_catalogue",
    "GameView",
    "IllegalMoveError",
    "Outcome",
    "OutrightWords",
    "ResultWords",
    "Variant",
]

CHANCE = -1
"""`current_player()` while the next action is chance (a card drawn from a stack)."""
TERMINAL = -4
"""`current_player()` once the game is over (the value OpenSpiel uses)."""


class IllegalMoveError(ValueError):
    """An action the rules forbid, or one that does not fit the state.

    `rule` is a short id ("M-2", a ruling in the game's guide `docs/games/<game>.md`, or a word such as "draw", "over",
    "sensor", "apply"); `message` says in plain words what happened and which rule it breaks,
    for the players; `correction` says what someone must physically do now, or is None.
    `str(error)` is the message. A state that raises this error is left unchanged.
    """

    def __init__(
        self,
        rule: str,
        message: str,
        correction: str | None = None,
        action: object = None,
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.correction = correction
        self.action = action

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return (
            f"IllegalMoveError(rule={self.rule!r}, message={self.message!r}, "
            f"correction={self.correction!r}, action={self.action!r})"
        )


class Termination(StrEnum):
    """Why a game ended: each game's own `Termination` subclasses this (an enum with no members
    of its own, so that it can be subclassed) and lists its reasons. Members are strings, so an
    `Outcome` read back from a log (a plain string) compares equal to its member."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: why (`termination`, a short id each game documents), who won
    (`winners`, seats; several on a shared win) and the final `scores` by seat."""

    termination: str
    winners: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class OutrightWords:
    """How a game says the lone winner of one way of ending, the winner's own move having ended
    it (Upturn's empty rack), in place of the score: `termination` is that ending's id, and
    each form names the winner as `{name}`: `text` the result ('{name} wins with an empty
    rack'), `headline` the panel's, `news` the moment itself, as the rules note it and the ear
    hears it ("{name}'s rack is empty: {name} wins!")."""

    termination: str
    text: str
    headline: str
    news: str

    def says(self, names: list[str], how: str) -> bool:
        """Whether this is the form for `names` winning by the ending `how`."""
        return len(names) == 1 and how == self.termination


NO_WINNER = Msg("nobody scored")
"""What a result without a winner says (a game stopped before anyone scored)."""


@dataclass(frozen=True)
class ResultWords:
    """How a game says who won, written once for its rules (verdicts), its referee (the result
    of a stopped game, and for the ear) and its panel (the headline).

    `score` is what a score counts: a count of it as a catalogue's plural (`Plural("{n} shovel",
    "{n} shovels", n=0)`: each result says it again with its own count), or the English word
    in the singular ('shovel', said in English only); `winner` what a lone winner does or is
    (`Msg("wins")`, `Msg("is Buddel King")`); `title` the headline's word for a lone winner
    ('Winner: Ann with 5 points'; None: the headline is the text); `tie` what else the winners
    of a shared win share, if anything, as `score` ('card': '... with 3 birds and 4 cards
    each'); `rule` the ruling a shared win names ('F-12'); `fewest` whether the fewest win,
    said so of a lone winner ('Ann wins with the fewest tiles, 3') and for the ear ('Ann and
    Bob win, with the fewest tiles: three.'); `outright` the words of an ending a lone
    winner's own move brings (Upturn's empty rack), which every form takes from the ending's id
    `how` (each form a `Msg` with a `{name}` gap, said again with the winner's name)."""

    score: str = Plural("{n} point", "{n} points", n=0)
    winner: str = Msg("wins")
    title: str | None = Msg("Winner")
    tie: str | None = None
    rule: str = ""
    fewest: bool = False
    outright: OutrightWords | None = None

    def text(self, names: list[str], best: int, tied: int = 0, how: str = "") -> str:
        """'Ann is Buddel King with 5 shovels', 'Ann and Bob share the win with 3 points each'."""
        if self.outright is not None and self.outright.says(names, how):
            return again(self.outright.text, name=names[0])
        if not names:
            return NO_WINNER
        if len(names) == 1:
            return Msg(
                "{name} {wins} with {score}", name=names[0], wins=self.winner, score=self._lone(best)
            )
        return Msg(
            "{names} share the win with {scores}", names=and_join(names), scores=self._shared(best, tied)
        )

    def headline(self, names: list[str], best: int, tied: int = 0, how: str = "") -> str:
        """The panel's result: 'Buddel King: Ann with 5 shovels', 'Shared win: Ann and Bob with
        3 points each'."""
        if self.outright is not None and self.outright.says(names, how):
            return again(self.outright.headline, name=names[0])
        if not names:
            return Msg("No winner: {why}", why=NO_WINNER)
        if len(names) == 1:
            if self.title is None:
                return self.text(names, best)
            return Msg(
                "{title}: {name} with {score}", title=self.title, name=names[0], score=self._lone(best)
            )
        return Msg(
            "Shared win: {names} with {scores}", names=and_join(names), scores=self._shared(best, tied)
        )

    def spoken(self, names: list[str], best: int, how: str = "") -> str:
        """The result for the ear: 'Ann is Buddel King, with five shovels!'."""
        if self.outright is not None and self.outright.says(names, how):
            return again(self.outright.news, name=names[0])
        if not names:
            return Msg("Nobody wins.")
        if self.fewest:
            verb = self.winner if len(names) == 1 else Msg("win")
            return Msg(
                "{names} {win}, with the fewest {scores}: {n}.",
                names=and_join(names),
                win=verb,
                scores=_counted(self.score, 2, None),
                n=_said_number(best),
            )
        said = _said_count(best, self.score)
        if len(names) == 1:
            return Msg("{name} {wins}, with {score}!", name=names[0], wins=self.winner, score=said)
        return Msg("{names} share the win, with {scores} each!", names=and_join(names), scores=said)

    def _lone(self, best: int) -> str:
        if self.fewest:
            return Msg("the fewest {scores}, {n}", scores=_counted(self.score, 2, None), n=best)
        return _counted(self.score, best)

    def _shared(self, best: int, tied: int) -> str:
        scores = _counted(self.score, best)
        if self.tie:
            scores = Msg("{scores} and {more}", scores=scores, more=_counted(self.tie, tied))
        if self.rule:
            return Msg("{scores} each ({rule})", scores=scores, rule=self.rule)
        return Msg("{scores} each", scores=scores)


def again(template: str, **args: Any) -> str:
    """A catalogue sentence written once as a template (`Msg("{name} wins", name="")`, a
    `Plural` with any count) said again with these arguments; a plain English template is
    filled in as it is."""
    if isinstance(template, Plural | Msg):
        return template.again(**args)
    return template.format(**args)


def counted_words(what: str, n: int = 2) -> str:
    """What a score counts, in words without a number ('shovels'), for a count of `n`: from a
    `Plural` template or an English word alike."""
    return _counted(what, n, None)


def _counted(what: str, n: int, lead: str | None = "") -> str:
    """A count of `what` (a `Plural` template, or an English word): '5 shovels'; with `lead`
    None, the words without the number ('shovels', for 'the fewest shovels'); with `lead` a
    word, that word in place of the number ('no shovels')."""
    if not isinstance(what, Plural):
        word = plural(n, what)
        return word if lead is None else (f"{lead} {word}" if lead else count(n, what))
    counted = again(what, n=n)
    return counted if lead == "" else _Unnumbered(counted, lead)


def _said_count(n: int, what: str) -> str:
    """A count for the ear: 'one shovel', 'three shovels', 'no shovels'."""
    if not isinstance(what, Plural):
        return said_count(n, what)
    return _counted(what, 0, Msg("no")) if n == 0 else numbers_in_words(again(what, n=n))


def _said_number(n: int) -> str:
    """A number for the ear, in the words of the language it is said in."""
    return numbers_in_words(Msg("{n}", n=n))


class _Unnumbered(Words):
    """A count said without its number ('shovels'), or with a word in its place ('no
    shovels'), in the language it is said in (the number comes first in every form)."""

    base: Plural
    lead: str | None

    def __new__(cls, base: Plural, lead: str | None) -> _Unnumbered:
        self = super().__new__(cls, _unnumbered(str.__str__(base), str(base.n), lead))
        self.base, self.lead = base, lead
        return self

    def render(self, lang: str) -> str:
        lead = None if self.lead is None else in_lang(self.lead, lang)
        return _unnumbered(in_lang(self.base, lang), str(self.base.n), lead)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Unnumbered, (self.base, self.lead))


def _unnumbered(text: str, number: str, lead: str | None) -> str:
    rest = text[len(number) :].lstrip() if text.startswith(number) else text
    return rest if lead is None else f"{lead} {rest}"


@dataclass(frozen=True, kw_only=True)
class GameView:
    """What every game's view holds; each game subclasses it (frozen, keyword-only) with its own
    fields. `view(None)` is the public view (nothing hidden); `view(seat)` adds what that seat
    alone may see and has `seat` set.

    `phase` is the game's own word for where it stands, always "over" once the game has ended;
    `to_move` the seat the table waits on (None when over); `verdict` the engine's text about
    the last thing that happened (public)."""

    game: str
    game_number: int
    names: tuple[str, ...]
    phase: str
    to_move: int | None
    outcome: Outcome | None
    verdict: str
    seat: int | None = None


class Variant(Protocol):
    """A game's rule variants: a frozen dataclass with a JSON form (a game log stores it as
    data) and a description in words for the scoreboard."""

    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Self: ...

    def describe(self) -> str: ...


ActionT = TypeVar("ActionT", bound=Hashable)
FieldT = TypeVar("FieldT")


@dataclass(frozen=True)
class ActionRule:
    """How a game takes one type of action: its method that checks it (raises
    `IllegalMoveError`, changes nothing) and its method that applies a checked one (returns the
    verdict text). A game's `_rule(action)` gives one per action type."""

    check: Callable[[Any], None]
    do: Callable[[Any], Any]


class StateField(Generic[FieldT]):
    """A read-only attribute of a game state that reads the field of the same name (or
    `source`) of its changing state `_s`: `board = StateField[Board]("The board, hole by hole.")`
    instead of a property written out for each field."""

    def __init__(self, doc: str = "", source: str | None = None) -> None:
        self.__doc__ = doc
        self._source = source
        self._name = source or ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = self._source or name

    @overload
    def __get__(self, obj: None, objtype: type | None = None) -> StateField[FieldT]: ...

    @overload
    def __get__(self, obj: object, objtype: type | None = None) -> FieldT: ...

    def __get__(self, obj: object | None, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        return getattr(obj._s, self._name)  # type: ignore[attr-defined]


class GameState(ABC, Generic[ActionT]):
    """The verbs all five game engines share. Subclasses keep everything that changes in one
    immutable snapshot object (`_snapshot()` / `_restore()`), so undo and clone are cheap."""

    CHANCE: ClassVar[int] = CHANCE
    TERMINAL: ClassVar[int] = TERMINAL
    TITLE: ClassVar[str] = "this game's"
    """The game's title as a refusal names it ("not an Up And Down action")."""
    PLAY_ON: ClassVar[str] = Msg("Start a new game to play on.")
    """What a refusal once the game is over tells the table to do (Flip a Bird: the next game)."""

    def __init__(self) -> None:
        self._undo_stack: list[object] = []

    # --- what a game defines -------------------------------------------------------------

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, `CHANCE` or `TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[ActionT]:
        """The actions that move the game on, sorted (deterministic); empty when terminal."""

    def check(self, action: ActionT) -> None:
        """Validate `action` against the rules: refused once the game is over ("over"), then
        checked by the method `_rule` gives for its type.

        :raises IllegalMoveError: naming the rule broken, in words for the players.
        """
        done = self.outcome()
        if done is not None:
            raise IllegalMoveError("over", self._over_text(done), action=action)
        self._rule(action).check(action)

    def _rule(self, action: object) -> ActionRule:
        """The game's methods for `action`'s type: a `match` on the game's action classes, each
        case returning `ActionRule(self._check_x, self._do_x)`, and after it
        `raise self._foreign(action)` (the default takes no action at all; a game that overrides
        `check` and `_do` itself needs no `_rule`).

        :raises IllegalMoveError: (rule "apply") for an action of a type the game does not take.
        """
        raise self._foreign(action)

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def view(self, seat: int | None) -> GameView:
        """What `seat` may see, or with None what every player at the table may see (never
        any hidden information): the game's `GameView` subclass."""

    @abstractmethod
    def clone(self) -> GameState[ActionT]:
        """An independent copy (undo history included)."""

    @abstractmethod
    def _snapshot(self) -> object:
        """Everything that changes, as one object the state never mutates."""

    @abstractmethod
    def _restore(self, snapshot: object) -> None:
        """Go back to a snapshot taken by `_snapshot()`."""

    def _do(self, action: ActionT) -> str:
        """Apply a checked action with the method `_rule` gives for its type; return the verdict
        text for the table."""
        return self._rule(action).do(action)

    def _foreign(self, action: object) -> IllegalMoveError:
        """The refusal (rule "apply") of an action of a type the game does not take: what `_rule`
        raises after its last case."""
        title = self.TITLE
        article = "an" if title[:1].lower() in "aeiou" else "a"
        return IllegalMoveError("apply", f"not {article} {title} action: {action!r}", action=action)

    def _over_text(self, outcome: Outcome) -> str:
        """What a refusal says once the game is over: the result, then `PLAY_ON`."""
        return Msg(
            "The game is over: {result}. {play_on}", result=self._result_text(outcome), play_on=self.PLAY_ON
        )

    def _result_text(self, outcome: Outcome) -> str:
        """The result in words, for verdicts."""
        return Msg("it has ended")

    # --- shared verbs ---------------------------------------------------------------------

    def is_legal(self, action: ActionT) -> bool:
        try:
            self.check(action)
        except IllegalMoveError:
            return False
        return True

    def play(self, action: ActionT) -> str:
        """Validate and apply `action`; return the verdict text for the table.

        :raises IllegalMoveError: when the rules forbid it; the state is then unchanged.
        """
        self.check(action)
        return self._commit(action)

    def apply(self, action: ActionT) -> None:
        """Apply `action` trusting the caller: no rules check, no verdict for the players.

        Meant for actions taken from `legal_actions()`, replays and search. It does not
        validate against the rules; it only refuses, before changing anything, an action that
        `_applicable` does not accept (by default: not in `legal_actions()`), so a wrong
        action raises instead of corrupting the state.

        :raises IllegalMoveError: (rule "apply") for an action it cannot apply.
        """
        if not self._applicable(action):
            raise IllegalMoveError("apply", f"illegal action {action!r} in {self!r}", action=action)
        self._commit(action)

    def undo(self) -> None:
        """Take back the last applied action.

        :raises IndexError: when there is nothing to undo.
        """
        if not self._undo_stack:
            raise IndexError("nothing to undo")
        self._restore(self._undo_stack.pop())

    def can_undo(self) -> bool:
        return bool(self._undo_stack)

    def is_terminal(self) -> bool:
        return self.outcome() is not None

    def returns(self) -> tuple[float, ...]:
        """Per seat: 0 until the game is over, then a win shared among the winners (each
        winner gets 1 / number of winners), so the returns of a finished game sum to 1."""
        out = self.outcome()
        seats = self.num_players()
        if out is None:
            return (0.0,) * seats
        share = 1.0 / len(out.winners) if out.winners else 0.0
        return tuple(share if s in out.winners else 0.0 for s in range(seats))

    @abstractmethod
    def num_players(self) -> int:
        """How many seats the game has."""

    @property
    @abstractmethod
    def players(self) -> tuple[str, ...]:
        """The players' names in seat order."""

    @property
    def game_number(self) -> int:
        """Which game of a match this is (1 unless the game plays matches)."""
        return 1

    # --- helpers for subclasses -----------------------------------------------------------

    def _applicable(self, action: ActionT) -> bool:
        return action in self.legal_actions()

    def _commit(self, action: ActionT) -> str:
        before = self._snapshot()
        try:
            text = self._do(action)
        except BaseException:
            self._restore(before)
            raise
        self._undo_stack.append(before)
        return text


VariantT = TypeVar("VariantT")
CatalogueT = TypeVar("CatalogueT")


class MatchState(GameState[ActionT], Generic[ActionT, VariantT, CatalogueT]):
    """A `GameState` whose fixed facts lie in one set-up object, `_setup` (players, variant,
    catalogue, game number, and for matches the history and random generator; each engine's own
    dataclass): what every engine of upref reads off it, written once."""

    _setup: Any
    _s: Any  # the changing state: `outcome` once the game is over

    @property
    def players(self) -> tuple[str, ...]:
        return self._setup.players  # type: ignore[no-any-return]

    @property
    def variant(self) -> VariantT:
        return self._setup.variant  # type: ignore[no-any-return]

    @property
    def catalogue(self) -> CatalogueT:
        return self._setup.catalogue  # type: ignore[no-any-return]

    @property
    def game_number(self) -> int:
        return self._setup.game_number  # type: ignore[no-any-return]

    def num_players(self) -> int:
        return len(self._setup.players)

    def _next_history(self) -> tuple[Outcome, ...]:
        """The match's history for its next game: this game's outcome joins it if it is over."""
        done = self._s.outcome
        return self._setup.history + ((done,) if done is not None else ())  # type: ignore[no-any-return]

    def _match_rng(self) -> random.Random:
        """The match's random generator, where this game's set-up left it."""
        rng = random.Random(0)  # state replaced at once: no seeding from the system
        rng.setstate(self._setup.rng_state)
        return rng

    def _seat(self, seat: int) -> int:
        """`seat` checked.

        :raises ValueError: for a seat the game does not have.
        """
        if not (isinstance(seat, int) and 0 <= seat < self.num_players()):
            raise ValueError(f"no seat {seat!r} (seats are 0..{self.num_players() - 1})")
        return seat


def read_catalogue(
    package: str, name: str, path: str | Path | None, default_source: str, what: str
) -> tuple[Any, str]:
    """A game's catalogue as parsed JSON, with the source to name in messages: the file at
    `path`, else `name` in the `data/` folder packaged with `package`.

    :raises OSError: when `path` cannot be read.
    :raises ValueError: '<what> <source>: not JSON: …' for a file that is not JSON.
    """
    if path is None:
        text = resources.files(package).joinpath("data").joinpath(name).read_text(encoding="utf-8")
        source = default_source
    else:
        text = Path(path).read_text(encoding="utf-8")
        source = str(path)
    try:
        return json.loads(text), source
    except json.JSONDecodeError as exc:
        raise ValueError(f"{what} {source}: not JSON: {exc}") from None
