"""Flip a Bird's typed views: what a seat (or, for `view(None)`, the whole table) may see.

`FlipView` is the game's `GameView`; its parts are the cards everyone may see (`CardView`), the
row's places (`RowView`), each player (`PlayerView`) and a claim being settled (`ClaimView`).
Public: face-up cards, hand sizes, won cards, the pile's size and the back on top of it, tips
once public; never a face-down card, a hand, the pile's order or a secret tip.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from upref.games.base import GameView, Outcome, ResultWords
from upref.games.flipabird.cards import Card, Catalogue, colour_name
from upref.games.flipabird.evaluation import Evaluation, Score, score
from upref.games.flipabird.position import OVER, ClaimState, Core, RowCard, Setup

__all__ = [
    "RESULT",
    "CardView",
    "ClaimView",
    "FlipView",
    "PlayerView",
    "RowView",
    "card_views",
    "claim_view",
    "flip_view",
    "player_views",
    "public_tip",
    "row_views",
]

RESULT = ResultWords(rule="F-12")
"""How Flip a Bird says who won: points, a shared win under F-12."""


@dataclass(frozen=True)
class CardView:
    """A card everyone may see: its id, its face in words, kind, colour name, birds, back."""

    id: str
    face: str
    kind: str
    colour: str | None
    birds: int
    back: str

    @classmethod
    def of(cls, card: Card) -> CardView:
        return cls(
            card.id, card.face, card.kind, colour_name(card.colour) or None, card.birds, card.back
        )


@dataclass(frozen=True)
class RowView:
    """A card in the row: its place (1 = next to the draw pile), the card when it lies face up
    (None face down), who played it, and whether it went the wrong way (F-16)."""

    position: int
    card: CardView | None
    up: bool
    by: int
    flagged: bool


@dataclass(frozen=True)
class PlayerView:
    seat: int
    name: str
    hand: int  # cards in hand (the count is public)
    won: tuple[CardView, ...]
    score: Score
    tip: str | None  # "red" / "green" once public (the claim's two at once, the others at reveal)
    tipped: bool  # a tip is in (its colour may still be secret)


@dataclass(frozen=True)
class ClaimView:
    """A claim: who claims, who is accused, how many tips are in, and once they all are the
    evaluation, the side that was right, the takers in their order and the sharing so far."""

    claimant: int
    accused: int
    tips_in: int
    tips_of: int
    row: tuple[RowView, ...]  # the claimed row (face up once the tips are all in)
    evaluation: Evaluation | None
    takers: tuple[int, ...]
    taker: int | None  # whose take it is
    left: tuple[CardView, ...]  # cards still to be taken
    taken: tuple[tuple[int, CardView], ...]  # (seat, card) in the order taken


@dataclass(frozen=True, kw_only=True)
class FlipView(GameView):
    """Flip a Bird's view. Public: face-up cards, hand sizes, won cards, the pile's size and the
    back on top of it, tips once public; never a face-down card, a hand, the pile's order or a
    secret tip. A seat's own view adds its hand (the cards the referee knows) and its tip."""

    variant: str
    limit: int
    turn: int
    scanned: bool  # the pile's order is known (set-up scan)
    pile: int
    pile_top: str | None  # the back on top of the pile ("open"/"covered"; None unknown or empty)
    final: bool
    face: bool | None  # the face the next play must take when it is public (else None)
    row: tuple[RowView, ...]
    players: tuple[PlayerView, ...]
    claim: ClaimView | None
    out: int  # cards that left the game (removed rows, the end), not counting the box
    boxed: int  # cards a short game left in the box unseen at the start
    removed_rows: tuple[tuple[CardView, ...], ...]  # rows removed by the all-face-up rule (F-9)
    can_pass: bool  # the player to move has no card in the final phase (F-11)
    last_play: int | None  # the row position of the card just played (F-16 may flag it)
    history: tuple[Outcome, ...]
    hand: tuple[CardView, ...] | None = None  # own view: the cards the referee knows in hand
    hand_unknown: int | None = None  # own view: cards dealt that the referee does not know
    own_tip: str | None = None


# --- a view, from the state ----------------------------------------------------------------


