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
from upref.games.up.words import counts_cards
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
    Line,
    Sheet,
    Span,
    line,
)
from upref.views.pieces import (
    Big,
    Card,
    Chart,
    Drawing,
    Face,
    Piece,
    Row,
    Seat,
    Seats,
    Series,
    Tower,
)
from upref.views.scoreboard import result_box

__all__ = ["PANEL", "UpPanel", "face_of"]



@cache
def _card_id() -> re.Pattern[str]:
    """A card id of the packaged catalogue's sets ('B7', 'C-2', 'AD'; not a ruling like U-2)."""
    sets = "".join(load_catalogue().sets)
    return re.compile(rf"\b[{sets}](?:1[01]|[1-9]|-2|D)\b")

_UNITS = {"points": "point", "cards": "card", "tokens": "token"}


def _faces(faces: Sequence[str]) -> str:
    return " · ".join(faces)


def face_of(face: str) -> Face:
    """A card's face as the drawing shows it: a number ('11'), the -2 card, the disposal card
    (the big arrows). Up's sets differ in colour only, which no rule looks at: none is drawn."""
    if face == "-2":
        return Face("-2", symbol="minus2")
    if face == "disposal":
        return Face("disposal", symbol="disposal")
    return Face(face)


def _backs(n: int) -> tuple[Card, ...]:
    return tuple(Card(None) for _ in range(n))


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
            return f"The count: {counts_cards(names[view.counting])}"
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
            if self._evening_over(view):  # the evening's winner is the headline, the round after
                details.append(head + ".")
                head = evening_result(names, out.winners, out.scores, view.scoring)
        unit = _UNITS[view.scoring]
        totals = ", ".join(f"{n} {t}" for n, t in zip(names, out.scores, strict=True))
        details.append(f"Totals ({unit}s): {totals}")
        return result_box(head, *details)

    def footer(self, view: UpView) -> Sequence[Block]:
        return ()

    def scrub(self, text: str) -> str:
        """Blank out card ids: a public text names cards by their face only."""
        return _card_id().sub("a card", text)

    def drawing(self, view: UpView) -> Drawing:
        """The table as it lies: the tower (top last) with the number to beat, the players in
        their order with their hand and face-down cards as backs with counts and their face-up
        cards drawn, the cards out of the game, and over an evening each player's total round
        by round. Only the public view goes in: hands and face-down cards are counts."""
        caption = "tower"
        if not view.tower and view.phase == "play" and view.to_move is not None:
            caption = f"tower: empty, {view.names[view.to_move]} lays a foundation"
        over = view.phase == "over"  # nothing is to beat once the round is over
        to_beat = None if view.to_beat is None or not view.tower or over else str(view.to_beat)
        pieces: list[Piece] = [
            Tower(tuple(Card(face_of(f)) for f in view.tower), to_beat, caption),
            self._seats(view),
            Big("cards out of the game", str(view.removed)),
        ]
        if view.table:
            series = tuple(
                Series(name, tuple(r.totals[p] for r in view.table))
                for p, name in enumerate(view.names)
            )
            pieces.append(Chart(series, caption=f"the evening: totals in {view.scoring}"))
        return Drawing(tuple(pieces), title="The table")

    def private(self, view: UpView) -> Sequence[Block]:
        """The seat's own cards: the hand (as far as the referee has seen it), the face-up
        cards, how many lie face down, and a reminder when 'last card' is owed.

        :raises ValueError: for a view that is not one seat's own.
        """
        if view.seat is None:
            raise ValueError("the private panel needs one seat's view, UpState.view(seat)")
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
        hand_row = Row(
            tuple(Card(face_of(f)) for f in view.own_hand) + _backs(view.own_unseen),
            caption="your hand",
            note=f"{view.own_unseen} the referee has not seen" if view.own_unseen else None,
            overlap=len(view.own_hand) + view.own_unseen > 6,
        )
        mine = Drawing(
            (
                hand_row,
                Row(tuple(Card(face_of(f)) for f in me.up), caption="face up"),
                Row(_backs(me.down), caption="face down", note=str(me.down)),
            ),
            title="Your cards",
        )
        blocks: tuple[Line | Sheet | Drawing, ...] = (*lines, mine)
        return (Box(blocks, title, HIDDEN),)

    # --- parts --------------------------------------------------------------------------------

    def _seats(self, view: UpView) -> Seats:
        """The players in their order (turns go clockwise): each one's hand as backs with its
        count, face-up cards drawn, face-down cards as backs with their count, and badges for
        the total and what is owed."""
        over = view.phase == "over"
        winners = view.outcome.winners if view.outcome is not None else ()
        seats = []
        for p in view.players:
            badges = [f"total {p.total}"]
            if p.owes_call:
                badges.append("owes 'last card'")
            if p.skip:
                badges.append("skips next turn")
            if p.out:
                badges.append("went out")
            if view.phase == "play" and p.first_turn and not p.out:
                badges.append("1st turn: hand only")
            rows = (
                Row(_backs(p.hand), caption="hand", note=str(p.hand), overlap=True),
                Row(tuple(Card(face_of(f)) for f in p.up), caption="face up"),
                Row(_backs(p.down), caption="face down", note=str(p.down)),
            )
            won = p.out or (over and p.seat in winners and self._evening_over(view))
            seats.append(Seat(p.seat, p.name, tuple(badges), rows, won))
        to_move = None if over else view.to_move
        return Seats(tuple(seats), to_move, "cw")

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
        if view.to_beat is None or view.phase == "over":  # (or a last face-down -2 emptied it)
            return line(Span("Tower: ", STRONG), _faces(view.tower))
        return line(
            Span("Tower: ", STRONG),
            _faces(view.tower),
            "   ",
            Span(f"to beat: {view.to_beat} or lower", STRONG),
        )

    def _players(self, view: UpView) -> Sheet:
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
        return Sheet(columns, tuple(rows))

    def _evening(self, view: UpView) -> Sheet | None:
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
        return Sheet(columns, tuple(rows))

    @staticmethod
    def _cell(view: UpView, r: RoundScore, p: int) -> Span:
        pts = r.points[p]
        if p == r.finisher:  # the bonus (points), 0 (cards) or the token won
            return Span(f"{pts:+d}" if view.scoring != "cards" else "0", WINNER)
        return Span(f"{pts}{'*' if r.typed[p] else ''}")


PANEL = UpPanel()
