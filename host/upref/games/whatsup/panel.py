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
from typing import Any

from upref.games.base import Outcome
from upref.games.whatsup.cards import COLOURS, COUNTS, Face, colour_word, face_words
from upref.games.whatsup.variant import GRID_COLUMNS, GRID_ROWS
from upref.games.whatsup.view import RESULT, ROWS_WON, CardView, PlayerView, WhatsUpView
from upref.referee.status import SOLVED
from upref.text import Msg, Plural, Words, and_join, in_lang, join_words
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
from upref.views.pieces import Big, Card, Drawing, Figure, Piece, Row, Seat, Seats
from upref.views.pieces import Face as Drawn
from upref.views.scoreboard import STOPPED, earlier_games, result_box

__all__ = ["PANEL", "WhatsUpPanel", "bird_face", "face_cell", "row_cell"]

_CARD_ID = re.compile(r"\bW\d{2}\b")
_TERMINATIONS: Mapping[str, str] = {
    "rows": Msg("a player completed the rows that win at once"),
    "table": Msg("three cards or fewer were left on the table (A-2)"),
    "stall": Msg("eight turns in a row without an addition (A-3)"),
    "stopped": STOPPED,
}


_MARKS: Mapping[str, str] = {"red": "R", "yellow": "Y", "green": "G", "purple": "P"}
"""The letter each colour carries on the drawing, so no one needs to tell colours apart."""


def bird_face(n: int, colour_name: str) -> Drawn:
    """A face as the drawing shows it: `n` birds (1 to 3) in their colour, with its letter."""
    return Drawn(str(n), colour_name, _MARKS.get(colour_name, colour_name[:1].upper()), "bird", n)


def _face(n: int, colour_name: str) -> str:
    """'2 green', said to people."""
    return face_words(Face(n, colour_name))


class _Scrubbed(Words):
    """A text with every card id in it blanked out as 'a card', in whatever language it is
    said."""

    base: str

    def __new__(cls, base: str) -> _Scrubbed:
        self = super().__new__(cls, _CARD_ID.sub("a card", str.__str__(base)))
        self.base = base
        return self

    def render(self, lang: str) -> str:
        return _CARD_ID.sub(in_lang(Msg("a card"), lang), in_lang(self.base, lang))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Scrubbed, (self.base,))


def _collection(p: PlayerView) -> tuple[Row, ...]:
    """A collection as four rows of bird cards, one per colour, 1 then 2 then 3 birds."""
    return tuple(
        Row(
            tuple(Card(bird_face(n, c)) for n in counts),
            caption=colour_word(c),
            note=Msg("complete") if len(counts) == len(COUNTS) else None,
        )
        for c, counts in p.rows
    )


def row_cell(colour_name: str, counts: Sequence[int]) -> Span:
    """A collection row as a cell: 'red 1 2 3', coloured; '-' for a row not started."""
    if not counts:
        return Span("-")
    return Span(colour_word(colour_name) + " " + " ".join(str(n) for n in counts), colour(colour_name))


def face_cell(n: int, colour_name: str) -> Span:
    """A face up as a cell: '2 green', coloured (and named)."""
    return Span(_face(n, colour_name), colour(colour_name))


