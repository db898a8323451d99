"""Upturn's panel of the scoreboard: the line's last tiles with the number to beat, the
direction with the seat order it implies, each player's tile count and any call due, whose
turn it is and who was skipped, the pool, and a Twin run explained tile by tile; a player's own
screen with their rack count (and their tiles, where the engine knows them).

Racks are never shown: the public view holds only counts (the engine's contract), and nothing
the referee says names a rack's tile, so `scrub` has nothing to blank out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from upref.games.base import Outcome
from upref.games.upturn.engine import Termination
from upref.games.upturn.view import RESULT, TileView, UpturnView
from upref.text import and_join, count
from upref.views.blocks import (
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
    colour,
    line,
)
from upref.views.pieces import Big, Card, Drawing, Face, Piece, Row, Seat, Seats
from upref.views.scoreboard import STOPPED, earlier_games, result_box

PICTURE_TILES = 8
"""How many of the line's last tiles the drawing shows."""

_SYMBOLS: Mapping[str, str] = {
    "up": "↑", "down": "↓", "updown": "↕", "skip": "⤼", "doubleskip": "⤼⤼", "joker": "★",
}


def tile_piece(t: TileView) -> Card:
    """A tile drawn as it lies: its number (a Twin red, with its letter and named under it; a
    penalty tile named under it), or its action's symbol with its name."""
    if t.number is not None:
        if t.twin:
            return Card(Face(str(t.number), "red", "R"), shape="tile", note="red twin")
        return Card(Face(str(t.number)), shape="tile", note="penalty" if t.penalty else None)
    action = t.action or ""
    return Card(Face(_SYMBOLS.get(action, t.text), symbol=action or None), shape="tile", note=t.text)


__all__ = ["PANEL", "UpturnPanel"]

SHOWN = 8
"""How many of the line's last tiles the scoreboard shows."""
_TERMINATIONS: Mapping[str, str] = {
    Termination.EMPTY_RACK: "the first empty rack wins",
    Termination.POOL_EXHAUSTED: "the pool was empty and every player passed in a row (T-12)",
    Termination.STOPPED: f"{STOPPED}; the fewest tiles win",
}


def _tile_span(t: TileView) -> Span:
    """A tile as the line shows it; a Twin is red, and says so."""
    if t.twin:
        return Span(f"{t.text} red Twin", colour("red"))
    if t.penalty:
        return Span(f"{t.text} penalty", STRONG)
    return Span(t.text, None if t.number is not None else STRONG)


