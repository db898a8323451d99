"""Up's positions built from a description: a round in play with each player's hand, face-up
and face-down cards and the tower as given (the rulebook's worked examples, tests).
`UpState.position(UpDescription(...))` is this module's `position` with the class given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, replace
from typing import TypeVar

from upref.games.up.cards import MINUS2, NUMBER, Catalogue
from upref.games.up.state import RoundBase, Said, _with
from upref.games.up.variant import Variant
from upref.games.up.view import RoundScore
from upref.text import and_join

__all__ = ["UpDescription", "position"]

R = TypeVar("R", bound=RoundBase)


@dataclass(frozen=True)
class UpDescription:
    """A round in play, described (the rulebook's worked examples, tests): the `players`, then
    by name each player's `hands`, face-`up` and face-`down` cards, and the `tower` (bottom
    first), as card ids ('B7') or faces ('7', '-2', 'D' for a disposal card: the first free card
    of that face is taken). Cards placed nowhere count as removed by a disposal card.

    `to_beat` defaults to what the tower makes (its top number, less 2 for each -2 above it);
    `to_move` to the first player; `founding` to an empty tower. Everyone has had a first turn
    except those in `first_turn`; those in `skip` miss their next turn; `call_due` names who
    owes a call; `dirty_round`: the leader announced the dirty One. The evening so far: its
    `totals` by name, its score `table`, the `round` and the `dealer` (default: the seat before
    the one to move).
    """

    players: Sequence[str]
    _: KW_ONLY
    hands: Mapping[str, Sequence[str]] | None = None
    up: Mapping[str, Sequence[str]] | None = None
    down: Mapping[str, Sequence[str]] | None = None
    tower: Sequence[str] = ()
    to_beat: int | None = None
    to_move: str | None = None
    founding: bool | None = None
    first_turn: Iterable[str] = ()
    skip: Iterable[str] = ()
    call_due: str | None = None
    dirty_round: bool = False
    totals: Mapping[str, int] | None = None
    table: Sequence[RoundScore] = ()
    round: int = 1
    dealer: str | None = None
    variant: Variant | None = None
    catalogue: Catalogue | None = None


def position(cls: type[R], description: UpDescription) -> R:
    """The round `description` describes, as a state of `cls`. Dealt by the engine (every card
    known).

    :raises ValueError: for an unknown card or face, a card placed twice, a bad name.
    """
    d = description
    game = cls.new(d.players, variant=d.variant, catalogue=d.catalogue)
    st = game._setup
    n = len(st.players)
    place = _Placer(game)
    hs, us, ds = place.per_seat(d.hands), place.per_seat(d.up), place.per_seat(d.down)
    tw = tuple(place.take(c) for c in d.tower)
    to_beat = _tower_makes(game, tw) if d.to_beat is None and tw else d.to_beat
    mover = place.seat(d.to_move) if d.to_move is not None else 0
    firsts = {place.seat(p) for p in d.first_turn}
    dealer_seat = place.seat(d.dealer) if d.dealer is not None else (mover - 1) % n
    tot = tuple(_totals(place, n, d.totals))
    game._setup = replace(
        st, round=d.round, game_number=d.round, dealer=dealer_seat, totals=tot,
        table=tuple(d.table),
    )
    game._s = _with(
        game._s, phase="play", stock=(), uncovered=None, started=True,
        hands=tuple(hs), ups=tuple(us), downs=tuple(ds), removed=tuple(place.free),
        tower=tw, threshold=to_beat if tw else None, dirty_round=d.dirty_round,
        to_move=mover, founding=not tw if d.founding is None else d.founding,
        first_done=tuple(s not in firsts for s in range(n)),
        call_due=place.seat(d.call_due) if d.call_due is not None else None,
        skip=tuple(s in {place.seat(p) for p in d.skip} for s in range(n)),
        said=(Said("info", f"Round {d.round}: a position as described."),),
    )
    return game


def _totals(place: _Placer, n: int, totals: Mapping[str, int] | None) -> list[int]:
    """The evening's totals by seat, from the described ones by name (0 for the others)."""
    tot = [0] * n
    for name, t in (totals or {}).items():
        tot[place.seat(name)] = int(t)
    return tot


class _Placer:
    """Hands out the cards of a description, each once: by id, or the first free card of a
    face; and the seats by name."""

    def __init__(self, game: RoundBase) -> None:
        self._game = game
        self.free = list(game._setup.deck)
        """The cards not placed yet (they count as removed)."""

    def take(self, token: str) -> str:
        """The card `token` names ('B7', or a face: '7', '-2', 'D'), taken from the free ones.

        :raises ValueError: when no free card fits.
        """
        free = self.free
        if token in free:
            free.remove(token)
            return token
        face = "disposal" if token in ("D", "disposal") else token
        for cid in free:
            if self._game._setup.catalogue.card(cid).face == face:
                free.remove(cid)
                return cid
        raise ValueError(f"no free card {token!r} in this game's deck")

    def seat(self, name: str) -> int:
        """:raises ValueError: for a name that is not a player's."""
        names = self._game._setup.players
        if name not in names:
            raise ValueError(f"{name!r} is not one of the players {and_join(list(names))}")
        return names.index(name)

    def per_seat(self, spec: Mapping[str, Sequence[str]] | None) -> list[tuple[str, ...]]:
        """Each seat's cards of one kind (hand, face up, face down), sorted."""
        out: list[tuple[str, ...]] = [() for _ in range(len(self._game._setup.players))]
        for name, cards in (spec or {}).items():
            out[self.seat(name)] = self._game._sorted(self.take(c) for c in cards)
        return out


def _tower_makes(game: RoundBase, tower: Sequence[str]) -> int:
    """The value a tower makes: its top number, less 2 for each -2 above it."""
    to_beat = 0
    for cid in tower:
        card = game._setup.catalogue.card(cid)
        if card.kind == NUMBER:
            to_beat = card.value
        elif card.kind == MINUS2:
            to_beat -= 2
    return to_beat
