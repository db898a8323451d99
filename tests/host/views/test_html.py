"""The scoreboard's blocks as HTML: every block kind, meanings as classes, colours named as well
as coloured, every text escaped, the turn and the last verdict first, nothing a seat may not see
(the same filter as every renderer: the frame's)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from updown_cases import state_end, state_illegal, state_solved
from upref.games.updown.panel import PANEL
from upref.referee.status import INFO, TableStatus, Verdict
from upref.views import html
from upref.views.blocks import Box, Column, Feed, FeedLine, Scoreboard, Sheet, Span, colour, line
from upref.views.scoreboard import scoreboard


class Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def parse(fragment: str) -> Text:
    t = Text()
    t.feed(fragment)
    t.close()
    return t


def test_each_block_kind_and_its_meanings() -> None:
    board = Scoreboard(
        "x", "upref — X", "Ann's turn", FeedLine("illegal", "ILLEGAL M-2", "Wrong <hole>", "Move it"),
        (
            line("Title", meaning="title"),
            line(Span("TO FIX ", "illegal"), " do <this> & that"),
            Sheet((Column("P"), Column("n", "right")), ((Span("Ann", "turn"), Span("3")),), style="list"),
            Sheet((Column("hole"), Column("1", "center")), ((Span("up"), Span("red", colour("red"))),), "Molehills", "grid"),
            Feed((FeedLine("ok", "ok", "fine"), FeedLine("illegal", "ILLEGAL M-1", "no", "turn it back"))),
            Box((line("Ann wins", meaning="strong", align="center"),), meaning="winner"),
        ),
    )
    out = html.render(board)
    assert out.index('class="turn"') < out.index('class="line m-title"')
    assert '<p class="last v-illegal"><span class="label">ILLEGAL M-2</span> Wrong &lt;hole&gt;</p>' in out
    assert '<span class="m-illegal">TO FIX </span> do &lt;this&gt; &amp; that' in out
    # each cell names its column too: a phone stacks a row's cells as labelled lines
    assert '<td class="a-left m-turn" data-label="P">Ann</td>' in out
    assert '<td class="a-right" data-label="n">3</td>' in out
    assert '<table class="grid"><caption>Molehills</caption>' in out
    assert '<td class="a-center c-red" data-label="1">red</td>' in out  # coloured, and named
    assert '<li class="v-illegal"><span class="label">ILLEGAL M-1</span> no<span class="fix">fix: turn it back</span></li>' in out
    assert '<section class="box m-winner"><p class="line m-strong center">Ann wins</p></section>' in out
    parsed = parse(out)
    assert "script" not in parsed.tags and "style" not in out


def test_a_real_scoreboard_says_whose_turn_and_what_just_happened_first() -> None:
    s = state_illegal()
    out = html.render(s.board())
    big = out.split("</header>")[0]
    assert "Ann&#x27;s turn: turned 2/3 (holes 4 and 7)." in big
    assert "ILLEGAL M-1" in big and "already turned this turn" in big
    cells = re.findall(r'<td class="a-center (c-\w+)" data-label="\d+">(\w+)</td>', out)
    assert len(cells) == 10 and all(cls == f"c-{name}" for cls, name in cells)
    s = state_end()
    assert "Buddel King: Ann with 2 shovels" in html.render(s.board())


def test_a_verdict_for_one_seat_never_reaches_the_page() -> None:
    s = state_solved()
    status = TableStatus(verdicts=(Verdict(INFO, "SECRET for Bob", seat=1),))
    out = html.render(scoreboard(s.view(), status, PANEL))
    assert "SECRET" not in out


def test_when_the_game_is_over_the_big_line_says_who_won() -> None:
    s = state_end()
    status = s.status()
    outcome = s.view().outcome
    assert outcome is not None and outcome.winners == (0,) and outcome.scores[0] == 2
    # later notes, enough of them to push the verdict that ended the game out of the feed
    notes = tuple(Verdict(INFO, f"Scores checked ({n}).") for n in range(8))
    later = TableStatus(verdicts=(*status.verdicts, *notes)[-6:])
    assert not [v for v in later.verdicts if v.kind == "end"]
    out = html.render(scoreboard(s.view(), later, PANEL))
    big = out.split("</header>")[0]
    assert '<p class="last v-end"><span class="label">END</span> Buddel King: Ann with 2 shovels</p>' in big
    assert "Scores checked" not in big
    assert "Scores checked (7)." in out  # still in the feed
    # during a game the newest verdict is the big line, whatever its kind
    mid = state_illegal()
    note = TableStatus(verdicts=(*mid.status().verdicts, Verdict(INFO, "A note.")))
    assert "A note." in html.render(scoreboard(mid.view(), note, PANEL)).split("</header>")[0]
