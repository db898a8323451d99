"""The parts of every scoreboard that no game writes, said in German: the board's alarm and its
faults, the verdict feed's labels and 'fix', what the table waits for, the keys' line and the
key board's notes; a refusal for the ear and the result words every game shares (the English
of each stays as it was)."""

from __future__ import annotations

from panel_text import console_text
from still_english import missed, still_english
from upref.games.base import ResultWords
from upref.referee.status import (
    BOARD,
    END,
    ILLEGAL,
    INFO,
    OK,
    SOLVED,
    TURN,
    TableStatus,
    Verdict,
    refusal_words,
)
from upref.text import Msg, Plural, catalogue, in_lang
from upref.views import plain, terminal
from upref.views.blocks import said_in
from upref.views.keys import KeyBoard
from upref.views.scoreboard import LABELS, waiting_scoreboard

GERMAN = "de"


def _status(online: bool) -> TableStatus:
    kinds = (OK, INFO, ILLEGAL, SOLVED, TURN, END, BOARD)
    verdicts = tuple(
        Verdict(k, Msg("The board is back online."), "M-2", Msg("Nothing to undo.")) for k in kinds
    )
    return TableStatus(board_online=online, verdicts=verdicts, faults=(Msg("RFID reader"),))


def test_a_waiting_scoreboard_is_german() -> None:
    catalogue.MISSED.clear()
    keys = (("u", Msg("undo")), ("e", Msg("end the game")), ("q", Msg("quit")))
    board = said_in(waiting_scoreboard("up", "Up", _status(False), keys), GERMAN)
    text = plain.render(board) + console_text(terminal.render(board))
    assert not still_english(text.splitlines()), still_english(text.splitlines())
    assert not missed(GERMAN), missed(GERMAN)
    for german in ("Warten auf:", "Tasten: u zurücknehmen", "BRETT GETRENNT", "richten:", "Zuletzt:"):
        assert german in text, german
    english = plain.render(waiting_scoreboard("up", "Up", _status(False), keys))
    assert "Waiting for:" in english and "-> fix:" in english and "Latest:" in english


def test_each_verdict_kind_has_its_own_german_label() -> None:
    german = {in_lang(label, GERMAN) for label in LABELS.values()}
    assert len(german) == len(LABELS)
    assert not set(LABELS.values()) & german - {"ok"}


def test_a_refusal_for_the_ear_and_the_results_are_german() -> None:
    catalogue.MISSED.clear()
    said = refusal_words("Ann", Msg("that is not allowed now"), Msg("Put the -2 card back in the box."))
    assert in_lang(said, GERMAN).startswith("Ann, nein. Das ist jetzt nicht erlaubt.")
    words = ResultWords(score=Plural("{n} point", "{n} points", n=0))
    lines = [
        in_lang(words.text(["Ann"], 5), GERMAN),
        in_lang(words.headline(["Ann", "Bob"], 3), GERMAN),
        in_lang(words.spoken(["Ann"], 0), GERMAN),
        in_lang(words.headline([], 0), GERMAN),
    ]
    assert lines[0] == "Ann gewinnt – 5 Punkte"
    assert str(words.text(["Ann"], 5)) == "Ann wins with 5 points"
    assert str(words.spoken(["Ann"], 0)) == "Ann wins, with no points!"
    assert not still_english(lines, ["Ann", "Bob"]), lines
    assert not missed(GERMAN), missed(GERMAN)


def test_the_key_boards_prompts_are_german() -> None:
    kb = KeyBoard(send=lambda _i: None, clock=lambda: 0.0)
    notes = [kb._not_now(k) for k in ("n", "u", "e", "z")]
    line = kb.key_line()
    said = [in_lang(n, GERMAN) for n in notes] + [in_lang(what, GERMAN) for _k, what in line]
    assert not still_english(said), still_english(said)
