"""The referee base: everything a referee does whatever the game, once.

A referee turns board observations and keys into engine actions and answers each input with
verdicts and board feedback. What does not depend on the game lives here:

- **the log first**: every input is appended to the game log (as its JSON form) before the
  referee acts on it, so a replay of the log reproduces every verdict;
- **tags**: a card's UID is looked up in the tag book when it arrives, and the answer is
  logged with the input; a tag that is not enrolled, or is enrolled for another game, gets a
  BOARD verdict before the game sees anything;
- **the board's health**: offline and back online, faults raised and cleared;
- **the game's life**: start (with a wait while the game's set-up is not ready), stop, the
  next game, the end with its result in the log; a game asked for begins by itself as soon as
  the game says its table is ready (`ready_at`), on any input, time passing included;
- **undo** back to the start of the turn (or the turn before), taking back the verdicts of what
  it undoes;
- **settings** (`settle_s`, `hints`) and the config a log's header keeps for replays;
- **keys**: `Key` inputs go to the game; `keys_now()` says which apply.

Each game's referee subclasses `Referee`, sets its class attributes (`GAME`, `TITLE`,
`CATALOGUE`, `RESULT`, `FEWEST_WIN`, `INPUTS`) and fills in the hooks (`make_engine`, `on_tap`,
`on_hole`, `on_button`, `on_key`, `scores_now`, `waiting_for_game` ...). Inputs reach their
handlers by a `match` on their type; a game's own inputs (`GameInput` subclasses listed in its
`INPUTS`) go to its `on_input`, which matches on theirs.

**The protocol a game uses** (docs/where-things-are.md, "The referee's hooks", has both tables):
it reads `engine`, `has_engine`, `phase`, `online`, `now`, `stopped`, `plays` and
`start_pending` (all read-only) and the settings it was built with; it calls `begin(out)` to
start the pending game, `note_play()` after each successful engine play and
`note_game_over(outcome)` when the rules end the game. It never touches a name of the base that
starts with `_`.

**No I/O.** Time comes from the inputs; the log (anything with `append`, `finish`, `reopen`),
the tag book (`lookup`) and the feedback sink are passed in.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from upref.board.codes import CodeTable, MoleEnd
from upref.board.model import (
    ButtonObservation,
    CardObservation,
    FaultObservation,
    HoleObservation,
    Observation,
)
from upref.board.model import fault_advice as _fault_advice
from upref.games.base import GameState, GameView, Outcome, ResultWords
from upref.referee.feedback import Feedback, feedback_for
from upref.referee.inputs import (
    BoardOnline,
    BoardPicture,
    EndGame,
    GameInput,
    Input,
    InputCodec,
    Key,
    NextGame,
    Observe,
    StartGame,
    TagInfo,
    Tick,
    Undo,
)
from upref.referee.status import BOARD, END, INFO, OK, TableStatus, Verdict
from upref.text import Msg, Words, join_words, numbers_in_words, upper_first
from upref.text.words import Mapped

__all__ = [
    "IDLE",
    "OVER",
    "PLAY",
    "RECENT",
    "SETUP",
    "CatalogueFormat",
    "InputLog",
    "KeyOffer",
    "NoGameError",
    "Referee",
    "Reply",
    "TagLike",
    "TagLookup",
    "all_reasons",
    "codes_from_dict",
    "codes_to_dict",
]

RECENT = 6
"""Public verdicts kept for the status."""

# phases every game goes through
IDLE = "idle"  # no game yet
SETUP = "setup"  # a start (or the next game) asked for, waiting for the game's set-up
PLAY = "play"  # a game on
OVER = "over"  # the game ended (by the rules or stopped)


class TagLike(Protocol):
    @property
    def game(self) -> str: ...

    @property
    def item(self) -> str: ...


class TagLookup(Protocol):
    """The tag book as a referee uses it (`upref.store.tags.TagBook` fits)."""

    def lookup(self, uid: str) -> TagLike | None: ...


class InputLog(Protocol):
    """Where a referee records inputs (`upref.store.gamelog.GameLog` fits): each input's JSON
    form, committed before the referee acts on it."""

    def append(self, entry: Mapping[str, Any]) -> int: ...

    def finish(self, outcome: Mapping[str, Any], t: float | None = None) -> None: ...

    def reopen(self) -> None: ...


@dataclass(frozen=True)
class Reply:
    """What the referee says to one input: its verdicts, in order, and the board feedback for
    the most important public one (None: nothing to signal, or the board is offline).

    `turn` is whose turn it is, for the ear ("Bob, your turn."), when this input passed the turn
    (or began a game); None when the player to act did not change."""

    verdicts: tuple[Verdict, ...]
    feedback: Feedback | None = None
    turn: str | None = field(default=None, compare=False)

    @property
    def public(self) -> tuple[Verdict, ...]:
        """The verdicts every view may show (not those addressed to one seat)."""
        return tuple(v for v in self.verdicts if v.seat is None)


@dataclass(frozen=True)
class KeyOffer:
    """A key that means something now: press `key` to send the input `make(t, answer)`.

    With a `prompt`, the host asks it and offers `default` (Enter accepts it) before sending;
    `label` says what the key does, in a few words, for the scoreboard's key line."""

    key: str
    label: str
    make: Callable[[float, str | None], Input]
    prompt: str | None = None
    default: str | None = None


