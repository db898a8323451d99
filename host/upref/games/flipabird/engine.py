"""Flip a Bird ("Bei dir piept's wohl!"): the rules engine.

Model (docs/games/flipabird.md, rulings F-1 ... F-16): 60 game cards, each with a back (open or
covered birdcage); a draw pile; two cards in each hand between turns (F-15); one row at a time
(F-8); each player's won cards; cards out of the game. A turn either plays a card (draw the top
card, then play any hand card onto the end of the row, face up or down as the back of the new top
card says) or claims that the row holds too many birds, against the right-hand neighbour, who
played the last card.

**What the engine knows.** With the set-up scan, the order of the draw pile (`pile`), so the face
every play must take and which cards each player drew; the cards dealt into the hands are known
only as a set (`unseen`: each seat has `unknown` slots filled from it). Without the scan the pile
is a count only, its cards are unseen too, and the face of a play is what the table says (the
`up` of `Play`); the engine then cannot check faces and only checks that a card is not already
somewhere else. Every card is always in exactly one place: the pile, a hand (known or an unknown
slot), the row, someone's won cards, or out of the game (known, or unknown: cards left in the box
by a short pile, unknown hand cards at the end).

Actions (frozen dataclasses, `legal_actions()` sorted):

- `Play(card, up)`: the player to move draws the top card (not in the final phase) and plays
  `card` face up (`up`) or face down; the all-face-up rule (F-9) and the start of the final
  phase follow from it;
- `Claim()`: "Bei dir piept's wohl!" against the right-hand neighbour (F-13, F-14);
- `Tip(seat, red)`: another player's tip, entered after all were revealed at once; when the
  last is in, the row is turned face up and evaluated (`evaluation.evaluate`, F-1 ... F-5, F-10);
- `Take(card)`: the player whose take it is takes a card of the claimed row (F-6, F-7);
- `WrongWay()`: the last card went the wrong way up; it is turned over, the play stands (F-16);
- `Pass()`: the player to move has no card in the final phase and does not claim: the game
  ends without evaluation (F-11).

Refusals (`IllegalMoveError.rule`): F-11, F-14, F-16 for their rulings; "hand" a card that
cannot be in the player's hand; "row" a card already in the row; "won" a card someone won;
"out" a card out of the game; "face" a face the draw pile does not give; "tips" an action while
the tips are collected, or a tip that is fixed or already in; "take" a take of a card that is not
to be shared, or an action while the row is shared out; "card" an id that is no game card;
"seat" a seat that does not play; "over" any action after the end.

Hidden information: face-down cards in the row, every hand, the pile's order, other players'
tips until all are in, and the cards that leave the game unseen. `view(None)` holds none of them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from upref.games.base import TERMINAL, GameView, IllegalMoveError, MatchGame, Outcome
from upref.games.flipabird.cards import (
    COLOURS,
    Card,
    Catalogue,
    colour_name,
    load_catalogue,
)
from upref.games.flipabird.evaluation import Evaluation, evaluate
from upref.text import and_join, count

__all__ = [
    "HAND",
    "NAME",
    "TITLE",
    "Action",
    "CardView",
    "Claim",
    "ClaimState",
    "ClaimView",
    "FlipGame",
    "FlipView",
    "Pass",
    "Play",
    "PlayerView",
    "RowCard",
    "RowView",
    "Score",
    "Take",
    "Tip",
    "Variant",
    "WrongWay",
    "deal",
    "score",
]

NAME = "flipabird"
TITLE = "Flip a Bird"
HAND = 2
"""Cards in each hand between turns in the normal phase (F-15)."""

TURN, TIPS, TAKE, OVER = "turn", "tips", "take", "over"
RED, GREEN = "red", "green"


# --- variant -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """`pile`: a short game with a draw pile of that many cards; the rest of the shuffled deck
    goes back into the box unseen (None: the whole deck, 60 minus two per player)."""

    pile: int | None = None

    def __post_init__(self) -> None:
        p = self.pile
        if p is not None and (isinstance(p, bool) or not isinstance(p, int) or p < 1):
            raise ValueError(f"a short game's draw pile must be a positive number of cards: {p!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"pile": self.pile}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Variant:
        """:raises ValueError: for a pile that is not a positive whole number."""
        data = data or {}
        return cls(pile=data.get("pile"))

    def describe(self) -> str:
        if self.pile is not None:
            return f"short game, a draw pile of {self.pile} cards"
        return "the whole deck"

    def pile_size(self, players: int, deck: int) -> int:
        """The draw pile's size with this many players and cards.

        :raises ValueError: when the pile asked for is bigger than what is left after the deal.
        """
        left = deck - HAND * players
        if self.pile is None:
            return left
        if self.pile > left:
            raise ValueError(
                f"a draw pile of {self.pile} cards is more than the {left} left after dealing "
                f"{HAND} cards to each of {players} players"
            )
        return self.pile


# --- actions --------------------------------------------------------------------------------


class _Ordered:
    """Actions of different kinds sort by kind first, then by their fields."""

    RANK: ClassVar[int] = 0

    def _key(self) -> tuple[Any, ...]:
        return (self.RANK, *self.__dict__.values())

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _Ordered):
            return NotImplemented
        return self._key() < other._key()


@dataclass(frozen=True)
class Play(_Ordered):
    """The player to move draws (outside the final phase) and plays `card`, face up if `up`."""

    RANK: ClassVar[int] = 1
    card: str
    up: bool


@dataclass(frozen=True)
class Claim(_Ordered):
    """The player to move claims the row holds too many birds ("Bei dir piept's wohl!")."""

    RANK: ClassVar[int] = 2


@dataclass(frozen=True)
class Pass(_Ordered):
    """Final phase, no hand card, no claim: the game ends without evaluation (F-11)."""

    RANK: ClassVar[int] = 3


@dataclass(frozen=True)
class WrongWay(_Ordered):
    """The last card played went the wrong way up: it is turned over, the play stands (F-16)."""

    RANK: ClassVar[int] = 4


@dataclass(frozen=True)
class Tip(_Ordered):
    """`seat`'s tip at a claim: red (too many birds) or green."""

    RANK: ClassVar[int] = 5
    seat: int
    red: bool


