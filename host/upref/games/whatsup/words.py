"""What's Up's sentences: those its rules and its referee both say, each written once (the rules
refuse with them, and the referee says them where the table asks before the rules are asked: the
figurine key), and the rules' own verdicts of a lay-out, a flip, a pass and the end, each a
catalogue sentence said in any language."""

from __future__ import annotations

from collections.abc import Sequence

from upref.games.whatsup.cards import COUNTS, Face, colour_word, face_words, row_words
from upref.text import Msg, Plural, and_join, join_words

__all__ = [
    "all_laid",
    "figurine_back",
    "figurine_spent",
    "figurine_stands",
    "fits",
    "lay",
    "lay_out",
    "must_pass",
    "passes",
    "reserved",
    "rows_done",
    "stalled",
    "stays",
    "table_left",
    "tiebreak",
    "verdict_head",
    "why_not",
    "without_addition",
]


def figurine_spent(name: str) -> str:
    """A second figurine placement, the figurine back in the box (rule 'figurine')."""
    return Msg("{name}'s figurine went back into the box: a figurine is placed once per game.", name=name)


def figurine_stands(name: str, face: Face | str) -> str:
    """A second figurine placement, the figurine still on the card showing `face` (rule
    'figurine')."""
    return Msg(
        "{name}'s figurine already stands on the card showing {face}: a figurine is placed once "
        "per game and cannot be moved.",
        name=name,
        face=face_words(face),
    )


def lay_out(number: int, variant: str, players: Sequence[str], n: int, first_game: bool) -> str:
    """The start of a game: who plays, and how the cards are laid out."""
    if first_game:
        how = Msg(
            "Lay out the {n} cards as a rectangle of 6 by 5, row by row, left to right: tap "
            "each card as you lay it, and put it down with the side the referee names up.",
            n=n,
        )
    else:
        how = Msg(
            "Lay out the {n} cards anywhere on the table, none overlapping another: tap each "
            "card as you lay it, and put it down with the side the referee names up.",
            n=n,
        )
    return Msg(
        "Game {number} ({variant}): {names}. {how}",
        number=number,
        variant=variant,
        names=and_join(list(players)),
        how=how,
    )


def lay(laid: int, total: int, cell: tuple[int, int] | None, face: str) -> str:
    """A card tapped at set-up: where it goes (`cell`: its row and column in the first game's
    rectangle) and which side up."""
    if cell is not None:
        return Msg(
            "Card {laid} of {total}: lay it in row {row}, column {column} with {face} up.",
            laid=laid,
            total=total,
            row=cell[0],
            column=cell[1],
            face=face,
        )
    return Msg("Card {laid} of {total}: lay it with {face} up.", laid=laid, total=total, face=face)


def all_laid(total: int, first: str) -> str:
    return Msg("All {total} cards are laid: {name} begins. {name}: flip a card.", total=total, name=first)


def reserved(name: str, face: str, at: str) -> str:
    """A figurine placed on the card showing `face` (`at`: where, in the first game)."""
    return Msg(
        "{name}'s figurine now stands on the card showing {face}{at}: no one else may flip it. "
        "{name}: now flip a card (that one too, if you like).",
        name=name,
        face=face,
        at=at,
    )


def fits(name: str, face: Face, row: tuple[int, ...]) -> str:
    """The flipped face fits: 'It fits Ann's red row (1): Ann must take it into the
    collection (A-8); the row is now (1, 2).'"""
    grown = row_words((*row, face.count))
    colour = colour_word(face.colour)
    if row:
        return Msg(
            "It fits {name}'s {colour} row {row}: {name} must take it into the collection "
            "(A-8); the row is now {grown}.",
            name=name,
            colour=colour,
            row=row_words(row),
            grown=grown,
        )
    return Msg(
        "It starts {name}'s {colour} row: {name} must take it into the collection (A-8); the "
        "row is now {grown}.",
        name=name,
        colour=colour,
        grown=grown,
    )


def figurine_back(name: str, this_turn: bool) -> str:
    """The card the player's own figurine stood on went into the collection (A-6 when it was
    placed this turn)."""
    if this_turn:
        return Msg("{name}'s figurine goes back into the box (A-6).", name=name)
    return Msg("{name}'s figurine goes back into the box.", name=name)


