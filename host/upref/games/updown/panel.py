"""Up And Down's panel of the scoreboard: the players and their shovels, whose turn it is and
how many pairs are turned, the molehills with the colour up in each, the count per colour, the
result; and a player's own screen with their secret task card. When the pairs in the holes
differ from the game's board (after an undo, or a refused move still to be put right), the
molehill table shows what is physically up and what the table must do in each hole, never the
game's expectation as if it were already true.

Hidden information never gets in: the public view holds no hidden colour, no pair id and no
unsolved card (the engine's contract), and `scrub` blanks out any pair id that a text from
elsewhere might carry, since a pair id names the hidden colour too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import cache

from upref.games.base import Outcome
from upref.games.updown.cards import said_colour
from upref.games.updown.engine import Termination
from upref.games.updown.view import RESULT, CardView, TableView, UpDownView
from upref.games.updown.words import RESEAT, shovels
from upref.paths import pinmap_path
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
    Sheet,
    Span,
    colour,
    line,
)
from upref.views.pieces import Card, Drawing, Face, Hole, Mole, Piece, Row, Seat, Seats
from upref.views.scoreboard import STOPPED, earlier_games, result_box

__all__ = ["PANEL", "UpDownPanel"]

_PAIR_ID = re.compile(r"\bP-[A-Z]{2}\b")
_ORDINALS = (Msg("1st"), Msg("2nd"), Msg("3rd"))
_UP_WORDS: Mapping[str, str] = {"out": Msg("out"), "?": Msg("?")}
"""What the molehill table says of a hole with no colour up: empty, or a code no pair has."""
_LETTERS: Mapping[str, str] = {"red": "R", "blue": "B", "yellow": "Y", "white": "W", "black": "K"}


def _letter(colour_name: str) -> str:
    """The letter drawn on a colour (the code table's: black is K)."""
    return _LETTERS.get(colour_name, colour_name[:1].upper())


@cache
def hole_places() -> tuple[tuple[float, float], ...]:
    """Each hole's place on the board, 0..1 across and down, from the pin map's layout (the
    one source the build guide drills by)."""
    layout = json.loads(pinmap_path().read_text(encoding="utf-8"))["layout"]
    w, h = layout["size_mm"]
    return tuple((x / w, y / h) for x, y in layout["holes"])


def up_word(up: str) -> str:
    """The colour up in a hole ('red', 'out', '?') as a word for people."""
    return _UP_WORDS.get(up) or said_colour(up)


def counts_words(counts: Sequence[tuple[str, int]]) -> str:
    """'red 2, blue 3, ...': each colour with its count, in the screen's language."""
    return join_words(", ", [Msg("{colour} {n}", colour=said_colour(c), n=n) for c, n in counts])


def task_face(card: CardView) -> Face:
    """A task card drawn as the colours it asks for, each with its letter."""
    return Face(card.id, colours=tuple((c, n, _letter(c)) for c, n in card.counts))
_TERMINATIONS: Mapping[str, str] = {
    Termination.STACK_EMPTY: Msg("a task card was due and the stack was empty"),
    Termination.TARGET: Msg("a player reached the agreed number of cards (short game)"),
    Termination.STOPPED: STOPPED,
}


class UpDownPanel:
    """The Up And Down panel (`upref.views.scoreboard.Panel`)."""

    title = "Up And Down"  # the game's name: the same in every language

    def header(self, view: UpDownView) -> str:
        parts = [
            Msg("Game {number} ({variant})", number=view.game_number, variant=view.variant),
            Msg("turn {number}", number=view.turn),
            Plural("{n} card on the stack", "{n} cards on the stack", n=view.stack),
        ]
        if view.rotations is not None:
            parts.append(_box_turned(view.rotations))
        return join_words(" · ", parts)

    def turn(self, view: UpDownView) -> str | None:
        names = view.names
        done, of = len(view.turned), view.turned_of
        if view.phase == "over":
            return Msg("Game over.")
        if view.phase == "draw" and view.drawing is not None:
            return Msg("{name} is drawing a task card.", name=names[view.drawing])
        if view.to_move is None:
            return None
        name = names[view.to_move]
        if view.turned:
            return Plural(
                "{name}'s turn: turned {done}/{of} (hole {holes}).",
                "{name}'s turn: turned {done}/{of} (holes {holes}).",
                n=len(view.turned),
                name=name,
                done=done,
                of=of,
                holes=and_join([str(h) for h in view.turned]),
            )
        return Msg("{name}'s turn: turned {done}/{of}.", name=name, done=done, of=of)

    def body(self, view: UpDownView) -> Sequence[Block]:
        blocks: list[Block] = [self._players(view)]
        status = self.turn(view)
        if status:
            blocks.append(line(status, meaning=STRONG))
        blocks.append(self._holes(view))
        game_board = counts_words(view.visible)
        now = view.table if isinstance(view, TableView) else ()
        if not now:
            blocks.append(line(Msg("Up now: {counts}", counts=game_board)))
            return blocks
        ups = [h.up for h in now]
        physical = counts_words([(c, ups.count(c)) for c, _ in view.visible])
        if any(h.todo for h in now):
            blocks.append(
                line(
                    Msg(
                        "Up now: {counts} (once put right: {board})",
                        counts=physical,
                        board=game_board,
                    )
                )
            )
        else:
            blocks.append(line(Msg("Up now: {counts}", counts=physical)))
        return blocks

    def result(self, view: UpDownView) -> Box | None:
        out = view.outcome
        if out is None:
            return None
        names = view.names
        winners = [names[w] for w in out.winners]
        best = out.scores[out.winners[0]] if out.winners else 0
        headline = self._headline(winners, best)
        why = _TERMINATIONS.get(out.termination, out.termination)
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, out.scores, strict=True))
        return result_box(
            headline, Msg("Game over: {why}.", why=why), Msg("Shovels: {scores}", scores=scores)
        )

    def footer(self, view: UpDownView) -> Sequence[Block]:
        blocks: list[Block] = []
        earlier = earlier_games(
            Msg("Earlier games") + ": ", view.history, lambda o: self._outcome_words(view, o)
        )
        if earlier is not None:
            blocks.append(earlier)
        if view.removed:
            blocks.append(
                line(
                    Msg(
                        "Removed at setup (no board solves them): {cards}",
                        cards=", ".join(view.removed),
                    )
                )
            )
        return blocks

    def scrub(self, text: str) -> str:
        """Blank out pair ids: a pair id names both colours, so also the hidden one."""
        if not _PAIR_ID.search(text):
            return text  # as it is: a sentence stays one, said in the screen's language
        return _PAIR_ID.sub("a mole pair", text)

    def drawing(self, view: UpDownView) -> Drawing:
        """The board as it lies: the ten molehills where they are on the board, each with the
        colour up (or empty), the pairs turned this turn in order, a correction due on its hole;
        then the players with their won cards drawn as their colours and a face-down task card
        as its back. What is physically up wins over the game's board (`TableView`)."""
        places = hole_places()
        now = {h.hole: h for h in view.table} if isinstance(view, TableView) else {}
        pieces: list[Piece] = []
        for h in view.holes:
            x, y = places[h.hole - 1]
            seen = now.get(h.hole)
            up = seen.up if seen is not None else h.up
            mole = None if up in ("out", "?") else Mole(up, _letter(up))
            todo = seen.todo if seen is not None and seen.todo else None
            if seen is not None and seen.up == "?":
                todo = todo or RESEAT
            order = view.turned.index(h.hole) + 1 if h.hole in view.turned else None
            pieces.append(Hole(h.hole, x, y, mole, order, todo))
        winners = view.outcome.winners if view.outcome is not None else ()
        seats = []
        for p in view.players:
            rows = [Row(tuple(Card(task_face(c)) for c in p.won), caption=Msg("won"))]
            if p.has_task:
                rows.append(Row((Card(None),), caption=Msg("task card")))
            badges = (shovels(p.shovels),)
            seats.append(Seat(p.seat, p.name, badges, tuple(rows), p.seat in winners))
        mover = view.drawing if view.phase == "draw" else view.to_move
        pieces.append(Seats(tuple(seats), None if view.phase == "over" else mover))
        return Drawing(tuple(pieces), title=Msg("The board"), layout="board")

    def private(self, view: UpDownView) -> Sequence[Block]:
        """The seat's current task card: each colour it asks for, the number asked and the
        number up now, and whether the card matches the board right now.

        :raises ValueError: for a view that is not one seat's own.
        """
        if view.seat is None:
            raise ValueError("the private panel needs one seat's view, UpDownState.view(seat)")
        name = view.names[view.seat]
        title = Msg("{name} — your task card (keep it to yourself)", name=name)
        task = view.task
        if task is None:
            none = line(Msg("No task card: draw one from the stack."), meaning=STRONG)
            return (Box((none,), title, HIDDEN),)
        visible = dict(view.visible)
        rows = []
        matches = True
        for c, asked in task.counts:
            up = int(visible.get(c, 0))
            ok = up == asked
            matches = matches and ok
            rows.append(
                (
                    Span(said_colour(c), colour(c)),
                    Span(str(asked)),
                    Span(str(up)),
                    Span(Msg("ok") if ok else f"{'+' if asked > up else '-'}{abs(asked - up)}"),
                )
            )
        table = Sheet(
            (
                Column(Msg("colour")),
                Column(Msg("asked"), "right"),
                Column(Msg("up now"), "right"),
                Column(Msg("to go")),
            ),
            tuple(rows),
        )
        head = line(
            Msg("{card}: {code}  ({shovels})", card=task.id, code=task.card, shovels=shovels(task.shovels)),
            meaning=STRONG,
        )
        state = (
            line(Msg("The board matches your card now."), meaning=WINNER)
            if matches
            else line(Msg("The board does not match your card yet."))
        )
        own = Row((Card(task_face(task)),), caption=Msg("your task card"))
        card = Drawing((own,), title=Msg("Your card"))
        return (Box((head, card, table, state), title, HIDDEN),)

    def _players(self, view: UpDownView) -> Sheet:
        done, of = len(view.turned), view.turned_of
        winners = view.outcome.winners if view.outcome is not None else ()
        rows = []
        for p in view.players:
            doing, meaning = "", None
            if view.phase == "draw" and p.seat == view.drawing:
                doing, meaning = Msg("drawing a card"), TURN
            elif view.phase == "draw" and p.seat == view.to_move:
                doing = Msg("next to turn")
            elif view.phase == "turn" and p.seat == view.to_move:
                doing, meaning = Msg("turning pairs ({done} of {of})", done=done, of=of), TURN
            elif view.phase == "over" and p.seat in winners:
                doing = Msg("Buddel King") if len(winners) == 1 else Msg("shares the win")
                meaning = WINNER
            mark = "▶" if meaning == TURN else ("★" if meaning == WINNER else "")
            won = ", ".join(f"{c.id} ({c.shovels})" for c in p.won) or "-"
            rows.append(
                (
                    Span(mark),
                    Span(p.name, meaning),
                    Span(str(p.shovels)),
                    Span(won),
                    Span(Msg("face down"), HIDDEN) if p.has_task else Span("-"),
                    Span(doing, meaning),
                )
            )
        columns = (
            Column("", width=1),
            Column(Msg("Player")),
            Column(Msg("Shovels"), "right"),
            Column(Msg("Won cards"), grow=True),
            Column(Msg("Card")),
            Column(Msg("Now")),
        )
        return Sheet(columns, tuple(rows))

    def _holes(self, view: UpDownView) -> Sheet:
        """The molehills: the colour up in each, the pairs turned this turn; when the table
        differs from the game's board (`TableView`: after an undo, a refused move), what is
        physically up and, in a row of its own, what the table must do in each hole."""
        columns = (Column(Msg("hole"), width=6),) + tuple(
            Column(str(h.hole), "center", width=6) for h in view.holes
        )
        now = view.table if isinstance(view, TableView) else ()
        if now:
            up = (Span(Msg("up")),) + tuple(
                Span(up_word(h.up), colour(h.up) if h.up not in ("out", "?") else DIM) for h in now
            )
        else:
            up = (Span(Msg("up")),) + tuple(Span(up_word(h.up), colour(h.up)) for h in view.holes)
        turned = (Span(Msg("turned")),) + tuple(
            Span(_ORDINALS[view.turned.index(h.hole)] if h.hole in view.turned else "")
            for h in view.holes
        )
        rows = [up, turned]
        if any(h.todo for h in now):
            rows.append((Span(Msg("to do"), STRONG),) + tuple(Span(h.todo, STRONG) for h in now))
        return Sheet(columns, tuple(rows), title=Msg("Molehills"), style="grid")

    def _outcome_words(self, view: UpDownView, out: Outcome) -> str:
        """An earlier game's result: its winners and their shovels."""
        best = out.scores[out.winners[0]] if out.winners else 0
        return self._headline([view.names[w] for w in out.winners], best)

    @staticmethod
    def _headline(winners: list[str], best: int) -> str:
        return RESULT.headline(winners, best)


def _box_turned(rotations: int) -> str:
    """'box turned not yet', 'once', 'twice', '3 times' (Mole Mix)."""
    if rotations == 0:
        return Msg("box turned not yet")
    if rotations == 1:
        return Msg("box turned once")
    if rotations == 2:
        return Msg("box turned twice")
    return Msg("box turned {n} times", n=rotations)


PANEL = UpDownPanel()
