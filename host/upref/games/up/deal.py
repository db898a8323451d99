"""Up's cut and deal: the round about to be cut (the deck shuffled by the engine, or with the
dealer at the table), the cut card kept or not (a -2 or a disposal card; without -2 only a
disposal card, U-10), and the deal: all at once when the engine deals, or face-up card by
face-up card as the table taps them (observed rounds).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Self

from upref.games.base import IllegalMoveError
from upref.games.up.actions import Cut, DealUp
from upref.games.up.cards import DISPOSAL, MINUS2
from upref.games.up.state import FACE_DOWN, FACE_UP, RoundBase, Said, _Core, _Setup, _with
from upref.games.up.words import face_words
from upref.text import Msg

__all__ = ["DealRules"]


class DealRules(RoundBase):
    """The cut and the deal (a mixin of `UpState`)."""

    @classmethod
    def _deal(cls, setup: _Setup, rng: random.Random) -> Self:
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
        text = _round_words(setup, dealer, cutter, leader)
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
            passed_over=None,
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

    def _keepable(self, cid: str) -> bool:
        card = self._cards.get(cid)
        if card is None or cid not in self._setup.deck:
            return False
        return card.kind == DISPOSAL or (card.kind == MINUS2 and not self.variant.without_minus2)

    def _cut(self, s: _Core, a: Cut) -> _Core:
        if s.phase != "cut":
            raise IllegalMoveError("cut", Msg("The cut is over: the cards are dealt."), None, a)
        hands, kept_by, said = self._kept(s, a)
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
        return self._deal_all(s, a, hands, kept_by, said)

    def _kept(self, s: _Core, a: Cut) -> tuple[list[tuple[str, ...]], int | None, list[Said]]:
        """The cut card kept (into the cutter's hand) or none: the hands, who kept it, what the
        engine says."""
        names = self._setup.players
        cutter = self.cutter
        said: list[Said] = []
        hands = list(s.hands)
        kept_by = None
        if a.card is not None:
            card = self._cards.get(a.card)
            if card is not None and card.kind == MINUS2 and self.variant.without_minus2:
                raise IllegalMoveError(
                    "U-10",
                    Msg(
                        "Without -2 only a disposal card may be kept at the cut, and this game has "
                        "no -2 cards."
                    ),
                    Msg("Put the -2 card back in the box."),
                    a,
                )
            self._in_deck(a.card, a)
            assert card is not None
            if not self._keepable(a.card):
                keep = Msg("a disposal card (U-10)") if self.variant.without_minus2 else Msg("a -2 or a disposal card")
                face = face_words(card.face)
                raise IllegalMoveError(
                    "cut",
                    Msg("Only {keep} may be kept at the cut, not a {face}.", keep=keep, face=face),
                    Msg("{name}: put the {face} back into the deck.", name=names[cutter], face=face),
                    a,
                )
            if not self.observed and a.card != s.uncovered:
                raise IllegalMoveError(
                    "cut", Msg("That is not the card the cut uncovered."), None, a
                )
            if self._locate(s, a.card)[0] not in ("unseen", "stock"):
                raise IllegalMoveError("count", Msg("That card is already in play."), None, a)
            hands[cutter] = self._sorted((*hands[cutter], a.card))
            kept_by = cutter
            kept = Msg(
                "{name} keeps the cut {face} card (one hand card fewer).",
                name=names[cutter],
                face=face_words(card.face),
            )
            said.append(Said("play", kept))
        else:
            said.append(Said("play", Msg("{name} keeps no card from the cut.", name=names[cutter])))
        return hands, kept_by, said

    def _deal_all(
        self, s: _Core, a: Cut, hands: list[tuple[str, ...]], kept_by: int | None, said: list[Said]
    ) -> _Core:
        """Dealt by the engine: the whole deal at once, from the dealer's left, four face-down
        cards each, four face-up, then the hands (the keeper of a cut card one fewer)."""
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
        return Msg(
            "The deal is done. {name} leads: lay the first tower from your hand.",
            name=self._setup.players[self.leader],
        )

    def _check_deal_phase(self, s: _Core, a: DealUp) -> None:
        """:raises IllegalMoveError: ("deal") for a face-up card dealt before the cut or after
        the deal."""
        if s.phase == "cut":
            raise IllegalMoveError("deal", Msg("The cut comes first: keep a cut card or none."), None, a)
        if s.phase != "deal":
            raise IllegalMoveError("deal", Msg("The deal is over: the round is on."), None, a)

    def _deal_up(self, s: _Core, a: DealUp) -> _Core:
        names = self._setup.players
        if not self.observed:
            raise IllegalMoveError("deal", Msg("This round is dealt by the engine."), None, a)
        self._check_deal_phase(s, a)
        nxt = self.deal_next()
        assert nxt is not None
        if a.seat != nxt:
            other = self._who(a.seat)
            text = Msg("The next face-up card goes to {name}, not to {other}.", name=names[nxt], other=other)
            raise IllegalMoveError("deal", text, None, a)
        self._in_deck(a.card, a)
        where, seat = self._locate(s, a.card)
        if where != "unseen":
            raise IllegalMoveError(
                "deal",
                Msg("That card is already dealt ({where}).", where=self._place_words(where, seat)),
                None,
                a,
            )
        ups = list(s.ups)
        ups[nxt] = (*ups[nxt], a.card)
        face = face_words(self._cards.card(a.card).face)
        n = self.num_players()
        dealt = s.dealt_up + 1
        k = (dealt - 1) // n + 1
        text = Msg("{name}'s face-up card {k} of {total}: {face}.", name=names[nxt], k=k, total=FACE_UP, face=face)
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
        hand_unseen = tuple(hand - (1 if p == s.kept_by else 0) for p in range(n))
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


def _round_words(setup: _Setup, dealer: int, cutter: int, leader: int) -> str:
    """How a round begins: 'Round 2 (basic game): Cy deals, Bob cuts (…). Ann leads.', and at
    an observed table what to tap."""
    name = setup.players
    args = {
        "round": setup.round,
        "variant": setup.variant.describe(),
        "dealer": name[dealer],
        "cutter": name[cutter],
        "leader": name[leader],
    }
    if setup.variant.without_minus2:
        text: str = Msg(
            "Round {round} ({variant}): {dealer} deals, {cutter} cuts (a disposal card (U-10) "
            "uncovered may be kept). {leader} leads.",
            **args,
        )
    else:
        text = Msg(
            "Round {round} ({variant}): {dealer} deals, {cutter} cuts (a -2 or disposal card "
            "uncovered may be kept). {leader} leads.",
            **args,
        )
    if setup.observed:
        text += " " + Msg("Tap each face-up card as it is dealt, {leader}'s first.", leader=name[leader])
    return text
