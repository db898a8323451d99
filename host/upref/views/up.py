"""Up's panel of the scoreboard: the tower and the number to beat, each player's cards by source
(hand count, the face-up cards themselves, face-down count), who owes "last card", whose turn it
is and who is skipped, and the evening's score table round by round (with the Up300 line when
it is on); and a player's own screen with their hand.

Hidden information never gets in: the public view holds no hand card and no face-down card
(counts only; the engine's contract), and `scrub` blanks out any card id a text from elsewhere
might carry.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from upref.games.up.cards import load_catalogue
from upref.games.up.scoring import EVENING_OVER, Termination, evening_result
from upref.games.up.variant import UP300
from upref.games.up.view import RoundScore, UpView
from upref.text import and_join, count
from upref.views.blocks import (
    DIM,
    HIDDEN,
    ILLEGAL,
    STRONG,
    TURN,
    WINNER,
    Block,
    Box,
    Column,
    Span,
    Table,
    line,
)
from upref.views.scoreboard import result_box

__all__ = ["PANEL", "UpPanel"]



@cache
def _card_id() -> re.Pattern[str]:
    """A card id of the packaged catalogue's sets ('B7', 'C-2', 'AD'; not a ruling like U-2)."""
    sets = "".join(load_catalogue().sets)
    return re.compile(rf"\b[{sets}](?:1[01]|[1-9]|-2|D)\b")

_UNITS = {"points": "point", "cards": "card", "tokens": "token"}


def _faces(faces: Sequence[str]) -> str:
    return " · ".join(faces)


