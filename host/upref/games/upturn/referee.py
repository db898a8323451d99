"""The Upturn referee: tiles tapped on the reader, keys at the host and the board's button in;
engine actions, verdicts and board feedback out.

**What the table does.** Every tile laid on the line is tapped as it goes down (a Twin's run
tiles in the order laid, a Joker's extra tile too); the Starting tile is tapped when it is
turned up (an action tile is refused and goes back, T-1). What no sensor sees is a key: `d`
draw (its prompt asks whether the player keeps all tiles, the default, or lays one now, T-4),
`p` pass (keep all tiles after a draw, no extra tile after a Joker, or pass on an empty pool),
`g` give tiles after a Twin run or a Penalty tile (its prompt offers all of them to the next
player in the current direction; Enter accepts; a gift larger than the pool holds is given as far
as the pool goes, and the verdict says how many went, T-19). The button is the "one tile left" call,
kept in order with the taps (T-13).

**Who laid a tile.** The reader does not say who tapped. The tile belongs to the player to
move; after a Twin or a Penalty tile, a tile that cannot be the player's own (not a run tile)
is the next player's, and the open gift is closed as none given (the verdict says so: press
`g` first to give). After a draw or a Joker the next tile is the same player's, so keeping all
tiles or laying no extra tile is a key (`p`).

**Bookkeeping.** The referee never sees a rack: it counts each one (dealt, -1 per tile laid,
+1 per draw, plus gifts and penalties) and the pool, and says so when a count and what is laid
cannot both be true (an action tile as the last tile by the count; a tile laid by a player
whose rack is empty by the count; a draw from a pool that is empty by the count). A tile tapped
that is already on the line is refused by name. Counts are public, racks are never shown.

Everything that does not depend on the game (the log, tags, the board's health, start, stop,
next game, undo, settings) is `upref.referee.base.Referee`'s; this module fills in its hooks.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from upref.board.codes import CodeTable
from upref.games.base import IllegalMoveError, ResultWords
from upref.games.upturn.actions import Action, Call, Draw, Gift, Lay, Pass, Start
from upref.games.upturn.engine import NAME, TITLE, Termination, UpturnState
from upref.games.upturn.position import DRAWN, GIFT, JOKER, START, TURN, TWIN
from upref.games.upturn.tiles import Catalogue, load_catalogue, parse_catalogue
from upref.games.upturn.variant import Variant
from upref.games.upturn.view import RESULT
from upref.referee.base import OVER, PLAY, CatalogueFormat, KeyOffer, Referee, TagLookup
from upref.referee.inputs import Key, StartGame
from upref.referee.status import BOARD, END, ILLEGAL, INFO, OK, Verdict, refusal_words, said_reason
from upref.referee.status import TURN as TURN_VERDICT
from upref.text import Msg, Plural, and_join, join_words, numbers_in_words

__all__ = ["UpturnReferee", "parse_gift"]

_KINDS = {"step": OK, "turn": TURN_VERDICT, "penalty": OK, "call": OK, "end": END}
_NONE = ("none", "no", "nobody", "nothing", "0", "-")


def _count_hint(name: str) -> str:
    """What a T-9 refusal adds: the count may be wrong."""
    return Msg(
        "If {name} holds more tiles than that, a draw, a gift or a penalty was not entered: undo "
        "(u) and enter it.",
        name=name,
    )


def _tiles(n: int) -> str:
    """'1 tile', '3 tiles'."""
    return Plural("{n} tile", "{n} tiles", n=n)


def _said_tiles(n: int) -> str:
    """'one tile', 'three tiles', 'no tiles': a count for the ear."""
    if n == 0:
        return Msg("no tiles")
    return Msg("one tile") if n == 1 else numbers_in_words(_tiles(n))


_SAID_RULES = {"line": Msg("that tile is already on the line: a tile is laid only once")}
"""Refusals said in words of their own where the engine's words are not for the ear."""


