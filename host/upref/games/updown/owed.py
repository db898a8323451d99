"""What a turn still owes before it can end (rulings M-14 and M-15), as a pure function of the
turn's state: the game's board (the start-of-turn board with the counted flips made), the holes
turned this turn, and the table as it is (where each pair is, which end is up, each pair in hand
as it was last seen). No board, no referee, no history: the same table always owes the same.

What each pair owes (M-15): what brings it back as it was at the start of the turn, or as its
one counted flip left it.

- In its own hole with the game's colour up: nothing.
- In its own hole with the other colour up: its colour (M-1). It was judged when it went in
  (refused: a second turn, a fourth pair, a card still to draw; or an undo took its turn back).
- In another hole: its own hole (M-2), named at the hole it is in. With the other colour up it
  may still count as a flip once it is home, unless it already has its counted flip or three
  pairs are turned; then it owes its colour as well (M-1, named right after its M-2).
- Out of every hole, as it was last seen: its colour (M-1, named at its own hole) when putting
  it back as it is could not count as a flip; nothing else of its own (its empty hole is M-4's).

"Three pairs are turned" counts, besides the flips already counted, the pairs whose way home
this list names as a flip, in the list's order: following the list then never makes a fourth
flip, and a flip the list names that way is not named again among the flips still missing.

Each thing is named once, in this order (M-14): the corrections in hole order, by the hole the
pair is in now (its own hole while it is out; the pair sitting in a hole before the out pair
whose hole it is), M-2 before M-1 for one pair, a bad reading where it is; then the empty holes
that no named correction fills (moving a pair home, or putting an out pair back, fills its own
hole); then the flips still missing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from upref.games.updown.position import HOLES, Board, PairEnd

__all__ = ["FLIPS", "UNREAD", "Correction", "Owed", "Unread", "owed"]

FLIPS = 3
"""Pairs a turn turns (the engine's FLIPS_PER_TURN)."""


@dataclass(frozen=True)
class Unread:
    """A hole whose reading names no pair that can be taken as being there (an invalid or
    suspect code, or a pair read in another hole too): it must be reseated first."""


UNREAD = Unread()

Seen = PairEnd | Unread | None
"""A hole as the table has it: the pair and its hidden end, `UNREAD`, or None when empty."""


@dataclass(frozen=True)
class Correction:
    """One correction owed.

    `rule` "M-2": move the pair in hole `at` home into hole `home`; "M-1": bring the pair of
    hole `home` (now in hole `at`, or out of every hole: `out`) back with colour `colour` up;
    "sensor": reseat the pair in hole `at` (`home == at`)."""

    rule: str
    at: int
    home: int
    colour: str = ""  # M-1: the colour letter the game has up in hole `home`
    out: bool = False

    def _key(self) -> tuple[int, int, int]:
        return (self.at, int(self.out), int(self.rule == "M-1"))


@dataclass(frozen=True)
class Owed:
    """Everything a turn owes, in the order it is named (see the module's text)."""

    corrections: tuple[Correction, ...]
    empty: tuple[int, ...]
    """Empty holes that no named correction fills (M-4), in hole order."""
    turned: int
    """Flips counted so far."""
    coming: tuple[int, ...]
    """The own holes of pairs whose way home (an M-2, or an out pair put back into its empty
    hole) counts as a flip, in the order the list names them."""

    @property
    def missing(self) -> int:
        """Flips still to make besides those coming home."""
        return max(0, FLIPS - self.turned - len(self.coming))

    @property
    def clear(self) -> bool:
        """Nothing owed: the turn can end."""
        return not self.corrections and not self.empty and self.missing == 0


def owed(
    board: Board,
    turned: Sequence[int],
    table: Sequence[Seen],
    in_hand: Mapping[str, str] | None = None,
) -> Owed:
    """What the turn owes (see the module's text).

    :param board: the game's board, holes 1..10: each pair's own hole and the end it must hide.
    :param turned: the holes whose flips were counted this turn.
    :param table: holes 1..10 as they are: a `PairEnd`, `UNREAD` or None (empty).
    :param in_hand: for pairs in no hole, the end they hid when last seen (default: the
        game's end, as if nothing had happened to them). The pair that belongs in an unread
        hole and is read nowhere else is taken to be in it.
    :raises ValueError: for a table that is not ten holes, or a pair read in two holes.
    """
    if len(table) != HOLES or len(board) != HOLES:
        raise ValueError(f"a board and a table of {HOLES} holes are needed")
    where: dict[str, int] = {}
    for h, seen in enumerate(table, start=1):
        if isinstance(seen, PairEnd):
            if seen.pair in where:
                raise ValueError(f"pair {seen.pair} read in holes {where[seen.pair]} and {h}")
            where[seen.pair] = h
    slots = [FLIPS - len(turned)]
    coming: list[int] = []
    fixes = [Correction("sensor", h, h) for h, seen in enumerate(table, start=1) if seen is UNREAD]
    for h, seen in enumerate(table, start=1):
        if isinstance(seen, PairEnd):
            fixes += _in_a_hole(board, turned, h, seen, slots, coming)
    out = [k for k, e in enumerate(board, start=1) if e.pair not in where and table[k - 1] is not UNREAD]
    # pairs in hand: first those whose empty hole M-4 names, then those whose hole another
    # pair fills now (their way home is not named: judged after every named flip)
    for k in sorted(out, key=lambda k: (table[k - 1] is not None, k)):
        want = board[k - 1]
        hidden = (in_hand or {}).get(want.pair, want.hidden)
        fixes += _in_hand(turned, k, want, hidden, table[k - 1] is None, slots, coming)
    fixes.sort(key=Correction._key)
    filled = {c.home for c in fixes if c.rule == "M-2" or c.out}
    empty = tuple(h for h, seen in enumerate(table, start=1) if seen is None and h not in filled)
    return Owed(tuple(fixes), empty, len(turned), tuple(coming))


def _in_a_hole(
    board: Board, turned: Sequence[int], h: int, seen: PairEnd, slots: list[int], coming: list[int]
) -> list[Correction]:
    """What the pair in hole h owes (holes are taken in order, so flips coming home are
    counted in the order the list names them)."""
    home = next(k for k, e in enumerate(board, start=1) if e.pair == seen.pair)
    want = board[home - 1]
    if home == h:
        return [] if seen.hidden == want.hidden else [Correction("M-1", h, h, want.visible)]
    fixes = [Correction("M-2", h, home)]
    if seen.hidden == want.hidden:
        return fixes
    if home not in turned and slots[0] > 0:  # it counts as a flip once it is home
        slots[0] -= 1
        coming.append(home)
        return fixes
    return fixes + [Correction("M-1", h, home, want.visible)]


def _in_hand(
    turned: Sequence[int],
    home: int,
    want: PairEnd,
    hidden: str,
    home_empty: bool,
    slots: list[int],
    coming: list[int],
) -> list[Correction]:
    """What a pair out of every hole owes, judged as it was last seen. Put back into its empty
    hole as it is, it may count as a flip (M-4 names that hole); whether it can once another
    pair has left its hole is left to that moment: its way home is not named, so it is not
    counted either."""
    if hidden == want.hidden:
        return []
    if home not in turned and slots[0] > 0:
        if home_empty:
            slots[0] -= 1
            coming.append(home)
        return []
    return [Correction("M-1", home, home, want.visible, out=True)]
