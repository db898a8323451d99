"""The simulated tags: how every simulated tag's UID is made, and a piece named by its id.

Every piece of every game comes with a simulated NFC tag whose UID is fixed by one rule, so that
`upref enroll GAME --simulated`, `upref simctl tap T05` and `upref demo` agree on it without
anyone typing a UID.

The rule (docs/simulator.md, *The simulated deck*): a piece `item` of game `game` carries the
7-byte NTAG-like UID `04` followed by the first six bytes of SHA-256 of `game/item` (UTF-8),
in upper-case hex:

    sim_uid("updown", "T05")     # '04' + sha256(b'updown/T05')[:6], upper-case hex: 04A62C0714DAE4

`04` is NXP's manufacturer code, the first byte of every NTAG's UID. One exception: a UID's
fourth byte may not be 0x88, ISO/IEC 14443-3's cascade tag (a reader would take the UID for a
longer one and never read it); when it would be, the digest of `game/item/` is taken instead
(another '/' each time, until it is not). The UID depends on the
game's name and the piece's id only, never on the catalogue's order, so a piece keeps its tag
when a catalogue grows.

`find_piece` names a piece the way a person does at the simulated table: its catalogue id in any
case (`T05`, `s-nc1`), or `game:id` when an id is a piece of several games. It is handed the
catalogues (game name -> (item id, label) pairs) and names no game itself: the commands ask the
game registry for them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from upref.board.ndef import piece_message, user_memory
from upref.link.protocol import UID_HEX_LENGTHS

__all__ = [
    "CASCADE_TAG",
    "MANUFACTURER",
    "UID_BYTES",
    "Catalogues",
    "Piece",
    "PieceError",
    "find_piece",
    "looks_like_uid",
    "sim_deck",
    "sim_memory",
    "sim_uid",
    "sim_uids",
]

MANUFACTURER = 0x04
"""NXP's manufacturer code: the first byte of an NTAG's 7-byte UID."""
UID_BYTES = 7
CASCADE_TAG = 0x88
"""ISO/IEC 14443-3's cascade tag: a 7-byte UID's fourth byte is never this."""
_SEPARATORS = ":-"

Catalogues = Mapping[str, Sequence[tuple[str, str]]]
"""game name -> its tagged pieces, (item id, label), in catalogue order."""


def sim_uid(game: str, item: str) -> str:
    """The UID of the simulated tag on piece `item` of `game`: 14 upper-case hex digits."""
    text = f"{game}/{item}"
    while True:
        uid = bytes([MANUFACTURER]) + hashlib.sha256(text.encode()).digest()[: UID_BYTES - 1]
        if uid[3] != CASCADE_TAG:
            return uid.hex().upper()
        text += "/"


def sim_uids(game: str, items: Sequence[tuple[str, str]]) -> dict[str, str]:
    """item id -> simulated UID for every piece of a catalogue, in its order."""
    return {item: sim_uid(game, item) for item, _label in items}


def sim_memory(game: str, item: str) -> bytes:
    """What the simulated sticker on piece `item` of `game` holds from page 4: the record that
    names it (`upref:game/item`, docs/tags.md), as `upref tags write` writes it."""
    return user_memory(piece_message(game, item))


def sim_deck(catalogues: Catalogues) -> dict[str, bytes]:
    """UID -> user memory of every simulated sticker of the catalogues' pieces."""
    return {
        sim_uid(game, item): sim_memory(game, item)
        for game, items in catalogues.items()
        for item, _label in items
    }


def looks_like_uid(text: str) -> bool:
    """Whether `text` is written as a tag's UID: 4, 7 or 10 bytes of hex, ':' or '-' between
    bytes allowed. A word that is not is taken for a piece's id."""
    t = "".join(c for c in text.strip() if c not in _SEPARATORS)
    return len(t) in UID_HEX_LENGTHS and all(c in "0123456789abcdefABCDEF" for c in t)


class PieceError(ValueError):
    """A word that names no piece, or more than one; the message says what to type instead."""


@dataclass(frozen=True)
class Piece:
    """One tagged piece of one game, with its simulated tag."""

    game: str
    item: str
    label: str

    @property
    def uid(self) -> str:
        return sim_uid(self.game, self.item)

    @property
    def name(self) -> str:
        """`updown:T05`: the piece named so that no other game's can be meant."""
        return f"{self.game}:{self.item}"


def find_piece(text: str, catalogues: Catalogues) -> Piece:
    """The piece that `text` names: an item id of one of the catalogues, in any case (an exact
    match first), or `game:item` to pick the game.

    :raises PieceError: for an id no catalogue has, an id of several games, or an unknown game.
    """
    word = text.strip()
    game, sep, item = word.partition(":")
    if sep:
        found = _in_game(game, item, catalogues)
        if found is None:
            some = ", ".join(i for i, _ in list(catalogues.get(game.lower(), ()))[:3])
            raise PieceError(
                f"{game.lower()} has no piece {item!r}: its pieces are named like {some} "
                f"(`upref enroll {game.lower()} --list` lists them all)"
            )
        return found
    exact = [Piece(g, i, label) for g, items in catalogues.items() for i, label in items if i == word]
    matches = exact or [
        Piece(g, i, label)
        for g, items in catalogues.items()
        for i, label in items
        if i.lower() == word.lower()
    ]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        examples = ", ".join(
            f"{items[0][0]} ({g})" for g, items in catalogues.items() if items
        )
        raise PieceError(
            f"{word!r} is neither a tag's UID (4, 7 or 10 bytes of hex, e.g. 04A1B2C3D4E5F6) "
            f"nor the id of a piece: pieces are named by their catalogue ids, e.g. {examples} "
            "(`upref enroll GAME --list` lists a game's)"
        )
    games = [p.game for p in matches]
    raise PieceError(
        f"{word!r} is a piece of {_and(games)}: name the game too, e.g. {matches[0].name} "
        f"or {matches[1].name}"
    )


def _in_game(game: str, item: str, catalogues: Catalogues) -> Piece | None:
    """The piece `item` of `game` (any case), or None when the game has no such piece.

    :raises PieceError: for a game that is not one of the catalogues.
    """
    name = game.strip().lower()
    if name not in catalogues:
        raise PieceError(
            f"no game {game!r} in `{game}:{item}`: the games are {', '.join(catalogues)}"
        )
    items = catalogues[name]
    for i, label in items:
        if i == item:
            return Piece(name, i, label)
    for i, label in items:
        if i.lower() == item.lower():
            return Piece(name, i, label)
    return None


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
