"""The host at the table: link events -> board model -> referee inputs -> replies.

`Table` is the loop's one moving part, shared by `upref play`, `upref demo`, the benchmarks and
the end-to-end tests. It knows no game: it feeds whatever referee it is given. After each reply
it publishes one immutable frame (`upref.views.frame.Frame`: the reply's verdicts, the public
view, each seat's view, the status, the keys that apply), which every screen and the voice
render; they never ask the referee themselves.
"""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
import time
from collections.abc import Callable

from upref.board.codes import CodeTable
from upref.board.model import BoardModel, CardObservation
from upref.link.connection import Link
from upref.link.errors import LinkError
from upref.link.notices import (
    BoardReset,
    EventsLost,
    NoMemory,
    Offline,
    Online,
    Recovered,
    Resynced,
)
from upref.link.protocol import Heartbeat, TagRecord
from upref.referee.base import Referee, Reply
from upref.referee.feedback import Feedback
from upref.referee.inputs import BoardOnline, BoardPicture, Input, Observe, Tick
from upref.views.frame import Frame

__all__ = ["RECOVERY_WAIT_S", "TICK_S", "Table", "frame_of"]

TICK_S = 0.25
"""How often time is told to the referee while something waits on time alone."""
RECOVERY_WAIT_S = 30.0
"""The longest the first snapshot is waited for while the link brings the board's kept events."""


def frame_of(referee: Referee, reply: Reply | None = None) -> Frame:
    """The frame of the table as `referee` has it now, after `reply` (None: before any)."""
    view = referee.view(None)
    seats = tuple(referee.view(seat) for seat in range(len(view.names))) if view is not None else ()
    return Frame(
        referee.GAME,
        referee.TITLE,
        referee.engine.game_number if referee.has_engine else 0,
        view,
        seats,
        referee.status(),
        reply.verdicts if reply is not None else (),
        reply.turn if reply is not None else None,
        referee.keys_now(),
    )


