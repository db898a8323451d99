"""Walking a `Drawing` of table pieces (`upref.views.pieces`) in drawing order, for the tests
that compare a panel's picture with a game's view: every card wherever it lies (a row, a seat's
rows, a tower), the faces of the face-up ones, and the colour-blind check (every coloured face
carries its letter, one letter per colour)."""

from __future__ import annotations

from collections.abc import Iterator

from upref.views.blocks import Block, Box
from upref.views.pieces import Card, Drawing, Face, Piece, Row, Seats, Tower


def cards_of(piece: Piece) -> Iterator[Card]:
    """The cards a piece draws, in order (a seat's rows in turn)."""
    if isinstance(piece, Card):
        yield piece
    elif isinstance(piece, Row):
        yield from piece.pieces
    elif isinstance(piece, Tower):
        yield from piece.cards
    elif isinstance(piece, Seats):
        for seat in piece.seats:
            for row in seat.rows:
                yield from row.pieces


def all_cards(picture: Drawing) -> list[Card]:
    return [c for p in picture.pieces for c in cards_of(p)]


def faces(picture: Drawing) -> list[Face]:
    return [c.face for c in all_cards(picture) if c.face is not None]


def ids_shown(picture: Drawing) -> set[str]:
    """The ids of the face-up cards a picture names."""
    return {c.id for c in all_cards(picture) if c.id is not None}


def rows(picture: Drawing) -> list[Row]:
    """The picture's own rows (not the seats' rows)."""
    return [p for p in picture.pieces if isinstance(p, Row)]


def the(picture: Drawing, kind: type) -> object:
    """The one piece of this class in the picture.

    :raises AssertionError: when there is none or more than one.
    """
    found = [p for p in picture.pieces if isinstance(p, kind)]
    assert len(found) == 1, f"{len(found)} pieces of {kind.__name__} in {picture}"
    return found[0]


def drawings_in(blocks: tuple[Block, ...] | list[Block]) -> list[Drawing]:
    """The pictures among blocks, and inside their boxes."""
    out: list[Drawing] = []
    for b in blocks:
        if isinstance(b, Drawing):
            out.append(b)
        elif isinstance(b, Box):
            out.extend(x for x in b.blocks if isinstance(x, Drawing))
    return out


def assert_colour_blind_safe(picture: Drawing) -> None:
    """Every face with a colour carries a letter too, and one colour always the same letter,
    two colours never the same one."""
    letter: dict[str, str] = {}
    for f in faces(picture):
        if f.colour is None:
            continue
        assert f.mark, f"{f} has a colour and no letter"
        assert letter.setdefault(f.colour, f.mark) == f.mark, f"{f.colour} drawn as {letter[f.colour]} and {f.mark}"
    assert len(set(letter.values())) == len(letter), f"two colours share a letter: {letter}"
