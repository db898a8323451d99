"""The What's Up referee: card taps and host keys in, engine actions, verdicts and board feedback
out.

What the table does and what the referee makes of it:

- **Set-up scan.** A card carries one tag for both sides, and the reader cannot tell which side
  is up, so the referee must learn it as the cards are laid out: each card is tapped as it is
  laid, and the referee says which side to put up (the sides come from the game's seed). The
  game begins once all 30 are on the table; the scoreboard counts them. A card tapped twice is
  noted, nothing more. The referee cannot see faces: it relies on each card being laid as it
  said, and says so.
- **A flip is a tap.** In a turn, a tapped table card is the flip of the player whose turn it is
  (the reader cannot see who taps): the referee turns its face over, says whether the face now
  up fits that player's collection and, if it does, that the card must be taken (A-8); if not,
  that it stays. A card moving into a collection needs no tap: the rules say where it goes.
- **The figurine** is a key (`f`): "put it on a card, then tap that card". The next tap marks
  that card (A-7: it takes nothing) and is not a flip. The key is offered while the player's
  figurine is unused, at most once per game per player; pressed again before the tap, it keeps
  the figurine in hand.
- **Refusals**: a flip of a card that carries another player's figurine (A-1), of a card in a
  collection (by the owner's name; the card taken last turn with A-8), a tap after the end; each
  with the correction the table must make, shown until the next accepted action.
- **Bookkeeping**: the count key (`c`) asks how many cards lie on the table (Enter accepts the
  referee's own count); a count that differs is named with what to check.
- **A-11**: when the player to move can flip nothing (every table card carries another player's
  figurine; impossible in the published game), the referee passes for them at once.

Everything that does not depend on the game (the log, tags, the board's health, start, stop,
next game, undo, settings) is `upref.referee.base.Referee`'s; this module fills in its hooks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from upref.board.codes import CodeTable
from upref.games.base import IllegalMoveError, Outcome, ResultWords
from upref.games.whatsup.actions import Flip, Lay, Pass, Reserve
from upref.games.whatsup.cards import (
    Catalogue,
    colour_word,
    face_words,
    load_catalogue,
    parse_catalogue,
)
from upref.games.whatsup.engine import NAME, TITLE, Termination, WhatsUpState
from upref.games.whatsup.variant import Variant
from upref.games.whatsup.view import RESULT, ROWS_WON
from upref.games.whatsup.words import figurine_spent, figurine_stands, verdict_head
from upref.referee.base import OVER, PLAY, CatalogueFormat, KeyOffer, Referee, TagLookup
from upref.referee.inputs import Key, StartGame
from upref.referee.status import (
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
from upref.text import Msg, Plural, numbers_in_words

_SAID_FIXES = {"A-1": Msg("Turn it back as it was, then flip another card.")}
"""Corrections said in words of their own where the engine's words are not for the ear."""

__all__ = [
    "COUNT_KEY",
    "FIGURINE_KEY",
    "WhatsUpReferee",
    "catalogue_from_dict",
    "catalogue_to_dict",
]

FIGURINE_KEY = "figurine"
"""The `Key` name of the figurine: the next tap marks a card (pressed again: kept in hand)."""
COUNT_KEY = "count"
"""The `Key` name of the count check; its answer is the number of cards counted."""


def catalogue_to_dict(cat: Catalogue) -> dict[str, Any]:
    """The deck as JSON data (a log's header keeps it, so a replay needs nothing else)."""
    return {
        "source": cat.source,
        "cards": [{"id": c.id, "a": str(c.a), "b": str(c.b)} for c in cat.cards],
    }


def catalogue_from_dict(data: Mapping[str, Any]) -> Catalogue:
    """:raises ValueError: for a deck that is not valid."""
    return parse_catalogue(data, source=str(data.get("source", "game log")))


