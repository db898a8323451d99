"""Pile's scripted players: they tap "one" or "two", and once "two" when one tile is left."""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from typing import Any

from upref.game import DemoStep
from upref.referee.base import PLAY

from .rules import PileVariant


class PileDemo:
    players = ("Ann", "Bob")
    seed = 1
    settings: dict[str, Any] = {}

    def variant(self, options: argparse.Namespace) -> PileVariant:
        return PileVariant(int(getattr(options, "size", None) or 5))

    def script(self, board: Any, table: Any, uid_of: dict[str, str]) -> Iterator[DemoStep]:
        rng = random.Random(self.seed)
        while table.referee.phase == PLAY:
            pile = table.referee.game.view(None).pile
            item = "two" if pile == 1 else rng.choice(["one", "two"] if pile > 2 else ["one"])
            board.tap(uid_of[item])
            yield f"someone taps {item}", 0.5
            board.remove()
            yield "", 0.3
            if item == "two" and pile == 1:  # refused: take one instead
                board.tap(uid_of["one"])
                yield "and taps one instead", 0.5
                board.remove()
                yield "", 0.3
