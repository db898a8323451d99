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
from upref.text import and_join, count, plural

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
                "count", f"There is no count now: {self._waiting_words(s)}", None, a
            )
        if a.seat != s.counting:
            assert s.counting is not None
            raise IllegalMoveError(
                "count",
                f"{names[s.counting]}'s cards are being counted, not {self._who(a.seat)}'s.",
                None,
                a,
            )

    def _typed_points(self, s: _Core, a: Points) -> tuple[_Core, list[Said]]:
        """The points of the seat's untapped cards, typed in by hand."""
        names = self._setup.players
        seat = a.seat
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
        text = self._score_text(s, points, totals)
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

    def _score_text(self, s: _Core, points: tuple[int, ...], totals: tuple[int, ...]) -> str:
        """'Round 2 scored: Ann went out: −10 (78 → 68); Bob 12 points (40 in all).'"""
        st = self._setup
        names = st.players
        scoring = self.variant.scoring
        parts: list[str] = []
        for p in range(self.num_players()):
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
        return f"Round {st.round} scored: " + "; ".join(parts) + "."


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
        return "no winner: nobody has scored yet"
    best = totals[winners[0]]
    unit = {"points": "point", "cards": "card", "tokens": "token"}[scoring]
    who = and_join([names[w] for w in winners])
    amount = f"{best} {plural(best, unit)}"
    if len(winners) == 1:
        return f"{who} {'leads' if lead else 'wins'} the evening with {amount}"
    return f"{who} share {'the lead of ' if lead else ''}the evening with {amount} each"


def _count_words(name: str, card: Card, points: int, left: int) -> str:
    """One card tapped at the count, in words a player reads: what it costs, and what is still
    to tap ("Cy's -2 counts 20 minus points; all of Cy's cards are counted.")."""
    face = card.face if card.face != "disposal" else "disposal card"
    then = (
        f"all of {name}'s cards are counted"
        if left == 0
        else f"{name} has {count(left, 'more card')} to tap"
    )
    return f"{name}'s {face} counts {count(points, 'minus point')}; {then}."
