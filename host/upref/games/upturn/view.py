"""Upturn's views: what a seat, or the whole table, may see of a game (frozen dataclasses), and
how a position is shown. Public: the line, the direction and seat order, every rack's count,
the pool's count; never a rack's tiles nor the pool's order."""

from __future__ import annotations

from dataclasses import dataclass

from upref.games.base import GameView, Outcome, OutrightWords, ResultWords
from upref.games.upturn.position import OVER, TWIN, Core, Setup, seat_order
from upref.games.upturn.tiles import Tile
from upref.text import Msg, Plural, join_words

__all__ = ["EMPTIED", "RESULT", "SeatView", "TileView", "TwinView", "UpturnView", "table_view"]

EMPTIED = OutrightWords(
    "empty-rack",
    text=Msg("{name} wins with an empty rack", name=""),
    headline=Msg("{name} wins: the rack is empty", name=""),
    news=Msg("{name}'s rack is empty: {name} wins!", name=""),
)
"""The first empty rack wins: how the result says so (`Termination.EMPTY_RACK` is its id)."""
RESULT = ResultWords(
    score=Plural("{n} tile", "{n} tiles", n=0), title=None, fewest=True, outright=EMPTIED
)
"""How Upturn says who won, for its rules, its referee and its panel: the fewest tiles win."""


@dataclass(frozen=True)
class TileView:
    id: str
    text: str  # '41', 'Up', 'Joker'
    number: int | None
    action: str | None
    twin: bool
    penalty: bool

    @classmethod
    def of(cls, t: Tile) -> TileView:
        return cls(t.id, t.short, t.number, t.action, t.twin, t.penalty)


@dataclass(frozen=True)
class SeatView:
    seat: int
    name: str
    tiles: int  # how many tiles the rack holds (public)
    owes_call: bool  # their turn ended with one tile and the call has not come yet
    skipped: bool  # skipped by the last turn's Skip tiles


@dataclass(frozen=True)
class TwinView:
    """A Twin run: the Twin, the number it was laid against, the tiles added between (in line
    order) and the tiles its player may give (N = 1 + tiles added, plus one per penalty tile)."""

    twin: TileView
    after: int
    run: tuple[TileView, ...]
    open: bool  # its player may still add tiles
    gives: int


@dataclass(frozen=True, kw_only=True)
class UpturnView(GameView):
    """Upturn's view. Public: the line, the direction and seat order, every rack's count, the
    pool's count; never a rack's tiles. A seat's own view adds `rack`: the tiles the engine
    knows that seat holds (none at a table: the referee does not see racks)."""

    variant: str
    turn: int
    direction: str | None
    order: tuple[int, ...]  # seats in playing order from the player to move
    last_number: int | None
    line: tuple[TileView, ...]
    players: tuple[SeatView, ...]
    pool: int
    twin: TwinView | None
    gifts: int  # tiles the player to move may give now
    drew: bool  # the player to move has drawn this turn
    passes: int  # passes in a row with the pool empty (T-12)
    history: tuple[Outcome, ...]
    rack: tuple[TileView, ...] | None = None
    rack_unknown: int = 0


def table_view(game: str, setup: Setup, s: Core, seat: int | None, gifts: int) -> UpturnView:
    """The view of position `s` for `seat` (a seat checked by the caller), or with None for the
    whole table; `gifts`: the tiles the player to move may give now."""
    names = setup.players
    n = len(names)
    phase = OVER if s.outcome is not None else s.phase
    rack: tuple[TileView, ...] | None = None
    rack_unknown = 0
    if seat is not None:
        rack = tuple(TileView.of(setup.catalogue.tile(t)) for t in s.racks[seat])
        rack_unknown = s.unknown[seat]
    return UpturnView(
        game=game,
        game_number=setup.game_number,
        names=names,
        phase=phase,
        to_move=None if phase == OVER else s.to_move,
        outcome=s.outcome,
        verdict=join_words(" ", [x.text for x in s.notes]),
        seat=seat,
        variant=setup.variant.describe(),
        turn=s.turn,
        direction=s.direction,
        order=seat_order(s.direction, s.to_move, n),
        last_number=s.last,
        line=tuple(TileView.of(setup.catalogue.tile(t)) for t in s.line),
        players=tuple(
            SeatView(i, names[i], s.tiles(i), s.owing == i, i in s.skipped) for i in range(n)
        ),
        pool=s.pool_count,
        twin=_twin_view(setup, s, phase),
        gifts=gifts,
        drew=s.drew,
        passes=s.passes,
        history=setup.history,
        rack=rack,
        rack_unknown=rack_unknown,
    )


def _twin_view(setup: Setup, s: Core, phase: str) -> TwinView | None:
    """The Twin run on show (the open one, or the last one until the next turn ends)."""
    if s.twin is None:
        return None
    tw = s.twin
    tile = setup.catalogue.tile
    run_in_line = tuple(TileView.of(tile(x)) for x in s.line[tw.at : tw.at + len(tw.run)])
    pens = sum(1 for x in tw.run if tile(x).penalty)
    return TwinView(
        TileView.of(tile(tw.tile)),
        tw.after,
        run_in_line,
        s.twin_open and phase == TWIN,
        1 + len(tw.run) + pens,
    )
