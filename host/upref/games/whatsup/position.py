"""What's Up positions from a description: the rulebook's worked examples and the tests start
from a position in play (`WhatsUpState.position(WhatsUpDescription(...))`), not from the set-up
scan. `position` turns the description (the collections by row, the cards on the table with
their faces up, the figurines, the seat to move) into the state's own terms: where each card
lies, which side is up, whose collection holds it, and where each figurine stands. The engine
builds its state from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass

from upref.games.whatsup.cards import COLOURS, COUNTS, Card, Catalogue, Face, parse_face
from upref.games.whatsup.variant import Variant
from upref.text import Msg, count

__all__ = [
    "ON_TABLE",
    "SPENT",
    "UNUSED",
    "Position",
    "WhatsUpDescription",
    "check_players",
    "position",
]

UNUSED = -1
SPENT = -2
"""A figurine's state besides the index of the card it stands on."""
ON_TABLE = -1
"""A card's owner while it lies on the table (or is not laid yet)."""


@dataclass(frozen=True)
class Position:
    """A position in play in the state's terms. Per card, in catalogue order: its `place` (1..
    in laying order; 0 for a card in a collection), the `side` up (in a collection, the side
    that counts) and its `owner` (`ON_TABLE` or a seat). Per seat, the `figurine` (`UNUSED`,
    `SPENT` or the index of the card it stands on); and the seat `to_move`."""

    place: tuple[int, ...]
    side: tuple[int, ...]
    owner: tuple[int, ...]
    figurine: tuple[int, ...]
    to_move: int


def check_players(players: tuple[str, ...]) -> None:
    """:raises ValueError: for fewer than 2 or more than 4 players, a blank name or repeated
    names."""
    if not 2 <= len(players) <= 4:
        raise ValueError(
            Msg("{game} is for {low} to {high} players, not {players}", game="What's Up", low=2, high=4, players=len(players))
        )
    if any(not isinstance(p, str) or not p.strip() for p in players):
        raise ValueError(Msg("player names must be non-empty text: {names}", names=repr(players)))
    if len(set(players)) != len(players):
        raise ValueError(Msg("player names must differ: {names}", names=repr(players)))


@dataclass(frozen=True)
class WhatsUpDescription:
    """A position in play, described (the rulebook's examples, tests), for the `players`:

    - `collections`: player name -> colour -> length of that row (2: the row holds the cards
      of 1 and 2 birds); the cards are picked from the deck, avoiding cards named in `up` and
      `table`;
    - `table`: the ids of the cards on the table (default: every card not in a collection),
      laid in this order (their places);
    - `up`: card id -> the face up ('1 red'); other table cards lie with side a up;
    - `figurines`: player name -> the id of the table card the figurine stands on, or 'spent';
    - `to_move`: a seat or a name; `turn`; `since`: turns without an addition.

    Every card of the deck must be either on the table or in a collection (30 in all).
    """

    players: Sequence[str]
    _: KW_ONLY
    up: Mapping[str, str] | None = None
    table: Iterable[str] | None = None
    collections: Mapping[str, Mapping[str, int]] | None = None
    figurines: Mapping[str, str] | None = None
    to_move: int | str = 0
    turn: int = 1
    since: int = 0
    variant: Variant | None = None
    catalogue: Catalogue | None = None


def position(description: WhatsUpDescription, cat: Catalogue) -> Position:
    """The position in play that `WhatsUpState.position` starts from, for the description's
    players (checked) and the deck `cat` (see `WhatsUpDescription`).

    :raises ValueError: for a description that does not fit the deck or the rules.
    """
    d = description
    names = tuple(d.players)
    check_players(names)
    table, to_move = d.table, d.to_move
    index = {c.id: i for i, c in enumerate(cat.cards)}
    seat_of = {name: s for s, name in enumerate(names)}
    up = dict(d.up or {})
    for cid in up:
        if cid not in index:
            raise ValueError(f"no card {cid!r} in the deck")
    named = set(up) | set(table or ())
    want = _wanted_faces(names, seat_of, d.collections or {})
    owner, side = _deal_collections(want, cat, named)
    on_table = _table_order(table, owner, index, cat)
    _turn_up(up, owner, side, index, cat)
    place = [0] * len(cat.cards)
    for p, i in enumerate(on_table, start=1):
        place[i] = p
    fig = _figurines(names, seat_of, d.figurines or {}, index, owner, place)
    seat = seat_of.get(to_move, -1) if isinstance(to_move, str) else int(to_move)
    if not 0 <= seat < len(names):
        raise ValueError(f"no seat {to_move!r} to move")
    return Position(tuple(place), tuple(side), tuple(owner), tuple(fig), seat)


