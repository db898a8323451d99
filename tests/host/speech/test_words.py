"""Numbers said as words, and a refusal put for the ear."""

from __future__ import annotations

import pytest
from upref.referee.base import all_reasons
from upref.referee.status import ILLEGAL, Verdict, refusal_words
from upref.text import number_words, numbers_in_words, said_count


@pytest.mark.parametrize(
    ("n", "words"),
    [(0, "zero"), (7, "seven"), (13, "thirteen"), (40, "forty"), (52, "fifty-two"),
     (100, "one hundred"), (115, "one hundred and fifteen"), (300, "three hundred"),
     (1002, "one thousand and two"), (2500, "two thousand five hundred"), (-10, "minus ten")],
)
def test_number_words(n: int, words: str) -> None:
    assert number_words(n) == words


def test_numbers_in_a_sentence_become_words_but_not_inside_names() -> None:
    assert (
        numbers_in_words("Bob lays 63 against T05 and R2c: 2 of 8, 1.5 s.")
        == "Bob lays sixty-three against T05 and R2c: two of eight, 1.5 s."
    )
    assert numbers_in_words("Ann plays -2; U-12 is a rule.") == "Ann plays minus two; U-12 is a rule."


def test_said_count() -> None:
    assert [said_count(n, "shovel") for n in (0, 1, 3)] == ["no shovels", "one shovel", "three shovels"]


def test_a_refusal_names_the_player_then_what_is_wrong_then_what_to_do() -> None:
    assert (
        refusal_words("Ann", "That card carries Bob's figurine", "Turn it back")
        == "Ann, no. That card carries Bob's figurine. Turn it back."
    )
    assert refusal_words(None, "The game is over.") == "No. The game is over."


def test_several_reasons_are_said_in_order_without_rule_ids() -> None:
    v = all_reasons(
        "The turn cannot end yet",
        [
            Verdict(ILLEGAL, "Put pair 3 back", "M-2", "Put it back.", spoken="Put pair three back."),
            Verdict(ILLEGAL, "Turn one more pair", "M-1", None, spoken="Turn one more pair."),
        ],
    )
    assert v.spoken == (
        "The turn cannot end yet, for two reasons. First: Put pair three back. "
        "Second: Turn one more pair."
    )
    assert "[M-2]" in v.text
