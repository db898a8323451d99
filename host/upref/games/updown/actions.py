"""Up And Down's actions (frozen dataclasses) and their text form: a card drawn, a pair put
back into a hole, the end of a turn."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Action", "DrawTask", "EndTurn", "Reinsert", "format_action", "parse_action"]


@dataclass(frozen=True, order=True)
class DrawTask:
    """Chance: `seat` draws task card `card` (its id) from the stack."""

    seat: int
    card: str


@dataclass(frozen=True, order=True)
class Reinsert:
    """The pair `pair`, pulled out of its own hole `from_hole`, was put into `to_hole` with
    colour `hidden` down. A flip when `to_hole == from_hole` and the other end is now up."""

    from_hole: int
    to_hole: int
    pair: str
    hidden: str


@dataclass(frozen=True, order=True)
class EndTurn:
    """The player ends the turn. `empty_holes`: holes the referee sees empty right now."""

    empty_holes: tuple[int, ...] = ()


Action = DrawTask | Reinsert | EndTurn


def format_action(action: Action) -> str:
    """Text notation: 'draw 0 T07', 'reinsert 3 3 P-RB R', 'end', 'end empty=4,7'."""
    if isinstance(action, DrawTask):
        return f"draw {action.seat} {action.card}"
    if isinstance(action, Reinsert):
        return f"reinsert {action.from_hole} {action.to_hole} {action.pair} {action.hidden}"
    if action.empty_holes:
        return "end empty=" + ",".join(str(h) for h in action.empty_holes)
    return "end"


def parse_action(text: str) -> Action:
    """The inverse of `format_action`.

    :raises ValueError: for text that is not an action.
    """
    words = text.split()
    try:
        if words[0] == "draw" and len(words) == 3:
            return DrawTask(int(words[1]), words[2])
        if words[0] == "reinsert" and len(words) == 5:
            return Reinsert(int(words[1]), int(words[2]), words[3], words[4])
        if words == ["end"]:
            return EndTurn()
        if words[0] == "end" and len(words) == 2 and words[1].startswith("empty="):
            return EndTurn(tuple(int(h) for h in words[1][len("empty=") :].split(",")))
    except (IndexError, ValueError):
        pass
    raise ValueError(f"not an Up And Down action: {text!r}")
