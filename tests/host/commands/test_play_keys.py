"""The keys of `upref play`: each key the table's frame offers sends its input, a key with a
prompt collects an answer (Enter sends the default), q quits, other keys do nothing; and the
command's refusals."""

from __future__ import annotations

from pathlib import Path

import pytest
from upref.commands import play
from upref.games.updown.referee import Hint
from upref.referee.base import KeyOffer
from upref.referee.inputs import EndGame, Key, NextGame, Undo
from upref.views.frame import Frame
from upref.views.keys import KeyBoard, Private


class FakeTable:
    """What the keys need of the table: where an input goes and the time (and a pump)."""

    def __init__(self, offers: tuple[KeyOffer, ...]) -> None:
        self.sent: list[object] = []
        self.pumped = 0.0
        self.frame = Frame("updown", "Up And Down", keys=offers)

    def pump_until_frame(self, seconds: float) -> bool:
        self.pumped += seconds
        return False

    def send(self, inp: object) -> None:
        self.sent.append(inp)

    def clock(self) -> float:
        return 123.0


def keyboard(table: FakeTable, *, hints: bool = True, private: Private | None = None) -> KeyBoard:
    """The keys on the table's frame, as `upref play` sets them up."""
    return KeyBoard(table.send, table.clock, table.frame, hints, private=private)


OFFERS = (
    KeyOffer("h", "hint", lambda t, _a: Hint(t)),
    KeyOffer("u", "undo", lambda t, _a: Undo(t)),
    KeyOffer("n", "next game", lambda t, _a: NextGame(t)),
    KeyOffer("e", "end", lambda t, _a: EndGame(t)),
    KeyOffer("g", "gift", lambda t, a: Key("gift", t, a), prompt="Gift to", default="Bob 2"),
)


def test_each_offered_key_enters_its_input_and_q_quits() -> None:
    table = FakeTable(OFFERS)
    kb = keyboard(table)
    for k in ("u", "h", "n", "e", "y", "x", None):
        assert play._step(table, lambda k=k: k, kb) is True  # type: ignore[arg-type]
    assert [type(i) for i in table.sent] == [Undo, Hint, NextGame, EndGame]
    assert all(i.t == 123.0 for i in table.sent)  # type: ignore[attr-defined]
    assert play._step(table, lambda: "q", kb) is False  # type: ignore[arg-type]
    assert table.pumped > 0
    assert kb.key_line()[-1] == ("q", "quit")


def test_a_step_waits_for_the_table_s_next_frame_at_most_a_step() -> None:
    """The live screen is drawn after each step: a step ends at the frame a reply publishes
    (`Table.pump_until_frame`, tests/host/referee/test_table_pump.py), so a verdict is drawn at
    once, and after STEP_S at the latest, so a key is read."""
    table = FakeTable(OFFERS)
    assert play._step(table, lambda: None, keyboard(table)) is True  # type: ignore[arg-type]
    assert table.pumped == play.STEP_S


def test_a_key_that_asks_sends_the_default_on_enter_or_what_was_typed() -> None:
    table = FakeTable(OFFERS)
    kb = keyboard(table)
    kb.press("g")
    assert table.sent == [] and kb.prompt_line() == "Gift to [Bob 2] > "
    assert kb.key_line() == (("Enter", "send 'Bob 2'"), ("Esc", "cancel"))
    kb.press("\r")
    assert table.sent == [Key("gift", 123.0, "Bob 2")]
    for k in ("g", "C", "y", "x", "\x7f", " ", "3", "\n"):
        kb.press(k)
    assert table.sent[-1] == Key("gift", 123.0, "Cy 3")
    kb.press("g")
    kb.press("\x1b")  # Esc: nothing sent
    assert len(table.sent) == 2 and kb.prompt_line() is None


class NoLink:
    def close(self) -> None:
        pass


def _run(tmp_path: Path, *argv: str) -> int:
    return play.main(
        [*argv, "--db", str(tmp_path / "g.sqlite"), "--registry", str(tmp_path / "r.sqlite")],
        opener=lambda port: NoLink(),  # type: ignore[arg-type,return-value]
    )


def test_play_refuses_a_new_game_without_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(tmp_path, "updown") == 2
    assert "name the players in seat order" in capsys.readouterr().err


def test_resume_with_no_unfinished_game_says_how_to_start_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(tmp_path, "updown", "--resume") == 1
    assert "no unfinished Up And Down game to resume" in capsys.readouterr().err


