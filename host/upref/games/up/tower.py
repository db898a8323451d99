"""Up's turn: plays onto the tower (one or more equal cards from one source, U-15; the hand
only in a first turn, U-12; face-down cards one at a time once the face-up ones are gone, U-4,
U-14), what they do there (a -2 lowers the tower, U-1, and never starts one, U-2; disposal
cards, one or several, U-18, clear it; a higher card brings it down, U-13), equal cards joined
to the play just made, a foundation passed when nothing can start a tower, the dirty One (U-9),
and 'last card' (due at one card left, U-6; forgotten, the next turn is skipped, U-11, also
when the turn comes straight back to the player who owes it, U-20).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from upref.games.base import IllegalMoveError
from upref.games.up.actions import DOWN, HAND, SOURCES, UP, Action, Call, DirtyOne, Join, Pass, Play
from upref.games.up.cards import DISPOSAL, MINUS2, NUMBER, Card
from upref.games.up.scoring import BONUS, BONUS_BLIND_MINUS2
from upref.games.up.state import RoundBase, Said, _Core, _holding, _Last, _set, _with
from upref.games.up.words import cannot_start, face_words, turn_skipped
from upref.text import Msg, Plural, and_join, join_words, upper_first

__all__ = ["TowerRules"]

_SOURCE_WORDS = {HAND: Msg("from hand"), UP: Msg("from face-up"), DOWN: Msg("blind")}
_NUMBER_WORDS = (
    Msg("no"), Msg("one"), Msg("two"), Msg("three"), Msg("four"), Msg("five"), Msg("six"),
    Msg("seven"), Msg("eight"), Msg("nine"), Msg("ten"),
)
_PLACE = {HAND: Msg("a hand card"), UP: Msg("a face-up card"), DOWN: Msg("a face-down card")}
_PLACE_OF = {HAND: Msg("from the hand"), UP: Msg("a face-up card"), DOWN: Msg("a face-down card")}


@dataclass
class _Piles:
    """Every seat's cards while a play is applied (lists, replaced seat by seat)."""

    hands: list[tuple[str, ...]]
    hand_unseen: list[int]
    ups: list[tuple[str, ...]]
    downs: list[tuple[str, ...]]
    down_unseen: list[int]


@dataclass
class _Landing:
    """The tower while a play lands on it: what it holds and makes, what leaves the game, what
    the engine says, the ruling applied, and whether a foundation is due next, the tower
    falls, or a last face-down -2 ends the round (U-16)."""

    tower: tuple[str, ...]
    threshold: int | None
    removed: tuple[str, ...]
    texts: list[str]
    rule: str | None = None
    founding: bool = False
    collapse: bool = False
    u16: bool = False