class UpPanel:
    """The Up panel (`upref.views.scoreboard.Panel`)."""

    title = "Up"

    def header(self, view: UpView) -> str:
        names = view.names
        parts = [f"Round {view.round} ({view.variant})"]
        if view.evening > 1:
            parts[0] = f"Evening {view.evening}, round {view.round} ({view.variant})"
        parts.append(f"{names[view.dealer]} deals")
        if view.dirty_announced:
            parts.append("dirty One this round (1 counts 30)")
        parts.append(f"{count(view.removed, 'card')} out of the game")
        return " · ".join(parts)

    def turn(self, view: UpView) -> str | None:
        names = view.names
        if view.phase == "over":
            return "The evening is over." if self._evening_over(view) else "Round over."
        if view.phase == "cut":
            return f"{names[view.cutter]} cuts; {names[view.dealer]} deals."
        if view.phase == "deal" and view.deal_next is not None:
            k = view.dealt // len(names) + 1
            return f"Dealing: {names[view.deal_next]}'s face-up card {k} of 4 is tapped next."
        if view.phase == "count" and view.counting is not None:
            return f"The count: {names[view.counting]} taps the remaining cards."
        if view.to_move is None:
            return None
        who = names[view.to_move]
        if view.founding:
            return f"{who}'s turn: lay a foundation."
        return f"{who}'s turn: play {view.to_beat} or lower."

    def body(self, view: UpView) -> Sequence[Block]:
        blocks: list[Block] = [self._tower(view)]
        status = self.turn(view)
        if status:
            blocks.append(line(status, meaning=STRONG))
        blocks.append(self._players(view))
        if view.call_due is not None:
            name = view.names[view.call_due]
            blocks.append(
                line(
                    Span("LAST CARD ", ILLEGAL),
                    f" {name} holds one card and owes 'last card': the button, before the next "
                    "card.",
                )
            )
        skipped = [p.name for p in view.players if p.skip]
        if skipped:
            blocks.append(
                line(f"Skipped next turn (forgot 'last card'): {and_join(skipped)}.", meaning=STRONG)
            )
        table = self._evening(view)
        if table is not None:
            unit = _UNITS[view.scoring]
            best = "most" if view.scoring == "tokens" else "lowest total"
            gone = {
                "points": "-10 or -80: went out, the bonus",
                "cards": "0: went out",
                "tokens": "+1: went out, a token",
            }[view.scoring]
            blocks.append(
                line(Span("The evening", STRONG), f" ({unit}s; {best} wins; {gone}):")
            )
            blocks.append(table)
            if any(any(r.typed) for r in view.table):
                blocks.append(line("* points typed in by hand at the count, not checked", meaning=DIM))
        if view.up300:
            top = max(range(len(view.names)), key=lambda p: view.totals[p])
            blocks.append(
                line(
                    f"Up300: the evening ends after the round in which a total passes {UP300} "
                    f"(highest now: {view.names[top]} {view.totals[top]}).",
                    meaning=DIM,
                )
            )
        return blocks

    def result(self, view: UpView) -> Box | None:
        out = view.outcome
        if out is None:
            return None
        names = view.names
        details: list[str] = []
        if out.termination == Termination.STOPPED:
            head = "Stopped: " + evening_result(
                names, out.winners, out.scores, view.scoring, lead=True
            )
        else:
            last = view.table[-1] if view.table else None
            if last is not None and last.finisher is not None:
                head = f"Round {last.round}: {names[last.finisher]} went out"
            else:
                head = f"Round {view.round}: nobody could start a tower (blocked)"
            if self._evening_over(view):
                details.append(evening_result(names, out.winners, out.scores, view.scoring) + ".")
        unit = _UNITS[view.scoring]
        totals = ", ".join(f"{n} {t}" for n, t in zip(names, out.scores, strict=True))
        details.append(f"Totals ({unit}s): {totals}")
        return result_box(head, *details)

    def footer(self, view: UpView) -> Sequence[Block]:
        return ()

    def scrub(self, text: str) -> str:
        """Blank out card ids: a public text names cards by their face only."""
        return _card_id().sub("a card", text)

    def private(self, view: UpView) -> Sequence[Block]:
        """The seat's own cards: the hand (as far as the referee has seen it), the face-up
        cards, how many lie face down, and a reminder when 'last card' is owed.

        :raises ValueError: for a view that is not one seat's own.
        """
        if view.seat is None:
            raise ValueError("the private panel needs one seat's view, UpGame.view(seat)")
        me = view.players[view.seat]
        title = f"{me.name} — your cards (keep them to yourself)"
        hand = _faces(view.own_hand) or ("empty" if me.hand == 0 else "no card the referee has seen")
        if view.own_unseen:
            hand += f" (and {count(view.own_unseen, 'card')} the referee has not seen)"
        lines = [
            line(Span("Hand: ", STRONG), Span(hand, HIDDEN)),
            line(Span("Face up: ", STRONG), _faces(me.up) or "none"),
            line(Span("Face down: ", STRONG), f"{me.down} (nobody knows them)"),
        ]
        if me.owes_call:
            lines.append(line("You hold one card: press the button for 'last card'!", meaning=ILLEGAL))
        return (Box(tuple(lines), title, HIDDEN),)

    # --- parts --------------------------------------------------------------------------------

    @staticmethod
    def _evening_over(view: UpView) -> bool:
        return view.outcome is not None and view.outcome.termination in EVENING_OVER

    def _tower(self, view: UpView) -> Block:
        if not view.tower:
            if view.phase == "play" and view.to_move is not None:
                return line(
                    Span("Tower: ", STRONG),
                    f"empty — {view.names[view.to_move]} lays a foundation",
                )
            return line(Span("Tower: ", STRONG), "empty")
        if view.to_beat is None:  # (a last face-down -2 ended the round on an empty tower)
            return line(Span("Tower: ", STRONG), _faces(view.tower))
        return line(
            Span("Tower: ", STRONG),
            _faces(view.tower),
            "   ",
            Span(f"to beat: {view.to_beat} or lower", STRONG),
        )

    def _players(self, view: UpView) -> Table:
        rows = []
        over = view.phase == "over"
        winners = view.outcome.winners if view.outcome is not None else ()
        for p in view.players:
            doing: list[str] = []
            meaning: str | None = None
            if not over and p.seat == view.to_move:
                meaning = TURN
                if view.phase == "play":
                    doing.append("lays a foundation" if view.founding else "to play")
                elif view.phase == "deal":
                    doing.append("face-up card next")
                elif view.phase == "count":
                    doing.append("taps remaining cards")
                elif view.phase == "cut":
                    doing.append("")
            if view.phase == "cut" and p.seat == view.cutter:
                doing.append("cuts")
            if p.out:
                doing.append("went out")
                meaning = WINNER
            elif over and p.seat in winners and self._evening_over(view):
                doing.append("wins the evening")
                meaning = WINNER
            if p.owes_call:
                doing.append("owes 'last card'")
            if p.skip:
                doing.append("skips next turn")
            if view.phase == "play" and p.first_turn and not p.out:
                doing.append("1st turn: hand only")
            mark = "▶" if meaning == TURN else ("★" if meaning == WINNER else "")
            rows.append(
                (
                    Span(mark),
                    Span(p.name, meaning),
                    Span(str(p.hand), HIDDEN),
                    Span(_faces(p.up) or "-"),
                    Span(str(p.down), HIDDEN),
                    Span(str(p.total)),
                    Span(", ".join(d for d in doing if d), meaning),
                )
            )
        columns = (
            Column("", width=1),
            Column("Player"),
            Column("Hand", "right"),
            Column("Face up"),
            Column("Down", "right"),
            Column("Total", "right"),
            Column("Now", grow=True),
        )
        return Table(columns, tuple(rows))

    def _evening(self, view: UpView) -> Table | None:
        if not view.table:
            return None
        names = view.names
        columns = (Column("Round"),) + tuple(Column(n, "right") for n in names)
        rows: list[tuple[Span, ...]] = []
        for r in view.table:
            rows.append((Span(str(r.round)), *(self._cell(view, r, p) for p in range(len(names)))))
        rows.append(
            (Span("Total", STRONG), *(Span(str(t), STRONG) for t in view.table[-1].totals))
        )
        return Table(columns, tuple(rows))

    @staticmethod
    def _cell(view: UpView, r: RoundScore, p: int) -> Span:
        pts = r.points[p]
        if p == r.finisher:  # the bonus (points), 0 (cards) or the token won
            return Span(f"{pts:+d}" if view.scoring != "cards" else "0", WINNER)
        return Span(f"{pts}{'*' if r.typed[p] else ''}")


PANEL = UpPanel()
