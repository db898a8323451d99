"""The Flip a Bird referee: card taps, the button and keys in; engine actions, verdicts and board
feedback out.

**How the referee learns the face of each play: the set-up scan.** After the deal (two cards
into each hand) the rest of the shuffled deck is tapped on the reader one card at a time as it
is laid face down on the draw pile, so the last card tapped is the top. The scan shows its
progress and finishes by itself when the pile is complete; the game then begins. From then on
the referee knows the back under every top card, hence the face every play must take, and which
card each player draws, hence whether a played card can be in that player's hand. No typing.

The scan can be skipped (key `s`). Then the referee cannot see the pile's backs: the table
presses `o` before tapping a card when the pile shows an open cage after the draw (`d` takes it
back); without a key a card counts as played face down. It can no longer check that a card
could be in its player's hand, only that it is not already in the row, won or out of the game.
It says so at the start and on the scoreboard.

What nobody's sensor sees, either way: which way up a card physically lies (if one went the
wrong way, turn it over and press `w`: F-16) and who takes a card at a sharing (each tap is
credited to the player whose take it is, in the order the referee names).

**A turn.** A card tapped is the player to move drawing and playing it (`Play`). A claim is the
key `c` or the board's button. The claimant's red tip and the accused's green tip are known; the
others reveal theirs at once and then tap their tip card (bound to seats: TIP-R3 is the red tip
card of the third player named) or press their seat's number key; no tip is shown until all are
in. The row is then turned up and evaluated card by card (F-1 ... F-5) against the limit (F-10),
and each taker taps the card they take, in the order named (F-6, F-7). In the final phase, a
player with no card presses `p` to end the game without evaluation (F-11).

**At the end** the players may tap their won cards, one player after the other (the button or
`k` moves on): the referee names every card that differs from its record, which decides.

Secrets: no verdict for the table (`seat=None`) names a face-down card, a hand card, a card of
the pile, or a tip before all are in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from upref.board.codes import CodeTable
from upref.games.base import IllegalMoveError, Outcome, ResultWords
from upref.games.flipabird.actions import Action, Claim, Pass, Play, Take, Tip, WrongWay
from upref.games.flipabird.cards import Catalogue, load_catalogue, parse_catalogue
from upref.games.flipabird.engine import NAME, TITLE, FlipABirdState
from upref.games.flipabird.variant import Variant
from upref.games.flipabird.view import RESULT
from upref.games.flipabird.words import (
    FINAL_PHASE,
    LAST_OF_PILE,
    PILE_EMPTIES,
    all_tips,
    cage,
    cards,
    face_word,
    places,
    split_final_claim,
)
from upref.referee.base import OVER, PLAY, SETUP, CatalogueFormat, KeyOffer, Referee, TagLookup
from upref.referee.inputs import Key, StartGame
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
from upref.text import Msg, Plural, and_join, numbers_in_words, upper_first

__all__ = ["FlipReferee"]

_SAID_RULES = {
    "F-11": Msg("only a player with no card left may end the game without a claim"),
    "F-14": Msg("there is no row to claim against yet"),
    "F-16": Msg("that card was turned over already"),
    "hand": Msg("that card is still in the draw pile. It is not in your hand"),
}
"""Refusals said in words of their own where the engine's words name a rule."""

DECK = 60


@dataclass(frozen=True)
class _Before:
    """What the table had out before an undo, to say what to put back."""

    phase: str
    row: tuple[tuple[str, int], ...]  # (card, who played it), as it lay before any claim
    turn: int
    to_move: int
    final: bool
    removed_rows: int
    revealed: bool
    over: bool


