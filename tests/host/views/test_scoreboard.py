"""The scoreboard's contract beyond the golden files: what it refuses, drops and blanks out,
the JSON shape, that it only reads, and the private panel."""

from __future__ import annotations

import copy
import json

import pytest
from scoreboard_cases import (
    STATES,
    console_text,
    flip,
    new_table,
    state_end,
    state_mid_turn,
    state_mole_mix,
    state_solved,
    state_tie,
)
from upref.referee.status import ILLEGAL, INFO, OK, TableStatus, Verdict
from upref.views import (
    render_private,
    render_scoreboard,
    scoreboard_data,
    scoreboard_json,
    scoreboard_text,
)


def test_a_seats_own_view_is_refused() -> None:
    game, status = state_mid_turn()
    with pytest.raises(ValueError, match="secret task card"):
        render_scoreboard(game.view(0), status)
    with pytest.raises(ValueError, match="secret task card"):
        scoreboard_text(game.view(1), status)
    with pytest.raises(ValueError, match="not an Up And Down view"):
        scoreboard_json({"game": "upturn"}, status)


def test_a_verdict_for_one_seat_is_never_shown() -> None:
    game, _ = state_mid_turn()
    status = TableStatus(
        verdicts=(
            Verdict(OK, "Hole 4 turned."),
            Verdict(INFO, "Only for Ann: SECRET-HINT", seat=0),
        )
    )
    for out in (
        console_text(render_scoreboard(game.view(None), status)),
        scoreboard_text(game.view(None), status),
        json.dumps(scoreboard_json(game.view(None), status)),
    ):
        assert "SECRET-HINT" not in out and "Hole 4 turned." in out


def test_pair_ids_are_blanked_from_any_text() -> None:
    game, _ = state_mid_turn()
    status = TableStatus(
        waiting_for="put P-RB back",
        corrections=("Turn P-YK over.",),
        faults=("hole 3 reads P-BW",),
        verdicts=(Verdict(ILLEGAL, "P-RW moved", "M-2", "Move P-RW back"),),
    )
    out = scoreboard_text(game.view(None), status)
    assert "P-" not in out
    assert "Move a mole pair back" in out


def test_engine_verdict_shown_when_the_referee_has_said_nothing() -> None:
    game, _ = state_mid_turn()
    out = scoreboard_text(game.view(None), TableStatus())
    assert game.verdict in out


def test_only_the_latest_verdicts() -> None:
    game, _ = state_mid_turn()
    status = TableStatus(verdicts=tuple(Verdict(OK, f"step {i}.") for i in range(9)))
    data = scoreboard_data(game.view(None), status, max_verdicts=3)
    assert [v.text for v in data.verdicts] == ["step 6.", "step 7.", "step 8."]


def test_rendering_only_reads() -> None:
    for make in STATES.values():
        game, status = make()
        view = game.view(None)
        before = copy.deepcopy(view)
        render_scoreboard(view, status)
        scoreboard_text(view, status)
        scoreboard_json(view, status)
        assert view == before


def test_json_shape() -> None:
    game, status = state_solved()
    data = scoreboard_json(game.view(None), status)
    assert json.loads(json.dumps(data)) == data
    assert data["game"] == "updown" and data["phase"] == "turn"
    assert [p["name"] for p in data["players"]] == ["Ann", "Bob", "Cy"]
    assert data["players"][0]["won"][0]["compact"].endswith("(1)")
    assert len(data["holes"]) == 10 and sum(data["visible"].values()) == 10
    assert data["turned_done"] == 1 and data["turned_holes"] == [2]
    assert data["result"] is None and data["rotations"] is None
    assert all(v["label"] != "note" for v in data["verdicts"])  # the hint is gone


def test_winners_in_every_rendering() -> None:
    game, status = state_end()
    data = scoreboard_json(game.view(None), status)
    assert data["result"]["headline"] == "Buddel King: Ann with 2 shovels"
    assert data["result"]["scores"] == {"Ann": 2, "Bob": 1, "Cy": 1}
    assert "Buddel King: Ann with 2 shovels" in scoreboard_text(game.view(None), status)
    game, status = state_tie()
    headline = "Shared win: Ann and Bob with 1 shovel each"
    assert headline in console_text(render_scoreboard(game.view(None), status))
    assert scoreboard_json(game.view(None), status)["result"]["winners"] == ["Ann", "Bob"]


def test_mole_mix_rotations() -> None:
    game, status = state_mole_mix()
    assert scoreboard_json(game.view(None), status)["rotations"] == 2
    assert "box turned twice" in scoreboard_text(game.view(None), status)


def test_match_history() -> None:
    game, status = state_end()
    nxt = game.next_game()
    out = scoreboard_text(nxt.view(None), TableStatus())
    assert "Earlier games: game 1: Buddel King: Ann with 2 shovels" in out
    assert "Game 2 (short game to 2 cards)" in out


def test_private_panel_shows_the_seats_own_card() -> None:
    t = new_table(1)
    t.deal()
    t.play(flip(t.game, 4))
    game = t.game
    card = game.task(0)
    assert card is not None
    out = console_text(render_private(game.view(0)))
    assert card.id in out and "Ann" in out
    for _, n in card.counts:
        assert f"{n}" in out
    assert ("matches your card now" in out) == card.is_satisfied(game.visible_counts())
    with pytest.raises(ValueError, match="one seat's view"):
        render_private(game.view(None))
