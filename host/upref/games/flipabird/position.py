"""Flip a Bird's position: what a game state holds and how one is built.

What it holds: the row's cards (`RowCard`), a claim being settled (`ClaimState`), everything
that changes during a game (`Core`, one immutable snapshot) and what stays fixed (`Setup`).
How one is built: a shuffled deal as the table makes it (`deal`, for simulations and tests), a
new game after the deal and the set-up scan (`new_position`, behind `FlipABirdState.new`) and a
position from a description (`FlipABirdDescription`, built by `described_position`, behind
`FlipABirdState.position`, for tests and the rulebook's worked examples).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass

from upref.games.base import Outcome
from upref.games.flipabird.cards import Catalogue, load_catalogue
from upref.games.flipabird.evaluation import Evaluation
from upref.games.flipabird.variant import HAND, Variant
from upref.text import Msg, and_join

__all__ = [
    "OVER",
    "TAKE",
    "TIPS",
    "TURN",
    "ClaimState",
    "Core",
    "FlipABirdDescription",
    "RowCard",
    "Setup",
    "deal",
    "described_position",
    "new_position",
]

TURN, TIPS, TAKE, OVER = "turn", "tips", "take", "over"
"""The phases (`Core.phase`): a turn, tips collected at a claim, the claimed row shared out, the
end."""


@dataclass(frozen=True)
class RowCard:
    """A card in the row: which, face up or down, who played it, flagged by F-16."""

    card: str
    up: bool
    by: int
    flagged: bool = False


@dataclass(frozen=True)
class ClaimState:
    """A claim being settled, as the engine keeps it (secret: tips before all are in, the
    claimed row's face-down cards before the reveal): claimant, accused, each seat's tip, the
    row as it lay (face up once evaluated), the evaluation, the takers in their order, whose
    take it is (an index into `takers`), the cards left and those taken (seat, card)."""

    claimant: int
    accused: int
    tips: tuple[str | None, ...]
    row: tuple[RowCard, ...]  # the claimed row as it lay
    evaluation: Evaluation | None = None
    takers: tuple[int, ...] = ()
    taker: int = 0  # index into takers
    left: tuple[str, ...] = ()
    taken: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class Core:
    """Everything that changes during a game; never mutated (replaced)."""

    pile: tuple[str, ...] | None  # top first, when the scan made it known
    pile_left: int
    hands: tuple[tuple[str, ...], ...]  # the cards known in each hand
    unknown: tuple[int, ...]  # each hand's cards the engine does not know individually
    unseen: frozenset[str]  # cards whose place the engine does not know
    row: tuple[RowCard, ...]
    won: tuple[tuple[str, ...], ...]
    out: tuple[str, ...]  # known cards out of the game
    out_unknown: int  # cards out of the game the engine does not know
    removed_rows: tuple[tuple[str, ...], ...]
    to_move: int
    turn: int
    phase: str
    final: bool
    claim: ClaimState | None
    last_play: int | None  # row index of the card just played, until the next action
    outcome: Outcome | None
    verdict: str


@dataclass(frozen=True)
class Setup:
    """What stays fixed during a game: the players, catalogue and variant, the limit, the game's
    number and the match's history, whether the pile was scanned, the cards boxed at the start."""

    players: tuple[str, ...]
    catalogue: Catalogue
    variant: Variant
    limit: int
    game_number: int
    history: tuple[Outcome, ...]
    scanned: bool
    boxed: int = 0  # cards left in the box unseen at the start (a short pile)


def deal(
    players: int, rng: random.Random | int = 0, variant: Variant | None = None,
    catalogue: Catalogue | None = None,
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """A shuffled deal, as the table makes it: (the draw pile, top first; each hand's two cards
    in seat order; the cards left in the box by a short pile). For simulations and tests; a real
    game learns its pile from the set-up scan."""
    cat = catalogue or load_catalogue()
    r = rng if isinstance(rng, random.Random) else random.Random(rng)
    cards = list(cat.ids())
    r.shuffle(cards)
    hands = tuple(tuple(cards[HAND * s : HAND * s + HAND]) for s in range(players))
    rest = cards[HAND * players :]
    size = (variant or Variant()).pile_size(players, len(cards))
    return tuple(rest[:size]), hands, tuple(rest[size:])


def new_position(
    players: Sequence[str],
    *,
    pile: Sequence[str] | None,
    variant: Variant | None,
    catalogue: Catalogue | None,
    game_number: int,
    history: tuple[Outcome, ...],
) -> tuple[Setup, Core]:
    """The set-up and first state of a new game after the deal (see `FlipABirdState.new`).

    :raises ValueError: for 2 or 7 players, repeated names, or a pile that is not the
        right number of different cards of the catalogue.
    """
    cat = catalogue or load_catalogue()
    names = tuple(players)
    _check_players(names, cat)
    variant = variant or Variant()
    size = variant.pile_size(len(names), len(cat.cards))
    n = len(names)
    if pile is not None:
        pile = tuple(pile)
        _check_pile(pile, size, cat)
    unseen = frozenset(cat.ids()) - frozenset(pile or ())
    boxed = len(cat.cards) - size - HAND * n
    setup = Setup(
        names, cat, variant, cat.limit(n), game_number, history, pile is not None, boxed
    )
    text = Msg(
        "Game {number} ({variant}): {names}. A row may hold {limit} birds with {players} players. "
        "{first} begins.",
        number=game_number,
        variant=variant.describe(),
        names=and_join(list(names)),
        limit=cat.limit(n),
        players=n,
        first=names[0],
    )
    core = Core(
        pile=pile,
        pile_left=size,
        hands=((),) * n,
        unknown=(HAND,) * n,
        unseen=unseen,
        row=(),
        won=((),) * n,
        out=(),
        out_unknown=boxed,
        removed_rows=(),
        to_move=0,
        turn=1,
        phase=TURN,
        final=False,
        claim=None,
        last_play=None,
        outcome=None,
        verdict=text,
    )
    return setup, core


def _check_pile(pile: tuple[str, ...], size: int, cat: Catalogue) -> None:
    """:raises ValueError: for a scanned pile with a card of no catalogue, a card twice, or
    not `size` cards."""
    unknown_ids = [c for c in pile if c not in cat]
    if unknown_ids:
        raise ValueError(f"not Flip a Bird cards: {', '.join(map(str, unknown_ids))}")
    if len(set(pile)) != len(pile):
        raise ValueError("the pile holds a card twice")
    if len(pile) != size:
        raise ValueError(f"the pile must hold {size} cards, not {len(pile)}")


def _per_seat(
    n: int,
    hands: Sequence[Sequence[str]] | None,
    unknown: Sequence[int] | None,
    won: Sequence[Sequence[str]] | None,
) -> tuple[tuple[tuple[str, ...], ...], tuple[int, ...], tuple[tuple[str, ...], ...]]:
    """A described position's hands, unknown hand slots and won cards, one entry per seat
    (defaults: empty hands, each filled up to `HAND` with unknown cards, nothing won).

    :raises ValueError: for a list without one entry per player.
    """
    hands_t = tuple(tuple(h) for h in (hands or [()] * n))
    unknown_t = tuple(
        unknown if unknown is not None else [max(0, HAND - len(h)) for h in hands_t]
    )
    won_t = tuple(tuple(w) for w in (won or [()] * n))
    if len(hands_t) != n or len(unknown_t) != n or len(won_t) != n:
        raise ValueError(f"hands, unknown and won need one entry per player ({n})")
    return hands_t, unknown_t, won_t


@dataclass(frozen=True)
class FlipABirdDescription:
    """A position described (for tests and the rulebook's examples): the `players`; `pile` top
    first (known) or `pile_left` cards of unknown order; `hands` the cards known in each hand
    and `unknown` how many more each holds unseen (default: 2 minus the known ones); `row` as
    (card, face up, seat) from the draw pile outwards; `won` per seat; `out` known cards out of
    the game. Every card not placed is out of the game unseen, after the unknown slots (and,
    with `pile_left`, the pile) take theirs. `final` defaults to an empty pile."""

    players: Sequence[str]
    _: KW_ONLY
    pile: Sequence[str] | None = None
    pile_left: int | None = None
    hands: Sequence[Sequence[str]] | None = None
    unknown: Sequence[int] | None = None
    row: Sequence[tuple[str, bool, int] | RowCard] = ()
    won: Sequence[Sequence[str]] | None = None
    out: Sequence[str] = ()
    to_move: int = 0
    final: bool | None = None
    turn: int = 1
    variant: Variant | None = None
    catalogue: Catalogue | None = None


def described_position(description: FlipABirdDescription) -> tuple[Setup, Core]:
    """The set-up and state of a position built from a description (see `FlipABirdState.position`).

    :raises ValueError: for a card placed twice, an unknown id, or more unknown slots than
        unplaced cards.
    """
    d = description
    pile, out = d.pile, d.out
    cat = d.catalogue or load_catalogue()
    names = tuple(d.players)
    _check_players(names, cat)
    n = len(names)
    hands_t, unknown_t, won_t = _per_seat(n, d.hands, d.unknown, d.won)
    rows = tuple(
        r if isinstance(r, RowCard) else RowCard(r[0], bool(r[1]), int(r[2])) for r in d.row
    )
    placed = [
        *(pile or ()), *(c for h in hands_t for c in h), *(r.card for r in rows),
        *(c for w in won_t for c in w), *out,
    ]
    _check_placed(placed, cat)
    unseen = frozenset(cat.ids()) - frozenset(placed)
    left = len(pile) if pile is not None else int(d.pile_left or 0)
    slots = sum(unknown_t) + (0 if pile is not None else left)
    if slots > len(unseen):
        raise ValueError(f"{slots} unknown cards but only {len(unseen)} unplaced cards")
    hidden = len(unseen) - slots
    setup = Setup(names, cat, d.variant or Variant(), cat.limit(n), 1, (), pile is not None, hidden)
    core = Core(
        pile=tuple(pile) if pile is not None else None,
        pile_left=left,
        hands=hands_t,
        unknown=unknown_t,
        unseen=unseen,
        row=rows,
        won=won_t,
        out=tuple(out),
        out_unknown=hidden,
        removed_rows=(),
        to_move=d.to_move,
        turn=d.turn,
        phase=TURN,
        final=(left == 0) if d.final is None else d.final,
        claim=None,
        last_play=None,
        outcome=None,
        verdict="A described position.",
    )
    return setup, core


def _check_placed(placed: Sequence[str], cat: Catalogue) -> None:
    """:raises ValueError: for a placed card of no catalogue, or one placed twice."""
    bad = [c for c in placed if c not in cat]
    if bad:
        raise ValueError(f"not Flip a Bird cards: {', '.join(bad)}")
    twice = sorted({c for c in placed if placed.count(c) > 1})
    if twice:
        raise ValueError(f"placed twice: {', '.join(twice)}")


def _check_players(names: tuple[str, ...], cat: Catalogue) -> None:
    """:raises ValueError: for a name that is empty or not text, names given twice, or a number
    of players the catalogue has no limit for."""
    if any(not isinstance(p, str) or not p.strip() for p in names):
        raise ValueError(Msg("player names must be non-empty text: {names}", names=repr(names)))
    if len(set(names)) != len(names):
        raise ValueError(Msg("player names must differ: {names}", names=repr(names)))
    cat.limit(len(names))  # raises for a count the game is not for