def _did(action: Action, who: str, eng: UpturnState, drew: bool = False) -> str:
    """What `who` did, for the ear."""
    if isinstance(action, Lay | Start):
        tile = eng.catalogue.get(action.tile)
        what = tile.words() if tile is not None else Msg("a tile")
        if isinstance(action, Start):
            return numbers_in_words(Msg("The starting tile is {tile}.", tile=what))
        return numbers_in_words(Msg("{name} lays {tile}.", name=who, tile=what))
    if isinstance(action, Draw):
        return Msg("{name} draws a tile.", name=who)
    if isinstance(action, Pass):
        if drew:
            return Msg("{name} keeps all tiles.", name=who)
        return Msg("{name} lays no more tiles.", name=who)
    if isinstance(action, Gift):
        gifts = [
            Msg("{tiles} to {name}", tiles=_said_tiles(k), name=eng.players[seat])
            for seat, k in action.split
            if k
        ]
        if gifts:
            return Msg("{name} gives {gifts}.", name=who, gifts=and_join(gifts))
        return Msg("{giver} gives no tiles", giver=who) + "."
    return Msg("{name} calls one tile left.", name=who)


def parse_gift(
    text: str | None, names: tuple[str, ...], most: int, default: int
) -> tuple[tuple[int, int], ...]:
    """A gift's recipients from what was typed: 'Bob 2, Cy 1', 'Bob' (all `most` tiles), 'none'
    or nothing (all `most` to seat `default`). Names may be shortened while they stay unique.

    :raises ValueError: naming what cannot be read.
    """
    answer = (text or "").strip()
    if not answer:
        return ((default, most),) if most else ()
    if answer.lower() in _NONE:
        return ()
    parts = [p.strip() for p in re.split(r",|;|\band\b|\+", answer) if p.strip()]
    split: dict[int, int] = {}
    for part in parts:
        words = part.split()
        k: int | None = None
        if words and words[-1].isdigit():
            k = int(words.pop())
        elif words and words[0].isdigit():
            k = int(words.pop(0))
        who = " ".join(words).lower()
        if not who:
            raise ValueError(Msg("{part!r} names no player", part=part))
        seats = [i for i, n in enumerate(names) if n.lower() == who]
        if not seats:
            seats = [i for i, n in enumerate(names) if n.lower().startswith(who)]
        if len(seats) != 1:
            known = and_join(list(names))
            said = " ".join(words)
            if not seats:
                raise ValueError(Msg("{said!r} is no player (the players are {known})", said=said, known=known))
            raise ValueError(
                Msg("{said!r} is more than one player (the players are {known})", said=said, known=known)
            )
        if k is None:
            if len(parts) > 1:
                raise ValueError(
                    Msg("say how many tiles {name} gets, like 'Bob 2, Cy 1'", name=names[seats[0]])
                )
            k = most
        if k < 1:
            raise ValueError(Msg("give {name} at least one tile, or none at all", name=names[seats[0]]))
        split[seats[0]] = split.get(seats[0], 0) + k
    # a gift to oneself is left to the engine, which refuses it with its own words (T-11)
    return tuple(sorted(split.items()))


