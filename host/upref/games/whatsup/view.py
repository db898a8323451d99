"""What's Up's views: what the table may see of a game (`WhatsUpState.view`), as frozen
dataclasses. Only faces up: never the side of a table card that lies face down, nor a card's id
(an id names both of its sides)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from upref.games.base import GameView, Outcome, ResultWords
from upref.games.whatsup.cards import COLOURS, COUNTS, Face
from upref.games.whatsup.variant import grid_cell
from upref.text import Plural

__all__ = ["RESULT", "ROWS_WON", "CardView", "PlayerView", "WhatsUpView"]

RESULT = ResultWords(
    score=Plural("{n} bird", "{n} birds", n=0), title=None, tie=Plural("{n} card", "{n} cards", n=0)
)
"""How What's Up says who won: by birds, a tie by the fewest cards too (A-5)."""
ROWS_WON = ResultWords(score=Plural("{n} complete row", "{n} complete rows", n=0), title=None)
"""How What's Up says the lone winner whose complete rows ended the game: by those rows, for
its referee (the result, for the eye and the ear) and its panel alike ('Ann wins with 3
complete rows')."""


@dataclass(frozen=True)
class CardView:
    """A card on the table as everyone sees it: its place (laying order), its row and column in
    the first game's rectangle, the face up, and the seat whose figurine stands on it."""

    place: int
    row: int | None
    column: int | None
    count: int
    colour: str
    figurine: int | None

    @property
    def up(self) -> str:
        return f"{self.count} {self.colour}"

    @classmethod
    def laid(cls, place: int, face: Face, figurine: int | None, first_game: bool) -> CardView:
        """The card at `place` with `face` up; in the first game, with its row and column."""
        r, c = grid_cell(place) if first_game else (None, None)
        return cls(place, r, c, face.count, face.colour, figurine)


@dataclass(frozen=True)
class PlayerView:
    """One player: the collection as rows by colour (each the counts of its cards, a prefix of
    1, 2, 3), birds and cards, completed rows, and the figurine ('unused', 'placed', 'spent'
    with the place of the card it stands on)."""

    seat: int
    name: str
    rows: tuple[tuple[str, tuple[int, ...]], ...]
    birds: int
    cards: int
    completed: int
    figurine: str
    figurine_on: int | None
    fits: tuple[str, ...]  # the faces that would fit the collection now, colours in order

    @classmethod
    def of(
        cls,
        seat: int,
        name: str,
        rows: Mapping[str, tuple[int, ...]],
        figurine: str,
        figurine_on: int | None,
        fits: Sequence[Face],
    ) -> PlayerView:
        """The player with the collection `rows` (colour -> counts): birds, cards and
        completed rows counted from them."""
        return cls(
            seat=seat,
            name=name,
            rows=tuple((c, rows[c]) for c in COLOURS),
            birds=sum(sum(r) for r in rows.values()),
            cards=sum(len(r) for r in rows.values()),
            completed=sum(1 for r in rows.values() if len(r) == len(COUNTS)),
            figurine=figurine,
            figurine_on=figurine_on,
            fits=tuple(str(x) for x in fits),
        )


@dataclass(frozen=True, kw_only=True)
class WhatsUpView(GameView):
    """What's Up's view. Public: the face up of every table card (never the side face down, never
    a card's id), the collections, the figurines, the counters. A seat's view is the same (the
    game hides nothing from one player that it shows another)."""

    variant: str
    first_game: bool
    turn: int
    laid: int
    deck: int
    table: tuple[CardView, ...]  # by place
    players: tuple[PlayerView, ...]
    since: int  # turns in a row without an addition
    stall_turns: int
    table_end: int
    rows_to_win: int
    reserved_now: bool  # the player to move placed the figurine this turn
    history: tuple[Outcome, ...]

    @property
    def cards_left(self) -> int:
        return len(self.table)
