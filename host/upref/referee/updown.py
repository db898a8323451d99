"""The Up And Down referee: board observations and host inputs in, engine actions, verdicts and
board feedback out.

The referee keeps two pictures apart: the **physical** one (the code each hole reads, from
observations) and the **game** one (the engine's board). It never "undoes" reality; it turns
changes of the physical picture into engine actions and, when the two disagree in a way the
rules forbid, prescribes a correction and waits for the table to carry it out.

How a hole's change is read (holes 1..10, during a game):

- a code becomes 0: the pair is pulled, "in hand" (its home is the engine's hole for it);
- the code the engine has there (the pair as it was): in a turn, `Reinsert` unturned, which
  the engine notes as "not turned, does not count" (M-3);
- the hole's own pair with the other end up: a flip, `Reinsert(h, h, pair, hidden)`;
- another pair's code: `Reinsert(home, h, ...)`, which the engine refuses (M-2);
- an invalid code (not three magnets, or not in the table): a BOARD verdict, no action;
- a code one flipped pole away from either end of the hole's own pair, or the code of a pair
  that the board still reads in another hole: a suspect reading (BOARD): "reseat the pair",
  never a wrong-hole ruling.

**Corrections.** When the engine refuses a change (or a reading is bad, or an undo leaves a
pair the wrong way up), the hole gets an outstanding correction (`status().corrections`). While
any is outstanding, a further flip that the rules would accept is not taken: the verdict says
"First <correction> Hole N is taken into account after that." (ILLEGAL, with that correction),
and once the last correction is carried out the waiting holes are looked at again, in hole
order. A correction for the hole's own pair (turn it back, put it back) survives the pair being
pulled out, and is met when the hole reads what the engine has there ("Hole N is right
again."); one for another pair or a bad reading ends when that pair leaves the hole, and the
next reading is judged afresh. Card draws are taken even while a correction is outstanding
(they do not depend on the board); the button and the automatic end of a turn are not.

**Turn end.** Once three different pairs are turned, the board agrees with the engine
everywhere (every hole filled, no correction) and no hole's reading has changed for
`settle_s` seconds (measured with input times only), the referee ends the turn. A button press
ends it at once (`EndTurn(empty_holes=...)`; the engine refuses with M-1 / M-4 when it is not
ready).

**Secrets.** Verdicts for the table (`seat=None`) never name a hidden colour, a pair id or an
unsolved task card; a verdict with `seat` set (a hint, the reminder of one's own card) is for
that seat only (see `upref.referee.status`).

**No I/O.** Time comes from the inputs; the log (anything with `append`, `finish`, `reopen`),
the tag registry (`lookup`) and the feedback sink are passed in. Every input is appended to
the log before the referee acts on it, so a replay of the log reproduces every verdict.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from upref.board.codes import EMPTY, MAX_CODE, CodeTable, MoleEnd, magnet_count, one_flip_neighbours
from upref.board.model import ButtonObservation, CardObservation, FaultObservation, HoleObservation
from upref.board.model import fault_advice as _fault_advice
from upref.games import GAME_TITLES
from upref.games.base import CHANCE, IllegalMoveError, Outcome
from upref.games.updown.cards import Catalogue, TaskCard, colour_name, load_catalogue
from upref.games.updown.engine import FLIPS_PER_TURN, HOLES, DrawTask, EndTurn, Reinsert, UpDownGame
from upref.referee.feedback import Feedback, feedback_for
from upref.referee.inputs import (
    BoardOnline,
    EndGame,
    Hint,
    Input,
    NextGame,
    Observe,
    Picture,
    StartGame,
    TagInfo,
    Tick,
    Undo,
)
from upref.referee.status import BOARD, END, ILLEGAL, INFO, OK, SOLVED, TURN, TableStatus, Verdict

__all__ = [
    "GAME",
    "RECENT",
    "InputLog",
    "Reply",
    "TagLike",
    "TagLookup",
    "UpDownReferee",
    "catalogue_from_dict",
    "catalogue_to_dict",
    "codes_from_dict",
    "codes_to_dict",
]

GAME = "updown"
RECENT = 6  # public verdicts kept for the status

_INPUTS = (StartGame, Observe, BoardOnline, Picture, Undo, EndGame, NextGame, Tick, Hint)

# phases
_IDLE = "idle"  # no game yet
_SETUP = "setup"  # a start asked for, waiting for a complete board
_REMIX = "remix"  # the next game asked for, waiting for the pairs to be re-mixed
_PLAY = "play"  # a game on
_OVER = "over"  # the game ended (by the rules or stopped)


class TagLike(Protocol):
    @property
    def game(self) -> str: ...

    @property
    def item(self) -> str: ...


class TagLookup(Protocol):
    """The tag registry as the referee uses it (`upref.store.tags.TagRegistry` fits)."""

    def lookup(self, uid: str) -> TagLike | None: ...


class InputLog(Protocol):
    """Where the referee records inputs (`upref.store.gamelog.GameLog` fits)."""

    def append(self, inp: Input) -> int: ...

    def finish(self, outcome: Mapping[str, Any], t: float | None = None) -> None: ...

    def reopen(self) -> None: ...


@dataclass(frozen=True)
class Reply:
    """What the referee says to one input: its verdicts, in order, and the board feedback for
    the most important public one (None: nothing to signal, or the board is offline)."""

    verdicts: tuple[Verdict, ...]
    feedback: Feedback | None = None

    @property
    def public(self) -> tuple[Verdict, ...]:
        """The verdicts every view may show (not those addressed to one seat)."""
        return tuple(v for v in self.verdicts if v.seat is None)


@dataclass
class _Issue:
    """An outstanding correction at a hole. `own`: about the hole's own pair (turn it back,
    put it back), kept while the pair is out; `foreign`: another pair sits in the hole;
    `reading`: the hole reads a bad or suspect code."""

    kind: str  # "own" | "foreign" | "reading"
    rule: str
    correction: str


# --- config round trip (the game log stores it so a replay needs nothing else) ---------------


def codes_to_dict(codes: CodeTable) -> dict[str, Any]:
    ends = []
    for code in codes.codes():
        end = codes.lookup(code)
        assert end is not None
        ends.append([code, end.pair_id, end.hidden, end.visible])
    return {"colours": dict(codes.colours), "ends": ends}


def codes_from_dict(data: Mapping[str, Any]) -> CodeTable:
    ends = {int(c): MoleEnd(str(p), str(h), str(v)) for c, p, h, v in data["ends"]}
    return CodeTable(ends, {str(k): str(v) for k, v in data["colours"].items()}, "game log")


def _card_dict(card: TaskCard) -> dict[str, Any]:
    return {"id": card.id, "shovels": card.shovels, "counts": [[c, n] for c, n in card.counts]}


def _card_of(d: Mapping[str, Any]) -> TaskCard:
    return TaskCard(
        str(d["id"]), int(d["shovels"]), tuple((str(c), int(n)) for c, n in d["counts"])
    )


def catalogue_to_dict(cat: Catalogue) -> dict[str, Any]:
    return {
        "source": cat.source,
        "cards": [_card_dict(c) for c in cat.cards],
        "impossible": [{"card": _card_dict(c), "reason": r} for c, r in cat.impossible],
    }


def catalogue_from_dict(data: Mapping[str, Any]) -> Catalogue:
    return Catalogue(
        tuple(_card_of(c) for c in data["cards"]),
        tuple((_card_of(i["card"]), str(i["reason"])) for i in data.get("impossible", ())),
        str(data.get("source", "game log")),
    )


# --- the referee -----------------------------------------------------------------------------


class UpDownReferee:
    """Referees Up And Down from the sensor board.

    `handle(input) -> Reply` is the one entry point; `status()`, `view(seat)` and `engine`
    are read-only. Inputs are `upref.referee.inputs` dataclasses.

    :param codes: the magnet code table (code -> pair end).
    :param registry: tag lookups (`lookup(uid) -> tag with .game and .item, or None`); None:
        every tag counts as not enrolled unless the input already carries its `tag`.
    :param log: every input is appended here before the referee acts on it.
    :param settle_s: how long the board must be still before a finished turn ends by itself.
    :param hints: answer `Hint` inputs (off by default).
    :param catalogue: the task cards (default: the packaged catalogue).
    :param feedback: called with each reply's feedback, if any.
    """

    def __init__(
        self,
        codes: CodeTable,
        registry: TagLookup | None = None,
        *,
        log: InputLog | None = None,
        settle_s: float = 1.0,
        hints: bool = False,
        catalogue: Catalogue | None = None,
        feedback: Callable[[Feedback], None] | None = None,
    ) -> None:
        if settle_s < 0:
            raise ValueError(f"settle_s must not be negative: {settle_s!r}")
        self.codes = codes
        self.registry = registry
        self.log = log
        self.settle_s = float(settle_s)
        self.hints = bool(hints)
        self.catalogue = catalogue or load_catalogue()
        self.feedback_sink = feedback
        self._ends: dict[int, MoleEnd] = {c: e for c in codes.codes() if (e := codes.lookup(c))}
        self._code_of: dict[tuple[str, str], int] = {
            (e.pair_id, e.hidden): c for c, e in self._ends.items()
        }
        # per pair: the codes one flipped pole away from either of its ends (a suspect reading
        # where that pair belongs; upref.hardware.codetable.suspect, precomputed)
        self._near: dict[str, frozenset[int]] = {}
        for c, e in self._ends.items():
            near = self._near.get(e.pair_id, frozenset()) | set(one_flip_neighbours(c))
            self._near[e.pair_id] = near
        for pair, near in self._near.items():
            self._near[pair] = near - {c for c, e in self._ends.items() if e.pair_id == pair}
        self._phys: list[int] = [EMPTY] * (HOLES + 1)  # index 1..10
        self._engine: UpDownGame | None = None
        self._phase = _IDLE
        self._pending: StartGame | None = None
        self._stopped: Outcome | None = None
        self._issues: dict[int, _Issue] = {}
        self._deferred: set[int] = set()
        self._online = True
        self._offline_seen: dict[int, int] = {}
        self._faults: dict[str, str] = {}
        self._now = float("-inf")
        self._last_change = float("-inf")
        self._remix_pulled = False
        self._plays = 0
        self._checkpoints: list[tuple[int, int]] = []  # (self._plays, engine turn) at turn starts
        # the latest public verdicts, each with (game number, engine plays) when it was given, so
        # that an undo takes back the verdicts of what it undoes
        self._recent: deque[tuple[int, int, Verdict]] = deque(maxlen=RECENT)

    # --- construction from a log's header ----------------------------------------------------

    def config(self) -> dict[str, Any]:
        """What a replay needs besides the inputs: settle time, hints, code table, catalogue."""
        return {
            "game": GAME,
            "settle_s": self.settle_s,
            "hints": self.hints,
            "codes": codes_to_dict(self.codes),
            "catalogue": catalogue_to_dict(self.catalogue),
        }

    @classmethod
    def from_config(
        cls,
        config: Mapping[str, Any],
        registry: TagLookup | None = None,
        *,
        log: InputLog | None = None,
        feedback: Callable[[Feedback], None] | None = None,
    ) -> UpDownReferee:
        """A referee set up as `config()` describes (missing parts: the defaults)."""
        codes = codes_from_dict(config["codes"]) if "codes" in config else CodeTable.load()
        cat = catalogue_from_dict(config["catalogue"]) if "catalogue" in config else None
        return cls(
            codes,
            registry,
            log=log,
            settle_s=float(config.get("settle_s", 1.0)),
            hints=bool(config.get("hints", False)),
            catalogue=cat,
            feedback=feedback,
        )

    def attach(self, log: InputLog | None) -> None:
        """Record further inputs in `log` (after a replay that rebuilt this referee)."""
        self.log = log

    # --- read-only -------------------------------------------------------------------------

    @property
    def engine(self) -> UpDownGame | None:
        """The rules engine of the current (or last) game; holds secrets: not for views."""
        return self._engine

    @property
    def phase(self) -> str:
        """'idle', 'setup' (waiting for a complete board), 'remix', 'play' or 'over'."""
        return self._phase

    @property
    def online(self) -> bool:
        return self._online

    @property
    def picture(self) -> tuple[int, ...]:
        """The codes the referee believes holes 1..10 read."""
        return tuple(self._phys[1:])

    @property
    def stopped(self) -> Outcome | None:
        """The outcome of a game stopped with EndGame (the engine's own outcome is None)."""
        return self._stopped

    def view(self, seat: int | None = None) -> dict[str, Any] | None:
        """The engine's view for `seat` (None: the public one), or None before any game."""
        if self._engine is None:
            return None
        v = self._engine.view(seat)
        if self._stopped is not None:
            v["phase"] = "over"
            v["to_move"] = None
            v["outcome"] = {
                "termination": self._stopped.termination,
                "winners": list(self._stopped.winners),
                "scores": list(self._stopped.scores),
            }
        return v

    def status(self) -> TableStatus:
        return TableStatus(
            board_online=self._online,
            waiting_for=self._waiting_for(),
            corrections=tuple(self._issues[h].correction for h in sorted(self._issues)),
            verdicts=tuple(v for _, _, v in self._recent),
            faults=tuple(self._faults[k] for k in sorted(self._faults)),
        )

    # --- the entry point ---------------------------------------------------------------------

    def handle(self, inp: Input) -> Reply:
        """Log `inp`, then act on it; return the verdicts and the feedback.

        :raises TypeError: for something that is not a referee input (nothing is logged).
        """
        if not isinstance(inp, _INPUTS):
            raise TypeError(f"not a referee input: {inp!r}")
        inp = self._complete(inp)
        if self.log is not None:
            self.log.append(inp)
        out: list[Verdict] = []
        if inp.t > self._now:
            self._now = inp.t
        self._timers(out)
        self._remember(out)  # (before an undo in this very input takes them back)
        said = len(out)
        if isinstance(inp, Observe):
            obs = inp.observation
            if isinstance(obs, HoleObservation):
                self._on_hole(obs.hole, obs.new_code, out)
            elif isinstance(obs, CardObservation):
                if obs.arrived and self._online:
                    self._on_card(obs.uid, inp.tag or TagInfo(None, None), out)
            elif isinstance(obs, ButtonObservation):
                if obs.pressed and self._online:
                    self._on_button(out)
            elif isinstance(obs, FaultObservation):
                self._on_fault(obs, out)
        elif isinstance(inp, Tick):
            pass
        elif isinstance(inp, Picture):
            for h, code in enumerate(inp.holes[:HOLES], start=1):
                self._on_hole(h, code, out)
        elif isinstance(inp, BoardOnline):
            self._on_online(inp.online, out)
        elif isinstance(inp, StartGame):
            self._on_start(inp, out)
        elif isinstance(inp, Undo):
            self._on_undo(out)
        elif isinstance(inp, EndGame):
            self._on_end_game(out)
        elif isinstance(inp, NextGame):
            self._on_next(out)
        elif isinstance(inp, Hint):
            self._on_hint(out)
        self._timers(out)
        self._remember(out[said:])
        fb = feedback_for(out) if self._online else None
        if fb is not None and self.feedback_sink is not None:
            self.feedback_sink(fb)
        return Reply(tuple(out), fb)

    def _remember(self, verdicts: list[Verdict]) -> None:
        """Keep the latest public verdicts for the status, each with when it was given."""
        number = self._engine.game_number if self._engine is not None else 0
        for v in verdicts:
            if v.seat is None:
                self._recent.append((number, self._plays, v))

    def replay(self, inputs: Iterable[Input]) -> list[Reply]:
        """Handle every input in order (a log's entries); the replies, one per input."""
        return [self.handle(i) for i in inputs]

    def _complete(self, inp: Input) -> Input:
        """Fill in what a replay needs and only the live referee knows: a card's registry entry,
        the board's picture at a start."""
        if isinstance(inp, Observe) and inp.tag is None:
            obs = inp.observation
            if isinstance(obs, CardObservation) and obs.arrived:
                return Observe(obs, inp.t, self._resolve(obs.uid))
        elif isinstance(inp, StartGame) and inp.holes is None:
            return StartGame(inp.players, inp.variant, inp.seed, inp.t, self.picture)
        return inp

    def _resolve(self, uid: str) -> TagInfo:
        if self.registry is None:
            return TagInfo(None, None)
        try:
            tag = self.registry.lookup(uid)
        except ValueError:  # a malformed UID: not enrolled either
            return TagInfo(None, None)
        return TagInfo(None, None) if tag is None else TagInfo(str(tag.game), str(tag.item))

    # --- time ------------------------------------------------------------------------------

    def _settled(self) -> bool:
        return self._now - self._last_change >= self.settle_s

    def _timers(self, out: list[Verdict]) -> None:
        if not self._online:
            return
        if self._phase == _PLAY:
            eng = self._engine
            assert eng is not None
            if (
                self._settled()
                and len(eng.turned) == FLIPS_PER_TURN
                and eng.current_player() >= 0
                and self._agrees()
            ):
                self._end_turn((), out)
        elif self._phase in (_SETUP, _REMIX):
            if (self._phase == _SETUP or self._remix_pulled) and self._settled():
                if not self._board_problems():
                    self._begin(out)

    # --- the physical picture ---------------------------------------------------------------

    def _exp(self, h: int) -> int:
        """The code the engine has in hole h."""
        assert self._engine is not None
        e = self._engine.board[h - 1]
        return self._code_of[(e.pair, e.hidden)]

    def _agrees(self) -> bool:
        if self._issues or self._deferred:
            return False
        return all(self._phys[h] == self._exp(h) for h in range(1, HOLES + 1))

    def _board_problems(self) -> list[str]:
        """Why the picture cannot start a game (empty hole, invalid code, a pair twice)."""
        out: list[str] = []
        where: dict[str, list[int]] = {}
        for h in range(1, HOLES + 1):
            code = self._phys[h]
            end = self._ends.get(code)
            if code == EMPTY:
                out.append(f"hole {h} is empty")
            elif end is None:
                out.append(f"hole {h} reads an invalid code")
            else:
                where.setdefault(end.pair_id, []).append(h)
        for holes in where.values():
            if len(holes) > 1:
                out.append(f"holes {_and_join([str(h) for h in holes])} read the same pair")
        return out

    def _on_hole(self, h: int, code: int, out: list[Verdict]) -> None:
        if not 1 <= h <= HOLES:
            return  # a hole the game does not have
        if not self._online:
            self._offline_seen[h] = code  # taken up when the board is back
            return
        if code == self._phys[h]:
            return
        self._phys[h] = code
        self._last_change = self._now
        if self._phase in (_SETUP, _REMIX):
            if code == EMPTY:
                self._remix_pulled = True
            elif code not in self._ends:
                out.append(self._invalid_verdict(h, code))
            return
        if self._phase != _PLAY:
            return
        issue = self._issues.get(h)
        self._deferred.discard(h)
        if code == EMPTY:  # pulled out
            if issue is not None and issue.kind != "own":
                del self._issues[h]
                self._reconcile(out)
            return
        if issue is not None:
            del self._issues[h]
            if issue.kind == "own" and code == self._exp(h):
                out.append(Verdict(OK, f"Hole {h} is right again{self._count_words()}."))
                self._reconcile(out)
                return
        self._evaluate(h, out)
        self._reconcile(out)

    def _count_words(self) -> str:
        eng = self._engine
        if eng is None or eng.current_player() < 0:
            return ""
        return f" ({len(eng.turned)} of {FLIPS_PER_TURN} turned)"

    def _reconcile(self, out: list[Verdict]) -> None:
        """With no correction left, look again at the holes whose flips waited, in order."""
        while self._deferred and not self._issues:
            h = min(self._deferred)
            self._deferred.discard(h)
            if self._phys[h] != EMPTY:
                self._evaluate(h, out)

    def _evaluate(self, h: int, out: list[Verdict]) -> None:
        """Judge what hole h reads now, as if the pair had just been put in."""
        eng = self._engine
        assert eng is not None
        code = self._phys[h]
        home = eng.board[h - 1]
        exp = self._code_of[(home.pair, home.hidden)]
        if code == exp:
            if eng.current_player() >= 0:  # in a turn: put back unturned (M-3)
                self._play(Reinsert(h, h, home.pair, home.hidden), h, out)
            return
        end = self._ends.get(code)
        if end is None or end.pair_id != home.pair:
            if code in self._near[home.pair]:
                self._reading(
                    h,
                    f"Hole {h}: suspect reading, one magnet pole away from the code of the pair "
                    "that belongs there: reseat the pair.",
                    f"Reseat the pair in hole {h} (and check that it is the pair that belongs "
                    "there).",
                    out,
                )
                return
            if end is None:
                self._issues[h] = _Issue("reading", "sensor", f"Reseat the pair in hole {h}.")
                out.append(self._invalid_verdict(h, code))
                return
            others = [
                k
                for k in range(1, HOLES + 1)
                if k != h and (e := self._ends.get(self._phys[k])) and e.pair_id == end.pair_id
            ]
            if others:
                self._reading(
                    h,
                    f"Hole {h} reads the code of the pair in hole {others[0]}, and a pair cannot "
                    f"be in two holes: reseat the pair in hole {h} and check its magnets.",
                    f"Reseat the pair in hole {h}.",
                    out,
                )
                return
            from_hole = next(k for k, e in enumerate(eng.board, start=1) if e.pair == end.pair_id)
            self._play(Reinsert(from_hole, h, end.pair_id, end.hidden), h, out)
            return
        # the hole's own pair, the other end up: a flip
        action = Reinsert(h, h, home.pair, end.hidden)
        if self._issues:
            try:
                eng.check(action)
            except IllegalMoveError as err:
                self._refuse(err, h, "own", out)
                return
            self._deferred.add(h)
            first = min(self._issues)
            issue = self._issues[first]
            out.append(
                Verdict(
                    ILLEGAL,
                    f"First {_lower_first(issue.correction)} Hole {h} is taken into account "
                    "after that.",
                    issue.rule,
                    issue.correction,
                )
            )
            return
        self._play(action, h, out)

    def _reading(self, h: int, text: str, correction: str, out: list[Verdict]) -> None:
        self._issues[h] = _Issue("reading", "sensor", correction)
        out.append(Verdict(BOARD, text, "sensor", correction))

    def _invalid_verdict(self, h: int, code: int) -> Verdict:
        n = magnet_count(code) if 0 <= code <= MAX_CODE else -1
        if 0 <= n < 3:
            why = "fewer than three magnets: the pair is half in, or a magnet is missing or weak"
        elif n > 3:
            why = "more than three magnets: a stray magnet near the hole?"
        else:
            why = "not a code of this set"
        return Verdict(
            BOARD,
            f"Hole {h} reads an invalid code ({why}): reseat the pair or check its magnets.",
            "sensor",
            f"Reseat the pair in hole {h}.",
        )

    # --- engine calls ------------------------------------------------------------------------

    def _play(self, action: Reinsert, h: int, out: list[Verdict]) -> None:
        eng = self._engine
        assert eng is not None
        unturned = action.to_hole == action.from_hole and action.hidden == eng.board[h - 1].hidden
        try:
            text = eng.play(action)
        except IllegalMoveError as err:
            self._refuse(err, h, "own" if action.to_hole == action.from_hole else "foreign", out)
            return
        self._played()
        out.append(Verdict(INFO, text, "M-3") if unturned else Verdict(OK, text))

    def _refuse(self, err: IllegalMoveError, h: int, kind: str, out: list[Verdict]) -> None:
        """The engine refused what hole h shows: say so and record the correction, worded
        for this hole (the engine's own M-1 and M-2 corrections read the same)."""
        fix = self._fix_text(h, kind)
        self._issues[h] = _Issue(kind, err.rule, fix)
        out.append(Verdict(ILLEGAL, err.message, err.rule, fix))

    def _fix_text(self, h: int, kind: str) -> str:
        """What puts hole h back as the engine has it: its own pair turned back, or another
        pair moved back home."""
        eng = self._engine
        assert eng is not None
        if kind == "own":
            up = colour_name(eng.board[h - 1].visible)
            return f"Turn the pair in hole {h} back so that {up} is up again."
        end = self._ends[self._phys[h]]
        k = next(k for k, e in enumerate(eng.board, start=1) if e.pair == end.pair_id)
        return f"Move the pair from hole {h} back into hole {k}."

    def _played(self) -> None:
        """After every successful engine play: note the start of a new turn."""
        self._plays += 1
        eng = self._engine
        assert eng is not None
        if eng.current_player() >= 0 and not eng.turned:
            if not self._checkpoints or self._checkpoints[-1][1] != eng.turn:
                self._checkpoints.append((self._plays, eng.turn))

    # --- the turn's end ----------------------------------------------------------------------

    def _on_button(self, out: list[Verdict]) -> None:
        if self._phase != _PLAY:
            return
        eng = self._engine
        assert eng is not None
        if eng.current_player() >= 0 and self._issues:
            first = min(self._issues)
            issue = self._issues[first]
            out.append(
                Verdict(
                    ILLEGAL,
                    f"First {_lower_first(issue.correction)} The turn can end after that.",
                    issue.rule,
                    issue.correction,
                )
            )
            return
        empty = tuple(h for h in range(1, HOLES + 1) if self._phys[h] == EMPTY)
        self._end_turn(empty, out)

    def _end_turn(self, empty: tuple[int, ...], out: list[Verdict]) -> None:
        eng = self._engine
        assert eng is not None
        seat = eng.current_player()
        won_before = len(eng.won(seat)) if seat >= 0 else 0
        try:
            text = eng.play(EndTurn(empty))
        except IllegalMoveError as err:
            out.append(Verdict(ILLEGAL, err.message, err.rule, err.correction))
            return
        self._played()
        outcome = eng.outcome()
        if seat < 0 or len(eng.won(seat)) == won_before:
            out.append(Verdict(TURN, text))
            return
        card = eng.won(seat)[-1]
        if outcome is None:
            out.append(Verdict(SOLVED, text))
            return
        total = eng.shovels(seat)
        head = (
            f"{eng.players[seat]} solved {card.id} ({card.describe()}): +{card.shovels} "
            f"{_plural(card.shovels, 'shovel')}, {total} in all."
        )
        if text.startswith(head):
            out.append(Verdict(SOLVED, head))
            out.append(Verdict(END, text[len(head) :].strip()))
        else:
            out.append(Verdict(SOLVED, text))
            out.append(Verdict(END, f"The game ends. {self._result_text(outcome)}."))
        self._phase = _OVER
        self._finish(outcome)

    def _result_text(self, out: Outcome) -> str:
        eng = self._engine
        assert eng is not None
        names = [eng.players[w] for w in out.winners]
        best = out.scores[out.winners[0]] if out.winners else 0
        if len(names) == 1:
            return f"{names[0]} is Buddel King with {best} {_plural(best, 'shovel')}"
        return f"{_and_join(names)} share the win with {best} {_plural(best, 'shovel')} each"

    def _finish(self, outcome: Outcome) -> None:
        if self.log is None:
            return
        eng = self._engine
        assert eng is not None
        self.log.finish(
            {
                "game_number": eng.game_number,
                "termination": outcome.termination,
                "winners": [eng.players[w] for w in outcome.winners],
                "scores": {eng.players[i]: s for i, s in enumerate(outcome.scores)},
            },
            self._now,
        )

    # --- cards ---------------------------------------------------------------------------------

    def _on_card(self, uid: str, tag: TagInfo, out: list[Verdict]) -> None:
        if self._phase == _IDLE:
            return
        if not tag.enrolled:
            out.append(
                Verdict(
                    BOARD,
                    f"Tag {uid} is not enrolled: run upref enroll {GAME} to enrol the card.",
                    "tag",
                )
            )
            return
        if tag.game != GAME:
            title = GAME_TITLES.get(str(tag.game), str(tag.game))
            out.append(
                Verdict(
                    BOARD,
                    f"Tag {uid} is enrolled for {title}, not for Up And Down: that is not a "
                    "task card of this game.",
                    "tag",
                )
            )
            return
        if self._phase != _PLAY:
            return
        eng = self._engine
        assert eng is not None
        item = str(tag.item)
        if eng.current_player() == CHANCE:
            seat = eng.deal_action().seat
            try:
                text = eng.play(DrawTask(seat, item))
            except IllegalMoveError as err:
                out.append(Verdict(ILLEGAL, err.message, err.rule, err.correction))
                return
            self._played()
            out.append(Verdict(OK, text))
            return
        out.append(Verdict(INFO, "No task card is to be drawn now."))
        for s in range(eng.num_players()):
            card = eng.task(s)
            if card is not None and card.id == item:
                out.append(
                    Verdict(
                        INFO,
                        f"{eng.players[s]}, your task card is {card.id}: {card.describe()}.",
                        seat=s,
                    )
                )

    # --- board state -------------------------------------------------------------------------

    def _on_online(self, online: bool, out: list[Verdict]) -> None:
        if online == self._online:
            return
        self._online = online
        if not online:
            self._offline_seen.clear()
            out.append(
                Verdict(
                    BOARD,
                    "The board is offline: nothing counts until it is back. Check its USB cable.",
                    "board",
                )
            )
            return
        out.append(Verdict(BOARD, "The board is back online.", "board"))
        self._last_change = self._now  # the settle time starts again
        seen, self._offline_seen = self._offline_seen, {}
        for h in sorted(seen):
            self._on_hole(h, seen[h], out)

    def _on_fault(self, obs: FaultObservation, out: list[Verdict]) -> None:
        advice = _fault_advice(obs.kind, obs.where, obs.text)
        if obs.raised:
            if ":" not in obs.key:
                self._faults[obs.key] = advice
            out.append(Verdict(BOARD, f"Board fault: {advice}.", "board"))
        elif obs.key in self._faults:
            del self._faults[obs.key]
            out.append(Verdict(INFO, f"Board fault cleared: {_fault_place(obs)}.", "board"))

    # --- host inputs -----------------------------------------------------------------------

    def _on_start(self, inp: StartGame, out: list[Verdict]) -> None:
        if self._phase == _PLAY:
            out.append(Verdict(INFO, "A game is on: end it before starting another."))
            return
        try:  # players and variant first, before any board
            UpDownGame.new(
                list(inp.players), rng=inp.seed, variant=inp.variant, catalogue=self.catalogue
            )
        except ValueError as exc:
            out.append(Verdict(INFO, f"Cannot start: {exc}."))
            return
        if inp.holes is not None:
            for h, code in enumerate(inp.holes[:HOLES], start=1):
                self._phys[h] = code
        self._pending = inp
        self._phase = _SETUP
        problems = self._board_problems()
        if not self._online:
            out.append(
                Verdict(BOARD, "The board is offline: the game starts once it is back.", "board")
            )
        elif problems:
            out.append(
                Verdict(
                    BOARD,
                    f"Cannot start yet: {'; '.join(problems)}. The game starts as soon as every "
                    "hole holds its own pair.",
                    "setup",
                    "Put one pair into every hole.",
                )
            )
        else:
            self._begin(out)

    def _begin(self, out: list[Verdict]) -> None:
        board = {}
        for h in range(1, HOLES + 1):
            end = self._ends[self._phys[h]]
            board[h] = (end.pair_id, end.hidden)
        if self._phase == _REMIX:
            assert self._engine is not None
            eng = self._engine.next_game(board)
        else:
            p = self._pending
            assert p is not None
            eng = UpDownGame.new(
                list(p.players), board, rng=p.seed, variant=p.variant, catalogue=self.catalogue
            )
        self._engine = eng
        self._phase = _PLAY
        self._pending = None
        self._stopped = None
        self._issues.clear()
        self._deferred.clear()
        self._plays = 0
        self._checkpoints = []
        self._recent.clear()  # the table's list starts again with the game
        out.append(Verdict(INFO, eng.verdict))

    def _on_end_game(self, out: list[Verdict]) -> None:
        if self._phase in (_SETUP, _REMIX):
            self._phase = _OVER if self._engine is not None else _IDLE
            self._pending = None
            out.append(Verdict(INFO, "Start cancelled."))
            return
        if self._phase != _PLAY:
            out.append(Verdict(INFO, "No game is on."))
            return
        eng = self._engine
        assert eng is not None
        scores = tuple(eng.shovels(s) for s in range(eng.num_players()))
        best = max(scores)
        outcome = Outcome("stopped", tuple(i for i, s in enumerate(scores) if s == best), scores)
        self._stopped = outcome
        self._phase = _OVER
        self._issues.clear()
        self._deferred.clear()
        out.append(Verdict(END, f"Game stopped. {self._result_text(outcome)}."))
        self._finish(outcome)

    def _on_next(self, out: list[Verdict]) -> None:
        if self._phase == _PLAY:
            out.append(Verdict(INFO, "The game is not over: end it before the next one."))
            return
        if self._engine is None:
            out.append(Verdict(INFO, "No game to follow: start one."))
            return
        if self._phase == _REMIX:
            return
        self._phase = _REMIX
        self._remix_pulled = False
        if self.log is not None:
            self.log.reopen()  # the session goes on: a resume picks it up
        self._issues.clear()
        self._deferred.clear()
        out.append(
            Verdict(
                INFO,
                "Next game: take all the pairs out, mix them and put one back into every hole. "
                "The game starts when every hole holds a pair.",
            )
        )

    def _on_undo(self, out: list[Verdict]) -> None:
        eng = self._engine
        if self._phase not in (_PLAY, _OVER) or eng is None or self._stopped is not None:
            out.append(Verdict(INFO, "Nothing to undo."))
            return
        if not self._online:
            out.append(Verdict(BOARD, "The board is offline: undo once it is back.", "board"))
            return
        cps = self._checkpoints
        progressed = eng.turned or eng.current_player() < 0
        if cps and self._plays > cps[-1][0] and progressed:
            target = cps[-1][0]
        elif len(cps) >= 2:
            cps.pop()
            target = cps[-1][0]
        else:
            out.append(Verdict(INFO, "Nothing to undo."))
            return
        n = eng.num_players()
        won_before = [len(eng.won(s)) for s in range(n)]
        stack_before = len(eng.stack)
        was_over = self._phase == _OVER
        while self._plays > target:
            eng.undo()
            self._plays -= 1
        self._phase = _PLAY
        number = eng.game_number
        kept = [r for r in self._recent if r[0] != number or r[1] <= target]
        self._recent.clear()
        self._recent.extend(kept)
        if was_over and self.log is not None:
            self.log.reopen()
        seat = eng.current_player()
        parts = [f"Undone: back to the start of {eng.players[seat]}'s turn."]
        fixes: list[str] = []
        for s in range(n):
            if len(eng.won(s)) < won_before[s]:
                fix = f"{eng.players[s]}: the card you won last is your task card again"
                if len(eng.stack) > stack_before:
                    fix += "; put the card you drew after it back on top of the stack"
                fixes.append(fix + ".")
        self._deferred.clear()
        for h in range(1, HOLES + 1):
            issue = self._issues.get(h)
            if issue is not None and issue.kind == "reading":
                continue
            self._issues.pop(h, None)
            code, exp = self._phys[h], self._exp(h)
            if code in (EMPTY, exp):
                continue
            kind = "own" if self._ends[code].pair_id == eng.board[h - 1].pair else "foreign"
            fix = self._fix_text(h, kind)
            self._issues[h] = _Issue(kind, "undo", fix)
            fixes.append(fix)
        out.append(Verdict(OK, " ".join(parts + fixes), "undo", " ".join(fixes) or None))

    def _on_hint(self, out: list[Verdict]) -> None:
        if not self.hints:
            out.append(Verdict(INFO, "Hints are off."))
            return
        eng = self._engine
        if self._phase != _PLAY or eng is None or eng.current_player() < 0:
            out.append(Verdict(INFO, "No hint now: no turn is on."))
            return
        seat = eng.current_player()
        name = eng.players[seat]
        holes = eng.hint()
        detail = eng.hint_detail()
        if holes is None or detail is None:
            text = f"{name}: no hint for your card."
        elif not holes:
            text = f"Hint for {name}: three pairs are turned; end your turn."
        else:
            which = ("hole " if len(holes) == 1 else "holes ") + _and_join([str(h) for h in holes])
            if detail.solves_now:
                text = f"Hint for {name}: turn {which} to solve your card now."
            else:
                text = (
                    f"Hint for {name}: turn {which}; your card can then be solved in "
                    f"{detail.turns - 1} more {_plural(detail.turns - 1, 'turn')}."
                )
        out.append(Verdict(INFO, text, "hint", seat=seat))

    # --- what the table is waiting for --------------------------------------------------------

    def _waiting_for(self) -> str | None:
        if not self._online:
            return "The board to come back online (check its USB cable)."
        if self._phase == _IDLE:
            return "A game to be started."
        if self._phase == _SETUP:
            problems = self._board_problems()
            if problems:
                return f"Every hole to hold a pair: {'; '.join(problems)}."
            return "The board to settle: the game is about to start."
        if self._phase == _REMIX:
            return "The pairs to be re-mixed: take them out, mix them, put one into every hole."
        eng = self._engine
        assert eng is not None
        if self._phase == _OVER:
            return "The next game (or a new one)."
        if self._issues:
            return self._issues[min(self._issues)].correction
        seat = eng.current_player()
        if seat == CHANCE:
            drawer = eng.players[eng.deal_action().seat]
            return f"{drawer}: draw a task card from the stack and tap it on the reader."
        name = eng.players[seat]
        done = len(eng.turned)
        if done < FLIPS_PER_TURN:
            return f"{name}: turn {FLIPS_PER_TURN - done} more different {_plural(FLIPS_PER_TURN - done, 'pair')} ({done} of {FLIPS_PER_TURN} turned)."
        empty = [h for h in range(1, HOLES + 1) if self._phys[h] == EMPTY]
        if empty:
            which = ("hole " if len(empty) == 1 else "holes ") + _and_join([str(h) for h in empty])
            return f"{name}: put the pair back into {which}."
        return f"{name}: hands off the board, the turn ends in a moment (or press the button)."


# --- helpers ---------------------------------------------------------------------------------


def _fault_place(obs: FaultObservation) -> str:
    if obs.kind == "sensor":
        return f"sensor {obs.where[1:]}"
    if obs.kind == "hole":
        return f"hole {obs.where[1:]}"
    if obs.kind == "rfid":
        return "RFID reader"
    return f"{obs.kind} {obs.where}"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _and_join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"
