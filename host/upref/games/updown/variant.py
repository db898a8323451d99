"""Up And Down's rule variants (docs/games/updown.md, "Variants"): a frozen dataclass that travels
as JSON data in game logs and on command lines."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from upref.text import Msg, Plural, join_words

__all__ = ["Variant"]


@dataclass(frozen=True)
class Variant:
    """Rule variants: `short_game_target` ends the game as soon as a player has solved that
    many cards (M-12); `super_buddler` plays the 4-shovel cards instead of the 1-shovel ones;
    `mole_mix` has the box turned by one corner after each solved card (display only, M-10)."""

    short_game_target: int | None = None
    super_buddler: bool = False
    mole_mix: bool = False

    def __post_init__(self) -> None:
        t = self.short_game_target
        if t is not None and (isinstance(t, bool) or not isinstance(t, int) or t < 1):
            raise ValueError(
                Msg("short_game_target must be a positive whole number: {target!r}", target=t)
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "short_game_target": self.short_game_target,
            "super_buddler": self.super_buddler,
            "mole_mix": self.mole_mix,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Variant:
        """:raises ValueError: for a target that is not a positive whole number."""
        data = data or {}
        return cls(
            short_game_target=data.get("short_game_target"),
            super_buddler=bool(data.get("super_buddler", False)),
            mole_mix=bool(data.get("mole_mix", False)),
        )

    def describe(self) -> str:
        parts = []
        if self.short_game_target is not None:
            target = self.short_game_target
            parts.append(Plural("short game to {n} card", "short game to {n} cards", n=target))
        if self.super_buddler:
            parts.append(Msg("Super Buddler"))
        if self.mole_mix:
            parts.append(Msg("Mole Mix"))
        return join_words(", ", parts) if parts else Msg("basic game")