@dataclass(frozen=True)
class CatalogueFormat:
    """How a game's catalogue comes and travels: its packaged pieces (`load()`), its JSON data
    for a log's header (`to_dict(catalogue)`) and the catalogue that data stands for
    (`from_dict(data)`, naming the log as its source in messages). A referee's `CATALOGUE`."""

    load: Callable[[], Any]
    to_dict: Callable[[Any], dict[str, Any]]
    from_dict: Callable[[Any], Any]


def all_reasons(head: str, reasons: Sequence[Verdict]) -> Verdict:
    """One verdict for something refused for several reasons at once: it names every reason,
    numbered, one sentence each, in the order given (each game documents its order), each with
    its rule; its correction lists every correction in that order; its kind and rule are the
    first reason's. One reason is returned as it is.

    :raises ValueError: for no reason at all.
    """
    if not reasons:
        raise ValueError("all_reasons needs at least one reason")
    if len(reasons) == 1:
        return reasons[0]
    parts = [
        f"({n}) " + Mapped(upper_first(r.text), _no_stop) + (f" [{r.rule}]." if r.rule else ".")
        for n, r in enumerate(reasons, start=1)
    ]
    fixes = join_words(" ", [r.correction for r in reasons if r.correction])
    text = Msg("{head}, for {n} reasons.", head=head, n=len(reasons)) + " " + join_words(" ", parts)
    said = [r.spoken for r in reasons if r.spoken]
    spoken = None
    if said:
        spoken = numbers_in_words(Msg("{head}, for {n} reasons.", head=head, n=len(reasons)))
        spoken += " " + join_words(
            " ",
            [
                Msg("{nth}: {reason}", nth=_ORDINALS[min(n, len(_ORDINALS)) - 1], reason=s)
                for n, s in enumerate(said, start=1)
            ],
        )
    return Verdict(reasons[0].kind, text, reasons[0].rule, fixes or None, spoken=spoken)


def _no_stop(text: str) -> str:
    return text.rstrip(".")


_ORDINALS = (Msg("First"), Msg("Second"), Msg("Third"), Msg("Fourth"), Msg("Then"))


def codes_to_dict(codes: CodeTable) -> dict[str, Any]:
    """The code table as JSON data (a log's header keeps it)."""
    ends = []
    for code in codes.codes():
        end = codes.lookup(code)
        assert end is not None
        ends.append([code, end.pair_id, end.hidden, end.visible])
    return {"colours": dict(codes.colours), "ends": ends}


def codes_from_dict(data: Mapping[str, Any]) -> CodeTable:
    ends = {int(c): MoleEnd(str(p), str(h), str(v)) for c, p, h, v in data["ends"]}
    return CodeTable(ends, {str(k): str(v) for k, v in data["colours"].items()}, "game log")


EngineT = TypeVar("EngineT", bound=GameState[Any])


class NoGameError(RuntimeError):
    """The referee was asked for its engine before any game began."""


