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
from upref.text import Msg, Plural, and_join, join_words
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
            return Card(Face(str(t.number), "red", "R"), shape="tile", note=Msg("red twin"))
        return Card(Face(str(t.number)), shape="tile", note=Msg("penalty") if t.penalty else None)
    action = t.action or ""
    return Card(Face(_SYMBOLS.get(action, t.text), symbol=action or None), shape="tile", note=t.text)


__all__ = ["PANEL", "UpturnPanel"]

SHOWN = 8
"""How many of the line's last tiles the scoreboard shows."""
_TERMINATIONS: Mapping[str, str] = {
    Termination.EMPTY_RACK: Msg("the first empty rack wins"),
    Termination.POOL_EXHAUSTED: Msg("the pool was empty and every player passed in a row (T-12)"),
    Termination.STOPPED: STOPPED + "; " + Msg("the fewest tiles win"),
}


def _tile_span(t: TileView) -> Span:
    """A tile as the line shows it; a Twin is red, and says so."""
    if t.twin:
        return Span(Msg("{tile} red Twin", tile=t.text), colour("red"))
    if t.penalty:
        return Span(Msg("{tile} penalty", tile=t.text), STRONG)
    return Span(t.text, None if t.number is not None else STRONG)


class UpturnPanel:
    """The Upturn panel (`upref.views.scoreboard.Panel`)."""

    title = "Upturn"  # the game's name: the same in every language

    def header(self, view: UpturnView) -> str:
        parts = [Msg("Game {number} ({variant})", number=view.game_number, variant=view.variant)]
        if view.turn:
            parts.append(Msg("turn {number}", number=view.turn))
        parts.append(Plural("pool {n} tile", "pool {n} tiles", n=view.pool))
        if view.pool == 0 and view.phase != "over":
            parts.append(Msg("passes in a row {n} of {of}", n=view.passes, of=len(view.names)))
        return join_words(" · ", parts)

    def need(self, view: UpturnView) -> str:
        if view.phase == "over":
            return Msg("the game is over")
        if view.last_number is None:
            return Msg("the Starting tile is to be turned up")
        last = view.last_number
        if view.direction is None:
            return Msg("the first move: a numbered tile against {last} sets the direction", last=last)
        if view.direction == "up":
            return Msg("the next numbered tile must be higher than {last}", last=last)
        return Msg("the next numbered tile must be lower than {last}", last=last)

    def turn(self, view: UpturnView) -> str | None:
        names = view.names
        if view.phase == "over":
            return Msg("Game over.")
        if view.phase == "start" or view.to_move is None:
            return Msg("Turn up the Starting tile and tap it.")
        name = names[view.to_move]
        tiles = Plural("{n} tile", "{n} tiles", n=view.gifts)
        if view.phase == "drawn":
            return Msg("{name} has drawn: lay one tile or keep all.", name=name)
        if view.phase == "joker":
            return Msg("{name} laid a Joker: one extra tile, or none.", name=name)
        if view.phase == "twin":
            return Msg("{name} is laying a Twin run, then gives up to {tiles}.", name=name, tiles=tiles)
        if view.phase == "gift":
            return Msg("{name} may give {tiles} from the pool.", name=name, tiles=tiles)
        last = view.last_number
        if view.direction == "up":
            return Msg("{name}'s turn: higher than {last}.", name=name, last=last)
        if view.direction == "down":
            return Msg("{name}'s turn: lower than {last}.", name=name, last=last)
        return Msg("{name}'s turn: the first move, against {last}.", name=name, last=last)

    def body(self, view: UpturnView) -> Sequence[Block]:
        blocks: list[Block] = [self._line(view)]
        blocks.append(
            line(
                Span(Msg("Number to beat") + ": ", STRONG),
                Span(str(view.last_number) if view.last_number is not None else "-", STRONG),
                " — " + self.need(view),
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
        return result_box(
            headline, Msg("Game over: {why}.", why=why), Msg("Tiles left: {left}", left=left)
        )

    def footer(self, view: UpturnView) -> Sequence[Block]:
        def winners(o: Outcome) -> str:
            return and_join([view.names[w] for w in o.winners]) or Msg("nobody")

        earlier = earlier_games(Msg("Earlier games won by") + " ", view.history, winners)
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
        note = (
            Plural("{n} earlier tile under them", "{n} earlier tiles under them", n=hidden)
            if hidden
            else None
        )
        pieces: list[Piece] = [Row(tiles, caption=Msg("the line"), note=note)]
        beat = "—" if view.last_number is None else str(view.last_number)
        way = {"up": Msg("↑ higher"), "down": Msg("↓ lower")}.get(view.direction or "", Msg("not set yet"))
        pieces += [Big(Msg("to beat"), beat), Big(Msg("direction"), way)]
        seats = []
        winners = view.outcome.winners if view.outcome is not None else ()
        for i in view.order or tuple(p.seat for p in view.players):
            p = view.players[i]
            badges = [Msg("rack {n}", n=p.tiles)]
            if p.owes_call:
                badges.append(Msg("call owed"))
            if p.skipped:
                badges.append(Msg("skipped"))
            seats.append(Seat(p.seat, p.name, tuple(badges), winner=p.seat in winners))
        turn = {"up": "cw", "down": "ccw"}.get(view.direction or "")  # play passes left or right
        mover = None if view.phase == "over" else view.to_move
        pieces.append(Seats(tuple(seats), mover, turn))  # type: ignore[arg-type]
        pieces.append(Big(Msg("pool"), str(view.pool)))
        return Drawing(tuple(pieces), title=Msg("The line"))

    def private(self, view: UpturnView) -> Sequence[Block]:
        """The seat's own rack: how many tiles the referee counts, the tiles it knows (none at a
        table: it never sees a rack), and whether a call is due.

        :raises ValueError: for a view that is not one seat's own.
        """
        if view.seat is None:
            raise ValueError("the private panel needs one seat's view, UpturnState.view(seat)")
        me = view.players[view.seat]
        title = Msg("{name} — your rack (keep it to yourself)", name=me.name)
        held = Plural("You hold {n} tile by the count.", "You hold {n} tiles by the count.", n=me.tiles)
        blocks: list[Line | Sheet | Drawing] = [line(held, meaning=STRONG)]
        if view.rack:
            spans: list[str | Span] = [Msg("Your tiles") + ": "]
            for i, t in enumerate(view.rack):
                spans += [" · "] if i else []
                spans.append(_tile_span(t))
            blocks.append(line(*spans))
        if view.rack_unknown:
            blocks.append(
                line(
                    Msg(
                        "The referee does not see your tiles ({tiles}); tell it when the count is "
                        "wrong (undo, then enter the draw or gift).",
                        tiles=Plural("{n} tile", "{n} tiles", n=view.rack_unknown),
                    )
                )
            )
        if me.owes_call:
            blocks.append(
                line(
                    Msg("You have one tile left: call it with the button before the next tile."),
                    meaning=ILLEGAL,
                )
            )
        if view.rack:
            rack = Row(tuple(tile_piece(t) for t in view.rack), caption=Msg("your tiles"))
            blocks.insert(1, Drawing((rack,), title=Msg("Your rack")))
        return (Box(tuple(blocks), title, HIDDEN),)

    def _line(self, view: UpturnView) -> Block:
        tiles = view.line[-SHOWN:]
        if not tiles:
            return line(Span(Msg("Line") + ": ", STRONG), Msg("no tile yet"))
        spans: list[str | Span] = [Span(Msg("Line") + ": ", STRONG)]
        if len(view.line) > SHOWN:
            spans.append("… ")
        for i, t in enumerate(tiles):
            if i:
                spans.append(" · ")
            spans.append(_tile_span(t))
        spans.append("  (" + Plural("{n} tile", "{n} tiles", n=len(view.line)) + ")")
        return line(*spans)

    def _direction(self, view: UpturnView) -> Block:
        names = view.names
        order = " → ".join(names[s] for s in view.order) + f" → {names[view.order[0]]}"
        if view.direction is None:
            arrow = Msg("not set yet")
            how = Msg("the first move sets it; until then play passes clockwise")
        elif view.direction == "up":
            arrow, how = Msg("▲ up"), Msg("clockwise, play passes left")
        else:
            arrow, how = Msg("▼ down"), Msg("counter-clockwise, play passes right")
        head = Span(Msg("Direction") + ": ", STRONG)
        return line(head, Span(arrow, STRONG), " — " + how + ": " + order)

    def _players(self, view: UpturnView) -> Sheet:
        winners = view.outcome.winners if view.outcome is not None else ()
        rows = []
        for p in view.players:
            doing, meaning = "", None
            if view.phase == "over":
                if p.seat in winners:
                    won = Msg("winner") if len(winners) == 1 else Msg("shares the win")
                    doing, meaning = won, WINNER
            elif p.seat == view.to_move and view.phase != "start":
                doing, meaning = Msg("to play"), TURN
            elif p.skipped:
                doing = Msg("skipped")
            mark = "▶" if meaning == TURN else ("★" if meaning == WINNER else "")
            call = Span(Msg("owes 'one tile left'"), ILLEGAL) if p.owes_call else Span("")
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
            Column(Msg("Player")),
            Column(Msg("Tiles"), "right"),
            Column(Msg("Call")),
            Column(Msg("Now"), grow=True),
        )
        return Sheet(columns, tuple(rows))

    def _twin(self, view: UpturnView) -> Sheet:
        tw = view.twin
        assert tw is not None
        twin_no = tw.twin.number
        between = Msg("strictly between {low} and {high}", low=tw.after, high=twin_no)
        if twin_no is not None and twin_no < tw.after:
            laid = Msg("the Twin, laid against {after} (lower, in the direction)", after=tw.after)
        else:
            laid = Msg("the Twin, laid against {after} (higher, in the direction)", after=tw.after)
        rows = [(Span("1"), _tile_span(tw.twin), Span(laid))]
        n = 1
        for t in tw.run:
            n += 1
            why = between + "; " + Msg("a penalty tile: one more to give") if t.penalty else between
            rows.append((Span(str(n)), _tile_span(t), Span(why)))
        owner = view.names[view.to_move] if tw.open and view.to_move is not None else None
        if owner:
            title = Msg(
                "Twin run (still open, {name} may add tiles {between})", name=owner, between=between
            )
        else:
            title = Msg("Twin run (still open)") if tw.open else Msg("Twin run (closed)")
        rows.append((Span("="), Span(str(tw.gives)), Span(self._gives(tw.gives, len(tw.run)))))
        return Sheet(
            (Column("#", "right"), Column(Msg("tile")), Column(Msg("why"), grow=True)),
            tuple(rows),
            title=title,
        )

    @staticmethod
    def _gives(gives: int, added: int) -> str:
        pens = gives - 1 - added
        parts = [
            Msg("1 for the Twin"),
            Plural("{n} for the tile added", "{n} for the tiles added", n=added),
        ]
        if pens:
            parts.append(Plural("{n} for penalty tile", "{n} for penalty tiles", n=pens))
        return Msg("tiles to give from the pool: {parts}", parts=and_join(parts))


PANEL = UpturnPanel()
