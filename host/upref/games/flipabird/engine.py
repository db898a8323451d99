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

Actions (`actions`, each type checked and applied by the methods `_rule` names): `Play(card, up)`
draws (not in the final phase) and plays, the all-face-up rule (F-9) and the final phase following
from it; `Claim()` against the right-hand neighbour (F-13, F-14); `Tip(seat, red)`, after which the
last tip turns the row up for `evaluation.evaluate` (F-1 ... F-5, F-10); `Take(card)` at the
sharing (F-6, F-7); `WrongWay()` (F-16); `Pass()`, the end without evaluation (F-11). The other
modules: `variant`, `position` (the state's parts and its builders), `view`, `cards`.

Refusals (`IllegalMoveError.rule`): F-6, F-11, F-14, F-16 for their rulings (F-6: a take of a
card that is not left to take, or anything but the take of the player whose take it is while
the claimed row is shared out); "hand" a card that cannot be in the player's hand; "row" a card
already in the row; "won" a card someone won; "out" a card out of the game; "face" a face the
draw pile does not give; "tips" an action while the tips are collected, or a tip that is fixed
or already in; "card" an id that is no game card; "seat" a seat that does not play; "over" any
action after the end.

Hidden information: face-down cards in the row, every hand, the pile's order, other players'
tips until all are in, and the cards that leave the game unseen. `view(None)` holds none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from upref.games import base
from upref.games.base import TERMINAL, ActionRule, IllegalMoveError, MatchState, Outcome, StateField
from upref.games.flipabird.actions import Action, Claim, Pass, Play, Take, Tip, WrongWay
from upref.games.flipabird.cards import Card, Catalogue
from upref.games.flipabird.evaluation import Evaluation, Score, evaluate, score
from upref.games.flipabird.position import (
    OVER,
    TAKE,
    TIPS,
    TURN,
    ClaimState,
    Core,
    FlipABirdDescription,
    RowCard,
    Setup,
    deal,
    described_position,
    new_position,
)
from upref.games.flipabird.variant import HAND, Variant
from upref.games.flipabird.view import (
    RESULT,
    CardView,
    ClaimView,
    FlipView,
    PlayerView,
    RowView,
    flip_view,
)
from upref.games.flipabird.words import (
    FINAL_PHASE,
    PILE_EMPTIES,
    all_tips,
    cage,
    cards,
    claimed,
    face_fix,
    final_claim,
    played,
    shared,
    wrong_face,
    wrong_way,
)
from upref.text import Msg, and_join

__all__ = [
    "HAND", "NAME", "TITLE", "Action", "CardView", "Claim", "ClaimState", "ClaimView",
    "FlipABirdState", "FlipView", "Pass", "Play", "PlayerView", "RowCard", "RowView", "Score",
    "Take", "Termination", "Tip", "Variant", "WrongWay", "deal", "score",
]

NAME = "flipabird"
TITLE = "Flip a Bird"

RED, GREEN = "red", "green"


class Termination(base.Termination):
    """Why a game of Flip a Bird ended: the final phase's claim was settled, a player with no
    card did not claim (F-11), or the table stopped it early."""

    CLAIM = "claim"
    NO_CLAIM = "no-claim"
    STOPPED = "stopped"


class FlipABirdState(MatchState[Action, Variant, Catalogue]):
    """One game of Flip a Bird. Build it with `FlipABirdState.new(...)` (or
    `position(FlipABirdDescription(...))` for a described position). Seats are 0..n-1
    clockwise; seat 0 begins ("whoever is best at chirping"). "Right" is counter-clockwise:
    seat - 1."""

    TITLE: ClassVar[str] = TITLE
    PLAY_ON: ClassVar[str] = Msg("Start the next game to play on.")

    def _rule(self, action: object) -> ActionRule:
        """The methods that check and apply `action`, by its type."""
        match action:
            case Play():
                return ActionRule(self._check_play, self._do_play)
            case Claim():
                return ActionRule(self._check_claim, self._do_claim)
            case Tip():
                return ActionRule(self._check_tip, self._do_tip)
            case Take():
                return ActionRule(self._check_take, self._do_take)
            case WrongWay():
                return ActionRule(self._check_wrong_way, self._do_wrong_way)
            case Pass():
                return ActionRule(self._check_pass, self._do_pass)
        raise self._foreign(action)

    def __init__(self, setup: Setup, core: Core) -> None:
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
    ) -> FlipABirdState:
        """A new game after the deal: `players` clockwise from the one who begins; `pile` the
        draw pile top first, as the set-up scan learnt it (None: the scan was skipped, the
        pile's order is unknown).

        :raises ValueError: for 2 or 7 players, repeated names, or a pile that is not the
            right number of different cards of the catalogue.
        """
        return cls(
            *new_position(
                players,
                pile=pile,
                variant=variant,
                catalogue=catalogue,
                game_number=game_number,
                history=history,
            )
        )

    @classmethod
    def position(cls, description: FlipABirdDescription) -> FlipABirdState:
        """A position built from a description (for tests and the rulebook's examples; see
        `FlipABirdDescription` for what each part means).

        :raises ValueError: for a card placed twice, an unknown id, or more unknown slots than
            unplaced cards.
        """
        return cls(*described_position(description))

    def next_game(self, pile: Sequence[str] | None = None) -> FlipABirdState:
        """The next game with the same players, variant and catalogue (`pile` from its own
        scan); this game's outcome, if it is over, joins the history."""
        return FlipABirdState.new(
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

    phase = StateField[str]("'turn', 'tips', 'take' or 'over'.")
    turn = StateField[int]("The turn's number, from 1.")
    final = StateField[bool]("The last card of the draw pile has been drawn.")
    pile = StateField[tuple[str, ...] | None]("The draw pile, top first, when known. Secret.")
    pile_left = StateField[int]("How many cards the draw pile holds.")
    row = StateField[tuple[RowCard, ...]](
        "The row from the draw pile outwards. Holds face-down cards: not for public views."
    )
    verdict = StateField[str]("The engine's text about the last thing that happened.")
    last_play = StateField[int | None](
        "The row index of the card just played, until the next action (F-16 may flag it)."
    )
    claim_state = StateField[ClaimState | None]("The claim being settled, if any.", source="claim")
    unseen = StateField[frozenset[str]](
        "Cards whose place is not known (unknown hand slots, the box, an unknown pile)."
    )
    out = StateField[tuple[str, ...]]("The known cards out of the game.")
    out_unknown = StateField[int]("How many cards are out of the game unseen.")
    removed_rows = StateField[tuple[tuple[str, ...], ...]](
        "The rows the all-face-up rule took out of the game (F-9)."
    )

    @property
    def evaluation(self) -> Evaluation | None:
        """The evaluation of the claim being settled (once every tip is in)."""
        c = self._s.claim
        return c.evaluation if c is not None else None

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

    def _snapshot(self) -> object:
        return self._s

    def _restore(self, snapshot: object) -> None:
        if not isinstance(snapshot, Core):
            raise TypeError(f"not a Flip a Bird snapshot: {snapshot!r}")
        self._s = snapshot

    def clone(self) -> FlipABirdState:
        other = FlipABirdState(self._setup, self._s)
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
                Msg(
                    "A claim is on: first every tip must be in ({missing} still to tip); then "
                    "the row is turned up and evaluated.",
                    missing=and_join(missing),
                ),
                Msg("Enter the missing tips first."),
                action,
            )
        if s.phase == TAKE and not isinstance(action, Take):
            taker = self.taker()
            assert taker is not None
            raise IllegalMoveError(
                "F-6",
                Msg("The claimed row is being shared out: it is {name}'s take.", name=self._name(taker)),
                Msg("{name}: take a card of the claimed row and tap it.", name=self._name(taker)),
                action,
            )

    def _check_play(self, a: Play) -> None:
        s = self._s
        self._not_now(a)
        if a.card not in self.catalogue:
            what = Msg("a tip card") if self.catalogue.is_tip(a.card) else f"{a.card!r}"
            raise IllegalMoveError(
                "card", Msg("That is {what}, not a card to play.", what=what), Msg("Take it back."), a
            )
        p = s.to_move
        name = self._name(p)
        if self.hand_size(p) == 0 and s.final:
            raise IllegalMoveError(
                "F-11",
                Msg(
                    "By the referee's count {name} has no card left. With no card, claim or end "
                    "the game without evaluating the row (F-11).",
                    name=name,
                ),
                Msg("Take the card back: it is not yours to play."),
                a,
            )
        for i, r in enumerate(s.row):
            if r.card == a.card:
                raise IllegalMoveError(
                    "row",
                    Msg("That card is already in the row (position {position}).", position=i + 1),
                    Msg("Put it back at position {position}.", position=i + 1),
                    a,
                )
        for seat, w in enumerate(s.won):
            if a.card in w:
                raise IllegalMoveError(
                    "won",
                    Msg(
                        "{card} is among {name}'s won cards: won cards never go back into play.",
                        card=a.card,
                        name=self._name(seat),
                    ),
                    Msg("Give {card} back to {name}'s won cards.", card=a.card, name=self._name(seat)),
                    a,
                )
        if a.card in s.out:
            raise IllegalMoveError(
                "out",
                Msg("That card is out of the game."),
                Msg("Put it back with the cards out of the game."),
                a,
            )
        if a.card not in self._playable(p):
            raise IllegalMoveError("hand", self._not_in_hand(p, a.card), self._hand_fix(p, a.card), a)
        face = self.required_face()
        if face is not None and a.up != face:
            raise IllegalMoveError("face", wrong_face(name, face, s.final, s.pile_left <= 1), face_fix(face), a)

    def _not_in_hand(self, seat: int, card: str) -> str:
        """Why `card` cannot be in `seat`'s hand, never naming a secret card."""
        s = self._s
        name = self._name(seat)
        if s.pile is not None and card in s.pile:
            depth = s.pile.index(card)
            where = (
                Msg("just under the top card")
                if depth == 1
                else Msg("card {depth} from the top", depth=depth + 1)
            )
            return Msg(
                "By the set-up scan that card lay in the draw pile ({where}), so it cannot be in "
                "{name}'s hand: a turn draws only the top card.",
                where=where,
                name=name,
            )
        for other, h in enumerate(s.hands):
            if card in h and other != seat:
                return Msg(
                    "By the set-up scan {other} drew that card, so it cannot be in {name}'s hand.",
                    other=self._name(other),
                    name=name,
                )
        if card in s.unseen and s.unknown[seat] == 0:
            return Msg(
                "{name} has already played both cards dealt to them, and by the set-up scan "
                "that card was dealt to someone else (or left in the box).",
                name=name,
            )
        return Msg("That card cannot be in {name}'s hand.", name=name)

    def _hand_fix(self, seat: int, card: str) -> str:
        s = self._s
        if s.pile is not None and card in s.pile:
            depth = s.pile.index(card)
            if depth == 1:
                return Msg("Put that card back on top of the draw pile, then play a card from your hand.")
            return Msg(
                "Put that card back back under the top {n} cards of the draw pile, then play a "
                "card from your hand.",
                n=depth - 1,
            )
        return Msg("Give that card back to whoever holds it, then play a card from your own hand.")

    def _check_claim(self, a: Claim) -> None:
        s = self._s
        self._not_now(a)
        if not s.row:
            raise IllegalMoveError(
                "F-14",
                Msg(
                    "There is no row to claim against: a claim needs at least one card in the row "
                    "(F-14)."
                ),
                Msg("{name}: draw and play a card to start the row.", name=self._name(s.to_move)),
                a,
            )

    def _check_tip(self, a: Tip) -> None:
        s = self._s
        if s.phase != TIPS or s.claim is None:
            raise IllegalMoveError(
                "tips", Msg("No claim is waiting for tips now."), Msg("Keep your tip cards."), a
            )
        if not (isinstance(a.seat, int) and 0 <= a.seat < self.num_players()):
            raise IllegalMoveError(
                "seat",
                Msg(
                    "No player {seat} plays this game ({players} players).",
                    seat=a.seat + 1 if isinstance(a.seat, int) else repr(a.seat),
                    players=self.num_players(),
                ),
                Msg("Put that tip card back in the box."),
                a,
            )
        c = s.claim
        name = self._name(a.seat)
        if a.seat == c.claimant:
            raise IllegalMoveError(
                "tips", Msg("{name} claimed: {name}'s tip is red, face up.", name=name), None, a
            )
        if a.seat == c.accused:
            raise IllegalMoveError(
                "tips", Msg("{name} is accused: {name}'s tip is green, face up.", name=name), None, a
            )
        if c.tips[a.seat] is not None:
            raise IllegalMoveError(
                "tips",
                Msg(
                    "{name}'s tip is already in: tips are revealed at once and stay as revealed.",
                    name=name,
                ),
                None,
                a,
            )

    def _check_take(self, a: Take) -> None:
        s = self._s
        if s.phase != TAKE or s.claim is None:
            self._not_now(a)
            raise IllegalMoveError(
                "F-6", Msg("No claimed row is being shared out now."), Msg("Put the card back."), a
            )
        taker = self.taker()
        assert taker is not None
        if a.card in dict((c, None) for _, c in s.claim.taken):
            who = next(seat for seat, c in s.claim.taken if c == a.card)
            raise IllegalMoveError(
                "F-6",
                Msg("{card} was taken already, by {name}.", card=a.card, name=self._name(who)),
                Msg("{card} stays with {name}.", card=a.card, name=self._name(who)),
                a,
            )
        if a.card not in s.claim.left:
            raise IllegalMoveError(
                "F-6",
                Msg("That card is not one of the claimed row's cards: only they are shared out."),
                Msg("Put it back where it came from."),
                a,
            )

    def _check_wrong_way(self, a: WrongWay) -> None:
        s = self._s
        self._not_now(a)
        if s.last_play is None:
            raise IllegalMoveError(
                "F-16",
                Msg(
                    "No card was just played: F-16 turns over the card just played, before the "
                    "next action."
                ),
                None,
                a,
            )
        if s.row[s.last_play].flagged:
            raise IllegalMoveError(
                "F-16", Msg("That card was turned over already (F-16)."), None, a
            )

    def _check_pass(self, a: Pass) -> None:
        s = self._s
        self._not_now(a)
        name = self._name(s.to_move)
        if not s.final:
            raise IllegalMoveError(
                "F-11",
                Msg(
                    "Only in the final phase, with no card left, may a player end the game "
                    "without a claim (F-11)."
                ),
                Msg("{name}: draw and play, or claim.", name=name),
                a,
            )
        if self.hand_size(s.to_move) > 0:
            raise IllegalMoveError(
                "F-11",
                Msg(
                    "{name} still has {cards}: play one or claim (F-11 ends the game only for a "
                    "player with no card).",
                    name=name,
                    cards=cards(self.hand_size(s.to_move)),
                ),
                Msg("{name}: play a card or claim.", name=name),
                a,
            )

    # --- applying ----------------------------------------------------------------------------

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
        text = played(name, a.card, card.face if a.up else None, reason)
        changes: dict[str, Any] = {}
        if a.up and len(row) > 1 and all(r.up for r in row):
            row, said, changes = self._all_face_up(row)
            text += said
        if not final and pile_left == 0:
            final = True
            text += " " + Msg(
                "That was the last card of the draw pile: the final phase begins, every card is "
                "now played face down, without drawing."
            )
        text += " " + Msg("{name}'s turn.", name=self._name(nxt))
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

    def _all_face_up(self, row: tuple[RowCard, ...]) -> tuple[tuple[RowCard, ...], str, dict[str, Any]]:
        """F-9, for a row that lies all face up after its last card: with more birds than the
        limit the old row leaves the game and that card starts a new one. The row, the words
        and the changes to the state (none while the row holds no more than the limit)."""
        ev = evaluate([self.catalogue.card(r.card) for r in row], self.limit)
        if ev.total <= self.limit:
            return row, "", {}
        s, old = self._s, tuple(r.card for r in row[:-1])
        said = " " + Msg(
            "The whole row lies face up and holds {total} birds, more than {limit}: the old row "
            "({cards}) leaves the game and {card} starts a new row (F-9).",
            total=ev.total,
            limit=self.limit,
            cards=cards(len(old)),
            card=row[-1].card,
        )
        return (row[-1],), said, {"out": s.out + old, "removed_rows": s.removed_rows + (old,)}

    def _face_reason(self, up: bool) -> str | None:
        """Why a play goes face up or down, before it is applied (None without the scan, where
        the face is the table's word)."""
        s = self._s
        if s.final:
            return FINAL_PHASE
        if s.pile_left <= 1:
            return PILE_EMPTIES
        if s.pile is None:
            return None
        return cage(up)

    def _do_claim(self, a: Claim) -> str:
        s = self._s
        n = self.num_players()
        p = s.to_move
        accused = (p - 1) % n
        tips: list[str | None] = [None] * n
        tips[p] = RED
        tips[accused] = GREEN
        others = [self._name(i) for i in range(n) if tips[i] is None]
        text = claimed(self._name(p), self._name(accused), others)
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
                verdict=Msg(
                    "{name}'s tip is in ({have} of {need}); waiting for {missing}.",
                    name=name,
                    have=have,
                    need=need,
                    missing=and_join(missing),
                ),
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
        order = and_join([self._name(t) for t in takers])
        text = Msg(
            "{tips}. The row is turned face up ({cards}). {summary} ",
            tips=all_tips(self._setup.players, tips, c.claimant, c.accused),
            cards=cards(len(row)),
            summary=ev.summary,
        )
        if len(takers) == 1:
            text += Msg("{takers} alone was right and takes every card (F-7).", takers=order)
        else:
            text += Msg(
                "Takers, counter-clockwise from {name}: {takers} (F-6).",
                name=self._name(first),
                takers=order,
            )
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
        text = Msg("{name} takes {card} ({face})", name=name, card=a.card, face=card.face)
        if left:
            nxt = (c.taker + 1) % len(c.takers)
            claim = replace(c, taker=nxt, left=left, taken=taken)
            text += Msg(
                ": {cards} left, {name}'s take.", cards=cards(len(left)), name=self._name(c.takers[nxt])
            )
            return self._set(claim=claim, won=tuple(won), row=row, verdict=text)
        got = [(t, sum(1 for x, _ in taken if x == t)) for t in c.takers]
        shares = and_join([f"{self._name(t)} {k}" for t, k in got if k])
        removed = len(c.evaluation.removed) if c.evaluation is not None else 0
        text += shared(len(taken), shares, removed)
        if s.final:
            out = self._make_outcome(Termination.CLAIM, won)
            text += " " + final_claim(self._result_text(out))
            return self._end(out, text, won=tuple(won), row=(), claim=replace(c, left=(), taken=taken))
        text += " " + Msg("{name} starts a new row: draw and play.", name=self._name(c.claimant))
        return self._set(
            won=tuple(won), row=(), claim=None, phase=TURN, to_move=c.claimant,
            turn=s.turn + 1, verdict=text,
        )

    def _do_wrong_way(self, a: WrongWay) -> str:
        s = self._s
        i = s.last_play
        assert i is not None
        r = s.row[i]
        row = s.row[:i] + (replace(r, flagged=True),) + s.row[i + 1 :]
        return self._set(row=row, verdict=wrong_way(self._name(r.by), i + 1, r.up))

    def _do_pass(self, a: Pass) -> str:
        s = self._s
        name = self._name(s.to_move)
        won = s.won
        out = self._make_outcome(Termination.NO_CLAIM, won)
        text = Msg(
            "{name} has no card left and does not claim: the game ends without evaluating the "
            "row (F-11). {result}.",
            name=name,
            result=self._result_text(out),
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

    def _make_outcome(self, termination: Termination, won: Sequence[tuple[str, ...]]) -> Outcome:
        scores = tuple(score(self.catalogue.card(c) for c in w).points for w in won)
        best = max(scores)
        return Outcome(termination, tuple(i for i, x in enumerate(scores) if x == best), scores)

    def _result_text(self, out: Outcome) -> str:
        best = out.scores[out.winners[0]] if out.winners else 0
        return RESULT.text([self._name(w) for w in out.winners], best)

    # --- views --------------------------------------------------------------------------------

    def view(self, seat: int | None) -> FlipView:
        """What `seat` may see, or with None what the whole table may see."""
        if seat is not None:
            seat = self._seat(seat)
        return flip_view(
            NAME,
            self._setup,
            self._s,
            seat,
            current=self.current_player(),
            taker=self.taker(),
            face=self.public_face(),
            can_pass=self.can_pass(),
        )

    def __repr__(self) -> str:
        s = self._s
        return (
            f"<FlipABirdState game {self._setup.game_number} turn {s.turn} phase {s.phase} "
            f"to move {s.to_move} pile {s.pile_left} row {len(s.row)}"
            f"{' final' if s.final else ''}>"
        )

    # --- helpers -----------------------------------------------------------------------------

    def _name(self, seat: int) -> str:
        return self._setup.players[seat]

