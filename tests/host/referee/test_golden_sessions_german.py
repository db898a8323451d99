"""Every golden session replayed and said in German (Up's saved evening: four players, refusals,
forgotten calls, undos, a stopped round, counts; Up And Down's session with every kind of trouble,
its demo and its random game): every verdict as the terminal prints it, every spoken line and the
table's scoreboard after each input hold no English sentence, and no sentence fell back to
English for want of a German entry."""

from __future__ import annotations

from pathlib import Path

import pytest
from still_english import missed, still_english
from upref.registry import find_game, referee_for
from upref.speech.lines import lines_for
from upref.store.gamelog import load_jsonl
from upref.text import catalogue, in_lang
from upref.views import plain
from upref.views.blocks import said_in
from upref.views.scoreboard import scoreboard
from upref.views.screen import verdict_line

GERMAN = "de"
GOLDEN = Path(__file__).resolve().parents[2] / "golden"
SESSIONS = sorted(
    p for p in [*GOLDEN.glob("*/session.jsonl"), *GOLDEN.glob("logs/*.jsonl")] if ".verdicts" not in p.name
)


@pytest.mark.parametrize("session", SESSIONS, ids=lambda p: str(p.relative_to(GOLDEN)))
def test_the_golden_session_said_in_german(session: Path) -> None:
    catalogue.MISSED.clear()
    info, entries = load_jsonl(session.read_text(encoding="utf-8").splitlines())
    panel = find_game(info.game).panel
    lines: list[str] = []
    kinds: set[str] = set()
    rules: set[str] = set()
    ref = referee_for(info)
    for e in entries:
        reply = ref.handle(ref.decode(e.input_dict()))
        lines += [verdict_line(v, GERMAN) for v in reply.verdicts]
        lines += [in_lang(x.text, GERMAN) for x in lines_for(reply, everything=True)]
        kinds |= {v.kind for v in reply.verdicts}
        rules |= {v.rule for v in reply.verdicts if v.rule}
        view = ref.view(None)
        if view is not None:
            board = scoreboard(view, ref.status(), panel)
            lines += plain.render(said_in(board, GERMAN)).splitlines()
    assert "illegal" in kinds  # each session has refusals
    # a rule id stays as it is in every language ('count', 'deck'), where it names the rule
    left = still_english(dict.fromkeys(lines), [*info.players, *rules])
    assert not left, "\n".join(left[:40])
    assert not missed(GERMAN), missed(GERMAN)
