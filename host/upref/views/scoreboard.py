"""The scoreboard frame every game shares: title, the board's health, the game's panel, the
verdict feed, what the table must fix and is waiting for, the result, the keys.

`scoreboard(view, status, panel)` builds a `Scoreboard` of layout blocks (`upref.views.blocks`) from
the engine's public view, the referee's `TableStatus` and the game's `Panel`; renderers draw it
(`upref.views.terminal`, `upref.views.plain`, `Scoreboard.as_json()`).

Hidden information never gets in: a seat's own view (`view.seat` set) is refused, a verdict
addressed to one seat is dropped, and every text from elsewhere goes through the panel's
`scrub`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Generic, Protocol, TypeVar

from upref.games.base import GameView, Outcome
from upref.referee.status import BOARD, END, ILLEGAL, INFO, OK, SOLVED, TURN, TableStatus, Verdict
from upref.text import ENGLISH, Msg, Words, in_lang, join_words
from upref.text.words import Mapped
from upref.views.blocks import (
    DIM,
    FIX,
    STRONG,
    TITLE,
    WAITING,
    WINNER,
    Block,
    Box,
    Feed,
    FeedLine,
    Line,
    Scoreboard,
    Span,
    line,
)
from upref.views.blocks import ILLEGAL as ILLEGAL_MEANING

__all__ = [
    "LABELS",
    "MAX_VERDICTS",
    "STOPPED",
    "Panel",
    "earlier_games",
    "feed_line",
    "result_box",
    "scoreboard",
    "waiting_scoreboard",
]

MAX_VERDICTS = 5
"""How many of the latest public verdicts the scoreboard shows."""
STOPPED = Msg("the game was stopped")
"""Why a game stopped at the table (`e`) ended, as a panel's result box says it ('Game over:
the game was stopped.')."""

LABELS = {
    OK: Msg("ok"),
    INFO: Msg("note"),
    ILLEGAL: Msg("ILLEGAL"),
    SOLVED: Msg("SOLVED"),
    TURN: Msg("turn"),
    END: Msg("END"),
    BOARD: Msg("BOARD"),
}
"""The feed's label per verdict kind."""

V = TypeVar("V", bound=GameView, contravariant=True)


class Panel(Protocol, Generic[V]):
    """A game's part of the scoreboard (`upref.games.<game>.panel`): what to show of its public view,
    as blocks. It only reads."""

    title: str
    """The game's title, 'Up And Down'."""
    # A panel may also have `labels`, a mapping of verdict kinds to the game's own word for the
    # feed ({SOLVED: "TAKEN"}): the words its guide uses; LABELS gives the rest.

    def header(self, view: V) -> str:
        """One line under the title: the game number, variant, turn, what is left."""
        ...

    def body(self, view: V) -> Sequence[Block]:
        """The game's own blocks, between the board's health and the verdicts."""
        ...

    def turn(self, view: V) -> str | None:
        """Whose turn it is and what they do, in one line ('Ann's turn: turned 2/3.')."""
        ...

    def result(self, view: V) -> Box | None:
        """The result once the game is over."""
        ...

    def footer(self, view: V) -> Sequence[Block]:
        """Blocks after the result (earlier games, what was set aside)."""
        ...

    def scrub(self, text: str) -> str:
        """The text with anything the game keeps secret blanked out."""
        ...

    def private(self, view: V) -> Sequence[Block]:
        """One seat's own screen, from that seat's view (`view.seat` set)."""
        ...

    # A panel may also have `drawing(view) -> Drawing | None`: what lies on the table, as table
    # pieces (`upref.views.pieces`), from the public view only; the page draws it
    # (`upref.views.svg`), first among the game's blocks. A panel without it shows words only.


def result_box(headline: str, *details: str) -> Box:
    """The result as every game's panel shows it: the headline large, then each detail line
    ('Game over: …', the scores), all centred, in a winner's box."""
    lines = [line(headline, meaning=STRONG, align="center")]
    lines.extend(line(d, align="center") for d in details)
    return Box(tuple(lines), meaning=WINNER)


