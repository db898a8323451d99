"""The scoreboard's contract beyond the golden files: what it refuses, drops and blanks out,
the JSON shape, that it only reads, and the private panel."""

from __future__ import annotations

import copy
import json

import pytest
from panel_text import console_text
from updown_cases import (
    STATES,
    new_scene,
    state_end,
    state_mid_turn,
    state_mole_mix,
    state_solved,
    state_tie,
)
from updown_table import CODES
from upref.games.updown.cards import COLOUR_NAMES
from upref.games.updown.panel import PANEL
from upref.referee.inputs import Undo
from upref.referee.status import ILLEGAL, INFO, OK, TableStatus, Verdict
from upref.views import plain, terminal
from upref.views.blocks import Box, Feed, Line, Sheet
from upref.views.scoreboard import scoreboard


def _all_text(status: TableStatus, scene=None) -> list[str]:  # type: ignore[no-untyped-def]
    scene = scene or state_mid_turn()
    board = scoreboard(scene.view(), status, PANEL)
    return [console_text(terminal.render(board)), plain.render(board), json.dumps(board.as_json())]


def test_a_seats_own_view_is_refused() -> None:
    s = state_mid_turn()
    with pytest.raises(ValueError, match="a seat's own view"):
        scoreboard(s.game.view(0), s.status(), PANEL)


def test_a_verdict_for_one_seat_is_never_shown() -> None:
    status = TableStatus(
        verdicts=(
            Verdict(OK, "Hole 4 turned."),
            Verdict(INFO, "Only for Ann: SECRET-HINT", seat=0),
        )
    )
    for out in _all_text(status):
        assert "SECRET-HINT" not in out and "Hole 4 turned." in out


def test_pair_ids_are_blanked_from_any_text() -> None:
    status = TableStatus(
        waiting_for="put P-RB back",
        corrections=("Turn P-YK over.",),
        faults=("hole 3 reads P-BW",),
        verdicts=(Verdict(ILLEGAL, "P-RW moved", "M-2", "Move P-RW back"),),
        board_online=False,
    )
    for out in _all_text(status):
        assert "P-" not in out
        assert "Move a mole pair back" in out


def test_engine_verdict_shown_when_the_referee_has_said_nothing() -> None:
    s = state_mid_turn()
    out = plain.render(scoreboard(s.view(), TableStatus(), PANEL))
    assert s.game.verdict in out


def test_only_the_latest_verdicts() -> None:
    s = state_mid_turn()
    status = TableStatus(verdicts=tuple(Verdict(OK, f"step {i}.") for i in range(9)))
    board = scoreboard(s.view(), status, PANEL, max_verdicts=3)
    (feed,) = [b for b in board.blocks if isinstance(b, Feed)]
    assert [v.text for v in feed.lines] == ["step 6.", "step 7.", "step 8."]
    assert board.last is not None and board.last.text == "step 8."


def test_rendering_only_reads() -> None:
    for make in STATES.values():
        s = make()
        view, status = s.view(), s.status()
        before = copy.deepcopy((view, status))
        board = scoreboard(view, status, PANEL)
        terminal.render(board)
        plain.render(board)
        board.as_json()
        assert (view, status) == before


def test_json_shape() -> None:
    s = state_solved()
    board = s.board()
    data = board.as_json()
    assert json.loads(json.dumps(data)) == data
    assert data["game"] == "updown" and data["schema"] == 2
    assert data["turn"] == "Bob's turn: turned 1/3 (hole 2)."
    assert data["last"]["text"] == "Hole 2 turned: white up (1 of 3)."
    kinds = [b["kind"] for b in data["blocks"]]
    assert kinds[:2] == ["line", "line"] and "feed" in kinds
    players = next(b for b in board.blocks if isinstance(b, Sheet) and b.style == "list")
    assert [r[1].text for r in players.rows] == ["Ann", "Bob", "Cy"]
    holes = next(b for b in board.blocks if isinstance(b, Sheet) and b.style == "grid")
    assert len(holes.rows[0]) == 11 and all(c.meaning.startswith("colour:") for c in holes.rows[0][1:])
    assert not any(isinstance(b, Box) for b in board.blocks)  # no result yet
    assert all(v["label"] != "note" for b in data["blocks"] if b["kind"] == "feed" for v in b["lines"])