class Table:
    """The host at the table: link events -> board model -> referee inputs -> replies.

    Feedback for the board is sent from a thread of its own, so a slow or lost command answer
    never holds up the referee. `clock` gives the inputs' times (wall-clock seconds, so that a
    resumed game's times continue those in its log). `frame` is the latest frame (the first one
    is the referee as the table found it); `on_frame` gets each one as it is published, after
    `on_reply`.
    """

    def __init__(
        self,
        link: Link,
        referee: Referee,
        codes: CodeTable,
        *,
        clock: Callable[[], float] = time.time,
        on_reply: Callable[[Input, Reply], None] | None = None,
        on_notice: Callable[[str], None] | None = None,
        on_frame: Callable[[Frame], None] | None = None,
    ) -> None:
        self.link = link
        self.referee = referee
        self.model = BoardModel(codes)
        if referee.phase != "idle":  # a resumed game
            self._start_from_log()
        self.clock = clock
        self.on_reply = on_reply
        self.on_frame = on_frame
        self.frame = frame_of(referee)
        # the link's one-line notices (a board restarted from its prompt): to stderr by default,
        # which Rich's live scoreboard shows above itself
        self.on_notice = on_notice or (lambda text: print(f"upref: {text}", file=sys.stderr))
        self.notices: list[str] = []
        self.replies: list[tuple[Input, Reply]] = []
        self.synced = False
        # the host's clock when the board's was at 0: from each heartbeat (host time minus up=),
        # so an event replayed from the board's memory is timed when it happened there
        self.board_epoch: float | None = None
        self._last_tick = 0.0
        self._fb: queue.Queue[Feedback | None] = queue.Queue()
        self._fb_thread = threading.Thread(target=self._send_feedback, name="upref-feedback", daemon=True)
        self._fb_thread.start()
        referee.feedback_sink = self._fb.put

    def _send_feedback(self) -> None:
        while (fb := self._fb.get()) is not None:
            for ftype, args in fb.commands():
                with contextlib.suppress(LinkError):
                    self.link.command(ftype, *args, timeout=0.5, retries=0)

    def send(self, inp: Input) -> Reply:
        reply = self.referee.handle(inp)
        self.replies.append((inp, reply))
        self.frame = frame_of(self.referee, reply)
        if self.on_reply is not None:
            self.on_reply(inp, reply)
        if self.on_frame is not None:
            self.on_frame(self.frame)
        return reply

    def wait_for_picture(self, timeout: float = 5.0) -> None:
        """Pump until the board model holds the board's first snapshot. A resumed game's first
        snapshot comes after the events the board kept meanwhile: while the board is online and
        the link is still bringing them (`Link.caught_up` false), up to `RECOVERY_WAIT_S`.

        :raises LinkError: when none comes in time.
        """
        start = time.monotonic()
        while not self.synced:
            recovering = getattr(self.link, "online", False) and not getattr(self.link, "caught_up", True)
            left = start + (max(timeout, RECOVERY_WAIT_S) if recovering else timeout) - time.monotonic()
            if left <= 0:
                raise LinkError("the board sent no snapshot: check it with upref doctor")
            self.pump(min(left, 0.1))

    def picture(self) -> tuple[int, ...]:
        return tuple(self.model.holes[h].code for h in sorted(self.model.holes))

    def pump(self, seconds: float) -> None:
        """Apply what the board sends for up to `seconds`; tell the referee the time while
        something waits on time alone (`Referee.waits_on_time`: a turn about to end, a game
        about to begin)."""
        self._pump(seconds, lambda: False)

    def pump_until_frame(self, seconds: float) -> bool:
        """Pump as `pump` does, but only until the table publishes a frame (after a reply of the
        referee: a screen then draws its verdict at once), `seconds` at most; whether one came."""
        frame = self.frame
        self._pump(seconds, lambda: self.frame is not frame)
        return self.frame is not frame

    def _pump(self, seconds: float, done: Callable[[], bool]) -> None:
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            try:
                item = self.link.events.get(timeout=max(0.0, min(left, TICK_S)))
            except queue.Empty:
                item = None
            if item is not None:
                self._item(item)
            self._maybe_tick()
            if left <= 0 or done():
                return

    def _item(self, item: object) -> None:
        observations = self.model.apply(item)  # type: ignore[arg-type]
        first = isinstance(item, Resynced) and not self.synced
        if isinstance(item, Resynced):
            self.synced = True
        if first:
            # the referee's physical picture starts from the board's first snapshot (after a
            # resume, holes that changed while the host was away are taken up from it, and the
            # reader as it lies: `_take_up_reader`)
            resumed = self.referee.phase != "idle"
            if resumed:
                self._take_up_reader()
            self.send(BoardPicture(self.picture(), self.clock()))
            if resumed:
                self._say(self.referee.resumed_words(self.model.card))
        else:
            seq = getattr(item, "seq", None)
            board_ms = getattr(item, "board_ms", None)
            t = self.clock()
            if board_ms is not None and self.board_epoch is not None:
                t = self.board_epoch + board_ms / 1000
            boot = getattr(self.link, "boot", None) if seq is not None else None
            for obs in observations:
                self.send(Observe(obs, t, board_ms=board_ms, seq=seq, boot=boot))
        if isinstance(item, Heartbeat):
            epoch = self.clock() - item.uptime_ms / 1000
            if self.board_epoch is None or abs(epoch - self.board_epoch) > 2.0:
                self.board_epoch = epoch  # a first heartbeat, or another boot
            else:
                self.board_epoch = min(self.board_epoch, epoch)  # the least delayed one
        elif isinstance(item, BoardReset):
            self.board_epoch = None
        if isinstance(item, Offline):
            self.send(BoardOnline(False, self.clock()))
        elif isinstance(item, Online) and self.synced:
            self.send(BoardOnline(True, self.clock()))
        elif isinstance(item, BoardReset):
            # the snapshot that follows brings any change as observations
            if item.advice:
                self.notices.append(item.advice)
                self.on_notice(item.advice)
        elif isinstance(item, Recovered | EventsLost | NoMemory):
            self.notices.append(item.text)
            self.on_notice(item.text)
        elif isinstance(item, TagRecord):
            self._learn(item)

    def _learn(self, record: TagRecord) -> None:
        """What the tag arriving next carries, for a tag book that reads it
        (`upref.board.tagrecords.TagsAndRecords`); what it says of it is said once."""
        learn = getattr(self.referee.tag_book, "learn", None)
        if learn is not None:
            for line in learn(record):
                self._say(line)

    def _start_from_log(self) -> None:
        """A resumed game's board model starts from the table as the log left it (the holes and
        the card the referee last heard of), not from an empty board: the events the board kept
        meanwhile, replayed before its first snapshot, then change it as they did the table (a
        pair pulled, a card lifted) instead of changing nothing."""
        for hole, code in self.referee.picture_heard.items():
            self.model.holes[hole] = self.model.state_of(code)
        self.model.card = self.referee.on_reader

    def _take_up_reader(self) -> None:
        """A resumed game's reader taken as it lies (the board's kept events, replayed before the
        first snapshot, have told what happened meanwhile; this is for what they could not: a
        board reset, events lost): a card the referee counted that is gone has left, and a card
        it never heard of that lies there arrives, once. A card it counted that still lies there
        is counted already, and is not again."""
        card, counted = self.model.card, self.referee.on_reader
        if card == counted:
            return
        if counted is not None:
            self.send(Observe(CardObservation(False, counted), self.clock()))
        if card is not None:
            self.send(Observe(CardObservation(True, card), self.clock()))

    def _say(self, text: str) -> None:
        self.notices.append(text)
        self.on_notice(text)

    def _maybe_tick(self) -> None:
        if not self.referee.waits_on_time():
            return
        now = time.monotonic()
        if now - self._last_tick >= TICK_S:
            self._last_tick = now
            self.send(Tick(self.clock()))

    def close(self) -> None:
        self._fb.put(None)
        self._fb_thread.join(timeout=2)
