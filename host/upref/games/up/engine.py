"""Up (the tower card game): the rules engine.

Every player holds 13 cards (docs/games/up.md): a hand, four face-up cards on the table, each on
one of four face-down cards. Players take turns adding cards to one shared tower: a card of the
value on top or lower keeps it standing, a higher one brings it down and the player takes the
whole tower into hand; "-2" cards lower the tower, a disposal card removes it from the game.
Whoever has no card left ends the round; the others score their remaining cards as minus points,
summed over an evening.

**Two ways to know the cards.** An engine built with `UpGame.new(..., observed=False)` shuffles
and deals itself (from a seed) and knows every card: random playouts, the bench, tests and the
demo's players use it. The referee's engine (`observed=True`) knows only what the table shows:
the cut card kept, the face-up cards tapped as they are dealt, every card played onto the tower
(a face-down card is tapped as it is turned over), the cards taken from a fallen tower; the
rest of each hand and every face-down card are *unseen* (a count per player). A card played
from a hand the referee has not seen is one of the unseen cards; the end of a round asks the
remaining players to tap what they still hold (the count), so no card is scored unseen.

Actions (frozen dataclasses; `format_action` / `parse_action` give a text form):

- `Cut(card)`: the cutter keeps `card` (a -2 or disposal card) or nothing (None); a dealt-by-
  the-engine round is then dealt at once;
- `DealUp(seat, card)`: a face-up card dealt to `seat`, in the deal's order (observed only);
- `Play(seat, source, cards)`: one or more cards of equal value from one source ("hand", "up"
  for face-up, "down" for a blind face-down card) onto the tower;
- `Join(seat, card)`: one more equal card from the same source added to the play just made
  (several equal cards are tapped one after the other): the play is judged again as a whole;
- `Call(seat)`: "last card" (U-6); `Pass(seat)`: nothing can start a tower (below);
- `DirtyOne(seat)`: the leader announces the dirty One for this round (U-9);
- `Reveal(seat, card)` / `Points(seat, points)`: the count at the end of an observed round (a
  remaining card tapped, or the points of the cards not tapped, typed in by hand).

Refusals name a ruling (`IllegalMoveError.rule`): "U-2" a -2 as a foundation, "U-4" blind
cards together, "U-9" the dirty One announced late or by another player, "U-10" a -2 kept at the
cut without -2, "U-12" face-up or face-down cards in a player's first turn, "U-14" face-down
cards while face-up ones remain, "U-15" mixed sources; or a short word: "turn" (not that
player's turn, or another player's card), "source" (the card is not where the play says),
"equal" (cards of different values together), "deck" (not a card of this game), "deal", "cut",
"count" (the bookkeeping does not add up), "join", "call", "pass", "over".

Decisions where the rules are silent (docs/games/up.md): the first dealer is the last player
named (so the first named leads round 1) unless the variant names one; a disposal card is played
alone (each disposal is a play of its own); a player who must lay a foundation but holds nothing
that may start a tower (only -2 cards, first turn with an empty hand) passes the foundation to
the next player, and when it has gone round the whole table without a card laid the round ends
with nobody out ("blocked"); a skipped turn still owed when a round ends is dropped; children's
card counting gives the finisher 0 and no bonus; `legal_actions()` lists one play per number of
equal cards (the lowest ids), while any other choice of equal cards is just as legal.

`current_player()` is the seat the table waits on: the cutter at the cut, the seat whose face-up
card is dealt next, the player to move (a `Call` is due from another seat meanwhile), the seat
being counted; `TERMINAL` once the round is scored.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from upref.games.base import (
    TERMINAL,
    ActionRule,
    IllegalMoveError,
    MatchGame,
    Outcome,
    StateField,
)
from upref.games.base import Termination as BaseTermination
from upref.games.up.actions import (
    DOWN,
    HAND,
    SOURCES,
    UP,
    Action,
    Call,
    Cut,
    DealUp,
    DirtyOne,
    Join,
    Pass,
    Play,
    Points,
    Reveal,
    action_key,
    format_action,
    parse_action,
)
from upref.games.up.cards import (
    DISPOSAL,
    MINUS2,
    NUMBER,
    Card,
    Catalogue,
    load_catalogue,
)
from upref.games.up.variant import SCORINGS, UP300, Variant, card_points
from upref.games.up.view import PlayerView, RoundScore, UpView
from upref.text import and_join, plural

__all__ = [
    "BONUS",
    "BONUS_BLIND_MINUS2",
    "DOWN",
    "EVENING_OVER",
    "HAND",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "SCORINGS",
    "SOURCES",
    "TITLE",
    "Termination",
    "UP",
    "UP300",
    "Action",
    "Call",
    "Cut",
    "DealUp",
    "DirtyOne",
    "Join",
    "Pass",
    "PlayerView",
    "Play",
    "Points",
    "Reveal",
    "RoundScore",
    "UpGame",
    "UpView",
    "Variant",
    "action_key",
    "card_points",
    "evening_result",
    "evening_winners",
    "format_action",
    "parse_action",
]

NAME = "up"
TITLE = "Up"
MIN_PLAYERS, MAX_PLAYERS = 2, 10
FACE_UP = FACE_DOWN = 4
BONUS = 10
BONUS_BLIND_MINUS2 = 80
_SOURCE_WORDS = {HAND: "from hand", UP: "from face-up", DOWN: "blind"}
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


class Termination(BaseTermination):
    """Why a round ended (`Outcome.termination`): a player went out, nobody could start a
    tower, the evening ended (Up300 passed, or its last round played), or it was stopped."""

    OUT = "out"
    BLOCKED = "blocked"
    UP300 = "up300"
    ROUNDS = "rounds"
    STOPPED = "stopped"


EVENING_OVER = (Termination.UP300, Termination.ROUNDS)
"""The terminations that end the evening, not only the round."""

# --- state ---------------------------------------------------------------------------------------


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
        return " ".join(s.text for s in self.said)


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
    U-11), "penalty" (a skip earned by a forgotten 'last card', U-11), "call" (the reminder that
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


class UpGame(MatchGame[Action, Variant, Catalogue]):
    """One round of Up, within an evening. Build it with `UpGame.new(...)` or, for a described
    position, `UpGame.position(...)`; `next_round()` gives the next round of the evening.

    Seats are 0..n-1 clockwise. Scores are minus points (lowest total wins the evening), or
    cards or tokens with children's scoring.
    """

    TITLE: ClassVar[str] = TITLE
    ACTIONS: ClassVar[Mapping[type, ActionRule]] = {
        Cut: ActionRule("_check_cut", "_take"),
        DealUp: ActionRule("_check_deal_up", "_take"),
        Reveal: ActionRule("_check_count", "_take"),
        Points: ActionRule("_check_count", "_take"),
        Play: ActionRule("_check_play", "_take"),
        Join: ActionRule("_check_join", "_take"),
        Call: ActionRule("_check_call", "_take"),
        Pass: ActionRule("_check_pass", "_take"),
        DirtyOne: ActionRule("_check_dirty_one", "_take"),
    }
    """Every action computes the state after it when it is checked (`_take` applies that)."""

    def __init__(self, setup: _Setup, core: _Core) -> None:
        super().__init__()
        self._setup = setup
        self._s = core
        self._cards = setup.catalogue
        self._checked: tuple[_Core, Action, _Core] | None = None

    # --- construction ---------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        *,
        rng: random.Random | int = 0,
        variant: Variant | None = None,
        catalogue: Catalogue | None = None,
        observed: bool = False,
    ) -> UpGame:
        """Round 1 of an evening: `players` clockwise. Dealt by the engine from `rng` (a
        `random.Random` or a seed), or, with `observed`, at the table (the engine then learns the
        cards as the table shows them).

        :raises ValueError: for 2 to 10 players missing, repeated names, sets the catalogue does
            not have or that do not give one set per player, an unknown first dealer.
        """
        variant = variant or Variant()
        catalogue = catalogue or load_catalogue()
        players = tuple(players)
        n = len(players)
        if not MIN_PLAYERS <= n <= min(MAX_PLAYERS, catalogue.max_players):
            raise ValueError(
                f"Up is for {MIN_PLAYERS} to {min(MAX_PLAYERS, catalogue.max_players)} players "
                f"(one set of 13 cards each), not {n}"
            )
        if any(not isinstance(p, str) or not p.strip() for p in players):
            raise ValueError(f"player names must be non-empty text: {players!r}")
        if len(set(players)) != n:
            raise ValueError(f"player names must differ: {players!r}")
        sets = variant.sets or catalogue.default_sets(n)
        if len(sets) != n:
            raise ValueError(f"one set per player: {n} players need {n} sets, not {sets!r}")
        deck = catalogue.deck(sets, minus2=not variant.without_minus2)
        if variant.first_dealer is None:
            dealer = n - 1
        elif variant.first_dealer in players:
            dealer = players.index(variant.first_dealer)
        else:
            raise ValueError(
                f"the first dealer {variant.first_dealer!r} is not one of the players "
                f"{and_join(list(players))}"
            )
        r = rng if isinstance(rng, random.Random) else random.Random(rng)
        rank = {c.id: i for i, c in enumerate(sorted(catalogue.cards, key=_card_order))}
        setup = _Setup(
            players, catalogue, variant, deck, observed, 1, 1, 1, dealer, (0,) * n, (), (),
            rank,
        )
        return cls._deal(setup, r)

    @classmethod
    def _deal(cls, setup: _Setup, rng: random.Random) -> UpGame:
        """A round about to be cut: the deck shuffled (by the engine) or with the dealer."""
        n = len(setup.players)
        stock: tuple[str, ...] = ()
        uncovered = None
        if not setup.observed:
            order = list(setup.deck)
            rng.shuffle(order)
            stock = tuple(order)
            uncovered = stock[rng.randrange(len(stock))]
        setup = replace(setup, rng_state=rng.getstate())
        dealer, cutter = setup.dealer, (setup.dealer - 1) % n
        leader = (dealer + 1) % n
        name = setup.players
        text = (
            f"Round {setup.round} ({setup.variant.describe()}): {name[dealer]} deals, "
            f"{name[cutter]} cuts (a -2 or disposal card uncovered may be kept"
        )
        if setup.variant.without_minus2:
            text = text.replace("a -2 or disposal card", "a disposal card (U-10)")
        text += f"). {name[leader]} leads."
        if setup.observed:
            text += f" Tap each face-up card as it is dealt, {name[leader]}'s first."
        core = _Core(
            phase="cut",
            stock=stock,
            uncovered=uncovered,
            stock_unseen=len(setup.deck) if setup.observed else 0,
            hands=((),) * n,
            hand_unseen=(0,) * n,
            ups=((),) * n,
            downs=((),) * n,
            down_unseen=(0,) * n,
            tower=(),
            threshold=None,
            removed=(),
            kept_by=None,
            dealt_up=0,
            to_move=cutter,
            founding=True,
            first_done=(False,) * n,
            started=False,
            dirty_round=False,
            call_due=None,
            called=False,
            skip=(False,) * n,
            passes=0,
            last=None,
            finisher=None,
            bonus=0,
            counting=None,
            typed=(None,) * n,
            turn=1,
            outcome=None,
            said=(Said("info", text),),
        )
        return cls(setup, core)

    def next_round(self) -> UpGame:
        """The next round of the evening (the dealer's left neighbour deals), with this round's
        scores carried; after the evening's last round (Up300, a set number of rounds) a new
        evening. Dealt by the engine from the evening's random generator, or observed."""
        st = self._setup
        n = len(st.players)
        rng = random.Random(0)  # state replaced at once: no seeding from the system
        rng.setstate(st.rng_state)
        out = self._s.outcome
        totals, table = st.totals, st.table
        if out is not None and out.termination in (Termination.OUT, Termination.BLOCKED):
            totals, table = out.scores, table + (self.round_score(),)
        evening, round_ = st.evening, st.round + 1
        if out is not None and out.termination in EVENING_OVER:
            evening, round_, totals, table = st.evening + 1, 1, (0,) * n, ()
        setup = replace(
            st,
            game_number=st.game_number + 1,
            round=round_,
            evening=evening,
            dealer=(st.dealer + 1) % n,
            totals=totals,
            table=table,
        )
        game = self._deal(setup, rng)
        if evening != st.evening:
            first = Said("info", f"A new evening (evening {evening}). {game._s.said[0].text}")
            game._s = _with(game._s, said=(first,))
        return game

    @classmethod
    def position(
        cls,
        players: Sequence[str],
        *,
        hands: Mapping[str, Sequence[str]] | None = None,
        up: Mapping[str, Sequence[str]] | None = None,
        down: Mapping[str, Sequence[str]] | None = None,
        tower: Sequence[str] = (),
        to_beat: int | None = None,
        to_move: str | None = None,
        founding: bool | None = None,
        first_turn: Iterable[str] = (),
        skip: Iterable[str] = (),
        call_due: str | None = None,
        dirty_round: bool = False,
        totals: Mapping[str, int] | None = None,
        table: Sequence[RoundScore] = (),
        round: int = 1,
        dealer: str | None = None,
        variant: Variant | None = None,
        catalogue: Catalogue | None = None,
    ) -> UpGame:
        """A round in play, described (the rulebook's worked examples, tests): each player's
        hand, face-up and face-down cards and the tower (bottom first), as card ids ('B7') or
        faces ('7', '-2', 'D' for a disposal card: the first free card of that face is taken).
        Cards placed nowhere count as removed by a disposal card. `to_beat` defaults to what the
        tower makes (its top number, less 2 for each -2 above it). Everyone has had a first turn
        except those in `first_turn`; `dirty_round`: the leader announced the dirty One. Dealt by
        the engine (every card known).

        :raises ValueError: for an unknown card or face, a card placed twice, a bad name.
        """
        game = cls.new(players, variant=variant, catalogue=catalogue)
        st = game._setup
        names = st.players
        n = len(names)
        free = list(st.deck)

        def take(token: str) -> str:
            if token in free:
                free.remove(token)
                return token
            face = "disposal" if token in ("D", "disposal") else token
            for cid in free:
                if st.catalogue.card(cid).face == face:
                    free.remove(cid)
                    return cid
            raise ValueError(f"no free card {token!r} in this game's deck")

        def seat(name: str) -> int:
            if name not in names:
                raise ValueError(f"{name!r} is not one of the players {and_join(list(names))}")
            return names.index(name)

        def per_seat(spec: Mapping[str, Sequence[str]] | None) -> list[tuple[str, ...]]:
            out: list[tuple[str, ...]] = [() for _ in range(n)]
            for name, cards in (spec or {}).items():
                out[seat(name)] = game._sorted(take(c) for c in cards)
            return out

        hs, us, ds = per_seat(hands), per_seat(up), per_seat(down)
        tw = tuple(take(c) for c in tower)
        if to_beat is None and tw:
            to_beat = 0
            for cid in tw:
                card = st.catalogue.card(cid)
                if card.kind == NUMBER:
                    to_beat = card.value
                elif card.kind == MINUS2:
                    to_beat -= 2
        mover = seat(to_move) if to_move is not None else 0
        firsts = {seat(p) for p in first_turn}
        dealer_seat = seat(dealer) if dealer is not None else (mover - 1) % n
        tot = [0] * n
        for name, t in (totals or {}).items():
            tot[seat(name)] = int(t)
        game._setup = replace(
            st, round=round, game_number=round, dealer=dealer_seat, totals=tuple(tot),
            table=tuple(table),
        )
        game._s = _with(
            game._s,
            phase="play",
            stock=(),
            uncovered=None,
            hands=tuple(hs),
            ups=tuple(us),
            downs=tuple(ds),
            tower=tw,
            threshold=to_beat if tw else None,
            removed=tuple(free),
            to_move=mover,
            founding=not tw if founding is None else founding,
            first_done=tuple(s not in firsts for s in range(n)),
            started=True,
            call_due=seat(call_due) if call_due is not None else None,
            dirty_round=dirty_round,
            skip=tuple(s in {seat(p) for p in skip} for s in range(n)),
            said=(Said("info", f"Round {round}: a position as described."),),
        )
        return game

    # --- read-only ------------------------------------------------------------------------------

    @property
    def deck(self) -> tuple[str, ...]:
        """The card ids in play this evening."""
        return self._setup.deck

    @property
    def observed(self) -> bool:
        return self._setup.observed

    @property
    def round(self) -> int:
        return self._setup.round

    @property
    def dealer(self) -> int:
        return self._setup.dealer

    @property
    def cutter(self) -> int:
        return (self._setup.dealer - 1) % self.num_players()

    @property
    def leader(self) -> int:
        return (self._setup.dealer + 1) % self.num_players()

    phase = StateField[str]("Where the round stands: cut, deal, play, count or over.")
    turn = StateField[int](
        "Counts the starts of turns (and of deal and count steps): the referee's undo points."
    )
    tower = StateField[tuple[str, ...]]("The tower's cards, bottom first.")
    threshold = StateField[int | None]("The highest value that keeps the tower standing (None: empty).")
    founding = StateField[bool]("Whether the player to move lays a foundation.")
    removed = StateField[tuple[str, ...]]("The cards out of the game (disposal).")
    counting = StateField[int | None]("Phase count: the seat tapping its remaining cards.")
    to_move = StateField[int]("The player to move.")
    finisher = StateField[int | None]("The seat that went out, once the round is over.")
    said = StateField[tuple[Said, ...]]("What the engine said about the last action, part by part.")
    verdict = StateField[str]("What the engine said about the last action, in one text.")

    @property
    def call_due(self) -> int | None:
        """The seat that owes "last card" and has not called it, else None."""
        s = self._s
        return None if s.called else s.call_due

    @property
    def totals(self) -> tuple[int, ...]:
        """The evening's totals before this round."""
        return self._setup.totals

    @property
    def table(self) -> tuple[RoundScore, ...]:
        """The evening's earlier rounds."""
        return self._setup.table

    @property
    def last_play(self) -> tuple[int, str, tuple[str, ...]] | None:
        """(seat, source, cards) of the play a `Join` may add to, else None."""
        last = self._s.last
        return None if last is None else (last.seat, last.source, last.cards)

    def hand(self, seat: int) -> tuple[str, ...]:
        """The seat's hand cards the engine knows (secret: not for public views)."""
        return self._s.hands[seat]

    def hand_unseen(self, seat: int) -> int:
        return self._s.hand_unseen[seat]

    def face_up(self, seat: int) -> tuple[str, ...]:
        return self._s.ups[seat]

    def face_down(self, seat: int) -> tuple[str, ...]:
        """The seat's face-down cards the engine knows (secret from everyone)."""
        return self._s.downs[seat]

    def down_unseen(self, seat: int) -> int:
        return self._s.down_unseen[seat]

    def holding(self, seat: int) -> int:
        """All the seat's cards: hand, face-up and face-down (U-6 counts them all)."""
        return _holding(self._s, seat)

    def unseen_cards(self) -> tuple[str, ...]:
        """Cards of the deck the engine does not know the place of (observed rounds)."""
        known = set(self._known(self._s))
        return tuple(c for c in self._setup.deck if c not in known)

    def card_count(self) -> int:
        """Every card accounted for: holdings, tower, removed, stock (conservation: always the
        deck's size)."""
        s = self._s
        held = sum(_holding(s, p) for p in range(self.num_players()))
        return held + len(s.tower) + len(s.removed) + len(s.stock) + s.stock_unseen

    def locate(self, card: str) -> tuple[str, int | None]:
        """Where the engine has `card`: ('hand'|'up'|'down', seat), ('tower'|'removed'|'stock',
        None), ('unseen', None) for a card of the deck it has not seen, ('out', None) for a card
        not in this game."""
        return self._locate(self._s, card)

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

    def first_turn(self, seat: int) -> bool:
        return not self._s.first_done[seat]

    def dirty(self) -> bool:
        """Whether 1s count 30 this round."""
        return self.variant.dirty_one or self._s.dirty_round

    def round_score(self) -> RoundScore:
        """This round's row of the evening's table (once scored).

        :raises ValueError: before the round is scored.
        """
        s = self._s
        if s.outcome is None or s.outcome.termination == Termination.STOPPED:
            raise ValueError("the round has not been scored")
        points = self._round_points(s)
        return RoundScore(
            self._setup.round,
            s.finisher,
            s.bonus,
            points,
            s.outcome.scores,
            tuple(t is not None for t in s.typed),
        )

    # --- GameState verbs ------------------------------------------------------------------------

    def current_player(self) -> int:
        s = self._s
        if s.outcome is not None:
            return TERMINAL
        if s.phase == "deal":
            nxt = self.deal_next()  # the table waits on this seat's face-up card
            assert nxt is not None
            return nxt
        if s.phase == "count":
            assert s.counting is not None
            return s.counting
        return s.to_move

    def outcome(self) -> Outcome | None:
        return self._s.outcome

    def legal_actions(self) -> list[Action]:
        s = self._s
        if s.outcome is not None:
            return []
        acts: list[Action] = []
        if s.phase == "cut":
            acts.append(Cut(None))
            if s.uncovered is not None and self._keepable(s.uncovered):
                acts.append(Cut(s.uncovered))
            if self.observed:
                acts.extend(Cut(c) for c in self.unseen_cards() if self._keepable(c))
        elif s.phase == "deal":
            nxt = self.deal_next()
            assert nxt is not None
            acts.extend(DealUp(nxt, c) for c in self.unseen_cards())
        elif s.phase == "count":
            assert s.counting is not None
            acts.extend(Reveal(s.counting, c) for c in self.unseen_cards())
        else:
            acts.extend(self._plays(s))
        acts = [a for a in acts if self.is_legal(a)] if self.observed else acts
        return sorted(set(acts), key=action_key)

    def _plays(self, s: _Core) -> list[Action]:
        seat = s.to_move
        out: list[Action] = []
        if s.call_due is not None and not s.called:
            out.append(Call(s.call_due))
        if self._dirty_allowed(s, seat):
            out.append(DirtyOne(seat))
        sources = [HAND] + ([UP] if s.first_done[seat] else [])
        plays: list[Action] = []
        for src in sources:
            groups: dict[tuple[str, int], list[str]] = {}
            for cid in s.hands[seat] if src == HAND else s.ups[seat]:
                card = self._cards.card(cid)
                groups.setdefault((card.kind, card.value), []).append(cid)
            for (kind, _v), ids in groups.items():
                if kind == DISPOSAL:
                    plays.append(Play(seat, src, (ids[0],)))
                elif kind == NUMBER or not s.founding:
                    plays.extend(Play(seat, src, tuple(ids[:k])) for k in range(1, len(ids) + 1))
        if self.may_play_blind(seat):
            plays.extend(Play(seat, DOWN, (c,)) for c in s.downs[seat])
        if self.observed:
            unseen = self.unseen_cards()
            if s.hand_unseen[seat]:
                plays.extend(Play(seat, HAND, (c,)) for c in unseen)
            if self.may_play_blind(seat) and s.down_unseen[seat]:
                plays.extend(Play(seat, DOWN, (c,)) for c in unseen)
        out.extend(plays)
        if self.observed:
            plays = [p for p in plays if self.is_legal(p)]
        if s.founding and not plays:
            out.append(Pass(seat))
        return out

    def _applicable(self, action: Action) -> bool:
        # legal_actions() lists one choice among equal cards: any other is as good
        return self.is_legal(action)

    def _over_text(self, outcome: Outcome) -> str:
        return f"Round {self._setup.round} is over: start the next round (key n)."

    def _take(self, action: Action) -> str:
        """Apply a checked action: the state `check` just computed for this very state and
        action (states are immutable), or, when there is none, the state `check` computes."""
        cached = self._checked
        if cached is None or cached[0] is not self._s or cached[1] != action:
            self.check(action)
            cached = self._checked
            assert cached is not None
        self._checked = None
        self._s = cached[2]
        return self._s.verdict

    def clone(self) -> UpGame:
        twin = UpGame(self._setup, self._s)
        twin._undo_stack = list(self._undo_stack)
        return twin

    def _snapshot(self) -> object:
        return self._s

    def _restore(self, snapshot: object) -> None:
        assert isinstance(snapshot, _Core)
        self._s = snapshot

    # --- the rules: one action at a time ------------------------------------------------------------

    def _checked_as(self, a: Action, core: _Core) -> None:
        """Remember the state after `a`, for `_take` (a check computes it)."""
        self._checked = (self._s, a, core)

    def _check_cut(self, a: Cut) -> None:
        self._checked_as(a, self._cut(self._s, a))

    def _check_deal_up(self, a: DealUp) -> None:
        self._checked_as(a, self._deal_up(self._s, a))

    def _check_count(self, a: Reveal | Points) -> None:
        self._checked_as(a, self._count(self._s, a))

    def _check_play(self, a: Play) -> None:
        self._in_play(a)
        self._checked_as(a, self._play(self._s, a))

    def _check_join(self, a: Join) -> None:
        self._in_play(a)
        self._checked_as(a, self._join(self._s, a))

    def _check_call(self, a: Call) -> None:
        self._in_play(a)
        self._checked_as(a, self._call(self._s, a))

    def _check_pass(self, a: Pass) -> None:
        self._in_play(a)
        self._checked_as(a, self._pass(self._s, a))

    def _check_dirty_one(self, a: DirtyOne) -> None:
        self._in_play(a)
        self._checked_as(a, self._dirty_one(self._s, a))

    def _in_play(self, a: Action) -> None:
        """:raises IllegalMoveError: ("deal" or "count") for a card played during the cut, the
        deal or the count."""
        s = self._s
        if s.phase != "play":
            what = {"cut": "the cut", "deal": "the deal", "count": "the count"}.get(s.phase, s.phase)
            raise IllegalMoveError(
                "deal" if s.phase in ("cut", "deal") else "count",
                f"No card is played during {what}: {self._waiting_words(s)}",
                None,
                a,
            )

    # the cut and the deal -----------------------------------------------------------------------

    def _keepable(self, cid: str) -> bool:
        card = self._cards.get(cid)
        if card is None or cid not in self._setup.deck:
            return False
        return card.kind == DISPOSAL or (card.kind == MINUS2 and not self.variant.without_minus2)

    def _cut(self, s: _Core, a: Cut) -> _Core:
        names = self._setup.players
        cutter = self.cutter
        if s.phase != "cut":
            raise IllegalMoveError("cut", "The cut is over: the cards are dealt.", None, a)
        said: list[Said] = []
        hands = list(s.hands)
        kept_by = None
        if a.card is not None:
            card = self._cards.get(a.card)
            if card is not None and card.kind == MINUS2 and self.variant.without_minus2:
                raise IllegalMoveError(
                    "U-10",
                    "Without -2 only a disposal card may be kept at the cut, and this game has "
                    "no -2 cards.",
                    "Put the -2 card back in the box.",
                    a,
                )
            self._in_deck(a.card, a)
            assert card is not None
            if not self._keepable(a.card):
                keep = "a disposal card (U-10)" if self.variant.without_minus2 else "a -2 or a disposal card"
                raise IllegalMoveError(
                    "cut",
                    f"Only {keep} may be kept at the cut, not a {card.face}.",
                    f"{names[cutter]}: put the {card.face} back into the deck.",
                    a,
                )
            if not self.observed and a.card != s.uncovered:
                raise IllegalMoveError(
                    "cut", "That is not the card the cut uncovered.", None, a
                )
            if self._locate(s, a.card)[0] not in ("unseen", "stock"):
                raise IllegalMoveError("count", "That card is already in play.", None, a)
            hands[cutter] = self._sorted((*hands[cutter], a.card))
            kept_by = cutter
            said.append(Said("play", f"{names[cutter]} keeps the cut {card.face} card (one hand card fewer)."))
        else:
            said.append(Said("play", f"{names[cutter]} keeps no card from the cut."))
        if self.observed:
            return _with(
                s,
                phase="deal",
                hands=tuple(hands),
                kept_by=kept_by,
                stock_unseen=s.stock_unseen - (1 if kept_by is not None else 0),
                turn=s.turn + 1,
                said=tuple(said),
                to_move=self.leader,
            )
        # dealt by the engine: the whole deal at once
        n = self.num_players()
        order = [(self.leader + i) % n for i in range(n)]
        stock = [c for c in s.stock if c != a.card]
        downs: list[list[str]] = [[] for _ in range(n)]
        ups: list[list[str]] = [[] for _ in range(n)]
        hs: list[list[str]] = [list(h) for h in hands]
        i = 0
        for pile in (downs, ups):
            for _ in range(FACE_DOWN):
                for p in order:
                    pile[p].append(stock[i])
                    i += 1
        for r in range(self.variant.hand):
            for p in order:
                if p == kept_by and r == self.variant.hand - 1:
                    continue
                hs[p].append(stock[i])
                i += 1
        assert i == len(stock)
        said.append(Said("info", self._lead_words()))
        return _with(
            s,
            phase="play",
            stock=(),
            uncovered=None,
            hands=tuple(self._sorted(h) for h in hs),
            ups=tuple(self._sorted(u) for u in ups),
            downs=tuple(self._sorted(d) for d in downs),
            kept_by=kept_by,
            to_move=self.leader,
            founding=True,
            turn=s.turn + 1,
            said=tuple(said),
        )

    def _lead_words(self) -> str:
        return (
            f"The deal is done. {self._setup.players[self.leader]} leads: lay the first tower "
            "from your hand."
        )

    def _deal_up(self, s: _Core, a: DealUp) -> _Core:
        names = self._setup.players
        if not self.observed:
            raise IllegalMoveError("deal", "This round is dealt by the engine.", None, a)
        if s.phase == "cut":
            raise IllegalMoveError(
                "deal", "The cut comes first: keep a cut card or none.", None, a
            )
        if s.phase != "deal":
            raise IllegalMoveError("deal", "The deal is over: the round is on.", None, a)
        nxt = self.deal_next()
        assert nxt is not None
        if a.seat != nxt:
            raise IllegalMoveError(
                "deal",
                f"The next face-up card goes to {names[nxt]}, not to {self._who(a.seat)}.",
                None,
                a,
            )
        self._in_deck(a.card, a)
        where, seat = self._locate(s, a.card)
        if where != "unseen":
            raise IllegalMoveError(
                "deal", f"That card is already dealt ({self._place_words(where, seat)}).", None, a
            )
        ups = list(s.ups)
        ups[nxt] = (*ups[nxt], a.card)
        face = self._cards.card(a.card).face
        n = self.num_players()
        dealt = s.dealt_up + 1
        k = (dealt - 1) // n + 1
        text = f"{names[nxt]}'s face-up card {k} of {FACE_UP}: {face}."
        core = _with(
            s,
            ups=tuple(ups),
            dealt_up=dealt,
            stock_unseen=s.stock_unseen - 1,
            turn=s.turn + 1,
            said=(Said("play", text),),
        )
        if dealt < FACE_UP * n:
            return core
        hand = self.variant.hand
        hand_unseen = tuple(
            hand - (1 if p == s.kept_by else 0) for p in range(n)
        )
        rest = core.stock_unseen - sum(hand_unseen) - FACE_DOWN * n
        assert rest == 0, rest
        return _with(
            core,
            phase="play",
            hand_unseen=hand_unseen,
            down_unseen=(FACE_DOWN,) * n,
            stock_unseen=0,
            to_move=self.leader,
            founding=True,
            said=(*core.said, Said("info", self._lead_words())),
        )

    # playing ------------------------------------------------------------------------------------

    def _dirty_allowed(self, s: _Core, seat: int) -> bool:
        return (
            s.phase == "play"
            and not s.started
            and not s.dirty_round
            and not self.variant.dirty_one
            and self.variant.scoring == "points"
            and seat == self.leader
        )

    def _dirty_one(self, s: _Core, a: DirtyOne) -> _Core:
        names = self._setup.players
        if self.variant.dirty_one:
            raise IllegalMoveError(
                "U-9", "The dirty One is on for the whole evening already.", None, a
            )
        if self.variant.scoring != "points":
            raise IllegalMoveError(
                "U-9", "The dirty One changes points: not with children's scoring.", None, a
            )
        if s.dirty_round:
            raise IllegalMoveError("U-9", "The dirty One is announced already.", None, a)
        if a.seat != self.leader:
            raise IllegalMoveError(
                "U-9",
                f"Only {names[self.leader]}, who leads this round, may announce the dirty One.",
                None,
                a,
            )
        if s.started:
            raise IllegalMoveError(
                "U-9",
                "The dirty One must be announced before the round's first card is played.",
                None,
                a,
            )
        text = f"{names[a.seat]}: this round we play with the dirty One: every 1 counts 30 (U-9)."
        return _with(s, dirty_round=True, said=(Said("info", text, "U-9"),))

    def _call(self, s: _Core, a: Call) -> _Core:
        names = self._setup.players
        if s.call_due != a.seat or s.called:
            raise IllegalMoveError(
                "call", f"No 'last card' call is due from {self._who(a.seat)} now.", None, a
            )
        text = f"{names[a.seat]} calls 'last card' (U-6)."
        return _with(s, called=True, said=(Said("play", text, "U-6"),))

    def _pass(self, s: _Core, a: Pass) -> _Core:
        names = self._setup.players
        seat = a.seat
        self._check_turn(s, seat, a)
        if not s.founding:
            raise IllegalMoveError(
                "pass",
                "A tower is standing: every card may be played on it (a higher one brings it "
                "down).",
                None,
                a,
            )
        hand_ok = [c for c in s.hands[seat] if self._cards.card(c).kind != MINUS2]
        up_ok = [c for c in s.ups[seat] if self._cards.card(c).kind != MINUS2] if s.first_done[seat] else []
        if hand_ok or up_ok:
            where = "hand" if hand_ok else "face-up cards"
            raise IllegalMoveError(
                "pass",
                f"{names[seat]} can start a tower with a card from the {where}.",
                None,
                a,
            )
        if self.may_play_blind(seat):
            raise IllegalMoveError(
                "pass",
                f"{names[seat]} can turn a face-down card as the foundation.",
                None,
                a,
            )
        said = self._penalty(s, seat)
        if s.hand_unseen[seat]:
            why = (
                f" (the referee cannot see {names[seat]}'s hand: it takes {names[seat]}'s word)"
            )
        elif not s.first_done[seat] and not s.hands[seat]:
            why = ": an empty hand in the first turn (U-12)"
        else:
            why = ": only -2 cards"
        said.append(Said("play", f"{names[seat]} cannot start a tower{why}.", "pass"))
        passes = s.passes + 1
        first_done = _set(s.first_done, seat, True)
        if passes >= self.num_players():
            core = _with(
                s, first_done=first_done, passes=passes, call_due=None, called=False, last=None
            )
            said.append(
                Said(
                    "end",
                    "Nobody can start a tower: round "
                    f"{self._setup.round} ends with nobody out (blocked).",
                    "pass",
                )
            )
            return self._end_round(_with(core, said=tuple(said)), None, 0)
        skip = list(s.skip)
        for p in self._skipped_by(s, seat):
            skip[p] = True
        nxt, skip2, notes = self._next_seat(seat, tuple(skip))
        said.extend(notes)
        said.append(Said("play", f"{names[nxt]} lays the foundation.", "pass"))
        return _with(
            s,
            to_move=nxt,
            founding=True,
            first_done=first_done,
            skip=skip2,
            passes=passes,
            call_due=s.call_due if s.call_due == seat else None,
            called=s.called if s.call_due == seat else False,
            last=None,
            turn=s.turn + 1,
            said=tuple(said),
        )

    def _join(self, s: _Core, a: Join) -> _Core:
        names = self._setup.players
        last = s.last
        if last is None or last.seat != a.seat:
            who = self._who(a.seat)
            raise IllegalMoveError(
                "join",
                f"There is no play of {who}'s to add a card to now: several equal cards are "
                "added right after the first, before anyone else plays.",
                f"{who}: take the card back.",
                a,
            )
        if last.source == DOWN:
            raise IllegalMoveError(
                "U-4",
                "Blind cards are played one at a time: no card joins a face-down card.",
                f"{names[a.seat]}: take the card back.",
                a,
            )
        if a.card in last.cards:
            raise IllegalMoveError("join", "That card is part of the play already.", None, a)
        base = last.base
        self._in_deck(a.card, a)
        where, owner = self._locate(base, a.card)
        source = where if where in (HAND, UP, DOWN) and owner == a.seat else HAND if where == "unseen" else None
        if source is not None and source != last.source:
            raise IllegalMoveError(
                "U-15",
                f"Cards played together come from one source: this card is {_SOURCE_WORDS[source]}, "
                f"the play {_SOURCE_WORDS[last.source]}.",
                f"{names[a.seat]}: take the card back.",
                a,
            )
        core = self._play(base, Play(a.seat, last.source, (*last.cards, a.card)))
        # the skip the play earned a forgetful player, and the skipped turns as the turn passed,
        # were said with the play already (a joined card changes neither)
        repeat = {"penalty"} if s.founding else {"penalty", "skip"}
        said = [x for x in core.said if x.kind not in repeat]
        for i, x in enumerate(said):
            if x.kind == "play":
                said[i] = replace(x, text=f"{names[a.seat]} adds a card to the play: {x.text}")
                break
        return _with(core, said=tuple(said))

    def _play(self, s: _Core, a: Play) -> _Core:
        names = self._setup.players
        seat = a.seat
        name = self._who(seat)
        self._check_turn(s, seat, a)
        if a.source not in SOURCES:
            raise IllegalMoveError("source", f"No source {a.source!r} (hand, up, down).", None, a)
        if not a.cards or len(set(a.cards)) != len(a.cards):
            raise IllegalMoveError("source", "A play is one or more different cards.", None, a)
        for cid in a.cards:
            self._in_deck(cid, a)
        cards = [self._cards.card(c) for c in a.cards]
        back = f"{name}: take the card{'s' if len(cards) > 1 else ''} back"
        # equal value (U-15 is about the source; different values are simply not allowed)
        kinds = {c.kind for c in cards}
        if len(kinds) > 1 or (NUMBER in kinds and len({c.value for c in cards}) > 1):
            raise IllegalMoveError(
                "equal",
                "Cards played together must have the same value: "
                f"{and_join([c.face for c in cards])} do not.",
                back + ".",
                a,
            )
        kind = cards[0].kind
        if kind == DISPOSAL and len(cards) > 1:
            raise IllegalMoveError(
                "equal", "A disposal card is played on its own.", back + ".", a
            )
        # the source
        first = not s.first_done[seat]
        if first and a.source != HAND:
            raise IllegalMoveError(
                "U-12",
                f"In {name}'s first turn of the round every card comes from the hand, also a "
                f"new foundation: no {'face-up' if a.source == UP else 'face-down'} card yet.",
                _back_to(name, a.source),
                a,
            )
        if a.source == DOWN:
            if len(cards) > 1:
                raise IllegalMoveError(
                    "U-4", "Blind cards are played one at a time.", _back_to(name, DOWN), a
                )
            if s.ups[seat]:
                raise IllegalMoveError(
                    "U-14",
                    f"Face-down cards come only once all four face-up cards are played: {name} "
                    f"still has {len(s.ups[seat])} face up.",
                    _back_to(name, DOWN),
                    a,
                )
        self._check_source(s, seat, a, back)
        if kind == MINUS2 and s.founding and a.source != DOWN:
            raise IllegalMoveError(
                "U-2",
                "A -2 cannot start a tower: it needs a number to lower. Lay a number card (or a "
                "disposal card).",
                _back_to(name, a.source, len(cards)),
                a,
            )
        # --- it is legal: apply ---
        before = _holding(s, seat)
        said = self._penalty(s, seat)
        skip = list(s.skip)
        for p in self._skipped_by(s, seat):
            skip[p] = True
        hands, hand_unseen = list(s.hands), list(s.hand_unseen)
        ups, downs, down_unseen = list(s.ups), list(s.downs), list(s.down_unseen)
        if a.source == HAND:
            known = [c for c in a.cards if c in s.hands[seat]]
            hands[seat] = tuple(c for c in s.hands[seat] if c not in a.cards)
            hand_unseen[seat] -= len(a.cards) - len(known)
        elif a.source == UP:
            ups[seat] = tuple(c for c in s.ups[seat] if c not in a.cards)
        elif a.cards[0] in s.downs[seat]:
            downs[seat] = tuple(c for c in s.downs[seat] if c != a.cards[0])
        else:
            down_unseen[seat] -= 1
        tower, threshold, removed = s.tower, s.threshold, s.removed
        founding = False
        k = len(cards)
        face = cards[0].face
        what = _count_face(k, cards[0])
        src = _SOURCE_WORDS[a.source]
        blind = a.source == DOWN
        lead = (
            f"{names[seat]} turns a face-down card{' as the foundation' if s.founding else ''}: "
            f"{'the disposal card' if kind == DISPOSAL else face}."
            if blind
            else f"{names[seat]} plays {what} {src}"
            + (" as the foundation" if s.founding and kind == NUMBER else "")
            + "."
        )
        texts = [lead]
        rule: str | None = None
        collapse = False
        u16 = False
        if blind and kind == MINUS2 and before == 1 and (s.founding or (s.threshold or 0) - 2 < 1):
            # U-16: the very last card is a face-down -2 that cannot be played here: played anyway
            tower = (*tower, *a.cards)
            texts.append(
                f"It cannot be played here, but it was {names[seat]}'s very last card: it counts "
                "as played (U-16)."
            )
            rule, u16 = "U-16", True
        elif kind == DISPOSAL:
            if tower:
                texts.append(
                    f"Disposal: the tower is out of the game ({len(tower) + 1} cards); "
                    f"{names[seat]} starts again."
                )
            else:
                texts.append(
                    "Disposal on an empty tower: only the disposal card leaves the game; "
                    f"{names[seat]} starts again" + (" (U-5)." if blind else ".")
                )
                rule = "U-5" if blind else None
            removed = (*removed, *tower, *a.cards)
            tower, threshold, founding = (), None, True
        elif kind == MINUS2 and s.founding:
            # a blind -2 turned as a foundation goes into the hand (U-2)
            hands[seat] = self._sorted((*hands[seat], *a.cards))
            texts.append(
                f"A -2 cannot start a tower (U-2): {names[seat]} takes it into hand and lays "
                "another card."
            )
            rule, founding = "U-2", True
        elif kind == MINUS2:
            assert s.threshold is not None
            t = s.threshold - 2 * k
            words = f"{what.capitalize()} on {s.threshold} make{'s' if k == 1 else ''} {t}"
            if t < 1:
                texts.append(f"{words}, below 1 (U-1): the tower falls.")
                rule, collapse = "U-1", True
            else:
                texts.append(f"{words}: the tower stands at {t}, {t} or lower to play.")
                tower, threshold = (*tower, *a.cards), t
                rule = "U-1" if k > 1 else None
        else:
            v = cards[0].value
            if s.founding:
                tower, threshold = tuple(a.cards), v
                texts.append(f"{v} or lower to play.")
            elif s.threshold is not None and v <= s.threshold:
                tower, threshold = (*tower, *a.cards), v
                texts.append(f"{v} on {s.threshold}: {v} or lower to play.")
            else:
                texts.append(f"{v} on {s.threshold} is higher, so the tower falls.")
                collapse = True
        if collapse:
            taken = (*tower, *a.cards)
            hands[seat] = self._sorted((*hands[seat], *taken))
            texts.append(
                f"{names[seat]} takes {len(taken)} cards and lays a new foundation; the next "
                "player plays on it (U-13)."
            )
            rule = rule or "U-13"
            tower, threshold, founding = (), None, True
        core = _with(
            s,
            hands=tuple(hands),
            hand_unseen=tuple(hand_unseen),
            ups=tuple(ups),
            downs=tuple(downs),
            down_unseen=tuple(down_unseen),
            tower=tower,
            threshold=threshold,
            removed=removed,
            skip=tuple(skip),
            started=True,
            passes=0,
            call_due=s.call_due if s.call_due == seat else None,
            called=s.called if s.call_due == seat else False,
        )
        after = _holding(core, seat)
        said.append(Said("play", " ".join(texts), rule))
        if u16 or after == 0:
            blind_minus2 = blind and kind == MINUS2
            end = f"{names[seat]} has played every card: round {self._setup.round} is over"
            if blind_minus2:
                end += f", with the finisher's bonus of {BONUS_BLIND_MINUS2} for a face-down -2 (U-17)."
            else:
                end += "."
            said.append(Said("end", end, "U-17" if blind_minus2 else None))
            return self._end_round(
                _with(core, said=tuple(said)),
                seat,
                BONUS_BLIND_MINUS2 if blind_minus2 else BONUS,
            )
        # a Join may add to this play (and is refused when it may not: U-4, a disposal card)
        last = _Last(seat, a.source, tuple(a.cards), _with(s, last=None))
        call_due, called = core.call_due, core.called
        reminder: list[Said] = []
        if after == 1:
            call_due, called = seat, False
            reminder.append(
                Said(
                    "call",
                    f"{names[seat]} has one card left: 'last card' is due, before the next "
                    "player's card (U-6).",
                    "U-6",
                )
            )
        elif call_due == seat:
            call_due, called = None, False
        if founding:
            return _with(
                core, founding=True, to_move=seat, last=last, call_due=call_due, called=called,
                said=(*said, *reminder),
            )
        nxt, skip2, notes = self._next_seat(seat, core.skip)
        if notes:
            said.extend(notes)
        else:
            said[-1] = replace(said[-1], text=f"{said[-1].text} {names[nxt]}'s turn.")
        said.extend(reminder)
        return _with(
            core,
            founding=False,
            to_move=nxt,
            skip=skip2,
            first_done=_set(core.first_done, seat, True),
            last=last,
            call_due=call_due,
            called=called,
            turn=core.turn + 1,
            said=tuple(said),
        )

    def _check_turn(self, s: _Core, seat: int, a: Action) -> None:
        if not (isinstance(seat, int) and 0 <= seat < self.num_players()):
            raise IllegalMoveError("turn", f"There is no seat {seat!r}.", None, a)
        if seat != s.to_move:
            names = self._setup.players
            what = "lay the foundation" if s.founding else "play"
            raise IllegalMoveError(
                "turn",
                f"It is {names[s.to_move]}'s turn to {what}, not {names[seat]}'s.",
                f"{names[seat]}: take the card back.",
                a,
            )

    def _check_source(self, s: _Core, seat: int, a: Play, back: str) -> None:
        """Each card is where the play says (known there, or unseen with room for it)."""
        name = self._who(seat)
        unseen_needed = 0
        for cid in a.cards:
            where, owner = self._locate(s, cid)
            if where == a.source and owner == seat:
                continue
            if where == "unseen" and a.source in (HAND, DOWN):
                unseen_needed += 1
                continue
            face = self._cards.card(cid).face
            if where in (HAND, UP, DOWN) and owner == seat:
                raise IllegalMoveError(
                    "U-15" if len(a.cards) > 1 else "source",
                    f"That {face} is {_PLACE[where]} of {name}'s, not {_PLACE_OF[a.source]}."
                    + (" Cards played together come from one source." if len(a.cards) > 1 else ""),
                    back + ".",
                    a,
                )
            if where == UP:
                assert owner is not None
                raise IllegalMoveError(
                    "turn",
                    f"That {face} is one of {self._who(owner)}'s face-up cards, not {name}'s.",
                    f"Put the {face} back among {self._who(owner)}'s face-up cards.",
                    a,
                )
            if where in ("tower", "removed"):
                on = "on the tower" if where == "tower" else "out of the game (disposal)"
                raise IllegalMoveError(
                    "count",
                    f"That {face} is {on} by the referee's count.",
                    None if where == "tower" else "Put it back with the cards out of the game.",
                    a,
                )
            if a.source == UP:
                raise IllegalMoveError(
                    "source", f"That {face} is not one of {name}'s face-up cards.", back + ".", a
                )
            raise IllegalMoveError(
                "count",
                f"That {face} cannot come from {name}'s "
                f"{'hand' if a.source == HAND else 'face-down cards'}: the referee has it "
                "elsewhere.",
                back + ".",
                a,
            )
        if unseen_needed:
            room = s.hand_unseen[seat] if a.source == HAND else s.down_unseen[seat]
            if unseen_needed > room:
                have = (
                    f"{name} has no {'hand' if a.source == HAND else 'face-down'} cards left"
                    if not (room or (s.hands[seat] if a.source == HAND else s.downs[seat]))
                    else f"{name} holds only {room} {'hand' if a.source == HAND else 'face-down'} "
                    f"{plural(room, 'card')} the referee has not seen"
                )
                raise IllegalMoveError(
                    "count" if room else "source",
                    f"{have}: that play does not add up.",
                    back + ".",
                    a,
                )

    def _penalty(self, s: _Core, seat: int) -> list[Said]:
        """A 'last card' call owed by another player and not made before this play: that
        player's next turn is skipped (U-11)."""
        p = self._skipped_by_one(s, seat)
        if p is None:
            return []
        names = self._setup.players
        return [
            Said(
                "penalty",
                f"{names[p]} did not call 'last card' before {names[seat]}'s card: {names[p]}'s "
                "next turn is skipped (U-11).",
                "U-11",
            )
        ]

    def _skipped_by_one(self, s: _Core, seat: int) -> int | None:
        if s.call_due is not None and s.call_due != seat and not s.called:
            return s.call_due
        return None

    def _skipped_by(self, s: _Core, seat: int) -> list[int]:
        p = self._skipped_by_one(s, seat)
        return [] if p is None else [p]

    def _next_seat(
        self, seat: int, skip: tuple[bool, ...]
    ) -> tuple[int, tuple[bool, ...], list[Said]]:
        """The next player clockwise after `seat`, passing over (and clearing) skipped turns."""
        names = self._setup.players
        n = self.num_players()
        sk = list(skip)
        nxt = (seat + 1) % n
        skipped: list[str] = []
        for _ in range(n + 1):
            if not sk[nxt]:
                break
            sk[nxt] = False
            skipped.append(names[nxt])
            nxt = (nxt + 1) % n
        if not skipped:
            return nxt, tuple(sk), []
        verb = "turn is" if len(skipped) == 1 else "turns are"
        text = f"{and_join(skipped)}'s {verb} skipped (U-11): {names[nxt]}'s turn."
        return nxt, tuple(sk), [Said("skip", text, "U-11")]

    # the end of a round ---------------------------------------------------------------------------

    def _end_round(self, s: _Core, finisher: int | None, bonus: int) -> _Core:
        """The round ends: score it, or (observed, points) count the unseen cards first."""
        core = _with(
            s,
            finisher=finisher,
            bonus=bonus if self.variant.scoring == "points" else 0,
            call_due=None,
            called=False,
            skip=(False,) * self.num_players(),
            last=None,
            founding=False,
            turn=s.turn + 1,
        )
        nxt = self._next_to_count(core, finisher)
        if nxt is None:
            return self._score(core)
        names = self._setup.players
        said = (
            *core.said,
            Said(
                "info",
                "The count: each player still holding cards taps them (hand and face-down; the "
                f"face-up ones are known). {names[nxt]} first: "
                f"{_unseen(core, nxt)} {plural(_unseen(core, nxt), 'card')} not seen yet.",
            ),
        )
        return _with(core, phase="count", counting=nxt, to_move=nxt, said=said)

    def _next_to_count(self, s: _Core, after: int | None) -> int | None:
        """The next seat clockwise (from `after`'s left) whose cards are not all seen."""
        if self.variant.scoring != "points":
            return None  # children count cards or tokens: the counts are known
        n = self.num_players()
        start = ((after if after is not None else self._setup.dealer) + 1) % n
        for i in range(n):
            p = (start + i) % n
            if _unseen(s, p) and s.typed[p] is None:
                return p
        return None

    def _count(self, s: _Core, a: Reveal | Points) -> _Core:
        names = self._setup.players
        if s.phase != "count":
            raise IllegalMoveError(
                "count", f"There is no count now: {self._waiting_words(s)}", None, a
            )
        seat = a.seat
        if seat != s.counting:
            assert s.counting is not None
            raise IllegalMoveError(
                "count",
                f"{names[s.counting]}'s cards are being counted, not {self._who(seat)}'s.",
                None,
                a,
            )
        if isinstance(a, Points):
            if isinstance(a.points, bool) or not isinstance(a.points, int) or a.points < 0:
                raise IllegalMoveError(
                    "count", f"Points are a whole number, 0 or more, not {a.points!r}.", None, a
                )
            typed = _set(s.typed, seat, a.points)
            n_unseen = _unseen(s, seat)
            said: list[Said] = [
                Said(
                    "info",
                    f"{names[seat]}'s {n_unseen} untapped {plural(n_unseen, 'card')}: "
                    f"{a.points} {plural(a.points, 'point')}, counted by hand (the referee cannot "
                    "check them).",
                    "count",
                )
            ]
            core = _with(s, typed=typed)
        else:
            self._in_deck(a.card, a)
            where, owner = self._locate(s, a.card)
            card = self._cards.card(a.card)
            if where != "unseen":
                if owner == seat:
                    raise IllegalMoveError(
                        "count", f"That {card.face} of {names[seat]}'s is counted already.", None, a
                    )
                raise IllegalMoveError(
                    "count",
                    f"That {card.face} cannot be {names[seat]}'s: the referee has it "
                    f"{self._place_words(where, owner)}.",
                    None,
                    a,
                )
            hands, hand_unseen = list(s.hands), list(s.hand_unseen)
            downs, down_unseen = list(s.downs), list(s.down_unseen)
            if hand_unseen[seat]:
                hand_unseen[seat] -= 1
                hands[seat] = self._sorted((*hands[seat], a.card))
            else:
                down_unseen[seat] -= 1
                downs[seat] = self._sorted((*downs[seat], a.card))
            core = _with(
                s,
                hands=tuple(hands),
                hand_unseen=tuple(hand_unseen),
                downs=tuple(downs),
                down_unseen=tuple(down_unseen),
            )
            left = _unseen(core, seat)
            said = [
                Said(
                    "play",
                    f"{names[seat]}: {card.face} ({card_points(card, self.dirty())}), "
                    f"{left} still to tap.",
                )
            ]
        if _unseen(core, seat) and core.typed[seat] is None:
            return _with(core, said=tuple(said))
        nxt = self._next_to_count(core, seat)
        core = _with(core, turn=core.turn + 1)
        if nxt is None:
            return self._score(_with(core, said=tuple(said)))
        said.append(
            Said(
                "info",
                f"{names[nxt]}'s turn to tap: {_unseen(core, nxt)} "
                f"{plural(_unseen(core, nxt), 'card')} not seen yet.",
            )
        )
        return _with(core, counting=nxt, to_move=nxt, said=tuple(said))

    def _round_points(self, s: _Core) -> tuple[int, ...]:
        out: list[int] = []
        scoring = self.variant.scoring
        dirty = self.dirty()
        for p in range(self.num_players()):
            if p == s.finisher:
                out.append(1 if scoring == "tokens" else -s.bonus if scoring == "points" else 0)
                continue
            if scoring == "tokens":
                out.append(0)
            elif scoring == "cards":
                out.append(_holding(s, p))
            else:
                known = (*s.hands[p], *s.ups[p], *s.downs[p])
                pts = sum(card_points(self._cards.card(c), dirty) for c in known)
                out.append(pts + (s.typed[p] or 0))
        return tuple(out)

    def _score(self, s: _Core) -> _Core:
        st = self._setup
        names = st.players
        n = self.num_players()
        points = self._round_points(s)
        scoring = self.variant.scoring
        if scoring == "tokens":
            totals = tuple(st.totals[p] + points[p] for p in range(n))
        else:
            totals = tuple(max(0, st.totals[p] + points[p]) for p in range(n))  # U-7
        parts: list[str] = []
        for p in range(n):
            if scoring == "tokens":
                if p == s.finisher:
                    parts.append(f"{names[p]} wins a token ({totals[p]} in all)")
                continue
            if p == s.finisher:
                if scoring == "points":
                    floor = ", never below 0: U-7" if st.totals[p] + points[p] < 0 else ""
                    parts.append(
                        f"{names[p]} went out: −{s.bonus} ({st.totals[p]} → {totals[p]}{floor})"
                    )
                else:
                    parts.append(f"{names[p]} went out: 0 ({totals[p]} in all)")
                continue
            unit = "card" if scoring == "cards" else "point"
            typed = " typed in" if s.typed[p] is not None else ""
            parts.append(f"{names[p]} {points[p]} {plural(points[p], unit)}{typed} ({totals[p]} in all)")
        text = f"Round {st.round} scored: " + "; ".join(parts) + "."
        termination = Termination.BLOCKED if s.finisher is None else Termination.OUT
        winners: tuple[int, ...] = () if s.finisher is None else (s.finisher,)
        ended = ""
        if self.variant.up300 and any(t > UP300 for t in totals):
            over = [names[p] for p in range(n) if totals[p] > UP300]
            termination = Termination.UP300
            ended = f"Up300: {and_join(over)} passed {UP300} (U-8): the evening is over."
        elif self.variant.rounds is not None and st.round >= self.variant.rounds:
            termination = Termination.ROUNDS
            ended = f"That was round {st.round} of {self.variant.rounds}: the evening is over."
        rule = "U-7" if any(st.totals[p] + points[p] < 0 for p in range(n)) else None
        said = [*s.said, Said("end", text, rule)]
        if ended:
            winners = evening_winners(totals, scoring)
            said.append(
                Said(
                    "end",
                    f"{ended} {evening_result(names, winners, totals, scoring)}.",
                    "U-8" if termination == Termination.UP300 else None,
                )
            )
        else:
            said.append(
                Said("end", f"Next round: {names[(st.dealer + 1) % n]} deals (key n).")
            )
        outcome = Outcome(termination, winners, totals)
        return _with(
            s, phase="over", counting=None, outcome=outcome, said=tuple(said)
        )

    # --- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> UpView:
        """What `seat` may see, or with None the public scoreboard: counts of hand and
        face-down cards, never the cards themselves; a seat's view adds its own hand (as far as
        the engine knows it)."""
        s, st = self._s, self._setup
        n = self.num_players()
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"no seat {seat!r} (seats are 0..{n - 1})")
        table = st.table
        totals = st.totals
        if s.outcome is not None and s.outcome.termination != Termination.STOPPED:
            table = table + (self.round_score(),)
            totals = s.outcome.scores
        faces = self._faces
        players = tuple(
            PlayerView(
                seat=p,
                name=st.players[p],
                hand=len(s.hands[p]) + s.hand_unseen[p],
                up=faces(s.ups[p]),
                down=len(s.downs[p]) + s.down_unseen[p],
                total=totals[p],
                skip=s.skip[p],
                owes_call=s.call_due == p and not s.called,
                first_turn=not s.first_done[p],
                out=s.finisher == p,
            )
            for p in range(n)
        )
        phase = "over" if s.outcome is not None else s.phase
        to_move: int | None
        if phase == "over":
            to_move = None
        elif phase == "count":
            to_move = s.counting
        elif phase == "deal":
            to_move = self.deal_next()
        else:
            to_move = s.to_move
        return UpView(
            game=NAME,
            game_number=st.game_number,
            names=st.players,
            phase=phase,
            to_move=to_move,
            outcome=s.outcome,
            verdict=s.verdict,
            seat=seat,
            variant=self.variant.describe(),
            scoring=self.variant.scoring,
            up300=self.variant.up300,
            rounds=self.variant.rounds,
            round=st.round,
            evening=st.evening,
            dealer=st.dealer,
            cutter=self.cutter,
            leader=self.leader,
            kept_by=s.kept_by,
            dirty=self.dirty(),
            dirty_announced=s.dirty_round,
            tower=faces(s.tower, sort=False),
            to_beat=s.threshold,
            founding=s.founding and phase == "play",
            players=players,
            call_due=s.call_due if not s.called else None,
            removed=len(s.removed),
            deal_next=self.deal_next(),
            dealt=s.dealt_up,
            deal_total=FACE_UP * n if self.observed else 0,
            counting=s.counting,
            unseen=tuple(_unseen(s, p) for p in range(n)),
            table=table,
            totals=totals,
            turn=s.turn,
            own_hand=faces(s.hands[seat]) if seat is not None else (),
            own_unseen=s.hand_unseen[seat] if seat is not None else 0,
        )

    def __repr__(self) -> str:
        s = self._s
        tower = " ".join(self._faces(s.tower, sort=False)) or "-"
        return (
            f"<UpGame round {self._setup.round} {s.phase} to move {s.to_move} tower [{tower}] "
            f"to beat {s.threshold} holdings {[_holding(s, p) for p in range(self.num_players())]}>"
        )

    # --- helpers ------------------------------------------------------------------------------------

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
                return f"face up in front of {self._who(seat)}"
            return "in a player's hand" if where == HAND else "face down"
        return {"tower": "on the tower", "removed": "out of the game", "stock": "in the deck"}.get(
            where, where
        )

    def _in_deck(self, card: str, a: Action) -> None:
        if card in self._setup.deck:
            return
        c = self._cards.get(card)
        if c is None:
            raise IllegalMoveError("deck", f"{card!r} is no Up card.", None, a)
        if c.kind == MINUS2 and self.variant.without_minus2:
            raise IllegalMoveError(
                "U-10",
                "This evening is played without -2: the -2 cards stay in the box.",
                "Put the -2 card back in the box.",
                a,
            )
        sets = self.variant.sets or self.catalogue.default_sets(self.num_players())
        raise IllegalMoveError(
            "deck",
            f"That card belongs to set {c.set}, which is not in this game (sets "
            f"{', '.join(sets)}).",
            f"Put the set {c.set} card aside.",
            a,
        )

    def _who(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < self.num_players():
            return self._setup.players[seat]
        return f"seat {seat!r}"

    def _waiting_words(self, s: _Core) -> str:
        names = self._setup.players
        if s.phase == "cut":
            return f"{names[self.cutter]} cuts first."
        if s.phase == "deal":
            nxt = self.deal_next()
            assert nxt is not None
            return f"the next face-up card is dealt to {names[nxt]}."
        if s.phase == "count":
            assert s.counting is not None
            return f"{names[s.counting]} taps the remaining cards."
        return f"it is {names[s.to_move]}'s turn."


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


def _count_face(k: int, card: Card) -> str:
    """'7', 'two 7s', '-2', 'two -2', 'the disposal card'."""
    if card.kind == DISPOSAL:
        return "the disposal card"
    if k == 1:
        return card.face
    word = _NUMBER_WORDS[k] if k < len(_NUMBER_WORDS) else str(k)
    return f"{word} {card.face}" + ("s" if card.kind == NUMBER else "")


_PLACE = {HAND: "a hand card", UP: "a face-up card", DOWN: "a face-down card"}
_PLACE_OF = {HAND: "from the hand", UP: "a face-up card", DOWN: "a face-down card"}


def _back_to(name: str, source: str, k: int = 1) -> str:
    it = "them" if k > 1 else "it"
    if source == UP:
        return f"{name}: put the card{'s' if k > 1 else ''} back face up."
    if source == DOWN:
        return f"{name}: turn the card face down again and put {it} back."
    return f"{name}: take the card{'s' if k > 1 else ''} back into your hand."


def evening_winners(totals: Sequence[int], scoring: str) -> tuple[int, ...]:
    """Who wins an evening with these totals: the lowest (the most tokens with children's
    tokens); several on a tie."""
    best = max(totals) if scoring == "tokens" else min(totals)
    return tuple(p for p, t in enumerate(totals) if t == best)


def evening_result(
    names: Sequence[str],
    winners: Sequence[int],
    totals: Sequence[int],
    scoring: str,
    *,
    lead: bool = False,
) -> str:
    """'Ann wins the evening with 45 points' / 'Ann and Bob share the evening with 3 tokens
    each'; with `lead` (an evening not over): 'Ann leads the evening with ...' (no full stop)."""
    best = totals[winners[0]] if winners else 0
    unit = {"points": "point", "cards": "card", "tokens": "token"}[scoring]
    who = and_join([names[w] for w in winners])
    amount = f"{best} {plural(best, unit)}"
    if len(winners) == 1:
        return f"{who} {'leads' if lead else 'wins'} the evening with {amount}"
    return f"{who} share {'the lead of ' if lead else ''}the evening with {amount} each"