class WhatsUpReferee(Referee[WhatsUpState]):
    """Referees What's Up from card taps and keys (see the module's text).

    :param catalogue: the deck (default: the packaged 30 cards).
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

    catalogue: Catalogue

    def __init__(self, codes: CodeTable, tag_book: TagLookup | None = None, **settings: Any) -> None:
        super().__init__(codes, tag_book, **settings)
        self._armed: int | None = None  # the seat whose figurine goes on the next card tapped
        self._fixes: list[str] = []  # corrections outstanding, until the next accepted action

    # --- read-only ------------------------------------------------------------------------------

    @property
    def armed(self) -> int | None:
        """The seat whose figurine the next tap places, if any."""
        return self._armed

    def piece_name(self) -> str:
        return Msg("bird card")

    def corrections(self) -> tuple[str, ...]:
        return tuple(self._fixes)

    def _turn_seat(self) -> int | None:
        """The seat to move while a turn is on (not in set-up, not over)."""
        if self.phase != PLAY or not self.has_engine:
            return None
        seat = self.engine.current_player()
        return seat if seat >= 0 else None

    def game_keys(self) -> tuple[KeyOffer, ...]:
        if not self.has_engine:
            return ()
        eng = self.engine
        offers: list[KeyOffer] = []
        seat = self._turn_seat()
        if seat is not None:
            name = eng.players[seat]
            if self._armed == seat:
                offers.append(
                    KeyOffer("f", Msg("keep {name}'s figurine in hand", name=name), _key(FIGURINE_KEY))
                )
            elif eng.figurine(seat) is None:
                offers.append(
                    KeyOffer(
                        "f",
                        Msg("{name}'s figurine: put it on a card, then tap that card", name=name),
                        _key(FIGURINE_KEY),
                    )
                )
        if self.phase == PLAY:
            if eng.in_setup:
                own = eng.laid
                what, ask = Msg("count the cards laid"), Msg("How many cards laid?")
            else:
                own = len(eng.table())
                what, ask = Msg("count the cards on the table"), Msg("How many cards on the table?")
            offers.append(KeyOffer("c", what, _key(COUNT_KEY), prompt=ask, default=str(own)))
        return tuple(offers)

    # --- the game's life --------------------------------------------------------------------

    def check_start(self, start: StartGame) -> None:
        self.make_engine(start)

    def make_engine(self, start: StartGame) -> WhatsUpState:
        return WhatsUpState.new(
            list(start.players),
            rng=start.seed,
            variant=Variant.from_dict(start.variant_data),
            catalogue=self.catalogue,
        )

    def next_engine(self, engine: WhatsUpState) -> WhatsUpState:
        return engine.next_game()

    def on_begin(self) -> None:
        self._armed = None
        self._fixes = []

    def on_stop(self) -> None:
        self._armed = None
        self._fixes = []

    def stop_outcome(self) -> Outcome:
        eng = self.engine
        birds = tuple(eng.birds(s) for s in range(eng.num_players()))
        if not any(birds):  # stopped before anyone collected a bird
            return Outcome(Termination.STOPPED, (), birds)
        return Outcome(Termination.STOPPED, eng.leaders(), birds)

    def result_text(self, outcome: Outcome) -> str:
        if outcome.termination == Termination.ROWS:
            return ROWS_WON.text(*self._rows_won(outcome))
        return super().result_text(outcome)

    def tied(self, outcome: Outcome) -> int:
        return self.engine.cards_of(outcome.winners[0])

    def result_words(self, outcome: Outcome) -> str:
        if outcome.winners and outcome.termination == Termination.ROWS:
            return ROWS_WON.spoken(*self._rows_won(outcome))
        return super().result_words(outcome)

    def _rows_won(self, outcome: Outcome) -> tuple[list[str], int]:
        """The lone winner by complete rows, and how many rows they completed."""
        seat = outcome.winners[0]
        return [self.engine.players[seat]], len(self.engine.completed(seat))

    def _said_refusal(self, err: IllegalMoveError, who: str | None = None) -> str:
        if who is None:
            seat = self.engine.current_player()
            who = self.engine.players[seat] if seat >= 0 else None
        fix = err.correction
        if fix and ("(" in fix or "[" in fix):
            fix = _SAID_FIXES.get(err.rule, Msg("Put it right as the screen says."))
        reason = said_reason(err.message)
        return refusal_words(who, numbers_in_words(reason), numbers_in_words(fix) if fix else None)

    # --- taps ---------------------------------------------------------------------------------

    def on_tap(self, item: str, uid: str, out: list[Verdict]) -> None:
        if not self.has_engine:
            return
        eng = self.engine
        if self.phase == OVER:
            self._after_the_end(item, out)
            return
        if self.phase != PLAY:
            return
        if eng.in_setup:
            self._lay(eng, item, out)
            return
        self._forced_passes(eng, out)
        if eng.is_terminal():
            self._after_the_end(item, out)
            return
        seat = eng.current_player()
        if self._armed == seat:
            self._reserve(eng, seat, item, out)
        else:
            self._flip(eng, seat, item, out)

    def _lay(self, eng: WhatsUpState, item: str, out: list[Verdict]) -> None:
        try:
            text = eng.play(Lay(item))
        except IllegalMoveError as err:
            kind = INFO if err.rule == "setup" else ILLEGAL
            said = self._said_refusal(err) if kind == ILLEGAL else None
            out.append(Verdict(kind, err.message, err.rule, err.correction, spoken=said))
            return
        self._accepted()
        if eng.in_setup:
            out.append(Verdict(OK, text))
        else:
            out.append(
                Verdict(
                    TURN,
                    text + " " + Msg("The referee cannot see faces: it counts on every card lying as it said."),
                    spoken=Msg("All the cards are laid."),
                )
            )

    def _reserve(self, eng: WhatsUpState, seat: int, item: str, out: list[Verdict]) -> None:
        try:
            text = eng.play(Reserve(seat, item))
        except IllegalMoveError as err:
            self._refuse(err, out)
            return
        self._armed = None
        self._accepted()
        out.append(Verdict(OK, text, spoken=Msg("{name}'s figurine marks that card.", name=eng.players[seat])))

    def _flip(self, eng: WhatsUpState, seat: int, item: str, out: list[Verdict]) -> None:
        try:
            eng.play(Flip(seat, item))
        except IllegalMoveError as err:
            self._refuse(err, out)
            return
        self._accepted()
        taken = eng.owner(item) == seat
        face = numbers_in_words(face_words(eng.up(item)))
        name = eng.players[seat]
        if taken:
            said = Msg("{name} flips {face}. It fits: take it into your collection.", name=name, face=face)
        else:
            said = Msg("{name}, {face} does not fit: it stays on the table.", name=name, face=face)
        self._turn_verdicts(eng, SOLVED if taken else TURN, out, said)
        self._forced_passes(eng, out)

    def _forced_passes(self, eng: WhatsUpState, out: list[Verdict]) -> None:
        """A-11: a player who can flip nothing passes at once (the only thing to do)."""
        while (nxt := eng.current_player()) >= 0 and eng.legal_actions() == [Pass(nxt)]:
            eng.play(Pass(nxt))
            self._accepted()
            said = Msg("{name} can flip nothing and passes.", name=eng.players[nxt])
            self._turn_verdicts(eng, TURN, out, said)

    def _turn_verdicts(
        self, eng: WhatsUpState, kind: str, out: list[Verdict], said: str | None = None
    ) -> None:
        """The verdict of a turn just played (`said`: its form for the ear) and, when it ended
        the game, the end on its own."""
        text, ending = eng.verdict, eng.ending
        outcome = eng.outcome()
        if outcome is None or not ending:
            out.append(Verdict(kind, text, spoken=said))
            return
        head = verdict_head(text, ending)
        out.append(Verdict(kind, head, spoken=said))
        out.append(Verdict(END, ending, spoken=self.over_words(outcome)))
        self._armed = None
        self.note_game_over(outcome)

    def _refuse(self, err: IllegalMoveError, out: list[Verdict]) -> None:
        said = self._said_refusal(err)
        out.append(Verdict(ILLEGAL, err.message, err.rule, err.correction, spoken=said))
        if err.correction:
            self._fixes = [err.correction]

    def _accepted(self) -> None:
        """An engine action went through: count it (undo points) and drop stale corrections."""
        self.note_play()
        self._fixes = []

    def _after_the_end(self, item: str, out: list[Verdict]) -> None:
        eng = self.engine
        text = self.over_refusal(Msg("that flip"))
        fix = None
        if item in eng.catalogue and eng.is_laid(item) and eng.owner(item) is None:
            fix = Msg("Turn the card back so that {face} is up again.", face=face_words(eng.up(item)))
        said = Msg("The game is over: that flip does not count.")
        if fix:
            said += " " + fix
        out.append(Verdict(ILLEGAL, text, "over", fix, spoken=numbers_in_words(said)))

    # --- keys and the button ------------------------------------------------------------------

    def on_key(self, name: str, arg: str | None, out: list[Verdict]) -> bool:
        if name == FIGURINE_KEY:
            return self._figurine_key(out)
        if name == COUNT_KEY:
            return self._count_key(arg, out)
        return False

    def _figurine_key(self, out: list[Verdict]) -> bool:
        seat = self._turn_seat()
        if seat is None:
            return False
        eng = self.engine
        name = eng.players[seat]
        if self._armed == seat:
            self._armed = None
            out.append(
                Verdict(INFO, Msg("{name} keeps the figurine in hand: the next tap is a flip again.", name=name))
            )
            return True
        where = eng.figurine(seat)
        if where == "spent":
            out.append(
                Verdict(
                    ILLEGAL,
                    figurine_spent(name),
                    "figurine",
                    spoken=Msg("{name}, no. Your figurine is back in the box: it is placed once.", name=name),
                )
            )
            return True
        if where is not None:
            out.append(
                Verdict(
                    ILLEGAL,
                    figurine_stands(name, eng.up(where)),
                    "figurine",
                    spoken=Msg("{name}, no. Your figurine stands on a card already: it stays there.", name=name),
                )
            )
            return True
        self._armed = seat
        out.append(
            Verdict(
                INFO,
                Msg(
                    "{name}: put your figurine on a card and tap that card. That tap only marks "
                    "the card (A-7): it is not a flip, and the card stays on the table.",
                    name=name,
                ),
            )
        )
        return True

    def _count_key(self, arg: str | None, out: list[Verdict]) -> bool:
        if not self.has_engine or self.phase != PLAY:
            return False
        eng = self.engine
        setup = eng.in_setup
        own = eng.laid if setup else len(eng.table())
        try:
            seen = int((arg or "").strip()) if arg and arg.strip() else own
        except ValueError:
            if setup:
                said = Msg("{answer} is not a number: count the cards laid and try again.", answer=repr(arg))
            else:
                said = Msg(
                    "{answer} is not a number: count the cards on the table and try again.", answer=repr(arg)
                )
            out.append(Verdict(INFO, said))
            return True
        if seen == own:
            out.append(Verdict(INFO, self._right_count(eng, own, setup)))
            return True
        text, fix = self._wrong_count(seen, own, setup)
        said = Msg(
            "The count is wrong: you count {seen}, the referee {own}. Look at the screen.", seen=seen, own=own
        )
        out.append(Verdict(ILLEGAL, text, "count", fix, spoken=numbers_in_words(said)))
        return True

    @staticmethod
    def _right_count(eng: WhatsUpState, own: int, setup: bool) -> str:
        """The table's count agrees: 'Right: 27 cards on the table, and in the collections …'."""
        cards = Plural("{n} card", "{n} cards", n=own)
        if setup:
            return Msg("Right: {cards} laid.", cards=cards)
        held = ", ".join(f"{eng.players[s]} {eng.cards_of(s)}" for s in range(eng.num_players()))
        return Msg("Right: {cards} on the table, and in the collections {held}.", cards=cards, held=held)

    @staticmethod
    def _wrong_count(seen: int, own: int, setup: bool) -> tuple[str, str]:
        """The table's count differs from the referee's: what may have happened, and the fix."""
        if setup:
            if seen > own:
                why = Msg("a card was laid without a tap.")
                fix = Msg("Tap every card you laid without a tap, and lay it as the referee says.")
            else:
                why = Msg("a card was tapped but not laid.")
                fix = Msg("Lay every card you tapped, with the side the referee named up.")
            return Msg("You count {seen} cards laid, the referee {own}: {why}", seen=seen, own=own, why=why), fix
        if seen > own:
            why = Msg(
                "a card that fitted was left on the table, or one that did not fit was put back in "
                "a collection."
            )
        else:
            why = Msg("a card that did not fit was taken, or a card is missing.")
        fix = Msg(
            "Check each collection against the scoreboard: a card that fits must be taken (A-8), "
            "and one that does not stays on the table."
        )
        return Msg("You count {seen} cards on the table, the referee {own}: {why}", seen=seen, own=own, why=why), fix

    def on_button(self, out: list[Verdict]) -> None:
        if self.phase == PLAY:
            out.append(
                Verdict(
                    INFO,
                    Msg(
                        "The button means nothing in {game}: flip a card and tap it on the reader "
                        "(f on the host for the figurine).",
                        game=TITLE,
                    ),
                )
            )

    # --- undo -----------------------------------------------------------------------------------

    def turn_start(self) -> int | None:
        eng = self.engine
        seat = eng.current_player()
        if seat < 0 or eng.reserved_now:
            return None
        if eng.legal_actions() == [Pass(seat)]:
            return None  # a forced pass is no turn to go back to
        return eng.turn

    def turn_in_progress(self) -> bool:
        eng = self.engine
        return eng.reserved_now or eng.is_terminal()

    def before_undo(self) -> WhatsUpState:
        eng = self.engine
        return eng.clone()

    def after_undo(self, before: WhatsUpState) -> list[str]:
        eng = self.engine
        self._armed = None
        seat = eng.current_player()
        who = eng.players[seat] if seat >= 0 else Msg("the player")
        fixes: list[str] = []
        for cid in eng.catalogue.ids():
            if not eng.is_laid(cid):
                continue
            was, now = before.owner(cid), eng.owner(cid)
            at = eng.at(cid)
            up = face_words(eng.up(cid))
            if was is not None and now is None:
                fixes.append(
                    Msg(
                        "{name}: take the last card out of your {colour} row and lay it on the "
                        "table again{at}, {face} up.",
                        name=eng.players[was],
                        colour=colour_word(before.up(cid).colour),
                        at=at,
                        face=up,
                    )
                )
            elif was is None and now is None and before.up(cid) != eng.up(cid):
                fixes.append(
                    Msg("Turn the card {who} flipped back so that {face} is up again{at}.", who=who, face=up, at=at)
                )
        fixes += self._figurine_fixes(before, eng)
        self._fixes = list(fixes)
        return fixes

    @staticmethod
    def _figurine_fixes(before: WhatsUpState, eng: WhatsUpState) -> list[str]:
        """After an undo: where each figurine that moved goes back."""
        fixes: list[str] = []
        for s in range(eng.num_players()):
            was_f, now_f = before.figurine(s), eng.figurine(s)
            if was_f == now_f:
                continue
            name = eng.players[s]
            if now_f is None and was_f not in (None, "spent"):
                fixes.append(
                    Msg(
                        "Take {name}'s figurine off the card showing {face}{at}.",
                        name=name,
                        face=face_words(eng.up(was_f)),
                        at=eng.at(was_f),
                    )
                )
            elif now_f is None:
                fixes.append(Msg("{name}'s figurine comes out of the box again: it is not placed yet.", name=name))
            elif now_f != "spent":
                fixes.append(
                    Msg(
                        "Put {name}'s figurine back on the card showing {face}{at}.",
                        name=name,
                        face=face_words(eng.up(now_f)),
                        at=eng.at(now_f),
                    )
                )
        return fixes

    # --- what the table is waiting for ----------------------------------------------------------

    def waiting_for_game(self) -> str | None:
        if not self.has_engine:
            return None
        eng = self.engine
        if self.phase == OVER:
            return Msg("The next game (or a new one).")
        if self.phase != PLAY:
            return None
        if self._fixes:
            return self._fixes[0]
        if eng.in_setup:
            return Msg(
                "The cards to be laid out: tap each card as you lay it ({laid} of {total} laid).",
                laid=eng.laid,
                total=len(eng.catalogue),
            )
        seat = eng.current_player()
        name = eng.players[seat]
        if self._armed == seat:
            return Msg("{name}: put your figurine on a card and tap that card.", name=name)
        return Msg("{name}: flip a card over and tap it on the reader.", name=name)


def _key(name: str) -> Callable[[float, str | None], Key]:
    return lambda t, arg: Key(name, t, arg)

