"""What's Up: the rules engine.

Model (docs/games/whatsup.md, rulings A-1 ... A-12): thirty double-sided bird cards. At set-up
each card is laid on the table with the side the game's seed picks up; then players take turns,
clockwise. A turn may first place the player's figurine on a table card (once per game), then
must flip one table card. The face now up fits the player's collection when it is the next card
of that colour's row (rows are built 1, then 2, then 3; one row per colour): then the player must
take it into the collection; otherwise it stays on the table with the new face up. The game ends
(checked after every turn, in this order, A-4) when a player has completed the rows the player
count asks for, when three cards or fewer are left on the table (A-2), or after eight turns in a
row without an addition (A-3).

What the referee feeds in: the actions of `actions.py`. `Lay(card)` at set-up (chance: the
engine says which side goes up, from the seed, and the card gets the next place), then, by the
player to move, `Reserve` (the figurine; A-7: it takes nothing), `Flip` (a tap) and `Pass` (A-11).

Hidden information: the side of every table card that lies face down, which is what the players
must remember. `view(None)` shows only the faces up; verdicts and error messages name a table
card's face only as the face up, and never a card's id (an id names both of its sides).

Refusals (`IllegalMoveError.rule`): "A-1" another player's reserved card flipped; "A-8" the card
taken last turn tapped again (it stays in the collection); "A-11" a pass while a card can be
flipped; "collection" a card in a collection tapped; "figurine" a second figurine placement, a
figurine on a card that already carries one, or on a card in a collection; "turn" an action by
a seat not on turn; "setup" a flip before all cards are laid, a card laid twice, a lay after the
set-up; "deck" a card the deck does not have; "over" any action after the end.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from upref.games.base import (
    CHANCE,
    TERMINAL,
    ActionRule,
    IllegalMoveError,
    MatchState,
    Outcome,
    StateField,
)
from upref.games.base import Termination as BaseTermination
from upref.games.whatsup import words
from upref.games.whatsup.actions import (
    Action,
    Flip,
    Lay,
    Pass,
    Reserve,
    action_key,
    format_action,
    parse_action,
)
from upref.games.whatsup.cards import (
    COLOURS,
    COUNTS,
    Card,
    Catalogue,
    Face,
    colour_word,
    face_words,
    load_catalogue,
    row_words,
)
from upref.games.whatsup.position import (
    ON_TABLE,
    SPENT,
    UNUSED,
    WhatsUpDescription,
    check_players,
)
from upref.games.whatsup.position import position as _position
from upref.games.whatsup.variant import GRID_COLUMNS, GRID_ROWS, Variant, grid_cell
from upref.games.whatsup.view import RESULT, CardView, PlayerView, WhatsUpView
from upref.games.whatsup.words import figurine_spent, figurine_stands
from upref.text import Msg

__all__ = [
    "GRID_COLUMNS",
    "GRID_ROWS",
    "NAME",
    "ROWS_TO_WIN",
    "SPENT",
    "STALL_TURNS",
    "TABLE_END",
    "TITLE",
    "UNUSED",
    "Action",
    "CardView",
    "Flip",
    "Lay",
    "Pass",
    "PlayerView",
    "Reserve",
    "Termination",
    "Variant",
    "WhatsUpState",
    "WhatsUpView",
    "action_key",
    "format_action",
    "parse_action",
    "row_words",
]

NAME = "whatsup"
TITLE = "What's Up"
STALL_TURNS = 8
"""Turns in a row without an addition that end the game (A-3)."""
TABLE_END = 3
"""The game ends when this many cards or fewer are left on the table (A-2)."""
ROWS_TO_WIN: Mapping[int, int] = {2: 4, 3: 3, 4: 2}
"""Completed rows that win at once, by number of players."""


class Termination(BaseTermination):
    """Why a game of What's Up ended (`Outcome.termination`)."""

    ROWS = "rows"
    """A player completed the rows the number of players asks for."""
    TABLE = "table"
    """Three cards or fewer are left on the table (A-2)."""
    STALL = "stall"
    """Eight turns in a row without an addition (A-3)."""
    STOPPED = "stopped"
    """The game was stopped early (the referee's end key): the most birds, then the fewest
    cards, lead."""


