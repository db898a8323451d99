"""Flip a Bird's sentences that its rules and its referee (or its panel) both say, each written
once: why a card goes face up or down, and the tips of a claim once they are all in."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["FINAL_PHASE", "LAST_OF_PILE", "PILE_EMPTIES", "all_tips", "cage"]

FINAL_PHASE = "final phase"
"""Why every card goes face down: the final phase has no draw."""
PILE_EMPTIES = "the draw empties the pile"
"""Why the card goes face down: after the draw no back shows on the pile."""
LAST_OF_PILE = "the last card of the pile: face down"
"""The face of the next card when the draw takes the pile's last card."""


def cage(up: bool) -> str:
    """Why the card goes face up or down: the back the pile shows after the draw."""
    return f"{'open' if up else 'covered'} cage on the pile"


def all_tips(names: Sequence[str], tips: Sequence[str | None], claimant: int, accused: int) -> str:
    """Every tip of a claim, once they are all in: 'All tips are in: Ann red (claim), Bob green
    (accused), Cy red.' without its full stop."""
    said = ", ".join(
        f"{names[i]} {t}" + (" (claim)" if i == claimant else " (accused)" if i == accused else "")
        for i, t in enumerate(tips)
    )
    return f"All tips are in: {said}"
