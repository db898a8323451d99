"""A physical Upturn table for referee tests: the real tiles are a dealt engine (`shadow`, it
knows every rack, as the players do), and each of its moves reaches a real `UpturnReferee` the
way a table makes it: a tap of the tile laid, a key for a draw, a pass or a gift, the board's
button for the call. No sleeps: time is a number the test moves on.

`RandomPlayers` plays whole sessions from a seed, with mistakes (tiles against the rules, tiles
already on the line, idle presses, stray keys), undos, gifts left to the next tap, and several
games in a row."""

from __future__ import annotations

import atexit
import random
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from numbered_tags import numbered_uids
from upref.board.codes import CodeTable
from upref.board.model import ButtonObservation, CardObservation
from upref.games.upturn.actions import Action, Call, Draw, Gift, Lay, Pass
from upref.games.upturn.engine import UpturnState
from upref.games.upturn.referee import UpturnReferee
from upref.games.upturn.tiles import load_catalogue
from upref.games.upturn.variant import Variant
from upref.referee.base import Reply
from upref.referee.inputs import EndGame, Input, Key, NextGame, Observe, StartGame, Undo
from upref.referee.status import Verdict
from upref.registry import find_game, titles
from upref.store.tags import TagBook

CODES = CodeTable.load()
CAT = load_catalogue()
UID: dict[str, str] = numbered_uids("upturn", find_game("upturn").items())
"""Tile id -> the tag UID stuck on it (the demo's tags)."""
TILE: dict[str, str] = {uid: tile for tile, uid in UID.items()}
PLAYERS = ("Ann", "Bob", "Cy")


def tile_registry(path: Path | None = None) -> TagBook:
    """A real tag book (SQLite; in a temporary folder unless `path` is given) with all 106
    tiles enrolled."""
    if path is None:
        folder = tempfile.mkdtemp(prefix="upref-test-upturn-")
        atexit.register(shutil.rmtree, folder, True)
        path = Path(folder) / "tags.sqlite"
    reg = TagBook(path)
    for tile, uid in UID.items():
        reg.enroll(uid, "upturn", tile)
    return reg


class MemoryLog:
    """An in-memory game log: each input's JSON form, as the referee appends it."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.finished: list[Mapping[str, Any]] = []
        self.reopened = 0

    def append(self, entry: Mapping[str, Any]) -> int:
        self.entries.append(dict(entry))
        return len(self.entries)

    def finish(self, outcome: Mapping[str, Any], t: float | None = None) -> None:
        self.finished.append(dict(outcome))

    def reopen(self) -> None:
        self.reopened += 1


def gift_words(game: UpturnState, split: tuple[tuple[int, int], ...]) -> str:
    """What a player types at the gift prompt for `split`: 'Bob 2, Cy 1', or 'none'."""
    if not split:
        return "none"
    return ", ".join(f"{game.players[s]} {k}" for s, k in split)


class UpturnTable:
    """The tiles and the people at a table, feeding `ref`."""

    def __init__(
        self,
        ref: UpturnReferee,
        players: Sequence[str] = PLAYERS,
        *,
        seed: int = 1,
        variant: Variant | None = None,
        t0: float = 1000.0,
        step: float = 0.25,
    ) -> None:
        self.ref = ref
        self.players = tuple(players)
        self.seed = seed
        self.variant = variant or Variant()
        self.t = t0
        self.step = step
        self.replies: list[tuple[Input, Reply]] = []
        self.shadow = UpturnState.new(list(players), rng=seed, variant=self.variant)
        self.offset = 1
        """Actions the referee's engine has played that the shadow has not (the Starting tile)."""

    # --- plumbing ------------------------------------------------------------------------

    def at(self) -> float:
        self.t = round(self.t + self.step, 6)
        return self.t

    def feed(self, inp: Input) -> list[Verdict]:
        reply = self.ref.handle(inp)
        self.replies.append((inp, reply))
        return list(reply.verdicts)

    def tap(self, tile: str) -> list[Verdict]:
        uid = UID.get(tile, tile)
        out = self.feed(Observe(CardObservation(True, uid), self.at()))
        return out + self.feed(Observe(CardObservation(False, uid), self.at()))

    def press(self) -> list[Verdict]:
        out = self.feed(Observe(ButtonObservation(True), self.at()))
        return out + self.feed(Observe(ButtonObservation(False), self.at()))

    def key(self, name: str, arg: str | None = None) -> list[Verdict]:
        return self.feed(Key(name, self.at(), arg))

    # --- the game ---------------------------------------------------------------------------

    def start(self, returned: Sequence[str] = ()) -> list[Verdict]:
        """Start the game, then turn up the Starting tile: first the action tiles `returned`
        (refused, T-1), then the shadow's."""
        out = self.feed(StartGame(self.players, self.variant, self.seed, self.at()))
        for t in returned:
            out += self.tap(t)
        return out + self.tap(self.shadow.line[0])

    def next_game(self, seed: int) -> list[Verdict]:
        self.seed = seed
        self.shadow = UpturnState.new(list(self.players), rng=seed, variant=self.variant)
        out = self.feed(NextGame(self.at()))
        return out + self.tap(self.shadow.line[0])

    def do(self, action: Action, *, then: Action | None = None) -> list[Verdict]:
        """One move of the player to move, made at the table; `then` is the move after a draw
        (a tile laid, or Pass to keep all tiles)."""
        sh = self.shadow
        if isinstance(action, Lay):
            out = self.tap(action.tile)
        elif isinstance(action, Draw):
            keep = then is None or isinstance(then, Pass)
            out = self.key("draw", "keep" if keep else "lay")
            sh.play(action)
            if keep:
                sh.play(Pass())
                return out
            assert then is not None
            return out + self.do(then)
        elif isinstance(action, Pass):
            out = self.key("pass")
        elif isinstance(action, Gift):
            default = ((sh.next_seat(), sh.gifts),) if sh.gifts else ()
            out = self.key("gift", None if action.split == default else gift_words(sh, action.split))
        elif isinstance(action, Call):
            out = self.press()
        else:
            raise AssertionError(f"not a move at the table: {action!r}")
        sh.play(action)
        return out

    def lay(self, *tiles: str | int) -> list[Verdict]:
        out: list[Verdict] = []
        for t in tiles:
            out += self.do(Lay(f"N{t}" if isinstance(t, int) else t))
        return out

    def sync_after_undo(self) -> None:
        """The players put back what the referee's undo asked: the shadow goes back as far."""
        eng = self.ref.engine
        assert eng is not None
        while len(self.shadow._undo_stack) > len(eng._undo_stack) - self.offset:
            self.shadow.undo()


