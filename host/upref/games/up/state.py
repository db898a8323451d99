"""Up's round as every rule reads it: what changes during a round (`_Core`, replaced, never
mutated, so a snapshot is a reference), what stays fixed (`_Setup`), what the engine says
(`Said`), and `RoundBase`, the part of the state class that answers the questions every rule
asks (whose seat, where a card is, a player's name, a card of this game or not).

The rules themselves are mixins on `RoundBase`: the cut and the deal (`deal.py`), a turn's plays
onto the tower (`tower.py`), the end of a round, its count and its scores (`scoring.py`); the
state class `UpState` (`engine.py`) puts them together.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

from upref.games.base import IllegalMoveError, MatchState, Outcome
from upref.games.up.actions import DOWN, HAND, UP, Action
from upref.games.up.cards import DISPOSAL, MINUS2, NUMBER, Card, Catalogue
from upref.games.up.variant import Variant
from upref.games.up.view import RoundScore
from upref.games.up.words import counts_cards
from upref.text import Msg, join_words

__all__ = ["FACE_DOWN", "FACE_UP", "RoundBase", "Said"]

FACE_UP = FACE_DOWN = 4
"""Each player's face-up cards, each on one face-down card."""


@dataclass(frozen=True)
class _Core:
    """Everything that changes during a round; never mutated (replaced), so a snapshot is a
    reference. Card tuples hold ids; `*_unseen` count cards the engine has not seen."""

    phase: str  # cut | deal | play | count | over
    stock: tuple[str, ...]  # dealt by the engine: the shuffled deck before the cut
    uncovered: str | None  # dealt by the engine: the card the cut uncovers
    stock_unseen: int  # observed: cards still with the dealer
    hands: tuple[tuple[str, ...], ...]
    hand_unseen: tuple[int, ...]
    ups: tuple[tuple[str, ...], ...]
    downs: tuple[tuple[str, ...], ...]
    down_unseen: tuple[int, ...]
    tower: tuple[str, ...]
    threshold: int | None
    removed: tuple[str, ...]
    kept_by: int | None
    dealt_up: int
    to_move: int
    founding: bool
    first_done: tuple[bool, ...]
    started: bool  # a card was played this round
    dirty_round: bool
    call_due: int | None
    called: bool
    passed_over: int | None  # the debtor whose turn the turn passed over (U-20)
    skip: tuple[bool, ...]
    passes: int  # foundations passed in a row
    last: _Last | None
    finisher: int | None
    bonus: int
    counting: int | None
    typed: tuple[int | None, ...]
    turn: int
    outcome: Outcome | None
    said: tuple[Said, ...]

    @property
    def verdict(self) -> str:
        return join_words(" ", [s.text for s in self.said])


@dataclass(frozen=True)
class _Last:
    """The play just made, with the state before it (for `Join`)."""

    seat: int
    source: str
    cards: tuple[str, ...]
    base: _Core


@dataclass(frozen=True)
class Said:
    """One thing the engine says about an action: `kind` "play", "skip" (a turn skipped,
    U-11, U-20), "penalty" (a skip earned by a forgotten 'last card', U-11), "call" (the reminder that
    'last card' is due, U-6), "end" (the round is over, the scores) or "info"; `rule` the ruling
    it applies, if any."""

    kind: str
    text: str
    rule: str | None = None


@dataclass(frozen=True)
class _Setup:
    """What stays fixed during one round."""

    players: tuple[str, ...]
    catalogue: Catalogue
    variant: Variant
    deck: tuple[str, ...]
    observed: bool
    game_number: int  # rounds since the session began (monotonic, for the referee base)
    round: int  # round of this evening
    evening: int
    dealer: int
    totals: tuple[int, ...]  # before this round
    table: tuple[RoundScore, ...]  # earlier rounds of this evening
    rng_state: tuple[Any, ...] = field(repr=False)
    rank: Mapping[str, int] = field(repr=False, compare=False, default_factory=dict)