def test_an_unknown_game_is_refused_with_the_games_there_are(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(tmp_path, "chess", "Ann") == 2
    assert "unknown game 'chess': the games are updown" in capsys.readouterr().err


def test_e_asks_before_it_ends_the_game_and_only_y_ends_it() -> None:
    table = FakeTable(OFFERS)
    kb = keyboard(table)
    kb.press("e")
    assert table.sent == []
    assert kb.prompt_line() == "End the game now? y ends it, Enter or n plays on [n] > "
    assert kb.key_line() == (("y", "end"), ("Enter", "play on"))
    kb.press("n")
    assert table.sent == [] and kb.prompt_line() is None
    assert kb.notes == ["Not done (end): the game goes on."]
    kb.press("e")
    assert kb.notes == []
    kb.press("\r")  # Enter: the default, no
    assert table.sent == []
    kb.press("e")
    kb.press("\x1b")  # Esc: no
    assert table.sent == [] and kb.prompt_line() is None
    kb.press("e")
    kb.press("y")
    assert table.sent == [EndGame(123.0)]
    assert kb.prompt_line() is None and kb.key_line()[-1] == ("q", "quit")


@pytest.mark.parametrize(
    "argv",
    [
        ["updown", "--short", "2", "Ann", "Bob"],
        ["updown", "--hints", "Ann", "Bob"],
        ["--short", "2", "updown", "Ann", "Bob"],
        ["--db", "x.sqlite", "--hints", "updown", "Ann", "--short", "2", "Bob"],
    ],
)
def test_options_anywhere(argv: list[str]) -> None:
    game, args = play.parse(argv)
    assert game.name == "updown" and args.players == ["Ann", "Bob"]


def test_options_may_come_before_the_players() -> None:
    game, args = play.parse(["updown", "--short", "2", "Ann", "--hints", "Bob"])
    assert game.name == "updown" and args.players == ["Ann", "Bob"]
    assert args.short == 2 and args.hints
    assert game.variant_from_args(args).short_game_target == 2


class FakePage:
    """The page's part `w` needs: the seats and each seat's link."""

    class hub:  # noqa: N801
        seats = ("Ann", "Bob")

    @staticmethod
    def seat_url(seat: int) -> str:
        return f"http://127.0.0.1:8765/seat/TOKEN{seat}"


def test_w_shows_one_player_the_link_to_their_own_page_and_only_theirs() -> None:
    table = FakeTable(OFFERS)  # no game yet: its frame has no view
    private = Private()
    kb = keyboard(table)
    kb.local = (play.page_key(FakePage, lambda: kb.frame, private),)  # type: ignore[arg-type]
    assert ("w", "a player's own web page") in kb.key_line()
    kb.press("w")
    assert kb.prompt_line() == "Whose page? [Ann] > "
    for k in ("b", "o", "b", "\r"):
        kb.press(k)
    assert private.current() == ["Bob's own page (for your eyes only): http://127.0.0.1:8765/seat/TOKEN1"]
    assert table.sent == []  # nothing reaches the referee, nothing changes the game
    kb.press("w")
    for k in ("Z", "o", "e", "\r"):
        kb.press(k)
    assert private.current() == ["No player 'Zoe': the players are Ann, Bob."]


def test_a_key_that_does_not_apply_says_so_in_one_line() -> None:
    table = FakeTable(OFFERS[1:2])  # only u is offered
    kb = keyboard(table, hints=False)
    answers = {}
    for k in ("h", "x", "n", "e"):
        kb.press(k)
        assert len(kb.notes) == 1
        answers[k] = kb.notes[0]
    assert answers["h"] == "Hints are off: start upref play with --hints to have them."
    assert answers["x"] == "The key 'x' does nothing now: the keys that apply are on the last line."
    assert answers["n"].startswith("n (the next game) applies once this game is over")
    assert table.sent == []
    kb.press("u")
    assert kb.notes == [] and len(table.sent) == 1


def test_one_players_panel_leaves_the_shared_screen_at_the_next_key_or_after_20_s() -> None:
    now = [100.0]
    private = Private(clock=lambda: now[0])
    table = FakeTable(OFFERS)
    kb = keyboard(table, private=private)
    private.show("Ann's own page (for your eyes only): http://127.0.0.1:8765/s/abc")
    now[0] += 19.0
    assert private.current() == ["Ann's own page (for your eyes only): http://127.0.0.1:8765/s/abc"]
    now[0] += 1.5
    assert private.current() == []  # 20 s are up
    private.show("Bob's own page (for your eyes only): http://127.0.0.1:8765/s/def")
    kb.press("x")  # any key
    assert private.current() == []
