"""What's Up's panel of the scoreboard: the players with their birds, cards, complete rows and
figurines; each collection as rows by colour; whose turn it is; the cards on the table with the
face up and any figurine (the first game's 6 by 5 rectangle as it lies, or, with free placement,
how many cards show each face); turns without an addition out of 8; cards left; the result; and
a player's own screen with what would fit their collection.

Hidden information never gets in: the public view holds only the face up of each table card,
never the side face down nor a card's id (an id names both sides), and `scrub` blanks out any
card id a text from elsewhere might carry.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

from upref.games.base import Outcome
from upref.games.whatsup.cards import COLOURS, COUNTS
from upref.games.whatsup.variant import GRID_COLUMNS, GRID_ROWS
from upref.games.whatsup.view import RESULT, ROWS_WON, CardView, PlayerView, WhatsUpView
from upref.referee.status import SOLVED
from upref.text import and_join, count, plural
from upref.views.blocks import (
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
from upref.views.pieces import Big, Card, Drawing, Face, Figure, Piece, Row, Seat, Seats
from upref.views.scoreboard import STOPPED, earlier_games, result_box

__all__ = ["PANEL", "WhatsUpPanel", "bird_face", "face_cell", "row_cell"]

_CARD_ID = re.compile(r"\bW\d{2}\b")
_TERMINATIONS: Mapping[str, str] = {
    "rows": "a player completed the rows that win at once",
    "table": "three cards or fewer were left on the table (A-2)",
    "stall": "eight turns in a row without an addition (A-3)",
    "stopped": STOPPED,
}


_MARKS: Mapping[str, str] = {"red": "R", "yellow": "Y", "green": "G", "purple": "P"}
"""The letter each colour carries on the drawing, so no one needs to tell colours apart."""


def bird_face(n: int, colour_name: str) -> Face:
    """A face as the drawing shows it: `n` birds (1 to 3) in their colour, with its letter."""
    return Face(str(n), colour_name, _MARKS.get(colour_name, colour_name[:1].upper()), "bird", n)


def _collection(p: PlayerView) -> tuple[Row, ...]:
    """A collection as four rows of bird cards, one per colour, 1 then 2 then 3 birds."""
    return tuple(
        Row(
            tuple(Card(bird_face(n, c)) for n in counts),
            caption=c,
            note="complete" if len(counts) == len(COUNTS) else None,
        )
        for c, counts in p.rows
    )


def row_cell(colour_name: str, counts: Sequence[int]) -> Span:
    """A collection row as a cell: 'red 1 2 3', coloured; '-' for a row not started."""
    if not counts:
        return Span("-")
    return Span(f"{colour_name} {' '.join(str(n) for n in counts)}", colour(colour_name))


def face_cell(n: int, colour_name: str) -> Span:
    """A face up as a cell: '2 green', coloured (and named)."""
    return Span(f"{n} {colour_name}", colour(colour_name))


class WhatsUpPanel:
    """The What's Up panel (`upref.views.scoreboard.Panel`)."""

    title = "What's Up"
    labels = {SOLVED: "TAKEN"}  # the feed's word for a card taken into a collection, as the guide says

    def header(self, view: WhatsUpView) -> str:
        parts = [f"Game {view.game_number} ({view.variant})"]
        if view.phase == "setup":
            parts.append(f"setting up: {view.laid} of {view.deck} cards laid")
            return " · ".join(parts)
        parts.append(f"turn {view.turn}")
        parts.append(f"{count(view.cards_left, 'card')} on the table")
        parts.append(f"{view.since} of {view.stall_turns} turns without an addition")
        return " · ".join(parts)

    def turn(self, view: WhatsUpView) -> str | None:
        if view.phase == "over":
            return "Game over."
        if view.phase == "setup":
            return f"Setting up: {view.laid} of {view.deck} cards laid; tap each as you lay it."
        if view.to_move is None:
            return None
        name = view.names[view.to_move]
        if view.reserved_now:
            return f"{name}'s turn: the figurine is placed; now flip a card."
        return f"{name}'s turn: flip a card."

    def body(self, view: WhatsUpView) -> Sequence[Block]:
        blocks: list[Block] = [self._players(view), self._collections(view)]
        status = self.turn(view)
        if status:
            blocks.append(line(status, meaning=STRONG))
        if view.first_game:
            blocks.append(self._grid(view))
        else:
            blocks.extend(self._faces(view))
        if view.phase != "setup":
            blocks.append(
                line(
                    f"Turns without an addition: {view.since} of {view.stall_turns} · cards on "
                    f"the table: {view.cards_left} (the game ends at {view.table_end} or fewer) · "
                    f"complete rows to win: {view.rows_to_win}"
                )
            )
        return blocks

    def result(self, view: WhatsUpView) -> Box | None:
        out = view.outcome
        if out is None:
            return None
        names = view.names
        cards = {p.seat: p.cards for p in view.players}
        headline = self._headline(view, out.termination, out.winners, out.scores, cards)
        why = _TERMINATIONS.get(out.termination, out.termination)
        birds = ", ".join(f"{n} {s}" for n, s in zip(names, out.scores, strict=True))
        held = ", ".join(f"{p.name} {p.cards}" for p in view.players)
        return result_box(headline, f"Game over: {why}.", f"Birds: {birds} · cards: {held}")

    def footer(self, view: WhatsUpView) -> Sequence[Block]:
        def describe(o: Outcome) -> str:
            winners = and_join([view.names[w] for w in o.winners]) or "nobody"
            won = " won" if len(o.winners) <= 1 else " shared the win"
            birds = ", ".join(f"{n} {s}" for n, s in zip(view.names, o.scores, strict=True))
            return f"{winners}{won} ({birds})"

        earlier = earlier_games("Earlier games (birds): ", view.history, describe)
        return (earlier,) if earlier is not None else ()

    def scrub(self, text: str) -> str:
        """Blank out card ids: an id names both sides of a card, so also the one face down."""
        return _CARD_ID.sub("a card", text)

    def drawing(self, view: WhatsUpView) -> Drawing:
        """The table as it lies: the players in their order, each with their collection as four
        rows of bird cards; the table's cards by their face up (the first game's rectangle row
        by row, with free placement grouped by colour), a card a figurine stands on noted;
        the figurines where they stand; the cards left and the turns without an addition. Only
        faces up go in: never a side face down, never a card's id (it names both sides)."""
        pieces: list[Piece] = [self._seats(view)]
        pieces.extend(self._table_rows(view))
        for p in view.players:
            if p.figurine == "placed":
                where = self._figurine(view, p.figurine, p.figurine_on)
                pieces.append(Figure(p.name, where))
        if view.phase != "setup":
            pieces.append(Big("cards on the table", str(view.cards_left)))
            pieces.append(Big("turns without an addition", f"{view.since} of {view.stall_turns}"))
        return Drawing(tuple(pieces), title="The table")

    def private(self, view: WhatsUpView) -> Sequence[Block]:
        """The seat's own screen: the collection row by row, the faces that would fit it now,
        and the figurine.

        :raises ValueError: for a view that is not one seat's own.
        """
        if view.seat is None:
            raise ValueError("the private panel needs one seat's view, WhatsUpState.view(seat)")
        me = view.players[view.seat]
        rows = []
        for c, counts in me.rows:
            if len(counts) == len(COUNTS):
                nxt = Span("complete", WINNER)
            else:
                nxt = face_cell(len(counts) + 1, c)
            rows.append((Span(c, colour(c)), row_cell(c, counts), nxt))
        table = Sheet((Column("colour"), Column("your row"), Column("fits next")), tuple(rows))
        fits = ", ".join(me.fits) or "nothing: every row is complete"
        figurine = {
            "unused": "in your hand: press f on your turn to put it on a card",
            "placed": self._figurine(view, me.figurine, me.figurine_on, long=True),
            "spent": "back in the box",
        }[me.figurine]
        fitting = []
        for f in me.fits:
            n, c = f.split(" ", 1)
            fitting.append(Card(bird_face(int(n), c)))
        mine = Drawing(
            (*_collection(me), Row(tuple(fitting), caption="fits next")),
            title="Your collection",
        )
        blocks: tuple[Line | Sheet | Drawing, ...] = (
            line(f"{count(me.birds, 'bird')} on {count(me.cards, 'card')}", meaning=STRONG),
            table,
            line(f"A flip fits you now if it shows: {fits}."),
            line(f"Your figurine: {figurine}."),
            mine,
        )
        return (Box(blocks, f"{me.name} — your collection"),)

    # --- parts --------------------------------------------------------------------------------

    def _seats(self, view: WhatsUpView) -> Seats:
        """The players in their order (turns go clockwise), each with their collection."""
        winners = view.outcome.winners if view.outcome is not None else ()
        where = {"unused": "figurine in hand", "spent": "figurine in the box"}
        seats = []
        for p in view.players:
            badges = [
                count(p.birds, "bird"),
                count(p.cards, "card"),
                f"{p.completed} of {view.rows_to_win} rows",
            ]
            if p.figurine in where:
                badges.append(where[p.figurine])
            won = view.phase == "over" and p.seat in winners
            seats.append(Seat(p.seat, p.name, tuple(badges), _collection(p), won))
        to_move = view.to_move if view.phase == "turn" else None
        return Seats(tuple(seats), to_move, "cw")

    def _table_rows(self, view: WhatsUpView) -> list[Row]:
        """The table's cards by their face up: the first game's rectangle row by row (a taken
        card's place left out), or with free placement one row per colour, fewest birds
        first."""
        def card(c: CardView) -> Card:
            note = f"{view.names[c.figurine]}'s figurine" if c.figurine is not None else None
            return Card(bird_face(c.count, c.colour), note=note)

        if view.first_game:
            rows = []
            for r in range(1, GRID_ROWS + 1):
                cards = sorted((c for c in view.table if c.row == r), key=lambda c: c.column or 0)
                rows.append(Row(tuple(card(c) for c in cards), caption=f"row {r}"))
            return rows
        rows = []
        for colour_name in COLOURS:
            cards = sorted(
                (c for c in view.table if c.colour == colour_name), key=lambda c: (c.count, c.place)
            )
            note = count(len(cards), "card")
            rows.append(Row(tuple(card(c) for c in cards), caption=f"{colour_name} up", note=note))
        return rows

    def _players(self, view: WhatsUpView) -> Sheet:
        winners = view.outcome.winners if view.outcome is not None else ()
        rows = []
        for p in view.players:
            doing, meaning = "", None
            if view.phase == "turn" and p.seat == view.to_move:
                doing, meaning = "flipping", TURN
                if view.reserved_now:
                    doing = "figurine placed, flipping"
            elif view.phase == "over" and p.seat in winners:
                doing = "wins" if len(winners) == 1 else "shares the win"
                meaning = WINNER
            mark = "▶" if meaning == TURN else ("★" if meaning == WINNER else "")
            rows.append(
                (
                    Span(mark),
                    Span(p.name, meaning),
                    Span(str(p.birds)),
                    Span(str(p.cards)),
                    Span(f"{p.completed} of {view.rows_to_win}"),
                    Span(self._figurine(view, p.figurine, p.figurine_on)),
                    Span(doing, meaning),
                )
            )
        columns = (
            Column("", width=1),
            Column("Player"),
            Column("Birds", "right"),
            Column("Cards", "right"),
            Column("Rows done"),
            Column("Figurine"),
            Column("Now", grow=True),
        )
        return Sheet(columns, tuple(rows))

    @staticmethod
    def _figurine(view: WhatsUpView, state: str, place: int | None, *, long: bool = False) -> str:
        """Where a figurine is: 'in hand', 'in the box', 'row 1, column 3' (the first game),
        'on 2 green' (free placement); `long`: 'on the card in row 1, column 3' ..."""
        if state == "unused":
            return "in hand"
        if state == "spent":
            return "in the box"
        for c in view.table:
            if c.place == place:
                if view.first_game and c.row is not None:
                    where = f"row {c.row}, column {c.column}"
                    return f"on the card in {where}" if long else where
                return f"on the card showing {c.up}" if long else f"on {c.up}"
        return "on a card"

    def _collections(self, view: WhatsUpView) -> Sheet:
        rows = []
        for p in view.players:
            by_colour = dict(p.rows)
            rows.append((Span(p.name), *(row_cell(c, by_colour[c]) for c in COLOURS)))
        columns = (Column("Collection"), *(Column(f"{c} row") for c in COLOURS))
        return Sheet(columns, tuple(rows))

    def _grid(self, view: WhatsUpView) -> Sheet:
        """The first game's rectangle as it lies: each place with its face up (empty once the
        card is taken), and under each row the figurines on it."""
        at = {(c.row, c.column): c for c in view.table}
        rows: list[tuple[Span, ...]] = []
        for r in range(1, GRID_ROWS + 1):
            cells = [Span(str(r))]
            birds = [Span("")]
            for col in range(1, GRID_COLUMNS + 1):
                card = at.get((r, col))
                cells.append(face_cell(card.count, card.colour) if card else Span(""))
                who = card.figurine if card is not None else None
                birds.append(Span(f"▲ {view.names[who]}" if who is not None else ""))
            rows.append(tuple(cells))
            if any(s.text for s in birds):
                rows.append(tuple(birds))
        columns = (Column("row", width=4), *(
            Column(str(c), "center", width=10) for c in range(1, GRID_COLUMNS + 1)
        ))
        title = "On the table (6 by 5, as laid; ▲ a figurine)"
        return Sheet(columns, tuple(rows), title=title, style="grid")

    def _faces(self, view: WhatsUpView) -> list[Block]:
        """Free placement: how many table cards show each face, and where the figurines
        stand."""
        shown = Counter((c.count, c.colour) for c in view.table)
        rows = []
        for c in COLOURS:
            cells = [Span(c, colour(c))]
            for n in COUNTS:
                k = shown[(n, c)]
                cells.append(Span(f"{n} {c} × {k}", colour(c)) if k else Span(""))
            rows.append(tuple(cells))
        columns = (Column("colour"), *(Column(count(n, "bird")) for n in COUNTS))
        blocks: list[Block] = [
            Sheet(columns, tuple(rows), title="On the table (faces up × cards)", style="grid")
        ]
        figs = [
            f"{view.names[c.figurine]}'s on a card showing {c.up}"
            for c in view.table
            if c.figurine is not None
        ]
        if figs:
            blocks.append(line(f"{plural(len(figs), 'Figurine')}: {'; '.join(figs)}."))
        return blocks

    @staticmethod
    def _headline(
        view: WhatsUpView,
        termination: str,
        winners: tuple[int, ...],
        scores: tuple[int, ...],
        cards: Mapping[int, int],
    ) -> str:
        names = [view.names[w] for w in winners]
        if not names:
            return "No winner"
        if termination == "rows":
            done = next(p.completed for p in view.players if p.seat == winners[0])
            return ROWS_WON.headline(names[:1], done)
        return RESULT.headline(names, scores[winners[0]], cards[winners[0]])


PANEL = WhatsUpPanel()
