"""A demo game said in German: its log (the game the e2e test just played on the simulated board)
replayed through the referee, and after every input each thing a person would see or hear drawn
in German: the verdicts as the terminal prints them, the spoken lines, the public scoreboard
and each seat's own. Nothing of it may still be English (`still_english`), and no sentence
may have fallen back to English for want of a German entry (`missed`)."""

from __future__ import annotations

from demo_run import DemoRun
from still_english import missed, still_english
from upref.registry import find_game, referee_for
from upref.speech.lines import lines_for
from upref.store.replay import load_log
from upref.store.tags import TagBook
from upref.text import in_lang
from upref.views import plain
from upref.views.blocks import said_in
from upref.views.scoreboard import scoreboard
from upref.views.screen import verdict_line

GERMAN = "de"


def german_lines(run: DemoRun) -> list[str]:
    """Every line the demo's game shows or says, drawn in German, in order."""
    info, entries = load_log(run.folder / "games.sqlite")
    game = find_game(info.game)
    ref = referee_for(info, TagBook(run.folder / "tags.sqlite"))
    out: list[str] = []
    for e in entries:
        reply = ref.handle(ref.decode(e.input_dict()))
        out += [verdict_line(v, GERMAN) for v in reply.verdicts]
        out += [in_lang(line.text, GERMAN) for line in lines_for(reply, everything=True)]
        view = ref.view(None)
        if view is not None:
            board = scoreboard(view, ref.status(), game.panel)
            out += plain.render(said_in(board, GERMAN)).splitlines()
        for seat in range(len(info.players)):
            own = ref.view(seat)
            if own is not None:  # a seat's own screen: the panel's boxes for its eyes only
                out += plain.render_blocks(said_in(tuple(game.panel.private(own)), GERMAN)).splitlines()
    return out


def check_german(run: DemoRun) -> None:
    """The demo's game, shown and said in German, holds no English sentence."""
    info, _ = load_log(run.folder / "games.sqlite")
    lines = german_lines(run)
    left = still_english(dict.fromkeys(lines), info.players)
    assert not left, "still English in German:\n" + "\n".join(left[:40])
    assert not missed(GERMAN), "no German entry for:\n" + "\n".join(missed(GERMAN)[:40])
