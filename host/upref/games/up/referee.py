"""The Up referee: card taps, the button and a few keys in; engine actions, verdicts and board
feedback out.

The referee's engine is an *observed* one (`UpState.new(..., observed=True)`): it learns the
cards as the table shows them and keeps the rest as counts (docs/games/up.md).

What a tap means (every card has its tag; `item` is its id, 'B7'):

- **the cut**: after `k` (the cutter keeps the uncovered card), the kept card; without `k`, the
  first tap is the first face-up card of the deal and nothing was kept;
- **the deal**: the face-up cards, tapped as they are dealt, one player after the other from the
  dealer's left (face-down cards and hands are not tapped);
- **a play**: each card put on the tower. Its source is inferred: one of the player's known
  face-up cards came from face-up, a card the referee saw go into that hand (a fallen tower)
  from the hand; any other card from the hand, unless `b` ("blind") was pressed first, or the
  hand holds no card the referee has not seen and a face-down card may be played. Several equal
  cards played together are tapped one after the other with `+` before each added card; an
  added card of the player who just played, from their face-up cards or their known hand,
  needs no `+` (nobody else can play it). A tap of a card already on the tower changes nothing;
- **the count** at the end of a round: each remaining player taps the cards still held (the
  referee skips those it knows); `p` types in the points of cards that cannot be tapped.

The button is "last card" (U-6): it must come before the next player's card, or that player's
next turn is skipped (U-11). A refused card must be taken back (the correction stays on the
scoreboard until the next accepted card).

Everything that does not depend on the game (the log, tags, the board's health, start, stop,
next round, undo, settings) is `upref.referee.base.Referee`'s; this module fills in its hooks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from upref.board.codes import CodeTable
from upref.games.base import IllegalMoveError, Outcome
from upref.games.up.actions import (
    DOWN,
    HAND,
    UP,
    Action,
    Call,
    Cut,
    DealUp,
    DirtyOne,
    Join,
    Pass,
    Play,
    Points,
    Reveal,
)
from upref.games.up.cards import Catalogue, load_catalogue, parse_catalogue
from upref.games.up.engine import NAME, TITLE, UpState
from upref.games.up.scoring import EVENING_OVER, Termination, evening_result, evening_winners
from upref.games.up.variant import Variant
from upref.games.up.words import cannot_start, face_words, faces_words, turn_skipped
from upref.referee.base import OVER, PLAY, CatalogueFormat, KeyOffer, Referee, TagLookup
from upref.referee.inputs import Key, StartGame
from upref.referee.status import END, ILLEGAL, INFO, OK, TURN, Verdict, refusal_words, said_reason
from upref.text import Msg, and_join, join_words, numbers_in_words

__all__ = ["KEYS", "UpReferee"]

_SAID_RULES = {
    "U-12": Msg("in your first turn, play only cards from your hand"),
}
"""Refusals said in short words of their own, where the printed words are too long to hear."""

KEYS: Mapping[str, str] = {
    "keep": "k",
    "blind": "b",
    "join": "+",
    "dirty": "1",
    "pass": "x",
    "points": "p",
}
"""The game's keys: the input's name -> the key at the host."""

_SAID_KIND = {"play": OK, "skip": TURN, "penalty": TURN, "call": INFO, "end": END, "info": INFO}


class UpReferee(Referee[UpState]):
    """Referees Up from card taps, the button and keys (see the module's text).

    :param catalogue: the cards (default: the packaged ten sets).
    Other parameters: `upref.referee.base.Referee`.
    """

    GAME: ClassVar[str] = NAME
    TITLE: ClassVar[str] = TITLE
    CATALOGUE: ClassVar[CatalogueFormat | None] = CatalogueFormat(
        load=load_catalogue,
        to_dict=Catalogue.to_dict,
        from_dict=lambda d: parse_catalogue(d, source="the game log"),
    )

    catalogue: Catalogue

    def __init__(self, codes: CodeTable, tag_book: TagLookup | None = None, **settings: Any) -> None:
        super().__init__(codes, tag_book, **settings)
        self._keep = False  # k: the next tap is the kept cut card
        self._blind = False  # b: the next card is a face-down one
        self._join = False  # +: the next card joins the play just made
        self._fix: str | None = None  # the correction of the last refusal
        self._late: int | None = None  # the seat whose call came too late

    # --- read-only ------------------------------------------------------------------------------

    @property
    def pending(self) -> tuple[str, ...]:
        """The keys pressed whose card has not come yet ('keep', 'blind', 'join')."""
        return tuple(
            name for name, on in (("keep", self._keep), ("blind", self._blind), ("join", self._join)) if on
        )

    def corrections(self) -> tuple[str, ...]:
        return (self._fix,) if self._fix else ()

    def game_keys(self) -> tuple[KeyOffer, ...]:
        if self.phase != PLAY or not self.has_engine:
            return ()
        eng = self.engine
        offers: list[KeyOffer] = []
        names = eng.players
        if eng.phase == "cut":
            label = (
                Msg("cancel: no cut card kept")
                if self._keep
                else Msg("{name} keeps the cut card (then tap it)", name=names[eng.cutter])
            )
            offers.append(_offer("keep", label))
        elif eng.phase == "play":
            seat = eng.to_move
            last = eng.last_play
            if last is not None and last[1] != DOWN and self._joinable(last[2][0]):
                what = Msg("cancel +") if self._join else Msg("the next card joins {name}'s play", name=names[last[0]])
                offers.append(_offer("join", what))
            if eng.may_play_blind(seat):
                what = (
                    Msg("cancel blind")
                    if self._blind
                    else Msg("{name} turns a face-down card (then tap it)", name=names[seat])
                )
                offers.append(_offer("blind", what))
            if eng.is_legal(DirtyOne(seat)):
                offers.append(_offer("dirty", Msg("{name} announces the dirty One (U-9)", name=names[seat])))
            if eng.founding and eng.is_legal(Pass(seat)):
                offers.append(_offer("pass", cannot_start(names[seat])))
        elif eng.phase == "count" and eng.counting is not None:
            who = names[eng.counting]
            offers.append(
                KeyOffer(
                    KEYS["points"],
                    Msg("type the points of {name}'s untapped cards", name=who),
                    lambda t, a: Key("points", t, a),
                    prompt=Msg("Points of {name}'s cards not tapped (counted by hand)", name=who),
                    default="0",
                )
            )
        return tuple(offers)

    # --- the game's life --------------------------------------------------------------------------

    def check_start(self, start: StartGame) -> None:
        self.make_engine(start)

    def make_engine(self, start: StartGame) -> UpState:
        return UpState.new(
            list(start.players),
            rng=start.seed,
            variant=Variant.from_dict(start.variant_data),
            catalogue=self.catalogue,
            observed=True,
        )

    def next_engine(self, engine: UpState) -> UpState:
        return engine.next_round()

    def on_begin(self) -> None:
        self._clear()

    def on_stop(self) -> None:
        self._clear()

    def _clear(self) -> None:
        self._keep = self._blind = self._join = False
        self._fix = None
        self._late = None

    def stop_outcome(self) -> Outcome:
        eng = self.engine
        totals = eng.totals
        if not any(totals):  # no round scored yet: nobody has a score to win with
            return Outcome(Termination.STOPPED, (), totals)
        return Outcome(Termination.STOPPED, evening_winners(totals, eng.variant.scoring), totals)

    def result_text(self, outcome: Outcome) -> str:
        eng = self.engine
        stopped = outcome.termination == Termination.STOPPED
        text = evening_result(
            eng.players, outcome.winners, outcome.scores, eng.variant.scoring, lead=stopped
        )
        return Msg("Round {round} is not scored; {result}", round=eng.round, result=text) if stopped else text

    def result_words(self, outcome: Outcome) -> str:
        """The evening's result for the ear: 'Ann wins with five points.'"""
        names, best = self.winners_and_best(outcome)
        if not names:
            return Msg("Nobody wins.")
        who = and_join(names)
        if not outcome.scores:
            return Msg("{who} wins.", who=who) if len(names) == 1 else Msg("{who} win.", who=who)
        said = numbers_in_words(Msg("{n}", n=best))
        if len(names) == 1:
            return Msg("{who} wins with {n} points.", who=who, n=said)
        return Msg("{who} win with {n} points.", who=who, n=said)

    # --- taps -----------------------------------------------------------------------------------

    def on_tap(self, item: str, uid: str, out: list[Verdict]) -> None:
        if self.phase == OVER:
            out.append(Verdict(INFO, self._over_words()))
            return
        if self.phase != PLAY or not self.has_engine:
            return
        eng = self.engine
        if eng.phase == "cut":
            self._tap_cut(eng, item, out)
        elif eng.phase == "deal":
            self._tap_deal(eng, item, out)
        elif eng.phase == "count":
            self._tap_count(eng, item, out)
        else:
            self._tap_play(eng, item, out)

    def _tap_cut(self, eng: UpState, item: str, out: list[Verdict]) -> None:
        if self._keep:
            self._keep = False
            self._act(Cut(item), out)
            return
        # no k: nothing was kept, and this is the first face-up card of the deal
        nxt = eng.leader
        trial = eng.clone()
        trial.apply(Cut(None))
        try:
            trial.check(DealUp(nxt, item))
        except IllegalMoveError as err:
            self._refuse(err, out)
            return
        self._act(Cut(None), out)
        self._act(DealUp(nxt, item), out)

    def _tap_deal(self, eng: UpState, item: str, out: list[Verdict]) -> None:
        where, owner = eng.locate(item)
        if where == UP and owner is not None:
            out.append(
                Verdict(
                    INFO,
                    Msg(
                        "That {face} is dealt to {name} already: nothing changes.",
                        face=self._face(item),
                        name=eng.players[owner],
                    ),
                )
            )
            return
        nxt = eng.deal_next()
        assert nxt is not None
        self._act(DealUp(nxt, item), out)

    def _tap_count(self, eng: UpState, item: str, out: list[Verdict]) -> None:
        seat = eng.counting
        assert seat is not None
        where, owner = eng.locate(item)
        if owner == seat:
            out.append(
                Verdict(
                    INFO,
                    Msg(
                        "That {face} of {name}'s is known already: it is counted ({n} not seen yet).",
                        face=self._face(item),
                        name=eng.players[seat],
                        n=eng.view(None).unseen[seat],
                    ),
                )
            )
            return
        self._act(Reveal(seat, item), out)

    def _tap_play(self, eng: UpState, item: str, out: list[Verdict]) -> None:
        seat = eng.to_move
        where, owner = eng.locate(item)
        join, blind = self._join, self._blind
        self._join = self._blind = False
        if where == "tower" and not join:
            out.append(
                Verdict(INFO, Msg("That {face} is on the tower already: nothing changes.", face=self._face(item)))
            )
            return
        last = eng.last_play
        action: Action
        if join:
            action = Join(last[0] if last is not None else seat, item)
        elif owner is not None and owner != seat:
            if last is not None and last[0] == owner and eng.is_legal(Join(owner, item)):
                action = Join(owner, item)  # only that player can have played it
            else:
                action = Play(seat, where, (item,))
        elif owner == seat and where in (HAND, UP, DOWN):
            action = Play(seat, where, (item,))
        elif blind:
            action = Play(seat, DOWN, (item,))
        elif eng.hand_unseen(seat) == 0 and eng.may_play_blind(seat):
            action = Play(seat, DOWN, (item,))  # no unseen hand card: it can only be face down
        else:
            action = Play(seat, HAND, (item,))
        self._act(action, out)

    # --- the button and keys ----------------------------------------------------------------------

    def on_button(self, out: list[Verdict]) -> None:
        if self.phase != PLAY or not self.has_engine or self.engine.phase != "play":
            out.append(Verdict(INFO, Msg("The button is 'last card': no card is being played now."), "call"))
            return
        eng = self.engine
        due = eng.call_due
        if due is not None:
            self._act(Call(due), out)
            return
        if self._late is not None:
            name = eng.players[self._late]
            out.append(
                Verdict(
                    INFO,
                    Msg(
                        "Too late for 'last card', {name}: the next card came first, so {skipped}",
                        name=name,
                        skipped=turn_skipped(name),
                    ),
                    "U-11",
                )
            )
            return
        out.append(Verdict(INFO, Msg("No 'last card' call is due now."), "call"))

    def on_key(self, name: str, arg: str | None, out: list[Verdict]) -> bool:
        if self.phase != PLAY or not self.has_engine or name not in KEYS:
            return False
        eng = self.engine
        names = eng.players
        if name == "keep" and eng.phase == "cut":
            self._keep = not self._keep
            text = (
                Msg("{name} keeps the cut card: tap it now.", name=names[eng.cutter])
                if self._keep
                else Msg("No cut card kept after all: deal, and tap the face-up cards.")
            )
            out.append(Verdict(INFO, text))
            return True
        if eng.phase == "play" and self._play_key(name, out):
            return True
        if name == "points" and eng.phase == "count" and eng.counting is not None:
            self._points_key(arg, out)
            return True
        return False

    def _play_key(self, name: str, out: list[Verdict]) -> bool:
        """A key while cards are played (join, blind, dirty One, pass); False: none of them."""
        eng = self.engine
        names = eng.players
        seat = eng.to_move
        last = eng.last_play
        if name == "join" and last is not None and last[1] == DOWN:
            out.append(
                Verdict(
                    INFO,
                    Msg(
                        "Face-down cards are played one at a time: no card joins {name}'s "
                        "face-down card (U-4).",
                        name=names[last[0]],
                    ),
                    "U-4",
                )
            )
            return True
        if name == "join" and last is not None and self._joinable(last[2][0]):
            self._join = not self._join
            who = names[last[0]]
            out.append(
                Verdict(
                    INFO,
                    Msg("{name}: tap the card of the same value that goes with the play.", name=who)
                    if self._join
                    else Msg("No card joins the play."),
                )
            )
            return True
        if name == "blind" and eng.may_play_blind(seat):
            self._blind = not self._blind
            out.append(
                Verdict(
                    INFO,
                    Msg("{name}: turn a face-down card over onto the tower and tap it.", name=names[seat])
                    if self._blind
                    else Msg("{name} plays no face-down card after all.", name=names[seat]),
                )
            )
            return True
        if name == "dirty":
            self._act(DirtyOne(seat), out)
            return True
        if name == "pass" and eng.founding:
            self._act(Pass(seat), out)
            return True
        return False

    def _points_key(self, arg: str | None, out: list[Verdict]) -> None:
        """`p` at the count: the points typed in for the player counting."""
        counting = self.engine.counting
        assert counting is not None
        try:
            points = int((arg or "").strip())
        except ValueError:
            out.append(
                Verdict(
                    ILLEGAL,
                    Msg("Points are a whole number, not {typed}: press p again and type the points.", typed=repr(arg)),
                    "count",
                    spoken=Msg("Points are a whole number: press p again and type them."),
                )
            )
            return
        self._act(Points(counting, points), out)

    # --- engine calls ---------------------------------------------------------------------------

    def _act(self, action: Action, out: list[Verdict]) -> None:
        eng = self.engine
        due = eng.call_due
        try:
            eng.play(action)
        except IllegalMoveError as err:
            self._refuse(err, out)
            return
        # a card joined to the play just made, or that player's 'last card', belongs to that
        # play's turn: the next turn (an undo point) starts after it
        self.note_play(joins_last_turn=isinstance(action, Join | Call))
        self._fix = None
        if isinstance(action, Play | Pass):  # (a Join belongs to the play before it)
            late = due is not None and due != action.seat and eng.call_due != due
            self._late = due if late else None
        merged: list[tuple[str, list[str], str | None, str | None]] = []  # kind, texts, rule, spoken
        outcome = eng.outcome()
        ends = [i for i, x in enumerate(eng.said) if x.kind == "end"]
        for i, said in enumerate(eng.said):
            kind = _SAID_KIND.get(said.kind, INFO)
            rule = said.rule
            words = self._said(said.kind, action, due, outcome is not None and i == ends[-1])
            if merged and merged[-1][0] == kind == OK:
                merged[-1][1].append(said.text)
                merged[-1] = (kind, merged[-1][1], merged[-1][2] or rule, merged[-1][3] or words)
            else:
                merged.append((kind, [said.text], rule, words))
        for kind, texts, rule, words in merged:
            out.append(Verdict(kind, join_words(" ", texts), rule, spoken=words))
        if outcome is not None:
            self.note_game_over(outcome)

    def turn_words(self, seat: int) -> str | None:
        phase = self.engine.phase
        name = self.engine.players[seat]
        if phase == "play":
            return super().turn_words(seat)
        if phase == "count":
            return Msg("{name}, tap the cards you still hold.", name=name)
        return None  # the cut and the deal go round the table without turns

    def _said(self, kind: str, action: Action, due: int | None, last_end: bool) -> str | None:
        """What the engine said of `action`, for the ear (`due`: who owed 'last card' before
        it; `last_end`: the last word of an evening that is over)."""
        eng = self.engine
        names = eng.players
        if kind == "end":
            if last_end:
                outcome = eng.outcome()
                if outcome is not None:
                    return Msg("The evening is over. {result}", result=self.result_words(outcome))
            if isinstance(action, Play):
                return Msg("The round is over: count the cards still held.")
            return Msg("The round is scored: the points are on the screen.")
        if kind == "penalty" and due is not None:
            return Msg("{name} did not call last card in time: {name}'s next turn is skipped.", name=names[due])
        if kind == "skip":
            return Msg("A turn is skipped.")
        if kind == "call" and eng.call_due is not None:
            return Msg("{name}, one card left: press the button for last card!", name=names[eng.call_due])
        if kind == "play" and isinstance(action, Play):
            values = [self._face(c) for c in action.cards]
            what = numbers_in_words(join_words(" " + Msg("and") + " ", values)) if values else Msg("a card")
            return Msg("{name} plays {what}.", name=names[action.seat], what=what)
        return None

    def _refuse(self, err: IllegalMoveError, out: list[Verdict]) -> None:
        eng = self.engine
        seat = eng.to_move if eng.phase == "play" else None
        who = eng.players[seat] if seat is not None and seat >= 0 else None
        reason = said_reason(_SAID_RULES.get(err.rule or "", err.message))
        fix = numbers_in_words(err.correction) if err.correction else None
        said = refusal_words(who, numbers_in_words(reason), fix)
        out.append(Verdict(ILLEGAL, err.message, err.rule, err.correction, spoken=said))
        if err.correction:
            self._fix = err.correction

    def _joinable(self, item: str) -> bool:
        """Whether equal cards may join a play of this card (a card of the catalogue: a disposal
        card too, U-18)."""
        return self.catalogue.get(item) is not None

    def _face(self, item: str) -> str:
        card = self.catalogue.get(item)
        return face_words(card.face) if card is not None else Msg("card")

    # --- undo -------------------------------------------------------------------------------------

    def turn_start(self) -> int | None:
        eng = self.engine
        return eng.turn if eng.current_player() >= 0 else None

    def before_undo(self) -> tuple[tuple[str, ...], list[tuple[int, tuple[str, ...], int]]]:
        eng = self.engine
        view = eng.view(None)
        return view.tower, [(p.hand, p.up, p.down) for p in view.players]

    def after_undo(self, before: Any) -> list[str]:
        eng = self.engine
        self._clear()
        tower_before, players_before = before
        view = eng.view(None)
        fixes: list[str] = []
        if view.tower != tower_before:
            if view.tower:
                fixes.append(
                    Msg("Put the tower back as it was: {tower} (bottom first).", tower=faces_words(view.tower))
                )
            else:
                fixes.append(Msg("The tower is empty again: take its cards back as below."))
        for p, was in zip(view.players, players_before, strict=True):
            if (p.hand, p.up, p.down) != was:
                up = faces_words(p.up) or Msg("none")
                fixes.append(
                    Msg(
                        "{name} holds again: {hand} in hand, face up {up}, {down} face down.",
                        name=p.name,
                        hand=p.hand,
                        up=up,
                        down=p.down,
                    )
                )
        return fixes

    # --- what the table is waiting for --------------------------------------------------------------

    def _over_words(self) -> str:
        eng = self.engine
        out = eng.outcome()
        if out is not None and out.termination in EVENING_OVER:
            return Msg("The evening is over: press n for a new evening.")
        nxt = eng.players[(eng.dealer + 1) % eng.num_players()]
        return Msg("Round {round} is over: press n for the next round ({name} deals).", round=eng.round, name=nxt)

    def waiting_for_game(self) -> str | None:
        if not self.has_engine:
            return None
        eng = self.engine
        if self.phase == OVER:
            return self._over_words()
        names = eng.players
        if eng.phase == "cut":
            if self._keep:
                return Msg("{name}: tap the card you keep from the cut.", name=names[eng.cutter])
            args = {"cutter": names[eng.cutter], "dealer": names[eng.dealer], "leader": names[eng.leader]}
            if eng.variant.without_minus2:
                return Msg(
                    "{cutter} cuts: keeps an uncovered disposal card with k and a tap; then {dealer} "
                    "deals and each face-up card is tapped as it is dealt, {leader}'s first.",
                    **args,
                )
            return Msg(
                "{cutter} cuts: keeps an uncovered -2 or disposal card with k and a tap; then "
                "{dealer} deals and each face-up card is tapped as it is dealt, {leader}'s first.",
                **args,
            )
        if eng.phase == "deal":
            nxt = eng.deal_next()
            assert nxt is not None
            view = eng.view(None)
            k = view.dealt // eng.num_players() + 1
            return Msg("{name}'s face-up card {k} of 4: tap it as it is dealt.", name=names[nxt], k=k)
        if eng.phase == "count":
            seat = eng.counting
            assert seat is not None
            n = eng.view(None).unseen[seat]
            return Msg(
                "{name}: tap your remaining cards ({n} not seen yet), or p to type their points.",
                name=names[seat],
                n=n,
            )
        seat = eng.to_move
        name = names[seat]
        text: str
        if self._join and eng.last_play is not None:
            text = Msg("{name}: tap the card that joins the play.", name=names[eng.last_play[0]])
        elif self._blind:
            text = Msg("{name}: turn a face-down card and tap it.", name=name)
        elif eng.founding and eng.first_turn(seat):
            text = Msg("{name}: lay a foundation (from your hand).", name=name)
        elif eng.founding:
            text = Msg("{name}: lay a foundation (any card but a -2).", name=name)
        else:
            text = Msg(
                "{name}: play {n} or lower (a higher card brings the tower down).", name=name, n=eng.threshold
            )
        due = eng.call_due
        if due is not None:
            text += " " + Msg("{name} owes 'last card' (the button) before the next card.", name=names[due])
        return text


def _offer(name: str, label: str) -> KeyOffer:
    return KeyOffer(KEYS[name], label, lambda t, _a: Key(name, t))