def earlier_games(
    label: str, history: Sequence[Outcome], describe: Callable[[Outcome], str]
) -> Block | None:
    """One dim line for a match's earlier games: `label` then 'game 1: …; game 2: …' with each
    game's outcome in `describe`'s words; None before the second game."""
    if not history:
        return None
    games = join_words(
        "; ",
        [Msg("game {i}: {result}", i=i, result=describe(o)) for i, o in enumerate(history, start=1)],
    )
    return line(label + games, meaning=DIM)


def feed_line(v: Verdict, scrub: Panel[GameView] | None = None) -> FeedLine:
    """A verdict as a feed line (label 'ILLEGAL M-2' for a refusal with its rule)."""
    own = getattr(scrub, "labels", None) or {}
    label = own.get(v.kind) or LABELS.get(v.kind, v.kind)
    label += f" {v.rule}" if v.rule and v.kind == ILLEGAL else ""
    if scrub is None:
        return FeedLine(v.kind, label, v.text, v.correction)
    fix = _scrubbed(scrub.scrub, v.correction) if v.correction else None
    return FeedLine(v.kind, label, _scrubbed(scrub.scrub, v.text), fix)


def _scrubbed(scrub: Callable[[str], str], text: str) -> str:
    """`text` with the panel's secrets blanked out, in whatever language it is said (the same
    text when there is nothing to blank out)."""
    clean = scrub(text)
    if clean == text:
        return text
    return Mapped(text, scrub) if isinstance(text, Words) else clean


def scoreboard(
    view: GameView,
    status: TableStatus,
    panel: Panel[GameView],
    *,
    title: str | None = None,
    max_verdicts: int = MAX_VERDICTS,
    keys: Sequence[tuple[str, str]] = (),
) -> Scoreboard:
    """The table's scoreboard from the engine's public view, the referee's status and the
    game's panel; `keys` (key, what it does) are shown last.

    :raises ValueError: for a seat's own view (it holds that seat's secrets).
    """
    if view.seat is not None:
        raise ValueError(
            "a seat's own view holds that seat's secrets: the table scoreboard takes view(None)"
        )
    scrub = panel.scrub
    head = title if title is not None else f"upref — {panel.title}"
    blocks: list[Block] = [line(head, meaning=TITLE), line(panel.header(view), meaning=DIM)]
    result = panel.result(view)
    if result is not None:  # over: who won comes first, on every screen
        blocks.append(result)
    banner = _banner(status, scrub)
    if banner is not None:
        blocks.append(banner)
    drawn = getattr(panel, "drawing", None)
    drawing = drawn(view) if drawn is not None else None
    if drawing is not None:
        blocks.append(drawing)
    blocks.extend(panel.body(view))
    public = [v for v in status.verdicts if v.seat is None]
    feed: tuple[FeedLine, ...] = ()
    if public:
        feed = tuple(feed_line(v, panel) for v in public[-max_verdicts:]) if max_verdicts else ()
    elif view.verdict:
        # No referee verdict yet: the engine's own verdict is public text for the table.
        kind = END if view.phase == "over" else INFO
        feed = (FeedLine(kind, LABELS[kind], _scrubbed(scrub, view.verdict)),)
    # a correction still due is said once, as TO FIX: not again as a verdict's fix or as what
    # the table waits for
    due = tuple(_scrubbed(scrub, fix) for fix in status.corrections)
    feed = tuple(_without(f, due) for f in feed)
    if feed:
        blocks.append(Feed(feed))
    for fix in due:
        blocks.append(line(Span(Msg("TO FIX") + " ", ILLEGAL_MEANING), " ", fix, meaning=FIX))
    if status.waiting_for and scrub(status.waiting_for) not in due:
        waiting = _scrubbed(scrub, status.waiting_for)
        blocks.append(line(Span(Msg("Waiting for:") + " ", STRONG), waiting, meaning=WAITING))
    blocks.extend(panel.footer(view))
    if keys:
        blocks.append(keys_line(keys))
    last = feed[-1] if feed else None
    winner = _headline(result) if result is not None else None
    if winner is not None:  # over: the big line says who won, not a later note
        own = getattr(panel, "labels", None) or {}
        last = FeedLine(END, own.get(END) or LABELS[END], winner)
    return Scoreboard(view.game, head, panel.turn(view), last, tuple(blocks))