class FlipReferee(Referee[FlipABirdState]):
    """Referees Flip a Bird from card taps, the button and keys (see the module's text).

    :param catalogue: the cards (default: the packaged catalogue).
    Other parameters: `upref.referee.base.Referee`.
    """

    GAME: ClassVar[str] = NAME
    TITLE: ClassVar[str] = TITLE
    CATALOGUE: ClassVar[CatalogueFormat | None] = CatalogueFormat(
        load=load_catalogue,
        to_dict=Catalogue.to_dict,
        from_dict=lambda d: parse_catalogue(d, source=str(d.get("source", "game log"))),
    )
    RESULT: ClassVar[ResultWords] = RESULT

    catalogue: Catalogue

    def __init__(self, codes: CodeTable, tag_book: TagLookup | None = None, **settings: Any) -> None:
        super().__init__(codes, tag_book, **settings)
        self._players: tuple[str, ...] = ()
        self._variant = Variant()
        self._scan: list[str] = []
        self._scanning = False
        self._skipped = False
        self._next_up: bool | None = None  # no scan: the face the table entered for the next card
        self._fix: str | None = None  # the correction of the last refusal, until play goes on
        self._confirm: int | None = None  # at the end: the seat tapping its won cards
        self._confirmed: set[str] = set()

    # --- read-only ------------------------------------------------------------------------------

    @property
    def scan_target(self) -> int:
        """How many cards the set-up scan takes (the draw pile's size)."""
        return self._variant.pile_size(len(self._players), DECK) if self._players else 0

    @property
    def scanned(self) -> tuple[str, ...]:
        """The cards tapped so far in the set-up scan, in tap order (secret)."""
        return tuple(self._scan)

    @property
    def confirming(self) -> int | None:
        """At the end: the seat whose won cards are being tapped (None: none now)."""
        return self._confirm

    @property
    def confirmed(self) -> frozenset[str]:
        """At the end: the won cards tapped so far."""
        return frozenset(self._confirmed)

    @property
    def scanning(self) -> bool:
        return self.phase == SETUP and self._scanning

    def piece_name(self) -> str:
        return Msg("card")

    def corrections(self) -> tuple[str, ...]:
        return (self._fix,) if self._fix and self.phase == PLAY else ()

    # --- the game's life ----------------------------------------------------------------------

    def check_start(self, start: StartGame) -> None:
        FlipABirdState.new(
            list(start.players),
            variant=Variant.from_dict(start.variant_data),
            catalogue=self.catalogue,
        )

    def make_engine(self, start: StartGame) -> FlipABirdState:
        return FlipABirdState.new(
            list(start.players),
            pile=self._pile(),
            variant=Variant.from_dict(start.variant_data),
            catalogue=self.catalogue,
        )

    def next_engine(self, engine: FlipABirdState) -> FlipABirdState:
        return engine.next_game(self._pile())

    def _pile(self) -> tuple[str, ...] | None:
        """The draw pile top first from the scan (the last card tapped is the top), or None
        when the scan was skipped."""
        return None if self._skipped else tuple(reversed(self._scan))

    def prepare(self, start: StartGame, out: list[Verdict]) -> None:
        self._players = tuple(start.players)
        self._variant = Variant.from_dict(start.variant_data)
        self._ask_scan(out)

    def prepare_next(self, out: list[Verdict]) -> None:
        eng = self.engine
        self._players, self._variant = eng.players, eng.variant
        self._ask_scan(out)

    def _ask_scan(self, out: list[Verdict]) -> None:
        self._scan = []
        self._scanning = True
        self._skipped = False
        target = self.scan_target
        head = Msg(
            "Set-up: shuffle the {deck} game cards and deal 2 to each player. Then take the "
            "rest one at a time, tap each card on the reader and lay it face down on the "
            "draw pile: the last card tapped is the top.",
            deck=DECK,
        )
        if self._variant.pile is not None:
            head += " " + Msg(
                "Short game: tap {target} cards onto the pile and put the rest back in the box "
                "unseen.",
                target=target,
            )
        tail = Msg(
            "The pile scan takes {target} cards; s skips it (the referee then cannot check "
            "faces or hands).",
            target=target,
        )
        out.append(Verdict(INFO, head + " " + tail, "setup"))

    def on_begin(self) -> None:
        self._scanning = False
        self._next_up = None
        self._fix = None
        self._confirm = None
        self._confirmed = set()

    def engine_verdict(self) -> str:
        eng = self.engine
        text = eng.verdict
        if eng.scanned:
            return text + " " + Msg(
                "The draw pile is known from the scan: the referee says the face each "
                "card must take and checks that it can be in its player's hand. It cannot see "
                "which way up a card lies: if one goes the wrong way, turn it over and press w "
                "(F-16)."
            )
        return text + " " + Msg(
            "No pile scan: the referee cannot see the pile's backs. Press o before "
            "tapping your card when the pile shows an open cage after your draw (without it the "
            "card counts as face down); it cannot check that a card can be in its player's hand."
        )

    def on_stop(self) -> None:
        self._fix = None
        self._confirm = None

    def scores_now(self) -> tuple[int, ...]:
        eng = self.engine
        return tuple(eng.score(s).points for s in range(eng.num_players()))

    def turn_words(self, seat: int) -> str | None:
        phase = self.engine.phase
        name = self.engine.players[seat]
        if phase == "take":
            return Msg("{name}, take a card.", name=name)
        if phase == "tips":
            return None  # every player tips at once
        return super().turn_words(seat)

    def _said_refusal(self, err: IllegalMoveError) -> str:
        eng = self.engine
        seat = eng.current_player()
        who = eng.players[seat] if seat >= 0 else None
        reason = said_reason(err.message, err.rule, _SAID_RULES)
        fix = numbers_in_words(err.correction) if err.correction else None
        return refusal_words(who, numbers_in_words(reason), fix)

    # --- keys -------------------------------------------------------------------------------

    def game_keys(self) -> tuple[KeyOffer, ...]:
        if self.scanning:
            return (KeyOffer("s", Msg("skip the pile scan"), lambda t, _a: Key("skip-scan", t)),)
        if not self.has_engine:
            return ()
        eng = self.engine
        if self.phase == OVER and self._confirm is not None and self.stopped is None:
            name = eng.players[self._confirm]
            return (
                KeyOffer("k", Msg("{name}'s won cards are tapped: next", name=name), lambda t, _a: Key("confirm-next", t)),
            )
        if self.phase != PLAY:
            return ()
        offers: list[KeyOffer] = []
        if eng.phase == "turn":
            if eng.can_claim():
                accused = eng.players[(eng.current_player() - 1) % eng.num_players()]
                offers.append(
                    KeyOffer("c", Msg("claim: too many birds ({name} played last)", name=accused), lambda t, _a: Key("claim", t))
                )
            if eng.can_pass():
                offers.append(
                    KeyOffer("p", Msg("no card, no claim: end the game (F-11)"), lambda t, _a: Key("pass", t))
                )
            if not eng.scanned and eng.public_face() is None:
                if self._next_up:
                    offers.append(
                        KeyOffer("d", Msg("covered cage after all: face down"), lambda t, _a: Key("covered", t))
                    )
                else:
                    offers.append(
                        KeyOffer("o", Msg("open cage after the draw: face up"), lambda t, _a: Key("open", t))
                    )
            if eng.last_play is not None and not eng.row[eng.last_play].flagged:
                offers.append(
                    KeyOffer("w", Msg("the last card went the wrong way (F-16)"), lambda t, _a: Key("wrong-way", t))
                )
        elif eng.phase == "tips":
            tips = eng.tips() or ()
            for seat, tip in enumerate(tips):
                if tip is None:
                    offers.append(self._tip_offer(eng, seat))
        return tuple(offers)

    @staticmethod
    def _tip_offer(eng: FlipABirdState, seat: int) -> KeyOffer:
        name = eng.players[seat]
        return KeyOffer(
            str(seat + 1),
            Msg("{name}'s tip", name=name),
            lambda t, a: Key("tip", t, f"{seat + 1} {a or ''}".strip()),
            prompt=Msg("{name}'s tip card, as revealed (red or green)", name=name),
        )

    def on_key(self, name: str, arg: str | None, out: list[Verdict]) -> bool:
        if name == "skip-scan":
            self._skip(out)
            return True
        if name == "confirm-next":
            self._confirm_next(out)
            return True
        if name not in ("claim", "pass", "wrong-way", "open", "covered", "tip"):
            return False
        if self.phase != PLAY or not self.has_engine:
            out.append(Verdict(INFO, Msg("No game is on: that key waits for one.")))
            return True
        if name == "claim":
            self._act(Claim(), out)
        elif name == "pass":
            self._act(Pass(), out)
        elif name == "wrong-way":
            self._act(WrongWay(), out)
        elif name == "tip":
            self._key_tip(arg, out)
        else:
            self._face_key(name == "open", out)
        return True

    def _skip(self, out: list[Verdict]) -> None:
        if not self.scanning:
            out.append(Verdict(INFO, Msg("No pile scan is on.")))
            return
        tapped = len(self._scan)
        self._skipped = True
        if tapped:
            said = Msg("Pile scan skipped ({cards} tapped so far are forgotten).", cards=cards(tapped))
        else:
            said = Msg("Pile scan skipped.")
        out.append(Verdict(INFO, said, "setup"))
        self.begin(out)

    def _face_key(self, up: bool, out: list[Verdict]) -> None:
        eng = self.engine
        if eng.scanned:
            out.append(
                Verdict(INFO, Msg("No key needed: the referee knows the pile's backs from the scan."))
            )
            return
        if eng.phase != "turn":
            out.append(Verdict(INFO, Msg("No card is to be played now.")))
            return
        forced = eng.public_face()
        if forced is not None:
            why = FINAL_PHASE if eng.final else PILE_EMPTIES
            out.append(Verdict(INFO, Msg("The next card goes face down anyway ({why}).", why=why)))
            return
        self._next_up = up
        name = eng.players[eng.current_player()]
        said = Msg("{name}'s card goes {face} ({why}).", name=name, face=face_word(up), why=cage(up))
        out.append(Verdict(INFO, said))

    def _key_tip(self, arg: str | None, out: list[Verdict]) -> None:
        eng = self.engine
        words = (arg or "").replace(",", " ").split()
        seat = int(words[0]) - 1 if words and words[0].isdigit() else None
        colour = words[1].lower() if len(words) > 1 else ""
        red = {"r": True, "red": True, "g": False, "green": False}.get(colour)
        if seat is None or red is None:
            if seat is not None and 0 <= seat < eng.num_players():
                said = Msg("{name}'s tip was not entered: answer red or green (r or g).", name=eng.players[seat])
            else:
                said = Msg("A player's tip was not entered: answer red or green (r or g).")
            out.append(Verdict(INFO, said))
            return
        self._act(Tip(seat, red), out)

    # --- taps -------------------------------------------------------------------------------

    def on_tap(self, item: str, uid: str, out: list[Verdict]) -> None:
        if self.phase == SETUP:
            if self._scanning:
                self._scan_tap(item, out)
            return
        if not self.has_engine:
            return
        eng = self.engine
        if self.phase == OVER:
            self._confirm_tap(item, out)
            return
        if self.catalogue.is_tip(item):
            tip = self.catalogue.tip(item)
            if eng.phase == "tips":
                self._act(Tip(tip.seat - 1, tip.colour == "red"), out)
            else:
                out.append(
                    Verdict(
                        INFO,
                        Msg(
                            "That is a tip card: tip cards are tapped at a claim, once every tip "
                            "is revealed."
                        ),
                    )
                )
            return
        if item not in self.catalogue:
            out.append(
                Verdict(
                    BOARD,
                    Msg(
                        "Tag {uid} is enrolled as {item}, which is no card of this catalogue: "
                        "enrol it again with upref enroll {game}.",
                        uid=uid,
                        item=repr(item),
                        game=NAME,
                    ),
                    "tag",
                )
            )
            return
        if eng.phase == "take":
            claim = eng.claim_state
            if claim is not None and claim.taken and claim.taken[-1][1] == item:
                out.append(Verdict(INFO, Msg("{card} was just taken: nothing changes.", card=item)))
                return
            self._act(Take(item), out)
            return
        last = eng.last_play
        if eng.phase == "turn" and last is not None and eng.row[last].card == item:
            out.append(
                Verdict(
                    INFO,
                    Msg("That card was just played (position {position}): nothing changes.", position=last + 1),
                )
            )
            return
        face = eng.required_face()
        up = face if face is not None else bool(self._next_up)
        self._act(Play(item, up), out)

    def _scan_tap(self, item: str, out: list[Verdict]) -> None:
        if self.catalogue.is_tip(item):
            out.append(
                Verdict(
                    INFO,
                    Msg(
                        "That is a tip card: keep it in front of you; the pile scan takes game "
                        "cards only."
                    ),
                )
            )
            return
        if item not in self.catalogue:
            out.append(Verdict(BOARD, Msg("{item} is no card of this catalogue.", item=repr(item)), "tag"))
            return
        target = self.scan_target
        if item in self._scan:
            k = self._scan.index(item) + 1
            out.append(
                Verdict(
                    INFO,
                    Msg(
                        "That card was tapped already (card {k} of the scan): tap the next one "
                        "({done} of {target}).",
                        k=k,
                        done=len(self._scan),
                        target=target,
                    ),
                    "setup",
                )
            )
            return
        self._scan.append(item)
        if len(self._scan) < target:
            out.append(
                Verdict(OK, Msg("Pile scan: {done} of {target}.", done=len(self._scan), target=target), "setup")
            )
            return
        out.append(
            Verdict(
                OK, Msg("Pile scan complete: {target} of {target}, the draw pile is known.", target=target), "setup"
            )
        )
        self.begin(out)

    # --- engine calls -------------------------------------------------------------------------

    def _act(self, action: Action, out: list[Verdict]) -> None:
        eng = self.engine
        before_phase = eng.phase
        who = eng.players[eng.current_player()] if eng.current_player() >= 0 else ""
        try:
            text = eng.play(action)
        except IllegalMoveError as err:
            self._fix = err.correction
            said = self._said_refusal(err)
            out.append(Verdict(ILLEGAL, err.message, err.rule, err.correction, spoken=said))
            return
        self.note_play()
        self._fix = None
        if isinstance(action, Play):
            self._next_up = None
            f9 = "(F-9)" in text
            said = Msg("{name} plays a card {face}.", name=who, face=face_word(action.up))
            if f9:
                said += " " + Msg(
                    "The whole row is face up with more birds than the limit: it leaves the game."
                )
            out.append(Verdict(OK, text, "F-9" if f9 else None, spoken=said))
        elif isinstance(action, WrongWay):
            i = eng.last_play
            assert i is not None
            way = face_word(eng.row[i].up)
            self._fix = Msg("Turn the card at position {position} {face}.", position=i + 1, face=way)
            said = numbers_in_words(self._fix)
            out.append(Verdict(INFO, text, "F-16", self._fix, spoken=said))
        elif isinstance(action, Tip) and before_phase == "tips" and eng.phase != "tips":
            self._revealed(out)
        elif isinstance(action, Take) and eng.phase != "take":
            if eng.outcome() is None:
                said = Msg("All the cards are shared. A new row begins: draw and play.")
                out.append(Verdict(TURN, text, spoken=said))
        elif isinstance(action, Pass):
            pass
        else:
            out.append(Verdict(OK, text))
        outcome = eng.outcome()
        if outcome is not None:
            self._ended(action, text, outcome, out)

    def _ended(self, action: Action, text: str, outcome: Outcome, out: list[Verdict]) -> None:
        """The action just played ended the game: say so, and ask for the won cards' taps."""
        if isinstance(action, Take):
            head, end = split_final_claim(text)
            said = Msg(
                "That was the last claim: the game is over. {result}",
                result=self.result_words(outcome),
            )
            out.append(Verdict(OK, head))
            out.append(Verdict(END, end, spoken=said))
        else:
            said = self.over_words(outcome)
            rule = "F-11" if isinstance(action, Pass) else None
            out.append(Verdict(END, text, rule, spoken=said))
        self.note_game_over(outcome)
        self._confirm = 0
        self._confirmed = set()
        out.append(
            Verdict(
                INFO,
                Msg(
                    "To check the scores, tap your won cards, one player after the other, "
                    "{name} first; the button (or k) moves on to the next player.",
                    name=self.engine.players[0],
                ),
            )
        )

    def _revealed(self, out: list[Verdict]) -> None:
        """Every tip is in: say them, then the evaluation step by step, the result and the
        takers."""
        eng = self.engine
        claim = eng.claim_state
        assert claim is not None and claim.evaluation is not None
        ev = claim.evaluation
        names = eng.players
        tips = all_tips(names, claim.tips, claim.claimant, claim.accused)
        out.append(
            Verdict(
                OK,
                Msg("{tips}. Turn the row face up: {cards}.", tips=tips, cards=cards(len(claim.row))),
            )
        )
        for step in ev.steps[:-1]:
            out.append(Verdict(INFO, Msg("Evaluation {step}", step=step)))
        takers = and_join([names[t] for t in claim.takers])
        first = names[claim.takers[0]]
        out.append(
            Verdict(
                SOLVED,
                Msg(
                    "{summary} {share}; {who}. {name}: take a card and tap it.",
                    summary=ev.summary,
                    share=self._share(len(claim.row), len(ev.removed)),
                    who=self._takers(takers, len(claim.takers)),
                    name=first,
                ),
                spoken=self._said_result(ev.total, ev.limit, ev.red_right, takers, len(claim.takers), first),
            )
        )

    @staticmethod
    def _share(n: int, removed: int) -> str:
        if removed:
            return Msg(
                "{cards} to share, {removed} of them taken out by special cards (F-5)",
                cards=cards(n),
                removed=removed,
            )
        return Msg("{cards} to share", cards=cards(n))

    @staticmethod
    def _takers(takers: str, n: int) -> str:
        if n == 1:
            return Msg("{takers} alone was right and takes them all (F-7)", takers=takers)
        return Msg("they take one at a time, counter-clockwise: {takers} (F-6)", takers=takers)

    @staticmethod
    def _said_result(total: int, limit: int, red: bool, takers: str, n: int, first: str) -> str:
        """The claim's result for the ear: 'Nine birds, limit ten: not more than the limit, so
        green is right. Bob and Cy take the cards. Bob, take a card and tap it.'"""
        if red:
            right = Msg(
                "{total} birds, limit {limit}: more than the limit, so red is right.",
                total=total,
                limit=limit,
            )
        else:
            right = Msg(
                "{total} birds, limit {limit}: not more than the limit, so green is right.",
                total=total,
                limit=limit,
            )
        if n == 1:
            take = Msg("{takers} takes the cards.", takers=takers)
        else:
            take = Msg("{takers} take the cards.", takers=takers)
        rest = Msg("{name}, take a card and tap it.", name=first)
        return upper_first(numbers_in_words(right)) + " " + take + " " + rest

    # --- the button ---------------------------------------------------------------------------

    def on_button(self, out: list[Verdict]) -> None:
        if self.phase == OVER and self._confirm is not None and self.stopped is None:
            self._confirm_next(out)
            return
        if self.phase != PLAY or not self.has_engine:
            return
        eng = self.engine
        if eng.phase == "turn":
            self._act(Claim(), out)
        elif eng.phase == "tips":
            out.append(
                Verdict(INFO, Msg("A claim is on already: tap your tip cards (or press your number)."))
            )
        else:
            out.append(Verdict(INFO, Msg("The claimed row is being shared out: tap the card you take.")))

    # --- confirming the scores at the end ---------------------------------------------------------

    def _confirm_tap(self, item: str, out: list[Verdict]) -> None:
        eng = self.engine
        seat = self._confirm
        if seat is None or self.stopped is not None:
            return
        name = eng.players[seat]
        if self.catalogue.is_tip(item) or item not in self.catalogue:
            out.append(Verdict(INFO, Msg("That is no won card: tap game cards only.")))
            return
        mine = [c.id for c in eng.won(seat)]
        if item in self._confirmed:
            out.append(Verdict(INFO, Msg("{card} is confirmed already.", card=item)))
            return
        if item in mine:
            self._confirmed.add(item)
            done = sum(1 for c in mine if c in self._confirmed)
            out.append(
                Verdict(
                    OK,
                    Msg(
                        "{card}: {name}'s, as recorded ({done} of {total}).",
                        card=item,
                        name=name,
                        done=done,
                        total=len(mine),
                    ),
                )
            )
            return
        owner = next(
            (s for s in range(eng.num_players()) if item in [c.id for c in eng.won(s)]), None
        )
        out.append(self._not_theirs(item, name, eng.players[owner] if owner is not None else None))

    @staticmethod
    def _not_theirs(item: str, name: str, owner: str | None) -> Verdict:
        """A card tapped at the end that is not `name`'s by the record: `owner`'s, or no one's."""
        if owner is not None:
            return Verdict(
                ILLEGAL,
                Msg(
                    "{card} is {owner}'s by the referee's record, not {name}'s: the record counts.",
                    card=item,
                    owner=owner,
                    name=name,
                ),
                "score",
                Msg("Give {card} to {owner}.", card=item, owner=owner),
                spoken=Msg(
                    "{name}, no. That card is {owner}'s by the record: give it to them.",
                    name=name,
                    owner=owner,
                ),
            )
        return Verdict(
            ILLEGAL,
            Msg(
                "That card was not won by anyone: by the referee's record it left the game. "
                "It does not count for {name}.",
                name=name,
            ),
            "score",
            Msg("Put it with the cards out of the game."),
            spoken=Msg(
                "{name}, no. That card left the game by the record: put it with the cards "
                "out of the game.",
                name=name,
            ),
        )

    def _confirm_next(self, out: list[Verdict]) -> None:
        seat = self._confirm
        if not self.has_engine or seat is None or self.phase != OVER:
            out.append(Verdict(INFO, Msg("No scores to confirm now.")))
            return
        eng = self.engine
        name = eng.players[seat]
        mine = [c.id for c in eng.won(seat)]
        missing = [c for c in mine if c not in self._confirmed]
        points = eng.score(seat).points
        if missing:
            out.append(self._not_tapped(name, missing, points))
        elif not mine:
            out.append(Verdict(OK, Msg("{name} won no card: 0 points, as recorded.", name=name)))
        else:
            out.append(
                Verdict(
                    OK,
                    Msg(
                        "{name}: all {cards} confirmed, {score} points.",
                        name=name,
                        cards=Plural("{n} won card", "{n} won cards", n=len(mine)),
                        score=eng.score(seat).describe(),
                    ),
                )
            )
        nxt = seat + 1
        self._confirmed = set()
        if nxt < eng.num_players():
            self._confirm = nxt
            out.append(Verdict(INFO, Msg("{name}: tap your won cards.", name=eng.players[nxt])))
        else:
            self._confirm = None
            out.append(Verdict(INFO, Msg("Scores checked against the won cards.")))

    @staticmethod
    def _not_tapped(name: str, missing: list[str], points: int) -> Verdict:
        """A player's won cards by the record that were not tapped: the record counts."""
        won = Plural("{n} won card", "{n} won cards", n=len(missing))
        return Verdict(
            ILLEGAL,
            Msg(
                "{name}: {cards} by the record not tapped: {missing}. The record counts: {points}.",
                name=name,
                cards=won,
                missing=and_join(missing),
                points=Plural("{n} point", "{n} points", n=points),
            ),
            "score",
            Msg("{name}: look for {missing}.", name=name, missing=and_join(missing)),
            spoken=Msg(
                "{name}, by the record {cards} not tapped: the record counts. Look at the screen.",
                name=name,
                cards=numbers_in_words(won),
            ),
        )

    # --- undo ---------------------------------------------------------------------------------

    def turn_start(self) -> int | None:
        eng = self.engine
        if eng.outcome() is None and eng.phase == "turn":
            return eng.turn
        return None

    def turn_in_progress(self) -> bool:
        return True

    def before_undo(self) -> _Before:
        eng = self.engine
        claim = eng.claim_state
        return _Before(
            phase=eng.phase,
            row=tuple((r.card, r.by) for r in (claim.row if claim else eng.row)),
            turn=eng.turn,
            to_move=eng.current_player(),
            final=eng.final,
            removed_rows=len(eng.removed_rows),
            revealed=claim is not None and claim.evaluation is not None,
            over=eng.outcome() is not None,
        )

    def after_undo(self, before: Any) -> list[str]:
        eng = self.engine
        assert isinstance(before, _Before)
        self._fix = None
        self._next_up = None
        self._confirm = None
        self._confirmed = set()
        names = eng.players
        fixes: list[str] = []
        now_row = [(r.card, r.by) for r in eng.row]
        if before.phase in ("tips", "take", "over") and eng.phase == "turn" and before.row == tuple(now_row):
            if before.revealed:
                down = [i for i, r in enumerate(eng.row, start=1) if not r.up]
                lay = Msg("face down again at {places}", places=places(down)) if down else Msg("all face up")
                fixes.append(
                    Msg(
                        "Lay the row out again as it was before the claim ({cards}, {lay}): the "
                        "cards taken go back into it, and everyone takes their tip card back.",
                        cards=cards(len(now_row)),
                        lay=lay,
                    )
                )
            elif before.phase == "tips":
                fixes.append(Msg("The claim is taken back: everyone takes their tip card back."))
            elif before.over:
                fixes.append(Msg("The game goes on: the row and the hands are back as they were."))
            return fixes
        if before.turn > eng.turn and eng.phase == "turn":
            seat = eng.current_player()
            name = names[seat]
            if before.removed_rows > len(eng.removed_rows):
                fixes.append(
                    Msg(
                        "Put the row removed by the all-face-up rule back as it lay ({cards}, face up).",
                        cards=cards(len(now_row)),
                    )
                )
            at = len(now_row) + 1 if len(before.row) > len(now_row) else 1
            played = Msg("position {position}", position=at)
            if before.removed_rows > len(eng.removed_rows):
                played = Msg("the start of the new row")
            if eng.final:
                fixes.append(
                    Msg(
                        "{name}: take the card you played ({played}) back into your hand.",
                        name=name,
                        played=played,
                    )
                )
            else:
                fixes.append(
                    Msg(
                        "{name}: take the card you played ({played}) back into your hand and put "
                        "the card you drew back on top of the draw pile.",
                        name=name,
                        played=played,
                    )
                )
        return fixes

    # --- what the table is waiting for ----------------------------------------------------------

    def waiting_for_game(self) -> str | None:
        if self.phase == SETUP and self._scanning:
            return Msg(
                "Pile scan: {done} of {target} cards tapped. Tap the next card and lay it face "
                "down on the pile (s skips the scan).",
                done=len(self._scan),
                target=self.scan_target,
            )
        if not self.has_engine:
            return None
        eng = self.engine
        if self.phase == OVER:
            if self._confirm is not None and self.stopped is None:
                return Msg(
                    "{name}: tap your won cards to check the score (the button or k: next "
                    "player); or the next game (n).",
                    name=eng.players[self._confirm],
                )
            return Msg("The next game (n), or a new one.")
        if self._fix:
            return self._fix
        names = eng.players
        if eng.phase == "tips":
            tips = eng.tips() or ()
            missing = [names[i] for i, t in enumerate(tips) if t is None]
            keys = and_join([str(i + 1) for i, t in enumerate(tips) if t is None])
            return Msg(
                "Tips from {names}: reveal all at once, then tap your tip card (or press {keys}).",
                names=and_join(missing),
                keys=keys,
            )
        if eng.phase == "take":
            taker = eng.taker()
            claim = eng.claim_state
            assert taker is not None and claim is not None
            return Msg(
                "{name}'s take: take any card of the claimed row and tap it ({cards} left).",
                name=names[taker],
                cards=cards(len(claim.left)),
            )
        seat = eng.current_player()
        name = names[seat]
        if eng.can_pass():
            return Msg(
                "{name} has no card left: claim (c or the button), or p to end the game without "
                "evaluating the row (F-11).",
                name=name,
            )
        if not eng.row:
            return Msg(
                "{name}: draw and play a card to start the row ({face}).",
                name=name,
                face=self._face_words(eng),
            )
        return Msg(
            "{name}: claim (c or the button), or draw and play a card ({face}).",
            name=name,
            face=self._face_words(eng),
        )

    def _face_words(self, eng: FlipABirdState) -> str:
        if eng.final:
            return Msg("face down, no draw: final phase")
        if eng.pile_left <= 1:
            return LAST_OF_PILE
        if eng.scanned:
            return Msg("face up if the pile then shows an open cage, face down if a covered one")
        if self._next_up:
            return Msg("face up, as entered")
        return Msg("press o first if the pile then shows an open cage, else face down")

