"""Flip a Bird's panel of the scoreboard: the players with their hand sizes, won cards and running
scores; whose turn it is and the face their card must take; the row with backs for face-down
cards; the limit and the draw pile; at a claim the tips (none shown until all are in), the
evaluation card by card and the sharing; the result. And a player's own screen with the cards of
their hand the referee knows.

Hidden information never gets in: the public view holds no face-down card, no hand, no pile
order and no tip before all are in (the engine's contract); the texts from elsewhere (verdicts)
never name one either (the referee's contract), so `scrub` has nothing to blank out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from upref.games.base import Outcome
from upref.games.flipabird.view import RESULT, CardView, ClaimView, FlipView, RowView
from upref.games.flipabird.words import LAST_OF_PILE, birds, cards, colour_word
from upref.referee.status import SOLVED
from upref.text import Msg, Plural, and_join, join_words
from upref.views.blocks import (
    DIM,
    HIDDEN,
    STRONG,
    TURN,
    WINNER,
    Block,
    Box,
    Column,
    Line,
    Sheet,
    Span,
    colour,
    line,
)
from upref.views.pieces import Big, Card, CardMark, Drawing, Face, Piece, Row, Seat, Seats
from upref.views.scoreboard import STOPPED, earlier_games, result_box

__all__ = ["PANEL", "FlipPanel", "card_piece", "face_of", "tip_piece"]

_TERMINATIONS: Mapping[str, str] = {
    "claim": Msg("the final phase's claim was settled"),
    "no-claim": Msg("a player had no card and did not claim: the row was not evaluated (F-11)"),
    "stopped": STOPPED,
}
_COLOURS = ("blue", "green", "red", "yellow")
_MARKS: Mapping[str, str] = {"blue": "B", "green": "G", "red": "R", "yellow": "Y"}
"""The letter each colour carries on the drawing, so no one needs to tell colours apart."""


def card_span(card: CardView) -> Span:
    """A face-up card: its face in words, in its colour when it has one ('red 2')."""
    return Span(card.face, colour(card.colour) if card.colour else STRONG)


def short_face(card: CardView) -> str:
    """A card's face in a few letters, for the evaluation table: 'blue 2', 'no specials',
    'no neighbours', 'no red', 'red ×2'."""
    if card.kind == "bird":
        return card.face
    if card.kind == "no-specials":
        return Msg("no specials")
    if card.kind == "no-neighbours":
        return Msg("no neighbours")
    if card.kind == "colour-not":
        return Msg("no {colour}", colour=colour_word(str(card.colour)))
    return Msg("{colour} ×2", colour=colour_word(str(card.colour)))


def face_of(card: CardView) -> Face:
    """A face-up card as the drawing shows it: a bird card its birds (1 to 3) in their colour
    with the colour's letter; a special card its symbol, and its colour and letter when it has
    one ('no red', 'red ×2')."""
    mark = _MARKS.get(card.colour) if card.colour else None
    if card.kind == "bird":
        return Face(str(card.birds), card.colour, mark, "bird", card.birds)
    return Face(short_face(card), card.colour, mark, card.kind)


def card_piece(card: CardView, marks: tuple[CardMark, ...] = (), note: str | None = None) -> Card:
    """A face-up card as a piece, with its id (public once it lies face up)."""
    return Card(face_of(card), marks=marks, note=note, id=card.id)


def tip_piece(tip: str | None) -> Card:
    """A tip card in front of its player: its colour once public ('red' R, 'green' G), else its
    back."""
    if tip is None:
        return Card(None)
    return Card(Face(colour_word(tip), tip, _MARKS[tip], "tip"))


def won_words(cards: Sequence[CardView]) -> str:
    """'blue 2, green 1, red 3, 1 special' (bird cards per colour, then special cards)."""
    if not cards:
        return "-"
    per = {c: 0 for c in _COLOURS}
    specials = 0
    for c in cards:
        if c.kind == "bird" and c.colour in per:
            per[c.colour] += 1
        else:
            specials += 1
    parts = [colour_word(c) + f" {n}" for c, n in per.items() if n]
    if specials:
        parts.append(Plural("{n} special", "{n} specials", n=specials))
    return join_words(", ", parts)


def _tip_words(tip: str | None, tipped: bool) -> str:
    """A player's tip as the table sees it: its colour once public, 'in' once given, else '…'."""
    if tip:
        return colour_word(tip)
    return Msg("in") if tipped else "…"


