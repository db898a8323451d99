"""Up And Down's typed views: what the table (or one seat) may see of a game. The public view
holds visible colours only (no pair id, no hidden colour) and no unsolved card."""

from __future__ import annotations

from dataclasses import dataclass

from upref.games.base import GameView, Outcome
from upref.games.updown.cards import TaskCard, colour_name

__all__ = ["CardView", "HoleView", "PlayerView", "UpDownView"]


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
