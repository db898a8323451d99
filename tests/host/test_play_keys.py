"""The keys of `upref play`: each enters its input for the referee, q quits, others do nothing."""

from __future__ import annotations

from upref.commands import play
from upref.referee.inputs import EndGame, Hint, NextGame, Undo


class FakeTable:
    def __init__(self) -> None:
        self.sent: list[object] = []
        self.pumped = 0.0

    def pump(self, seconds: float) -> None:
        self.pumped += seconds

    def send(self, inp: object) -> None:
        self.sent.append(inp)

    def clock(self) -> float:
        return 123.0


def test_each_key_enters_its_input_and_q_quits() -> None:
    table = FakeTable()
    for k in ("u", "h", "n", "e", "x", None):
        assert play._step(table, lambda k=k: k) is True  # type: ignore[arg-type]
    assert [type(i) for i in table.sent] == [Undo, Hint, NextGame, EndGame]
    assert all(i.t == 123.0 for i in table.sent)  # type: ignore[attr-defined]
    assert play._step(table, lambda: "q") is False  # type: ignore[arg-type]
    assert table.pumped > 0


def test_play_refuses_a_new_game_without_players(tmp_path, capsys) -> None:
    class NoLink:
        def close(self) -> None:
            pass

    rc = play.main(
        ["updown", "--db", str(tmp_path / "g.sqlite"), "--registry", str(tmp_path / "r.sqlite")],
        opener=lambda port: NoLink(),  # type: ignore[arg-type,return-value]
    )
    assert rc == 2
    assert "name the players in seat order" in capsys.readouterr().err


def test_resume_with_no_unfinished_game_says_how_to_start_one(tmp_path, capsys) -> None:
    class NoLink:
        def close(self) -> None:
            pass

    rc = play.main(
        ["updown", "--resume", "--db", str(tmp_path / "g.sqlite"), "--registry", str(tmp_path / "r.sqlite")],
        opener=lambda port: NoLink(),  # type: ignore[arg-type,return-value]
    )
    assert rc == 2
    assert "no unfinished game to resume" in capsys.readouterr().err
