"""What the referee tells the screens, besides each game's own `view()`: its verdicts and what it
is waiting for at the table. Screens only read these. `TableStatus` holds nothing secret (no
hidden colour, no unsolved task card, no hint), so every screen may show all of it.

A `Verdict` with `seat` set is addressed to that seat alone (a hint, the reminder of one's own
task card): a screen shows it to that seat only, never on the public scoreboard. Verdicts for
the whole table have `seat=None` (their text names the players it concerns).

`spoken` is the verdict's form for the ear (`upref play --speak`), written where the verdict is
written: a short sentence or two, no rule id, no brackets, numbers in words where that reads
better ("Ann, that card does not fit: it stays on the table."). None: nothing to say aloud.
It is not part of the game log or of any export (the log keeps inputs; exports keep the text)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from upref.text import Msg, Words, sentence, upper_first
from upref.text.words import Mapped

# Verdict kinds, for styling and feedback:
OK = "ok"  # a legal step (a pair turned, a card drawn)
INFO = "info"  # something noted that changes nothing (a pair put back unturned)
ILLEGAL = "illegal"  # a move the rules forbid: the state did not change; `correction` says what to do
SOLVED = "solved"  # a task card was solved
TURN = "turn"  # a turn ended (and whose turn it is now)
END = "end"  # the game ended (winner(s) in the text)
BOARD = "board"  # about the board itself: offline, a fault, a suspect reading, an unknown card


@dataclass(frozen=True)
class Verdict:
    """One thing the referee says, in plain words, with the rule it applies when there is one."""

    kind: str
    text: str
    rule: str | None = None
    correction: str | None = None
    seat: int | None = None  # set: addressed to that seat ONLY (a hint); None: for everyone
    # the form for the ear (no rule id, no brackets); None: not said. Not compared: two verdicts
    # that say the same are equal however they are spoken
    spoken: str | None = field(default=None, compare=False)

    @property
    def public(self) -> bool:
        """True for a verdict every screen may show; False for one addressed to `seat` alone."""
        return self.seat is None


def refusal_words(who: str | None, reason: str, correction: str | None = None) -> str:
    """A refusal for the ear: the player addressed, what is wrong, and what to do
    ("Ann, no. That card carries Bob's figurine. Turn it back, then flip another card.")."""
    said: str = sentence(_stripped(upper_first(reason)))
    said = Msg("{who}, no. {reason}", who=who, reason=said) if who else Msg("No. {reason}", reason=said)
    if correction:
        said = said + " " + sentence(_stripped(correction))
    return said


def _stripped(text: str) -> str:
    """The text without spaces around it, in whatever language it is said."""
    return Mapped(text, str.strip) if isinstance(text, Words) else text.strip()


NOT_NOW = Msg("that is not allowed now")
"""A refusal's reason for the ear when the written one is not for the ear and the game has no
words of its own for the rule it names."""


def said_reason(reason: str, rule: str | None = None, said: Mapping[str, str] | None = None) -> str:
    """A refusal's reason for the ear: the written `reason`, unless it carries a rule id or a key
    in brackets (not for the ear); then the game's own words for `rule` (`said`), else
    `NOT_NOW`."""
    if "(" not in reason and "[" not in reason:
        return reason
    return (said or {}).get(rule or "", NOT_NOW)


@dataclass(frozen=True)
class TableStatus:
    """The referee's side of the scoreboard."""

    board_online: bool = True
    waiting_for: str | None = None  # "Ann: tap your new task card", "Put the pair back in hole 3"
    corrections: tuple[str, ...] = ()  # physical corrections still outstanding
    verdicts: tuple[Verdict, ...] = field(default_factory=tuple)  # latest public ones, newest last
    faults: tuple[str, ...] = ()  # board faults in words (upref.board.model.fault_advice)