# --- state -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Core:
    """Everything that changes during a game, per card in catalogue order; never mutated
    (replaced), so a snapshot is just a reference."""

    place: tuple[int, ...]  # 0: not laid yet; else the card's place, 1.. in laying order
    side: tuple[int, ...]  # the side up (0 = a, 1 = b); in a collection, the side that counts
    owner: tuple[int, ...]  # -1: on the table (or not laid); else the seat whose collection
    figurine: tuple[int, ...]  # per seat: UNUSED, SPENT or the index of the card it stands on
    laid: int
    to_move: int
    turn: int
    since: int
    verdict: str
    reserved_now: bool = False
    last_taken: tuple[int, int] | None = None  # (seat, card index) taken on the turn just played
    outcome: Outcome | None = None
    ending: str = ""  # the end of the game, announced in the last action's verdict ('' when none)


@dataclass(frozen=True)
class _Setup:
    """What stays fixed during one game."""

    players: tuple[str, ...]
    catalogue: Catalogue
    variant: Variant
    game_number: int
    history: tuple[Outcome, ...]
    start: tuple[int, ...]  # per card, the side the seed puts up at set-up
    rng_state: tuple[Any, ...] = field(repr=False)


class WhatsUpState(MatchState[Action, Variant, Catalogue]):
    """One game of What's Up. Build it with `WhatsUpState.new(...)` (from the set-up scan on) or
    `WhatsUpState.position(WhatsUpDescription(...))` (a described position, for tests and worked
    examples).

    Seats are 0..n-1 clockwise; seat 0 begins. Scores are birds: the sum of the counts on the
    collected cards (A-5).
    """

    TITLE: ClassVar[str] = TITLE
    def _rule(self, action: object) -> ActionRule:
        """The methods that check and apply `action`, by its type."""
        match action:
            case Lay():
                return ActionRule(self._check_lay, self._do_lay)
            case Reserve():
                return ActionRule(self._check_reserve, self._do_reserve)
            case Flip():
                return ActionRule(self._check_flip, self._do_flip)
            case Pass():
                return ActionRule(self._check_pass, self._do_pass)
        raise self._foreign(action)

    def __init__(self, setup: _Setup, core: _Core) -> None:
        super().__init__()
        self._setup = setup
        self._s = core
        self._cards = setup.catalogue.cards
        self._index = {c.id: i for i, c in enumerate(self._cards)}

    # --- construction ---------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        *,
        rng: random.Random | int = 0,
        variant: Variant | None = None,
        catalogue: Catalogue | None = None,
    ) -> WhatsUpState:
        """A new game at the start of the set-up scan: `players` clockwise from the one who
        begins; the side each card shows when laid comes from `rng` (a `random.Random` or a
        seed).

        :raises ValueError: for fewer than 2 or more than 4 players, or repeated names.
        """
        return cls._start(
            tuple(players),
            rng if isinstance(rng, random.Random) else random.Random(rng),
            variant or Variant(),
            catalogue or load_catalogue(),
            game_number=1,
            history=(),
        )

    @classmethod
    def _start(
        cls,
        players: tuple[str, ...],
        rng: random.Random,
        variant: Variant,
        catalogue: Catalogue,
        *,
        game_number: int,
        history: tuple[Outcome, ...],
    ) -> WhatsUpState:
        check_players(players)
        start = tuple(rng.randrange(2) for _ in catalogue.cards)
        setup = _Setup(players, catalogue, variant, game_number, history, start, rng.getstate())
        n = len(catalogue.cards)
        text = words.lay_out(game_number, variant.describe(), players, n, variant.first_game)
        core = _Core(
            place=(0,) * n,
            side=start,
            owner=(ON_TABLE,) * n,
            figurine=(UNUSED,) * len(players),
            laid=0,
            to_move=0,
            turn=1,
            since=0,
            verdict=text,
        )
        return cls(setup, core)

    @classmethod
    def position(cls, description: WhatsUpDescription) -> WhatsUpState:
        """A position in play, from a description (the rulebook's examples, tests; see
        `WhatsUpDescription` for what each part means).

        :raises ValueError: for a description that does not fit the deck or the rules.
        """
        d = description
        cat = d.catalogue or load_catalogue()
        pos = _position(d, cat)
        names = tuple(d.players)
        rng_state = random.Random(0).getstate()
        setup = _Setup(names, cat, d.variant or Variant(), 1, (), pos.side, rng_state)
        core = _Core(
            place=pos.place,
            side=pos.side,
            owner=pos.owner,
            figurine=pos.figurine,
            laid=len(cat.cards),
            to_move=pos.to_move,
            turn=d.turn,
            since=d.since,
            verdict=Msg("{name}'s turn: flip a card.", name=names[pos.to_move]),
        )
        return cls(setup, core)

    def next_game(self) -> WhatsUpState:
        """The next game of a match: same players, variant and deck; the cards laid out again
        with new sides up (from the match's random generator). This game's outcome, if it is
        over, joins the match history."""
        rng = self._match_rng()
        return self._start(
            self._setup.players,
            rng,
            self._setup.variant,
            self._setup.catalogue,
            game_number=self._setup.game_number + 1,
            history=self._next_history(),
        )

    # --- read-only accessors --------------------------------------------------------------

    @property
    def history(self) -> tuple[Outcome, ...]:
        return self._setup.history

    turn = StateField[int]("The turn being played, 1 for the first turn after the set-up.")
    since = StateField[int]("Turns in a row without an addition (A-3).")
    laid = StateField[int]("Cards laid so far at set-up.")

    @property
    def in_setup(self) -> bool:
        return self._s.outcome is None and self._s.laid < len(self._cards)

    reserved_now = StateField[bool](
        "Whether the player to move has placed the figurine this turn."
    )
    verdict = StateField[str]("The text of the last thing that happened, for the table.")
    ending = StateField[str](
        "The end of the game as the last action announced it ('' when it did not end it)."
    )

    def rows_to_win(self) -> int:
        return ROWS_TO_WIN.get(self.num_players(), len(COLOURS))

    def card(self, card_id: str) -> Card:
        """:raises KeyError: for an id the deck does not have."""
        return self._cards[self._index[card_id]]

    def up(self, card_id: str) -> Face:
        """The face up of a card (in a collection: the face that counts). Secret-free only
        for cards on the table."""
        i = self._index[card_id]
        return self._cards[i].face(self._s.side[i])

    def down(self, card_id: str) -> Face:
        """The face down of a card: hidden information while the card is on the table."""
        i = self._index[card_id]
        return self._cards[i].face(1 - self._s.side[i])

    def place(self, card_id: str) -> int:
        """The card's place (laying order, 1..), 0 before it is laid."""
        return self._s.place[self._index[card_id]]

    def owner(self, card_id: str) -> int | None:
        """The seat whose collection holds the card, or None while it is on the table."""
        o = self._s.owner[self._index[card_id]]
        return None if o == ON_TABLE else o

    def at(self, card_id: str) -> str:
        """Where the card lies, for a verdict: ' (row 2, column 3)' in the first game's
        rectangle, '' otherwise (free placement, or not laid yet)."""
        return self._at(self._index[card_id])

    def is_laid(self, card_id: str) -> bool:
        return self._s.place[self._index[card_id]] > 0

    def table(self) -> tuple[str, ...]:
        """The ids of the cards on the table, by place."""
        return tuple(self._cards[i].id for i in self._on_table())

    def unlaid(self) -> tuple[str, ...]:
        """The cards not laid yet (set-up), in deck order."""
        return tuple(c.id for i, c in enumerate(self._cards) if self._s.place[i] == 0)

    def collection(self, seat: int) -> tuple[str, ...]:
        """The ids of the cards in the seat's collection, in deck order."""
        seat = self._seat(seat)
        return tuple(c.id for i, c in enumerate(self._cards) if self._s.owner[i] == seat)

    def rows(self, seat: int) -> dict[str, tuple[int, ...]]:
        """Colour -> the counts of the cards in that row, ascending (a prefix of 1, 2, 3)."""
        seat = self._seat(seat)
        out: dict[str, list[int]] = {c: [] for c in COLOURS}
        s = self._s
        for i, c in enumerate(self._cards):
            if s.owner[i] == seat:
                f = c.face(s.side[i])
                out[f.colour].append(f.count)
        return {c: tuple(sorted(v)) for c, v in out.items()}

    def birds(self, seat: int) -> int:
        """The sum of the counts on the collected faces (A-5)."""
        return sum(sum(r) for r in self.rows(seat).values())

    def cards_of(self, seat: int) -> int:
        return len(self.collection(seat))

    def completed(self, seat: int) -> tuple[str, ...]:
        """The colours whose row is complete (1, 2, 3)."""
        return tuple(c for c, r in self.rows(seat).items() if len(r) == len(COUNTS))

    def figurine(self, seat: int) -> str | None:
        """The card the seat's figurine stands on, None while unused, 'spent' once back in the
        box."""
        f = self._s.figurine[self._seat(seat)]
        if f == UNUSED:
            return None
        if f == SPENT:
            return "spent"
        return self._cards[f].id

    def figurine_on(self, card_id: str) -> int | None:
        """The seat whose figurine stands on the card, if any."""
        return self._figurine_at(self._index[card_id])

    def _figurine_at(self, i: int) -> int | None:
        for seat, f in enumerate(self._s.figurine):
            if f == i:
                return seat
        return None

    def fits(self, seat: int, face: Face) -> bool:
        """Whether `face` fits the seat's collection: it is the next card of that colour's row
        (a card of 1 bird starts a row the player does not have yet)."""
        return face.count == len(self.rows(seat)[face.colour]) + 1

    def fitting(self, seat: int) -> tuple[Face, ...]:
        """The faces that would fit the seat's collection now."""
        rows = self.rows(seat)
        return tuple(Face(len(r) + 1, c) for c, r in rows.items() if len(r) < len(COUNTS))

    def flippable(self, seat: int) -> tuple[str, ...]:
        """The table cards the seat may flip: those without another player's figurine (A-1)."""
        s = self._s
        others = {f for p, f in enumerate(s.figurine) if f >= 0 and p != seat}
        return tuple(
            self._cards[i].id for i in self._on_table() if i not in others
        )

    def _on_table(self) -> list[int]:
        """Indices of the table cards, by place."""
        s = self._s
        ids = [i for i, p in enumerate(s.place) if p > 0 and s.owner[i] == ON_TABLE]
        ids.sort(key=s.place.__getitem__)
        return ids

    # --- GameState verbs --------------------------------------------------------------------

    def current_player(self) -> int:
        if self._s.outcome is not None:
            return TERMINAL
        if self.in_setup:
            return CHANCE
        return self._s.to_move

    def outcome(self) -> Outcome | None:
        return self._s.outcome

    def legal_actions(self) -> list[Action]:
        """Set-up: a `Lay` of every card not laid yet (chance). A turn: a `Flip` of every card
        the player may flip and, while the figurine is unused, a `Reserve` of every table card
        without a figurine; only a `Pass` when no card can be flipped (A-11). Nothing once the
        game is over. Sorted by `action_key`."""
        s = self._s
        if s.outcome is not None:
            return []
        if self.in_setup:
            return [Lay(cid) for cid in sorted(self.unlaid())]
        seat = s.to_move
        on_table = self._on_table()
        others = {f for p, f in enumerate(s.figurine) if f >= 0 and p != seat}
        ids = sorted(self._cards[i].id for i in on_table if i not in others)
        if not ids:
            return [Pass(seat)]
        flips: list[Action] = [Flip(seat, cid) for cid in ids]
        if s.figurine[seat] == UNUSED:
            taken = {f for f in s.figurine if f >= 0}
            flips += sorted(
                Reserve(seat, self._cards[i].id) for i in on_table if i not in taken
            )
        return flips

    def chance_outcomes(self) -> list[tuple[Lay, float]]:
        """The possible next cards laid, with their probabilities (uniform)."""
        acts = [a for a in self.legal_actions() if isinstance(a, Lay)]
        return [(a, 1.0 / len(acts)) for a in acts]

    def _applicable(self, action: Action) -> bool:
        # `check` accepts exactly the legal actions (the invariant tests hold it to that)
        return self.is_legal(action)

    def _snapshot(self) -> object:
        return self._s

    def _restore(self, snapshot: object) -> None:
        if not isinstance(snapshot, _Core):
            raise TypeError(f"not a What's Up snapshot: {snapshot!r}")
        self._s = snapshot

    def clone(self) -> WhatsUpState:
        other = WhatsUpState(self._setup, self._s)
        other._undo_stack = list(self._undo_stack)
        return other

    # --- rules checks -------------------------------------------------------------------------

    def _known(self, action: Action, card_id: str) -> int:
        i = self._index.get(card_id, -1) if isinstance(card_id, str) else -1
        if i < 0:
            raise IllegalMoveError(
                "deck",
                Msg("{card} is not a card of this {game} deck.", card=repr(card_id), game=TITLE),
                None,
                action,
            )
        return i

    def _on_turn(self, action: Reserve | Flip | Pass) -> None:
        s = self._s
        if self.in_setup:
            raise IllegalMoveError(
                "setup",
                Msg(
                    "The cards are still being laid out ({laid} of {total}): the turns begin once "
                    "every card is on the table.",
                    laid=s.laid,
                    total=len(self._cards),
                ),
                action=action,
            )
        if action.seat != s.to_move:
            raise IllegalMoveError(
                "turn",
                Msg(
                    "It is {name}'s turn, not {other}'s.",
                    name=self._name(s.to_move),
                    other=self._who(action.seat),
                ),
                action=action,
            )

    def _check_lay(self, a: Lay) -> None:
        i = self._known(a, a.card)
        s = self._s
        if not self.in_setup:
            raise IllegalMoveError(
                "setup",
                Msg(
                    "All {total} cards are laid already: a card is laid only at set-up.",
                    total=len(self._cards),
                ),
                action=a,
            )
        if s.place[i] > 0:
            raise IllegalMoveError(
                "setup",
                Msg(
                    "That card is on the table already, {face} up ({where}): tap the next card "
                    "as you lay it ({laid} of {total} laid).",
                    face=self._card_face(i),
                    where=self._where(i),
                    laid=s.laid,
                    total=len(self._cards),
                ),
                action=a,
            )

    def _check_reserve(self, a: Reserve) -> None:
        self._on_turn(a)
        i = self._known(a, a.card)
        s = self._s
        name = self._name(a.seat)
        f = s.figurine[a.seat]
        if f == SPENT:
            raise IllegalMoveError("figurine", figurine_spent(name), action=a)
        if f != UNUSED:
            raise IllegalMoveError("figurine", figurine_stands(name, self._card_face(f)), action=a)
        o = s.owner[i]
        if o != ON_TABLE:
            raise IllegalMoveError(
                "figurine",
                Msg(
                    "That card is in {name}'s collection: a figurine goes on a card on the table.",
                    name=self._name(o),
                ),
                Msg(
                    "Put the figurine on a card on the table and tap that card; put the card back "
                    "in {name}'s collection, {face} up.",
                    name=self._name(o),
                    face=self._card_face(i),
                ),
                a,
            )
        other = self.figurine_on(self._cards[i].id)
        if other is not None:
            raise IllegalMoveError(
                "figurine",
                Msg(
                    "That card already carries {name}'s figurine: only one bird can stand on a "
                    "card.",
                    name=self._name(other),
                ),
                Msg("Put your figurine on another card and tap that card."),
                a,
            )

    def _check_flip(self, a: Flip) -> None:
        self._on_turn(a)
        i = self._known(a, a.card)
        s = self._s
        face = self._card_face(i)
        o = s.owner[i]
        if o != ON_TABLE:
            colour = colour_word(self._cards[i].face(s.side[i]).colour)
            back = Msg(
                "Put it back in {name}'s {colour} row, {face} up.", name=self._name(o), colour=colour, face=face
            )
            if s.last_taken == (o, i):
                raise IllegalMoveError(
                    "A-8",
                    Msg(
                        "That card went into {name}'s collection last turn: a card that fits must "
                        "be taken, and it stays in the collection.",
                        name=self._name(o),
                    ),
                    back,
                    a,
                )
            raise IllegalMoveError(
                "collection",
                Msg(
                    "That card is in {name}'s collection, in the {colour} row: cards never leave a "
                    "collection.",
                    name=self._name(o),
                    colour=colour,
                ),
                back,
                a,
            )
        owner = self.figurine_on(self._cards[i].id)
        if owner is not None and owner != a.seat:
            raise IllegalMoveError(
                "A-1",
                Msg("That card carries {name}'s figurine: only {name} may flip it.", name=self._name(owner)),
                Msg(
                    "Turn it back so that {face} is up again ({name}'s figurine stays on it), then "
                    "flip another card.",
                    face=face,
                    name=self._name(owner),
                ),
                a,
            )

    def _check_pass(self, a: Pass) -> None:
        self._on_turn(a)
        if self.flippable(a.seat):
            raise IllegalMoveError(
                "A-11",
                Msg(
                    "{name} can flip a card: a player passes only when every card on the table "
                    "carries another player's figurine.",
                    name=self._name(a.seat),
                ),
                action=a,
            )

    # --- applying -----------------------------------------------------------------------------

    def _set(self, **changes: Any) -> str:
        self._s = replace(self._s, **changes)
        return self._s.verdict

    def _do_lay(self, a: Lay) -> str:
        s = self._s
        i = self._index[a.card]
        laid = s.laid + 1
        place = s.place[:i] + (laid,) + s.place[i + 1 :]
        self._s = replace(s, place=place, laid=laid)
        total = len(self._cards)
        cell = grid_cell(laid) if self.variant.first_game else None
        text = words.lay(laid, total, cell, self._card_face(i))
        if laid == total:
            text += " " + words.all_laid(total, self._name(s.to_move))
        return self._set(verdict=text, ending="")

    def _do_reserve(self, a: Reserve) -> str:
        s = self._s
        i = self._index[a.card]
        fig = s.figurine[: a.seat] + (i,) + s.figurine[a.seat + 1 :]
        name = self._name(a.seat)
        text = words.reserved(name, self._card_face(i), self._at(i))
        return self._set(figurine=fig, reserved_now=True, verdict=text, ending="")

    def _do_flip(self, a: Flip) -> str:
        s = self._s
        seat = a.seat
        name = self._name(seat)
        i = self._index[a.card]
        side = s.side[: i] + (1 - s.side[i],) + s.side[i + 1 :]
        card = self._cards[i]
        face = card.face(side[i])
        row = self.rows(seat)[face.colour]
        own_figurine = s.figurine[seat] == i
        said = face_words(face)
        text = Msg("{name} flipped a card{at}: {face} up.", name=name, at=self._at(i), face=said)
        if face.count == len(row) + 1:
            owner = s.owner[:i] + (seat,) + s.owner[i + 1 :]
            text += " " + words.fits(name, face, row)
            fig = s.figurine
            if own_figurine:
                fig = fig[:seat] + (SPENT,) + fig[seat + 1 :]
                text += " " + words.figurine_back(name, s.reserved_now)
            self._s = replace(
                s, side=side, owner=owner, figurine=fig, since=0, last_taken=(seat, i)
            )
        else:
            since = s.since + 1
            text += " " + Msg("It does not fit: {why}.", why=words.why_not(name, face, row))
            cell = grid_cell(s.place[i]) if self.variant.first_game else None
            text += " " + words.stays(name, said, cell)
            if own_figurine:
                text += " " + Msg("{name}'s figurine stays on it (A-9).", name=name)
            text += " " + words.without_addition(since, STALL_TURNS)
            self._s = replace(s, side=side, since=since, last_taken=None)
        return self._after_turn(seat, text)

    def _do_pass(self, a: Pass) -> str:
        s = self._s
        since = s.since + 1
        name = self._name(a.seat)
        text = words.passes(name, since, STALL_TURNS)
        self._s = replace(s, since=since, last_taken=None)
        return self._after_turn(a.seat, text)

    def _after_turn(self, seat: int, text: str) -> str:
        """The end conditions in the ruled order (A-4), then the turn passes clockwise."""
        s = self._s
        name = self._name(seat)
        done = self.completed(seat)
        need = self.rows_to_win()
        left = len(self.table())
        ending: str = ""
        termination: Termination | None = None
        if len(done) >= need:
            termination = Termination.ROWS
            ending = words.rows_done(name, done, self.num_players(), need)
        elif left <= TABLE_END:
            termination = Termination.TABLE
            ending = words.table_left(left)
        elif s.since >= STALL_TURNS:
            termination = Termination.STALL
            ending = words.stalled(STALL_TURNS)
        if termination is not None:
            out = self._make_outcome(termination, seat)
            ending += " " + self._result_text(out)
            if termination is not Termination.ROWS:
                ending += " " + self._tiebreak_text(out)
            ending += "."
            return self._set(outcome=out, reserved_now=False, verdict=text + " " + ending, ending=ending)
        nxt = (seat + 1) % self.num_players()
        text += " " + Msg("{name}'s turn.", name=self._name(nxt))
        self._s = replace(s, to_move=nxt, turn=s.turn + 1, reserved_now=False)
        if not self.flippable(nxt):
            text += " " + words.must_pass(self._name(nxt))
        return self._set(verdict=text, ending="")

    def _make_outcome(self, termination: Termination, seat: int) -> Outcome:
        n = self.num_players()
        birds = tuple(self.birds(p) for p in range(n))
        if termination is Termination.ROWS:
            return Outcome(termination, (seat,), birds)
        return Outcome(termination, self.leaders(), birds)

    def leaders(self) -> tuple[int, ...]:
        """The seats ahead now: the most birds, then the fewest cards; several on a tie (A-5)."""
        n = self.num_players()
        birds = [self.birds(p) for p in range(n)]
        best = max(birds)
        top = [p for p in range(n) if birds[p] == best]
        cards = {p: self.cards_of(p) for p in top}
        fewest = min(cards.values())
        return tuple(p for p in top if cards[p] == fewest)

    def _result_text(self, out: Outcome) -> str:
        names = [self._name(w) for w in out.winners]
        best = out.scores[out.winners[0]] if out.winners else 0
        if out.termination == Termination.ROWS:
            return Msg("{name} wins", name=names[0])
        return RESULT.text(names, best, self.cards_of(out.winners[0]))

    def _tiebreak_text(self, out: Outcome) -> str:
        """Birds of everyone and, where the most birds are tied, the cards (A-5)."""
        n = self.num_players()
        birds = ", ".join(f"{self._name(p)} {out.scores[p]}" for p in range(n))
        best = max(out.scores)
        top = [p for p in range(n) if out.scores[p] == best]
        cards = ", ".join(f"{self._name(p)} {self.cards_of(p)}" for p in top) if len(top) > 1 else None
        return words.tiebreak(birds, cards)

    # --- the view -----------------------------------------------------------------------------

    def view(self, seat: int | None) -> WhatsUpView:
        """What everyone at the table sees (the same for one seat, with `seat` set): the face
        up of each table card, never its other side nor its id."""
        s = self._s
        names = self._setup.players
        if seat is not None:
            seat = self._seat(seat)
        phase = "over" if s.outcome is not None else "setup" if self.in_setup else "turn"
        first = self.variant.first_game
        table = tuple(
            CardView.laid(s.place[i], self._cards[i].face(s.side[i]), self._figurine_at(i), first)
            for i in self._on_table()
        )
        players = []
        for p, name in enumerate(names):
            f = s.figurine[p]
            state = "unused" if f == UNUSED else "spent" if f == SPENT else "placed"
            on = s.place[f] if f >= 0 else None
            players.append(PlayerView.of(p, name, self.rows(p), state, on, self.fitting(p)))
        return WhatsUpView(
            game=NAME,
            game_number=self._setup.game_number,
            names=names,
            phase=phase,
            to_move=None if phase == "over" else s.to_move,
            outcome=s.outcome,
            verdict=s.verdict,
            seat=seat,
            variant=self.variant.describe(),
            first_game=first,
            turn=s.turn,
            laid=s.laid,
            deck=len(self._cards),
            table=table,
            players=tuple(players),
            since=s.since,
            stall_turns=STALL_TURNS,
            table_end=TABLE_END,
            rows_to_win=self.rows_to_win(),
            reserved_now=s.reserved_now,
            history=self._setup.history,
        )

    def __repr__(self) -> str:
        s = self._s
        who = (
            "over"
            if s.outcome is not None
            else f"set-up {s.laid}/{len(self._cards)}"
            if self.in_setup
            else f"to move: seat {s.to_move}"
        )
        return (
            f"<WhatsUpState game {self._setup.game_number} turn {s.turn} {who} "
            f"table {len(self.table())} since {s.since}>"
        )

    # --- helpers ------------------------------------------------------------------------------


    def _name(self, seat: int) -> str:
        return self._setup.players[seat]

    def _who(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < self.num_players():
            return self._name(seat)
        return Msg("seat {seat}", seat=repr(seat))

    def _card_face(self, i: int) -> str:
        return face_words(self._cards[i].face(self._s.side[i]))

    def _at(self, i: int) -> str:
        """' (row 2, column 3)' in the first game; '' otherwise."""
        if not self.variant.first_game or self._s.place[i] == 0:
            return ""
        r, c = grid_cell(self._s.place[i])
        return " " + Msg("(row {row}, column {column})", row=r, column=c)

    def _where(self, i: int) -> str:
        p = self._s.place[i]
        if self.variant.first_game:
            r, c = grid_cell(p)
            return Msg("card {place}, row {row}, column {column}", place=p, row=r, column=c)
        return Msg("card {place}", place=p)

