"""Up (the tower card game): the rules engine.

Every player holds 13 cards (docs/games/up.md): a hand, four face-up cards on the table, each on
one of four face-down cards. Players take turns adding cards to one shared tower: a card of the
value on top or lower keeps it standing, a higher one brings it down and the player takes the
whole tower into hand; "-2" cards lower the tower, a disposal card removes it from the game.
Whoever has no card left ends the round; the others score their remaining cards as minus points,
summed over an evening.

**Two ways to know the cards.** An engine built with `UpState.new(..., observed=False)` shuffles
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
cards together (refused before their values are read, which are face down), "U-6" a 'last card' call nobody owes, "U-9" the dirty One announced late or by
another player, "U-10" a -2 kept at the cut without -2, "U-11" a 'last card' call after the next
card, "U-12" face-up or face-down cards in a player's first turn, "U-14" face-down cards while
face-up ones remain, "U-15" mixed sources; or a short word: "turn" (not that player's turn, or
another player's card), "source" (the card is not where the play says), "equal" (cards of
different values together), "deck" (not a card of this game), "deal", "cut", "count" (the
bookkeeping does not add up), "join", "pass", "over".

Decisions where the rules are silent (docs/games/up.md): the first dealer is the last player
named (so the first named leads round 1) unless the variant names one; a player who must lay a
foundation but holds nothing that may start a tower (only -2 cards, first turn with an empty
hand) passes the foundation to the next player, and when it has gone round the whole table
without a card laid the round ends with nobody out ("blocked"); a skipped turn still owed when
a round ends is dropped; children's card counting gives the finisher 0 and no bonus (U-19);
`legal_actions()` lists one play per number of equal cards (the lowest ids), disposal cards one
at a time (several together, U-18, do what one after the other does), while any other choice of
equal cards is just as legal.

`current_player()` is the seat the table waits on: the cutter at the cut, the seat whose face-up
card is dealt next, the player to move (a `Call` is due from another seat meanwhile), the seat
being counted; `TERMINAL` once the round is scored.

The rules live in mixins of the state class, one module for what each rules: `deal.py` (the cut
and the deal), `tower.py` (a turn's plays onto the tower, joins, passes, the dirty One, 'last
card'), `scoring.py` (the end of a round, the count, the scores); `state.py` holds the round's
state and what every rule asks of it, `position.py` builds a described position.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from upref.games.base import TERMINAL, ActionRule, IllegalMoveError, Outcome, StateField
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
from upref.games.up.cards import DISPOSAL, NUMBER, Catalogue, load_catalogue
from upref.games.up.deal import DealRules
from upref.games.up.position import position as _position
from upref.games.up.scoring import (
    BONUS,
    BONUS_BLIND_MINUS2,
    EVENING_OVER,
    ScoringRules,
    Termination,
    evening_result,
    evening_winners,
)
from upref.games.up.state import (
    FACE_UP,
    Said,
    _card_order,
    _Core,
    _holding,
    _Setup,
    _unseen,
    _with,
)
from upref.games.up.tower import TowerRules
from upref.games.up.variant import SCORINGS, UP300, Variant, card_points
from upref.games.up.view import PlayerView, RoundScore, UpView
from upref.text import Msg, and_join

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
    "UpState",
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


class UpState(DealRules, TowerRules, ScoringRules):
    """One round of Up, within an evening. Build it with `UpState.new(...)` or, for a described
    position, `UpState.position(UpDescription(...))`; `next_round()` gives the next round of the
    evening.

    Seats are 0..n-1 clockwise. Scores are minus points (lowest total wins the evening), or
    cards or tokens with children's scoring. The rules it applies come from its mixins: the cut
    and the deal (`DealRules`), a turn (`TowerRules`), the end of a round (`ScoringRules`).
    """

    TITLE: ClassVar[str] = TITLE
    def _rule(self, action: object) -> ActionRule:
        """The methods that check and apply `action`, by its type."""
        match action:
            case Cut():
                return ActionRule(self._check_cut, self._take)
            case DealUp():
                return ActionRule(self._check_deal_up, self._take)
            case Reveal():
                return ActionRule(self._check_count, self._take)
            case Points():
                return ActionRule(self._check_count, self._take)
            case Play():
                return ActionRule(self._check_play, self._take)
            case Join():
                return ActionRule(self._check_join, self._take)
            case Call():
                return ActionRule(self._check_call, self._take)
            case Pass():
                return ActionRule(self._check_pass, self._take)
            case DirtyOne():
                return ActionRule(self._check_dirty_one, self._take)
        raise self._foreign(action)
    """Every action computes the state after it when it is checked (`_take` applies that)."""

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
    ) -> UpState:
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
                Msg(
                    "Up is for {low} to {high} players (one set of 13 cards each), not {n}",
                    low=MIN_PLAYERS,
                    high=min(MAX_PLAYERS, catalogue.max_players),
                    n=n,
                )
            )
        if any(not isinstance(p, str) or not p.strip() for p in players):
            raise ValueError(Msg("player names must be non-empty text: {names}", names=repr(players)))
        if len(set(players)) != n:
            raise ValueError(Msg("player names must differ: {names}", names=repr(players)))
        sets = variant.sets or catalogue.default_sets(n)
        if len(sets) != n:
            raise ValueError(
                Msg("one set per player: {n} players need {n} sets, not {sets}", n=n, sets=repr(sets))
            )
        deck = catalogue.deck(sets, minus2=not variant.without_minus2)
        if variant.first_dealer is None:
            dealer = n - 1
        elif variant.first_dealer in players:
            dealer = players.index(variant.first_dealer)
        else:
            raise ValueError(
                Msg(
                    "the first dealer {dealer} is not one of the players {names}",
                    dealer=repr(variant.first_dealer),
                    names=and_join(list(players)),
                )
            )
        r = rng if isinstance(rng, random.Random) else random.Random(rng)
        rank = {c.id: i for i, c in enumerate(sorted(catalogue.cards, key=_card_order))}
        setup = _Setup(
            players, catalogue, variant, deck, observed, 1, 1, 1, dealer, (0,) * n, (), (),
            rank,
        )
        return cls._deal(setup, r)

    def next_round(self) -> UpState:
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
            first = Said(
                "info", Msg("A new evening (evening {evening}). {first}", evening=evening, first=game._s.said[0].text)
            )
            game._s = _with(game._s, said=(first,))
        return game

    position = classmethod(_position)
    """A round in play, built from an `UpDescription` (`upref.games.up.position.position`)."""

    # --- read-only ------------------------------------------------------------------------------

    @property
    def deck(self) -> tuple[str, ...]:
        """The card ids in play this evening."""
        return self._setup.deck

    @property
    def round(self) -> int:
        return self._setup.round

    @property
    def dealer(self) -> int:
        return self._setup.dealer

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

    def first_turn(self, seat: int) -> bool:
        return not self._s.first_done[seat]

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
                    # several together are legal too (U-18), and do what one after the other does
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
        return Msg("Round {round} is over: start the next round (key n).", round=self._setup.round)

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

    def clone(self) -> UpState:
        twin = UpState(self._setup, self._s)
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
            what = {"cut": Msg("the cut"), "deal": Msg("the deal"), "count": Msg("the count")}.get(
                s.phase, s.phase
            )
            raise IllegalMoveError(
                "deal" if s.phase in ("cut", "deal") else "count",
                Msg("No card is played during {what}: {waiting}", what=what, waiting=self._waiting_words(s)),
                None,
                a,
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
        players = self._player_views(totals)
        phase = "over" if s.outcome is not None else s.phase
        to_move = self._waits_on(phase)
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

    def _waits_on(self, phase: str) -> int | None:
        """The seat the table waits on in `phase` (the view's): the counter, the next to be
        dealt, the player to move; None once over."""
        if phase == "over":
            return None
        if phase == "count":
            return self._s.counting  # type: ignore[no-any-return]
        if phase == "deal":
            return self.deal_next()
        return self._s.to_move  # type: ignore[no-any-return]

    def _player_views(self, totals: tuple[int, ...]) -> tuple[PlayerView, ...]:
        """Each player as the whole table sees them: counts of hand and face-down cards."""
        s, st = self._s, self._setup
        faces = self._faces
        return tuple(
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
            for p in range(self.num_players())
        )

    def __repr__(self) -> str:
        s = self._s
        tower = " ".join(self._faces(s.tower, sort=False)) or "-"
        return (
            f"<UpState round {self._setup.round} {s.phase} to move {s.to_move} tower [{tower}] "
            f"to beat {s.threshold} holdings {[_holding(s, p) for p in range(self.num_players())]}>"
        )