def _wanted_faces(
    names: tuple[str, ...], seat_of: Mapping[str, int], collections: Mapping[str, Mapping[str, int]]
) -> list[tuple[int, Face]]:
    """The collections as the faces each seat holds: a row of length 2 is its cards of 1 and 2
    birds.

    :raises ValueError: for a player the game does not have, or a row that is not one.
    """
    want: list[tuple[int, Face]] = []
    for name, rows in collections.items():
        if name not in seat_of:
            raise ValueError(f"no player {name!r} (players: {', '.join(names)})")
        for colour, length in rows.items():
            if colour not in COLOURS or not (
                isinstance(length, int) and 0 <= length <= len(COUNTS)
            ):
                raise ValueError(f"{name}'s {colour!r} row of {length!r}: not a row")
            want.extend((seat_of[name], Face(n, colour)) for n in COUNTS[:length])
    return want


def _deal_collections(
    want: list[tuple[int, Face]], cat: Catalogue, named: set[str]
) -> tuple[list[int], list[int]]:
    """Per card, its owner and the side up: a card of the deck for each wanted face, picked
    among the cards not `named` for the table; every other card on the table, side a up.

    :raises ValueError: when the deck has no such cards.
    """
    free = [i for i, c in enumerate(cat.cards) if c.id not in named]
    picked = _match(want, free, cat.cards)
    if picked is None:
        raise ValueError("the deck has no cards left for those collections")
    n = len(cat.cards)
    owner = [ON_TABLE] * n
    side = [0] * n
    for (seat, face), i in zip(want, picked, strict=True):
        owner[i] = seat
        side[i] = cat.cards[i].side_of(face)
    return owner, side


def _table_order(
    table: Iterable[str] | None, owner: Sequence[int], index: Mapping[str, int], cat: Catalogue
) -> list[int]:
    """The table cards in laying order: `table` as given, else every card not in a collection.

    :raises ValueError: for an unknown card, a card named twice, or a card left nowhere.
    """
    n = len(cat.cards)
    if table is None:
        return [i for i in range(n) if owner[i] == ON_TABLE]
    on_table = []
    for cid in table:
        if cid not in index:
            raise ValueError(f"no card {cid!r} in the deck")
        on_table.append(index[cid])
    if len(set(on_table)) != len(on_table):
        raise ValueError("a card is on the table twice")
    lost = [cat.cards[i].id for i in range(n) if owner[i] == ON_TABLE and i not in on_table]
    if lost:
        raise ValueError(
            f"{count(len(lost), 'card')} neither on the table nor in a collection "
            f"({', '.join(lost)}): the {n} cards are all somewhere"
        )
    return on_table


def _turn_up(
    up: Mapping[str, str],
    owner: Sequence[int],
    side: list[int],
    index: Mapping[str, int],
    cat: Catalogue,
) -> None:
    """Lay each card named in `up` with that face up (in `side`).

    :raises ValueError: for a card in a collection, or a face the card does not have.
    """
    for cid, text in up.items():
        i = index[cid]
        if owner[i] != ON_TABLE:
            raise ValueError(f"{cid} is in a collection, not on the table")
        side[i] = cat.cards[i].side_of(parse_face(text))


def _figurines(
    names: tuple[str, ...],
    seat_of: Mapping[str, int],
    figurines: Mapping[str, str],
    index: Mapping[str, int],
    owner: Sequence[int],
    place: Sequence[int],
) -> list[int]:
    """Per seat, where the figurine is: on a table card, 'spent', else unused.

    :raises ValueError: for a player the game does not have, a card not on the table, or two
        figurines on one card.
    """
    fig = [UNUSED] * len(names)
    for name, where in figurines.items():
        if name not in seat_of:
            raise ValueError(f"no player {name!r} (players: {', '.join(names)})")
        if where == "spent":
            fig[seat_of[name]] = SPENT
            continue
        i = index.get(where, -1)
        if i < 0 or owner[i] != ON_TABLE or place[i] == 0:
            raise ValueError(f"{name}'s figurine: {where!r} is not a card on the table")
        if i in fig:
            raise ValueError(f"two figurines on {where}: only one bird stands on a card")
        fig[seat_of[name]] = i
    return fig


def _match(want: list[tuple[int, Face]], free: list[int], cards: Sequence[Card]) -> list[int] | None:
    """A distinct card for each wanted face (a bipartite matching by augmenting paths); the
    card indices in `want`'s order, or None when there is none."""
    holders = [[i for i in free if f in (cards[i].a, cards[i].b)] for _, f in want]
    taken: dict[int, int] = {}  # card -> position in want

    def place(k: int, seen: set[int]) -> bool:
        for i in holders[k]:
            if i in seen:
                continue
            seen.add(i)
            if i not in taken or place(taken[i], seen):
                taken[i] = k
                return True
        return False

    for k in range(len(want)):
        if not place(k, set()):
            return None
    out = [0] * len(want)
    for i, k in taken.items():
        out[k] = i
    return out