class RandomPlayers:
    """Random play at a table, legal and not, driven only through taps, keys and presses."""

    def __init__(self, table: UpturnTable, seed: int) -> None:
        self.tb = table
        self.rng = random.Random(seed)
        self.games = 0
        self.implicit_gift = False

    def step(self) -> list[Verdict]:
        tb, rng = self.tb, self.rng
        ref, sh = tb.ref, tb.shadow
        if ref.phase == "over":
            self.games += 1
            return tb.next_game(tb.seed + 1000)
        r = rng.random()
        if r < 0.01 and ref.has_engine and ref.engine.can_undo():
            out = tb.feed(Undo(tb.at()))
            tb.sync_after_undo()
            return out
        if r < 0.012:
            return tb.feed(EndGame(tb.at()))
        if r < 0.05 and sh.line:  # a tile already on the line, tapped again
            return tb.tap(rng.choice(sh.line))
        seat = sh.current_player()
        legal = set(sh.legal_actions())
        if r < 0.1 and sh.phase not in ("twin", "gift"):
            # a tile of the player's own that the rules refuse now (not after a Twin or a
            # Penalty tile: the referee would take it for the next player's, as it must)
            wrong = [t for t in sh.rack(seat) if Lay(t) not in legal]
            if wrong:
                return tb.tap(rng.choice(wrong))
        if r < 0.12 and Call() not in legal:
            return tb.press()  # nobody owes a call
        if r < 0.13:  # a key that means nothing now
            stray = [
                k for k, a in (("pass", Pass()), ("draw", Draw())) if a not in legal
            ] + (["gift"] if not sh.gifts and sh.phase not in ("twin", "gift") else [])
            if stray:
                return tb.key(rng.choice(stray), rng.choice([None, "keep", "x"]))
        action = rng.choice(sorted(legal))
        if isinstance(action, Gift) and not action.split and rng.random() < 0.5:
            # the gift not entered: the next tile closes it, when the next move is a tile
            trial = sh.clone()
            trial.play(action)
            nxt = rng.choice(trial.legal_actions()) if not trial.is_terminal() else None
            if isinstance(nxt, Lay):
                sh.play(action)
                return tb.do(nxt)
        if isinstance(action, Draw):
            trial = sh.clone()
            trial.play(action)
            return tb.do(action, then=rng.choice(trial.legal_actions()))
        return tb.do(action)


def session(
    steps: int, seed: int = 8, players: Sequence[str] = PLAYERS, log: Any = None
) -> tuple[UpturnReferee, UpturnTable, MemoryLog]:
    """A long random session: the referee, its table and every input it was fed."""
    ref = UpturnReferee(CODES, tile_registry(), titles=titles())
    mem = MemoryLog()
    ref.attach(log if log is not None else mem)
    tb = UpturnTable(ref, players, seed=seed)
    tb.start()
    rp = RandomPlayers(tb, seed)
    for _ in range(steps):
        rp.step()
    return ref, tb, mem