class Referee(ABC, Generic[EngineT]):
    """The generic part of every game's referee; `EngineT` is the game's engine class
    (`class UpReferee(Referee[UpState])`), so `engine` is typed as the game's own.

    `handle(input) -> Reply` is the one entry point; `status()`, `view(seat)`, `engine`,
    `has_engine`, `phase` and `keys_now()` are read-only.

    :param codes: the magnet code table (code -> pair end); games without holes ignore it.
    :param tag_book: tag lookups (`lookup(uid) -> tag with .game and .item, or None`); None:
        every tag counts as not enrolled unless the input already carries its `tag`.
    :param log: every input is appended here (as JSON) before the referee acts on it.
    :param settle_s: how long the table must be still before something that waits for
        stillness happens (Up And Down: a finished turn ends).
    :param hints: answer hint keys (off by default).
    :param catalogue: the game's pieces (default: `default_catalogue()`, its packaged ones).
    :param feedback: called with each reply's feedback, if any.
    :param titles: game name -> title, to name the game of a tag enrolled for another one.
    """

    GAME: ClassVar[str]
    """The game's name (`upref play <GAME>`)."""
    TITLE: ClassVar[str]
    """The game's title, for verdicts."""
    CATALOGUE: ClassVar[CatalogueFormat | None] = None
    """The game's catalogue (None: a game without one); the config of a log keeps it."""
    RESULT: ClassVar[ResultWords] = ResultWords()
    """How the game says who won (its rules' own `ResultWords`): the result's words."""
    FEWEST_WIN: ClassVar[bool] = False
    """Whether the lowest score leads a stopped game (Upturn: the fewest tiles)."""
    INPUTS: ClassVar[tuple[type[GameInput], ...]] = ()
    """The game's own input classes (the log reads and writes them); `on_input` handles them."""

    def __init__(
        self,
        codes: CodeTable,
        tag_book: TagLookup | None = None,
        *,
        log: InputLog | None = None,
        settle_s: float = 1.0,
        hints: bool = False,
        catalogue: Any = None,
        feedback: Callable[[Feedback], None] | None = None,
        titles: Mapping[str, str] | None = None,
    ) -> None:
        if settle_s < 0:
            raise ValueError(f"settle_s must not be negative: {settle_s!r}")
        self.codes = codes
        self.tag_book = tag_book
        self.log = log
        self.settle_s = float(settle_s)
        self.hints = bool(hints)
        self.feedback_sink = feedback
        self.titles: Mapping[str, str] = dict(titles or {})
        self.catalogue: Any = catalogue or self.default_catalogue()
        self.codec = InputCodec(self.INPUTS)
        self._engine: EngineT | None = None
        self._phase = IDLE
        self._pending: StartGame | None = None
        self._stopped: Outcome | None = None
        self._reopen_due = False  # the next game was asked for: the log reopens at its first act
        self._online = True
        # the card on the reader as the referee last heard it: its UID and the public words its
        # arrival was answered with (a resumed game tells the table what it sees from them)
        self._reader: tuple[str, tuple[str, ...]] | None = None
        self._holes: dict[int, int] = {}  # each hole's code as the referee last heard it
        self._faults: dict[str, str] = {}
        self._now = float("-inf")
        self._plays = 0
        self._checkpoints: list[tuple[int, int]] = []  # (self._plays, turn) at turn starts
        # the latest public verdicts, each with (game number, engine plays) when it was given,
        # so that an undo takes back the verdicts of what it undoes
        self._recent: deque[tuple[int, int, Verdict]] = deque(maxlen=RECENT)

    # --- construction from a log's header ----------------------------------------------------

    def config(self) -> dict[str, Any]:
        """What a replay needs besides the inputs: the game, its settings, the code table and
        whatever else the game keeps (`config_extra`)."""
        return {
            "game": self.GAME,
            "settle_s": self.settle_s,
            "hints": self.hints,
            "codes": codes_to_dict(self.codes),
            **self.config_extra(),
        }

    @classmethod
    def from_config(
        cls,
        config: Mapping[str, Any],
        tag_book: TagLookup | None = None,
        *,
        log: InputLog | None = None,
        feedback: Callable[[Feedback], None] | None = None,
        titles: Mapping[str, str] | None = None,
    ) -> Self:
        """A referee set up as `config()` describes (missing parts: the defaults).

        :raises ValueError: for a config this game cannot read.
        """
        codes = codes_from_dict(config["codes"]) if "codes" in config else CodeTable.load()
        return cls(
            codes,
            tag_book,
            log=log,
            settle_s=float(config.get("settle_s", 1.0)),
            hints=bool(config.get("hints", False)),
            feedback=feedback,
            titles=titles,
            **cls.options_from_config(config),
        )

    def attach(self, log: InputLog | None) -> None:
        """Record further inputs in `log` (after a replay that rebuilt this referee)."""
        self.log = log

    # --- read-only -------------------------------------------------------------------------

    @property
    def engine(self) -> EngineT:
        """The rules engine of the current (or last) game; holds secrets: not for views.

        :raises NoGameError: before the first game has begun (see `has_engine`).
        """
        eng = self._engine
        if eng is None:
            raise NoGameError(
                f"no {self.TITLE} game has begun on this referee yet, so it has no engine: "
                "start a game first (and finish its set-up)"
            )
        return eng

    @property
    def has_engine(self) -> bool:
        """Whether a game has begun (so that `engine` has one to give)."""
        return self._engine is not None

    @property
    def phase(self) -> str:
        """'idle', 'setup' (waiting for the game's set-up), 'play' or 'over'."""
        return self._phase

    @property
    def on_reader(self) -> str | None:
        """The UID of the card the referee last heard arrive on the reader and not leave (None:
        the reader is empty as far as it knows)."""
        return self._reader[0] if self._reader is not None else None

    @property
    def picture_heard(self) -> dict[int, int]:
        """Each hole's code as the referee last heard it (from its first picture and the holes'
        observations since): where a resumed host's board model starts, so that the events the
        board kept while no host listened are told against it."""
        return dict(self._holes)

    def resumed_words(self, card: str | None) -> str:
        """The one line a resumed game tells the table: what the referee now sees on the reader
        (`card`, the board's snapshot's) and what it made of it, and whose turn it is."""
        if card is None:
            lies: str = Msg("the reader is empty")
        else:
            tag = self._resolve(card)
            name = (
                Msg("{piece} {item}", piece=self.piece_name(), item=tag.item)
                if tag.game == self.GAME
                else Msg("tag {uid}", uid=card)
            )
            said = self._reader[1] if self._reader is not None and self._reader[0] == card.upper() else ()
            if said:
                lies = Msg(
                    "{name} lies on the reader, counted once: {said} Lift it before the next tap",
                    name=name,
                    said=said[-1],
                )
            else:
                lies = Msg(
                    "{name} lies on the reader, counted once, with nothing to say of it Lift it "
                    "before the next tap",
                    name=name,
                )
        seat = self._to_act()
        turn = self.turn_words(seat) if seat is not None else None
        resumed = Msg("Resumed where the game log ends: {lies}.", lies=Mapped(lies, _no_stop))
        return resumed + " " + turn if turn else resumed

    @property
    def online(self) -> bool:
        """Whether the board is online (nothing at the table counts while it is not)."""
        return self._online

    @property
    def now(self) -> float:
        """The time of the latest input acted on (inputs carry their time; no clock is read)."""
        return self._now

    @property
    def plays(self) -> int:
        """How many engine plays the current game has had (`note_play` counts them)."""
        return self._plays

    @property
    def start_pending(self) -> bool:
        """Whether a start was asked for and its game has not begun yet."""
        return self._pending is not None

    @property
    def stopped(self) -> Outcome | None:
        """The outcome of a game stopped with EndGame (the engine's own outcome is None)."""
        return self._stopped

    def view(self, seat: int | None = None) -> GameView | None:
        """The engine's view for `seat` (None: the public one), or None before any game and
        while the next game of a match is being set up (the screen starts clean for it)."""
        if self._engine is None or (self._phase == SETUP and self._pending is None):
            return None
        v = self._engine.view(seat)
        if self._stopped is not None:
            v = replace(v, phase=OVER, to_move=None, outcome=self._stopped)
        return v

    def status(self) -> TableStatus:
        return TableStatus(
            board_online=self._online,
            waiting_for=self._waiting_for(),
            corrections=self.corrections(),
            verdicts=tuple(v for _, _, v in self._recent),
            faults=tuple(self._faults[k] for k in sorted(self._faults)),
        )

    def keys_now(self) -> tuple[KeyOffer, ...]:
        """The keys that mean something now: the game's own (`game_keys`), then undo, end and
        next game when they apply."""
        offers = list(self.game_keys())
        if self.can_undo():
            offers.append(KeyOffer("u", Msg("undo"), lambda t, _a: Undo(t)))
        if self._phase in (PLAY, SETUP):
            offers.append(KeyOffer("e", Msg("end the game"), lambda t, _a: EndGame(t)))
        if self._phase == OVER:
            offers.append(KeyOffer("n", Msg("next game"), lambda t, _a: NextGame(t)))
        return tuple(offers)

    def can_undo(self) -> bool:
        """Whether `u` would take something back now: the turn in progress, or the last turn
        (so `u` is offered only then)."""
        if self._phase not in (PLAY, OVER) or self._engine is None or self._stopped is not None:
            return False
        cps = self._checkpoints
        if cps and self._plays > cps[-1][0] and self.turn_in_progress():
            return True
        return len(cps) >= 2

    # --- the entry point ---------------------------------------------------------------------

    def handle(self, inp: Input) -> Reply:
        """Log `inp`, then act on it; return the verdicts and the feedback.

        An input the log cannot take (a full disk: its `append` raises `LogStopped`) is not
        acted on, and the error goes up: the game stops there, and a resume picks up from the
        last input logged (the board keeps the events after it).

        :raises TypeError: for something that is not an input of this game (nothing is logged).
        :raises ValueError: the log's `GameLogError` when it cannot take the input (nothing is
            acted on).
        """
        self._accept(inp)
        inp = self._complete(inp)
        out: list[Verdict] = []
        seat = self._to_act()
        if self.log is not None:
            self.log.append(self.codec.to_dict(inp))
            if self._reopen_due and _is_an_act(inp):
                self._reopen_due = False
                self.log.reopen()  # the session goes on: a resume picks it up
        self._act_logged(inp, out)
        fb = feedback_for(out) if self._online else None
        if fb is not None and self.feedback_sink is not None:
            self.feedback_sink(fb)
        now = self._to_act()
        turn = self.turn_words(now) if now is not None and now != seat else None
        return Reply(tuple(out), fb, turn)

    def _to_act(self) -> int | None:
        """The seat the game waits on now (None: no game on, or nobody's turn)."""
        if self._phase != PLAY or self._engine is None:
            return None
        seat = self._engine.current_player()
        return seat if seat >= 0 else None

    def _act_logged(self, inp: Input, out: list[Verdict]) -> None:
        """Act on a logged input, adding its verdicts to `out`."""
        if inp.t > self._now:
            self._now = inp.t
        start = len(out)
        self._timers(out)
        self._remember(out[start:])  # (before an undo in this very input takes them back)
        said = len(out)
        self._dispatch(inp, out)
        self._timers(out)
        self._remember(out[said:])

    def replay(self, inputs: Iterable[Input]) -> list[Reply]:
        """Handle every input in order (a log's entries); the replies, one per input."""
        return [self.handle(i) for i in inputs]

    def decode(self, entry: Mapping[str, Any]) -> Input:
        """The input a log entry (its JSON form) stands for.

        :raises ValueError: for an entry this game does not know.
        """
        return self.codec.from_dict(entry, self.codes)

    def _accept(self, inp: object) -> None:
        """:raises TypeError: for something that is not an input of this game."""
        if type(inp) not in _INPUT_TYPES and type(inp) not in self.INPUTS:
            raise TypeError(f"not an input of {self.TITLE}: {inp!r}")

    def _dispatch(self, inp: Input, out: list[Verdict]) -> None:
        """Act on an accepted input by its type (a game's own inputs go to `on_input`)."""
        match inp:
            case Observe():
                self._on_observe(inp, out)
            case Tick():
                pass
            case BoardPicture():
                self._on_picture(inp, out)
            case BoardOnline():
                self._on_online_input(inp, out)
            case StartGame():
                self._on_start_input(inp, out)
            case Undo():
                self._on_undo_input(inp, out)
            case EndGame():
                self._on_end_input(inp, out)
            case NextGame():
                self._on_next_input(inp, out)
            case Key():
                self._on_key_input(inp, out)
            case _:
                self.on_input(inp, out)

    def _remember(self, verdicts: list[Verdict]) -> None:
        """Keep the latest public verdicts for the status, each with when it was given."""
        number = self._engine.game_number if self._engine is not None else 0
        for v in verdicts:
            if v.seat is None:
                self._recent.append((number, self._plays, v))

    def _complete(self, inp: Input) -> Input:
        """Fill in what a replay needs and only the live referee knows: a card's tag book entry,
        the table at a start."""
        if isinstance(inp, Observe) and inp.tag is None:
            obs = inp.observation
            if isinstance(obs, CardObservation) and obs.arrived:
                return replace(inp, tag=self._resolve(obs.uid))
        elif isinstance(inp, StartGame) and inp.setup is None:
            return replace(inp, setup=self.start_setup())
        return inp

    def _resolve(self, uid: str) -> TagInfo:
        if self.tag_book is None:
            return TagInfo(None, None)
        try:
            tag = self.tag_book.lookup(uid)
        except ValueError:  # a malformed UID: not enrolled either
            return TagInfo(None, None)
        return TagInfo(None, None) if tag is None else TagInfo(str(tag.game), str(tag.item))

    def _timers(self, out: list[Verdict]) -> None:
        """Time has passed (before and after each input): whatever waits on time happens, and
        a game whose table has been ready long enough begins (`ready_at`)."""
        if not self._online:
            return
        self.on_time(out)
        if self._phase == SETUP and (at := self.ready_at()) is not None and self._now >= at:
            self.begin(out)

    def waits_on_time(self) -> bool:
        """Whether something waits on time alone now, so that the host loop tells the referee
        the time (`Tick`s) while nothing else happens: a game asked for whose table is ready
        and begins once it has been for long enough (`ready_at`), or whatever the game waits
        on time for (`wants_time`)."""
        if self._phase == SETUP and self._online and self.ready_at() is not None:
            return True
        return self.wants_time()

    # --- observations ------------------------------------------------------------------------

    def _on_observe(self, inp: Observe, out: list[Verdict]) -> None:
        obs: Observation = inp.observation
        match obs:
            case HoleObservation():
                self._holes[obs.hole] = obs.new_code
                self._on_hole_observation(inp, obs, out)
            case CardObservation():
                said = len(out)
                self._on_card_observation(inp, obs, out)
                words = tuple(v.text for v in out[said:] if v.public)
                self._reader = (obs.uid.upper(), words) if obs.arrived else None
            case ButtonObservation():
                self._on_button_observation(inp, obs, out)
            case FaultObservation():
                self._on_fault_observation(inp, obs, out)

    def _on_hole_observation(self, _inp: Observe, obs: HoleObservation, out: list[Verdict]) -> None:
        self.on_hole(obs.hole, obs.new_code, out)

    def _on_card_observation(self, inp: Observe, obs: CardObservation, out: list[Verdict]) -> None:
        if not obs.arrived or not self._online:
            return
        tag = inp.tag or TagInfo(None, None)
        uid = obs.uid
        if self._phase == IDLE:
            return
        if not tag.enrolled:
            out.append(
                Verdict(
                    BOARD,
                    Msg(
                        "Tag {uid} is not enrolled: run upref enroll {game} to enrol the card.",
                        uid=uid,
                        game=self.GAME,
                    ),
                    "tag",
                    spoken=Msg(
                        "That {piece} is not known to the referee yet: enrol it first, then tap "
                        "it again.",
                        piece=self.piece_name(),
                    ),
                )
            )
            return
        if tag.game != self.GAME:
            title = self.titles.get(str(tag.game), str(tag.game).capitalize())
            out.append(
                Verdict(
                    BOARD,
                    Msg(
                        "Tag {uid} is enrolled for {title}, not for {game}: that is not a {piece} "
                        "of this game.",
                        uid=uid,
                        title=title,
                        game=self.TITLE,
                        piece=self.piece_name(),
                    ),
                    "tag",
                    spoken=Msg(
                        "That is a piece of {title}, not of {game}: put it away.",
                        title=title,
                        game=self.TITLE,
                    ),
                )
            )
            return
        self.on_tap(str(tag.item), uid, out)

    def _on_button_observation(
        self, _inp: Observe, obs: ButtonObservation, out: list[Verdict]
    ) -> None:
        if obs.pressed and self._online:
            self.on_button(out)

    def _on_fault_observation(
        self, _inp: Observe, obs: FaultObservation, out: list[Verdict]
    ) -> None:
        advice = _fault_advice(obs.kind, obs.where, obs.text)
        if obs.raised:
            if ":" not in obs.key:
                self._faults[obs.key] = advice
            out.append(
                Verdict(
                    BOARD,
                    Msg("Board fault: {advice}.", advice=advice),
                    "board",
                    spoken=Msg("The board reports a fault: look at the screen."),
                )
            )
        elif obs.key in self._faults:
            del self._faults[obs.key]
            out.append(Verdict(INFO, Msg("Board fault cleared: {place}.", place=_fault_place(obs)), "board"))

    def _on_picture(self, inp: BoardPicture, out: list[Verdict]) -> None:
        self._holes = dict(enumerate(inp.holes, start=1))
        for h, code in enumerate(inp.holes, start=1):
            self.on_hole(h, code, out)

    def _on_online_input(self, inp: BoardOnline, out: list[Verdict]) -> None:
        if inp.online == self._online:
            return
        self._online = inp.online
        if not inp.online:
            self.on_offline()
            out.append(
                Verdict(
                    BOARD,
                    Msg("The board is offline: nothing counts until it is back. Check its USB cable."),
                    "board",
                    spoken=Msg("The board is offline: nothing counts until it is back. Check its cable."),
                )
            )
            return
        out.append(
            Verdict(
                BOARD, Msg("The board is back online."), "board", spoken=Msg("The board is back.")
            )
        )
        self.on_online_again(out)

    # --- host inputs -----------------------------------------------------------------------

    def _on_start_input(self, inp: StartGame, out: list[Verdict]) -> None:
        if self._phase == PLAY:
            out.append(Verdict(INFO, Msg("A game is on: end it before starting another.")))
            return
        try:  # players and variant first, before anything at the table
            self.check_start(inp)
        except ValueError as exc:
            out.append(Verdict(INFO, Msg("Cannot start: {why}.", why=reason_of(exc))))
            return
        self._pending = inp
        self._phase = SETUP
        self.prepare(inp, out)

    def begin(self, out: list[Verdict]) -> None:
        """Start the pending game (or the next one of a match) now: what `prepare` and
        `prepare_next` call, at once or once the table is ready."""
        if self._pending is None:
            eng = self.next_engine(self.engine)
        else:
            eng = self.make_engine(self._pending)
        self._engine = eng
        self._phase = PLAY
        self._pending = None
        self._stopped = None
        self._plays = 0
        self._checkpoints = []
        self._recent.clear()  # the table's list starts again with the game
        self.on_begin()
        turn = self.turn_start()
        if turn is not None:  # a game that begins in a turn: that turn can be undone too
            self._checkpoints.append((0, turn))
        out.append(Verdict(INFO, self.engine_verdict()))

    def _on_end_input(self, _inp: EndGame, out: list[Verdict]) -> None:
        if self._phase == SETUP:
            self._phase = OVER if self._engine is not None else IDLE
            self._pending = None
            out.append(Verdict(INFO, Msg("Start cancelled.")))
            return
        if self._phase != PLAY:
            out.append(Verdict(INFO, Msg("No game is on.")))
            return
        outcome = self.stop_outcome()
        self._stopped = outcome
        self._phase = OVER
        self.on_stop()
        if outcome.winners:
            text: str = Msg("Game stopped. {result}.", result=self.result_text(outcome))
            said: str = Msg("The game is stopped. {result}", result=self.result_words(outcome))
        else:
            text = Msg("Game stopped before anyone scored: no winner.")
            said = Msg("The game is stopped. Nobody scored, so nobody wins.")
        out.append(Verdict(END, text, spoken=said))
        self._finish(outcome)

    def _on_next_input(self, _inp: NextGame, out: list[Verdict]) -> None:
        if self._phase == PLAY:
            out.append(Verdict(INFO, Msg("The game is not over: end it before the next one.")))
            return
        if self._engine is None:
            out.append(Verdict(INFO, Msg("No game to follow: start one.")))
            return
        if self._phase == SETUP and self._pending is None:
            return  # the next game is already asked for
        self._phase = SETUP
        self._pending = None
        # The log stays finished until someone acts in the next game (`handle`): `n` then `q`
        # leaves no game that only looks unfinished. The screen starts clean for it.
        self._reopen_due = True
        self._recent.clear()
        self.prepare_next(out)

    def _on_undo_input(self, _inp: Undo, out: list[Verdict]) -> None:
        eng = self._engine
        if eng is None or not self.can_undo():
            out.append(Verdict(INFO, Msg("Nothing to undo.")))
            return
        if not self._online:
            out.append(Verdict(BOARD, Msg("The board is offline: undo once it is back."), "board"))
            return
        cps = self._checkpoints
        if cps and self._plays > cps[-1][0] and self.turn_in_progress():
            target = cps[-1][0]
        else:
            cps.pop()
            target = cps[-1][0]
        before = self.before_undo()
        was_over = self._phase == OVER
        while self._plays > target:
            eng.undo()
            self._plays -= 1
        self._phase = PLAY
        number = eng.game_number
        kept = [r for r in self._recent if r[0] != number or r[1] <= target]
        self._recent.clear()
        self._recent.extend(kept)
        if was_over and self.log is not None:
            self.log.reopen()
        seat = eng.current_player()
        undone = Msg("Undone: back to the start of {name}'s turn.", name=eng.players[seat])
        fixes = self.after_undo(before)
        said = join_words(" ", [undone, *fixes])
        out.append(Verdict(OK, said, "undo", join_words(" ", fixes) or None, spoken=said))

    def _on_key_input(self, inp: Key, out: list[Verdict]) -> None:
        if not self.on_key(inp.name, inp.arg, out):
            out.append(Verdict(
                    INFO,
                    Msg("The key {key} means nothing in {game} now.", key=repr(inp.name), game=self.TITLE),
                ))

    # --- engine bookkeeping for games ----------------------------------------------------------

    def note_play(self, *, joins_last_turn: bool = False) -> None:
        """After every successful engine play: count it, and note the start of a new turn (an
        undo point). With `joins_last_turn`, the play belongs to the turn of the play just
        before it (Up: a card joined to it): an undo point that play set moves after this one.
        """
        self._plays += 1
        cps = self._checkpoints
        turn = self.turn_start()
        if turn is not None and (not cps or cps[-1][1] != turn):
            cps.append((self._plays, turn))
        if joins_last_turn and cps and cps[-1][0] == self._plays - 1:
            cps[-1] = (self._plays, cps[-1][1])

    def note_game_over(self, outcome: Outcome) -> None:
        """The rules ended the game (with `outcome`): the phase is over, the log says so."""
        self._phase = OVER
        self._finish(outcome)

    def _finish(self, outcome: Outcome) -> None:
        if self.log is None:
            return
        eng = self.engine
        names = eng.players
        self.log.finish(
            {
                "game_number": eng.game_number,
                "termination": outcome.termination,
                "winners": [names[w] for w in outcome.winners],
                "scores": {names[i]: s for i, s in enumerate(outcome.scores)},
            },
            self._now,
        )

    def _waiting_for(self) -> str | None:
        if not self._online:
            return Msg("The board to come back online (check its USB cable).")
        if self._phase == IDLE:
            return Msg("A game to be started.")
        return self.waiting_for_game()

    # --- hooks: what each game fills in (the table in docs/where-things-are.md) ----------------

    # settings and set-up

    def default_catalogue(self) -> Any:
        """The game's pieces when none are given (its packaged catalogue, from `CATALOGUE`);
        None for a game with no catalogue."""
        return None if self.CATALOGUE is None else self.CATALOGUE.load()

    def config_extra(self) -> dict[str, Any]:
        """The game's own part of `config()` (default: its catalogue's data)."""
        if self.CATALOGUE is None:
            return {}
        return {"catalogue": self.CATALOGUE.to_dict(self.catalogue)}

    @classmethod
    def options_from_config(cls, config: Mapping[str, Any]) -> dict[str, Any]:
        """Keyword arguments for the constructor from the game's own part of a config
        (default: the catalogue the config keeps, if any)."""
        data = config.get("catalogue")
        if cls.CATALOGUE is None or data is None:
            return {}
        return {"catalogue": cls.CATALOGUE.from_dict(data)}

    def piece_name(self) -> str:
        """What a tagged piece of this game is called ('task card', 'tile')."""
        return Msg("card")

    def start_setup(self) -> dict[str, Any]:
        """What the game must know of the table when a start is asked for; logged with it."""
        return {}

    def check_start(self, start: StartGame) -> None:
        """Refuse players or a variant the game cannot start with, before anything at the table
        (default: build an engine and drop it).

        :raises ValueError: said to the table as "Cannot start: ...".
        """
        self.make_engine(start)

    # the engine

    @abstractmethod
    def make_engine(self, start: StartGame) -> EngineT:
        """A new engine for this start, as the table is now.

        :raises ValueError: for players or a variant the game refuses.
        """

    @abstractmethod
    def next_engine(self, engine: EngineT) -> EngineT:
        """The next game of a match after `engine`'s (same players and variant)."""

    def engine_verdict(self) -> str:
        """The engine's own text about the last thing that happened."""
        return self.engine.view(None).verdict

    # a game's life

    def prepare(self, start: StartGame, out: list[Verdict]) -> None:
        """A start was asked for: begin at once (the default), or say what the table must do
        first and begin later (from `on_time` or an observation) with `self.begin(out)`."""
        self.begin(out)

    def prepare_next(self, out: list[Verdict]) -> None:
        """The next game was asked for: begin it at once (the default) or say what to do."""
        self.begin(out)

    def ready_at(self) -> float | None:
        """While a game asked for waits for its set-up (phase `SETUP`): the input time from
        which the table is ready for it, or None while it is not (the default: the game begins
        at once, or from its own set-up input with `begin`). The base begins the game at the
        first moment the board is online and that time has come, on any input: a `Tick` too,
        which the host loop sends while the time is still to come (`waits_on_time`). A ready
        table that must also have been still for a while says when that will be
        (the last change plus `settle_s`); one ready now says `now`."""
        return None

    def on_begin(self) -> None:
        """A game has just begun: reset the game's own bookkeeping."""

    def on_stop(self) -> None:
        """The game was stopped: drop whatever waits."""

    def scores_now(self) -> tuple[int, ...]:
        """Each seat's score if the game stopped now (for the default `stop_outcome`)."""
        raise NotImplementedError(f"{self.TITLE}'s referee gives neither scores nor a stop")

    def stop_outcome(self) -> Outcome:
        """The result when the game is stopped early (EndGame): by default the best of
        `scores_now()` win (the highest, or with `FEWEST_WIN` the lowest), all of them on a tie;
        nobody wins a game stopped before anyone scored (no play yet, or, where the highest
        wins, nobody above 0).
        """
        scores = self.scores_now()
        best = min(scores) if self.FEWEST_WIN else max(scores)
        if self._plays == 0 or (not self.FEWEST_WIN and best <= 0):
            return Outcome("stopped", (), scores)
        return Outcome("stopped", tuple(i for i, s in enumerate(scores) if s == best), scores)

    def result_text(self, outcome: Outcome) -> str:
        """The result in words, by `RESULT`: 'Ann is Buddel King with 5 shovels', 'Ann and Bob
        share the win with 3 birds and 4 cards each'."""
        names, best = self.winners_and_best(outcome)
        return self.RESULT.text(names, best, self.tied(outcome), outcome.termination)

    def tied(self, outcome: Outcome) -> int:
        """What else the winners of a shared win share, counted in `RESULT.tie` (4 cards)."""
        return 0

    def result_words(self, outcome: Outcome) -> str:
        """The result for the ear, by `RESULT`: 'Ann is Buddel King, with five shovels!'."""
        return self.RESULT.spoken(*self.winners_and_best(outcome), outcome.termination)

    def over_words(self, outcome: Outcome) -> str:
        """The rules have just ended the game, for the ear: 'The game is over. Ann is Buddel
        King, with five shovels!'."""
        return Msg("The game is over. {result}", result=self.result_words(outcome))

    def over_refusal(self, what: str) -> str:
        """A piece played after the game's end, refused (`what`: 'that flip', 'the tile 7'):
        'The game is over (Ann wins with 9 birds): that flip does not count.'"""
        outcome = self.stopped or self.engine.outcome() or self.stop_outcome()
        return Msg(
            "The game is over ({result}): {what} does not count.",
            result=self.result_text(outcome),
            what=what,
        )

    def winners_and_best(self, outcome: Outcome) -> tuple[list[str], int]:
        """The winners' names and their (first winner's) score, 0 without winners."""
        names = [self.engine.players[w] for w in outcome.winners]
        return names, outcome.scores[outcome.winners[0]] if outcome.winners else 0

    def turn_words(self, seat: int) -> str | None:
        """Whose turn it is, for the ear, when the turn passes to `seat` ('Bob, your turn.');
        None: nothing to say."""
        return Msg("{name}, your turn.", name=self.engine.players[seat])

    # inputs

    def wants_time(self) -> bool:
        """Whether something of the game waits on time alone now (the host then sends
        `Tick`s; a game waiting for its table to be ready says so with `ready_at` instead)."""
        return False

    def on_time(self, out: list[Verdict]) -> None:
        """Time has passed (every input, board online): whatever waits on time happens."""

    def on_hole(self, hole: int, code: int, out: list[Verdict]) -> None:
        """A hole reads `code` now (holes 1..N)."""

    def on_tap(self, item: str, uid: str, out: list[Verdict]) -> None:
        """A piece of this game (catalogue id `item`, tag `uid`) was tapped on the reader."""

    def on_button(self, out: list[Verdict]) -> None:
        """The board's button was pressed (board online)."""

    def on_input(self, inp: GameInput, out: list[Verdict]) -> None:
        """One of the game's own inputs (a class in its `INPUTS`): a `match` on its type."""
        raise TypeError(f"{self.TITLE} lists {type(inp).__name__} in INPUTS but takes none")

    def on_key(self, name: str, arg: str | None, out: list[Verdict]) -> bool:
        """A `Key`; False when the game gives it no meaning now."""
        return False

    def game_keys(self) -> tuple[KeyOffer, ...]:
        """The game's own keys that apply now."""
        return ()

    def on_offline(self) -> None:
        """The board went offline."""

    def on_online_again(self, out: list[Verdict]) -> None:
        """The board is back online (after its verdict)."""

    # undo

    def turn_start(self) -> int | None:
        """The engine's turn number when a turn is just starting (an undo point), else None."""
        return None

    def turn_in_progress(self) -> bool:
        """Whether the turn since the last undo point has changed anything (undo then goes back
        to its start, not to the turn before)."""
        return True

    def before_undo(self) -> Any:
        """What the game needs to remember before an undo (handed to `after_undo`)."""
        return None

    def after_undo(self, before: Any) -> list[str]:
        """The corrections the table must make after an undo, in words."""
        return []

    # what the table is told

    def waiting_for_game(self) -> str | None:
        """What the table is waiting for, once a game is asked for (board online)."""
        return None

    def corrections(self) -> tuple[str, ...]:
        """Physical corrections still outstanding, in words."""
        return ()


_INPUT_TYPES: frozenset[type] = frozenset(
    (Observe, Tick, BoardPicture, BoardOnline, StartGame, Undo, EndGame, NextGame, Key)
)
"""The inputs every game takes (the game's own are in its `INPUTS`)."""


def _is_an_act(inp: Input) -> bool:
    """Whether an input is something a person did (a tap, a pair moved, a key), not the board's
    or the clock's own (a tick, a picture, the board coming back)."""
    return isinstance(inp, Observe | Key | Undo | EndGame | StartGame) or (
        isinstance(inp, GameInput) and not isinstance(inp, Tick | NextGame)
    )


def _fault_place(obs: FaultObservation) -> str:
    if obs.kind == "sensor":
        return Msg("sensor {number}", number=obs.where[1:])
    if obs.kind == "hole":
        return Msg("hole {number}", number=obs.where[1:])
    if obs.kind == "rfid":
        return Msg("one card on the reader") if obs.where == "field" else Msg("RFID reader")
    return f"{obs.kind} {obs.where}"


def reason_of(exc: BaseException) -> str:
    """Why `exc` was raised, in words that can be said in any language: its message when it
    was raised with a sentence of the catalogue, else its text."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, Words) else str(exc)
