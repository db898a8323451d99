"""What's Up's sentences that its rules and its referee both say, each written once: the rules
refuse with them, and the referee says them where the table asks before the rules are asked (the
figurine key)."""

from __future__ import annotations

from upref.games.whatsup.cards import Face, face_words
from upref.text import Msg

__all__ = ["figurine_spent", "figurine_stands"]


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