def test_winners_in_every_rendering() -> None:
    s = state_end()
    board = s.board()
    (result,) = [b for b in board.blocks if isinstance(b, Box)]
    assert isinstance(result.blocks[0], Line)
    assert result.blocks[0].text == "Buddel King: Ann with 2 shovels"
    assert result.blocks[2].text == "Shovels: Ann 2, Bob 1, Cy 1"
    assert "Buddel King: Ann with 2 shovels" in plain.render(board)
    s = state_tie()
    headline = "Shared win: Ann and Bob with 1 shovel each"
    assert headline in console_text(terminal.render(s.board()))


def test_mole_mix_rotations() -> None:
    s = state_mole_mix()
    assert s.view().rotations == 2
    assert "box turned twice" in plain.render(s.board())


def test_match_history() -> None:
    s = state_end()
    nxt = s.game.next_game()
    out = plain.render(scoreboard(nxt.view(None), TableStatus(), PANEL))
    assert "Earlier games: game 1: Buddel King: Ann with 2 shovels" in out
    assert "Game 2 (short game to 2 cards)" in out


def test_the_keys_that_apply_are_shown() -> None:
    s = state_mid_turn()
    keys = tuple((o.key, o.label) for o in s.ref.keys_now())
    assert ("h", "a hint for the player to move") in keys and ("u", "undo") in keys
    out = plain.render(scoreboard(s.view(), s.status(), PANEL, keys=keys))
    assert "Keys: h a hint for the player to move · u undo · e end the game" in out


def test_private_panel_shows_the_seats_own_card() -> None:
    s = new_scene(1)
    s.tb.draw_all()
    s.tb.flip(4)
    game = s.game
    card = game.task(0)
    assert card is not None
    out = console_text(terminal.render_blocks(PANEL.private(game.view(0))))
    assert card.id in out and "Ann" in out
    for _, n in card.counts:
        assert f"{n}" in out
    assert ("matches your card now" in out) == card.is_satisfied(game.visible_counts())
    other = game.task(1)
    assert other is not None and other.id not in out
    with pytest.raises(ValueError, match="one seat's view"):
        PANEL.private(game.view(None))


def test_after_an_undo_the_molehills_show_what_is_up_and_what_to_do() -> None:
    """Two pairs turned, then `u`: the game's board is back at the start of the turn, but the
    two pairs are still turned on the table. The molehill table shows them as they physically
    are, with "turn" where the table must turn them back, and the count of what is up now;
    never the game's expectation as if it were already true."""
    scene = state_mid_turn()  # holes 4 and 7 turned
    turned_up = {h: plain_up(scene, h) for h in (4, 7)}
    scene.tb.feed(Undo(scene.tb.at()))
    game = scene.game
    assert game.turned == ()
    expected = {h: COLOUR_NAMES[game.board[h - 1].visible] for h in (4, 7)}
    assert all(turned_up[h] != expected[h] for h in (4, 7))
    text = plain.render(scene.board())
    rows = {r.split()[0]: r for r in text.splitlines() if r.split() and r.split()[0] in ("up", "to")}
    ups = rows["up"].split()[1:]
    assert [ups[3], ups[6]] == [turned_up[4], turned_up[7]]  # as they are on the table
    assert rows["to"].split()[2:] == ["turn", "turn"]  # "to do": turn 4 and 7 back
    assert f"Turn the pair in hole 4 back so that {expected[4]} is up again." in text
    assert "once put right:" in text
    # turned back: the table is the game's board again, and the rows are the plain ones
    scene.tb.flip(4)
    scene.tb.flip(7)
    text = plain.render(scene.board())
    assert "to do" not in text and "once put right" not in text
    assert [r.split()[1:] for r in text.splitlines() if r.startswith("up ")][0] == [
        COLOUR_NAMES[e.visible] for e in game.board
    ]


def plain_up(scene, hole: int) -> str:  # type: ignore[no-untyped-def]
    end = CODES.lookup(scene.tb.codes[hole])
    assert end is not None
    return COLOUR_NAMES[end.visible]