def keys_line(keys: Sequence[tuple[str, str]]) -> Line:
    """The line of the keys that mean something now: 'Keys: u undo · e end the game'."""
    said = join_words(" · ", [k + " " + what for k, what in keys])
    return line(Msg("Keys: {keys}", keys=said), meaning=DIM)


def _headline(result: Box) -> str | None:
    """The result's headline: its first line ('Winner: Ann with 5 points'), None if it has
    none."""
    first = next((x for x in result.blocks if isinstance(x, Line)), None)
    return first.text if first is not None and first.text else None


def waiting_scoreboard(
    game: str,
    title: str,
    status: TableStatus,
    keys: Sequence[tuple[str, str]] = (),
    panel: Panel[GameView] | None = None,
    *,
    max_verdicts: int = MAX_VERDICTS,
) -> Scoreboard:
    """The scoreboard before any game: the title, the board's health, what the table has been
    told so far (a game's set-up instructions, a scan's progress) and what it waits for; `panel`
    blanks out what its game keeps secret in those verdicts."""
    head = f"upref — {title}"
    blocks: list[Block] = [line(head, meaning=TITLE)]
    banner = _banner(status, panel.scrub if panel is not None else None)
    if banner is not None:
        blocks.append(banner)
    public = [v for v in status.verdicts if v.seat is None]
    feed = tuple(feed_line(v, panel) for v in public[-max_verdicts:]) if max_verdicts else ()
    if feed:
        blocks.append(Feed(feed))
    waiting = status.waiting_for or Msg("the board")
    blocks.append(line(Span(Msg("Waiting for:") + " ", STRONG), waiting, meaning=WAITING))
    if keys:
        blocks.append(keys_line(keys))
    return Scoreboard(game, head, None, feed[-1] if feed else None, tuple(blocks))


def _without(f: FeedLine, due: Sequence[str]) -> FeedLine:
    """The feed line saying each sentence once: the corrections still due (TO FIX says them)
    taken out of its text and fix, and out of its fix what its text says already (an undo's
    verdict names its corrections in both)."""
    text = _strip(f.text, due) or f.text
    fix = _strip(f.correction, (*due, *_sentences(f.text))) if f.correction else None
    if (text, fix) == (f.text, f.correction):
        return f
    if text == f.text:
        text = f.text  # the sentence itself, said in any language
    elif isinstance(f.text, Words):
        text = _Without(f.text, tuple(due), None)
    if fix and fix != f.correction and isinstance(f.correction, Words):
        fix = _Without(f.correction, tuple(due), f.text)
    return replace(f, text=text, correction=fix or None)


class _Without(Words):
    """A feed line's text or fix without the sentences said elsewhere (`said`, and those of
    `own`, the line's own text), each taken out as it is said in the language asked for."""

    base: str
    said: tuple[str, ...]
    own: str | None

    def __new__(cls, base: str, said: tuple[str, ...], own: str | None) -> _Without:
        self = super().__new__(cls, _strip(str.__str__(base), _said(said, own, ENGLISH)))
        self.base, self.said, self.own = base, said, own
        return self

    def render(self, lang: str) -> str:
        return _strip(in_lang(self.base, lang), _said(self.said, self.own, lang))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Without, (self.base, self.said, self.own))


def _said(said: Sequence[str], own: str | None, lang: str) -> list[str]:
    out = [in_lang(s, lang) for s in said]
    return out + _sentences(in_lang(own, lang)) if own is not None else out


def _sentences(text: str) -> list[str]:
    return [s if s.endswith(".") else s + "." for s in text.split(". ") if s]


def _strip(text: str, said: Sequence[str]) -> str:
    """`text` without the sentences in `said` (each as it is written there)."""
    for s in said:
        if s and s in text:
            text = text.replace(s, "")
    return " ".join(text.split())


def _banner(status: TableStatus, scrub: object) -> Box | None:
    if status.board_online and not status.faults:
        return None
    clean = scrub if callable(scrub) else (lambda s: s)
    lines = []
    if not status.board_online:
        lines.append(
            line(
                Msg("BOARD OFFLINE: moves on the board are not seen until it is back."),
                meaning=STRONG,
            )
        )
    lines.extend(line(Msg("Fault: {fault}", fault=clean(f))) for f in status.faults)
    return Box(tuple(lines), title=Msg("board"), meaning=ILLEGAL_MEANING)
