"""Property: over random sessions of a real Flip a Bird referee fed from a table (seeded, with
refused moves, undos, skipped scans, tips by tag and by key), nothing secret reaches the table:
not the public scoreboard in its three renderings, not a verdict for the table, not the public
export of the log. Secret are: every card of the draw pile, of a hand or of the box, every card
lying face down in the row (and the face-down cards of a row that left the game unevaluated),
and a tip before all are in. The check is built from the referee's engine and the table's truth,
so it fails when a secret leaks (the last tests plant leaks and see it fail)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from flipabird_table import Chaos, FlipTable, new_table
from panel_text import console_text
from upref.games.flipabird.panel import PANEL
from upref.games.flipabird.variant import Variant
from upref.games.flipabird.view import CardView
from upref.referee.status import INFO, TableStatus, Verdict
from upref.registry import referee_for
from upref.store.gamelog import GameLog
from upref.store.replay import load_log, public_lines
from upref.views import plain, terminal
from upref.views.blocks import Scoreboard, Sheet
from upref.views.scoreboard import scoreboard

RICH_EVERY = 5
_ID = re.compile(r"[A-Z][A-Za-z0-9-]*")


class Secrets:
    """What nobody at the table may see now, from the engine and the table's truth."""

    def __init__(self) -> None:
        self.down_before_end: set[str] = set()

    def cards(self, tb: FlipTable) -> set[str]:
        out = set(tb.truth.stack) | set(tb.truth.box)
        for h in tb.truth.hands:
            out |= set(h)
        if not tb.ref.has_engine or tb.ref.phase == "setup":
            return out | set(tb.pile)
        eng = tb.ref.engine
        out |= set(eng.pile or ())
        for s in range(eng.num_players()):
            out |= set(eng.hand(s))
        down = {r.card for r in eng.row if not r.up}
        claim = eng.claim_state
        if claim is not None and claim.evaluation is None:
            down |= {r.card for r in claim.row if not r.up}
        if eng.outcome() is None:
            self.down_before_end = down
        elif eng.outcome().termination == "no-claim":  # type: ignore[union-attr]
            down |= self.down_before_end
        return out | down

    @staticmethod
    def tips(tb: FlipTable) -> list[str]:
        """Names of the players whose tip is in but not public yet."""
        if not tb.ref.has_engine or tb.ref.engine.phase != "tips":
            return []
        eng = tb.ref.engine
        claim = eng.claim_state
        assert claim is not None
        return [
            eng.players[s]
            for s, t in enumerate(claim.tips)
            if t is not None and s not in (claim.claimant, claim.accused)
        ]


def assert_no_secret(text: str, cards: set[str], tippers: list[str]) -> None:
    leaked = sorted(set(_ID.findall(text)) & cards)
    assert not leaked, f"secret card {', '.join(leaked)} shown:\n{text}"
    for name in tippers:
        said = re.search(rf"\b{name}\b:? (?:tips? )?(red|green)\b|\b{name}'s tip (?:is )?(red|green)\b", text)
        assert not said, f"{name}'s tip shown before all are in:\n{text}"


def assert_tip_cells(board: Scoreboard, tippers: list[str]) -> None:
    table = next(b for b in board.blocks if isinstance(b, Sheet) and any(c.header == "Tip" for c in b.columns))
    col = [c.header for c in table.columns].index("Tip")
    for row in table.rows:
        if row[1].text in tippers:
            assert row[col].text == "in", f"{row[1].text}'s tip cell shows {row[col].text!r}"


def assert_row_cells(text: str, tb: FlipTable) -> None:
    """The plain row line shows each card's face where the engine has it face up, and a back
    where it lies face down (the row of a claim still waiting for tips likewise)."""
    eng = tb.eng
    claim = eng.claim_state
    row = claim.row if claim is not None and claim.evaluation is None else eng.row
    if claim is not None and claim.evaluation is not None:
        return  # the evaluated row lies face up: the evaluation table shows it
    found = re.search(r"^Row \((.*)$", text, re.M)
    if not row:
        assert found is None or "none yet" in found.group(0), text
        return
    assert found is not None, text
    cells = found.group(0).split("): ", 1)[1].split(" · ")
    assert len(cells) == len(row), (cells, row)
    for cell, r in zip(cells, row, strict=True):
        face = eng.catalogue.card(r.card).face
        shown = cell.split(" ", 1)[1].replace(" ◀", "").replace(" (turned, F-16)", "")
        if r.up:
            assert shown == face, (cell, r)
        else:
            assert shown == "▒ face down", f"a face-down card shown as {shown!r}"