class UpturnPanel:
    """The Upturn panel (`upref.views.scoreboard.Panel`)."""

    title = "Upturn"

    def header(self, view: UpturnView) -> str:
        parts = [f"Game {view.game_number} ({view.variant})"]
        if view.turn:
            parts.append(f"turn {view.turn}")
        parts.append(f"pool {count(view.pool, 'tile')}")
        if view.pool == 0 and view.phase != "over":
            parts.append(f"passes in a row {view.passes} of {len(view.names)}")
        return " · ".join(parts)

    def need(self, view: UpturnView) -> str:
        if view.phase == "over":
            return "the game is over"
        if view.last_number is None:
            return "the Starting tile is to be turned up"
        if view.direction is None:
            return f"the first move: a numbered tile against {view.last_number} sets the direction"
        way = "higher" if view.direction == "up" else "lower"
        return f"the next numbered tile must be {way} than {view.last_number}"

    def turn(self, view: UpturnView) -> str | None:
        names = view.names
        if view.phase == "over":
            return "Game over."
        if view.phase == "start" or view.to_move is None:
            return "Turn up the Starting tile and tap it."
        name = names[view.to_move]
        if view.phase == "drawn":
            return f"{name} has drawn: lay one tile or keep all."
        if view.phase == "joker":
            return f"{name} laid a Joker: one extra tile, or none."
        if view.phase == "twin":
            return f"{name} is laying a Twin run, then gives up to {count(view.gifts, 'tile')}."
        if view.phase == "gift":
            return f"{name} may give {count(view.gifts, 'tile')} from the pool."
        way = {"up": "higher than", "down": "lower than"}.get(
            view.direction or "", "the first move, against"
        )
        return f"{name}'s turn: {way} {view.last_number}."

    def body(self, view: UpturnView) -> Sequence[Block]:
        blocks: list[Block] = [self._line(view)]
        blocks.append(
            line(
                Span("Number to beat: ", STRONG),
                Span(str(view.last_number) if view.last_number is not None else "-", STRONG),
                f" — {self.need(view)}",
            )
        )
        blocks.append(self._direction(view))
        blocks.append(self._players(view))
        status = self.turn(view)
        if status:
            blocks.append(line(status, meaning=STRONG))
        if view.twin is not None:
            blocks.append(self._twin(view))
        return blocks

    def result(self, view: UpturnView) -> Box | None:
        out = view.outcome
        if out is None:
            return None
        names = view.names
        winners = [names[w] for w in out.winners]
        best = out.scores[out.winners[0]] if out.winners else 0
        headline = RESULT.headline(winners, best, how=out.termination)
        why = _TERMINATIONS.get(out.termination, out.termination)
        left = ", ".join(f"{n} {s}" for n, s in zip(names, out.scores, strict=True))
        return result_box(headline, f"Game over: {why}.", f"Tiles left: {left}")

    def footer(self, view: UpturnView) -> Sequence[Block]:
        def winners(o: Outcome) -> str:
            return and_join([view.names[w] for w in o.winners]) or "nobody"

        earlier = earlier_games("Earlier games won by ", view.history, winners)
        return () if earlier is None else (earlier,)

    def scrub(self, text: str) -> str:
        """Nothing to blank out: no text for the table names a rack's tile."""
        return text

    def drawing(self, view: UpturnView) -> Drawing:
        """The line as it lies: its last tiles (numbers and action symbols), the number to beat
        large, the direction, the seats in playing order with each rack's count and a call owed,
        the pool's count."""
        tiles = tuple(tile_piece(t) for t in view.line[-PICTURE_TILES:])
        hidden = len(view.line) - len(tiles)
        note = f"{count(hidden, 'earlier tile')} under them" if hidden else None
        pieces: list[Piece] = [Row(tiles, caption="the line", note=note)]
        beat = "—" if view.last_number is None else str(view.last_number)
        way = {"up": "↑ higher", "down": "↓ lower"}.get(view.direction or "", "not set yet")
        pieces += [Big("to beat", beat), Big("direction", way)]
        seats = []
        winners = view.outcome.winners if view.outcome is not None else ()
        for i in view.order or tuple(p.seat for p in view.players):
            p = view.players[i]
            badges = [f"rack {p.tiles}"]
            if p.owes_call:
                badges.append("call owed")
            if p.skipped:
                badges.append("skipped")
            seats.append(Seat(p.seat, p.name, tuple(badges), winner=p.seat in winners))
        turn = {"up": "cw", "down": "ccw"}.get(view.direction or "")  # play passes left or right
        mover = None if view.phase == "over" else view.to_move
        pieces.append(Seats(tuple(seats), mover, turn))  # type: ignore[arg-type]
        pieces.append(Big("pool", str(view.pool)))
        return Drawing(tuple(pieces), title="The line")

    def private(self, view: UpturnView) -> Sequence[Block]:
        """The seat's own rack: how many tiles the referee counts, the tiles it knows (none at a
        table: it never sees a rack), and whether a call is due.

        :raises ValueError: for a view that is not one seat's own.
        """
        if view.seat is None:
            raise ValueError("the private panel needs one seat's view, UpturnState.view(seat)")
        me = view.players[view.seat]
        title = f"{me.name} — your rack (keep it to yourself)"
        blocks: list[Line | Sheet | Drawing] = [
            line(f"You hold {count(me.tiles, 'tile')} by the count.", meaning=STRONG)
        ]
        if view.rack:
            spans: list[str | Span] = ["Your tiles: "]
            for i, t in enumerate(view.rack):
                spans += [" · "] if i else []
                spans.append(_tile_span(t))
            blocks.append(line(*spans))
        if view.rack_unknown:
            blocks.append(
                line(
                    f"The referee does not see your tiles ({count(view.rack_unknown, 'tile')}); "
                    "tell it when the count is wrong (undo, then enter the draw or gift)."
                )
            )
        if me.owes_call:
            blocks.append(
                line(
                    "You have one tile left: call it with the button before the next tile.",
                    meaning=ILLEGAL,
                )
            )
        if view.rack:
            rack = Row(tuple(tile_piece(t) for t in view.rack), caption="your tiles")
            blocks.insert(1, Drawing((rack,), title="Your rack"))
        return (Box(tuple(blocks), title, HIDDEN),)

    def _line(self, view: UpturnView) -> Block:
        tiles = view.line[-SHOWN:]
        if not tiles:
            return line(Span("Line: ", STRONG), "no tile yet")
        spans: list[str | Span] = [Span("Line: ", STRONG)]
        if len(view.line) > SHOWN:
            spans.append("… ")
        for i, t in enumerate(tiles):
            if i:
                spans.append(" · ")
            spans.append(_tile_span(t))
        spans.append(f"  ({count(len(view.line), 'tile')})")
        return line(*spans)

    def _direction(self, view: UpturnView) -> Block:
        names = view.names
        order = " → ".join(names[s] for s in view.order) + f" → {names[view.order[0]]}"
        if view.direction is None:
            arrow, how = "not set yet", "the first move sets it; until then play passes clockwise"
        elif view.direction == "up":
            arrow, how = "▲ up", "clockwise, play passes left"
        else:
            arrow, how = "▼ down", "counter-clockwise, play passes right"
        return line(Span("Direction: ", STRONG), Span(arrow, STRONG), f" — {how}: {order}")

    def _players(self, view: UpturnView) -> Sheet:
        winners = view.outcome.winners if view.outcome is not None else ()
        rows = []
        for p in view.players:
            doing, meaning = "", None
            if view.phase == "over":
                if p.seat in winners:
                    doing, meaning = ("winner" if len(winners) == 1 else "shares the win"), WINNER
            elif p.seat == view.to_move and view.phase != "start":
                doing, meaning = "to play", TURN
            elif p.skipped:
                doing = "skipped"
            mark = "▶" if meaning == TURN else ("★" if meaning == WINNER else "")
            call = Span("owes 'one tile left'", ILLEGAL) if p.owes_call else Span("")
            rows.append(
                (
                    Span(mark),
                    Span(p.name, meaning),
                    Span(str(p.tiles)),
                    call,
                    Span(doing, meaning),
                )
            )
        columns = (
            Column("", width=1),
            Column("Player"),
            Column("Tiles", "right"),
            Column("Call"),
            Column("Now", grow=True),
        )
        return Sheet(columns, tuple(rows))

    def _twin(self, view: UpturnView) -> Sheet:
        tw = view.twin
        assert tw is not None
        twin_no = tw.twin.number
        between = f"strictly between {tw.after} and {twin_no}"
        way = "lower" if twin_no is not None and twin_no < tw.after else "higher"
        rows = [
            (
                Span("1"),
                _tile_span(tw.twin),
                Span(f"the Twin, laid against {tw.after} ({way}, in the direction)"),
            )
        ]
        n = 1
        for t in tw.run:
            n += 1
            why = between + ("; a penalty tile: one more to give" if t.penalty else "")
            rows.append((Span(str(n)), _tile_span(t), Span(why)))
        state = "still open" if tw.open else "closed"
        owner = view.names[view.to_move] if tw.open and view.to_move is not None else None
        title = f"Twin run ({state}{', ' + owner + ' may add tiles ' + between if owner else ''})"
        rows.append((Span("="), Span(str(tw.gives)), Span(self._gives(tw.gives, len(tw.run)))))
        return Sheet(
            (Column("#", "right"), Column("tile"), Column("why", grow=True)),
            tuple(rows),
            title=title,
        )

    @staticmethod
    def _gives(gives: int, added: int) -> str:
        pens = gives - 1 - added
        parts = ["1 for the Twin", f"{added} for the {'tile' if added == 1 else 'tiles'} added"]
        if pens:
            parts.append(f"{pens} for penalty {'tile' if pens == 1 else 'tiles'}")
        return f"tiles to give from the pool: {and_join(parts)}"


PANEL = UpturnPanel()
