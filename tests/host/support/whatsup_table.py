"""A What's Up table for referee, view and log tests: the bird cards with real tags in a real tag
tag book (SQLite in a temporary folder), a clock, and people who tap cards, press keys and the
button, all feeding a `WhatsUpReferee` with the inputs a real board model and host would make.
No sleeps: time is a number the test moves on.

Also here: the public-information checks every test of the game shares, built from the
engine's private state (the side face down of every table card, every card's id)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tag_books import filled_book
from upref.board.codes import CodeTable
from upref.board.model import ButtonObservation, CardObservation
from upref.games.whatsup.cards import COLOURS, Face, load_catalogue
from upref.games.whatsup.engine import WhatsUpState
from upref.games.whatsup.referee import COUNT_KEY, FIGURINE_KEY, WhatsUpReferee
from upref.games.whatsup.variant import Variant
from upref.games.whatsup.view import WhatsUpView
from upref.referee.base import Reply
from upref.referee.inputs import EndGame, Input, Key, NextGame, Observe, StartGame, Undo
from upref.referee.status import Verdict
from upref.registry import titles
from upref.store.tags import TagBook

CODES = CodeTable.load()
CATALOGUE = load_catalogue()
CARD_IDS = CATALOGUE.ids()
PLAYERS = ("Ann", "Bob", "Cy")
UNKNOWN_UID = "04DEADBEEF0042"
UPDOWN_UID = "04DEADBEEF0043"  # enrolled as an Up And Down task card


def card_uid(card_id: str) -> str:
    """A 7-byte NTAG UID for a bird card ('W07' -> '04B1C2D3E40780')."""
    return f"04B1C2D3E4{int(card_id[1:]):02X}80"


def enrolled_tags(path: Path | None = None) -> TagBook:
    """A real tag book with every bird card enrolled under `card_uid`, and one Up And Down
    card (another game's tag)."""
    def fill(reg: TagBook) -> None:
        for cid in CARD_IDS:
            reg.enroll(card_uid(cid), "whatsup", cid)
        reg.enroll(UPDOWN_UID, "updown", "T07")

    return filled_book("upref-test-whatsup-", fill, path)


_CARD_OF_UID = {card_uid(c): c for c in CARD_IDS}
_REGISTRY: TagBook | None = None


def shared_registry() -> TagBook:
    """One tag book for the whole test session (enrolling 31 tags costs a few milliseconds)."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = enrolled_tags()
    return _REGISTRY


class Table:
    """The cards, the reader, the button and the host's keys, and the people using them."""

    def __init__(self, referee: WhatsUpReferee, *, t0: float = 1000.0, step: float = 0.25) -> None:
        self.ref = referee
        self.t = t0
        self.step = step
        self.replies: list[tuple[Input, Reply]] = []
        self.watch: Callable[[WhatsUpState | None, Input, Reply], None] | None = None
        """Called after every input with a copy of the engine from before it (None before any
        game), the input and the reply."""

    # --- plumbing -------------------------------------------------------------------------

    def feed(self, inp: Input) -> list[Verdict]:
        has = self.ref.has_engine
        before = self.ref.engine.clone() if self.watch is not None and has else None
        reply = self.ref.handle(inp)
        self.replies.append((inp, reply))
        if self.watch is not None:
            self.watch(before, inp, reply)
        return list(reply.verdicts)

    def at(self) -> float:
        self.t = round(self.t + self.step, 6)
        return self.t

    @property
    def game(self) -> WhatsUpState:
        return self.ref.engine

    # --- what people do ---------------------------------------------------------------------

    def start(
        self, players: tuple[str, ...] = PLAYERS, variant: Variant | None = None, seed: int = 1
    ) -> list[Verdict]:
        return self.feed(StartGame(players, variant or Variant(), seed, self.at()))

    def tap(self, card_id: str | None = None, uid: str | None = None) -> list[Verdict]:
        """A card arrives on the reader and leaves it (only the arrival counts)."""
        uid = uid or card_uid(card_id or "")
        out = self.feed(Observe(CardObservation(True, uid), self.at()))
        return out + self.feed(Observe(CardObservation(False, uid), self.at()))

    def lay_all(self, order: Iterable[str] | None = None, seed: int = 0) -> list[Verdict]:
        """The set-up scan: every card not laid yet tapped as it is laid (shuffled by `seed`
        unless an order is given)."""
        if order is None:
            cards = list(self.game.unlaid())
            random.Random(seed).shuffle(cards)
            order = cards
        out: list[Verdict] = []
        for cid in order:
            out += self.tap(cid)
        return out

    def figurine(self) -> list[Verdict]:
        return self.feed(Key(FIGURINE_KEY, self.at()))

    def reserve(self, card_id: str) -> list[Verdict]:
        """The player to move presses f and taps the card the figurine goes on."""
        return self.figurine() + self.tap(card_id)

    def count(self, answer: str | None) -> list[Verdict]:
        return self.feed(Key(COUNT_KEY, self.at(), answer))

    def press(self) -> list[Verdict]:
        out = self.feed(Observe(ButtonObservation(True), self.at()))
        return out + self.feed(Observe(ButtonObservation(False), self.at()))

    def undo(self) -> list[Verdict]:
        return self.feed(Undo(self.at()))

    def end(self) -> list[Verdict]:
        return self.feed(EndGame(self.at()))

    def next_game(self) -> list[Verdict]:
        return self.feed(NextGame(self.at()))

    # --- choosing cards (the players read the referee's record of the faces down) ---------

    def fitting(self, fits: bool = True, seat: int | None = None) -> list[str]:
        """Table cards the player may flip whose face down fits (or does not fit) the player."""
        g = self.game
        seat = g.current_player() if seat is None else seat
        return [c for c in g.flippable(seat) if g.fits(seat, g.down(c)) == fits]

    def take(self) -> list[Verdict]:
        """The player to move flips a card that fits (which one varies with the turn)."""
        cards = self.fitting(True)
        return self.tap(cards[self.game.turn * 7 % len(cards)])

    def miss(self) -> list[Verdict]:
        """The player to move flips a card that does not fit (which one varies with the turn)."""
        cards = self.fitting(False)
        return self.tap(cards[self.game.turn * 7 % len(cards)])


def new_table(
    players: tuple[str, ...] = PLAYERS,
    variant: Variant | None = None,
    seed: int = 1,
    *,
    laid: bool = True,
    log: Any = None,
) -> Table:
    """A referee with a started game, the cards laid (unless `laid` is False)."""
    ref = WhatsUpReferee(CODES, shared_registry(), titles=titles(), log=log)
    tb = Table(ref)
    tb.start(players, variant, seed)
    if laid:
        tb.lay_all(seed=seed)
    return tb


class Chaos:
    """Random behaviour at the table, legal and not: taps of any card (in collections, reserved
    by others), unknown tags and other games' tags, the figurine key at any time, counts right
    and wrong, the button, undos, ends and next games."""

    def __init__(self, table: Table, seed: int) -> None:
        self.tb = table
        self.rng = random.Random(seed)

    def step(self) -> list[Verdict]:
        tb, rng, ref = self.tb, self.rng, self.tb.ref
        if ref.phase == "over":
            if rng.random() < 0.3:
                return tb.tap(rng.choice(CARD_IDS))
            if rng.random() < 0.2:
                return tb.undo()
            return tb.next_game() + tb.lay_all(seed=rng.randrange(1000))
        g = tb.game
        r = rng.random()
        if g.in_setup:
            if r < 0.05:
                return tb.tap(rng.choice(CARD_IDS))  # perhaps one laid already
            if r < 0.07:
                return tb.count(str(rng.randint(0, 30)))
            if r < 0.08:
                return tb.undo()
            return tb.tap(rng.choice(g.unlaid()))
        if r < 0.05:
            return tb.tap(uid=rng.choice([UNKNOWN_UID, UPDOWN_UID]))
        if r < 0.13:
            return tb.figurine()
        if r < 0.16:
            return tb.count(rng.choice([None, str(len(g.table())), str(rng.randint(0, 30)), "x"]))
        if r < 0.18:
            return tb.press()
        if r < 0.23:
            return tb.undo()
        if r < 0.235:
            return tb.end()
        if r < 0.35:
            return tb.tap(rng.choice(CARD_IDS))
        fit = tb.fitting(rng.random() < 0.35)
        if fit:
            return tb.tap(rng.choice(fit))
        return tb.tap(rng.choice(g.table()))


def random_session(seed: int, steps: int = 300, log: Any = None) -> Table:
    """A session of random behaviour (`Chaos`) on a referee with the game started (set-up scan
    included), several games long when they end early."""
    tb = new_table(variant=Variant(first_game=seed % 2 == 0), seed=seed, laid=False, log=log)
    chaos = Chaos(tb, seed)
    for _ in range(steps):
        chaos.step()
    return tb


# --- public information ----------------------------------------------------------------------

_FACE = re.compile(rf"\b([123]) ({'|'.join(COLOURS)})\b")
_CARD_ID = re.compile(r"\bW\d{2}\b")


def faces_in(text: str) -> set[Face]:
    """Every face a text names ('2 green')."""
    return {Face(int(n), c) for n, c in _FACE.findall(text)}


def check_verdicts(
    before: WhatsUpState | None,
    after: WhatsUpState | None,
    inp: Input,
    verdicts: Iterable[Verdict],
    card: str | None = None,
) -> None:
    """What the table is told about one input keeps the faces down secret: no card id at all,
    and a face only where the table sees it now, face up: on the card the input concerns
    (`card`, the card tapped), on a card the input changed (an undo), or on a card carrying a
    figurine (the figurine key). Checked against the engine's private state before and after
    the input."""
    allowed: set[Face] = set()
    if after is not None:
        if card is not None and card in after.catalogue and after.is_laid(card):
            allowed.add(after.up(card))
        for cid in after.catalogue.ids():
            if not after.is_laid(cid):
                continue
            if before is not None and before.is_laid(cid):
                changed = (before.up(cid), before.owner(cid), before.figurine_on(cid)) != (
                    after.up(cid),
                    after.owner(cid),
                    after.figurine_on(cid),
                )
                if changed and isinstance(inp, Undo):
                    allowed.add(after.up(cid))
            if isinstance(inp, Key) and after.figurine_on(cid) is not None:
                allowed.add(after.up(cid))
    for v in verdicts:
        if v.seat is not None:
            continue
        for text in (v.text, v.correction or ""):
            assert not _CARD_ID.search(text), f"a card id in a verdict for the table: {text!r}"
            named = faces_in(text)
            assert named <= allowed, (
                f"faces {sorted(map(str, named - allowed))} named, but only "
                f"{sorted(map(str, allowed))} are up where this input looks: {text!r}"
            )


def tapped(inp: Input) -> str | None:
    """The item of a card that arrived on the reader with this input, if any."""
    if isinstance(inp, Observe) and isinstance(inp.observation, CardObservation):
        if inp.observation.arrived:
            if inp.tag is not None:
                return inp.tag.item
            return _CARD_OF_UID.get(inp.observation.uid)
    return None


def watch_secrets(table: Table) -> list[int]:
    """Check every input's verdicts from now on (`check_verdicts`), and the public view after
    it (`check_view`); returns a one-item list counting the verdicts checked."""
    checked = [0]

    def watch(before: WhatsUpState | None, inp: Input, reply: Reply) -> None:
        after = table.ref.engine if table.ref.has_engine else None
        if before is not None and after is not None and before.game_number != after.game_number:
            before = None
        check_verdicts(before, after, inp, reply.verdicts, tapped(inp))
        checked[0] += len(reply.verdicts)
        if after is not None:
            check_view(after, after.view(None))

    table.watch = watch
    return checked


def check_view(game: WhatsUpState, view: WhatsUpView) -> None:
    """The public view holds the face up of exactly the cards on the table, in place order, and
    nothing that names a card: no id, no face down."""
    assert view.seat is None
    ids = game.table()
    assert [c.place for c in view.table] == [game.place(c) for c in ids]
    assert [(c.count, c.colour) for c in view.table] == [(game.up(c).count, game.up(c).colour) for c in ids], (
        "a table card shown with another face than the one up"
    )
    assert [c.figurine for c in view.table] == [game.figurine_on(c) for c in ids]
    text = json.dumps(asdict(view))
    assert not _CARD_ID.search(text), f"a card id in the public view: {text}"


def table_cells(game: WhatsUpState) -> Mapping[tuple[int, int], str]:
    """(row, column) -> the face up, for the first game's rectangle."""
    out = {}
    for cid in game.table():
        p = game.place(cid)
        out[((p - 1) // 6 + 1, (p - 1) % 6 + 1)] = str(game.up(cid))
    return out
