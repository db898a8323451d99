"""Up's end of a round: who went out, the count of the cards still held (observed rounds: the
players tap what the referee has not seen, or type in its points), the round's scores, the
evening's totals (never below 0, U-7) and the end of the evening (Up300, U-8, or its last round).
"""

from __future__ import annotations

from collections.abc import Sequence

from upref.games.base import IllegalMoveError, Outcome
from upref.games.base import Termination as BaseTermination
from upref.games.up.actions import Points, Reveal
from upref.games.up.cards import Card
from upref.games.up.state import RoundBase, Said, _Core, _holding, _set, _unseen, _with
from upref.games.up.variant import UP300, card_points
from upref.games.up.view import RoundScore
from upref.games.up.words import face_words
from upref.text import Msg, Plural, and_join, join_words

__all__ = [
    "BONUS",
    "BONUS_BLIND_MINUS2",
    "EVENING_OVER",
    "ScoringRules",
    "Termination",
    "evening_result",
    "evening_winners",
]

BONUS = 10
"""The finisher's bonus, taken off their total."""
BONUS_BLIND_MINUS2 = 80
"""The finisher's bonus after going out with a face-down -2 (U-17)."""


class Termination(BaseTermination):
    """Why a round ended (`Outcome.termination`): a player went out, nobody could start a
    tower, the evening ended (Up300 passed, or its last round played), or it was stopped."""

    OUT = "out"
    BLOCKED = "blocked"
    UP300 = "up300"
    ROUNDS = "rounds"
    STOPPED = "stopped"


EVENING_OVER = (Termination.UP300, Termination.ROUNDS)


