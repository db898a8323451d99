"""Up's sentences that its rules and its referee (or its panel) both say, each written once: the
rules say them in their verdicts, and the referee where it answers the table before the rules
are asked (a 'last card' pressed too late, the keys it offers); and a card's face as people read
it ('7', '-2', 'disposal': the word said in their language)."""

from __future__ import annotations

from collections.abc import Sequence

from upref.text import Msg, join_words

__all__ = ["cannot_start", "counts_cards", "face_words", "faces_words", "turn_skipped"]


def turn_skipped(name: str) -> str:
    """The penalty of a 'last card' not called in time, as a sentence that names the ruling:
    'Ann's next turn is skipped (U-11).'"""
    return Msg("{name}'s next turn is skipped (U-11).", name=name)


def cannot_start(name: str) -> str:
    """A player with nothing to start a tower with, who passes: 'Ann cannot start a tower' (the
    rules add why)."""
    return Msg("{name} cannot start a tower", name=name)


def counts_cards(name: str) -> str:
    """The count at a round's end: 'Ann taps the remaining cards.'"""
    return Msg("{name} taps the remaining cards.", name=name)


def face_words(face: str) -> str:
    """A card's face for people: a number or '-2' as it is, the disposal card's word in their
    language."""
    return Msg("disposal") if face == "disposal" else face


def faces_words(faces: Sequence[str], separator: str = " · ") -> str:
    """Faces side by side ('7 · 9 · disposal'), each said for people."""
    return join_words(separator, [face_words(f) for f in faces])