@dataclass(frozen=True)
class Take(_Ordered):
    """The player whose take it is takes `card` from the claimed row (F-6)."""

    RANK: ClassVar[int] = 6
    card: str


Action = Play | Claim | Pass | WrongWay | Tip | Take


# --- scoring ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """Won cards scored: sets of four colours (10 each), single bird cards (1), special cards
    (2). The grouping is the best one: as many sets as the rarest colour allows."""

    sets: int
    singles: int
    specials: int

    @property
    def points(self) -> int:
        return 10 * self.sets + self.singles + 2 * self.specials

    def describe(self) -> str:
        parts = []
        if self.sets:
            parts.append(f"{count(self.sets, 'set')} ×10")
        if self.singles:
            parts.append(f"{self.singles} single ×1")
        if self.specials:
            parts.append(f"{self.specials} special ×2")
        return (" + ".join(parts) or "no cards") + f" = {self.points}"


def score(cards: Iterable[Card]) -> Score:
    """The score of won cards: m = the fewest bird cards of any colour gives m sets of four
    colours; the other bird cards score 1, special cards 2."""
    cards = list(cards)
    per = {c: 0 for c in COLOURS}
    specials = 0
    for c in cards:
        if c.is_bird and c.colour in per:
            per[c.colour] += 1
        elif c.is_special:
            specials += 1
    sets = min(per.values())
    birds = sum(per.values())
    return Score(sets, birds - 4 * sets, specials)


# --- the view --------------------------------------------------------------------------------


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


# --- state ---------------------------------------------------------------------------------


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
class _Core:
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
class _Setup:
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


class FlipGame(MatchGame[Action, Variant, Catalogue]):
    """One game of Flip a Bird. Build it with `FlipGame.new(...)` (or `position(...)` for a
    described position). Seats are 0..n-1 clockwise; seat 0 begins ("whoever is best at
    chirping"). "Right" is counter-clockwise: seat - 1."""

    def __init__(self, setup: _Setup, core: _Core) -> None:
        super().__init__()
        self._setup = setup
        self._s = core

    # --- construction ----------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        *,
        pile: Sequence[str] | None = None,
        variant: Variant | None = None,
        catalogue: Catalogue | None = None,
        game_number: int = 1,
        history: tuple[Outcome, ...] = (),
    ) -> FlipGame:
        """A new game after the deal: `players` clockwise from the one who begins; `pile` the
        draw pile top first, as the set-up scan learnt it (None: the scan was skipped, the
        pile's order is unknown).

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
            unknown_ids = [c for c in pile if c not in cat]
            if unknown_ids:
                raise ValueError(f"not Flip a Bird cards: {', '.join(map(str, unknown_ids))}")
            if len(set(pile)) != len(pile):
                raise ValueError("the pile holds a card twice")
            if len(pile) != size:
                raise ValueError(f"the pile must hold {size} cards, not {len(pile)}")
        unseen = frozenset(cat.ids()) - frozenset(pile or ())
        boxed = len(cat.cards) - size - HAND * n
        setup = _Setup(
            names, cat, variant, cat.limit(n), game_number, history, pile is not None, boxed
        )
        text = (
            f"Game {game_number} ({variant.describe()}): {and_join(list(names))}. A row may hold "
            f"{cat.limit(n)} birds with {n} players. {names[0]} begins."
        )
        core = _Core(
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
        return cls(setup, core)

    @classmethod
    def position(
        cls,
        players: Sequence[str],
        *,
        pile: Sequence[str] | None = None,
        pile_left: int | None = None,
        hands: Sequence[Sequence[str]] | None = None,
        unknown: Sequence[int] | None = None,
        row: Sequence[tuple[str, bool, int] | RowCard] = (),
        won: Sequence[Sequence[str]] | None = None,
        out: Sequence[str] = (),
        to_move: int = 0,
        final: bool | None = None,
        turn: int = 1,
        variant: Variant | None = None,
        catalogue: Catalogue | None = None,
    ) -> FlipGame:
        """A position built from a description (for tests and the rulebook's examples):
        `pile` top first (known) or `pile_left` cards of unknown order; `hands` the cards known
        in each hand and `unknown` how many more each holds unseen (default: 2 minus the known
        ones); `row` as (card, face up, seat) from the draw pile outwards; `won` per seat;
        `out` known cards out of the game. Every card not placed is out of the game unseen,
        after the unknown slots (and, with `pile_left`, the pile) take theirs. `final` defaults
        to an empty pile.

        :raises ValueError: for a card placed twice, an unknown id, or more unknown slots than
            unplaced cards.
        """
        cat = catalogue or load_catalogue()
        names = tuple(players)
        _check_players(names, cat)
        n = len(names)
        hands_t = tuple(tuple(h) for h in (hands or [()] * n))
        unknown_t = tuple(
            unknown if unknown is not None else [max(0, HAND - len(h)) for h in hands_t]
        )
        won_t = tuple(tuple(w) for w in (won or [()] * n))
        rows = tuple(r if isinstance(r, RowCard) else RowCard(r[0], bool(r[1]), int(r[2])) for r in row)
        if len(hands_t) != n or len(unknown_t) != n or len(won_t) != n:
            raise ValueError(f"hands, unknown and won need one entry per player ({n})")
        placed = [
            *(pile or ()), *(c for h in hands_t for c in h), *(r.card for r in rows),
            *(c for w in won_t for c in w), *out,
        ]
        bad = [c for c in placed if c not in cat]
        if bad:
            raise ValueError(f"not Flip a Bird cards: {', '.join(bad)}")
        twice = sorted({c for c in placed if placed.count(c) > 1})
        if twice:
            raise ValueError(f"placed twice: {', '.join(twice)}")
        unseen = frozenset(cat.ids()) - frozenset(placed)
        left = len(pile) if pile is not None else int(pile_left or 0)
        slots = sum(unknown_t) + (0 if pile is not None else left)
        if slots > len(unseen):
            raise ValueError(f"{slots} unknown cards but only {len(unseen)} unplaced cards")
        variant = variant or Variant()
        setup = _Setup(
            names, cat, variant, cat.limit(n), 1, (), pile is not None, len(unseen) - slots
        )
        core = _Core(
            pile=tuple(pile) if pile is not None else None,
            pile_left=left,
            hands=hands_t,
            unknown=unknown_t,
            unseen=unseen,
            row=rows,
            won=won_t,
            out=tuple(out),
            out_unknown=len(unseen) - slots,
            removed_rows=(),
            to_move=to_move,
            turn=turn,
            phase=TURN,
            final=(left == 0) if final is None else final,
            claim=None,
            last_play=None,
            outcome=None,
            verdict="A described position.",
        )
        return cls(setup, core)

    def next_game(self, pile: Sequence[str] | None = None) -> FlipGame:
        """The next game with the same players, variant and catalogue (`pile` from its own
        scan); this game's outcome, if it is over, joins the history."""
        return FlipGame.new(
            self._setup.players,
            pile=pile,
            variant=self._setup.variant,
            catalogue=self._setup.catalogue,
            game_number=self._setup.game_number + 1,
            history=self._next_history(),
        )

    # --- read-only accessors -----------------------------------------------------------------

    @property
    def limit(self) -> int:
        return self._setup.limit

    @property
    def scanned(self) -> bool:
        """Whether the pile's order is known (the set-up scan was made)."""
        return self._setup.scanned

    @property
    def phase(self) -> str:
        """'turn', 'tips', 'take' or 'over'."""
        return self._s.phase

    @property
    def turn(self) -> int:
        return self._s.turn

    @property
    def final(self) -> bool:
        """The last card of the draw pile has been drawn."""
        return self._s.final

    @property
    def pile(self) -> tuple[str, ...] | None:
        """The draw pile, top first, when known. Secret."""
        return self._s.pile

    @property
    def pile_left(self) -> int:
        return self._s.pile_left

    @property
    def row(self) -> tuple[RowCard, ...]:
        """The row from the draw pile outwards. Holds face-down cards: not for public views."""
        return self._s.row

    @property
    def verdict(self) -> str:
        return self._s.verdict

    @property
    def last_play(self) -> int | None:
        return self._s.last_play

    @property
    def evaluation(self) -> Evaluation | None:
        """The evaluation of the claim being settled (once every tip is in)."""
        c = self._s.claim
        return c.evaluation if c is not None else None

    @property
    def claim_state(self) -> ClaimState | None:
        return self._s.claim

    @property
    def unseen(self) -> frozenset[str]:
        """Cards whose place is not known (unknown hand slots, the box, an unknown pile)."""
        return self._s.unseen

    @property
    def out(self) -> tuple[str, ...]:
        return self._s.out

    @property
    def out_unknown(self) -> int:
        return self._s.out_unknown

    @property
    def removed_rows(self) -> tuple[tuple[str, ...], ...]:
        return self._s.removed_rows

    def hand(self, seat: int) -> tuple[str, ...]:
        """The cards known in `seat`'s hand. Secret."""
        return self._s.hands[self._seat(seat)]

    def unknown(self, seat: int) -> int:
        """How many of `seat`'s hand cards the engine does not know individually."""
        return self._s.unknown[self._seat(seat)]

    def hand_size(self, seat: int) -> int:
        s = self._seat(seat)
        return len(self._s.hands[s]) + self._s.unknown[s]

    def won(self, seat: int) -> tuple[Card, ...]:
        return tuple(self.catalogue.card(c) for c in self._s.won[self._seat(seat)])

    def score(self, seat: int) -> Score:
        return score(self.won(seat))

    def tips(self) -> tuple[str | None, ...] | None:
        """Every seat's tip at the claim being settled (secret until all are in)."""
        c = self._s.claim
        return None if c is None else c.tips

    def taker(self) -> int | None:
        """The seat whose take it is while a claimed row is shared out."""
        c = self._s.claim
        if self._s.phase != TAKE or c is None:
            return None
        return c.takers[c.taker]

    def required_face(self) -> bool | None:
        """The face the next play must take: True up, False down, None when the engine cannot
        know (no scan: the back under the top card is unseen). Secret before the draw: the
        back it depends on lies under the top card."""
        s = self._s
        if s.final or s.pile_left <= 1:
            return False
        if s.pile is None:
            return None
        return self.catalogue.card(s.pile[1]).back == "open"

    def public_face(self) -> bool | None:
        """The face of the next play when everyone can know it before the draw: face down in
        the final phase and when the draw empties the pile; else None."""
        s = self._s
        if s.phase != TURN or s.outcome is not None:
            return None
        return False if (s.final or s.pile_left <= 1) else None

    def can_claim(self) -> bool:
        s = self._s
        return s.outcome is None and s.phase == TURN and bool(s.row)

    def can_pass(self) -> bool:
        s = self._s
        return (
            s.outcome is None and s.phase == TURN and s.final and self.hand_size(s.to_move) == 0
        )

    def count_places(self) -> int:
        """All cards counted over their places (always the catalogue's 60)."""
        s = self._s
        pile = len(s.pile) if s.pile is not None else s.pile_left
        hands = sum(len(h) for h in s.hands) + sum(s.unknown)
        return pile + hands + len(s.row) + sum(len(w) for w in s.won) + len(s.out) + s.out_unknown

    # --- GameState verbs -------------------------------------------------------------------

    def current_player(self) -> int:
        s = self._s
        if s.outcome is not None:
            return TERMINAL
        if s.phase == TAKE:
            taker = self.taker()
            assert taker is not None
            return taker
        return s.to_move

    def outcome(self) -> Outcome | None:
        return self._s.outcome

    def legal_actions(self) -> list[Action]:
        s = self._s
        if s.outcome is not None:
            return []
        acts: list[Action] = []
        if s.phase == TIPS:
            assert s.claim is not None
            for seat, tip in enumerate(s.claim.tips):
                if tip is None:
                    acts += [Tip(seat, False), Tip(seat, True)]
            return sorted(acts)
        if s.phase == TAKE:
            assert s.claim is not None
            return sorted(Take(c) for c in set(s.claim.left))
        p = s.to_move
        face = self.required_face()
        faces = (False, True) if face is None else (face,)
        for c in self._playable(p):
            acts += [Play(c, up) for up in faces]
        if s.row:
            acts.append(Claim())
        if self.can_pass():
            acts.append(Pass())
        if s.last_play is not None and not s.row[s.last_play].flagged:
            acts.append(WrongWay())
        return sorted(acts)

    def _playable(self, seat: int) -> list[str]:
        """The cards `seat` may play now: a known hand card, the card the draw brings, or, for
        an unknown slot, any unseen card that is not in a known pile."""
        s = self._s
        if s.final:
            out = list(s.hands[seat])
            if s.unknown[seat]:
                out += sorted(s.unseen)
            return out
        out = list(s.hands[seat])
        if s.pile is not None:
            out.append(s.pile[0])
            if s.unknown[seat]:
                out += sorted(s.unseen)
        else:
            out += sorted(s.unseen)  # the draw brings an unseen card into an unknown slot
        return out

    def check(self, action: Action) -> None:
        s = self._s
        if s.outcome is not None:
            raise IllegalMoveError(
                "over",
                f"The game is over: {self._result_text(s.outcome)}. Start the next game to play on.",
                action=action,
            )
        if isinstance(action, Play):
            self._check_play(action)
        elif isinstance(action, Claim):
            self._check_claim(action)
        elif isinstance(action, Tip):
            self._check_tip(action)
        elif isinstance(action, Take):
            self._check_take(action)
        elif isinstance(action, WrongWay):
            self._check_wrong_way(action)
        elif isinstance(action, Pass):
            self._check_pass(action)
        else:
            raise IllegalMoveError("apply", f"not a Flip a Bird action: {action!r}", action=action)

    def _snapshot(self) -> object:
        return self._s

    def _restore(self, snapshot: object) -> None:
        if not isinstance(snapshot, _Core):
            raise TypeError(f"not a Flip a Bird snapshot: {snapshot!r}")
        self._s = snapshot

    def clone(self) -> FlipGame:
        other = FlipGame(self._setup, self._s)
        other._undo_stack = list(self._undo_stack)
        return other

    def _applicable(self, action: Action) -> bool:
        return self.is_legal(action)

    # --- rules checks ----------------------------------------------------------------------

    def _not_now(self, action: Action) -> None:
        """Refuse anything but tips while the tips are collected, and anything but takes while
        the row is shared out."""
        s = self._s
        if s.phase == TIPS and not isinstance(action, Tip):
            missing = self._missing_tips()
            raise IllegalMoveError(
                "tips",
                f"A claim is on: first every tip must be in ({and_join(missing)} still to "
                "tip); then the row is turned up and evaluated.",
                "Enter the missing tips first.",
                action,
            )
        if s.phase == TAKE and not isinstance(action, Take):
            taker = self.taker()
            assert taker is not None
            raise IllegalMoveError(
                "take",
                f"The claimed row is being shared out: it is {self._name(taker)}'s take.",
                f"{self._name(taker)}: take a card of the claimed row and tap it.",
                action,
            )

    def _check_play(self, a: Play) -> None:
        s = self._s
        self._not_now(a)
        if a.card not in self.catalogue:
            what = "a tip card" if self.catalogue.is_tip(a.card) else f"{a.card!r}"
            raise IllegalMoveError(
                "card", f"That is {what}, not a card to play.", "Take it back.", a
            )
        p = s.to_move
        name = self._name(p)
        if self.hand_size(p) == 0 and s.final:
            raise IllegalMoveError(
                "F-11",
                f"By the referee's count {name} has no card left. With no card, claim or end "
                "the game without evaluating the row (F-11).",
                "Take the card back: it is not yours to play.",
                a,
            )
        for i, r in enumerate(s.row):
            if r.card == a.card:
                raise IllegalMoveError(
                    "row",
                    f"That card is already in the row (position {i + 1}).",
                    f"Put it back at position {i + 1}.",
                    a,
                )
        for seat, w in enumerate(s.won):
            if a.card in w:
                raise IllegalMoveError(
                    "won",
                    f"{a.card} is among {self._name(seat)}'s won cards: won cards never go back "
                    "into play.",
                    f"Give {a.card} back to {self._name(seat)}'s won cards.",
                    a,
                )
        if a.card in s.out:
            raise IllegalMoveError(
                "out",
                "That card is out of the game.",
                "Put it back with the cards out of the game.",
                a,
            )
        if a.card not in self._playable(p):
            raise IllegalMoveError("hand", self._not_in_hand(p, a.card), self._hand_fix(p, a.card), a)
        face = self.required_face()
        if face is not None and a.up != face:
            why = (
                "in the final phase every card is played face down"
                if s.final
                else "the draw empties the pile, so the card goes face down"
                if s.pile_left <= 1
                else f"the pile shows {'an open' if face else 'a covered'} cage after the draw"
            )
            raise IllegalMoveError(
                "face",
                f"{name}'s card goes face {'up' if face else 'down'}: {why}.",
                f"Play it face {'up' if face else 'down'}.",
                a,
            )

    def _not_in_hand(self, seat: int, card: str) -> str:
        """Why `card` cannot be in `seat`'s hand, never naming a secret card."""
        s = self._s
        name = self._name(seat)
        if s.pile is not None and card in s.pile:
            depth = s.pile.index(card)
            where = "just under the top card" if depth == 1 else f"card {depth + 1} from the top"
            return (
                f"By the set-up scan that card lay in the draw pile ({where}), so it cannot be in "
                f"{name}'s hand: a turn draws only the top card."
            )
        for other, h in enumerate(s.hands):
            if card in h and other != seat:
                return (
                    f"By the set-up scan {self._name(other)} drew that card, so it cannot be in "
                    f"{name}'s hand."
                )
        if card in s.unseen and s.unknown[seat] == 0:
            return (
                f"{name} has already played both cards dealt to them, and by the set-up scan "
                "that card was dealt to someone else (or left in the box)."
            )
        return f"That card cannot be in {name}'s hand."

    def _hand_fix(self, seat: int, card: str) -> str:
        s = self._s
        if s.pile is not None and card in s.pile:
            depth = s.pile.index(card)
            place = "on top of" if depth == 1 else f"back under the top {depth - 1} cards of"
            return f"Put that card back {place} the draw pile, then play a card from your hand."
        return "Give that card back to whoever holds it, then play a card from your own hand."

    def _check_claim(self, a: Claim) -> None:
        s = self._s
        self._not_now(a)
        if not s.row:
            raise IllegalMoveError(
                "F-14",
                "There is no row to claim against: a claim needs at least one card in the row "
                "(F-14).",
                f"{self._name(s.to_move)}: draw and play a card to start the row.",
                a,
            )

    def _check_tip(self, a: Tip) -> None:
        s = self._s
        if s.phase != TIPS or s.claim is None:
            raise IllegalMoveError(
                "tips", "No claim is waiting for tips now.", "Keep your tip cards.", a
            )
        if not (isinstance(a.seat, int) and 0 <= a.seat < self.num_players()):
            raise IllegalMoveError(
                "seat",
                f"No player {a.seat + 1 if isinstance(a.seat, int) else a.seat!r} plays this "
                f"game ({self.num_players()} players).",
                "Put that tip card back in the box.",
                a,
            )
        c = s.claim
        name = self._name(a.seat)
        if a.seat == c.claimant:
            raise IllegalMoveError(
                "tips", f"{name} claimed: {name}'s tip is red, face up.", None, a
            )
        if a.seat == c.accused:
            raise IllegalMoveError(
                "tips", f"{name} is accused: {name}'s tip is green, face up.", None, a
            )
        if c.tips[a.seat] is not None:
            raise IllegalMoveError(
                "tips",
                f"{name}'s tip is already in: tips are revealed at once and stay as revealed.",
                None,
                a,
            )

    def _check_take(self, a: Take) -> None:
        s = self._s
        if s.phase != TAKE or s.claim is None:
            self._not_now(a)
            raise IllegalMoveError(
                "take", "No claimed row is being shared out now.", "Put the card back.", a
            )
        taker = self.taker()
        assert taker is not None
        if a.card in dict((c, None) for _, c in s.claim.taken):
            who = next(seat for seat, c in s.claim.taken if c == a.card)
            raise IllegalMoveError(
                "take",
                f"{a.card} was taken already, by {self._name(who)}.",
                f"{a.card} stays with {self._name(who)}.",
                a,
            )
        if a.card not in s.claim.left:
            raise IllegalMoveError(
                "take",
                "That card is not one of the claimed row's cards: only they are shared out.",
                "Put it back where it came from.",
                a,
            )

    def _check_wrong_way(self, a: WrongWay) -> None:
        s = self._s
        self._not_now(a)
        if s.last_play is None:
            raise IllegalMoveError(
                "F-16",
                "No card was just played: F-16 turns over the card just played, before the next "
                "action.",
                None,
                a,
            )
        if s.row[s.last_play].flagged:
            raise IllegalMoveError(
                "F-16", "That card was turned over already (F-16).", None, a
            )

    def _check_pass(self, a: Pass) -> None:
        s = self._s
        self._not_now(a)
        name = self._name(s.to_move)
        if not s.final:
            raise IllegalMoveError(
                "F-11",
                "Only in the final phase, with no card left, may a player end the game without "
                "a claim (F-11).",
                f"{name}: draw and play, or claim.",
                a,
            )
        if self.hand_size(s.to_move) > 0:
            raise IllegalMoveError(
                "F-11",
                f"{name} still has {count(self.hand_size(s.to_move), 'card')}: play one or claim "
                "(F-11 ends the game only for a player with no card).",
                f"{name}: play a card or claim.",
                a,
            )

    # --- applying ----------------------------------------------------------------------------

    def _do(self, action: Action) -> str:
        if isinstance(action, Play):
            return self._do_play(action)
        if isinstance(action, Claim):
            return self._do_claim()
        if isinstance(action, Tip):
            return self._do_tip(action)
        if isinstance(action, Take):
            return self._do_take(action)
        if isinstance(action, WrongWay):
            return self._do_wrong_way()
        return self._do_pass()

    def _set(self, **changes: Any) -> str:
        self._s = replace(self._s, **changes)
        return self._s.verdict

    def _do_play(self, a: Play) -> str:
        s = self._s
        p = s.to_move
        n = self.num_players()
        name = self._name(p)
        hands = [list(h) for h in s.hands]
        unknown = list(s.unknown)
        unseen = set(s.unseen)
        pile = s.pile
        pile_left = s.pile_left
        final = s.final
        reason = self._face_reason(a.up)
        if not final:  # draw the top card
            if pile is not None:
                hands[p].append(pile[0])
                pile = pile[1:]
            else:
                unknown[p] += 1
            pile_left -= 1
        if a.card in hands[p]:
            hands[p].remove(a.card)
        else:
            unseen.discard(a.card)
            unknown[p] -= 1
        card = self.catalogue.card(a.card)
        new = RowCard(a.card, a.up, p)
        row = s.row + (new,)
        nxt = (p + 1) % n
        what = f"{a.card} face up: {card.face}" if a.up else "a card face down"
        text = f"{name} played {what}" + (f" ({reason})." if reason else ".")
        changes: dict[str, Any] = {}
        if a.up and len(row) > 1 and all(r.up for r in row):
            ev = evaluate([self.catalogue.card(r.card) for r in row], self.limit)
            if ev.total > self.limit:  # F-9: the old row leaves the game
                old = tuple(r.card for r in s.row)
                text += (
                    f" The whole row lies face up and holds {ev.total} birds, more than "
                    f"{self.limit}: the old row ({count(len(old), 'card')}) leaves the game and "
                    f"{a.card} starts a new row (F-9)."
                )
                row = (new,)
                changes.update(out=s.out + old, removed_rows=s.removed_rows + (old,))
        if not final and pile_left == 0:
            final = True
            text += (
                " That was the last card of the draw pile: the final phase begins, every card is "
                "now played face down, without drawing."
            )
        text += f" {self._name(nxt)}'s turn."
        return self._set(
            pile=pile,
            pile_left=pile_left,
            hands=tuple(tuple(h) for h in hands),
            unknown=tuple(unknown),
            unseen=frozenset(unseen),
            row=row,
            to_move=nxt,
            turn=s.turn + 1,
            final=final,
            last_play=len(row) - 1,
            verdict=text,
            **changes,
        )

    def _face_reason(self, up: bool) -> str | None:
        """Why a play goes face up or down, before it is applied (None without the scan, where
        the face is the table's word)."""
        s = self._s
        if s.final:
            return "final phase"
        if s.pile_left <= 1:
            return "the draw empties the pile"
        if s.pile is None:
            return None
        return f"{'open' if up else 'covered'} cage on the pile"

    def _do_claim(self) -> str:
        s = self._s
        n = self.num_players()
        p = s.to_move
        accused = (p - 1) % n
        tips: list[str | None] = [None] * n
        tips[p] = RED
        tips[accused] = GREEN
        others = [self._name(i) for i in range(n) if tips[i] is None]
        text = (
            f"{self._name(p)} claims: \"Bei dir piept's wohl!\" — too many birds in the row "
            f"{self._name(accused)} played to. {self._name(p)} tips red, {self._name(accused)} "
            f"green. {and_join(others)}: choose red or green, reveal all at once."
        )
        claim = ClaimState(p, accused, tuple(tips), s.row)
        return self._set(phase=TIPS, claim=claim, last_play=None, verdict=text)

    def _missing_tips(self) -> list[str]:
        c = self._s.claim
        assert c is not None
        return [self._name(i) for i, t in enumerate(c.tips) if t is None]

    def _do_tip(self, a: Tip) -> str:
        s = self._s
        c = s.claim
        assert c is not None
        tips = list(c.tips)
        tips[a.seat] = RED if a.red else GREEN
        name = self._name(a.seat)
        missing = [self._name(i) for i, t in enumerate(tips) if t is None]
        if missing:
            need = sum(1 for i in range(len(tips)) if i not in (c.claimant, c.accused))
            have = need - len(missing)
            return self._set(
                claim=replace(c, tips=tuple(tips)),
                verdict=f"{name}'s tip is in ({have} of {need}); waiting for {and_join(missing)}.",
            )
        return self._reveal(c, tuple(tips))

    def _reveal(self, c: ClaimState, tips: tuple[str | None, ...]) -> str:
        """Every tip is in: turn the row face up, evaluate it, find the takers (F-6, F-7)."""
        n = self.num_players()
        row = tuple(replace(r, up=True) for r in c.row)
        ev = evaluate([self.catalogue.card(r.card) for r in row], self.limit)
        right = ev.right
        first = c.claimant if right == RED else c.accused
        takers = tuple(
            seat for k in range(n) if tips[seat := (first - k) % n] == right
        )
        said = ", ".join(
            f"{self._name(i)} {t}" + (" (claim)" if i == c.claimant else " (accused)" if i == c.accused else "")
            for i, t in enumerate(tips)
        )
        order = and_join([self._name(t) for t in takers])
        text = (
            f"All tips are in: {said}. The row is turned face up ({count(len(row), 'card')}). "
            f"{ev.summary} "
        )
        if len(takers) == 1:
            text += f"{order} alone was right and takes every card (F-7)."
        else:
            text += f"Takers, counter-clockwise from {self._name(first)}: {order} (F-6)."
        claim = replace(
            c, tips=tips, row=row, evaluation=ev, takers=takers, taker=0,
            left=tuple(r.card for r in row),
        )
        return self._set(phase=TAKE, claim=claim, row=row, verdict=text)

    def _do_take(self, a: Take) -> str:
        s = self._s
        c = s.claim
        assert c is not None
        seat = c.takers[c.taker]
        name = self._name(seat)
        won = list(s.won)
        won[seat] = won[seat] + (a.card,)
        left = tuple(x for x in c.left if x != a.card)
        row = tuple(r for r in s.row if r.card != a.card)
        taken = c.taken + ((seat, a.card),)
        card = self.catalogue.card(a.card)
        text = f"{name} takes {a.card} ({card.face})"
        if left:
            nxt = (c.taker + 1) % len(c.takers)
            claim = replace(c, taker=nxt, left=left, taken=taken)
            text += f": {count(len(left), 'card')} left, {self._name(c.takers[nxt])}'s take."
            return self._set(claim=claim, won=tuple(won), row=row, verdict=text)
        got = [(t, sum(1 for x, _ in taken if x == t)) for t in c.takers]
        shares = and_join([f"{self._name(t)} {k}" for t, k in got if k])
        removed = len(c.evaluation.removed) if c.evaluation is not None else 0
        text += (
            f": all {count(len(taken), 'card')} are shared ({shares}"
            + (f"; {removed} of them taken out by special cards, F-5" if removed else "")
            + ")."
        )
        if s.final:
            out = self._make_outcome("claim", won)
            text += f" That was the final phase's claim: the game ends. {self._result_text(out)}."
            return self._end(out, text, won=tuple(won), row=(), claim=replace(c, left=(), taken=taken))
        text += f" {self._name(c.claimant)} starts a new row: draw and play."
        return self._set(
            won=tuple(won), row=(), claim=None, phase=TURN, to_move=c.claimant,
            turn=s.turn + 1, verdict=text,
        )

    def _do_wrong_way(self) -> str:
        s = self._s
        i = s.last_play
        assert i is not None
        r = s.row[i]
        row = s.row[:i] + (replace(r, flagged=True),) + s.row[i + 1 :]
        way = "up" if r.up else "down"
        text = (
            f"{self._name(r.by)}'s card at position {i + 1} went the wrong way: it must lie face "
            f"{way}. Turn it face {way}; the play stands (F-16)."
        )
        return self._set(row=row, verdict=text)

    def _do_pass(self) -> str:
        s = self._s
        name = self._name(s.to_move)
        won = s.won
        out = self._make_outcome("no-claim", won)
        text = (
            f"{name} has no card left and does not claim: the game ends without evaluating the "
            f"row (F-11). {self._result_text(out)}."
        )
        return self._end(out, text)

    def _end(self, out: Outcome, text: str, **changes: Any) -> str:
        """The game is over: the row and the cards still in hand leave the game."""
        s = self._s
        row = changes.pop("row", s.row)
        known = tuple(c for h in s.hands for c in h)
        return self._set(
            outcome=out,
            phase=OVER,
            hands=((),) * self.num_players(),
            unknown=(0,) * self.num_players(),
            out=s.out + tuple(r.card for r in row) + known,
            out_unknown=s.out_unknown + sum(s.unknown),
            row=(),
            last_play=None,
            verdict=text,
            **changes,
        )

    def _make_outcome(self, termination: str, won: Sequence[tuple[str, ...]]) -> Outcome:
        scores = tuple(score(self.catalogue.card(c) for c in w).points for w in won)
        best = max(scores)
        return Outcome(termination, tuple(i for i, x in enumerate(scores) if x == best), scores)

    def _result_text(self, out: Outcome) -> str:
        names = [self._name(w) for w in out.winners]
        best = out.scores[out.winners[0]] if out.winners else 0
        if len(names) == 1:
            return f"{names[0]} wins with {count(best, 'point')}"
        return f"{and_join(names)} share the win with {count(best, 'point')} each (F-12)"

    # --- views --------------------------------------------------------------------------------

    def view(self, seat: int | None) -> FlipView:
        """What `seat` may see, or with None what the whole table may see."""
        s = self._s
        cat = self.catalogue
        names = self._setup.players
        if seat is not None:
            seat = self._seat(seat)
        c = s.claim
        revealed = c is not None and c.evaluation is not None
        players = []
        for i in range(len(names)):
            tip: str | None = None
            tipped = False
            if c is not None:
                tipped = c.tips[i] is not None
                fixed = i in (c.claimant, c.accused)
                tip = c.tips[i] if (revealed or fixed) else None
            players.append(
                PlayerView(
                    seat=i,
                    name=names[i],
                    hand=self.hand_size(i) if s.phase != OVER else 0,
                    won=tuple(CardView.of(cat.card(x)) for x in s.won[i]),
                    score=score(cat.card(x) for x in s.won[i]),
                    tip=tip,
                    tipped=tipped,
                )
            )
        claim_view = None
        if c is not None:
            need = sum(1 for i in range(len(names)) if i not in (c.claimant, c.accused))
            have = sum(
                1 for i, t in enumerate(c.tips) if t is not None and i not in (c.claimant, c.accused)
            )
            claim_view = ClaimView(
                claimant=c.claimant,
                accused=c.accused,
                tips_in=have,
                tips_of=need,
                row=self._row_view(c.row),
                evaluation=c.evaluation,
                takers=c.takers,
                taker=self.taker(),
                left=tuple(CardView.of(cat.card(x)) for x in c.left),
                taken=tuple((t, CardView.of(cat.card(x))) for t, x in c.taken),
            )
        hand = hand_unknown = own_tip = None
        if seat is not None:
            hand = tuple(CardView.of(cat.card(x)) for x in s.hands[seat])
            hand_unknown = s.unknown[seat]
            own_tip = c.tips[seat] if c is not None else None
        phase = s.phase if s.outcome is None else OVER
        top = None
        if s.pile is not None and s.pile:
            top = cat.card(s.pile[0]).back
        return FlipView(
            game=NAME,
            game_number=self._setup.game_number,
            names=names,
            phase=phase,
            to_move=None if phase == OVER else self.current_player(),
            outcome=s.outcome,
            verdict=s.verdict,
            seat=seat,
            variant=self.variant.describe(),
            limit=self.limit,
            turn=s.turn,
            scanned=self.scanned,
            pile=s.pile_left,
            pile_top=top,
            final=s.final,
            face=self.public_face(),
            row=self._row_view(s.row),
            players=tuple(players),
            claim=claim_view,
            out=len(s.out) + s.out_unknown - self._setup.boxed,
            boxed=self._setup.boxed,
            removed_rows=tuple(tuple(CardView.of(cat.card(x)) for x in r) for r in s.removed_rows),
            can_pass=self.can_pass(),
            last_play=None if s.last_play is None else s.last_play + 1,
            history=self._setup.history,
            hand=hand,
            hand_unknown=hand_unknown,
            own_tip=own_tip,
        )

    def _row_view(self, row: Sequence[RowCard]) -> tuple[RowView, ...]:
        cat = self.catalogue
        return tuple(
            RowView(i + 1, CardView.of(cat.card(r.card)) if r.up else None, r.up, r.by, r.flagged)
            for i, r in enumerate(row)
        )

    def __repr__(self) -> str:
        s = self._s
        return (
            f"<FlipGame game {self._setup.game_number} turn {s.turn} phase {s.phase} "
            f"to move {s.to_move} pile {s.pile_left} row {len(s.row)}"
            f"{' final' if s.final else ''}>"
        )

    # --- helpers -----------------------------------------------------------------------------


    def _name(self, seat: int) -> str:
        return self._setup.players[seat]


def _check_players(names: tuple[str, ...], cat: Catalogue) -> None:
    if any(not isinstance(p, str) or not p.strip() for p in names):
        raise ValueError(f"player names must be non-empty text: {names!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"player names must differ: {names!r}")
    cat.limit(len(names))  # raises for a count the game is not for

