"""The host's own screen at the table (`upref play`, `upref demo`), drawn from a frame
(`upref.views.frame.Frame`): the scoreboard as blocks, the live Rich screen around it (the
question being asked, the notes, the panel for one player's eyes) and a verdict as one line.
It reads frames only, never the referee or the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel as RichPanel
from rich.text import Text

from upref.games.base import GameView
from upref.referee.status import BOARD, END, ILLEGAL, INFO, OK, SOLVED, TURN, Verdict
from upref.text import ENGLISH, Msg, in_lang
from upref.views import terminal
from upref.views.blocks import Scoreboard, said_in
from upref.views.frame import Frame
from upref.views.keys import KeyBoard
from upref.views.scoreboard import Panel, scoreboard, waiting_scoreboard

__all__ = ["render", "scoreboard_for", "seat_note", "shared_lines", "verdict_line"]


def verdict_line(v: Verdict, lang: str = ENGLISH) -> str:
    """A verdict as one line of text in `lang`: '[illegal M-2] … -> what to do'."""
    text = in_lang(v.text, lang)
    if v.correction and v.correction not in v.text:
        text += "  -> " + in_lang(v.correction, lang)
    kind = in_lang(KINDS.get(v.kind, v.kind), lang)
    return f"[{kind}{' ' + v.rule if v.rule else ''}] {text}"


KINDS = {
    OK: Msg("ok"),
    INFO: Msg("info"),
    ILLEGAL: Msg("illegal"),
    SOLVED: Msg("solved"),
    TURN: Msg("turn"),
    END: Msg("end"),
    BOARD: Msg("board"),
}
"""A verdict's kind as a verdict line names it: '[illegal M-2]'."""


def seat_note(frame: Frame, v: Verdict, own_pages: bool, lang: str = ENGLISH) -> str:
    """What the shared screen says of a verdict addressed to one seat: only whose it is and
    where to read it, never what it says (`own_pages`: the players have pages of their own)."""
    names = frame.view.names if frame.view is not None else ()
    seat = v.seat if v.seat is not None else 0
    who = names[seat] if seat < len(names) else Msg("player {number}", number=seat + 1)
    if own_pages:
        return in_lang(Msg("A line for {who} alone is on {who}'s own page.", who=who), lang)
    return in_lang(
        Msg(
            "A line for {who} alone is not shown on this shared screen: play with --web to give "
            "each player a page of their own.",
            who=who,
        ),
        lang,
    )


def shared_lines(frame: Frame, own_pages: bool, lang: str = ENGLISH) -> list[str]:
    """A frame's verdicts as the shared screen may print them in `lang`: each public verdict's
    line, and for a verdict addressed to one seat a note that names the seat and not what it
    says."""
    return [
        verdict_line(v, lang) if v.seat is None else seat_note(frame, v, own_pages, lang)
        for v in frame.verdicts
    ]


def scoreboard_for(
    frame: Frame, panel: Panel[GameView], keys: Sequence[tuple[str, str]] = (), lang: str = ENGLISH
) -> Scoreboard:
    """The table's scoreboard in the frame, as blocks (`upref.views.blocks.Scoreboard`), drawn with
    the game's panel and said in `lang`; `keys` (key, what it does) last."""
    if frame.view is None:
        board = waiting_scoreboard(frame.game, frame.title, frame.status, keys, panel)
    else:
        board = scoreboard(frame.view, frame.status, panel, keys=keys)
    return said_in(board, lang)


def render(
    frame: Frame,
    panel: Panel[GameView],
    private: list[str],
    kb: KeyBoard | None = None,
    lang: str = ENGLISH,
) -> RenderableType:
    """The live screen in `lang`: the scoreboard (with the keys' line), then the question being
    asked, the notes of the last key and the panel for one player's eyes, when there are any."""
    keys = kb.key_line() if kb is not None else ()
    body = terminal.render(scoreboard_for(frame, panel, keys, lang))
    parts: list[RenderableType] = [body]
    if kb is not None and (ask := kb.prompt_line()) is not None:
        parts.append(RichPanel(Text(in_lang(ask, lang), style="bold"), title=in_lang(Msg("answer"), lang)))
    if kb is not None and kb.notes:
        parts.append(Text("\n".join(in_lang(n, lang) for n in kb.notes)))
    if private:
        title = in_lang(Msg("for one player's eyes only"), lang)
        parts.append(RichPanel(Text("\n".join(in_lang(p, lang) for p in private)), title=title))
    return Group(*parts) if len(parts) > 1 else body
