"""Up And Down's typed views: what the table (or one seat) may see of a game. The public view
holds visible colours only (no pair id, no hidden colour) and no unsolved card."""

from __future__ import annotations

from dataclasses import dataclass

from upref.games.base import GameView, Outcome, ResultWords
from upref.games.updown.cards import TaskCard, colour_name
from upref.text import Msg, Plural

__all__ = ["RESULT", "CardView", "HoleNow", "HoleView", "PlayerView", "TableView", "UpDownView"]

RESULT = ResultWords(
    score=Plural("{n} shovel", "{n} shovels", n=0),
    winner=Msg("is Buddel King"),
    title=Msg("Buddel King"),
)
"""How Up And Down says who won: the Buddel King, by shovels."""


@dataclass(frozen=True)
class CardView:
    """A task card as the table sees it once it is won (or its owner, while it is secret)."""

    id: str
    shovels: int
    card: str  # its short form, 'K3 R1'
    counts: tuple[tuple[str, int], ...]  # (colour name, count) as printed

    @classmethod
    def of(cls, card: TaskCard) -> CardView:
        return cls(card.id, card.shovels, card.code, tuple((colour_name(c), n) for c, n in card.counts))


@dataclass(frozen=True)
class PlayerView:
    seat: int
    name: str
    shovels: int
    won: tuple[CardView, ...]
    has_task: bool  # a face-down task card lies in front of the player


@dataclass(frozen=True)
class HoleView:
    hole: int
    up: str  # the visible colour's name


@dataclass(frozen=True, kw_only=True)
class UpDownView(GameView):
    """Up And Down's view. Public: visible colours only (no pair id, no hidden colour) and no
    unsolved card; a seat's own view adds `task`, that seat's current card."""

    variant: str
    turn: int
    drawing: int | None  # the seat drawing a card (phase "draw")
    players: tuple[PlayerView, ...]
    holes: tuple[HoleView, ...]
    visible: tuple[tuple[str, int], ...]  # (colour name, moles up), colours in rule order
    turned: tuple[int, ...]  # holes turned this turn, in order
    turned_of: int
    stack: int
    removed: tuple[str, ...]  # cards removed at setup as impossible (M-11)
    history: tuple[Outcome, ...]  # earlier games of this match
    rotations: int | None  # Mole Mix only: times the box was turned
    task: CardView | None = None


@dataclass(frozen=True)
class HoleNow:
    """A hole as it physically is, and what the table must do there."""

    hole: int
    up: str  # the colour up now; "out" for an empty hole, "?" for a code no pair has
    todo: str = ""  # "turn" (turn it back), "to N" (move it to hole N), "reseat", or "" (nothing)


@dataclass(frozen=True, kw_only=True)
class TableView(UpDownView):
    """The public view, with the molehills as they physically are whenever they differ from the
    game's board (an undo that leaves pairs to turn back, a refused move, a bad reading): the
    game's board is then what the table must get back to, not what is up. Holds nothing
    hidden: a colour that is up is seen by everyone."""

    table: tuple[HoleNow, ...] = ()