class WhatsUpPanel:
    """The What's Up panel (`upref.views.scoreboard.Panel`)."""

    title = "What's Up"
    labels = {SOLVED: Msg("TAKEN")}  # the feed's word for a card taken into a collection, as the guide says

    def header(self, view: WhatsUpView) -> str:
        parts = [Msg("Game {number} ({variant})", number=view.game_number, variant=view.variant)]
        if view.phase == "setup":
            parts.append(Msg("setting up: {laid} of {deck} cards laid", laid=view.laid, deck=view.deck))
            return join_words(" · ", parts)
        parts.append(Msg("turn {turn}", turn=view.turn))
        parts.append(
            Plural("{n} card on the table", "{n} cards on the table", n=view.cards_left)
        )
        parts.append(
            Msg("{since} of {stall} turns without an addition", since=view.since, stall=view.stall_turns)
        )
        return join_words(" · ", parts)

    def turn(self, view: WhatsUpView) -> str | None:
        if view.phase == "over":
            return Msg("Game over.")
        if view.phase == "setup":
            return Msg(
                "Setting up: {laid} of {deck} cards laid; tap each as you lay it.",
                laid=view.laid,
                deck=view.deck,
            )
        if view.to_move is None:
            return None
        name = view.names[view.to_move]
        if view.reserved_now:
            return Msg("{name}'s turn: the figurine is placed; now flip a card.", name=name)
        return Msg("{name}'s turn: flip a card.", name=name)

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
                    Msg(
                        "Turns without an addition: {since} of {stall} · cards on the table: "
                        "{left} (the game ends at {end} or fewer) · complete rows to win: {rows}",
                        since=view.since,
                        stall=view.stall_turns,
                        left=view.cards_left,
                        end=view.table_end,
                        rows=view.rows_to_win,
                    )
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
        return result_box(
            headline, Msg("Game over: {why}.", why=why), Msg("Birds: {birds} · cards: {held}", birds=birds, held=held)
        )

    def footer(self, view: WhatsUpView) -> Sequence[Block]:
        def describe(o: Outcome) -> str:
            winners = and_join([view.names[w] for w in o.winners]) or Msg("nobody")
            birds = ", ".join(f"{n} {s}" for n, s in zip(view.names, o.scores, strict=True))
            if len(o.winners) <= 1:
                return Msg("{winners} won ({birds})", winners=winners, birds=birds)
            return Msg("{winners} shared the win ({birds})", winners=winners, birds=birds)

        earlier = earlier_games(Msg("Earlier games (birds): "), view.history, describe)
        return (earlier,) if earlier is not None else ()

    def scrub(self, text: str) -> str:
        """Blank out card ids: an id names both sides of a card, so also the one face down."""
        if not _CARD_ID.search(text):
            return text
        return _Scrubbed(text) if isinstance(text, Words) else _CARD_ID.sub("a card", text)

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
            pieces.append(Big(Msg("cards on the table"), str(view.cards_left)))
            pieces.append(
                Big(
                    Msg("turns without an addition"),
                    Msg("{since} of {stall}", since=view.since, stall=view.stall_turns),
                )
            )
        return Drawing(tuple(pieces), title=Msg("The table"))

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
                nxt = Span(Msg("complete"), WINNER)
            else:
                nxt = face_cell(len(counts) + 1, c)
            rows.append((Span(colour_word(c), colour(c)), row_cell(c, counts), nxt))
        table = Sheet(
            (Column(Msg("colour")), Column(Msg("your row")), Column(Msg("fits next"))), tuple(rows)
        )
        faces = [f.split(" ", 1) for f in me.fits]
        fits = join_words(", ", [_face(int(n), c) for n, c in faces]) if faces else None
        figurine = {
            "unused": Msg("in your hand: press f on your turn to put it on a card"),
            "placed": self._figurine(view, me.figurine, me.figurine_on, long=True),
            "spent": Msg("back in the box"),
        }[me.figurine]
        fitting = [Card(bird_face(int(n), c)) for n, c in faces]
        mine = Drawing(
            (*_collection(me), Row(tuple(fitting), caption=Msg("fits next"))),
            title=Msg("Your collection"),
        )
        said = Msg(
            "{birds} on {cards}",
            birds=Plural("{n} bird", "{n} birds", n=me.birds),
            cards=Plural("{n} card", "{n} cards", n=me.cards),
        )
        blocks: tuple[Line | Sheet | Drawing, ...] = (
            line(said, meaning=STRONG),
            table,
            line(
                Msg("A flip fits you now if it shows: {faces}.", faces=fits)
                if fits
                else Msg("A flip fits you now if it shows: nothing: every row is complete.")
            ),
            line(Msg("Your figurine: {where}.", where=figurine)),
            mine,
        )
        return (Box(blocks, Msg("{name} — your collection", name=me.name)),)

    # --- parts --------------------------------------------------------------------------------

    def _seats(self, view: WhatsUpView) -> Seats:
        """The players in their order (turns go clockwise), each with their collection."""
        winners = view.outcome.winners if view.outcome is not None else ()
        where = {"unused": Msg("figurine in hand"), "spent": Msg("figurine in the box")}
        seats = []
        for p in view.players:
            badges = [
                Plural("{n} bird", "{n} birds", n=p.birds),
                Plural("{n} card", "{n} cards", n=p.cards),
                Msg("{done} of {need} rows", done=p.completed, need=view.rows_to_win),
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
            note = Msg("{name}'s figurine", name=view.names[c.figurine]) if c.figurine is not None else None
            return Card(bird_face(c.count, c.colour), note=note)

        if view.first_game:
            rows = []
            for r in range(1, GRID_ROWS + 1):
                cards = sorted((c for c in view.table if c.row == r), key=lambda c: c.column or 0)
                rows.append(Row(tuple(card(c) for c in cards), caption=Msg("row {row}", row=r)))
            return rows
        rows = []
        for colour_name in COLOURS:
            cards = sorted(
                (c for c in view.table if c.colour == colour_name), key=lambda c: (c.count, c.place)
            )
            note = Plural("{n} card", "{n} cards", n=len(cards))
            caption = Msg("{colour} up", colour=colour_word(colour_name))
            rows.append(Row(tuple(card(c) for c in cards), caption=caption, note=note))
        return rows

    def _players(self, view: WhatsUpView) -> Sheet:
        winners = view.outcome.winners if view.outcome is not None else ()
        rows = []
        for p in view.players:
            doing, meaning = "", None
            if view.phase == "turn" and p.seat == view.to_move:
                doing, meaning = Msg("flipping"), TURN
                if view.reserved_now:
                    doing = Msg("figurine placed, flipping")
            elif view.phase == "over" and p.seat in winners:
                doing = Msg("wins") if len(winners) == 1 else Msg("shares the win")
                meaning = WINNER
            mark = "▶" if meaning == TURN else ("★" if meaning == WINNER else "")
            rows.append(
                (
                    Span(mark),
                    Span(p.name, meaning),
                    Span(str(p.birds)),
                    Span(str(p.cards)),
                    Span(Msg("{done} of {need}", done=p.completed, need=view.rows_to_win)),
                    Span(self._figurine(view, p.figurine, p.figurine_on)),
                    Span(doing, meaning),
                )
            )
        columns = (
            Column("", width=1),
            Column(Msg("Player")),
            Column(Msg("Birds"), "right"),
            Column(Msg("Cards"), "right"),
            Column(Msg("Rows done")),
            Column(Msg("Figurine")),
            Column(Msg("Now"), grow=True),
        )
        return Sheet(columns, tuple(rows))

    @staticmethod
    def _figurine(view: WhatsUpView, state: str, place: int | None, *, long: bool = False) -> str:
        """Where a figurine is: 'in hand', 'in the box', 'row 1, column 3' (the first game),
        'on 2 green' (free placement); `long`: 'on the card in row 1, column 3' ..."""
        if state == "unused":
            return Msg("in hand")
        if state == "spent":
            return Msg("in the box")
        for c in view.table:
            if c.place == place:
                if view.first_game and c.row is not None:
                    where = Msg("row {row}, column {column}", row=c.row, column=c.column)
                    return Msg("on the card in {where}", where=where) if long else where
                up = _face(c.count, c.colour)
                return Msg("on the card showing {face}", face=up) if long else Msg("on {face}", face=up)
        return Msg("on a card")

    def _collections(self, view: WhatsUpView) -> Sheet:
        rows = []
        for p in view.players:
            by_colour = dict(p.rows)
            rows.append((Span(p.name), *(row_cell(c, by_colour[c]) for c in COLOURS)))
        columns = (
            Column(Msg("Collection")),
            *(Column(Msg("{colour} row", colour=colour_word(c))) for c in COLOURS),
        )
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
                birds.append(Span(f"▲ {view.names[who]}" if who is not None else ""))  # a name only
            rows.append(tuple(cells))
            if any(s.text for s in birds):
                rows.append(tuple(birds))
        columns = (Column(Msg("row"), width=4), *(
            Column(str(c), "center", width=10) for c in range(1, GRID_COLUMNS + 1)
        ))
        title = Msg("On the table (6 by 5, as laid; ▲ a figurine)")
        return Sheet(columns, tuple(rows), title=title, style="grid")

    def _faces(self, view: WhatsUpView) -> list[Block]:
        """Free placement: how many table cards show each face, and where the figurines
        stand."""
        shown = Counter((c.count, c.colour) for c in view.table)
        rows = []
        for c in COLOURS:
            cells = [Span(colour_word(c), colour(c))]
            for n in COUNTS:
                k = shown[(n, c)]
                cells.append(Span(_face(n, c) + f" × {k}", colour(c)) if k else Span(""))
            rows.append(tuple(cells))
        columns = (Column(Msg("colour")), *(Column(Plural("{n} bird", "{n} birds", n=n)) for n in COUNTS))
        title = Msg("On the table (faces up × cards)")
        blocks: list[Block] = [Sheet(columns, tuple(rows), title=title, style="grid")]
        figs = [
            Msg("{name}'s on a card showing {face}", name=view.names[c.figurine], face=_face(c.count, c.colour))
            for c in view.table
            if c.figurine is not None
        ]
        if figs:
            said = Plural("Figurine: {figurines}.", "Figurines: {figurines}.", n=len(figs), figurines=join_words("; ", figs))
            blocks.append(line(said))
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
            return Msg("No winner")
        if termination == "rows":
            done = next(p.completed for p in view.players if p.seat == winners[0])
            return ROWS_WON.headline(names[:1], done)
        return RESULT.headline(names, scores[winners[0]], cards[winners[0]])


PANEL = WhatsUpPanel()