def check(tb: FlipTable, secrets: Secrets, step: int, fresh: list[Verdict]) -> None:
    cards = secrets.cards(tb)
    tippers = secrets.tips(tb)
    for v in fresh:
        assert_no_secret(v.text + " " + (v.correction or ""), cards, tippers)
    view = tb.ref.view(None)
    if view is None:
        return
    board = scoreboard(view, tb.ref.status(), PANEL)
    text = plain.render(board)
    assert_no_secret(text, cards, tippers)
    if tb.ref.phase == "play":
        assert_row_cells(text, tb)
    assert_no_secret(json.dumps(board.as_json()), cards, tippers)
    if tippers:
        assert_tip_cells(board, tippers)
    if step % RICH_EVERY == 0:
        assert_no_secret(console_text(terminal.render(board)), cards, tippers)


@pytest.mark.parametrize("seed", range(6))
def test_nothing_secret_reaches_the_table_in_random_sessions(seed: int, tmp_path: Path) -> None:
    players = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")[: 3 + seed % 4]
    tb = new_table(players, seed, Variant(pile=24) if seed % 3 == 1 else Variant())
    db = tmp_path / "games.sqlite"
    log = GameLog.create(db, game="flipabird", players=players, variant=tb.variant.to_dict(), seed=seed, config=tb.ref.config())
    tb.ref.attach(log)
    secrets = Secrets()
    tb.start()
    checked: list[str] = []
    seen = 0
    steps = 0
    for step, _ in enumerate(Chaos(tb, seed).run(2500)):
        fresh = [v for _, r in tb.replies[seen:] for v in r.verdicts if v.seat is None]
        seen = len(tb.replies)
        check(tb, secrets, step, fresh)
        checked += [v.text for v in fresh]
        steps += 1
    log.close()
    assert steps > 60 and tb.ref.phase == "over"
    # the public export holds exactly the verdicts checked above, nothing else
    info, entries = load_log(db)
    lines = list(public_lines(info, entries, referee_for))
    assert [ln["text"] for ln in lines[1:]] == checked
    assert "uid" not in json.dumps(lines)


# --- the check can fail ---------------------------------------------------------------------------


def _mid_game() -> tuple[FlipTable, Secrets]:
    tb = new_table(("Ann", "Bob", "Cy", "Dee"), 7)
    tb.started()
    for _ in range(5):
        tb.play()
    return tb, Secrets()


def test_a_verdict_naming_a_face_down_card_fails_the_check() -> None:
    tb, secrets = _mid_game()
    down = next(r.card for r in tb.eng.row if not r.up)
    check(tb, secrets, 0, [])
    with pytest.raises(AssertionError, match=f"secret card {down} shown"):
        check(tb, secrets, 1, [Verdict(INFO, f"Bob played {down} face down.")])
    leaky = TableStatus(verdicts=(Verdict(INFO, f"Ann holds {tb.truth.hands[0][0]}."),))
    board = scoreboard(tb.ref.view(None), leaky, PANEL)  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="secret card"):
        assert_no_secret(plain.render(board), secrets.cards(tb), [])


def test_a_face_down_card_shown_in_the_row_fails_the_check() -> None:
    tb, secrets = _mid_game()
    view = tb.ref.view(None)
    assert view is not None
    i = next(k for k, r in enumerate(view.row) if not r.up)
    card = tb.eng.row[i].card
    shown = replace(view.row[i], card=CardView.of(tb.eng.catalogue.card(card)), up=True)
    doctored = replace(view, row=(*view.row[:i], shown, *view.row[i + 1 :]))
    board = scoreboard(doctored, tb.ref.status(), PANEL)
    assert_row_cells(plain.render(scoreboard(view, tb.ref.status(), PANEL)), tb)
    with pytest.raises(AssertionError, match="a face-down card shown as"):
        assert_row_cells(plain.render(board), tb)
    named = replace(doctored, verdict=f"Row: {card}.")  # and named by its id, anywhere
    with pytest.raises(AssertionError, match="secret card"):
        assert_no_secret(json.dumps(scoreboard(named, TableStatus(), PANEL).as_json()), secrets.cards(tb), [])


def test_a_tip_shown_before_all_are_in_fails_the_check() -> None:
    tb, secrets = _mid_game()
    tb.claim()
    tb.tap("TIP-R3")
    tippers = secrets.tips(tb)
    assert tippers == ["Cy"]
    check(tb, secrets, 0, [])
    view = tb.ref.view(None)
    assert view is not None
    early = replace(view, players=tuple(replace(p, tip="red") if p.name == "Cy" else p for p in view.players))
    board = scoreboard(early, tb.ref.status(), PANEL)
    with pytest.raises(AssertionError, match="Cy's tip cell shows 'red'"):
        assert_tip_cells(board, tippers)
    with pytest.raises(AssertionError, match="Cy's tip shown before all are in"):
        assert_no_secret("Tips so far: Cy red.", set(), tippers)
