"""Flip a Bird's sentences that its rules and its referee (or its panel) both say, each written
once: why a card goes face up or down, the tips of a claim once they are all in, and the words
for a colour, a count of cards and a face."""

from __future__ import annotations

from collections.abc import Sequence

from upref.games.flipabird.cards import colour_word
from upref.text import Msg, Plural, and_join, join_words

__all__ = [
    "FINAL_PHASE",
    "LAST_OF_PILE",
    "PILE_EMPTIES",
    "all_tips",
    "birds",
    "cage",
    "cards",
    "claimed",
    "colour_word",
    "face_fix",
    "face_word",
    "final_claim",
    "places",
    "played",
    "shared",
    "split_final_claim",
    "wrong_face",
    "wrong_way",
]

FINAL_PHASE = Msg("final phase")
"""Why every card goes face down: the final phase has no draw."""
PILE_EMPTIES = Msg("the draw empties the pile")
"""Why the card goes face down: after the draw no back shows on the pile."""
LAST_OF_PILE = Msg("the last card of the pile: face down")
"""The face of the next card when the draw takes the pile's last card."""


def face_word(up: bool) -> str:
    """'up' or 'down', as in 'face up'."""
    return Msg("face up") if up else Msg("face down")


def cards(n: int) -> str:
    """'1 card', '3 cards'."""
    return Plural("{n} card", "{n} cards", n=n)


def birds(n: int) -> str:
    """'1 bird', '3 birds'."""
    return Plural("{n} bird", "{n} birds", n=n)


def places(positions: Sequence[int]) -> str:
    """'position 2' / 'positions 1 and 3' (positions counted from 1)."""
    said = and_join([str(p) for p in positions])
    if len(positions) == 1:
        return Msg("position {places}", places=said)
    return Msg("positions {places}", places=said)


def cage(up: bool) -> str:
    """Why the card goes face up or down: the back the pile shows after the draw."""
    return Msg("open cage on the pile") if up else Msg("covered cage on the pile")


def _tip_of(name: str, tip: str | None, i: int, claimant: int, accused: int) -> str:
    colour = colour_word(tip) if tip is not None else ""
    if i == claimant:
        return Msg("{name} {colour} (claim)", name=name, colour=colour)
    if i == accused:
        return Msg("{name} {colour} (accused)", name=name, colour=colour)
    return name + " " + colour


def all_tips(names: Sequence[str], tips: Sequence[str | None], claimant: int, accused: int) -> str:
    """Every tip of a claim, once they are all in: 'All tips are in: Ann red (claim), Bob green
    (accused), Cy red.' without its full stop."""
    said = join_words(", ", [_tip_of(names[i], t, i, claimant, accused) for i, t in enumerate(tips)])
    return Msg("All tips are in: {tips}", tips=said)


def played(name: str, card: str, face: str | None, reason: str | None) -> str:
    """'Ann played R2c face up: red 2 (open cage on the pile).' (`face`: the face of a card
    played face up, None for one played face down)."""
    if face is not None:
        what = Msg("{card} face up: {face}", card=card, face=face)
    else:
        what = Msg("a card face down")
    if reason:
        return Msg("{name} played {what} ({reason}).", name=name, what=what, reason=reason)
    return Msg("{name} played {what}.", name=name, what=what)


def wrong_face(name: str, face: bool, final: bool, last: bool) -> str:
    """Why `name`'s card must go face up (`face`) or down: the final phase, the draw of the
    pile's `last` card, or the back the pile shows."""
    if final:
        why = Msg("in the final phase every card is played face down")
    elif last:
        why = Msg("{why}, so the card goes face down", why=PILE_EMPTIES)
    elif face:
        why = Msg("the pile shows an open cage after the draw")
    else:
        why = Msg("the pile shows a covered cage after the draw")
    if face:
        return Msg("{name}'s card goes face up: {why}.", name=name, why=why)
    return Msg("{name}'s card goes face down: {why}.", name=name, why=why)


def face_fix(face: bool) -> str:
    return Msg("Play it face up.") if face else Msg("Play it face down.")


def wrong_way(name: str, position: int, up: bool) -> str:
    """F-16: the card just played lies the wrong way up."""
    if up:
        return Msg(
            "{name}'s card at position {position} went the wrong way: it must lie face up. "
            "Turn it face up; the play stands (F-16).",
            name=name,
            position=position,
        )
    return Msg(
        "{name}'s card at position {position} went the wrong way: it must lie face down. "
        "Turn it face down; the play stands (F-16).",
        name=name,
        position=position,
    )


def shared(taken: int, shares: str, removed: int) -> str:
    """': all 5 cards are shared (Ann 3 and Bob 2).' after the last take of a claimed row."""
    if removed:
        return Msg(
            ": all {cards} are shared ({shares}; {removed} of them taken out by special "
            "cards, F-5).",
            cards=cards(taken),
            shares=shares,
            removed=removed,
        )
    return Msg(": all {cards} are shared ({shares}).", cards=cards(taken), shares=shares)


_FINAL_CLAIM = "That was the final phase's claim: the game ends. {result}."


def final_claim(result: str) -> str:
    """The end after the final phase's claim: 'That was the final phase's claim: the game ends.
    Ann wins with 8 points.'"""
    return Msg("That was the final phase's claim: the game ends. {result}.", result=result)


def split_final_claim(text: str) -> tuple[str, str]:
    """The verdict of the take that ends the game, split into the sharing and the end
    (`final_claim`'s sentence), each still said in any language."""
    parts = getattr(text, "parts", ())
    end = parts[-1] if len(parts) >= 2 and parts[-2] == " " else None
    if end is not None and getattr(end, "key", None) == _FINAL_CLAIM:
        return join_words("", parts[:-2]), end
    head, _, rest = text.partition(" That was the final phase's claim")
    return head, ("That was the final phase's claim" + rest).strip()


def claimed(name: str, accused: str, others: Sequence[str]) -> str:
    """A claim made: who claims against whom, and who is still to tip."""
    return Msg(
        "{name} claims: \"Bei dir piept's wohl!\" — too many birds in the row {accused} "
        "played to. {name} tips red, {accused} green. {others}: choose red or green, reveal "
        "all at once.",
        name=name,
        accused=accused,
        others=and_join(list(others)),
    )