class ScoringRules(RoundBase):
    """The end of a round, the count and the scores (a mixin of `UpState`)."""

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

    def _end_round(self, s: _Core, finisher: int | None, bonus: int) -> _Core:
        """The round ends: score it, or (observed, points) count the unseen cards first."""
        core = _with(
            s,
            finisher=finisher,
            bonus=bonus if self.variant.scoring == "points" else 0,
            call_due=None,
            called=False,
            passed_over=None,
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
                Plural(
                    "The count: each player still holding cards taps them (hand and face-down; "
                    "the face-up ones are known). {name} first: {n} card not seen yet.",
                    "The count: each player still holding cards taps them (hand and face-down; "
                    "the face-up ones are known). {name} first: {n} cards not seen yet.",
                    n=_unseen(core, nxt),
                    name=names[nxt],
                ),
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
        self._check_counting(s, a)
        if isinstance(a, Points):
            core, said = self._typed_points(s, a)
        else:
            core, said = self._tapped_card(s, a)
        return self._counted(core, a.seat, said)

    def _check_counting(self, s: _Core, a: Reveal | Points) -> None:
        """:raises IllegalMoveError: ("count") when there is no count now, or another seat is
        being counted."""
        names = self._setup.players
        if s.phase != "count":
            raise IllegalMoveError(
                "count", Msg("There is no count now: {what}", what=self._waiting_words(s)), None, a
            )
        if a.seat != s.counting:
            assert s.counting is not None
            raise IllegalMoveError(
                "count",
                Msg(
                    "{name}'s cards are being counted, not {other}'s.",
                    name=names[s.counting],
                    other=self._who(a.seat),
                ),
                None,
                a,
            )

    def _typed_points(self, s: _Core, a: Points) -> tuple[_Core, list[Said]]:
        """The points of the seat's untapped cards, typed in by hand."""
        names = self._setup.players
        seat = a.seat
        if isinstance(a.points, bool) or not isinstance(a.points, int) or a.points < 0:
            raise IllegalMoveError(
                "count",
                Msg("Points are a whole number, 0 or more, not {points}.", points=repr(a.points)),
                None,
                a,
            )
        typed = _set(s.typed, seat, a.points)
        n_unseen = _unseen(s, seat)
        said: list[Said] = [
            Said(
                "info",
                Msg(
                    "{cards}: {points}",
                    cards=Plural(
                        "{name}'s {n} untapped card", "{name}'s {n} untapped cards", n=n_unseen, name=names[seat]
                    ),
                    points=Plural(
                        "{n} point, counted by hand (the referee cannot check them).",
                        "{n} points, counted by hand (the referee cannot check them).",
                        n=a.points,
                    ),
                ),
                "count",
            )
        ]
        return _with(s, typed=typed), said

    def _tapped_card(self, s: _Core, a: Reveal) -> tuple[_Core, list[Said]]:
        """One of the seat's remaining cards, tapped: into the hand while the referee has hand
        cards unseen, then among the face-down cards."""
        names = self._setup.players
        seat = a.seat
        self._in_deck(a.card, a)
        where, owner = self._locate(s, a.card)
        card = self._cards.card(a.card)
        if where != "unseen":
            if owner == seat:
                raise IllegalMoveError(
                    "count",
                    Msg("That {face} of {name}'s is counted already.", face=face_words(card.face), name=names[seat]),
                    None,
                    a,
                )
            raise IllegalMoveError(
                "count",
                Msg(
                    "That {face} cannot be {name}'s: the referee has it {where}.",
                    face=face_words(card.face),
                    name=names[seat],
                    where=self._place_words(where, owner),
                ),
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
        said = [Said("play", _count_words(names[seat], card, card_points(card, self.dirty()),
                                          _unseen(core, seat)))]
        return core, said

    def _counted(self, core: _Core, seat: int, said: list[Said]) -> _Core:
        """After a count step: the same seat taps on, the next seat counts, or the round is
        scored."""
        names = self._setup.players
        if _unseen(core, seat) and core.typed[seat] is None:
            return _with(core, said=tuple(said))
        nxt = self._next_to_count(core, seat)
        core = _with(core, turn=core.turn + 1)
        if nxt is None:
            return self._score(_with(core, said=tuple(said)))
        said.append(
            Said(
                "info",
                Plural(
                    "{name}'s turn to tap: {n} card not seen yet.",
                    "{name}'s turn to tap: {n} cards not seen yet.",
                    n=_unseen(core, nxt),
                    name=names[nxt],
                ),
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
        text = self._score_text(s, points, totals)
        termination = Termination.BLOCKED if s.finisher is None else Termination.OUT
        winners: tuple[int, ...] = () if s.finisher is None else (s.finisher,)
        ended: str = ""
        if self.variant.up300 and any(t > UP300 for t in totals):
            over = [names[p] for p in range(n) if totals[p] > UP300]
            termination = Termination.UP300
            ended = Msg(
                "Up300: {names} passed {limit} (U-8): the evening is over.", names=and_join(over), limit=UP300
            )
        elif self.variant.rounds is not None and st.round >= self.variant.rounds:
            termination = Termination.ROUNDS
            ended = Msg(
                "That was round {round} of {rounds}: the evening is over.",
                round=st.round,
                rounds=self.variant.rounds,
            )
        rule = "U-7" if any(st.totals[p] + points[p] < 0 for p in range(n)) else None
        said = [*s.said, Said("end", text, rule)]
        if ended:
            winners = evening_winners(totals, scoring)
            said.append(
                Said(
                    "end",
                    Msg(
                        "{ended} {result}.", ended=ended, result=evening_result(names, winners, totals, scoring)
                    ),
                    "U-8" if termination == Termination.UP300 else None,
                )
            )
        else:
            said.append(
                Said("end", Msg("Next round: {name} deals (key n).", name=names[(st.dealer + 1) % n]))
            )
        outcome = Outcome(termination, winners, totals)
        return _with(
            s, phase="over", counting=None, outcome=outcome, said=tuple(said)
        )

    def _score_text(self, s: _Core, points: tuple[int, ...], totals: tuple[int, ...]) -> str:
        """'Round 2 scored: Ann went out: −10 (78 → 68); Bob 12 points (40 in all).'"""
        st = self._setup
        names = st.players
        scoring = self.variant.scoring
        parts: list[str] = []
        for p in range(self.num_players()):
            if scoring == "tokens":
                if p == s.finisher:
                    parts.append(Msg("{name} wins a token ({total} in all)", name=names[p], total=totals[p]))
                continue
            if p == s.finisher:
                parts.append(self._finisher_words(s, p, points[p], totals[p]))
                continue
            parts.append(_points_words(names[p], points[p], totals[p], scoring, s.typed[p] is not None))
        return Msg("Round {round} scored: {parts}.", round=st.round, parts=join_words("; ", parts))

    def _finisher_words(self, s: _Core, p: int, points: int, total: int) -> str:
        """'Ann went out: −10 (78 → 68)', 'Ann went out: 0 (12 in all)'."""
        st = self._setup
        name = st.players[p]
        if self.variant.scoring != "points":
            return Msg("{name} went out: 0 ({total} in all)", name=name, total=total)
        args = {"name": name, "bonus": s.bonus, "before": st.totals[p], "total": total}
        if st.totals[p] + points < 0:
            return Msg("{name} went out: −{bonus} ({before} → {total}, never below 0: U-7)", **args)
        return Msg("{name} went out: −{bonus} ({before} → {total})", **args)


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
    if not winners:
        return Msg("no winner: nobody has scored yet")
    best = totals[winners[0]]
    who = and_join([names[w] for w in winners])
    amount = _amount(best, scoring)
    if len(winners) == 1:
        if lead:
            return Msg("{who} leads the evening with {amount}", who=who, amount=amount)
        return Msg("{who} wins the evening with {amount}", who=who, amount=amount)
    if lead:
        return Msg("{who} share the lead of the evening with {amount} each", who=who, amount=amount)
    return Msg("{who} share the evening with {amount} each", who=who, amount=amount)


def _amount(n: int, scoring: str) -> str:
    """'45 points', '3 cards', '1 token': a score after 'with'."""
    if scoring == "cards":
        return Plural("{n} card", "{n} cards", n=n)
    if scoring == "tokens":
        return Plural("{n} token", "{n} tokens", n=n)
    return Plural("{n} point", "{n} points", n=n)


def _points_words(name: str, points: int, total: int, scoring: str, typed: bool) -> str:
    """A player's points of a round: 'Bob 12 points (40 in all)', '… 12 points typed in …'."""
    args = {"n": points, "name": name, "total": total}
    if scoring == "cards":
        return Plural("{name} {n} card ({total} in all)", "{name} {n} cards ({total} in all)", **args)
    if typed:
        return Plural(
            "{name} {n} point typed in ({total} in all)", "{name} {n} points typed in ({total} in all)", **args
        )
    return Plural("{name} {n} point ({total} in all)", "{name} {n} points ({total} in all)", **args)


def _count_words(name: str, card: Card, points: int, left: int) -> str:
    """One card tapped at the count, in words a player reads: what it costs, and what is still
    to tap ("Cy's -2 counts 20 minus points; all of Cy's cards are counted.")."""
    face = Msg("disposal card") if card.face == "disposal" else card.face
    then = (
        Msg("all of {name}'s cards are counted", name=name)
        if left == 0
        else Plural("{name} has {n} more card to tap", "{name} has {n} more cards to tap", n=left, name=name)
    )
    return Msg(
        "{counts}; {then}.",
        counts=Plural(
            "{name}'s {face} counts {n} minus point",
            "{name}'s {face} counts {n} minus points",
            n=points,
            name=name,
            face=face,
        ),
        then=then,
    )