class FlipPanel:
    """The Flip a Bird panel (`upref.views.scoreboard.Panel`)."""

    title = "Flip a Bird"
    labels = {SOLVED: Msg("CLAIM")}  # the feed's word for a claim's result, as the guide says

    def header(self, view: FlipView) -> str:
        parts = [Msg("Game {number} ({variant})", number=view.game_number, variant=view.variant)]
        parts.append(
            Msg("{players} players: a row may hold {limit} birds", players=len(view.names), limit=view.limit)
        )
        if view.final:
            parts.append(Msg("final phase: the pile is empty"))
        elif view.pile_top == "open":
            parts.append(Msg("pile {pile}, open cage on top", pile=view.pile))
        elif view.pile_top:
            parts.append(Msg("pile {pile}, covered cage on top", pile=view.pile))
        else:
            parts.append(Msg("pile {pile}", pile=view.pile))
        parts.append(Msg("pile scanned") if view.scanned else Msg("no pile scan"))
        return join_words(" · ", parts)

    def turn(self, view: FlipView) -> str | None:
        names = view.names
        if view.phase == "over":
            return Msg("Game over.")
        if view.to_move is None:
            return None
        name = names[view.to_move]
        c = view.claim
        if view.phase == "tips" and c is not None:
            missing = [
                p.name for p in view.players
                if not p.tipped and p.seat not in (c.claimant, c.accused)
            ]
            return Msg(
                "{claimant} claims against {accused}: tips from {missing}.",
                claimant=names[c.claimant],
                accused=names[c.accused],
                missing=and_join(missing),
            )
        if view.phase == "take":
            left = len(c.left) if c is not None else 0
            return Msg("{name}'s take: {cards} left.", name=name, cards=cards(left))
        if view.can_pass:
            return Msg("{name}'s turn: no card left — claim, or end the game (F-11).", name=name)
        face = self._face(view)
        if not view.row:
            return Msg("{name}'s turn: draw and play a card to start the row ({face}).", name=name, face=face)
        return Msg("{name}'s turn: claim, or draw and play ({face}).", name=name, face=face)

    @staticmethod
    def _face(view: FlipView) -> str:
        if view.face is False:
            return Msg("face down, final phase") if view.final else LAST_OF_PILE
        if view.scanned:
            return Msg("face up if the pile then shows an open cage, face down if covered")
        return Msg("face up only if an open cage is entered: o")

    def body(self, view: FlipView) -> Sequence[Block]:
        blocks: list[Block] = [self._players(view)]
        status = self.turn(view)
        if status:
            blocks.append(line(status, meaning=STRONG))
        if view.claim is not None:
            blocks.extend(self._claim(view, view.claim))
        else:
            blocks.append(self._row(view))
        return blocks

    def result(self, view: FlipView) -> Box | None:
        out = view.outcome
        if out is None:
            return None
        names = view.names
        why = _TERMINATIONS.get(out.termination, out.termination)
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, out.scores, strict=True))
        return result_box(
            self._describe(names, out), Msg("Game over: {why}.", why=why), Msg("Points: {scores}", scores=scores)
        )

    def footer(self, view: FlipView) -> Sequence[Block]:
        blocks: list[Block] = []
        if view.out or view.boxed:
            blocks.append(line(self._out_words(view), meaning=DIM))
        earlier = earlier_games(
            Msg("Earlier games: "), view.history, lambda o: self._describe(view.names, o)
        )
        if earlier is not None:
            blocks.append(earlier)
        if view.scanned:
            cannot = Msg(
                "The referee cannot see which way up a card lies (w: F-16) and who takes a card "
                "(each tap counts for the taker named)."
            )
        else:
            cannot = Msg(
                "The referee cannot see the pile's backs (o for an open cage), whether a card can "
                "be in its player's hand, which way up a card lies (w: F-16) and who takes a card "
                "(each tap counts for the taker named)."
            )
        blocks.append(line(cannot, meaning=DIM))
        return blocks

    @staticmethod
    def _out_words(view: FlipView) -> str:
        """'Out of the game: 3 cards (1 row removed by the all-face-up rule, F-9); 48 left in
        the box (short game).'"""
        text = Msg("Out of the game: {cards}", cards=cards(view.out))
        rows = len(view.removed_rows)
        if rows:
            removed = Plural(
                "{n} row removed by the all-face-up rule, F-9",
                "{n} rows removed by the all-face-up rule, F-9",
                n=rows,
            )
            text += " (" + removed + ")"
        if view.boxed:
            text += "; " + Msg("{n} left in the box (short game)", n=view.boxed)
        return text + "."

    def scrub(self, text: str) -> str:
        """Nothing to blank out: no verdict for the table names a secret card or tip."""
        return text

    def drawing(self, view: FlipView) -> Drawing:
        """The table as it lies: the players round it (their hands as backs, their won cards,
        their tip cards at a claim, face up once public), then the row (face-down cards as
        backs) or, at a claim, the claimed row; once the tips are all in, its evaluation on the
        cards themselves (a card taken out "struck", a colour counting double "doubled", a
        colour that does not count "faded", each card's birds under it) and the total against
        the limit. Only the public view goes in."""
        pieces: list[Piece] = [self._seats(view)]
        c = view.claim
        if c is None:
            pieces.append(self._row_piece(view))
            pieces.append(Big(Msg("pile"), Msg("empty") if view.final else str(view.pile)))
            pieces.append(Big(Msg("birds a row may hold"), str(view.limit)))
        elif c.evaluation is None:
            lying = tuple(self._lying(r, None) for r in c.row)
            note = Msg("{done} of {of} tips in; shown once all are in", done=c.tips_in, of=c.tips_of)
            pieces.append(Row(lying, caption=Msg("claimed row"), note=note))
            pieces.append(Big(Msg("birds a row may hold"), str(view.limit)))
        else:
            pieces.extend(self._evaluated(view, c))
        return Drawing(tuple(pieces), title=Msg("The table"))

    def private(self, view: FlipView) -> Sequence[Block]:
        """The seat's own screen: the cards of their hand the referee knows, how many it does
        not, and their tip at a claim.

        :raises ValueError: for a view that is not one seat's own.
        """
        if view.seat is None:
            raise ValueError("the private panel needs one seat's view, FlipABirdState.view(seat)")
        name = view.names[view.seat]
        title = Msg("{name} — your hand (keep it to yourself)", name=name)
        lines: list[Line | Sheet | Drawing] = []
        hand = view.hand or ()
        if hand:
            spans: list[str | Span] = [Msg("Drawn: ")]
            for i, c in enumerate(hand):
                if i:
                    spans.append(", ")
                spans += [f"{c.id} ", card_span(c)]
            lines.append(line(*spans))
        if view.hand_unknown:
            if view.scanned:
                unknown = Msg(
                    "{cards} dealt to you at the start that the referee does not know (it learns "
                    "each one when it is played).",
                    cards=cards(view.hand_unknown),
                )
            else:
                unknown = Msg(
                    "{cards} in your hand that the referee does not know (it learns each one when "
                    "it is played).",
                    cards=cards(view.hand_unknown),
                )
            lines.append(line(unknown))
        if not hand and not view.hand_unknown:
            lines.append(line(Msg("No card in your hand.")))
        if view.own_tip:
            lines.append(line(Msg("Your tip: {colour}.", colour=colour_word(view.own_tip)), meaning=STRONG))
        lines.append(self._own_drawing(view))
        return (Box(tuple(lines), title, HIDDEN),)

    @staticmethod
    def _own_drawing(view: FlipView) -> Drawing:
        """The seat's hand as cards: the ones the referee knows face up, the others as backs;
        and their tip card at a claim."""
        hand = view.hand or ()
        unknown = view.hand_unknown or 0
        held = tuple(card_piece(c) for c in hand) + tuple(Card(None) for _ in range(unknown))
        note = Msg("{n} the referee does not know", n=unknown) if unknown else None
        pieces: list[Piece] = [Row(held, caption=Msg("your hand"), note=note, overlap=len(held) > 6)]
        if view.claim is not None and view.own_tip:
            pieces.append(Row((tip_piece(view.own_tip),), caption=Msg("your tip")))
        return Drawing(tuple(pieces), title=Msg("Your hand"))

    # --- parts ---------------------------------------------------------------------------------

    def _seats(self, view: FlipView) -> Seats:
        """The players in their order: hand size and points as badges, the hand as backs, the
        won cards face up, the tip card at a claim. At the sharing the takers go round
        counter-clockwise (F-6), otherwise turns go clockwise."""
        winners = view.outcome.winners if view.outcome is not None else ()
        c = view.claim
        seats = []
        for p in view.players:
            badges = [
                Plural("{n} card in hand", "{n} cards in hand", n=p.hand),
                Plural("{n} point", "{n} points", n=p.score.points),
            ]
            if c is not None and p.seat == c.claimant:
                badges.append(Msg("claims"))
            elif c is not None and p.seat == c.accused:
                badges.append(Msg("accused"))
            rows: list[Row] = []
            if p.hand:
                backs = tuple(Card(None) for _ in range(p.hand))
                rows.append(Row(backs, caption=Msg("hand"), note=str(p.hand), overlap=True))
            if p.won:
                won = tuple(card_piece(w) for w in p.won)
                rows.append(Row(won, caption=Msg("won"), note=str(len(p.won)), overlap=True))
            if c is not None and (p.tipped or p.tip):
                rows.append(Row((tip_piece(p.tip),), caption=Msg("tip")))
            seats.append(Seat(p.seat, p.name, tuple(badges), tuple(rows), p.seat in winners))
        to_move = None if view.phase == "over" else view.to_move
        return Seats(tuple(seats), to_move, "ccw" if view.phase == "take" else "cw")

    @staticmethod
    def _lying(r: RowView, last: int | None) -> Card:
        """A card of the row as it lies: face up with its face, face down as a back."""
        if r.card is None:
            return Card(None, note=Msg("turned (F-16)") if r.flagged else None)
        marks: tuple[CardMark, ...] = ("new",) if last == r.position else ()
        return card_piece(r.card, marks, Msg("turned (F-16)") if r.flagged else None)

    def _row_piece(self, view: FlipView) -> Row:
        up = sum(1 for r in view.row if r.up)
        note = (
            Msg("{up} of {cards} face up", up=up, cards=cards(len(view.row))) if view.row else Msg("none yet")
        )
        lying = tuple(self._lying(r, view.last_play) for r in view.row)
        return Row(lying, caption=Msg("row"), note=note)

    @staticmethod
    def _evaluated(view: FlipView, c: ClaimView) -> list[Piece]:
        """The claimed row turned face up, evaluated on the cards: struck, doubled, faded, the
        birds each adds under it (and who took it, at the sharing); the total against the
        limit."""
        ev = c.evaluation
        assert ev is not None
        factor = dict(ev.factors)
        taker_of = {card.id: view.names[seat] for seat, card in c.taken}
        pieces = []
        for x in ev.lines:
            cv = CardView.of(x.card)
            marks: tuple[CardMark, ...] = ()
            f = factor.get(x.card.colour or "", 1)
            if not x.stays:
                marks = ("struck",)
            elif x.card.colour is not None and f == 2:
                marks = ("doubled",)
            elif x.card.colour is not None and f == 0:
                marks = ("faded",)
            note = None
            if not x.stays:
                note = Msg("out")
            elif x.card.is_bird:
                note = birds(x.birds)
            taker = taker_of.get(cv.id)
            if taker is not None:
                to = Msg("to {name}", name=taker)
                note = note + ", " + to if note else to
            pieces.append(card_piece(cv, marks, note))
        verdict = Msg(
            "{total} birds, limit {limit}: {right} is right (F-10)", total=ev.total, limit=ev.limit, right=ev.right
        )
        return [
            Row(tuple(pieces), caption=Msg("claimed row, evaluated"), note=verdict),
            Big(Msg("birds against the limit of {limit}", limit=ev.limit), str(ev.total)),
        ]

    def _players(self, view: FlipView) -> Sheet:
        winners = view.outcome.winners if view.outcome is not None else ()
        c = view.claim
        rows = []
        for p in view.players:
            doing, meaning = "", None
            if view.phase == "over":
                if p.seat in winners:
                    doing, meaning = (Msg("wins") if len(winners) == 1 else Msg("shares the win")), WINNER
            elif view.phase == "take" and p.seat == view.to_move:
                doing, meaning = Msg("taking"), TURN
            elif view.phase == "tips" and c is not None:
                if p.seat == c.claimant:
                    doing = Msg("claims")
                elif p.seat == c.accused:
                    doing = Msg("accused")
                elif not p.tipped:
                    doing, meaning = Msg("to tip"), TURN
            elif view.phase == "turn" and p.seat == view.to_move:
                doing, meaning = Msg("to play"), TURN
            mark = "▶" if meaning == TURN else ("★" if meaning == WINNER else "")
            tip = "-"
            if c is not None:
                tip = _tip_words(p.tip, p.tipped)
            rows.append(
                (
                    Span(mark),
                    Span(p.name, meaning),
                    Span(str(p.hand)),
                    Span(won_words(p.won)),
                    Span(str(p.score.points)),
                    Span(tip, colour(p.tip) if p.tip in ("red", "green") else None),
                    Span(doing, meaning),
                )
            )
        # Fixed widths wherever the widest text is known: a terminal then measures only the
        # won cards, which keeps a redraw quick (a tap's verdict waits for it).
        columns = (
            Column("", width=1),
            Column(Msg("Player"), width=max(6, *(len(n) for n in view.names))),
            Column(Msg("Hand"), "right", width=4),
            Column(Msg("Won cards"), grow=True),
            Column(Msg("Points"), "right", width=6),
            Column(Msg("Tip"), width=max(3, *(len(r[5].text) for r in rows))),
            Column(Msg("Now"), width=max(3, *(len(r[6].text) for r in rows))),
        )
        return Sheet(columns, tuple(rows))

    def _row(self, view: FlipView) -> Line:
        if not view.row:
            limit = " (" + Msg("limit {limit} birds", limit=view.limit) + ")"
            return line(Span(Msg("Row") + ": "), Span(Msg("none yet"), DIM), limit)
        up = sum(1 for r in view.row if r.up)
        spans: list[str | Span] = [
            Msg(
                "Row ({cards}, {up} face up; limit {limit} birds)",
                cards=cards(len(view.row)),
                up=up,
                limit=view.limit,
            )
            + ": "
        ]
        for r in view.row:
            if r.position > 1:
                spans.append(" · ")
            spans += self._row_card(r, view.last_play)
        return line(*spans)

    @staticmethod
    def _row_card(r: RowView, last: int | None) -> list[str | Span]:
        out: list[str | Span] = [f"{r.position} "]
        if r.card is not None:
            out.append(card_span(r.card))
        else:
            out.append(Span("▒ " + Msg("face down"), HIDDEN))
        if r.flagged:
            out.append(" (" + Msg("turned, F-16") + ")")
        if last == r.position:
            out.append(" ◀")
        return out

    def _claim(self, view: FlipView, c: ClaimView) -> list[Block]:
        """The claim in a box (who claims, the tips, then the result and the takers), and once
        the row is evaluated its table card by card under the box."""
        names = view.names
        tips = [p.name + " " + _tip_words(p.tip, p.tipped) for p in view.players]
        head = Msg(
            "{claimant} claims too many birds in the row {accused} played to. Tips: {tips}",
            claimant=names[c.claimant],
            accused=names[c.accused],
            tips=join_words(", ", tips),
        )
        if c.evaluation is None:
            head += " " + Msg("({done} of {of} in; shown once all are in).", done=c.tips_in, of=c.tips_of)
            row: list[str | Span] = [
                Msg("Row ({cards}, limit {limit})", cards=cards(len(c.row)), limit=view.limit) + ": "
            ]
            for r in c.row:
                if r.position > 1:
                    row.append(" · ")
                row += self._row_card(r, None)
            return [Box((line(head), line(*row)), title=Msg("Claim"))]
        ev = c.evaluation
        share = self._share(names, c)
        box = Box((line(head + "."), line(ev.summary, meaning=STRONG), line(share)), title=Msg("Claim"))
        return [box, self._evaluation_table(names, c)]

    @staticmethod
    def _share(names: Sequence[str], c: ClaimView) -> str:
        """Who takes the claimed row's cards, and whose take it is now."""
        order = and_join([names[t] for t in c.takers])
        if len(c.takers) == 1:
            share = Msg("{takers} takes all {cards} (F-7)", takers=order, cards=cards(len(c.row)))
        else:
            share = Msg("Takers, one card each in turn, counter-clockwise: {takers} (F-6)", takers=order)
        if c.taker is not None:
            return share + ". " + Msg("{name}'s take: {cards} left.", name=names[c.taker], cards=cards(len(c.left)))
        return share + "."

    @staticmethod
    def _evaluation_table(names: Sequence[str], c: ClaimView) -> Sheet:
        """The evaluated row card by card: place, id, face, birds, why, who took it."""
        ev = c.evaluation
        assert ev is not None
        rows = []
        left = {x.id for x in c.left}
        taker_of = {card.id: names[seat] for seat, card in c.taken}
        for x in ev.lines:
            cv = CardView.of(x.card)
            rows.append(
                (
                    Span(str(x.position)),
                    Span(x.card.id),
                    Span(short_face(cv), colour(cv.colour) if cv.colour else STRONG),
                    Span(str(x.birds) if x.stays else Msg("out"), None if x.stays else DIM),
                    Span(x.why),
                    Span(taker_of.get(x.card.id, "" if x.card.id in left else "")),
                )
            )
        # Fixed widths wherever the widest text is known: a terminal then measures only "why".
        ids = max((len(x.card.id) for x in ev.lines), default=4)
        return Sheet(
            (
                Column("#", "right", width=2),
                Column(Msg("card"), width=max(4, ids)),
                Column(Msg("face"), width=13),
                Column(Msg("birds"), "right", width=5),
                Column(Msg("why"), grow=True),
                Column(Msg("taken by"), width=max(8, *(len(n) for n in names))),
            ),
            tuple(rows),
            title=Msg("Evaluation, card by card (F-1 … F-5)"),
        )

    @classmethod
    def _describe(cls, names: Sequence[str], out: Outcome) -> str:
        """A game's result as its headline says it: the winners and their points."""
        best = out.scores[out.winners[0]] if out.winners else 0
        return cls._headline([names[w] for w in out.winners], best)

    @staticmethod
    def _headline(winners: list[str], best: int) -> str:
        return RESULT.headline(winners, best)


PANEL = FlipPanel()
