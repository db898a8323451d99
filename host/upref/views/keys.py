"""The keys at the host's screen (`upref play`): what a key press means, given the table's latest
frame (`upref.views.frame.Frame`: the keys that apply now), and the panel for one player's eyes.

A key the frame offers sends its input; one with a prompt first collects an answer (shown with
its default; Enter sends, Esc cancels, Backspace erases); a key in `CONFIRM` (e: end the game)
first asks, and acts only on y; q quits. `KeyBoard` reads frames only: the input a key makes
goes to `send` (the command hands in the table's), and the command sets `frame` to each frame the
table publishes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from upref.text import Msg
from upref.views.frame import Frame, Offer

__all__ = ["CONFIRM", "PRIVATE_S", "QUIT", "YES", "KeyBoard", "LocalKey", "Private"]

QUIT = "q"
"""The key that quits (the game stays saved)."""
CONFIRM: dict[str, str] = {"e": Msg("End the game now? y ends it, Enter or n plays on")}
"""Keys that ask before they act: the key -> the question (the default answer is no)."""
YES = ("y", "yes")

PRIVATE_S = 20.0
"""How long the panel for one player's eyes stays on the shared screen (a key clears it too)."""


@dataclass(frozen=True)
class LocalKey:
    """A key the host itself answers (no input for the referee): it asks `prompt` with
    `default()` offered, and `act(answer)` returns the text to show to one player only."""

    key: str
    label: str
    prompt: str
    default: Callable[[], str]
    act: Callable[[str], str]


@dataclass
class Private:
    """What one player alone may read (the link to their own page; a verdict for one seat goes
    to that seat's own page, never here): on the shared screen until the next key, or for
    PRIVATE_S seconds, whichever comes first."""

    lines: list[str] = field(default_factory=list)
    shown: float = 0.0
    clock: Callable[[], float] = time.monotonic

    def show(self, text: str) -> None:
        self.lines[:] = [text]
        self.shown = self.clock()

    def clear(self) -> None:
        self.lines.clear()

    def current(self) -> list[str]:
        if self.lines and self.clock() - self.shown > PRIVATE_S:
            self.lines.clear()
        return self.lines


@dataclass
class KeyBoard:
    """Keys at the host, on the table's latest frame.

    :param send: where the input a key makes goes (the table's `send`).
    :param clock: the inputs' time (the table's clock).
    :param frame: the latest frame: its `keys` are the keys that apply.
    :param hints: whether the referee answers hint keys (a refused h says how to turn them on).
    """

    send: Callable[[Any], object]
    clock: Callable[[], float]
    frame: Frame | None = None
    hints: bool = True
    asking: Offer | None = None
    typed: str = ""
    notes: list[str] = field(default_factory=list)
    confirming: bool = False
    local: tuple[LocalKey, ...] = ()
    asking_local: LocalKey | None = None
    private: Private | None = None

    def offers(self) -> tuple[Offer, ...]:
        return self.frame.keys if self.frame is not None else ()

    def key_line(self) -> tuple[tuple[str, str], ...]:
        """(key, what it does) for the scoreboard's last line."""
        if self.asking is not None and self.confirming:
            return (("y", self.asking.label), ("Enter", Msg("play on")))
        if self.asking is not None or self.asking_local is not None:
            return (("Enter", Msg("send {answer}", answer=repr(self.answer()))), ("Esc", Msg("cancel")))
        return (
            *((o.key, o.label) for o in self.offers()),
            *((k.key, k.label) for k in self.local),
            (QUIT, Msg("quit")),
        )

    def _question(self) -> tuple[str, str] | None:
        """(prompt, default answer) of what is being asked, if anything."""
        if self.asking_local is not None:
            return self.asking_local.prompt, self.asking_local.default()
        if self.asking is None:
            return None
        if self.confirming:
            return CONFIRM[self.asking.key], "n"
        return self.asking.prompt or "", self.asking.default or ""

    def answer(self) -> str:
        if self.typed:
            return self.typed
        asked = self._question()
        return asked[1] if asked is not None else ""

    def prompt_line(self) -> str | None:
        asked = self._question()
        if asked is None:
            return None
        return asked[0] + f" [{asked[1]}] > {self.typed}"

    def _press_local(self, k: str) -> None:
        lk = self.asking_local
        assert lk is not None
        if k in ("\r", "\n"):
            answer = self.answer()
            self.asking_local, self.typed = None, ""
            lk.act(answer)  # shows its text to one player only (the private panel)
        elif k == "\x1b":
            self.asking_local, self.typed = None, ""
        elif k in ("\x7f", "\b"):
            self.typed = self.typed[:-1]
        elif k.isprintable():
            self.typed += k

    def _press_asked(self, k: str) -> None:
        offer = self.asking
        assert offer is not None
        if self.confirming and k.lower() in YES + ("n",) and not self.typed:
            self.typed = k  # one key answers the question
            k = "\r"
        if k in ("\r", "\n"):
            answer = self.answer()
            self.asking, self.typed = None, ""
            if not self.confirming:
                self.send(offer.make(self.clock(), answer))
            elif answer.strip().lower() in YES:
                self.send(offer.make(self.clock(), None))
            else:
                self.notes.append(Msg("Not done ({what}): the game goes on.", what=offer.label))
            self.confirming = False
        elif k == "\x1b":
            self.asking, self.typed, self.confirming = None, "", False
        elif k in ("\x7f", "\b"):
            self.typed = self.typed[:-1]
        elif k.isprintable():
            self.typed += k

    def press(self, k: str) -> bool:
        """One key; False for quit."""
        self.notes.clear()  # a note lasts until the next key
        if self.private is not None and self.asking_local is None:
            self.private.clear()  # one player's secret leaves the shared screen at the next key
        if self.asking_local is not None:
            self._press_local(k)
            return True
        if self.asking is not None:
            self._press_asked(k)
            return True
        if k == QUIT:
            return False
        for lk in self.local:
            if lk.key == k:
                self.asking_local, self.typed = lk, ""
                return True
        for offer in self.offers():
            if offer.key == k:
                if offer.key in CONFIRM and offer.prompt is None:
                    self.asking, self.typed, self.confirming = offer, "", True
                elif offer.prompt is not None:
                    self.asking, self.typed = offer, ""
                else:
                    self.send(offer.make(self.clock(), None))
                break
        else:
            if k.isprintable() and not k.isspace():
                self.notes.append(self._not_now(k))
        return True

    def _not_now(self, k: str) -> str:
        """Why a key does nothing now, in one line."""
        if k == "h" and not self.hints:
            return Msg("Hints are off: start upref play with --hints to have them.")
        if k == "n":
            return Msg("n (the next game) applies once this game is over: e ends it first.")
        if k == "u":
            return Msg("Nothing to undo now.")
        if k == "e":
            return Msg("No game is on to end.")
        return Msg(
            "The key {key} does nothing now: the keys that apply are on the last line.", key=repr(k)
        )
