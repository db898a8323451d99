"""Up's view of a round: what the whole table sees (`view(None)`), and one seat's own view."""

from __future__ import annotations

from dataclasses import dataclass

from upref.games.base import GameView

__all__ = ["PlayerView", "RoundScore", "UpView"]


@dataclass(frozen=True)
class PlayerView:
    """One player as the whole table sees them."""

    seat: int
    name: str
    hand: int  # cards in hand (a count: a hand is secret)
    up: tuple[str, ...]  # the face-up cards themselves ('11', '-2', 'disposal')
    down: int  # face-down cards (a count: nobody knows them)
    total: int  # the evening's total so far (minus points; tokens with children's tokens)
    skip: bool  # the next turn is skipped (forgot "last card", U-11)
    owes_call: bool  # "last card" is due and not called yet
    first_turn: bool  # has not finished a first turn this round (hand only, U-12)
    out: bool  # went out (ended the round)

    @property
    def cards(self) -> int:
        return self.hand + len(self.up) + self.down


@dataclass(frozen=True)
class RoundScore:
    """One row of the evening's table: the round's points per seat (the finisher's bonus as a
    negative number; tokens with children's tokens) and the totals after it (never below 0,
    U-7). `typed[seat]`: some of that seat's points were typed in, not tapped."""

    round: int
    finisher: int | None
    bonus: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    typed: tuple[bool, ...]


@dataclass(frozen=True, kw_only=True)
class UpView(GameView):
    """Up's view. Public (`seat` None): counts of hand and face-down cards, the face-up cards,
    the tower, the evening's table; no hand card, no face-down card. A seat's own view adds
    `own_hand` (the cards of that hand the engine knows) and `own_unseen`."""

    variant: str
    scoring: str
    up300: bool
    rounds: int | None
    round: int
    evening: int
    dealer: int
    cutter: int
    leader: int
    kept_by: int | None  # the cutter kept a cut card
    dirty: bool  # 1s count 30 this round
    dirty_announced: bool  # ... because the leader announced it (U-9)
    tower: tuple[str, ...]  # bottom first
    to_beat: int | None  # the highest value that keeps the tower standing (None: empty)
    founding: bool  # the player to move lays a foundation
    players: tuple[PlayerView, ...]
    call_due: int | None  # the seat that owes "last card"
    removed: int  # cards out of the game (disposal)
    deal_next: int | None  # phase "deal": the seat whose face-up card is tapped next
    dealt: int
    deal_total: int
    counting: int | None  # phase "count": the seat tapping its remaining cards
    unseen: tuple[int, ...]  # per seat: cards the referee has not seen (observed rounds)
    table: tuple[RoundScore, ...]  # this evening's scored rounds
    totals: tuple[int, ...]
    turn: int
    own_hand: tuple[str, ...] = ()
    own_unseen: int = 0
