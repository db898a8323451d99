"""Sentences that read as their English and are said in German from the catalogue."""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import pytest
from upref.text import (
    Msg,
    Plural,
    and_join,
    catalogue,
    in_lang,
    lower_first,
    numbers_in_words,
    sentence,
)
from upref.text.numbers import german_words


@pytest.fixture(autouse=True)
def missed_as_it_was() -> Iterator[None]:
    """These tests say sentences no catalogue has on purpose: the record of sentences said in
    English for want of an entry is put back as it was, for the tests that read it."""
    before = set(catalogue.MISSED)
    yield
    catalogue.MISSED.clear()
    catalogue.MISSED.update(before)


def test_a_sentence_reads_as_its_english_and_is_said_in_german() -> None:
    m = Msg("A line for {who} alone is on {who}'s own page.", who="Ann")
    assert m == "A line for Ann alone is on Ann's own page."
    assert in_lang(m, "en") == m
    german = in_lang(m, "de")
    assert "Ann" in german and german != m


def test_a_key_german_lacks_is_said_in_english_line_by_line() -> None:
    m = Msg("No catalogue holds this sentence about {who}.", who="Bob")
    assert in_lang(m, "de") == "No catalogue holds this sentence about Bob."
    assert in_lang(m, "xx") == "No catalogue holds this sentence about Bob."


def test_sentences_inside_sentences_are_said_in_the_same_language() -> None:
    inner = Msg("for one player's eyes only")
    outer = Msg("({what})", what=inner)
    assert outer == "(for one player's eyes only)"
    assert in_lang(outer, "de") == "(" + in_lang(inner, "de") + ")"


def test_lists_are_joined_with_the_languages_and() -> None:
    names = and_join(["Ann", "Bob", "Cy"])
    assert names == "Ann, Bob and Cy"
    assert in_lang(names, "de") == "Ann, Bob und Cy"
    assert and_join(["Ann"]) == "Ann" and and_join([]) == ""


def test_added_and_changed_sentences_stay_translatable() -> None:
    m = Msg("for one player's eyes only")
    both = "(" + m + ")"
    assert both == "(for one player's eyes only)"
    assert in_lang(both, "de") == "(" + in_lang(m, "de") + ")"
    assert in_lang(sentence(m), "de") == in_lang(m, "de") + "."
    assert lower_first(Msg("answer")) == "answer"


def test_a_count_picks_its_form_in_each_language() -> None:
    assert Plural("{n} shovel", "{n} shovels", n=1) == "1 shovel"
    assert Plural("{n} shovel", "{n} shovels", n=3) == "3 shovels"


def test_numbers_for_the_ear_are_said_in_the_language() -> None:
    said = numbers_in_words(Msg("player {number}", number=-2))
    assert said == "player minus two"
    assert in_lang(said, "de").endswith("minus zwei")
    assert [german_words(n) for n in (0, 1, 7, 16, 21, 52, 100, 101, 1000, 1997)] == [
        "null", "eins", "sieben", "sechzehn", "einundzwanzig", "zweiundfünfzig", "hundert",
        "hunderteins", "tausend", "tausendneunhundertsiebenundneunzig",
    ]


def test_a_sentence_survives_pickling_with_its_arguments() -> None:
    m = Msg("A line for {who} alone is on {who}'s own page.", who=and_join(["Ann", "Bob"]))
    back = pickle.loads(pickle.dumps(m))
    assert back == m and in_lang(back, "de") == in_lang(m, "de")
