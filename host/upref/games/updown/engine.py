"""Up And Down (moles): the rules engine. The actions and their text form are in `actions`, the
views in `view`, the board and its builders in `position`, the variants in `variant`; this module
keeps the rules (and exports those names too).

Model (docs/games/updown.md, rulings M-1 ... M-13): ten holes, each holding one mole pair with one
colour hidden in the hole and the other up; a stack of secret task cards; each player's current
card and won cards. A turn turns exactly three different pairs in their own holes; then only the
active player's card is checked on the board.

What the referee feeds in (all actions are frozen dataclasses):

- `DrawTask(seat, card)`: a chance action, a task card drawn by `seat` (the card tapped on the
  reader, or `deal_action()` when no reader is used);
- `Reinsert(from_hole, to_hole, pair, hidden)`: the pair pulled out of `from_hole` (its own hole)
  was put into `to_hole` with colour `hidden` down;
- `EndTurn(empty_holes=())`: the player ends the turn; `empty_holes` are the holes the referee
  sees empty at that moment (the turn cannot end while any is, ruling M-4).

Hidden information: the hidden colour of every pair (so also the pair ids, which name both
colours) and every unsolved task card. `view(None)` shows neither; verdicts and error messages
name a hole's colour only while it is up, and a pair only by its hole.

Refusals (`IllegalMoveError.rule`): "M-1" a pair turned twice in a turn, a fourth pair turned,
or the turn ended with fewer than three pairs turned; "M-2" a pair put into another hole; "M-4"
the turn ended with a hole empty; "M-11" a card removed at setup drawn; "draw" a card drawn out
of turn, off the stack or below the top shovel group, or a turn action while a card is due;
"setup" a card the variant leaves out; "over" any action after the end; "sensor" a report that
does not fit the board (unknown hole, another pair than the one in that hole).

Decisions where the rules are silent: a pair put back unturned is accepted and changes nothing
(M-3) but is not in `legal_actions()`; a fourth flip is refused (the turn is over once three
pairs are turned; the referee ends it when every hole is filled); a drawn card must come from
the stack's top shovel group (the stack is sorted by shovels); the Mole Mix counter counts the
solved cards after which the game goes on; the short-game target ends the game before the
solver draws; `returns()` shares 1 among the winners.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from upref.games import base
from upref.games.base import (
    CHANCE,
    TERMINAL,
    ActionRule,
    IllegalMoveError,
    MatchState,
    Outcome,
    StateField,
)
from upref.games.updown.actions import (
    Action,
    DrawTask,
    EndTurn,
    Reinsert,
    format_action,
    parse_action,
)
from upref.games.updown.cards import (
    COLOURS,
    Catalogue,
    TaskCard,
    colour_name,
    colour_word,
    load_catalogue,
    pair_colours,
    validate_card,
)
from upref.games.updown.position import HOLES, Board, PairEnd, make_board, mix_board
from upref.games.updown.solver import Hint, analyse, hint, mask_of
from upref.games.updown.variant import Variant
from upref.games.updown.view import RESULT, CardView, HoleView, PlayerView, UpDownView
from upref.games.updown.words import NO_DRAW, card_solved, drew, move_back, turn_back
from upref.text import Msg, Plural, and_join, join_words

__all__ = [
    "CardView",
    "FLIPS_PER_TURN",
    "HoleView",
    "NAME",
    "PlayerView",
    "TITLE",
    "UpDownView",
    "HOLES",
    "Action",
    "Board",
    "DrawTask",
    "EndTurn",
    "Hint",
    "PairEnd",
    "Reinsert",
    "Termination",
    "UpDownState",
    "Variant",
    "format_action",
    "load_catalogue",
    "make_board",
    "mix_board",
    "parse_action",
    "validate_card",
]

NAME = "updown"
TITLE = "Up And Down"
FLIPS_PER_TURN = 3
_MORE_PAIRS = (
    Msg("no more different pairs"),
    Msg("one more different pair"),
    Msg("two more different pairs"),
    Msg("three more different pairs"),
)
"""'turn one more different pair': the flips still missing, in words."""


class Termination(base.Termination):
    """Why a game of Up And Down ended (the values are what game logs hold)."""

    STACK_EMPTY = "stack-empty"
    """A player who solved a card had to draw and the stack was empty (M-5)."""
    TARGET = "short-game-target"
    """A player solved the agreed number of cards (short game, M-12)."""
    STOPPED = "stopped"
    """The table ended the game early (the `e` key): most shovels wins."""


def _setup_words(
    game_number: int,
    variant: Variant,
    players: Sequence[str],
    removed: Sequence[tuple[str, str]],
) -> str:
    """What a new game says: its number and variant, the players, the cards removed at setup
    (M-11), who draws first."""
    parts = [
        Msg(
            "Game {number} ({variant}): {players}.",
            number=game_number,
            variant=variant.describe(),
            players=and_join(list(players)),
        )
    ]
    for cid, reason in removed:
        parts.append(" " + Msg("Card {card} removed from the stack (M-11): {reason}.", card=cid, reason=reason))
    parts.append(" " + Msg("Each player draws a task card, {name} first.", name=players[0]))
    return join_words("", parts)


# --- state ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Core:
    """Everything that changes during a game; never mutated (replaced), so a snapshot is
    just a reference."""

    holes: Board
    stack: tuple[str, ...]  # top first
    tasks: tuple[str | None, ...]  # each seat's current secret card
    won: tuple[tuple[str, ...], ...]
    to_move: int
    drawing: tuple[int, ...]  # seats that must draw a card before play goes on (chance)
    turned: tuple[int, ...]  # holes turned this turn, in order
    turn: int  # number of the turn in progress, from 1
    rotations: int  # Mole Mix: box turns so far
    outcome: Outcome | None
    verdict: str


@dataclass(frozen=True)
class _Setup:
    """What stays fixed during one game."""

    players: tuple[str, ...]
    catalogue: Catalogue
    variant: Variant
    game_number: int
    set_aside: tuple[str, ...]  # cards the variant leaves in the box
    removed: tuple[tuple[str, str], ...]  # M-11: impossible cards, with the reason
    history: tuple[Outcome, ...]  # earlier games of this match
    rng_state: tuple[Any, ...] = field(repr=False)  # for the next game's mixing and shuffling


class UpDownState(MatchState[Action, Variant, Catalogue]):
    """One game of Up And Down. Build it with `UpDownState.new(...)`.

    Seats are 0..n-1 in clockwise order, seat 0 (the youngest) begins (M-9). Scores are
    shovels; the player(s) with the most shovels win, a tie is a shared win (M-8).
    """

    TITLE: ClassVar[str] = TITLE

    def _rule(self, action: object) -> ActionRule:
        """The methods that check and apply `action`, by its type."""
        match action:
            case DrawTask():
                return ActionRule(self._check_draw, self._do_draw)
            case Reinsert():
                return ActionRule(self._check_reinsert, self._do_reinsert)
            case EndTurn():
                return ActionRule(self._check_end, self._do_end)
        raise self._foreign(action)

    def __init__(self, setup: _Setup, core: _Core) -> None:
        super().__init__()
        self._setup = setup
        self._s = core

    # --- construction ----------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        board: Sequence[tuple[str, str]] | Mapping[int, tuple[str, str]] | None = None,
        *,
        rng: random.Random | int = 0,
        variant: Variant | None = None,
        catalogue: Catalogue | None = None,
    ) -> UpDownState:
        """A new game: `players` clockwise from the youngest; `board` as the sensors read it
        (else mixed from `rng`); the stack sorted by shovels as the rulebook says and shuffled
        within each shovel group by `rng` (a `random.Random` or a seed). Cards the catalogue
        marks impossible are removed and reported (M-11). Every player then draws a card:
        chance actions, in seat order.

        :raises ValueError: for no players, repeated names, a bad board, or a stack too small
            to give every player a card.
        """
        return cls._start(
            tuple(players),
            board,
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
        board: Sequence[tuple[str, str]] | Mapping[int, tuple[str, str]] | None,
        rng: random.Random,
        variant: Variant,
        catalogue: Catalogue,
        *,
        game_number: int,
        history: tuple[Outcome, ...],
    ) -> UpDownState:
        if not players:
            raise ValueError(Msg("Up And Down needs at least one player"))
        if any(not isinstance(p, str) or not p.strip() for p in players):
            raise ValueError(Msg("player names must be non-empty text: {names!r}", names=players))
        if len(set(players)) != len(players):
            raise ValueError(Msg("player names must differ: {names!r}", names=players))
        holes = mix_board(rng) if board is None else make_board(board)

        # Stack, top first: basic 1, 2, 3 (4 set aside); Super Buddler 2, 3, 4 (1 set aside).
        order = (2, 3, 4) if variant.super_buddler else (1, 2, 3)
        stack: list[str] = []
        for shovels in order:
            group = sorted(c.id for c in catalogue.cards if c.shovels == shovels)
            rng.shuffle(group)
            stack.extend(group)
        set_aside = tuple(sorted(c.id for c in catalogue.cards if c.shovels not in order))
        removed = tuple((c.id, reason) for c, reason in catalogue.impossible)
        if len(stack) < len(players):
            raise ValueError(
                Msg(
                    "{cards} task cards cannot give each of {n} players a card",
                    cards=len(stack),
                    n=len(players),
                )
            )
        setup = _Setup(
            players, catalogue, variant, game_number, set_aside, removed, history, rng.getstate()
        )
        n = len(players)
        text = _setup_words(game_number, variant, players, removed)
        core = _Core(
            holes=holes,
            stack=tuple(stack),
            tasks=(None,) * n,
            won=((),) * n,
            to_move=0,
            drawing=tuple(range(n)),
            turned=(),
            turn=1,
            rotations=0,
            outcome=None,
            verdict=text,
        )
        return cls(setup, core)

    def next_game(
        self, board: Sequence[tuple[str, str]] | Mapping[int, tuple[str, str]] | None = None
    ) -> UpDownState:
        """The next game of a match: same players, variant and catalogue; the pairs re-mixed
        (`board` from the sensors, else mixed by the match's random generator); a fresh stack.
        This game's outcome, if it is over, joins the match history."""
        rng = self._match_rng()
        return self._start(
            self._setup.players,
            board,
            rng,
            self._setup.variant,
            self._setup.catalogue,
            game_number=self._setup.game_number + 1,
            history=self._next_history(),
        )

    # --- read-only accessors ---------------------------------------------------------------

    @property
    def history(self) -> tuple[Outcome, ...]:
        """Outcomes of the earlier games of this match."""
        return self._setup.history

    @property
    def removed_cards(self) -> tuple[tuple[str, str], ...]:
        """Cards removed at setup as impossible (M-11), with the reason."""
        return self._setup.removed

    @property
    def set_aside(self) -> tuple[str, ...]:
        """Cards the variant leaves out (4-shovel in the basic game, 1-shovel in Super Buddler)."""
        return self._setup.set_aside

    board = StateField[Board](
        "The referee's board (holes 1..10). Holds hidden colours: not for public views.",
        source="holes",
    )
    stack = StateField[tuple[str, ...]]("The face-down stack, top first (secret).")
    turned = StateField[tuple[int, ...]]("Holes turned this turn, in order.")
    turn = StateField[int]("The number of the turn in progress, from 1.")
    rotations = StateField[int](
        "Mole Mix: how often the box has been turned by one corner (display only, M-10)."
    )
    verdict = StateField[str]("The text for the table about the last thing that happened.")

    def task(self, seat: int) -> TaskCard | None:
        """The seat's current secret task card (None between solving and drawing)."""
        cid = self._s.tasks[self._seat(seat)]
        return None if cid is None else self.catalogue.card(cid)

    def won(self, seat: int) -> tuple[TaskCard, ...]:
        return tuple(self.catalogue.card(c) for c in self._s.won[self._seat(seat)])

    def shovels(self, seat: int) -> int:
        return sum(c.shovels for c in self.won(seat))

    def visible(self) -> tuple[str, ...]:
        """The colour up in each hole, holes 1..10."""
        return tuple(e.visible for e in self._s.holes)

    def visible_counts(self) -> dict[str, int]:
        """Visible moles per colour letter (always ten in all)."""
        counts = dict.fromkeys(COLOURS, 0)
        for e in self._s.holes:
            counts[e.visible] += 1
        return counts

    def orientation(self) -> int:
        """The board as the solver's orientation mask."""
        return mask_of(self._s.holes)

    # --- GameState verbs -------------------------------------------------------------------

    def current_player(self) -> int:
        if self._s.outcome is not None:
            return TERMINAL
        if self._s.drawing:
            return CHANCE
        return self._s.to_move

    def outcome(self) -> Outcome | None:
        return self._s.outcome

    def legal_actions(self) -> list[Action]:
        """While a card is due: a `DrawTask` for every card of the stack's top shovel group;
        in a turn: one flip (`Reinsert(h, h, pair, other end)`) per pair not turned yet while
        fewer than three are turned, then only `EndTurn()`; nothing once the game is over.
        (`play` also accepts re-inserting a pair unturned, which changes nothing, M-3.)"""
        s = self._s
        if s.outcome is not None:
            return []
        if s.drawing:
            return [DrawTask(s.drawing[0], c) for c in sorted(self._top_group())]
        if len(s.turned) >= FLIPS_PER_TURN:
            return [EndTurn()]
        return [
            Reinsert(h, h, e.pair, e.visible)
            for h, e in enumerate(s.holes, start=1)
            if h not in s.turned
        ]

    def chance_outcomes(self) -> list[tuple[DrawTask, float]]:
        """The possible draws with their probabilities (uniform over the top shovel group)."""
        acts = self.legal_actions() if self._s.drawing else []
        return [(a, 1.0 / len(acts)) for a in acts if isinstance(a, DrawTask)]

    def deal_action(self) -> DrawTask:
        """The draw of the top card of the engine's own stack order, for play without a
        reader.

        :raises IllegalMoveError: (rule "draw") when no card is due.
        """
        s = self._s
        if s.outcome is not None or not s.drawing:
            raise IllegalMoveError("draw", NO_DRAW)
        return DrawTask(s.drawing[0], s.stack[0])

    def _applicable(self, action: Action) -> bool:
        return action in self.legal_actions() or (
            isinstance(action, Reinsert) and self._is_unturned(action)
        )

    def _snapshot(self) -> object:
        return self._s

    def _restore(self, snapshot: object) -> None:
        if not isinstance(snapshot, _Core):
            raise TypeError(f"not an Up And Down snapshot: {snapshot!r}")
        self._s = snapshot

    def clone(self) -> UpDownState:
        other = UpDownState(self._setup, self._s)
        other._undo_stack = list(self._undo_stack)
        return other

    # --- rules checks ----------------------------------------------------------------------

    def _check_draw(self, a: DrawTask) -> None:
        s = self._s
        if not s.drawing:
            raise IllegalMoveError(
                "draw",
                Msg(
                    "No task card is to be drawn now: it is {name}'s turn.",
                    name=self._name(s.to_move),
                ),
                Msg("Put the card back where it was."),
                a,
            )
        due = s.drawing[0]
        if a.seat != due:
            raise IllegalMoveError(
                "draw",
                Msg(
                    "It is {name}'s turn to draw a task card, not {other}'s.",
                    name=self._name(due),
                    other=self._who(a.seat),
                ),
                None,
                a,
            )
        self._check_drawn_card(a)

    def _check_drawn_card(self, a: DrawTask) -> None:
        """The card drawn by the right seat: a task card of this game, still on the stack, of
        the shovels on top (M-11: never one removed at setup)."""
        if a.card not in self.catalogue:
            raise IllegalMoveError(
                "draw", Msg("Card {card!r} is not an Up And Down task card.", card=a.card), None, a
            )
        for cid, reason in self._setup.removed:
            if cid == a.card:
                raise IllegalMoveError(
                    "M-11",
                    Msg(
                        "Card {card} was removed at setup because no board can solve it: {reason}.",
                        card=cid,
                        reason=reason,
                    ),
                    Msg("Put card {card} back in the box and draw another.", card=cid),
                    a,
                )
        if a.card in self._setup.set_aside:
            raise IllegalMoveError(
                "setup",
                Msg(
                    "Card {card} is not played in this game ({variant}).",
                    card=a.card,
                    variant=self.variant.describe(),
                ),
                Msg("Put card {card} back in the box and draw from the stack.", card=a.card),
                a,
            )
        self._check_in_play(a)

    def _check_in_play(self, a: DrawTask) -> None:
        """The card drawn is still on the stack (not won, not someone's), of the shovels on
        top."""
        s = self._s
        for seat, won in enumerate(s.won):
            if a.card in won:
                raise IllegalMoveError(
                    "draw",
                    Msg("Card {card} was already won by {name}.", card=a.card, name=self._name(seat)),
                    Msg(
                        "Give card {card} back to {name} and draw from the stack.",
                        card=a.card,
                        name=self._name(seat),
                    ),
                    a,
                )
        if a.card not in s.stack:
            # Someone's secret card: do not say whose.
            raise IllegalMoveError(
                "draw",
                Msg("That card is not on the stack."),
                Msg("Give it back and draw the top card of the stack."),
                a,
            )
        shovels = self.catalogue.card(a.card).shovels
        top = self.catalogue.card(s.stack[0]).shovels
        if shovels != top:
            raise IllegalMoveError(
                "draw",
                Msg(
                    "That card has {shovels} shovels, but the {top}-shovel cards lie on top of "
                    "the stack.",
                    shovels=shovels,
                    top=top,
                ),
                Msg("Put it back in its place and draw the top card of the stack."),
                a,
            )

    def _check_reinsert(self, a: Reinsert) -> None:
        s = self._s
        if s.drawing:
            raise IllegalMoveError(
                "draw",
                Msg(
                    "{name} must draw a task card before any pair is turned.",
                    name=self._name(s.drawing[0]),
                ),
                Msg("Put the pair back as it was."),
                a,
            )
        for h in (a.from_hole, a.to_hole):
            if not (isinstance(h, int) and 1 <= h <= HOLES):
                raise IllegalMoveError("sensor", _no_hole(h), None, a)
        home = s.holes[a.from_hole - 1]
        if a.pair != home.pair or a.hidden not in pair_colours(home.pair):
            raise IllegalMoveError(
                "sensor",
                Msg(
                    "The pair reported from hole {hole} is not the pair the referee has "
                    "there: check that every pair sits in its own hole.",
                    hole=a.from_hole,
                ),
                None,
                a,
            )
        # the words name what the hole shows now (the reinserted end's other colour) and what
        # puts it right (the colour the game has there)
        up = colour_word(home.visible)
        now = colour_word(PairEnd(home.pair, a.hidden).visible)
        h = a.from_hole
        if a.to_hole != h:
            raise IllegalMoveError(
                "M-2",
                Msg(
                    "The pair from hole {hole} went into hole {to} ({now} up now), but a pair "
                    "must go back into its own molehill: put it back in hole {hole}.",
                    hole=h,
                    to=a.to_hole,
                    now=now,
                ),
                move_back(a.to_hole, h),
                a,
            )
        if a.hidden == home.hidden:
            return  # not turned: allowed, changes nothing (M-3)
        self._check_flip(a, up, now)

    def _check_flip(self, a: Reinsert, up: str, now: str) -> None:
        """A pair turned in its own hole: not one turned already, not a fourth (M-1)."""
        s = self._s
        h = a.from_hole
        back = turn_back(h, up)
        if h in s.turned:
            raise IllegalMoveError(
                "M-1",
                Msg(
                    "Hole {hole} shows {now} now, but its pair was already turned this turn, and "
                    "a turn needs three different pairs: turn it back so that {up} is up again, "
                    "and choose another pair.",
                    hole=h,
                    now=now,
                    up=up,
                ),
                back,
                a,
            )
        if len(s.turned) >= FLIPS_PER_TURN:
            raise IllegalMoveError(
                "M-1",
                Msg(
                    "Three pairs are turned already (holes {turned}): hole {hole} shows {now} "
                    "now, but its pair may not be turned as well. Turn the pair in hole {hole} "
                    "back so that {up} is up again, and end the turn.",
                    turned=and_join([str(t) for t in s.turned]),
                    hole=h,
                    now=now,
                    up=up,
                ),
                back,
                a,
            )

    def _check_end(self, a: EndTurn) -> None:
        s = self._s
        if s.drawing:
            raise IllegalMoveError(
                "draw",
                Msg("{name} must draw a task card first.", name=self._name(s.drawing[0])),
                None,
                a,
            )
        bad = [h for h in a.empty_holes if not (isinstance(h, int) and 1 <= h <= HOLES)]
        if bad:
            raise IllegalMoveError(
                "sensor", _no_hole(bad[0]), None, a
            )
        if a.empty_holes:
            holes = sorted(set(a.empty_holes))
            which = and_join([str(h) for h in holes])
            raise IllegalMoveError(
                "M-4",
                Plural(
                    "Hole {holes} is empty: every molehill needs its pair before the turn can end.",
                    "Holes {holes} are empty: every molehill needs its pair before the turn can end.",
                    n=len(holes),
                    holes=which,
                ),
                Plural(
                    "Put the pair back into hole {holes}.",
                    "Put the pairs back into holes {holes}.",
                    n=len(holes),
                    holes=which,
                ),
                a,
            )
        n = len(s.turned)
        if n < FLIPS_PER_TURN:
            more = _MORE_PAIRS[FLIPS_PER_TURN - n]
            if n == 0:
                text = Msg(
                    "No pair turned yet: every turn needs three different pairs turned, even "
                    "when the card already matches."
                )
                fix = Msg("Turn three different pairs.")
            else:
                text = Msg(
                    "Only {n} of {of} pairs turned: turn {more}.", n=n, of=FLIPS_PER_TURN, more=more
                )
                fix = Msg("Turn {more}.", more=more)
            raise IllegalMoveError("M-1", text, fix, a)

    def _is_unturned(self, a: Reinsert) -> bool:
        """A pair put back into its own hole unturned, in a turn (M-3)."""
        s = self._s
        if s.outcome is not None or s.drawing:
            return False
        if not (isinstance(a.from_hole, int) and 1 <= a.from_hole <= HOLES):
            return False
        home = s.holes[a.from_hole - 1]
        return a.to_hole == a.from_hole and (a.pair, a.hidden) == (home.pair, home.hidden)

    # --- applying --------------------------------------------------------------------------

    def _set(self, **changes: Any) -> str:
        self._s = replace(self._s, **changes)
        return self._s.verdict

    def _do_draw(self, a: DrawTask) -> str:
        s = self._s
        stack = list(s.stack)
        stack.remove(a.card)
        tasks = list(s.tasks)
        tasks[a.seat] = a.card
        drawing = s.drawing[1:]
        text = drew(self._name(a.seat))
        if not drawing:
            text += " " + Msg("{name}'s turn: turn three different pairs.", name=self._name(s.to_move))
        return self._set(stack=tuple(stack), tasks=tuple(tasks), drawing=drawing, verdict=text)

    def _do_reinsert(self, a: Reinsert) -> str:
        s = self._s
        h = a.from_hole
        home = s.holes[h - 1]
        n = len(s.turned)
        if a.hidden == home.hidden:  # M-3
            args = {"hole": h, "up": colour_word(home.visible), "n": n, "of": FLIPS_PER_TURN}
            if h in s.turned:
                text = Msg(
                    "Hole {hole} ({up} up) was put back as it was: it still counts once "
                    "({n} of {of}).",
                    **args,
                )
            else:
                text = Msg(
                    "Hole {hole} ({up} up) was put back without turning: not turned, does not "
                    "count ({n} of {of}).",
                    **args,
                )
            return self._set(verdict=text)
        new = PairEnd(home.pair, a.hidden)
        holes = s.holes[: h - 1] + (new,) + s.holes[h:]
        turned = s.turned + (h,)
        text: str = Msg(
            "Hole {hole} turned: {up} up ({n} of {of}).",
            hole=h,
            up=colour_word(new.visible),
            n=len(turned),
            of=FLIPS_PER_TURN,
        )
        if len(turned) == FLIPS_PER_TURN:
            text += " " + CAN_END
        return self._set(holes=holes, turned=turned, verdict=text)

    def _do_end(self, a: EndTurn) -> str:
        s = self._s
        seat = s.to_move
        n = self.num_players()
        nxt = (seat + 1) % n
        name = self._name(seat)
        cid = s.tasks[seat]
        card = None if cid is None else self.catalogue.card(cid)
        # M-6: only the active player's card is checked; M-7: the referee's check decides.
        if card is None or not card.is_satisfied(self.visible_counts()):
            return self._set(
                to_move=nxt,
                turned=(),
                turn=s.turn + 1,
                verdict=Msg(
                    "{name}'s card does not match yet. {next}'s turn.", name=name, next=self._name(nxt)
                ),
            )
        won = list(s.won)
        won[seat] = won[seat] + (card.id,)
        tasks = list(s.tasks)
        tasks[seat] = None
        total = sum(self.catalogue.card(c).shovels for c in won[seat])
        text = card_solved(name, card, total)
        changes: dict[str, Any] = dict(
            won=tuple(won), tasks=tuple(tasks), turned=(), turn=s.turn + 1
        )
        target = self.variant.short_game_target
        termination: Termination | None = None
        if target is not None and len(won[seat]) >= target:
            termination = Termination.TARGET
            solved = len(won[seat])
            text += " " + Plural(
                "{name} has solved {n} card: the game ends (short game).",
                "{name} has solved {n} cards: the game ends (short game).",
                n=solved,
                name=name,
            )
        elif not s.stack:
            termination = Termination.STACK_EMPTY
            text += " " + Msg("{name} cannot draw a new card from the empty stack: the game ends.", name=name)
        if termination is not None:
            out = self._make_outcome(termination, won)
            text += " " + self._result_text(out) + "."
            return self._set(**changes, outcome=out, verdict=text)
        if self.variant.mole_mix:  # M-10: shown only; the rules do not change
            changes["rotations"] = s.rotations + 1
            text += " " + Msg("{name} turns the box by one corner.", name=name)
        text += " " + Msg(
            "{name} draws a new task card; then it is {next}'s turn.", name=name, next=self._name(nxt)
        )
        return self._set(**changes, to_move=nxt, drawing=(seat,), verdict=text)

    def _make_outcome(self, termination: Termination, won: Sequence[tuple[str, ...]]) -> Outcome:
        scores = tuple(sum(self.catalogue.card(c).shovels for c in w) for w in won)
        best = max(scores)
        winners = tuple(i for i, sc in enumerate(scores) if sc == best)
        return Outcome(termination, winners, scores)

    def _result_text(self, out: Outcome) -> str:
        best = out.scores[out.winners[0]] if out.winners else 0
        return RESULT.text([self._name(w) for w in out.winners], best)

    # --- hints and views -------------------------------------------------------------------

    def hint(self) -> tuple[int, ...] | None:
        """Holes whose pairs the player to move should turn next (to solve the card in the
        fewest turns); empty when three are turned (end the turn); None when no turn is on.
        Reveals information about the player's secret card: show it to that player only."""
        h = self.hint_detail()
        if h is None:
            return None
        holes = {e.pair: i for i, e in enumerate(self._s.holes, start=1)}
        return tuple(sorted(holes[p] for p in h.pairs))

    def hint_detail(self) -> Hint | None:
        """The solver's hint for the player to move (pair ids, solves now, turns needed)."""
        s = self._s
        if s.outcome is not None or s.drawing:
            return None
        card = self.task(s.to_move)
        if card is None:
            return None
        turned = tuple(s.holes[h - 1].pair for h in s.turned)
        return hint(analyse(card), self.orientation(), turned)

    def view(self, seat: int | None) -> UpDownView:
        """What `seat` may see, or with None the public scoreboard. The public view holds only
        visible colours (no pair ids, no hidden colours) and no unsolved card; a seat's view
        adds that seat's own current card."""
        s = self._s
        names = self._setup.players
        phase = "over" if s.outcome is not None else "draw" if s.drawing else "turn"
        cat = self.catalogue
        task: CardView | None = None
        if seat is not None:
            seat = self._seat(seat)
            cid = s.tasks[seat]
            task = None if cid is None else CardView.of(cat.card(cid))
        return UpDownView(
            game=NAME,
            game_number=self._setup.game_number,
            names=names,
            phase=phase,
            to_move=None if phase == "over" else s.to_move,
            outcome=s.outcome,
            verdict=s.verdict,
            seat=seat,
            variant=self.variant.describe(),
            turn=s.turn,
            drawing=s.drawing[0] if s.drawing else None,
            players=tuple(
                PlayerView(
                    seat=i,
                    name=names[i],
                    shovels=sum(cat.card(c).shovels for c in s.won[i]),
                    won=tuple(CardView.of(cat.card(c)) for c in s.won[i]),
                    has_task=s.tasks[i] is not None,
                )
                for i in range(len(names))
            ),
            holes=tuple(HoleView(h, colour_name(e.visible)) for h, e in enumerate(s.holes, start=1)),
            visible=tuple((colour_name(c), n) for c, n in self.visible_counts().items()),
            turned=s.turned,
            turned_of=FLIPS_PER_TURN,
            stack=len(s.stack),
            removed=tuple(cid for cid, _ in self._setup.removed),
            history=self._setup.history,
            rotations=s.rotations if self.variant.mole_mix else None,
            task=task,
        )

    def __repr__(self) -> str:
        s = self._s
        who = (
            "over"
            if s.outcome is not None
            else (f"drawing: seat {s.drawing[0]}" if s.drawing else f"to move: seat {s.to_move}")
        )
        up = "".join(self.visible())
        return (
            f"<UpDownState game {self._setup.game_number} turn {s.turn} {who} "
            f"turned {len(s.turned)}/3 up {up}>"
        )

    # --- helpers ---------------------------------------------------------------------------


    def _name(self, seat: int) -> str:
        return self._setup.players[seat]

    def _who(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < self.num_players():
            return self._name(seat)
        return Msg("seat {seat!r}", seat=seat)

    def _top_group(self) -> list[str]:
        stack = self._s.stack
        if not stack:
            return []
        top = self.catalogue.card(stack[0]).shovels
        return [c for c in stack if self.catalogue.card(c).shovels == top]


CAN_END = Msg("Three different pairs turned: the turn can end.")
"""What a flip that makes three says after its count (the referee words it anew while a
correction is still due)."""


def _no_hole(h: object) -> str:
    return Msg("There is no hole {hole!r} (holes are 1 to {holes}).", hole=h, holes=HOLES)