class TowerRules(RoundBase):
    """A turn's actions: plays, joins, passes, the dirty One, 'last card' (a mixin of
    `UpState`)."""

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
                "U-9", Msg("The dirty One is on for the whole evening already."), None, a
            )
        if self.variant.scoring != "points":
            raise IllegalMoveError(
                "U-9", Msg("The dirty One changes points: not with children's scoring."), None, a
            )
        if s.dirty_round:
            raise IllegalMoveError("U-9", Msg("The dirty One is announced already."), None, a)
        if a.seat != self.leader:
            raise IllegalMoveError(
                "U-9",
                Msg(
                    "Only {name}, who leads this round, may announce the dirty One.",
                    name=names[self.leader],
                ),
                None,
                a,
            )
        if s.started:
            raise IllegalMoveError(
                "U-9",
                Msg("The dirty One must be announced before the round's first card is played."),
                None,
                a,
            )
        text = Msg(
            "{name}: this round we play with the dirty One: every 1 counts 30 (U-9).", name=names[a.seat]
        )
        return _with(s, dirty_round=True, said=(Said("info", text, "U-9"),))

    def _call(self, s: _Core, a: Call) -> _Core:
        names = self._setup.players
        if s.call_due != a.seat or s.called:
            # a player whose next turn is skipped let the next card come first (too late, U-11);
            # any other owes no call: it is due only when a play leaves one card (U-6)
            late = isinstance(a.seat, int) and 0 <= a.seat < len(s.skip) and s.skip[a.seat]
            raise IllegalMoveError(
                "U-11" if late else "U-6",
                Msg("No 'last card' call is due from {name} now.", name=self._who(a.seat)),
                None,
                a,
            )
        text: str = Msg("{name} calls 'last card' (U-6).", name=names[a.seat])
        if s.passed_over == a.seat:
            # the turn came back to a.seat before anyone else's card: called in time, it is
            # a.seat's turn after all (U-20)
            text += " " + Msg(
                "It came before {other}'s card: {name}'s turn is not skipped after all (U-20).",
                other=names[s.to_move],
                name=names[a.seat],
            )
            return _with(
                s, called=True, passed_over=None, to_move=a.seat,
                said=(Said("play", text, "U-20"),),
            )
        return _with(s, called=True, said=(Said("play", text, "U-6"),))

    def _pass(self, s: _Core, a: Pass) -> _Core:
        names = self._setup.players
        seat = a.seat
        self._may_pass(s, a)
        said = self._penalty(s, seat)
        if s.hand_unseen[seat]:
            why = Msg(
                "{cannot} (the referee cannot see {name}'s hand: it takes {name}'s word).",
                cannot=cannot_start(names[seat]),
                name=names[seat],
            )
        elif not s.first_done[seat] and not s.hands[seat]:
            why = Msg(
                "{cannot}: an empty hand in the first turn (U-12).", cannot=cannot_start(names[seat])
            )
        else:
            why = Msg("{cannot}: only -2 cards.", cannot=cannot_start(names[seat]))
        said.append(Said("play", why, "pass"))
        passes = s.passes + 1
        first_done = _set(s.first_done, seat, True)
        if passes >= self.num_players():
            core = _with(
                s, first_done=first_done, passes=passes, call_due=None, called=False, last=None
            )
            said.append(
                Said(
                    "end",
                    Msg(
                        "Nobody can start a tower: round {round} ends with nobody out (blocked).",
                        round=self._setup.round,
                    ),
                    "pass",
                )
            )
            return self._end_round(_with(core, said=tuple(said)), None, 0)
        skip = list(s.skip)
        for p in self._skipped_by(s, seat):
            skip[p] = True
        debtor = seat if s.call_due == seat and not s.called else None
        nxt, skip2, notes, passed = self._next_seat(seat, tuple(skip), debtor)
        said.extend(notes)
        said.append(Said("play", Msg("{name} lays the foundation.", name=names[nxt]), "pass"))
        return _with(
            s,
            to_move=nxt,
            founding=True,
            first_done=first_done,
            skip=skip2,
            passes=passes,
            call_due=s.call_due if s.call_due == seat else None,
            called=s.called if s.call_due == seat else False,
            passed_over=passed,
            last=None,
            turn=s.turn + 1,
            said=tuple(said),
        )

    def _may_pass(self, s: _Core, a: Pass) -> None:
        """A pass is only for a player who cannot lay a foundation: no card but -2 cards in
        the hand or (after the first turn) the face-up cards, and no face-down card to turn."""
        names = self._setup.players
        seat = a.seat
        self._check_turn(s, seat, a)
        if not s.founding:
            raise IllegalMoveError(
                "pass",
                Msg("A tower is standing: every card may be played on it (a higher one brings it down)."),
                None,
                a,
            )
        hand_ok = [c for c in s.hands[seat] if self._cards.card(c).kind != MINUS2]
        up_ok = [c for c in s.ups[seat] if self._cards.card(c).kind != MINUS2] if s.first_done[seat] else []
        if hand_ok or up_ok:
            can = (
                Msg("{name} can start a tower with a card from the hand.", name=names[seat])
                if hand_ok
                else Msg("{name} can start a tower with a card from the face-up cards.", name=names[seat])
            )
            raise IllegalMoveError(
                "pass",
                can,
                None,
                a,
            )
        if self.may_play_blind(seat):
            raise IllegalMoveError(
                "pass",
                Msg("{name} can turn a face-down card as the foundation.", name=names[seat]),
                None,
                a,
            )

    def _join(self, s: _Core, a: Join) -> _Core:
        names = self._setup.players
        last = s.last
        if last is None or last.seat != a.seat:
            who = self._who(a.seat)
            raise IllegalMoveError(
                "join",
                Msg(
                    "There is no play of {name}'s to add a card to now: several equal cards are "
                    "added right after the first, before anyone else plays.",
                    name=who,
                ),
                _take_back(who, 1) + ".",
                a,
            )
        if last.source == DOWN:
            raise IllegalMoveError(
                "U-4",
                Msg("Blind cards are played one at a time: no card joins a face-down card."),
                _take_back(names[a.seat], 1) + ".",
                a,
            )
        if a.card in last.cards:
            raise IllegalMoveError("join", Msg("That card is part of the play already."), None, a)
        base = last.base
        self._in_deck(a.card, a)
        where, owner = self._locate(base, a.card)
        source = where if where in (HAND, UP, DOWN) and owner == a.seat else HAND if where == "unseen" else None
        if source is not None and source != last.source:
            raise IllegalMoveError(
                "U-15",
                Msg(
                    "Cards played together come from one source: this card is {source}, the play "
                    "{other}.",
                    source=_SOURCE_WORDS[source],
                    other=_SOURCE_WORDS[last.source],
                ),
                _take_back(names[a.seat], 1) + ".",
                a,
            )
        core = self._play(base, Play(a.seat, last.source, (*last.cards, a.card)))
        # the skip the play earned a forgetful player, and the skipped turns as the turn passed,
        # were said with the play already (a joined card changes neither)
        repeat = {"penalty"} if s.founding else {"penalty", "skip"}
        said = [x for x in core.said if x.kind not in repeat]
        for i, x in enumerate(said):
            if x.kind == "play":
                said[i] = replace(
                    x,
                    text=Msg("{name} adds a card to the play: {play}", name=names[a.seat], play=x.text),
                )
                break
        return _with(core, said=tuple(said))

    def _play(self, s: _Core, a: Play) -> _Core:
        cards = self._equal_cards(s, a)
        self._check_play_source(s, a, cards)
        # --- it is legal: apply ---
        seat = a.seat
        before = _holding(s, seat)
        said = self._penalty(s, seat)
        skip = list(s.skip)
        for p in self._skipped_by(s, seat):
            skip[p] = True
        piles = self._taken_from_source(s, a)
        land = _Landing(s.tower, s.threshold, s.removed, [self._play_words(s, a, cards)])
        self._land(s, a, cards, before, piles, land)
        core = _with(
            s,
            hands=tuple(piles.hands),
            hand_unseen=tuple(piles.hand_unseen),
            ups=tuple(piles.ups),
            downs=tuple(piles.downs),
            down_unseen=tuple(piles.down_unseen),
            tower=land.tower,
            threshold=land.threshold,
            removed=land.removed,
            skip=tuple(skip),
            started=True,
            passes=0,
            call_due=s.call_due if s.call_due == seat else None,
            called=s.called if s.call_due == seat else False,
            passed_over=None,
        )
        said.append(Said("play", join_words(" ", land.texts), land.rule))
        return self._after_play(s, a, cards[0], core, land, said)

    def _equal_cards(self, s: _Core, a: Play) -> list[Card]:
        """The play's cards, once it is the player's turn, the source is one of the three, it is
        not several face-down cards (U-4) and the cards are of this game, different and of equal
        value (several disposal cards too, U-18).

        :raises IllegalMoveError: ("turn", "source", "U-12", "U-4", "deck", "equal") when they
            are not.
        """
        self._check_turn(s, a.seat, a)
        if a.source not in SOURCES:
            raise IllegalMoveError(
                "source", Msg("No source {source} (hand, up, down).", source=repr(a.source)), None, a
            )
        if not a.cards or len(set(a.cards)) != len(a.cards):
            raise IllegalMoveError("source", Msg("A play is one or more different cards."), None, a)
        if a.source == DOWN and len(a.cards) > 1:
            # refused before anything is read off the cards: their values are face down (U-4)
            self._check_first_turn(s, a)
            raise IllegalMoveError(
                "U-4", Msg("Blind cards are played one at a time."), _back_to(self._who(a.seat), DOWN), a
            )
        for cid in a.cards:
            self._in_deck(cid, a)
        cards = [self._cards.card(c) for c in a.cards]
        back = _take_back(self._who(a.seat), len(cards))
        # equal value (U-15 is about the source; different values are simply not allowed)
        kinds = {c.kind for c in cards}
        if len(kinds) > 1 or (NUMBER in kinds and len({c.value for c in cards}) > 1):
            raise IllegalMoveError(
                "equal",
                Msg(
                    "Cards played together must have the same value: {faces} do not.",
                    faces=and_join([face_words(c.face) for c in cards]),
                ),
                back + ".",
                a,
            )
        return cards

    def _check_play_source(self, s: _Core, a: Play, cards: list[Card]) -> None:
        """The source is allowed now: the hand only in a first turn (U-12), face-down cards
        once the face-up ones are gone (U-14; one at a time, U-4, is checked before), each card
        where the play says, and no -2 to start a tower (U-2).

        :raises IllegalMoveError: naming the rule broken.
        """
        seat = a.seat
        name = self._who(seat)
        self._check_first_turn(s, a)
        if a.source == DOWN:
            if s.ups[seat]:
                raise IllegalMoveError(
                    "U-14",
                    Msg(
                        "Face-down cards come only once all four face-up cards are played: {name} "
                        "still has {n} face up.",
                        name=name,
                        n=len(s.ups[seat]),
                    ),
                    _back_to(name, DOWN),
                    a,
                )
        self._check_source(s, seat, a, _take_back(name, len(cards)))
        if cards[0].kind == MINUS2 and s.founding and a.source != DOWN:
            raise IllegalMoveError(
                "U-2",
                Msg(
                    "A -2 cannot start a tower: it needs a number to lower. Lay a number card (or "
                    "a disposal card)."
                ),
                _back_to(name, a.source, len(cards)),
                a,
            )

    def _check_first_turn(self, s: _Core, a: Play) -> None:
        """:raises IllegalMoveError: ("U-12") for a face-up or face-down card in the player's
        first turn of the round."""
        if a.source == HAND or s.first_done[a.seat]:
            return
        name = self._who(a.seat)
        raise IllegalMoveError(
            "U-12",
            Msg(
                "In {name}'s first turn of the round every card comes from the hand, also a new "
                "foundation: no face-up card yet.",
                name=name,
            )
            if a.source == UP
            else Msg(
                "In {name}'s first turn of the round every card comes from the hand, also a new "
                "foundation: no face-down card yet.",
                name=name,
            ),
            _back_to(name, a.source),
            a,
        )

    def _taken_from_source(self, s: _Core, a: Play) -> _Piles:
        """Every seat's cards once the play's cards have left their source (an unseen hand or
        face-down card leaves a count)."""
        seat = a.seat
        piles = _Piles(
            list(s.hands), list(s.hand_unseen), list(s.ups), list(s.downs), list(s.down_unseen)
        )
        if a.source == HAND:
            known = [c for c in a.cards if c in s.hands[seat]]
            piles.hands[seat] = tuple(c for c in s.hands[seat] if c not in a.cards)
            piles.hand_unseen[seat] -= len(a.cards) - len(known)
        elif a.source == UP:
            piles.ups[seat] = tuple(c for c in s.ups[seat] if c not in a.cards)
        elif a.cards[0] in s.downs[seat]:
            piles.downs[seat] = tuple(c for c in s.downs[seat] if c != a.cards[0])
        else:
            piles.down_unseen[seat] -= 1
        return piles

    def _play_words(self, s: _Core, a: Play, cards: list[Card]) -> str:
        """'Ann plays two 7s from hand.', 'Ann turns a face-down card as the foundation: 9.'"""
        names = self._setup.players
        seat = a.seat
        kind = cards[0].kind
        if a.source == DOWN:
            face = Msg("the disposal card") if kind == DISPOSAL else cards[0].face
            if s.founding:
                return Msg(
                    "{name} turns a face-down card as the foundation: {face}.", name=names[seat], face=face
                )
            return Msg("{name} turns a face-down card: {face}.", name=names[seat], face=face)
        what = _count_face(len(cards), cards[0])
        if s.founding and kind == NUMBER:
            return Msg(
                "{name} plays {what} {source} as the foundation.",
                name=names[seat],
                what=what,
                source=_SOURCE_WORDS[a.source],
            )
        return Msg("{name} plays {what} {source}.", name=names[seat], what=what, source=_SOURCE_WORDS[a.source])

    def _land(
        self, s: _Core, a: Play, cards: list[Card], before: int, piles: _Piles, land: _Landing
    ) -> None:
        """What the cards do on the tower: a last face-down -2 counts as played (U-16), a
        disposal card clears the tower, a -2 lowers it (U-1; a face-down one as a foundation
        goes into the hand, U-2), a number keeps it standing or brings it down."""
        names = self._setup.players
        seat = a.seat
        kind = cards[0].kind
        blind = a.source == DOWN
        if blind and kind == MINUS2 and before == 1 and (s.founding or (s.threshold or 0) - 2 < 1):
            # U-16: the very last card is a face-down -2 that cannot be played here: played anyway
            land.tower = (*land.tower, *a.cards)
            land.texts.append(
                Msg(
                    "It cannot be played here, but it was {name}'s very last card: it counts as "
                    "played (U-16).",
                    name=names[seat],
                )
            )
            land.rule, land.u16 = "U-16", True
        elif kind == DISPOSAL:
            self._land_disposal(a, land)
        elif kind == MINUS2 and s.founding:
            # a blind -2 turned as a foundation goes into the hand (U-2)
            piles.hands[seat] = self._sorted((*piles.hands[seat], *a.cards))
            land.texts.append(
                Msg(
                    "A -2 cannot start a tower (U-2): {name} takes it into hand and lays another card.",
                    name=names[seat],
                )
            )
            land.rule, land.founding = "U-2", True
        elif kind == MINUS2:
            _land_minus2(s, a, cards, land)
        else:
            _land_number(s, cards[0], a, land)
        if land.collapse:
            taken = (*land.tower, *a.cards)
            piles.hands[seat] = self._sorted((*piles.hands[seat], *taken))
            land.texts.append(
                Msg(
                    "{name} takes {n} cards and lays a new foundation; the next player plays on it "
                    "(U-13).",
                    name=names[seat],
                    n=len(taken),
                )
            )
            land.rule = land.rule or "U-13"
            land.tower, land.threshold, land.founding = (), None, True

    def _land_disposal(self, a: Play, land: _Landing) -> None:
        """Disposal cards (one, or several together, U-18): the tower and the cards leave the
        game; the player starts again."""
        name = self._setup.players[a.seat]
        blind = a.source == DOWN
        k = len(a.cards)
        if land.tower:
            land.texts.append(
                Msg(
                    "Disposal: the tower is out of the game ({n} cards); {name} starts again (U-18).",
                    n=len(land.tower) + k,
                    name=name,
                )
                if k > 1
                else Msg(
                    "Disposal: the tower is out of the game ({n} cards); {name} starts again.",
                    n=len(land.tower) + k,
                    name=name,
                )
            )
            land.rule = "U-18" if k > 1 else None
        elif k > 1:
            land.texts.append(
                Msg(
                    "Disposal on an empty tower: only the {k} disposal cards leave the game; {name} "
                    "starts again (U-18).",
                    k=_number_word(k),
                    name=name,
                )
            )
            land.rule = "U-18"
        else:
            land.texts.append(
                Msg(
                    "Disposal on an empty tower: only the disposal card leaves the game; {name} "
                    "starts again (U-5).",
                    name=name,
                )
                if blind
                else Msg(
                    "Disposal on an empty tower: only the disposal card leaves the game; {name} "
                    "starts again.",
                    name=name,
                )
            )
            land.rule = "U-5" if blind else None
        land.removed = (*land.removed, *land.tower, *a.cards)
        land.tower, land.threshold, land.founding = (), None, True

    def _after_play(
        self, s: _Core, a: Play, card: Card, core: _Core, land: _Landing, said: list[Said]
    ) -> _Core:
        """After the cards have landed: the round ends when the player has none left; else the
        play may be joined, 'last card' falls due (U-6), and the turn passes on (after a
        foundation laid on a fallen or cleared tower it stays: U-13 says who plays next)."""
        names = self._setup.players
        seat = a.seat
        after = _holding(core, seat)
        if land.u16 or after == 0:
            return self._played_out(a, card, core, said)
        # a Join may add to this play (and is refused when it may not: a face-down card, U-4)
        last = _Last(seat, a.source, tuple(a.cards), _with(s, last=None))
        call_due, called = core.call_due, core.called
        reminder: list[Said] = []
        if after == 1:
            call_due, called = seat, False
            reminder.append(
                Said(
                    "call",
                    Msg(
                        "{name} has one card left: 'last card' is due, before the next player's "
                        "card (U-6).",
                        name=names[seat],
                    ),
                    "U-6",
                )
            )
        elif call_due == seat:
            call_due, called = None, False
        if land.founding:
            return _with(
                core, founding=True, to_move=seat, last=last, call_due=call_due, called=called,
                said=(*said, *reminder),
            )
        debtor = seat if call_due == seat and not called else None
        nxt, skip2, notes, passed = self._next_seat(seat, core.skip, debtor)
        if notes:
            said.extend(notes)
        else:
            said[-1] = replace(said[-1], text=said[-1].text + " " + Msg("{name}'s turn.", name=names[nxt]))
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
            passed_over=passed,
            turn=core.turn + 1,
            said=tuple(said),
        )

    def _played_out(self, a: Play, card: Card, core: _Core, said: list[Said]) -> _Core:
        """The player has played every card: the round ends, with the finisher's bonus (U-17)."""
        seat = a.seat
        blind_minus2 = a.source == DOWN and card.kind == MINUS2
        name, round_ = self._setup.players[seat], self._setup.round
        # children count cards or tokens: no bonus, not even for a face-down -2 (U-19)
        bonus_words = blind_minus2 and self.variant.scoring == "points"
        if bonus_words:
            end = Msg(
                "{name} has played every card: round {round} is over, with the finisher's bonus "
                "of {bonus} for a face-down -2 (U-17).",
                name=name,
                round=round_,
                bonus=BONUS_BLIND_MINUS2,
            )
        else:
            end = Msg("{name} has played every card: round {round} is over.", name=name, round=round_)
        said.append(Said("end", end, "U-17" if bonus_words else None))
        return self._end_round(
            _with(core, said=tuple(said)),
            seat,
            BONUS_BLIND_MINUS2 if blind_minus2 else BONUS,
        )

    def _check_turn(self, s: _Core, seat: int, a: Action) -> None:
        if not (isinstance(seat, int) and 0 <= seat < self.num_players()):
            raise IllegalMoveError("turn", Msg("There is no seat {seat}.", seat=repr(seat)), None, a)
        if seat != s.to_move:
            names = self._setup.players
            args = {"name": names[s.to_move], "other": names[seat]}
            raise IllegalMoveError(
                "turn",
                Msg("It is {name}'s turn to lay the foundation, not {other}'s.", **args)
                if s.founding
                else Msg("It is {name}'s turn to play, not {other}'s.", **args),
                _take_back(names[seat], 1) + ".",
                a,
            )

    def _check_source(self, s: _Core, seat: int, a: Play, back: str) -> None:
        """Each card is where the play says (known there, or unseen with room for it)."""
        unseen_needed = 0
        for cid in a.cards:
            where, owner = self._locate(s, cid)
            if where == a.source and owner == seat:
                continue
            if where == "unseen" and a.source in (HAND, DOWN):
                unseen_needed += 1
                continue
            raise self._not_there(seat, a, back, cid, where, owner)
        if unseen_needed:
            self._check_unseen(s, seat, a, back, unseen_needed)

    def _not_there(
        self, seat: int, a: Play, back: str, cid: str, where: str, owner: int | None
    ) -> IllegalMoveError:
        """Why card `cid` of a play is not where the play says (it is `where`, `owner`'s)."""
        name = self._who(seat)
        c = self._cards.card(cid)
        face = Msg("disposal card") if c.kind == DISPOSAL else c.face
        if where in (HAND, UP, DOWN) and owner == seat:
            text: str = Msg(
                "That {face} is {place} of {name}'s, not {source}.",
                face=face,
                place=_PLACE[where],
                name=name,
                source=_PLACE_OF[a.source],
            )
            if len(a.cards) > 1:
                text += " " + Msg("Cards played together come from one source.")
            return IllegalMoveError("U-15" if len(a.cards) > 1 else "source", text, back + ".", a)
        if where == UP:
            assert owner is not None
            other = self._who(owner)
            return IllegalMoveError(
                "turn",
                Msg("That {face} is one of {other}'s face-up cards, not {name}'s.", face=face, other=other, name=name),
                Msg("Put the {face} back among {other}'s face-up cards.", face=face, other=other),
                a,
            )
        if where in ("tower", "removed"):
            return IllegalMoveError(
                "count",
                Msg("That {face} is on the tower by the referee's count.", face=face)
                if where == "tower"
                else Msg("That {face} is out of the game (disposal) by the referee's count.", face=face),
                None if where == "tower" else Msg("Put it back with the cards out of the game."),
                a,
            )
        if a.source == UP:
            return IllegalMoveError(
                "source",
                Msg("That {face} is not one of {name}'s face-up cards.", face=face, name=name),
                back + ".",
                a,
            )
        return IllegalMoveError(
            "count",
            Msg("That {face} cannot come from {name}'s hand: the referee has it elsewhere.", face=face, name=name)
            if a.source == HAND
            else Msg(
                "That {face} cannot come from {name}'s face-down cards: the referee has it elsewhere.",
                face=face,
                name=name,
            ),
            back + ".",
            a,
        )

    def _check_unseen(self, s: _Core, seat: int, a: Play, back: str, unseen_needed: int) -> None:
        """Cards the referee has not seen played from a hand or the face-down cards: room?"""
        name = self._who(seat)
        room = s.hand_unseen[seat] if a.source == HAND else s.down_unseen[seat]
        if unseen_needed > room:
            hand = a.source == HAND
            if not (room or (s.hands[seat] if hand else s.downs[seat])):
                have = (
                    Msg("{name} has no hand cards left", name=name)
                    if hand
                    else Msg("{name} has no face-down cards left", name=name)
                )
            elif hand:
                have = Plural(
                    "{name} holds only {n} hand card the referee has not seen",
                    "{name} holds only {n} hand cards the referee has not seen",
                    n=room,
                    name=name,
                )
            else:
                have = Plural(
                    "{name} holds only {n} face-down card the referee has not seen",
                    "{name} holds only {n} face-down cards the referee has not seen",
                    n=room,
                    name=name,
                )
            raise IllegalMoveError(
                "count" if room else "source",
                Msg("{have}: that play does not add up.", have=have),
                back + ".",
                a,
            )

    def _penalty(self, s: _Core, seat: int) -> list[Said]:
        """A 'last card' call owed by another player and not made before this play: that
        player's next turn is skipped (U-11), unless the turn has passed over it for that call
        already (U-20)."""
        p = self._skipped_by_one(s, seat)
        if p is None:
            return []
        names = self._setup.players
        return [
            Said(
                "penalty",
                Msg(
                    "{name} did not call 'last card' before {other}'s card: {skipped}",
                    name=names[p],
                    other=names[seat],
                    skipped=turn_skipped(names[p]),
                ),
                "U-11",
            )
        ]

    def _skipped_by_one(self, s: _Core, seat: int) -> int | None:
        if s.call_due is not None and s.call_due != seat and not s.called:
            return None if s.passed_over == s.call_due else s.call_due
        return None

    def _skipped_by(self, s: _Core, seat: int) -> list[int]:
        p = self._skipped_by_one(s, seat)
        return [] if p is None else [p]

    def _next_seat(
        self, seat: int, skip: tuple[bool, ...], debtor: int | None = None
    ) -> tuple[int, tuple[bool, ...], list[Said], int | None]:
        """The next player clockwise after `seat`, passing over (and clearing) skipped turns;
        and the seat whose turn it passed over for `debtor`, who owes 'last card' and has not
        called it, when the turn comes back to `debtor` before anyone else's card (U-20)."""
        names = self._setup.players
        n = self.num_players()
        sk = list(skip)
        nxt = (seat + 1) % n
        skipped: list[str] = []
        passed: int | None = None
        for _ in range(n + 2):
            if sk[nxt]:
                sk[nxt] = False
                skipped.append(names[nxt])
            elif nxt == debtor and passed is None:
                passed = nxt
            else:
                break
            nxt = (nxt + 1) % n
        if not skipped:
            return nxt, tuple(sk), [], passed
        who = and_join(skipped)
        if passed is None:
            text = (
                Msg("{who}'s turn is skipped (U-11): {name}'s turn.", who=who, name=names[nxt])
                if len(skipped) == 1
                else Msg("{who}'s turns are skipped (U-11): {name}'s turn.", who=who, name=names[nxt])
            )
            return nxt, tuple(sk), [Said("skip", text, "U-11")], None
        skip_words = (
            Msg("{who}'s turn is skipped (U-11).", who=who)
            if len(skipped) == 1
            else Msg("{who}'s turns are skipped (U-11).", who=who)
        )
        text = skip_words + " " + Msg(
            "{debtor} has not called 'last card' and would play next: {debtor}'s turn is skipped "
            "too, unless {debtor} calls before {name}'s card (U-20). {name}'s turn.",
            debtor=names[passed],
            name=names[nxt],
        )
        return nxt, tuple(sk), [Said("skip", text, "U-20")], passed