def why_not(name: str, face: Face, row: tuple[int, ...]) -> str:
    """Why a flipped face does not fit `name`'s row of its colour (`row`: its counts)."""
    c = colour_word(face.colour)
    if face.count == 1:
        return Msg(
            "{name} already has a {colour} row, and no one starts a second row of a colour",
            name=name,
            colour=c,
        )
    if not row:
        return Msg("{name} has no {colour} row yet, and a row starts with a card of 1 bird", name=name, colour=c)
    if len(row) == len(COUNTS):
        return Msg("{name}'s {colour} row is complete {row}", name=name, colour=c, row=row_words(row))
    if len(row) >= face.count:
        return Msg(
            "{name}'s {colour} row {row} has its card of {birds}",
            name=name,
            colour=c,
            row=row_words(row),
            birds=Plural("{n} bird", "{n} birds", n=face.count),
        )
    return Msg(
        "{name}'s {colour} row {row} needs its card of {birds} first",
        name=name,
        colour=c,
        row=row_words(row),
        birds=Plural("{n} bird", "{n} birds", n=len(row) + 1),
    )


def stays(name: str, face: str, cell: tuple[int, int] | None) -> str:
    """A card that did not fit stays on the table: back in its place (`cell`, the first game)
    or wherever the player puts it."""
    if cell is not None:
        return Msg(
            "It stays on the table, {face} up, back in its place (row {row}, column {column}).",
            face=face,
            row=cell[0],
            column=cell[1],
        )
    return Msg(
        "It stays on the table, {face} up, wherever {name} puts it (not on another card).",
        face=face,
        name=name,
    )


def without_addition(since: int, stall: int) -> str:
    return Msg("{since} of {stall} turns without an addition.", since=since, stall=stall)


def passes(name: str, since: int, stall: int) -> str:
    """A-11: a player who can flip nothing passes."""
    return Msg(
        "{name} cannot flip a card: every card on the table carries another player's "
        "figurine, so {name} passes (A-11). {since} of {stall} turns without an addition.",
        name=name,
        since=since,
        stall=stall,
    )


def must_pass(name: str) -> str:
    return Msg(
        "Every card on the table carries another player's figurine: {name} must pass (A-11).",
        name=name,
    )


def rows_done(name: str, done: Sequence[str], players: int, need: int) -> str:
    """The end by complete rows: the colours `name` completed."""
    return Msg(
        "{name} has completed {rows} ({colours}): with {players} players, {need} complete "
        "rows win at once.",
        name=name,
        rows=Plural("{n} row", "{n} rows", n=len(done)),
        colours=and_join([colour_word(c) for c in done]),
        players=players,
        need=need,
    )


def table_left(left: int) -> str:
    """The end when few cards are left on the table (A-2)."""
    return Plural(
        "Only {n} card is left on the table (A-2): the game ends.",
        "Only {n} cards are left on the table (A-2): the game ends.",
        n=left,
    )


def stalled(stall: int) -> str:
    """The end after turns in a row without an addition (A-3)."""
    return Msg("{stall} turns in a row without an addition (A-3): the game ends.", stall=stall)


def tiebreak(birds: str, cards: str | None) -> str:
    """Birds of everyone and, where the most birds are tied, the cards of the tied (A-5)."""
    if cards is not None:
        return Msg(
            "(birds: {birds}; tied on birds, the fewest cards win (A-5): {cards})",
            birds=birds,
            cards=cards,
        )
    return Msg("(birds: {birds})", birds=birds)


def verdict_head(text: str, ending: str) -> str:
    """A turn's verdict without the end of the game it announces (`ending`, its last sentence),
    each still said in any language."""
    parts = getattr(text, "parts", None)
    tail = tuple(getattr(ending, "parts", (ending,)))
    k = len(tail)
    if parts is not None and len(parts) > k + 1 and tuple(parts[-k:]) == tail and parts[-k - 1] == " ":
        return join_words("", parts[: -k - 1])
    return text[: len(text) - len(ending)].strip()
