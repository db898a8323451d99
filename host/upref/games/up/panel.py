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
from upref.games.up.words import counts_cards, faces_words
from upref.text import Msg, Plural, and_join, join_words
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

_UNITS = {"points": Msg("points"), "cards": Msg("cards"), "tokens": Msg("tokens")}


def _faces(faces: Sequence[str]) -> str:
    return faces_words(faces)


def face_of(face: str) -> Face:
    """A card's face as the drawing shows it: a number ('11'), the -2 card, the disposal card
    (the big arrows). Up's sets differ in colour only, which no rule looks at: none is drawn."""
    if face == "-2":
        return Face("-2", symbol="minus2")
    if face == "disposal":
        return Face(Msg("disposal"), symbol="disposal")
    return Face(face)


_A_CARD = "a card"
_TOWER = Msg("Tower:") + " "
_OWES = Msg("owes 'last card'")
_SKIPS = Msg("skips next turn")
_WENT_OUT = Msg("went out")
_FIRST_TURN = Msg("1st turn: hand only")


def _backs(n: int) -> tuple[Card, ...]:
    return tuple(Card(None) for _ in range(n))


class UpPanel:
    """The Up panel (`upref.views.scoreboard.Panel`)."""

    title = "Up"

    def header(self, view: UpView) -> str:
        names = view.names
        parts: list[str] = [Msg("Round {round} ({variant})", round=view.round, variant=view.variant)]
        if view.evening > 1:
            parts[0] = Msg(
                "Evening {evening}, round {round} ({variant})",
                evening=view.evening,
                round=view.round,
                variant=view.variant,
            )
        parts.append(Msg("{name} deals", name=names[view.dealer]))
        if view.dirty_announced:
            parts.append(Msg("dirty One this round (1 counts 30)"))
        parts.append(Plural("{n} card out of the game", "{n} cards out of the game", n=view.removed))
        return join_words(" · ", parts)

    def turn(self, view: UpView) -> str | None:
        names = view.names
        if view.phase == "over":
            return Msg("The evening is over.") if self._evening_over(view) else Msg("Round over.")
        if view.phase == "cut":
            return Msg("{cutter} cuts; {dealer} deals.", cutter=names[view.cutter], dealer=names[view.dealer])
        if view.phase == "deal" and view.deal_next is not None:
            k = view.dealt // len(names) + 1
            return Msg("Dealing: {name}'s face-up card {k} of 4 is tapped next.", name=names[view.deal_next], k=k)
        if view.phase == "count" and view.counting is not None:
            return Msg("The count: {what}", what=counts_cards(names[view.counting]))
        if view.to_move is None:
            return None
        who = names[view.to_move]
        if view.founding:
            return Msg("{name}'s turn: lay a foundation.", name=who)
        return Msg("{name}'s turn: play {n} or lower.", name=who, n=view.to_beat)

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
                    Span(Msg("LAST CARD") + " ", ILLEGAL),
                    " "
                    + Msg(
                        "{name} holds one card and owes 'last card': the button, before the next card.",
                        name=name,
                    ),
                )
            )
        skipped = [p.name for p in view.players if p.skip]
        if skipped:
            blocks.append(
                line(
                    Msg("Skipped next turn (forgot 'last card'): {names}.", names=and_join(skipped)),
                    meaning=STRONG,
                )
            )
        table = self._evening(view)
        if table is not None:
            how = {
                "points": Msg("(points; lowest total wins; -10 or -80: went out, the bonus):"),
                "cards": Msg("(cards; lowest total wins; 0: went out):"),
                "tokens": Msg("(tokens; most wins; +1: went out, a token):"),
            }[view.scoring]
            blocks.append(line(Span(Msg("The evening"), STRONG), " " + how))
            blocks.append(table)
            if any(any(r.typed) for r in view.table):
                blocks.append(line(Msg("* points typed in by hand at the count, not checked"), meaning=DIM))
        if view.up300:
            top = max(range(len(view.names)), key=lambda p: view.totals[p])
            blocks.append(
                line(
                    Msg(
                        "Up300: the evening ends after the round in which a total passes {limit} "
                        "(highest now: {name} {total}).",
                        limit=UP300,
                        name=view.names[top],
                        total=view.totals[top],
                    ),
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
            head: str = Msg(
                "Stopped: {result}",
                result=evening_result(names, out.winners, out.scores, view.scoring, lead=True),
            )
        else:
            last = view.table[-1] if view.table else None
            if last is not None and last.finisher is not None:
                head = Msg("Round {round}: {name} went out", round=last.round, name=names[last.finisher])
            else:
                head = Msg("Round {round}: nobody could start a tower (blocked)", round=view.round)
            if self._evening_over(view):  # the evening's winner is the headline, the round after
                details.append(head + ".")
                head = evening_result(names, out.winners, out.scores, view.scoring)
        totals = ", ".join(f"{n} {t}" for n, t in zip(names, out.scores, strict=True))
        details.append(Msg("Totals ({unit}): {totals}", unit=_UNITS[view.scoring], totals=totals))
        return result_box(head, *details)

    def footer(self, view: UpView) -> Sequence[Block]:
        return ()

    def scrub(self, text: str) -> str:
        """Blank out card ids: a public text names cards by their face only."""
        return _card_id().sub(_A_CARD, text)

    def drawing(self, view: UpView) -> Drawing:
        """The table as it lies: the tower (top last) with the number to beat, the players in
        their order with their hand and face-down cards as backs with counts and their face-up
        cards drawn, the cards out of the game, and over an evening each player's total round
        by round. Only the public view goes in: hands and face-down cards are counts."""
        caption: str = Msg("tower")
        if not view.tower and view.phase == "play" and view.to_move is not None:
            caption = Msg("tower: empty, {name} lays a foundation", name=view.names[view.to_move])
        over = view.phase == "over"  # nothing is to beat once the round is over
        to_beat = None if view.to_beat is None or not view.tower or over else str(view.to_beat)
        pieces: list[Piece] = [
            Tower(tuple(Card(face_of(f)) for f in view.tower), to_beat, caption),
            self._seats(view),
            Big(Msg("cards out of the game"), str(view.removed)),
        ]
        if view.table:
            series = tuple(
                Series(name, tuple(r.totals[p] for r in view.table))
                for p, name in enumerate(view.names)
            )
            pieces.append(Chart(series, caption=Msg("the evening: totals in {unit}", unit=_UNITS[view.scoring])))
        return Drawing(tuple(pieces), title=Msg("The table"))

    def private(self, view: UpView) -> Sequence[Block]:
        """The seat's own cards: the hand (as far as the referee has seen it), the face-up
        cards, how many lie face down, and a reminder when 'last card' is owed.

        :raises ValueError: for a view that is not one seat's own.
        """
        if view.seat is None:
            raise ValueError("the private panel needs one seat's view, UpState.view(seat)")
        me = view.players[view.seat]
        title = Msg("{name} — your cards (keep them to yourself)", name=me.name)
        hand = _faces(view.own_hand) or (
            Msg("empty") if me.hand == 0 else Msg("no card the referee has seen")
        )
        if view.own_unseen:
            hand += " " + Plural(
                "(and {n} card the referee has not seen)",
                "(and {n} cards the referee has not seen)",
                n=view.own_unseen,
            )
        lines = [
            line(Span(Msg("Hand:") + " ", STRONG), Span(hand, HIDDEN)),
            line(Span(Msg("Face up:") + " ", STRONG), _faces(me.up) or Msg("none")),
            line(Span(Msg("Face down:") + " ", STRONG), Msg("{n} (nobody knows them)", n=me.down)),
        ]
        if me.owes_call:
            lines.append(line(Msg("You hold one card: press the button for 'last card'!"), meaning=ILLEGAL))
        hand_row = Row(
            tuple(Card(face_of(f)) for f in view.own_hand) + _backs(view.own_unseen),
            caption=Msg("your hand"),
            note=Msg("{n} the referee has not seen", n=view.own_unseen) if view.own_unseen else None,
            overlap=len(view.own_hand) + view.own_unseen > 6,
        )
        mine = Drawing(
            (
                hand_row,
                Row(tuple(Card(face_of(f)) for f in me.up), caption=Msg("face up")),
                Row(_backs(me.down), caption=Msg("face down"), note=str(me.down)),
            ),
            title=Msg("Your cards"),
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
            badges: list[str] = [Msg("total {n}", n=p.total)]
            if p.owes_call:
                badges.append(_OWES)
            if p.skip:
                badges.append(_SKIPS)
            if p.out:
                badges.append(_WENT_OUT)
            if view.phase == "play" and p.first_turn and not p.out:
                badges.append(_FIRST_TURN)
            rows = (
                Row(_backs(p.hand), caption=Msg("hand"), note=str(p.hand), overlap=True),
                Row(tuple(Card(face_of(f)) for f in p.up), caption=Msg("face up")),
                Row(_backs(p.down), caption=Msg("face down"), note=str(p.down)),
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
                    Span(_TOWER, STRONG),
                    Msg("empty — {name} lays a foundation", name=view.names[view.to_move]),
                )
            return line(Span(_TOWER, STRONG), Msg("empty"))
        if view.to_beat is None or view.phase == "over":  # (or a last face-down -2 emptied it)
            return line(Span(_TOWER, STRONG), _faces(view.tower))
        return line(
            Span(_TOWER, STRONG),
            _faces(view.tower),
            "   ",
            Span(Msg("to beat: {n} or lower", n=view.to_beat), STRONG),
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
                    doing.append(Msg("lays a foundation") if view.founding else Msg("to play"))
                elif view.phase == "deal":
                    doing.append(Msg("face-up card next"))
                elif view.phase == "count":
                    doing.append(Msg("taps remaining cards"))
                elif view.phase == "cut":
                    doing.append("")
            if view.phase == "cut" and p.seat == view.cutter:
                doing.append(Msg("cuts"))
            if p.out:
                doing.append(_WENT_OUT)
                meaning = WINNER
            elif over and p.seat in winners and self._evening_over(view):
                doing.append(Msg("wins the evening"))
                meaning = WINNER
            if p.owes_call:
                doing.append(_OWES)
            if p.skip:
                doing.append(_SKIPS)
            if view.phase == "play" and p.first_turn and not p.out:
                doing.append(_FIRST_TURN)
            mark = "▶" if meaning == TURN else ("★" if meaning == WINNER else "")
            rows.append(
                (
                    Span(mark),
                    Span(p.name, meaning),
                    Span(str(p.hand), HIDDEN),
                    Span(_faces(p.up) or "-"),
                    Span(str(p.down), HIDDEN),
                    Span(str(p.total)),
                    Span(join_words(", ", [d for d in doing if d]), meaning),
                )
            )
        columns = (
            Column("", width=1),
            Column(Msg("Player")),
            Column(Msg("Hand"), "right"),
            Column(Msg("Face up")),
            Column(Msg("Down"), "right"),
            Column(Msg("Total"), "right"),
            Column(Msg("Now"), grow=True),
        )
        return Sheet(columns, tuple(rows))

    def _evening(self, view: UpView) -> Sheet | None:
        if not view.table:
            return None
        names = view.names
        columns = (Column(Msg("Round")),) + tuple(Column(n, "right") for n in names)
        rows: list[tuple[Span, ...]] = []
        for r in view.table:
            rows.append((Span(str(r.round)), *(self._cell(view, r, p) for p in range(len(names)))))
        rows.append(
            (Span(Msg("Total"), STRONG), *(Span(str(t), STRONG) for t in view.table[-1].totals))
        )
        return Sheet(columns, tuple(rows))

    @staticmethod
    def _cell(view: UpView, r: RoundScore, p: int) -> Span:
        pts = r.points[p]
        if p == r.finisher:  # the bonus (points), 0 (cards) or the token won
            return Span(f"{pts:+d}" if view.scoring != "cards" else "0", WINNER)
        return Span(f"{pts}{'*' if r.typed[p] else ''}")


PANEL = UpPanel()