def _land_minus2(s: _Core, a: Play, cards: list[Card], land: _Landing) -> None:
    """k -2 cards lower the tower by 2k; below 1 it falls (U-1)."""
    assert s.threshold is not None
    k = len(cards)
    what = upper_first(_count_face(k, cards[0]))
    t = s.threshold - 2 * k
    args = {"what": what, "on": s.threshold, "t": t}
    if t < 1:
        land.texts.append(
            Msg("{what} on {on} makes {t}, below 1 (U-1): the tower falls.", **args)
            if k == 1
            else Msg("{what} on {on} make {t}, below 1 (U-1): the tower falls.", **args)
        )
        land.rule, land.collapse = "U-1", True
    else:
        land.texts.append(
            Msg("{what} on {on} makes {t}: the tower stands at {t}, {t} or lower to play.", **args)
            if k == 1
            else Msg("{what} on {on} make {t}: the tower stands at {t}, {t} or lower to play.", **args)
        )
        land.tower, land.threshold = (*land.tower, *a.cards), t
        land.rule = "U-1" if k > 1 else None


def _land_number(s: _Core, card: Card, a: Play, land: _Landing) -> None:
    """A number starts a tower, keeps it standing (its value or lower) or brings it down."""
    v = card.value
    if s.founding:
        land.tower, land.threshold = tuple(a.cards), v
        land.texts.append(Msg("{v} or lower to play.", v=v))
    elif s.threshold is not None and v <= s.threshold:
        land.tower, land.threshold = (*land.tower, *a.cards), v
        land.texts.append(Msg("{v} on {on}: {v} or lower to play.", v=v, on=s.threshold))
    else:
        land.texts.append(Msg("{v} on {on} is higher, so the tower falls.", v=v, on=s.threshold))
        land.collapse = True


