"""An Upturn position: what a game holds at a moment (`Core`, the record the engine replaces,
never mutates), what can be read off it without a rule (`UpturnPosition`, the base of the
engine's `UpturnState`), and the builders that make one: a blank table, a deal from a shuffle, a table whose
racks the referee does not see, or a position described directly (tests and the rulebook's
examples: `UpturnState.position(UpturnDescription(...))`).

**Two ways to know the racks.** A dealt position knows every rack and the pool's order. A
position at a table knows only what the table shows: the tiles on the line, and each rack's
*count*. The record holds, per seat, the tiles it knows and how many it does not, so a
described position can mix both.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import KW_ONLY, dataclass, field, replace
from typing import Literal, Self

from upref.games.base import TERMINAL, MatchState, Outcome, StateField
from upref.games.upturn.actions import Action
from upref.games.upturn.tiles import ACTION_NAMES, Catalogue, Tile, load_catalogue
from upref.games.upturn.variant import Variant
from upref.text import Msg, Plural, and_join, upper_first

__all__ = [
    "DOWN",
    "DRAWN",
    "GIFT",
    "JOKER",
    "OVER",
    "PLAYERS",
    "START",
    "TURN",
    "TWIN",
    "UP",
    "Core",
    "Note",
    "Setup",
    "TwinRun",
    "UpturnDescription",
    "UpturnPosition",
    "at_table",
    "blank",
    "check_players",
    "deal",
    "described",
    "direction_step",
    "make_setup",
    "seat_order",
]

UP, DOWN = "up", "down"
PLAYERS = (2, 4)
"""The fewest and the most players."""

# phases
START = "start"  # the Starting tile is to be turned up (a game at a table)
TURN = "turn"  # a turn begins: lay, draw (or pass on an empty pool)
DRAWN = "drawn"  # drawn: lay one tile or keep all (T-4)
TWIN = "twin"  # a Twin is down: run tiles, then the gift (T-7)
JOKER = "joker"  # a Joker is down: one extra tile or none (T-6)
GIFT = "gift"  # a gift may be given before the turn ends (T-11)
OVER = "over"


def direction_step(direction: str | None) -> int:
    """+1 (clockwise) for up and before the direction is set (T-3), -1 for down."""
    return -1 if direction == DOWN else 1


def seat_order(direction: str | None, first: int, players: int) -> tuple[int, ...]:
    """The seats in playing order from `first` under `direction` (up = clockwise)."""
    way = direction_step(direction)
    return tuple((first + way * k) % players for k in range(players))


@dataclass(frozen=True)
class Note:
    """One thing the last action did, for the table: `kind` "step" (within a turn), "turn"
    (the turn passed), "penalty" (a missed call's penalty), "call", "end" (the game ended);
    `rule` the ruling it applies, if any."""

    kind: Literal["step", "turn", "penalty", "call", "end"]
    text: str
    rule: str | None = None


@dataclass(frozen=True)
class TwinRun:
    """A Twin and its run."""

    tile: str
    after: int  # the last number before the Twin
    at: int  # where its run starts in the line
    run: tuple[str, ...]  # run tiles, in the order laid
    turn: int  # the turn it was laid in


@dataclass(frozen=True)
class Core:
    """Everything that changes; replaced, never mutated, so a snapshot is a reference."""

    phase: str
    line: tuple[str, ...]
    last: int | None
    direction: str | None
    to_move: int
    pool: tuple[str, ...] | None  # top first, when known
    pool_count: int
    racks: tuple[tuple[str, ...], ...]  # known tiles per seat
    unknown: tuple[int, ...]  # tiles per seat the engine does not know
    turn: int
    laid: int  # tiles laid this turn
    acts: int  # actions this turn
    drew: bool
    twin: TwinRun | None  # the open run, or the last one (shown until the next turn ends)
    twin_open: bool
    gifts: int  # tiles the player may give (T-7, T-11)
    gift_for: tuple[str, ...]  # the tiles that earned them
    skips: int
    precalled: bool
    owing: int | None  # seat that owes the call (T-13)
    passes: int
    skipped: tuple[int, ...]
    outcome: Outcome | None
    notes: tuple[Note, ...]
    penalized: int | None = None  # took the missed call's penalty in the last action

    def tiles(self, seat: int) -> int:
        """How many tiles `seat` holds (public)."""
        return len(self.racks[seat]) + self.unknown[seat]


@dataclass(frozen=True)
class Setup:
    """What a game never changes: players, tiles, variant, its place in a match."""

    players: tuple[str, ...]
    catalogue: Catalogue
    variant: Variant
    game_number: int
    history: tuple[Outcome, ...]
    index: dict[str, int] = field(repr=False, compare=False)
    start_note: tuple[str, ...] = ()


# --- building -----------------------------------------------------------------------------


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    """:raises ValueError: for fewer than 2 or more than 4 players, or repeated names."""
    names = tuple(players)
    if not PLAYERS[0] <= len(names) <= PLAYERS[1]:
        raise ValueError(
            Msg(
                "Upturn is for {least} to {most} players, not {n}",
                least=PLAYERS[0],
                most=PLAYERS[1],
                n=len(names),
            )
        )
    if any(not isinstance(p, str) or not p.strip() for p in names):
        raise ValueError(Msg("player names must be non-empty text: {names!r}", names=names))
    if len({p.lower() for p in names}) != len(names):
        raise ValueError(Msg("player names must differ: {names!r}", names=names))
    return names


def make_setup(
    players: tuple[str, ...],
    catalogue: Catalogue,
    variant: Variant,
    game_number: int = 1,
    history: tuple[Outcome, ...] = (),
    start_note: tuple[str, ...] = (),
) -> Setup:
    index = {t.id: i for i, t in enumerate(catalogue.tiles)}
    return Setup(players, catalogue, variant, game_number, history, index, start_note)


def blank(
    setup: Setup,
    *,
    racks: Sequence[Sequence[str]] | None = None,
    pool: tuple[str, ...] | None = None,
    unknown: Sequence[int] | None = None,
) -> Core:
    """The table before the Starting tile: the racks as given (tiles known, counts unknown)."""
    n = len(setup.players)
    index = setup.index
    known = tuple(tuple(sorted(r, key=index.__getitem__)) for r in (racks or [()] * n))
    hidden = tuple(unknown or [0] * n)
    in_racks = sum(len(r) for r in known) + sum(hidden)
    return Core(
        phase=START,
        line=(),
        last=None,
        direction=None,
        to_move=0,
        pool=pool,
        pool_count=len(pool) if pool is not None else len(setup.catalogue) - in_racks,
        racks=known,
        unknown=hidden,
        turn=0,
        laid=0,
        acts=0,
        drew=False,
        twin=None,
        twin_open=False,
        gifts=0,
        gift_for=(),
        skips=0,
        precalled=False,
        owing=None,
        passes=0,
        skipped=(),
        outcome=None,
        notes=(),
    )


def deal(
    names: tuple[str, ...], rng: random.Random, variant: Variant, cat: Catalogue
) -> tuple[Setup, Core, str]:
    """A deal from a shuffle by `rng`: every player takes `variant.deal` tiles, then the top
    tile is turned up as the Starting tile; an action tile turned up goes back, the pool is
    reshuffled and another is turned (T-1). Returns the set-up, the table before the Starting
    tile is laid, and that tile."""
    tiles = list(cat.ids())
    rng.shuffle(tiles)
    n, d = len(names), variant.deal
    racks = [tiles[i * d : (i + 1) * d] for i in range(n)]
    pool = tiles[n * d :]
    returned: list[str] = []
    while cat.tile(pool[0]).action is not None:  # T-1
        returned.append(pool[0])
        rng.shuffle(pool)
    notes = tuple(
        Msg(
            "{tile} was turned up first: back into the pool, the pool reshuffled (T-1).",
            tile=upper_first(cat.tile(t).words()),
        )
        for t in returned
    )
    setup = make_setup(names, cat, variant, start_note=notes)
    return setup, blank(setup, racks=racks, pool=tuple(pool)), pool[0]


def at_table(
    names: tuple[str, ...],
    variant: Variant,
    cat: Catalogue,
    game_number: int,
    history: tuple[Outcome, ...],
) -> tuple[Setup, Core]:
    """A table whose racks are dealt face down: only their counts are known."""
    setup = make_setup(names, cat, variant, game_number, history)
    core = blank(setup, unknown=[variant.deal] * len(names))
    text = Msg(
        "Game {number} ({variant}): {players}. Shuffle the tiles face down; each player takes "
        "{deal}; turn up the Starting tile and tap it.",
        number=game_number,
        variant=variant.describe(),
        players=and_join(list(names)),
        deal=variant.deal,
    )
    return setup, replace(core, notes=(Note("step", text),))


@dataclass(frozen=True)
class UpturnDescription:
    """A position described directly (tests, the rulebook's examples), for the `players`. Tiles
    are named by id ('N42', 'JOKER1'), by number (42) or by kind ('joker', 'up'): the first
    unused tile of that kind. `racks[seat]` lists its tiles, or is a count of tiles the engine
    does not know; `pool` is a list (top first), a count, or None for every tile left (in
    catalogue order; only a count when some rack is a count). An empty `line` leaves the
    Starting tile to be turned up. `direction` is 'up', 'down' or None (not set yet); `owing`
    the seat whose call is due."""

    players: Sequence[str]
    _: KW_ONLY
    line: Sequence[str | int] = ()
    racks: Sequence[Sequence[str | int] | int]
    pool: Sequence[str | int] | int | None = None
    direction: str | None = None
    to_move: int = 0
    owing: int | None = None
    variant: Variant | None = None
    catalogue: Catalogue | None = None


def described(description: UpturnDescription) -> tuple[Setup, Core]:
    """A position described directly (see `UpturnDescription`).

    :raises ValueError: for too few or too many players, tiles that do not exist or appear
        twice, counts that do not add up to the set, a direction other than up, down or None,
        or a bad seat.
    """
    d = description
    names = check_players(d.players)
    cat = d.catalogue or load_catalogue()
    racks, direction, to_move, owing = d.racks, d.direction, d.to_move, d.owing
    if direction not in (None, UP, DOWN):
        raise ValueError(f"direction must be 'up', 'down' or None: {direction!r}")
    if len(racks) != len(names):
        raise ValueError(f"{len(names)} players need {len(names)} racks, got {len(racks)}")
    if not 0 <= to_move < len(names) or (owing is not None and not 0 <= owing < len(names)):
        raise ValueError(f"no such seat: to_move {to_move!r}, owing {owing!r}")
    used: set[str] = set()
    line_ids = _resolve(cat, d.line, used)
    known, unknown = _described_racks(cat, racks, used)
    pool_ids, pool_count = _described_pool(cat, d.pool, used, unknown)
    setup = make_setup(names, cat, d.variant or Variant())
    core = blank(setup, racks=known, pool=pool_ids, unknown=unknown)
    numbers = [cat.tile(t).number for t in line_ids if cat.tile(t).numbered]
    last = numbers[-1] if numbers else None
    if line_ids and last is None:
        raise ValueError("the line must hold a numbered tile (the Starting tile)")
    core = replace(
        core,
        pool_count=pool_count,
        phase=TURN if line_ids else START,
        line=line_ids,
        last=last,
        direction=direction,
        to_move=to_move,
        owing=owing,
        turn=1 if line_ids else 0,
        notes=(Note("step", "A position set up for a test."),),
    )
    return setup, core


# --- a position, and what can be read off it ----------------------------------------------


class UpturnPosition(MatchState[Action, Variant, Catalogue]):
    """What an Upturn game holds and what can be read off it without applying a rule: the
    line, the direction, the racks (tiles known and counts), the pool, the call due, the
    notes of the last action; and building a game from a described position. The rules are
    `upref.games.upturn.engine.UpturnState`'s, which subclasses this."""

    def __init__(self, setup: Setup, core: Core) -> None:
        super().__init__()
        self._setup = setup
        self._s = core

    # --- construction ------------------------------------------------------------------

    @classmethod
    def position(cls, description: UpturnDescription) -> Self:
        """A position described directly (tests, the rulebook's examples; see
        `UpturnDescription` for what each part means).

        :raises ValueError: for too few or too many players, tiles that do not exist or appear
            twice, counts that do not add up to the set, a direction other than up, down or
            None, or a bad seat.
        """
        return cls(*described(description))

    # --- read-only --------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return OVER if self._s.outcome is not None else self._s.phase

    line = StateField[tuple[str, ...]]("The tiles on the line, in the order they lie.")

    last_number = StateField[int | None](
        "The last numbered tile's value (action tiles never change it, T-18).", source="last"
    )

    direction = StateField[str | None]("'up', 'down', or None before the first move.")

    turn = StateField[int]("The turn in progress (0 before the Starting tile).")

    pool_count = StateField[int]("How many tiles the pool holds (public).")

    pool = StateField[tuple[str, ...] | None]("The pool, top first, when the engine knows it (secret).")

    owing = StateField[int | None]('The seat whose "one tile" call is due, if any (T-13).')

    @property
    def gifts(self) -> int:
        """Tiles the player to move may give now (0 when no gift is open): what was earned, as
        far as the pool holds it."""
        s = self._s
        return min(s.gifts, s.pool_count) if s.phase in (TWIN, GIFT) else 0

    @property
    def gifts_earned(self) -> int:
        """Tiles the open gift was earned for (0 when none is open), whatever the pool holds: a
        gift may ask for up to this many, and gets what the pool holds (T-19)."""
        s = self._s
        return s.gifts if s.phase in (TWIN, GIFT) else 0

    @property
    def acted(self) -> bool:
        """Whether anything has happened in the turn in progress."""
        return self._s.acts > 0

    notes = StateField[tuple[Note, ...]](
        "What the last action did, sentence by sentence, with the rules applied."
    )

    @property
    def twin(self) -> tuple[str, int, tuple[str, ...], bool] | None:
        """(the Twin, the number before it, its run tiles as laid, still open) or None."""
        t = self._s.twin
        return None if t is None else (t.tile, t.after, t.run, self._s.twin_open)

    def rack(self, seat: int) -> tuple[str, ...]:
        """The tiles the engine knows `seat` holds (secret)."""
        return self._s.racks[self._seat(seat)]

    def unknown(self, seat: int) -> int:
        """How many of `seat`'s tiles the engine does not know."""
        return self._s.unknown[self._seat(seat)]

    def tiles(self, seat: int) -> int:
        """How many tiles `seat` holds (public)."""
        s = self._s
        return len(s.racks[self._seat(seat)]) + s.unknown[seat]

    def counts(self) -> tuple[int, ...]:
        return tuple(self.tiles(s) for s in range(self.num_players()))

    def next_seat(self, steps: int = 1) -> int:
        """The seat `steps` places on from the player to move, in the current direction."""
        s = self._s
        return (s.to_move + direction_step(s.direction) * steps) % self.num_players()

    def tile(self, tile_id: str) -> Tile:
        """:raises KeyError: for an id the set does not have."""
        return self._setup.catalogue.tile(tile_id)

    def need(self) -> str:
        """What the next numbered tile must be, in words: 'lower than 32'."""
        return self._need()

    def gift_reason(self) -> str:
        """What earned the open gift, in words: 'Twin 22 and 2 run tiles: 3'."""
        return self._gift_reason()

    def _gift_reason(self) -> str:
        s = self._s
        parts = []
        if s.twin_open and s.twin is not None:
            tw = s.twin
            if tw.run:
                parts.append(
                    Plural(
                        "{k} for Twin {twin} and {n} run tile",
                        "{k} for Twin {twin} and {n} run tiles",
                        n=len(tw.run),
                        k=1 + len(tw.run),
                        twin=s.last,
                    )
                )
            else:
                parts.append(Msg("{k} for Twin {twin}", k=1, twin=s.last))
        pens = [self.tile(t) for t in s.gift_for if self.tile(t).penalty]
        for t in pens:
            parts.append(Msg("1 for penalty tile {number}", number=t.number))
        return and_join(parts)

    # --- GameState verbs ----------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self._s.outcome is not None else self._s.to_move

    def outcome(self) -> Outcome | None:
        return self._s.outcome

    def _snapshot(self) -> object:
        return self._s

    def _restore(self, snapshot: object) -> None:
        if not isinstance(snapshot, Core):
            raise TypeError(f"not an Upturn snapshot: {snapshot!r}")
        self._s = snapshot

    def clone(self) -> Self:
        other = type(self)(self._setup, self._s)
        other._undo_stack = list(self._undo_stack)
        return other

    def __repr__(self) -> str:
        s = self._s
        line = " ".join(self.tile(t).short for t in s.line[-6:])
        return (
            f"<UpturnState game {self._setup.game_number} turn {s.turn} {self.phase} "
            f"seat {s.to_move} {s.direction or '-'} last {s.last} pool {s.pool_count} "
            f"counts {self.counts()} line ..{line}>"
        )

    # --- what the engine knows, and moving tiles ---------------------------------------------

    def _name(self, seat: int) -> str:
        return self._setup.players[seat]

    def _candidates(self, seat: int) -> list[str]:
        s = self._s
        tiles = list(s.racks[seat])
        if s.unknown[seat]:
            tiles.extend(self._unseen())
        return tiles

    def _unseen(self) -> list[str]:
        """Tiles the engine cannot place: not on the line, in no known rack, not in a known
        pool."""
        s = self._s
        seen = set(s.line)
        for r in s.racks:
            seen.update(r)
        if s.pool is not None:
            seen.update(s.pool)
        return [t for t in self._setup.catalogue.ids() if t not in seen]

    def _holds(self, seat: int, tile_id: str) -> bool:
        s = self._s
        if tile_id in s.racks[seat]:
            return True
        if not s.unknown[seat] or tile_id in s.line:
            return False
        if any(tile_id in r for r in s.racks) or (s.pool is not None and tile_id in s.pool):
            return False
        return True

    def _need(self) -> str:
        """What the next numbered tile must be, in words."""
        s = self._s
        if s.direction is None:
            return Msg("the first move, a numbered tile against {last}", last=s.last)
        if s.direction == UP:
            return Msg("higher than {last}", last=s.last)
        return Msg("lower than {last}", last=s.last)

    def _note(
        self,
        kind: Literal["step", "turn", "penalty", "call", "end"],
        text: str,
        rule: str | None = None,
    ) -> None:
        self._s = replace(self._s, notes=self._s.notes + (Note(kind, text, rule),))

    def _take_from(self, seat: int, tile_id: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
        s = self._s
        racks, unknown = list(s.racks), list(s.unknown)
        if tile_id in racks[seat]:
            racks[seat] = tuple(x for x in racks[seat] if x != tile_id)
        else:
            unknown[seat] -= 1
        return tuple(racks), tuple(unknown)  # type: ignore[return-value]

    def _give_from_pool(self, seat: int, k: int) -> None:
        """`seat` takes k tiles from the pool (a draw, a gift, a penalty)."""
        s = self._s
        racks, unknown = list(s.racks), list(s.unknown)
        pool = s.pool
        if pool is not None:
            got, pool = pool[:k], pool[k:]
            racks[seat] = tuple(sorted(racks[seat] + got, key=self._setup.index.__getitem__))
        else:
            unknown[seat] += k
        self._s = replace(
            s, racks=tuple(racks), unknown=tuple(unknown), pool=pool, pool_count=s.pool_count - k
        )


def _described_racks(
    cat: Catalogue, racks: Sequence[Sequence[str | int] | int], used: set[str]
) -> tuple[list[tuple[str, ...]], list[int]]:
    """Each rack's known tiles and count of unknown ones (a rack given as a count)."""
    known: list[tuple[str, ...]] = []
    unknown: list[int] = []
    for r in racks:
        if isinstance(r, int):
            known.append(())
            unknown.append(r)
        else:
            known.append(_resolve(cat, r, used))
            unknown.append(0)
    return known, unknown


def _described_pool(
    cat: Catalogue, pool: Sequence[str | int] | int | None, used: set[str], unknown: list[int]
) -> tuple[tuple[str, ...] | None, int]:
    """The pool (top first, when known) and its count; checks that every tile of the set is
    accounted for (`unknown`: the tiles of each rack the position does not name)."""
    pool_ids: tuple[str, ...] | None
    hidden_racks = sum(unknown)
    left = [t for t in cat.ids() if t not in used]
    if pool is None and not any(unknown):
        pool_ids, pool_count = tuple(left), len(left)
        used.update(left)
    elif pool is None:  # the rest, less the racks the engine does not see
        pool_ids, pool_count = None, len(left) - hidden_racks
    elif isinstance(pool, int):
        pool_ids, pool_count = None, pool
    else:
        pool_ids = _resolve(cat, pool, used)
        pool_count = len(pool_ids)
    unaccounted = len(cat) - len(used)
    hidden = hidden_racks + (pool_count if pool_ids is None else 0)
    if unaccounted != hidden:
        raise ValueError(
            f"the position accounts for {len(used) + hidden} tiles, but the set has "
            f"{len(cat)}: every tile must be on the line, on a rack or in the pool"
        )
    return pool_ids, pool_count


def _resolve(cat: Catalogue, specs: Iterable[str | int], used: set[str]) -> tuple[str, ...]:
    """Tiles named by id, by number or by kind: the first unused tile of that kind."""
    out: list[str] = []
    for spec in specs:
        found: str | None = None
        if isinstance(spec, int) and not isinstance(spec, bool):
            found = next((t.id for t in cat if t.number == spec and t.id not in used), None)
        elif isinstance(spec, str) and spec in cat:
            found = spec
        elif isinstance(spec, str):
            kind = {v.lower(): k for k, v in ACTION_NAMES.items()}.get(spec.lower(), spec)
            found = next((t.id for t in cat if t.action == kind and t.id not in used), None)
        if found is None:
            raise ValueError(f"no tile {spec!r} is left in the set")
        if found in used:
            raise ValueError(f"tile {found} appears twice in the position")
        used.add(found)
        out.append(found)
    return tuple(out)
