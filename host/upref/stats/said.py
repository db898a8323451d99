"""The words of the stats for people, in any language: an evening's date, a game's state when it
gave no result. The data (`--json`, `--csv`) keeps its own plain values; these are what the text
and the page say of them."""

from __future__ import annotations

from datetime import date

from upref.stats.records import ABANDONED, CLOSED, ELSEWHERE, UNFINISHED
from upref.text import Msg

__all__ = ["evening_words", "state_words"]

WEEKDAYS = (Msg("Monday"), Msg("Tuesday"), Msg("Wednesday"), Msg("Thursday"), Msg("Friday"),
            Msg("Saturday"), Msg("Sunday"))
MONTHS = (Msg("January"), Msg("February"), Msg("March"), Msg("April"), Msg("May"), Msg("June"),
          Msg("July"), Msg("August"), Msg("September"), Msg("October"), Msg("November"),
          Msg("December"))
STATES = {
    UNFINISHED: Msg("unfinished"),
    ELSEWHERE: Msg("being played now"),
    CLOSED: Msg("closed without a result"),
    ABANDONED: Msg("abandoned before a move"),
}


def evening_words(day: date) -> str:
    """'Sunday 6 December 2026' (in German 'Sonntag, 6. Dezember 2026')."""
    return Msg("{weekday} {day} {month} {year}", weekday=WEEKDAYS[day.weekday()], day=day.day,
               month=MONTHS[day.month - 1], year=day.year)


def state_words(state: str) -> str:
    """What a game that gave no result is, said for people; a state this upref does not know, as
    it is."""
    return STATES.get(state, state)