def _take_back(name: str, k: int) -> str:
    """'Ann: take the cards back' (without a full stop)."""
    if k > 1:
        return Msg("{name}: take the cards back", name=name)
    return Msg("{name}: take the card back", name=name)


def _count_face(k: int, card: Card) -> str:
    """'7', 'two 7s', '-2', 'two -2', 'the disposal card', 'two disposal cards'."""
    if card.kind == DISPOSAL and k == 1:
        return Msg("the disposal card")
    if k == 1:
        return card.face
    word = _number_word(k)
    if card.kind == DISPOSAL:
        return Msg("{k} disposal cards", k=word)
    if card.kind == NUMBER:
        return Msg("{k} {face}s", k=word, face=card.face)
    return Msg("{k} {face}", k=word, face=card.face)


def _number_word(k: int) -> str:
    """'two', 'three' ... 'ten', then digits."""
    return _NUMBER_WORDS[k] if k < len(_NUMBER_WORDS) else str(k)


def _back_to(name: str, source: str, k: int = 1) -> str:
    if source == UP:
        if k > 1:
            return Msg("{name}: put the cards back face up.", name=name)
        return Msg("{name}: put the card back face up.", name=name)
    if source == DOWN:
        if k > 1:
            return Msg("{name}: turn the card face down again and put them back.", name=name)
        return Msg("{name}: turn the card face down again and put it back.", name=name)
    if k > 1:
        return Msg("{name}: take the cards back into your hand.", name=name)
    return Msg("{name}: take the card back into your hand.", name=name)