def flip_view(
    game: str,
    setup: Setup,
    s: Core,
    seat: int | None,
    *,
    current: int,
    taker: int | None,
    face: bool | None,
    can_pass: bool,
) -> FlipView:
    """What `seat` may see (None: the whole table) of the state `s`; the engine gives what its
    rules decide: the seat it waits on (`current`), whose take it is, the face of the next play
    when public and whether the player to move may end the game (F-11)."""
    cat = setup.catalogue
    c = s.claim
    hand = hand_unknown = own_tip = None
    if seat is not None:
        hand = card_views(s.hands[seat], cat)
        hand_unknown = s.unknown[seat]
        own_tip = c.tips[seat] if c is not None else None
    phase = s.phase if s.outcome is None else OVER
    top = None
    if s.pile is not None and s.pile:
        top = cat.card(s.pile[0]).back
    return FlipView(
        game=game,
        game_number=setup.game_number,
        names=setup.players,
        phase=phase,
        to_move=None if phase == OVER else current,
        outcome=s.outcome,
        verdict=s.verdict,
        seat=seat,
        variant=setup.variant.describe(),
        limit=setup.limit,
        turn=s.turn,
        scanned=setup.scanned,
        pile=s.pile_left,
        pile_top=top,
        final=s.final,
        face=face,
        row=row_views(s.row, cat),
        players=player_views(setup, s),
        claim=None if c is None else claim_view(c, cat, len(setup.players), taker),
        out=len(s.out) + s.out_unknown - setup.boxed,
        boxed=setup.boxed,
        removed_rows=tuple(card_views(r, cat) for r in s.removed_rows),
        can_pass=can_pass,
        last_play=None if s.last_play is None else s.last_play + 1,
        history=setup.history,
        hand=hand,
        hand_unknown=hand_unknown,
        own_tip=own_tip,
    )


def player_views(setup: Setup, s: Core) -> tuple[PlayerView, ...]:
    """Every player as the table sees them: hand size, won cards and score, the tip once
    public."""
    cat = setup.catalogue
    players = []
    for i, name in enumerate(setup.players):
        tip, tipped = public_tip(s.claim, i)
        players.append(
            PlayerView(
                seat=i,
                name=name,
                hand=len(s.hands[i]) + s.unknown[i] if s.phase != OVER else 0,
                won=card_views(s.won[i], cat),
                score=score(cat.card(x) for x in s.won[i]),
                tip=tip,
                tipped=tipped,
            )
        )
    return tuple(players)


def card_views(ids: Iterable[str], cat: Catalogue) -> tuple[CardView, ...]:
    """The cards of `ids` as everyone may see them (only for cards that lie face up)."""
    return tuple(CardView.of(cat.card(x)) for x in ids)


def row_views(row: Sequence[RowCard], cat: Catalogue) -> tuple[RowView, ...]:
    """A row as the table sees it: a face-down card shows only its place."""
    return tuple(
        RowView(i + 1, CardView.of(cat.card(r.card)) if r.up else None, r.up, r.by, r.flagged)
        for i, r in enumerate(row)
    )


def public_tip(c: ClaimState | None, seat: int) -> tuple[str | None, bool]:
    """`seat`'s tip as the table may see it, and whether it is in: the claimant's and the
    accused's at once, the others' once all are in (the evaluation is made)."""
    if c is None:
        return None, False
    revealed = c.evaluation is not None
    fixed = seat in (c.claimant, c.accused)
    return (c.tips[seat] if (revealed or fixed) else None), c.tips[seat] is not None


def claim_view(c: ClaimState, cat: Catalogue, seats: int, taker: int | None) -> ClaimView:
    """A claim as the table sees it: how many of the other tips are in (not whose colour), the
    claimed row as it lies, and once evaluated the sharing (`taker`: whose take it is)."""
    need = sum(1 for i in range(seats) if i not in (c.claimant, c.accused))
    have = sum(
        1 for i, t in enumerate(c.tips) if t is not None and i not in (c.claimant, c.accused)
    )
    return ClaimView(
        claimant=c.claimant,
        accused=c.accused,
        tips_in=have,
        tips_of=need,
        row=row_views(c.row, cat),
        evaluation=c.evaluation,
        takers=c.takers,
        taker=taker,
        left=card_views(c.left, cat),
        taken=tuple((t, CardView.of(cat.card(x))) for t, x in c.taken),
    )