class RoundBase(MatchState[Action, Variant, Catalogue]):
    """What every rule of a round reads: the fixed set-up `_setup`, the changing state `_s`, the
    cards; whose seat it is and where a card is. The rules are mixins on it (`deal.py`,
    `tower.py`, `scoring.py`); `UpState` is the state class."""

    def __init__(self, setup: _Setup, core: _Core) -> None:
        super().__init__()
        self._setup = setup
        self._s = core
        self._cards = setup.catalogue
        self._checked: tuple[_Core, Action, _Core] | None = None

    @classmethod
    @abstractmethod
    def new(
        cls,
        players: Sequence[str],
        *,
        rng: random.Random | int = 0,
        variant: Variant | None = None,
        catalogue: Catalogue | None = None,
        observed: bool = False,
    ) -> Self:
        """Round 1 of an evening (`UpState.new`)."""

    @abstractmethod
    def _end_round(self, s: _Core, finisher: int | None, bonus: int) -> _Core:
        """The round ends (`scoring.py`)."""

    @property
    def observed(self) -> bool:
        return self._setup.observed

    # --- seats ------------------------------------------------------------------------------------

    @property
    def cutter(self) -> int:
        return (self._setup.dealer - 1) % self.num_players()

    @property
    def leader(self) -> int:
        return (self._setup.dealer + 1) % self.num_players()

    def deal_next(self) -> int | None:
        """Phase "deal": the seat whose face-up card comes next."""
        s = self._s
        if s.phase != "deal":
            return None
        return (self._setup.dealer + 1 + s.dealt_up) % self.num_players()

    def may_play_blind(self, seat: int) -> bool:
        """Whether `seat` may turn a face-down card now (all face-up cards gone, U-14; not in
        the first turn, U-12)."""
        s = self._s
        return (
            s.first_done[seat]
            and not s.ups[seat]
            and (len(s.downs[seat]) + s.down_unseen[seat]) > 0
        )

    def dirty(self) -> bool:
        """Whether 1s count 30 this round."""
        return self.variant.dirty_one or self._s.dirty_round

    # --- cards and where they are ------------------------------------------------------------

    def _faces(self, cards: Iterable[str], sort: bool = True) -> tuple[str, ...]:
        ids = self._sorted(cards) if sort else tuple(cards)
        return tuple(self._cards.card(c).face for c in ids)

    def _sorted(self, cards: Iterable[str]) -> tuple[str, ...]:
        rank = self._setup.rank
        return tuple(sorted(cards, key=lambda c: rank.get(c, 1 << 20)))

    def _known(self, s: _Core) -> list[str]:
        out: list[str] = [*s.tower, *s.removed, *s.stock]
        for p in range(self.num_players()):
            out.extend(s.hands[p])
            out.extend(s.ups[p])
            out.extend(s.downs[p])
        return out

    def _locate(self, s: _Core, card: str) -> tuple[str, int | None]:
        if card not in self._setup.deck:
            return ("out", None)
        for p in range(self.num_players()):
            if card in s.hands[p]:
                return (HAND, p)
            if card in s.ups[p]:
                return (UP, p)
            if card in s.downs[p]:
                return (DOWN, p)
        if card in s.tower:
            return ("tower", None)
        if card in s.removed:
            return ("removed", None)
        if card in s.stock:
            return ("stock", None)
        return ("unseen", None)

    def _place_words(self, where: str, seat: int | None) -> str:
        if where in (HAND, UP, DOWN) and seat is not None:
            if where == UP:
                return Msg("face up in front of {name}", name=self._who(seat))
            return Msg("in a player's hand") if where == HAND else Msg("face down")
        return {
            "tower": Msg("on the tower"),
            "removed": Msg("out of the game"),
            "stock": Msg("in the deck"),
        }.get(where, where)

    def _in_deck(self, card: str, a: Action) -> None:
        if card in self._setup.deck:
            return
        c = self._cards.get(card)
        if c is None:
            raise IllegalMoveError("deck", Msg("{card} is no Up card.", card=repr(card)), None, a)
        if c.kind == MINUS2 and self.variant.without_minus2:
            raise IllegalMoveError(
                "U-10",
                Msg("This evening is played without -2: the -2 cards stay in the box."),
                Msg("Put the -2 card back in the box."),
                a,
            )
        sets = self.variant.sets or self.catalogue.default_sets(self.num_players())
        raise IllegalMoveError(
            "deck",
            Msg(
                "That card belongs to set {set}, which is not in this game (sets {sets}).",
                set=c.set,
                sets=", ".join(sets),
            ),
            Msg("Put the set {set} card aside.", set=c.set),
            a,
        )

    def _who(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < self.num_players():
            return self._setup.players[seat]
        return Msg("seat {seat}", seat=repr(seat))

    def _waiting_words(self, s: _Core) -> str:
        names = self._setup.players
        if s.phase == "cut":
            return Msg("{name} cuts first.", name=names[self.cutter])
        if s.phase == "deal":
            nxt = self.deal_next()
            assert nxt is not None
            return Msg("the next face-up card is dealt to {name}.", name=names[nxt])
        if s.phase == "count":
            assert s.counting is not None
            return counts_cards(names[s.counting])
        return Msg("it is {name}'s turn.", name=names[s.to_move])


def _card_order(c: Card) -> tuple[int, int, str]:
    """Cards in a hand, low to high: numbers, then -2, then the disposal card."""
    return ({NUMBER: 0, MINUS2: 1, DISPOSAL: 2}[c.kind], c.value, c.id)


def _with(core: _Core, **changes: Any) -> _Core:
    """`dataclasses.replace` for the core, without re-running `__init__` (the hot path of
    playouts); the core stays frozen: only a new object gets the changed fields."""
    unknown = changes.keys() - _CORE_FIELDS
    if unknown:
        raise TypeError(f"no such field of a round's state: {sorted(unknown)}")
    new = object.__new__(_Core)
    new.__dict__.update(core.__dict__)
    new.__dict__.update(changes)
    return new


_CORE_FIELDS = frozenset(_Core.__dataclass_fields__)


def _holding(s: _Core, p: int) -> int:
    return len(s.hands[p]) + s.hand_unseen[p] + len(s.ups[p]) + len(s.downs[p]) + s.down_unseen[p]


def _unseen(s: _Core, p: int) -> int:
    return s.hand_unseen[p] + s.down_unseen[p]


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]
