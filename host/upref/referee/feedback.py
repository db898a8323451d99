"""Board feedback for verdicts: the status LED's colour and a beep pattern, as the arguments of
the protocol's `LED <rrggbb> [ms]` and `BEEP <hz>:<ms>[,<hz>:<ms>...]` commands
(docs/protocol.md). The referee returns one `Feedback` per reply (for its most important
public verdict); the caller sends it with `link.command(ftype, *args)` for each of
`feedback.commands()`. Verdicts addressed to one seat (hints) give no feedback: a beep is
public.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from upref.referee.status import BOARD, END, ILLEGAL, INFO, OK, SOLVED, TURN, Verdict

__all__ = ["FEEDBACK", "PRIORITY", "Feedback", "feedback_for"]


@dataclass(frozen=True)
class Feedback:
    """LED colour `led` (rrggbb hex) for `led_ms` milliseconds, and a beep pattern (steps
    'hz:ms' joined by commas; hz 0 is a pause; empty: no beep)."""

    kind: str
    led: str
    led_ms: int
    beep: str = ""

    def commands(self) -> list[tuple[str, tuple[str | int, ...]]]:
        """[(frame type, args), ...] for `link.command`."""
        out: list[tuple[str, tuple[str | int, ...]]] = [("LED", (self.led, self.led_ms))]
        if self.beep:
            out.append(("BEEP", (self.beep,)))
        return out


FEEDBACK: dict[str, Feedback] = {
    # a legal step: short green, one high beep
    OK: Feedback(OK, "00ff00", 300, "2400:60"),
    # noted, changes nothing: short dim yellow, one soft tick
    INFO: Feedback(INFO, "604000", 300, "1200:30"),
    # refused: red, two low beeps
    ILLEGAL: Feedback(ILLEGAL, "ff0000", 1500, "300:150,0:80,300:150"),
    # a card solved: blue, a rising three-note arpeggio (C5 E5 G5)
    SOLVED: Feedback(SOLVED, "0000ff", 2000, "523:120,659:120,784:240"),
    # the turn passed: a white blink, one mid beep
    TURN: Feedback(TURN, "ffffff", 400, "1000:80"),
    # game over: magenta (the LED shows one colour at a time), a fanfare up the scale
    END: Feedback(END, "ff00ff", 4000, "523:100,659:100,784:100,1047:300,0:100,784:100,1047:400"),
    # the board itself (offline, a fault, a suspect reading, an unknown tag): amber, one long low
    BOARD: Feedback(BOARD, "ffa000", 2000, "220:400"),
}

PRIORITY: tuple[str, ...] = (END, SOLVED, ILLEGAL, BOARD, TURN, OK, INFO)
"""Which verdict's feedback wins when one reply holds several (first wins)."""
_RANK = {kind: i for i, kind in enumerate(PRIORITY)}


def feedback_for(verdicts: Iterable[Verdict]) -> Feedback | None:
    """The feedback for the most important public verdict, or None when there is none."""
    best: str | None = None
    for v in verdicts:
        if v.seat is None and v.kind in _RANK and (best is None or _RANK[v.kind] < _RANK[best]):
            best = v.kind
    return None if best is None else FEEDBACK[best]