class UpturnReferee(Referee[UpturnState]):
    """Referees Upturn from the tiles' tags, the host's keys and the board's button (see the
    module's text).

    :param catalogue: the tiles (default: the packaged catalogue).
    Other parameters: `upref.referee.base.Referee`.
    """

    GAME: ClassVar[str] = NAME
    TITLE: ClassVar[str] = TITLE
    CATALOGUE: ClassVar[CatalogueFormat | None] = CatalogueFormat(
        load=load_catalogue,
        to_dict=Catalogue.to_dict,
        from_dict=lambda d: parse_catalogue(d, source=str(d.get("source", "game log"))),
    )
    FEWEST_WIN: ClassVar[bool] = True
    RESULT: ClassVar[ResultWords] = RESULT

    catalogue: Catalogue

    def __init__(self, codes: CodeTable, tag_book: TagLookup | None = None, **settings: Any) -> None:
        super().__init__(codes, tag_book, **settings)
        self._fix: str | None = None  # the last refusal's (or undo's) correction, until play goes on

    # --- read-only ----------------------------------------------------------------------------

    def piece_name(self) -> str:
        return Msg("tile")

    def corrections(self) -> tuple[str, ...]:
        return (self._fix,) if self._fix else ()

    def game_keys(self) -> tuple[KeyOffer, ...]:
        if self.phase != PLAY or not self.has_engine or self.engine.is_terminal():
            return ()
        eng = self.engine
        ph = eng.phase
        name = eng.players[eng.current_player()]
        if ph == TURN:
            if eng.pool_count:
                return (
                    KeyOffer(
                        "d",
                        Msg("draw a tile"),
                        lambda t, a: Key("draw", t, a),
                        prompt=Msg(
                            "{name} draws a tile: keep all tiles (the turn ends), or lay one tile "
                            "now? (keep / lay)",
                            name=name,
                        ),
                        default="keep",
                    ),
                )
            return (KeyOffer("p", Msg("pass (the pool is empty)"), lambda t, _a: Key("pass", t)),)
        if ph == DRAWN:
            keep = Msg("keep all tiles (the turn ends)")
            return (KeyOffer("p", keep, lambda t, _a: Key("pass", t)),)
        if ph == JOKER:
            none = Msg("no extra tile after the Joker")
            return (KeyOffer("p", none, lambda t, _a: Key("pass", t)),)
        if ph in (TWIN, GIFT):
            k = eng.gifts
            if not k:  # a Twin run with the pool empty
                return (
                    KeyOffer(
                        "g",
                        Msg("end the Twin run (the pool is empty: no gift)"),
                        lambda t, _a: Key("gift", t, "none"),
                    ),
                )
            nxt = eng.players[eng.next_seat()]
            return (
                KeyOffer(
                    "g",
                    Msg("end the Twin run and give up to {tiles}", tiles=_tiles(k))
                    if ph == TWIN
                    else Msg("give up to {tiles}", tiles=_tiles(k)),
                    lambda t, a: Key("gift", t, a),
                    prompt=Msg(
                        "{name} gives up to {tiles} from the pool ({why}): to whom? (like 'Bob 2, "
                        "Cy 1', or none)",
                        name=name,
                        tiles=_tiles(k),
                        why=eng.gift_reason(),
                    ),
                    default=f"{nxt} {k}",
                ),
            )
        return ()

    # --- the game's life ------------------------------------------------------------------------

    def _new(self, start: StartGame) -> UpturnState:
        return UpturnState.at_table(
            start.players,
            variant=Variant.from_dict(start.variant_data),
            catalogue=self.catalogue,
        )

    def check_start(self, start: StartGame) -> None:
        self._new(start)

    def make_engine(self, start: StartGame) -> UpturnState:
        return self._new(start)

    def next_engine(self, engine: UpturnState) -> UpturnState:
        return engine.next_game()

    def on_begin(self) -> None:
        self._fix = None

    def on_stop(self) -> None:
        self._fix = None

    def scores_now(self) -> tuple[int, ...]:
        return tuple(self.engine.counts())

    # --- engine calls ---------------------------------------------------------------------------

    def _play(self, action: Action, out: list[Verdict]) -> bool:
        eng = self.engine
        before = eng.view(None)
        try:
            eng.play(action)
        except IllegalMoveError as err:
            self._refuse(err, out)
            return False
        self.note_play()
        self._fix = None
        for note in eng.notes:
            said = self._said(note.kind, action, before)
            out.append(Verdict(_KINDS[note.kind], note.text, note.rule, spoken=said))
        outcome = eng.outcome()
        if outcome is not None:
            self.note_game_over(outcome)
        return True

    def _said(self, kind: str, action: Action, before: Any) -> str:
        """A note of the engine's, for the ear: what was done, and what the table must do now
        (whose turn it is comes with the reply)."""
        eng = self.engine
        who = before.players[before.to_move].name if before.to_move is not None else ""
        owing = [p.name for p in before.players if p.owes_call]
        if kind == "end":
            outcome = eng.outcome()
            return self.result_words(outcome) if outcome is not None else Msg("The game is over.")
        if kind == "penalty":
            return Msg(
                "{names} did not call one tile left in time: take the penalty tiles.",
                names=and_join(owing),
            )
        if kind == "call":
            return Msg("{name} calls one tile left.", name=owing[0] if owing else who)
        said = [_did(action, who, eng, before.drew)]
        after = eng.view(None)
        if kind == "step" and after.gifts:
            give = Msg("{name}, give {tiles} from the pool.", name=who, tiles=_said_tiles(after.gifts))
            said.append(give)
        elif kind == "step" and isinstance(action, Draw):
            said.append(Msg("Lay one tile, or keep them all."))
        for p in after.players:
            if p.owes_call and p.name not in owing:
                said.append(Msg("{name}, call one tile left!", name=p.name))
        lost = [p.name for p in after.players if p.skipped]
        if kind == "turn" and lost:
            said.append(
                Plural("{names} loses a turn.", "{names} lose a turn.", n=len(lost), names=and_join(lost))
            )
        return join_words(" ", said)

    def turn_words(self, seat: int) -> str | None:
        v = self.engine.view(None)
        name = self.engine.players[seat]
        if v.last_number is None or v.direction is None:
            return super().turn_words(seat)
        if v.direction == "up":
            said = Msg("{name}, your turn: higher than {last}.", name=name, last=v.last_number)
        else:
            said = Msg("{name}, your turn: lower than {last}.", name=name, last=v.last_number)
        return numbers_in_words(said)

    def _refuse(self, err: IllegalMoveError, out: list[Verdict]) -> None:
        eng = self.engine
        text = err.message
        if err.rule == "T-9":
            text += " " + _count_hint(eng.players[eng.current_player()])
        if err.rule == "tile":
            said = Msg("That tile does not belong here: put it away.")
            out.append(Verdict(BOARD, text, "tag", spoken=said))
            return
        seat = eng.current_player()
        who = eng.players[seat] if seat >= 0 else None
        reason = numbers_in_words(said_reason(err.message, err.rule, _SAID_RULES))
        fix = numbers_in_words(err.correction) if err.correction else None
        said = refusal_words(who, reason, fix)
        out.append(Verdict(ILLEGAL, text, err.rule, err.correction, spoken=said))
        if err.correction:
            self._fix = err.correction

    # --- taps, the button, keys ------------------------------------------------------------------

    def on_tap(self, item: str, uid: str, out: list[Verdict]) -> None:
        if self.phase == OVER and self.has_engine:
            out.append(Verdict(INFO, self._over_text(item), "over"))
            return
        if self.phase != PLAY:
            return
        eng = self.engine
        if eng.phase == START:
            self._play(Start(item), out)
            return
        lay = Lay(item)
        if eng.phase in (TWIN, GIFT) and not eng.is_legal(lay):
            # not the player's own tile: the next player's, and the gift was not given
            trial = eng.clone()
            trial.apply(Gift(()))
            try:
                trial.check(lay)
            except IllegalMoveError as err:
                self._refuse(err, out)
                return
            giver = eng.players[eng.current_player()]
            out.append(
                Verdict(
                    INFO,
                    Msg(
                        "The next tile came before {name}'s gift was entered: no tiles given "
                        "(T-11). To give them, undo (u), then press g before the next tile.",
                        name=giver,
                    ),
                    "T-11",
                )
            )
            self._play(Gift(()), out)
        self._play(lay, out)

    def _over_text(self, item: str) -> str:
        eng = self.engine
        out = self.stopped or eng.outcome()
        tile = eng.catalogue.get(item)
        refused = self.over_refusal(tile.words() if tile is not None else item)
        text = refused + " " + Msg("The next game: n.")
        if out is not None and out.termination == Termination.EMPTY_RACK and self.stopped is None:
            name = eng.players[out.winners[0]]
            text += " " + Msg(
                "If {name} still holds tiles, the count missed a draw, a gift or a penalty: "
                "undo (u), enter it, and lay the last tile again.",
                name=name,
            )
        return text

    def on_button(self, out: list[Verdict]) -> None:
        if self.phase != PLAY:
            return
        eng = self.engine
        try:
            eng.check(Call())
        except IllegalMoveError as err:
            said = err.message + " " + Msg("The press changes nothing.")
            out.append(Verdict(INFO, said, "T-13"))
            return
        self._play(Call(), out)

    def on_key(self, name: str, arg: str | None, out: list[Verdict]) -> bool:
        if self.phase != PLAY:
            return False
        eng = self.engine
        if name == "draw":
            answer = (arg or "keep").strip().lower()
            if not ("keep".startswith(answer) or "lay".startswith(answer)):
                out.append(
                    Verdict(INFO, Msg("Answer keep or lay, not {arg!r}: press d again.", arg=arg), "draw")
                )
                return True
            if self._play(Draw(), out) and "keep".startswith(answer):
                self._play(Pass(), out)
            return True
        if name == "pass":
            self._play(Pass(), out)
            return True
        if name == "gift":
            if eng.phase not in (TWIN, GIFT):
                return False  # no gift is open: the key means nothing now
            try:
                split = parse_gift(arg, eng.players, eng.gifts, eng.next_seat())
            except ValueError as exc:
                out.append(
                    Verdict(
                        INFO,
                        Msg(
                            "The gift {arg!r} cannot be read: {why}. Press g again.",
                            arg=arg,
                            why=exc.args[0] if exc.args else str(exc),
                        ),
                        "gift",
                    )
                )
                return True
            self._play(Gift(split), out)
            return True
        return False

    # --- undo -------------------------------------------------------------------------------------

    def turn_start(self) -> int | None:
        eng = self.engine
        if eng.phase == TURN and not eng.acted:
            return eng.turn
        return None

    def turn_in_progress(self) -> bool:
        eng = self.engine
        return eng.acted or eng.is_terminal()

    def before_undo(self) -> tuple[tuple[str, ...], tuple[int, ...]]:
        eng = self.engine
        return eng.line, eng.counts()

    def after_undo(self, before: Any) -> list[str]:
        eng = self.engine
        line, counts = before
        taken = [t for t in line if t not in eng.line]
        now = eng.counts()
        p = eng.current_player()
        fixes: list[str] = []
        if taken:
            tiles = and_join([eng.tile(t).short for t in taken])
            fixes.append(
                Msg("{name}: take {tiles} back from the line onto your rack.", name=eng.players[p], tiles=tiles)
            )
        for s, name in enumerate(eng.players):
            back = counts[s] + (len(taken) if s == p else 0) - now[s]
            if back > 0:
                fixes.append(
                    Msg(
                        "{name}: put {tiles} back into the pool (taken from it since).",
                        name=name,
                        tiles=_tiles(back),
                    )
                )
        self._fix = join_words(" ", fixes) if fixes else None
        return fixes

    # --- what the table is waiting for -------------------------------------------------------

    def waiting_for_game(self) -> str | None:
        eng = self.engine
        if self.phase == OVER:
            return Msg("The next game (n), or a new one.")
        ph = eng.phase
        if ph == START:
            return Msg(
                "Shuffle the tiles face down; each player takes {deal}; then turn up the Starting "
                "tile and tap it.",
                deal=eng.variant.deal,
            )
        owe = ""
        if eng.owing is not None:
            owe = " " + Msg(
                "{name} owes the 'one tile left' call: the button, before the next tile.",
                name=eng.players[eng.owing],
            )
        return self._waiting_in_turn(ph) + owe

    def _waiting_in_turn(self, ph: str) -> str:
        """What the player to move is to do in this phase of the turn."""
        eng = self.engine
        name = eng.players[eng.current_player()]
        need = eng.need()
        if ph == TURN:
            other = Msg("draw (d)") if eng.pool_count else Msg("pass (p)")
            if eng.direction is None:
                return Msg("{name}: {need} (tap it), or {other}.", name=name, need=need, other=other)
            return Msg(
                "{name}: a tile {need} or an action tile (tap it), or {other}.",
                name=name,
                need=need,
                other=other,
            )
        if ph == DRAWN:
            return Msg("{name}: lay one tile, {need} (tap it), or keep all tiles (p).", name=name, need=need)
        if ph == JOKER:
            return Msg(
                "{name}: one extra tile, {need} or an action tile (tap it), or none (p).",
                name=name,
                need=need,
            )
        twin = eng.twin
        k = eng.gifts
        give = Msg("give up to {tiles} (g)", tiles=_tiles(k)) if k else Msg("end the run (g)")
        if ph == TWIN and twin is not None:
            return Msg(
                "{name}: add rack tiles between {low} and {high} (tap them), then {give}.",
                name=name,
                low=twin[1],
                high=eng.last_number,
                give=give,
            )
        return Msg("{name}: give up to {tiles} from the pool (g).", name=name, tiles=_tiles(k))
