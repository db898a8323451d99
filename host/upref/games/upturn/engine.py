"""Upturn: the rules engine.

Players lay tiles in one line. The direction (up or down) and the seat order are coupled: up is
clockwise (play passes left), down is counter-clockwise (play passes right), so every reversal
gives the turn back to the player before. Numbered tiles go strictly in the direction against
the last *numbered* tile (action tiles never change it, T-18); action tiles turn the direction
(Up, Down, Up & Down, Joker) or skip players (Skip, Double Skip); a Twin tile lets its player
add rack tiles strictly between and give tiles from the pool; a Penalty tile lets its player give
one; a pool short of a gift gives what it holds (T-19, `gifts.py`). The first empty rack wins, and
the gifts of the winning turn are not given (T-21); with the pool empty, a full round of passes
ends the game (docs/games/upturn.md, rulings T-1 ... T-22).

A game dealt by the engine (`UpturnState.new`) knows every rack; a game refereed at a table
(`UpturnState.at_table`) knows only the line and each rack's *count*, and every rule is checked
against what is known (`position.py`: the record and what can be read off it).

Refusals (`IllegalMoveError.rule`): the ruling ids, and "direction" (a numbered tile against
the direction), "line" (a tile already on the line), "rack" (a tile its player is known not to
hold), "draw" (a draw or pass that does not fit the turn), "gift" (no gift open, or a lay while
one is), "start" (a lay before the Starting tile), "tile" (no tile of this set), "over".
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from upref.games.base import ActionRule, IllegalMoveError, Outcome
from upref.games.base import Termination as GameTermination
from upref.games.upturn.actions import Action, Call, Draw, Gift, Lay, Pass, Start, gift_splits
from upref.games.upturn.gifts import check_split, fill, gift_text
from upref.games.upturn.position import (
    DOWN,
    DRAWN,
    GIFT,
    JOKER,
    OVER,
    PLAYERS,
    START,
    TURN,
    TWIN,
    UP,
    Core,
    Note,
    TwinRun,
    UpturnPosition,
    at_table,
    check_players,
    deal,
    direction_step,
    seat_order,
)
from upref.games.upturn.tiles import Catalogue, Tile, load_catalogue
from upref.games.upturn.variant import RACK, Variant
from upref.games.upturn.view import (
    EMPTIED,
    RESULT,
    SeatView,
    TileView,
    TwinView,
    UpturnView,
    table_view,
)
from upref.games.upturn.words import (
    FIRST_THE_START,
    action_against,
    adds_to_the_run,
    against_the_direction,
    already_on_the_line,
    first_lay,
    joker_words,
    lays,
    missed_call,
    no_draw_now,
    one_tile_left,
    reversed_words,
    take_back,
    tile_count,
    twin_words,
)
from upref.text import Msg, Plural, and_join, join_words

__all__ = [
    "CALL_PENALTY",
    "DOWN",
    "NAME",
    "PLAYERS",
    "RACK",
    "TITLE",
    "UP",
    "Termination",
    "Action",
    "Call",
    "Draw",
    "Gift",
    "Lay",
    "Note",
    "Pass",
    "SeatView",
    "Start",
    "TileView",
    "TwinView",
    "UpturnState",
    "UpturnView",
    "Variant",
    "seat_order",
]

NAME = "upturn"
TITLE = "Upturn"
CALL_PENALTY = 3
"""Tiles taken for a missed "one tile left" call (the rulebook)."""


class Termination(GameTermination):
    """Why an Upturn game ended."""

    EMPTY_RACK = EMPTIED.termination  # the first empty rack wins
    POOL_EXHAUSTED = "pool-exhausted"  # every player passed in a row, the pool empty (T-12)
    STOPPED = "stopped"  # stopped at the table: the fewest tiles win


class UpturnState(UpturnPosition):
    """One game of Upturn. Build it with `new` (dealt from a seed), `at_table` (refereed:
    racks unknown) or `position(UpturnDescription(...))` (a described position).

    Seats 0..n-1 are clockwise; seat 0 is the youngest and makes the first move.
    """

    TITLE: ClassVar[str] = TITLE
    def _rule(self, action: object) -> ActionRule:
        """The methods that check and apply `action`, by its type."""
        match action:
            case Start():
                return ActionRule(self._check_start, self._do_start)
            case Lay():
                return ActionRule(self._check_lay, self._do_lay)
            case Draw():
                return ActionRule(self._check_draw, self._draw)
            case Pass():
                return ActionRule(self._check_pass, self._do_pass)
            case Gift():
                return ActionRule(self._check_gift, self._do_gift)
            case Call():
                return ActionRule(self._check_call, self._do_call)
        raise self._foreign(action)

    # --- construction ------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        *,
        rng: random.Random | int = 0,
        variant: Variant | None = None,
        catalogue: Catalogue | None = None,
    ) -> UpturnState:
        """A game dealt from a shuffle by `rng` (a `random.Random` or a seed): every player
        takes `variant.deal` tiles, then the top tile is turned up as the Starting tile; an
        action tile turned up goes back, the pool is reshuffled and another is turned (T-1).
        The engine knows every rack.

        :raises ValueError: for fewer than 2 or more than 4 players, or repeated names.
        """
        names = check_players(players)
        r = rng if isinstance(rng, random.Random) else random.Random(rng)
        setup, core, start = deal(names, r, variant or Variant(), catalogue or load_catalogue())
        game = cls(setup, core)
        game._s = game._started(start)
        return game

    @classmethod
    def at_table(
        cls,
        players: Sequence[str],
        *,
        variant: Variant | None = None,
        catalogue: Catalogue | None = None,
        game_number: int = 1,
        history: tuple[Outcome, ...] = (),
    ) -> UpturnState:
        """A game refereed at a table: the tiles are shuffled face down and every player has
        taken `variant.deal`; the Starting tile is to be turned up and tapped (`Start`). The
        engine knows no rack, only the counts.

        :raises ValueError: for fewer than 2 or more than 4 players, or repeated names.
        """
        names = check_players(players)
        cat = catalogue or load_catalogue()
        return cls(*at_table(names, variant or Variant(), cat, game_number, history))

    def next_game(self) -> UpturnState:
        """The next game at the table: same players and variant, racks unknown again; this
        game's outcome (if any) joins the history."""
        return UpturnState.at_table(
            self._setup.players,
            variant=self._setup.variant,
            catalogue=self._setup.catalogue,
            game_number=self._setup.game_number + 1,
            history=self._next_history(),
        )

    # --- read-only --------------------------------------------------------------------------

    # --- GameState verbs ----------------------------------------------------------------------

    def _applicable(self, action: Action) -> bool:
        return self.is_legal(action)

    def legal_actions(self) -> list[Action]:
        """Every action the rules allow now, sorted: the Starting tiles; the tiles the player
        to move may lay (of those the engine knows they hold, or of every tile not yet seen
        when it does not know their rack); a draw, or a pass on an empty pool; a pass after a
        draw or a Joker; every gift the player may give (each recipient, each count, up to what
        the pool holds: a larger one, up to what was earned, is legal too and gives what the
        pool holds, T-19); the call when one is due or may be made ahead."""
        s = self._s
        if s.outcome is not None:
            return []
        out: list[Action] = []
        if s.phase == START:
            known = s.pool if s.pool is not None else self._unseen()
            out = [Start(t) for t in known if self.tile(t).numbered]
            return sorted(set(out))
        if s.phase in (TURN, DRAWN, JOKER, TWIN):
            out.extend(Lay(t) for t in self._candidates(s.to_move) if self._lay_ok(t))
        if s.phase == TURN:
            out.append(Draw() if s.pool_count else Pass())
        elif s.phase in (DRAWN, JOKER):
            out.append(Pass())
        if s.phase in (TWIN, GIFT):
            out.extend(self._gifts())
        if self._call_ok():
            out.append(Call())
        return sorted(out)

    def _gifts(self) -> list[Gift]:
        s = self._s
        others = [p for p in range(self.num_players()) if p != s.to_move]
        return gift_splits(others, min(s.gifts, s.pool_count))

    # --- checks ----------------------------------------------------------------------------

    def _check_call(self, a: Call) -> None:
        if not self._call_ok():
            raise IllegalMoveError("T-13", Msg("Nobody owes the 'one tile left' call now."), None, a)

    def _known_tile(self, tile_id: str, action: Action) -> Tile:
        t = self._setup.catalogue.get(tile_id)
        if t is None:
            raise IllegalMoveError(
                "tile",
                Msg(
                    "{tile!r} is no tile of this Upturn set: check the tag's enrolment "
                    "(upref enroll upturn --list).",
                    tile=tile_id,
                ),
                None,
                action,
            )
        return t

    def _check_start(self, a: Start) -> None:
        s = self._s
        t = self._known_tile(a.tile, a)
        if s.phase != START:
            raise IllegalMoveError(
                "start",
                Msg(
                    "The Starting tile ({tile}) is already turned up.",
                    tile=self.tile(s.line[0]).words(),
                ),
                None,
                a,
            )
        if not t.numbered:
            raise IllegalMoveError(
                "T-1",
                Msg(
                    "The Starting tile must be a numbered tile, and {tile} was turned up.",
                    tile=t.words(),
                ),
                Msg(
                    "Put {tile} back into the pool, mix the pool and turn up another tile.",
                    tile=t.the(),
                ),
                a,
            )
        if a.tile not in (s.pool if s.pool is not None else self._unseen()):
            raise IllegalMoveError(
                "start",
                Msg("{tile} is not in the pool: turn up a tile from the pool.", tile=t.words()),
                None,
                a,
            )

    def _penalty(self, seat: int) -> int:
        """Tiles `seat` takes when the next tile is laid now (a missed call)."""
        s = self._s
        return min(CALL_PENALTY, s.pool_count) if s.owing == seat else 0

    def _lay_ok(self, tile_id: str) -> bool:
        """The fast form of `_check_lay` (same rules), for `legal_actions`."""
        s = self._s
        t = self._setup.catalogue.get(tile_id)
        if t is None or tile_id in s.line or s.phase not in (TURN, DRAWN, JOKER, TWIN):
            return False
        p = s.to_move
        if not self._holds(p, tile_id):
            return False
        if s.phase == TWIN:
            tw = s.twin
            assert tw is not None and s.last is not None
            lo, hi = sorted((tw.after, s.last))
            return t.number is not None and lo < t.number < hi
        if t.number is None:
            if s.direction is None or self.tiles(p) + self._penalty(p) <= 1:
                return False
            return not (
                (t.action == "up" and s.direction == UP)
                or (t.action == "down" and s.direction == DOWN)
            )
        assert s.last is not None
        if s.direction is None:
            return t.number != s.last
        return t.number > s.last if s.direction == UP else t.number < s.last

    def _check_lay(self, a: Lay) -> None:
        """A lay: the Starting tile is down, the tile is not on the line yet, no gift is open,
        its player may hold it; then the rule of what is being laid: a Twin run's tile, an
        action tile or a numbered tile."""
        s = self._s
        t = self._known_tile(a.tile, a)
        p = s.to_move
        name = self._name(p)
        if s.phase == START:
            raise IllegalMoveError(
                "start",
                Msg(
                    "The Starting tile is not turned up yet: turn up a tile from the pool and "
                    "tap it first."
                ),
                None,
                a,
            )
        if a.tile in s.line:
            raise IllegalMoveError(
                "line",
                already_on_the_line(t, s.line.index(a.tile) + 1),
                Msg("Leave {tile} where it lies; tap only the tile you lay.", tile=t.short),
                a,
            )
        if s.phase == GIFT:
            raise IllegalMoveError(
                "gift",
                Msg(
                    "{name} may still give {tiles} from the pool: the gift comes first.",
                    name=name,
                    tiles=tile_count(self.gifts),
                ),
                None,
                a,
            )
        if not self._holds(p, a.tile):
            raise IllegalMoveError(
                "rack",
                Msg("{name} does not hold {tile}.", name=name, tile=t.words()),
                take_back(t.short),
                a,
            )
        if s.phase == TWIN:
            self._check_run_tile(t, a)
        elif t.number is None:
            self._check_action_tile(t, a)
        else:
            self._check_numbered(t, a)

    def _check_run_tile(self, t: Tile, a: Lay) -> None:
        """A Twin run's tile: numbered, strictly between the number before the Twin and the
        Twin (T-7)."""
        s = self._s
        tw = s.twin
        assert tw is not None and s.last is not None
        lo, hi = sorted((tw.after, s.last))
        if t.number is None or not lo < t.number < hi:
            raise IllegalMoveError(
                "T-7",
                Msg(
                    "Only numbered tiles strictly between {low} and {high} may be added to "
                    "{name}'s Twin run; {tile} is not one.",
                    low=tw.after,
                    high=s.last,
                    name=self._name(s.to_move),
                    tile=t.words(),
                ),
                take_back(t.short),
                a,
            )

    def _check_action_tile(self, t: Tile, a: Lay) -> None:
        """An action tile: not the first move (T-3), not the rack's last tile by the count,
        penalty tiles about to be taken included (T-9, T-22), an Up only while down and a
        Down only while up (T-16)."""
        s = self._s
        p = s.to_move
        if s.direction is None:
            raise IllegalMoveError(
                "T-3",
                Msg(
                    "The first move must be a numbered tile, which sets the direction; "
                    "{tile} cannot be.",
                    tile=t.words(),
                ),
                Msg("Take {tile} back; lay a numbered tile, or draw.", tile=t.the()),
                a,
            )
        held = self.tiles(p) + self._penalty(p)
        if held <= 1:
            then = (
                Msg("draw instead, or pass when the pool is empty")
                if s.phase == TURN
                else Msg("lay a numbered tile, or none")
            )
            raise IllegalMoveError(
                "T-9",
                Msg(
                    "By the count {name} holds 1 tile, so {tile} would be the last one, and the "
                    "last tile may not be an action tile.",
                    name=self._name(p),
                    tile=t.the(),
                ),
                Msg("Take {tile} back; {then}.", tile=t.the(), then=then),
                a,
            )
        wrong = action_against(str(t.action), s.direction)
        if wrong is not None:
            raise IllegalMoveError("T-16", wrong, take_back(t.the()), a)

    def _check_numbered(self, t: Tile, a: Lay) -> None:
        """A numbered tile: never equal to the last number (T-15); once the direction is set,
        higher while up and lower while down (a Twin too, T-17), against the last numbered
        tile (T-18)."""
        s = self._s
        back = take_back(t.short)
        assert s.last is not None and t.number is not None
        if t.number == s.last:
            raise IllegalMoveError(
                "T-15",
                Msg(
                    "{number} equals the last number, {last}: a tile must be strictly higher or "
                    "lower.",
                    number=t.number,
                    last=s.last,
                ),
                back,
                a,
            )
        if s.direction is None:
            return
        fits = t.number > s.last if s.direction == UP else t.number < s.last
        if fits:
            return
        rule, text = against_the_direction(s.direction, t, s.last, self.tile(s.line[-1]).action is not None)
        raise IllegalMoveError(rule, text, back, a)

    def _check_draw(self, a: Draw) -> None:
        s = self._s
        name = self._name(s.to_move)
        if s.phase == START:
            raise IllegalMoveError("start", FIRST_THE_START, None, a)
        if s.phase != TURN:
            raise IllegalMoveError("draw", no_draw_now(s.phase, name), None, a)
        if not s.pool_count:
            raise IllegalMoveError(
                "T-12",
                Msg(
                    "The pool is empty (by the count: {line} on the line, {racks} on the racks): "
                    "a player who lays nothing passes.",
                    line=tile_count(len(s.line)),
                    racks=sum(self.counts()),
                ),
                None,
                a,
            )

    def _check_pass(self, a: Pass) -> None:
        s = self._s
        if s.phase in (DRAWN, JOKER):
            return
        if s.phase == TURN:
            if s.pool_count:
                raise IllegalMoveError(
                    "draw",
                    Msg(
                        "The pool still holds {tiles}: a player who lays nothing draws a tile "
                        "(passing is for an empty pool).",
                        tiles=tile_count(s.pool_count),
                    ),
                    None,
                    a,
                )
            return
        if s.phase == START:
            raise IllegalMoveError("start", FIRST_THE_START, None, a)
        raise IllegalMoveError(
            "gift",
            Msg(
                "{name} may still give tiles from the pool: give them, or none.",
                name=self._name(s.to_move),
            ),
            None,
            a,
        )

    def _check_gift(self, a: Gift) -> None:
        """A gift: one is open, and it names others, each once, up to what was earned; a pool
        short of it is no reason to refuse (T-19: `_do_gift` gives what it holds)."""
        s = self._s
        if s.phase not in (TWIN, GIFT):
            raise IllegalMoveError("gift", Msg("No gift is open now."), None, a)
        check_split(a, s.to_move, self.players, s.gifts, self._gift_reason(), s.twin_open)

    def _call_ok(self) -> bool:
        s = self._s
        if s.outcome is not None or s.phase == START:
            return False
        if s.owing is not None:
            return True
        return (
            s.phase in (TWIN, JOKER, GIFT)
            and s.laid > 0
            and not s.precalled
            and self.tiles(s.to_move) == 1
        )

    # --- applying -------------------------------------------------------------------------------

    def _do(self, action: Action) -> str:
        """A new action: the last one's notes go, then `_rule` applies it; its notes are the
        verdict."""
        s = self._s
        self._s = replace(s, notes=(), acts=s.acts + 1, penalized=None)
        super()._do(action)
        return join_words(" ", [n.text for n in self._s.notes])

    def _do_start(self, a: Start) -> None:
        self._s = self._started(a.tile)

    def _started(self, tile_id: str) -> Core:
        s = self._s
        t = self.tile(tile_id)
        pool = s.pool
        if pool is not None:
            pool = tuple(x for x in pool if x != tile_id)
        first = self._name(0)
        assert t.number is not None
        text = join_words(
            " ",
            [
                *self._setup.start_note,
                Msg(
                    "Starting tile: {tile}. {first} (the youngest) makes the first move: a "
                    "numbered tile higher than {number} sets the direction up (play passes left, "
                    "clockwise), a lower one sets it down (play passes right, counter-clockwise).",
                    tile=t.words(),
                    first=first,
                    number=t.number,
                ),
            ],
        )
        return replace(
            s,
            phase=TURN,
            line=(tile_id,),
            last=t.number,
            pool=pool,
            pool_count=s.pool_count - 1,
            turn=1,
            acts=0,
            notes=(Note("turn", text, "T-1" if self._setup.start_note else None),),
        )

    def _do_lay(self, a: Lay) -> None:
        tile_id = a.tile
        s = self._s
        p = s.to_move
        name = self._name(p)
        if s.owing is not None:
            o = s.owing
            k = self._penalty(o)
            owed = self._name(o)
            if k:
                self._give_from_pool(o, k)
            text = missed_call(owed, k)
            self._s = replace(self._s, owing=None, penalized=o)
            self._note("penalty", text, "T-13")
        s = self._s
        t = self.tile(tile_id)
        racks, unknown = self._take_from(p, tile_id)
        s = replace(s, racks=racks, unknown=unknown, laid=s.laid + 1, passes=0)
        if s.phase == TWIN:
            tw = s.twin
            assert tw is not None
            run = tw.run + (tile_id,)
            ordered = sorted(
                run, key=lambda x: self.tile(x).number or 0, reverse=s.direction == DOWN
            )
            line = s.line[: tw.at] + tuple(ordered) + (tw.tile,)
            gifts = s.gifts + 1 + (1 if t.penalty else 0)
            gift_for = s.gift_for + ((tile_id,) if t.penalty else ())
            self._s = replace(
                s, line=line, twin=replace(tw, run=run), gifts=gifts, gift_for=gift_for
            )
            assert s.last is not None
            text = adds_to_the_run(name, t, tw.after, s.last, 1 + len(run))
            if self._won(text, t):
                return
            self._note("step", text, "T-7")
            return
        s = replace(s, line=s.line + (tile_id,))
        self._s = s
        if t.number is not None:
            self._lay_number(t)
        else:
            self._lay_action(t)

    def _won(self, text: str, t: Tile) -> bool:
        s = self._s
        p = s.to_move
        if self.tiles(p) > 0:
            return False
        name = self._name(p)
        out = Outcome(Termination.EMPTY_RACK, (p,), self.counts())
        self._s = replace(s, outcome=out, phase=OVER, twin_open=False)
        news = Msg("{name}'s rack is empty: {name} wins!", name=name)  # EMPTIED.news
        self._note("end", join_words(" ", [text, news]))
        return True

    def _lay_number(self, t: Tile) -> None:
        s = self._s
        name = self._name(s.to_move)
        assert t.number is not None and s.last is not None
        first = s.direction is None
        before = s.last
        direction = s.direction
        if first:
            direction = UP if t.number > before else DOWN
        s = replace(s, last=t.number, direction=direction)
        gifts, gift_for = s.gifts, s.gift_for
        if t.penalty:
            gifts, gift_for = gifts + 1, gift_for + (t.id,)
        if first:
            assert direction is not None
            text = first_lay(name, t, before, direction)
        else:
            text = lays(name, t, s.phase == JOKER)
        if t.twin:
            gifts += 1
            at = len(s.line) - 1
            self._s = replace(
                s,
                phase=TWIN,
                twin=TwinRun(t.id, before, at, (), s.turn),
                twin_open=True,
                gifts=gifts,
                gift_for=gift_for,
            )
            if self._won(text, t):
                return
            after_action = len(s.line) >= 2 and self.tile(s.line[-2]).action is not None
            twin = twin_words(name, before, t.number, after_action)
            self._note("step", text + " " + twin, "T-2" if first else "T-7")
            return
        self._s = replace(s, gifts=gifts, gift_for=gift_for)
        if self._won(text, t):
            return
        self._after_laying(text)

    def _lay_action(self, t: Tile) -> None:
        s = self._s
        name = self._name(s.to_move)
        kind = t.action
        extra = s.phase == JOKER
        if kind in ("up", "down", "updown", "joker"):
            new = DOWN if s.direction == UP else UP
            self._s = replace(s, direction=new)
            if kind == "joker":
                self._s = replace(self._s, phase=JOKER)
                laid = lays(name, t, extra, end="")
                self._note("step", joker_words(laid, new, name, self._need()), "T-6")
                return
            back = self._name(self.next_seat())
            self._after_laying(reversed_words(lays(name, t, extra, end=""), new, back), "T-5")
            return
        n = self.num_players()
        add = 1 if kind == "skip" or n == 2 else 2
        self._s = replace(s, skips=s.skips + add)
        rule = "T-10" if kind == "doubleskip" and n == 3 else None
        self._after_laying(lays(name, t, extra), rule)

    def _after_laying(self, text: str, rule: str | None = None) -> None:
        """The player has laid their tiles: a gift may follow while the pool holds a tile to
        give, else the turn ends (saying so when a Penalty tile found the pool empty, T-19)."""
        s = self._s
        if s.gifts and s.pool_count:
            self._s = replace(s, phase=GIFT)
            k = min(s.gifts, s.pool_count)
            may = Plural(
                "{name} may take {n} tile from the pool and give it to another player ({why}, "
                "T-11).",
                "{name} may take {n} tiles from the pool and give them to other players ({why}, "
                "T-11).",
                n=k,
                name=self._name(s.to_move),
                why=self._gift_reason(),
            )
            self._note("step", text + " " + may, rule or "T-11")
            return
        if s.gifts:  # a Penalty tile, the pool empty: the gift gives none (T-19)
            tiles = and_join([self.tile(t).words() for t in s.gift_for])
            text += " " + Msg("The pool is empty, so no tile could be given for {tiles} (T-19).", tiles=tiles)
            rule = rule or "T-19"
        self._end_turn(text, rule)

    def _draw(self, a: Draw) -> None:
        self._do_draw()

    def _do_draw(self) -> None:
        """The player to move takes a tile from the pool."""
        s = self._s
        name = self._name(s.to_move)
        self._give_from_pool(s.to_move, 1)
        self._s = replace(self._s, phase=DRAWN, drew=True, passes=0)
        rule = "T-3" if s.direction is None else "T-4"
        then = Msg("a numbered tile") if s.direction is None else Msg("one legal tile")
        self._note(
            "step",
            Msg(
                "{name} draws a tile ({left} left in the pool) and may now lay {then} ({need}), "
                "or keep all tiles.",
                name=name,
                left=tile_count(self._s.pool_count),
                then=then,
                need=self._need(),
            ),
            rule,
        )

    def _do_pass(self, a: Pass) -> None:
        s = self._s
        name = self._name(s.to_move)
        if s.phase == DRAWN:
            self._end_turn(Msg("{name} keeps all tiles.", name=name))
        elif s.phase == JOKER:
            self._end_turn(Msg("{name} lays no extra tile after the Joker.", name=name), "T-6")
        else:
            passes = s.passes + 1
            self._s = replace(s, passes=passes)
            self._end_turn(
                Msg(
                    "{name} passes: the pool is empty ({n} of {of} passes in a row).",
                    name=name,
                    n=passes,
                    of=self.num_players(),
                ),
                "T-12",
            )

    def _do_gift(self, a: Gift) -> None:
        """The gift's tiles go from the pool, as far as it holds them (T-19)."""
        s = self._s
        given = fill(a.split, s.pool_count)
        for seat, k in given:
            self._give_from_pool(seat, k)
        text, rule = gift_text(self._name(s.to_move), self.players, a.split, given)
        self._s = replace(self._s, twin_open=False, gifts=0, gift_for=())
        self._end_turn(text, rule)

    def _do_call(self, a: Call) -> None:
        s = self._s
        if s.owing is not None:
            who = self._name(s.owing)
            self._s = replace(s, owing=None)
            self._note("call", Msg("{name} calls 'one tile left' in time (T-13).", name=who), "T-13")
            return
        who = self._name(s.to_move)
        self._s = replace(s, precalled=True)
        self._note("call", Msg("{name} calls 'one tile left' (T-13).", name=who), "T-13")

    def _end_turn(self, text: str, rule: str | None = None) -> None:
        s = self._s
        p = s.to_move
        n = self.num_players()
        name = self._name(p)
        parts = [text]
        owing = s.owing
        if s.laid and self.tiles(p) == 1:
            parts.append(one_tile_left(name, s.precalled))
            owing = owing if s.precalled else p
        way = direction_step(s.direction)
        skipped = tuple((p + way * (k + 1)) % n for k in range(s.skips))
        nxt = (p + way * (s.skips + 1)) % n
        if skipped:
            parts += self._skip_words(p, nxt, skipped)
        # a Twin run stays on show for its own turn and the next one
        keep_twin = s.twin if s.twin is not None and s.twin.turn == s.turn else None
        s = replace(
            s,
            phase=TURN,
            to_move=nxt,
            turn=s.turn + 1,
            laid=0,
            acts=0,
            drew=False,
            twin=keep_twin,
            twin_open=False,
            gifts=0,
            gift_for=(),
            skips=0,
            precalled=False,
            owing=owing,
            skipped=skipped,
        )
        self._s = s
        if s.passes >= n:
            counts = self.counts()
            fewest = min(counts)
            winners = tuple(i for i, c in enumerate(counts) if c == fewest)
            out = Outcome(Termination.POOL_EXHAUSTED, winners, counts)
            self._s = replace(s, outcome=out, phase=OVER)
            parts.append(
                Msg(
                    "Every player has passed in a row with the pool empty: the game ends (T-12). "
                    "{result}.",
                    result=self._result_text(out),
                )
            )
            self._note("end", join_words(" ", parts), "T-12")
            return
        parts.append(Msg("{name}'s turn: {need}.", name=self._name(nxt), need=self._need()))
        self._note("turn", join_words(" ", parts), rule)

    def _skip_words(self, p: int, nxt: int, skipped: tuple[int, ...]) -> list[str]:
        """Who loses a turn as `p`'s turn ends and `nxt` plays (T-10, T-14)."""
        lost = and_join([self._name(x) for x in skipped])
        rule_10 = " (T-10)" if len(skipped) == 2 and self.num_players() == 3 else ""
        args = {"lost": lost, "name": self._name(nxt), "rule": rule_10}
        if nxt == p:
            words = Plural(
                "{lost} loses a turn; {name} plays again{rule}.",
                "{lost} lose a turn; {name} plays again{rule}.",
                n=len(skipped),
                **args,
            )
        else:
            words = Plural(
                "{lost} loses a turn; {name} plays next{rule}.",
                "{lost} lose a turn; {name} plays next{rule}.",
                n=len(skipped),
                **args,
            )
        parts = [words]
        penalized = self._s.penalized
        if penalized is not None and penalized in skipped:
            parts.append(
                Msg(
                    "Being skipped does not cancel {name}'s missed call (T-14).",
                    name=self._name(penalized),
                )
            )
        return parts

    # --- results and views -----------------------------------------------------------------

    def _result_text(self, out: Outcome) -> str:
        names = [self._name(w) for w in out.winners]
        fewest = out.scores[out.winners[0]] if out.winners else 0
        return RESULT.text(names, fewest, how=out.termination)

    def result_text(self, out: Outcome) -> str:
        """The result in words, by `RESULT`: 'Ann wins with an empty rack'."""
        return self._result_text(out)

    def view(self, seat: int | None) -> UpturnView:
        """What `seat` may see, or with None what the whole table may see: never a rack's
        tiles nor the pool's order (a seat's own view adds the tiles the engine knows it
        holds)."""
        if seat is not None:
            seat = self._seat(seat)
        return table_view(NAME, self._setup, self._s, seat, self.gifts)
