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
- the exact code of another pair that is out of its hole (read in no other hole: in hand):
  `Reinsert(home, h, ...)`, which the engine refuses (M-2), even when that code is one magnet
  pole away from an end of the hole's own pair: an exact match with a pair in hand is far
  likelier than a misread pole;
- an invalid code (not three magnets, or not in the table): a BOARD verdict, no action;
- a code one flipped pole away from either end of the hole's own pair that matches no pair in
  hand, or the code of a pair that the board still reads in another hole: a suspect reading
  (BOARD): "reseat the pair", never a wrong-hole ruling.

**Corrections.** When the engine refuses a change (or a reading is bad, or an undo leaves a
pair the wrong way up), the hole gets an outstanding correction (`status().corrections`). A
flip of another pair while a correction is outstanding counts at once, in the order it was
made (ruling M-14: the flip broke no rule); the correction stays due, and the turn cannot end
until it is made. A correction for the hole's own pair (turn it back, put it back) survives the
pair being pulled out, and is met when the hole reads what the engine has there ("Hole N is
right again."); one for another pair or a bad reading ends when that pair leaves the hole, and
the next reading is judged afresh. Card draws are taken even while a correction is outstanding
(they do not depend on the board); the button and the automatic end of a turn are not.

**What the turn owes (M-15).** Those per-hole corrections make the verdicts of the moment; what
the turn still owes is worked out afresh from the table as it is, per pair
(`upref.games.updown.owed`): each pair owes its own hole and its colour, judged from where it
is now (a pair in hand as it was last read), named once. The scoreboard's corrections, what the
table waits for, the molehill table's "to do" and a refused end of turn all read that list; a
correction keeps the rule it was asked under at its hole (an undo's, a card still to draw).

**Turn end.** Once three different pairs are turned, the board agrees with the engine
everywhere (every hole filled, no correction) and no hole's reading has changed for
`settle_s` seconds (measured with input times only), the referee ends the turn. A button press
ends it at once (`EndTurn(empty_holes=...)`), or is refused with every reason the turn cannot
end, in the order of rulings M-14 and M-15: the corrections (in hole order, by the hole each
pair is in), the empty holes that no correction fills (M-4), the flips still missing (M-1,
counting the pairs whose way home is a flip). One reason is said alone; several make one
verdict that numbers them all (`upref.referee.base.all_reasons`).

**Secrets.** Verdicts for the table (`seat=None`) never name a hidden colour, a pair id or an
unsolved task card; a verdict with `seat` set (a hint, the reminder of one's own card) is for
that seat only (see `upref.referee.status`).

Everything that does not depend on the game (the log, tags, the board's health, start, stop,
next game, undo, settings) is `upref.referee.base.Referee`'s; this module fills in its hooks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from upref.board.codes import EMPTY, MAX_CODE, CodeTable, MoleEnd, magnet_count, one_flip_neighbours
from upref.games.base import CHANCE, GameView, IllegalMoveError, ResultWords
from upref.games.updown.actions import DrawTask, EndTurn, Reinsert
from upref.games.updown.cards import Catalogue, TaskCard, colour_name, load_catalogue
from upref.games.updown.engine import CAN_END, FLIPS_PER_TURN, NAME, TITLE, UpDownState
from upref.games.updown.owed import UNREAD, Correction, Owed, Seen, owed
from upref.games.updown.position import HOLES, PairEnd
from upref.games.updown.variant import Variant
from upref.games.updown.view import RESULT, HoleNow, TableView, UpDownView
from upref.games.updown.words import (
    NO_DRAW,
    RESEAT,
    TURN_IT,
    card_solved,
    drew,
    move_back,
    shovels,
    turn_back,
)
from upref.referee.base import (
    OVER,
    PLAY,
    SETUP,
    CatalogueFormat,
    KeyOffer,
    Referee,
    TagLookup,
    all_reasons,
)
from upref.referee.inputs import GameInput, StartGame
from upref.referee.status import (
    BOARD,
    END,
    ILLEGAL,
    INFO,
    OK,
    SOLVED,
    TURN,
    Verdict,
    refusal_words,
    said_reason,
)
from upref.text import (
    Msg,
    Plural,
    and_join,
    join_words,
    lower_first,
    numbers_in_words,
)
from upref.text.words import Concat

__all__ = [
    "Hint",
    "HoleNow",
    "TableView",
    "UpDownReferee",
    "catalogue_from_dict",
    "catalogue_to_dict",
]

_SAID_RULES = {
    "M-1": Msg("A turn needs three different pairs, each turned once."),
    "M-2": Msg("A pair must go back into its own molehill."),
    "M-4": Msg("Every hole must hold its pair before the turn ends."),
}
"""Refusals said in words of their own where the engine's words are not for the ear."""


@dataclass(frozen=True)
class Hint(GameInput):
    """The player to move asks for a hint (only when the referee has hints on)."""

    kind: ClassVar[str] = "hint"
    t: float


@dataclass
class _Issue:
    """An outstanding correction at a hole. `own`: about the hole's own pair (turn it back,
    put it back), kept while the pair is out; `foreign`: another pair sits in the hole;
    `reading`: the hole reads a bad or suspect code."""

    kind: str  # "own" | "foreign" | "reading"
    rule: str
    correction: str


# --- config round trip (the game log stores it so a replay needs nothing else) ---------------


def _reseat(hole: int) -> str:
    """The correction of a hole whose reading names no pair that can be there."""
    return Msg("Reseat the pair in hole {hole}.", hole=hole)


def _holes(holes: list[int]) -> str:
    """'hole 4', 'holes 4 and 7'."""
    which = and_join([str(h) for h in holes])
    return Plural("hole {holes}", "holes {holes}", n=len(holes), holes=which)


def _more_pairs(n: int) -> str:
    """'one more different pair', 'two more different pairs' (for the ear and the eye)."""
    return numbers_in_words(
        Plural("{n} more different pair", "{n} more different pairs", n=n)
    )


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


class UpDownReferee(Referee[UpDownState]):
    """Referees Up And Down from the sensor board (see the module's text).

    :param catalogue: the task cards (default: the packaged catalogue).
    Other parameters: `upref.referee.base.Referee`.
    """

    GAME: ClassVar[str] = NAME
    TITLE: ClassVar[str] = TITLE
    CATALOGUE: ClassVar[CatalogueFormat | None] = CatalogueFormat(
        load=load_catalogue,
        to_dict=catalogue_to_dict,
        from_dict=catalogue_from_dict,
    )
    RESULT: ClassVar[ResultWords] = RESULT
    INPUTS: ClassVar[tuple[type[GameInput], ...]] = (Hint,)

    catalogue: Catalogue

    def __init__(self, codes: CodeTable, tag_book: TagLookup | None = None, **settings: Any) -> None:
        super().__init__(codes, tag_book, **settings)
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
        self._issues: dict[int, _Issue] = {}
        # per pair: the end it hid when a hole last read it (what a pair in hand is judged by)
        self._last_hidden: dict[str, str] = {}
        self._offline_seen: dict[int, int] = {}
        self._last_change = float("-inf")
        self._remix_pulled = False

    # --- read-only ------------------------------------------------------------------------------

    @property
    def picture(self) -> tuple[int, ...]:
        """The codes the referee believes holes 1..10 read."""
        return tuple(self._phys[1:])

    def view(self, seat: int | None = None) -> GameView | None:
        """The engine's view; a `TableView` with the physical molehills when they differ from
        the game's board (see `table_now`)."""
        v = super().view(seat)
        if not isinstance(v, UpDownView):
            return v
        now = self.table_now()
        if now is None:
            return v
        return TableView(**{f.name: getattr(v, f.name) for f in fields(v)}, table=now)

    def table_now(self) -> tuple[HoleNow, ...] | None:
        """Every hole as it physically is and what the table must do there, or None when the
        board agrees with the game's everywhere (nothing to show beyond the game's view)."""
        if not self.has_engine or self.phase == SETUP:
            return None
        todo: dict[int, str] = {}
        for c in self._owed().corrections:
            if c.rule == "M-2":
                todo[c.at] = Msg("to {hole}", hole=c.home)
            elif c.rule == "M-1" and c.at != c.home:
                todo[c.at] += ", " + TURN_IT  # it must come home with its other colour up
            else:
                todo.setdefault(c.at, TURN_IT if c.rule == "M-1" else RESEAT)
        holes = []
        differs = False
        for h in range(1, HOLES + 1):
            code = self._phys[h]
            end = self._ends.get(code)
            up = "out" if code == EMPTY else colour_name(end.visible) if end else "?"
            differs = differs or code != self._exp(h) or h in todo
            holes.append(HoleNow(h, up, todo.get(h, "")))
        return tuple(holes) if differs else None

    def wants_time(self) -> bool:
        if self.phase != PLAY or not self.has_engine:
            return False
        eng = self.engine
        return eng.current_player() >= 0 and len(eng.turned) >= FLIPS_PER_TURN

    def game_keys(self) -> tuple[KeyOffer, ...]:
        if self.hints and self.phase == PLAY and self.has_engine and self.engine.current_player() >= 0:
            return (KeyOffer("h", Msg("a hint for the player to move"), lambda t, _a: Hint(t)),)
        return ()

    def corrections(self) -> tuple[str, ...]:
        """The corrections the turn owes, in the order a refused end of turn names them."""
        if not self.has_engine or self.phase != PLAY:
            return tuple(self._issues[h].correction for h in sorted(self._issues))
        return tuple(self._fix_words(c) for c in self._owed().corrections)

    def piece_name(self) -> str:
        return Msg("task card")

    # --- the game's life --------------------------------------------------------------------

    def start_setup(self) -> dict[str, Any]:
        return {"holes": self.picture}

    def check_start(self, start: StartGame) -> None:
        # players and variant only: the board is checked once the table is ready
        UpDownState.new(
            list(start.players),
            rng=start.seed,
            variant=Variant.from_dict(start.variant_data),
            catalogue=self.catalogue,
        )

    def make_engine(self, start: StartGame) -> UpDownState:
        return UpDownState.new(
            list(start.players),
            self._board(),
            rng=start.seed,
            variant=Variant.from_dict(start.variant_data),
            catalogue=self.catalogue,
        )

    def next_engine(self, engine: UpDownState) -> UpDownState:
        return engine.next_game(self._board())

    def _board(self) -> dict[int, tuple[str, str]]:
        board = {}
        for h in range(1, HOLES + 1):
            end = self._ends[self._phys[h]]
            board[h] = (end.pair_id, end.hidden)
        return board

    def prepare(self, start: StartGame, out: list[Verdict]) -> None:
        holes = (start.setup or {}).get("holes")
        if holes is not None:
            for h, code in enumerate(list(holes)[:HOLES], start=1):
                self._phys[h] = int(code)
        problems = self._board_problems()
        if not self.online:
            out.append(
                Verdict(BOARD, Msg("The board is offline: the game starts once it is back."), "board")
            )
        elif problems:
            out.append(
                Verdict(
                    BOARD,
                    Msg(
                        "Cannot start yet: {problems}. The game starts as soon as every "
                        "hole holds its own pair.",
                        problems=join_words("; ", problems),
                    ),
                    "setup",
                    Msg("Put one pair into every hole."),
                )
            )
        else:
            self.begin(out)

    def prepare_next(self, out: list[Verdict]) -> None:
        self._remix_pulled = False
        self._issues.clear()
        out.append(
            Verdict(
                INFO,
                Msg(
                    "Next game: take all the pairs out, mix them and put one back into every "
                    "hole. The game starts when every hole holds a pair."
                ),
            )
        )

    def on_begin(self) -> None:
        self._issues.clear()

    def on_stop(self) -> None:
        self._issues.clear()

    def scores_now(self) -> tuple[int, ...]:
        eng = self.engine
        return tuple(eng.shovels(s) for s in range(eng.num_players()))

    def turn_words(self, seat: int) -> str | None:
        return numbers_in_words(
            Msg(
                "{name}, your turn: turn {n} different pairs.",
                name=self.engine.players[seat],
                n=FLIPS_PER_TURN,
            )
        )

    def _said_refusal(
        self, reason: str, correction: str | None, who: str | None = None, rule: str | None = None
    ) -> str:
        """A refusal for the ear, to `who` (default: the player whose turn it is)."""
        seat = self.engine.current_player()
        if who is None and seat >= 0:
            who = self.engine.players[seat]
        fix = numbers_in_words(correction) if correction else None
        return refusal_words(who, numbers_in_words(said_reason(reason, rule, _SAID_RULES)), fix)

    # --- time ------------------------------------------------------------------------------

    def _settled(self) -> bool:
        return self.now - self._last_change >= self.settle_s

    def on_time(self, out: list[Verdict]) -> None:
        if self.phase == PLAY:
            eng = self.engine
            if (
                self._settled()
                and len(eng.turned) == FLIPS_PER_TURN
                and eng.current_player() >= 0
                and self._agrees()
            ):
                self._end_turn((), out)

    def ready_at(self) -> float | None:
        """The table is ready for the game asked for once every hole holds a pair of its own
        (after `n`: once the pairs were taken out to be re-mixed, at least one) and no hole has
        changed for `settle_s`; the base then begins it, a tick of time passing being enough."""
        if not (self.start_pending or self._remix_pulled) or self._board_problems():
            return None
        return self._last_change + self.settle_s

    # --- the board's health ----------------------------------------------------------------

    def on_offline(self) -> None:
        self._offline_seen.clear()

    def on_online_again(self, out: list[Verdict]) -> None:
        self._last_change = self.now  # the settle time starts again
        seen, self._offline_seen = self._offline_seen, {}
        for h in sorted(seen):
            self.on_hole(h, seen[h], out)

    # --- the physical picture ---------------------------------------------------------------

    def _exp(self, h: int) -> int:
        """The code the engine has in hole h."""
        eng = self.engine
        e = eng.board[h - 1]
        return self._code_of[(e.pair, e.hidden)]

    def _agrees(self) -> bool:
        if self._issues:
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
                out.append(Msg("hole {hole} is empty", hole=h))
            elif end is None:
                out.append(Msg("hole {hole} reads an invalid code", hole=h))
            else:
                where.setdefault(end.pair_id, []).append(h)
        for holes in where.values():
            if len(holes) > 1:
                out.append(Msg("holes {holes} read the same pair", holes=and_join([str(h) for h in holes])))
        return out

    def on_hole(self, h: int, code: int, out: list[Verdict]) -> None:
        if not 1 <= h <= HOLES:
            return  # a hole the game does not have
        if not self.online:
            self._offline_seen[h] = code  # taken up when the board is back
            return
        if code == self._phys[h]:
            return
        left, was = self._ends.get(self._phys[h]), self._issues.get(h)
        if left is not None and (was is None or was.kind != "reading"):
            self._last_hidden[left.pair_id] = left.hidden
        self._phys[h] = code
        self._last_change = self.now
        if self.phase == SETUP:
            if code == EMPTY:
                self._remix_pulled = True
            elif code not in self._ends:
                out.append(self._invalid_verdict(h, code))
            return
        if self.phase != PLAY:
            return
        issue = self._issues.get(h)
        if code == EMPTY:  # pulled out
            if issue is not None and issue.kind != "own":
                del self._issues[h]
            return
        if issue is not None:
            del self._issues[h]
            if issue.kind == "own" and code == self._exp(h):
                out.append(Verdict(OK, self._right_again(h)))
                return
        self._evaluate(h, out)

    def _right_again(self, h: int) -> str:
        """'Hole 4 is right again (2 of 3 turned).' (no count between turns)."""
        if not self.has_engine or self.engine.current_player() < 0:
            return Msg("Hole {hole} is right again.", hole=h)
        n = len(self.engine.turned)
        return Msg("Hole {hole} is right again ({n} of {of} turned).", hole=h, n=n, of=FLIPS_PER_TURN)

    def _evaluate(self, h: int, out: list[Verdict]) -> None:
        """Judge what hole h reads now, as if the pair had just been put in."""
        eng = self.engine
        code = self._phys[h]
        home = eng.board[h - 1]
        exp = self._code_of[(home.pair, home.hidden)]
        if code == exp:
            if eng.current_player() >= 0:  # in a turn: put back unturned (M-3)
                self._play(Reinsert(h, h, home.pair, home.hidden), h, out)
            return
        end = self._ends.get(code)
        if end is not None and end.pair_id != home.pair:
            others = [
                k
                for k in range(1, HOLES + 1)
                if k != h and (e := self._ends.get(self._phys[k])) and e.pair_id == end.pair_id
            ]
            if not others:
                # the exact code of a pair that is out of its hole (in hand): it went into the
                # wrong molehill (M-2), far likelier than a misread pole of the hole's own pair
                from_hole = next(
                    k for k, e in enumerate(eng.board, start=1) if e.pair == end.pair_id
                )
                self._play(Reinsert(from_hole, h, end.pair_id, end.hidden), h, out)
                return
            if code in self._near[home.pair]:
                self._suspect(h, out)
                return
            self._reading(
                h,
                Msg(
                    "Hole {hole} reads the code of the pair in hole {other}, and a pair cannot "
                    "be in two holes: reseat the pair in hole {hole} and check its magnets.",
                    hole=h,
                    other=others[0],
                ),
                _reseat(h),
                out,
            )
            return
        if end is None:
            if code in self._near[home.pair]:
                self._suspect(h, out)
                return
            self._issues[h] = _Issue("reading", "sensor", _reseat(h))
            out.append(self._invalid_verdict(h, code))
            return
        # the hole's own pair, the other end up: a flip, which counts even while a correction
        # elsewhere is due (M-14)
        self._play(Reinsert(h, h, home.pair, end.hidden), h, out)

    def _suspect(self, h: int, out: list[Verdict]) -> None:
        self._reading(
            h,
            Msg(
                "Hole {hole}: suspect reading, one magnet pole away from the code of the pair "
                "that belongs there: reseat the pair.",
                hole=h,
            ),
            Msg(
                "Reseat the pair in hole {hole} (and check that it is the pair that belongs there).",
                hole=h,
            ),
            out,
        )

    def _reading(self, h: int, text: str, correction: str, out: list[Verdict]) -> None:
        self._issues[h] = _Issue("reading", "sensor", correction)
        out.append(
            Verdict(
                BOARD,
                text,
                "sensor",
                correction,
                spoken=numbers_in_words(Msg("Hole {hole} reads oddly: reseat its pair.", hole=h)),
            )
        )

    def _invalid_verdict(self, h: int, code: int) -> Verdict:
        n = magnet_count(code) if 0 <= code <= MAX_CODE else -1
        if 0 <= n < 3:
            why = Msg(
                "fewer than three magnets: the pair is half in, or a magnet is missing or weak"
            )
        elif n > 3:
            why = Msg("more than three magnets: a stray magnet near the hole?")
        else:
            why = Msg("not a code of this set")
        return Verdict(
            BOARD,
            Msg(
                "Hole {hole} reads an invalid code ({why}): reseat the pair or check its magnets.",
                hole=h,
                why=why,
            ),
            "sensor",
            _reseat(h),
            spoken=numbers_in_words(Msg("Hole {hole} reads no pair I know: reseat the pair.", hole=h)),
        )

    # --- engine calls ------------------------------------------------------------------------

    def _play(self, action: Reinsert, h: int, out: list[Verdict]) -> None:
        eng = self.engine
        unturned = action.to_hole == action.from_hole and action.hidden == eng.board[h - 1].hidden
        try:
            text = eng.play(action)
        except IllegalMoveError as err:
            self._refuse(err, h, "own" if action.to_hole == action.from_hole else "foreign", out)
            return
        self.note_play()
        if unturned:
            said = numbers_in_words(
                Msg("Hole {hole} was put back without turning: it does not count.", hole=h)
            )
            out.append(Verdict(INFO, text, "M-3", spoken=said))
            return
        said = numbers_in_words(
            Msg(
                "Hole {hole} is turned: {n} of {of}.",
                hole=h,
                n=len(self.engine.turned),
                of=FLIPS_PER_TURN,
            )
        )
        out.append(Verdict(OK, self._still_due(text), spoken=said))

    def _still_due(self, text: str) -> str:
        """A flip's words, where the engine says the turn can end while a correction is still
        due (M-14): the turn can end once those holes are put right."""
        holes = sorted({c.at for c in self._owed().corrections})
        if not holes or not isinstance(text, Concat) or text.parts[-1] is not CAN_END:
            return text
        once = Plural(
            "Three different pairs turned: the turn can end once hole {holes} is put right.",
            "Three different pairs turned: the turn can end once holes {holes} are put right.",
            n=len(holes),
            holes=and_join([str(h) for h in holes]),
        )
        return join_words("", (*text.parts[:-1], once))

    def _refuse(self, err: IllegalMoveError, h: int, kind: str, out: list[Verdict]) -> None:
        """The engine refused what hole h shows: say so and record the correction, worded
        for this hole (the engine's own M-1 and M-2 corrections read the same)."""
        fix = self._fix_text(h, kind)
        self._issues[h] = _Issue(kind, err.rule, fix)
        out.append(
            Verdict(
                ILLEGAL,
                err.message,
                err.rule,
                fix,
                spoken=self._said_refusal(err.message, fix, rule=err.rule),
            )
        )

    def _illegal(self, err: IllegalMoveError, who: str | None = None) -> Verdict:
        """The engine's refusal as a verdict, with its form for the ear."""
        said = self._said_refusal(err.message, err.correction, who, err.rule)
        return Verdict(ILLEGAL, err.message, err.rule, err.correction, spoken=said)

    def _fix_text(self, h: int, kind: str) -> str:
        """What puts hole h back as the engine has it: its own pair turned back, or another
        pair moved back home."""
        eng = self.engine
        if kind == "own":
            up = colour_name(eng.board[h - 1].visible)
            return turn_back(h, up)
        end = self._ends[self._phys[h]]
        k = next(k for k, e in enumerate(eng.board, start=1) if e.pair == end.pair_id)
        return move_back(h, k)

    # --- the turn's end ----------------------------------------------------------------------

    def on_button(self, out: list[Verdict]) -> None:
        if self.phase == SETUP:
            out.append(self._not_begun(Msg("the button ends no turn"), Msg("Press it in a turn")))
            return
        if self.phase != PLAY:
            return
        eng = self.engine
        empty = tuple(h for h in range(1, HOLES + 1) if self._phys[h] == EMPTY)
        if eng.current_player() < 0:
            self._end_turn(empty, out)  # the engine says a card is to be drawn first
            return
        due = self._owed()
        reasons = self._why_the_turn_cannot_end(due)
        if not reasons:
            self._end_turn(empty, out)
        elif len(reasons) == 1 and due.corrections:
            fix = reasons[0].correction or ""
            out.append(
                Verdict(
                    ILLEGAL,
                    Msg("First {fix} The turn can end after that.", fix=lower_first(fix)),
                    reasons[0].rule,
                    fix,
                    spoken=self._said_refusal(
                        Msg("The turn cannot end yet."),
                        Msg("First {fix} Then it can.", fix=lower_first(fix)),
                    ),
                )
            )
        else:
            out.append(all_reasons(Msg("The turn cannot end yet"), reasons))

    def _owed(self) -> Owed:
        """What the turn owes now (`upref.games.updown.owed`, rulings M-14 and M-15), from the
        table as the board reads it: a hole whose reading is bad (or names a pair another
        hole reads) holds no pair that can be counted on; a pair in no hole is judged as it
        was last read."""
        eng = self.engine
        table: list[Seen] = []
        placed: set[str] = set()
        for h in range(1, HOLES + 1):
            code = self._phys[h]
            end = self._ends.get(code)
            issue = self._issues.get(h)
            if code == EMPTY:
                table.append(None)
            elif end is None or end.pair_id in placed or (issue and issue.kind == "reading"):
                table.append(UNREAD)
            else:
                placed.add(end.pair_id)
                table.append(PairEnd(end.pair_id, end.hidden))
        return owed(eng.board, eng.turned, table, self._last_hidden)

    def _fix_words(self, c: Correction) -> str:
        """A correction in words: the pair that belongs in a hole is named by that hole, and
        a colour only as the one the game has up there."""
        if c.rule == "M-2":
            return move_back(c.at, c.home)
        if c.rule == "M-1":
            return turn_back(c.home, colour_name(c.colour))
        issue = self._issues.get(c.at)
        return issue.correction if issue is not None else _reseat(c.at)

    def _why_the_turn_cannot_end(self, due: Owed) -> list[Verdict]:
        """Every reason the turn cannot end now, each named once, in this order
        (docs/games/updown.md): the corrections in hole order, then the empty holes no
        correction fills (M-4), then the flips still missing (M-1), the order in which the
        table can put them right. A correction keeps the rule it was asked under at its hole
        (an undo's, a card still to draw) when it is that very correction."""
        reasons = []
        for c in due.corrections:
            fix = self._fix_words(c)
            issue = self._issues.get(c.at)
            rule = issue.rule if issue is not None and issue.correction == fix else c.rule
            reasons.append(Verdict(ILLEGAL, fix, rule, fix, spoken=numbers_in_words(fix)))
        checks = ([EndTurn(due.empty)] if due.empty else []) + ([EndTurn()] if due.missing else [])
        for end in checks:
            try:
                self.engine.check(end)
            except IllegalMoveError as err:
                if err.rule == ("M-4" if end.empty_holes else "M-1"):
                    text, fix = err.message, err.correction
                    if not end.empty_holes and due.coming:
                        text, fix = self._coming_words(due)
                    said = numbers_in_words(join_words(" ", [t for t in (text, fix) if t]))
                    reasons.append(Verdict(ILLEGAL, text, err.rule, fix, spoken=said))
        return reasons

    def _coming_words(self, due: Owed) -> tuple[str, str]:
        """The flips still missing when pairs coming home count as flips too (M-15: each
        flip is named once, and following the list never makes a fourth): the reason and its
        correction."""
        n, c = due.turned, len(due.coming)
        more = _more_pairs(due.missing)
        head = (
            Msg("No pair turned yet")
            if n == 0
            else Msg("Only {n} of {of} pairs turned", n=n, of=FLIPS_PER_TURN)
        )
        text = Plural(
            "{head}, {sum} of {of} once the pair for hole {holes} is home the way it is now: "
            "turn {more}.",
            "{head}, {sum} of {of} once the pairs for holes {holes} are home the way they are "
            "now: turn {more}.",
            n=c,
            head=head,
            sum=n + c,
            of=FLIPS_PER_TURN,
            holes=and_join([str(h) for h in due.coming]),
            more=more,
        )
        return text, Msg("Turn {more}.", more=more)

    def _end_turn(self, empty: tuple[int, ...], out: list[Verdict]) -> None:
        eng = self.engine
        seat = eng.current_player()
        won_before = len(eng.won(seat)) if seat >= 0 else 0
        try:
            text = eng.play(EndTurn(empty))
        except IllegalMoveError as err:
            out.append(self._illegal(err))
            return
        self.note_play()
        outcome = eng.outcome()
        if seat < 0 or len(eng.won(seat)) == won_before:
            out.append(Verdict(TURN, text))
            return
        card = eng.won(seat)[-1]
        total = eng.shovels(seat)
        solved = Msg(
            "{name} solved the task card {what}: {shovels} in all.",
            name=eng.players[seat],
            what=numbers_in_words(card.describe()),
            shovels=numbers_in_words(shovels(total)),
        )
        if outcome is None:
            said = Msg("{solved} Draw a new task card.", solved=solved)
            out.append(Verdict(SOLVED, text, spoken=said))
            return
        head = card_solved(eng.players[seat], card, total)
        said_end = self.over_words(outcome)
        if isinstance(text, Concat) and text.parts[0] == head:
            out.append(Verdict(SOLVED, head, spoken=solved))
            out.append(Verdict(END, join_words("", text.parts[2:]), spoken=said_end))
        else:
            out.append(Verdict(SOLVED, text, spoken=solved))
            result = Msg("The game ends. {result}.", result=self.result_text(outcome))
            out.append(Verdict(END, result, spoken=said_end))
        self.note_game_over(outcome)

    # --- cards ---------------------------------------------------------------------------------

    def on_tap(self, item: str, uid: str, out: list[Verdict]) -> None:
        if self.phase == SETUP:
            out.append(
                self._not_begun(
                    Msg("the task card on the reader does not count"), Msg("Draw your task card")
                )
            )
            return
        if self.phase != PLAY:
            return
        eng = self.engine
        if eng.current_player() == CHANCE:
            seat = eng.deal_action().seat
            try:
                text = eng.play(DrawTask(seat, item))
            except IllegalMoveError as err:
                out.append(self._illegal(err, eng.players[seat]))
                return
            self.note_play()
            out.append(Verdict(OK, text, spoken=drew(eng.players[seat])))
            return
        out.append(Verdict(INFO, NO_DRAW))
        for s in range(eng.num_players()):
            card = eng.task(s)
            if card is not None and card.id == item:
                out.append(
                    Verdict(
                        INFO,
                        Msg(
                            "{name}, your task card is {card}: {what}.",
                            name=eng.players[s],
                            card=card.id,
                            what=card.describe(),
                        ),
                        seat=s,
                    )
                )

    def _not_begun(self, what: str, then: str) -> Verdict:
        """A tap or the button while the game asked for is being set up: not judged against a
        game nobody has been told of (the pairs moved meanwhile are the set-up itself)."""
        which = Msg("The game")
        if self.has_engine and not self.start_pending:
            which = Msg("Game {number}", number=self.engine.game_number + 1)
        return Verdict(
            INFO,
            Msg(
                "{which} has not begun yet, so {what}: it begins once every hole holds a pair and "
                "the board has been still for a moment. {then} once it is announced.",
                which=which,
                what=what,
                then=then,
            ),
            "setup",
            spoken=Msg("{which} has not begun yet: wait until it is announced.", which=which),
        )

    # --- undo --------------------------------------------------------------------------------

    def turn_start(self) -> int | None:
        eng = self.engine
        if eng.current_player() >= 0 and not eng.turned:
            return eng.turn
        return None

    def turn_in_progress(self) -> bool:
        eng = self.engine
        return bool(eng.turned) or eng.current_player() < 0

    def before_undo(self) -> tuple[list[int], int]:
        eng = self.engine
        return [len(eng.won(s)) for s in range(eng.num_players())], len(eng.stack)

    def after_undo(self, before: Any) -> list[str]:
        eng = self.engine
        won_before, stack_before = before
        fixes: list[str] = []
        for s in range(eng.num_players()):
            if len(eng.won(s)) < won_before[s]:
                name = eng.players[s]
                if len(eng.stack) > stack_before:
                    fix = Msg(
                        "{name}: the card you won last is your task card again; put the card you "
                        "drew after it back on top of the stack.",
                        name=name,
                    )
                else:
                    fix = Msg("{name}: the card you won last is your task card again.", name=name)
                fixes.append(fix)
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
        return fixes

    # --- hints --------------------------------------------------------------------------------

    def on_input(self, inp: GameInput, out: list[Verdict]) -> None:
        match inp:
            case Hint():
                self._on_hint(inp, out)

    def _on_hint(self, _inp: Hint, out: list[Verdict]) -> None:
        if not self.hints:
            out.append(Verdict(INFO, Msg("Hints are off.")))
            return
        if self.phase != PLAY or not self.has_engine or self.engine.current_player() < 0:
            out.append(Verdict(INFO, Msg("No hint now: no turn is on.")))
            return
        eng = self.engine
        seat = eng.current_player()
        name = eng.players[seat]
        holes = eng.hint()
        detail = eng.hint_detail()
        if holes is None or detail is None:
            text = Msg("{name}: no hint for your card.", name=name)
        elif not holes:
            text = Msg("Hint for {name}: three pairs are turned; end your turn.", name=name)
        elif detail.solves_now:
            text = Msg(
                "Hint for {name}: turn {which} to solve your card now.",
                name=name,
                which=_holes(list(holes)),
            )
        else:
            text = Plural(
                "Hint for {name}: turn {which}; your card can then be solved in {n} more turn.",
                "Hint for {name}: turn {which}; your card can then be solved in {n} more turns.",
                n=detail.turns - 1,
                name=name,
                which=_holes(list(holes)),
            )
        out.append(Verdict(INFO, text, "hint", seat=seat))

    # --- what the table is waiting for --------------------------------------------------------

    def waiting_for_game(self) -> str | None:
        if self.phase == SETUP:
            if not (self.start_pending or self._remix_pulled):
                return Msg(
                    "The pairs to be re-mixed: take them out, mix them, put one into every hole."
                )
            problems = self._board_problems()
            if problems:
                return Msg("Every hole to hold a pair: {problems}.", problems=join_words("; ", problems))
            return Msg("The board to settle: the game is about to start.")
        eng = self.engine
        if self.phase == OVER:
            return Msg("The next game (or a new one).")
        fixes = self.corrections()
        if fixes:
            return fixes[0]
        seat = eng.current_player()
        if seat == CHANCE:
            drawer = eng.players[eng.deal_action().seat]
            return Msg("{name}: draw a task card from the stack and tap it on the reader.", name=drawer)
        name = eng.players[seat]
        done = len(eng.turned)
        if done < FLIPS_PER_TURN:
            return Plural(
                "{name}: turn {n} more different pair ({done} of {of} turned).",
                "{name}: turn {n} more different pairs ({done} of {of} turned).",
                n=FLIPS_PER_TURN - done,
                name=name,
                done=done,
                of=FLIPS_PER_TURN,
            )
        empty = [h for h in range(1, HOLES + 1) if self._phys[h] == EMPTY]
        if empty:
            return Msg("{name}: put the pair back into {which}.", name=name, which=_holes(empty))
        return Msg(
            "{name}: hands off the board, the turn ends in a moment (or press the button).",
            name=name,
        )
