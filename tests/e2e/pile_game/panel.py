"""Pile's panel: the pile and what each player took."""

from __future__ import annotations

from collections.abc import Sequence

from upref.text import and_join, count
from upref.views.blocks import STRONG, TURN, WINNER, Block, Box, Column, Sheet, Span, line

from .rules import TITLE, PileView


class PilePanel:
    title = TITLE

    def header(self, view: PileView) -> str:
        return f"{count(view.pile, 'tile')} in the pile"

    def turn(self, view: PileView) -> str | None:
        return None if view.to_move is None else f"{view.names[view.to_move]} to take."

    def body(self, view: PileView) -> Sequence[Block]:
        rows = tuple(
            (Span(name, TURN if view.to_move == seat else None), Span(str(n)))
            for seat, (name, n) in enumerate(zip(view.names, view.taken, strict=True))
        )
        return (Sheet((Column("Player"), Column("Taken", "right")), rows), line(f"Pile: {view.pile}", meaning=STRONG))

    def result(self, view: PileView) -> Box | None:
        if view.outcome is None:
            return None
        names = and_join([view.names[w] for w in view.outcome.winners])
        return Box((line(f"{names} took the last tile", meaning=STRONG, align="center"),), meaning=WINNER)

    def footer(self, view: PileView) -> Sequence[Block]:
        return ()

    def scrub(self, text: str) -> str:
        return text

    def private(self, view: PileView) -> Sequence[Block]:
        return ()
