"""A Flip a Bird table for referee tests: the real deck dealt from a seed, every card and tip card
with a tag in a real tag book (SQLite in a temporary folder), and the people at the table,
who tap, press the button and use keys as a real table would, feeding a `FlipReferee`. The table
keeps the physical truth (the pile as it lies, each hand) apart from the referee, so tests can
compare the two. No sleeps: time is a number the table moves on."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tag_books import filled_book
from upref.board.codes import CodeTable
from upref.board.model import ButtonObservation, CardObservation
from upref.games.flipabird.cards import load_catalogue
from upref.games.flipabird.engine import FlipABirdState
from upref.games.flipabird.position import deal
from upref.games.flipabird.referee import FlipReferee
from upref.games.flipabird.variant import Variant
from upref.referee.base import Reply
from upref.referee.inputs import Input, Key, Observe, StartGame, Undo
from upref.referee.status import Verdict
from upref.registry import titles
from upref.store.tags import TagBook

CODES = CodeTable.load()
CAT = load_catalogue()
ITEMS: tuple[str, ...] = (*CAT.ids(), *(t.id for t in CAT.tips))
UID: dict[str, str] = {item: f"04F1B2{n:04X}{(n * 37) & 0xFF:02X}C3" for n, item in enumerate(ITEMS, 1)}
PLAYERS4 = ("Anton", "Pia", "Simon", "Hannah")


def enrolled_tags(path: Path | None = None) -> TagBook:
    """A real tag book with every Flip a Bird card and tip card enrolled under `UID`."""
    def fill(reg: TagBook) -> None:
        for item, uid in UID.items():
            reg.enroll(uid, "flipabird", item)

    return filled_book("upref-test-flip-", fill, path)


@dataclass
class Truth:
    """What lies on the table: the draw pile top first, each hand, the box."""

    stack: list[str]
    hands: list[list[str]]
    box: list[str]

    def copy(self) -> Truth:
        return Truth(list(self.stack), [list(h) for h in self.hands], list(self.box))


@dataclass
class FlipTable:
    """The table and the people at it, feeding `ref`."""

    ref: FlipReferee
    players: tuple[str, ...] = ("Ann", "Bob", "Cy")
    seed: int = 1
    variant: Variant = field(default_factory=Variant)
    t: float = 1000.0
    step: float = 0.25

    def __post_init__(self) -> None:
        pile, hands, box = deal(len(self.players), random.Random(self.seed), self.variant, CAT)
        self.pile = pile
        self.truth = Truth(list(pile), [list(h) for h in hands], list(box))
        self.replies: list[tuple[Input, Reply]] = []
        self.inputs: list[Input] = []
        self._saved: dict[tuple[int, int], Truth] = {}
        self._last: tuple[int, int] | None = None
        self._drawn: tuple[int, int] | None = None  # the turn whose player has drawn already

    # --- plumbing -----------------------------------------------------------------------------

    @property
    def eng(self) -> FlipABirdState:
        return self.ref.engine

    def at(self) -> float:
        self.t = round(self.t + self.step, 6)
        return self.t

    def feed(self, inp: Input, *, remember: bool = True) -> list[Verdict]:
        reply = self.ref.handle(inp)
        self.inputs.append(inp)
        self.replies.append((inp, reply))
        if remember:
            self._remember()
        return list(reply.verdicts)

    def _turn(self) -> tuple[int, int] | None:
        if not self.ref.has_engine or self.ref.phase != "play":
            return None
        eng = self.ref.engine
        if eng.phase != "turn":
            return None
        return (eng.game_number, eng.turn)

    def _remember(self) -> None:
        """Keep the table's truth as each turn starts, so an undo can put it back."""
        key = self._turn()
        if key is not None and key != self._last:
            self._saved[key] = self.truth.copy()
        self._last = key

    # --- physical actions ---------------------------------------------------------------------

    def start(self, seed: int | None = None) -> list[Verdict]:
        return self.feed(StartGame(self.players, self.variant, self.seed if seed is None else seed, self.at()))

    def tap(self, item: str) -> list[Verdict]:
        uid = UID[item]
        out = self.feed(Observe(CardObservation(True, uid), self.at()))
        return out + self.feed(Observe(CardObservation(False, uid), self.at()))

    def press(self) -> list[Verdict]:
        out = self.feed(Observe(ButtonObservation(True), self.at()))
        return out + self.feed(Observe(ButtonObservation(False), self.at()))

    def key(self, name: str, arg: str | None = None) -> list[Verdict]:
        return self.feed(Key(name, self.at(), arg))

    def undo(self) -> list[Verdict]:
        out = self.feed(Undo(self.at()), remember=False)
        key = self._turn()
        if key is not None and key in self._saved:
            self.truth = self._saved[key].copy()  # the table puts back what the referee says
        self._last = key
        self._drawn = None
        return out

    def scan(self, count: int | None = None) -> list[Verdict]:
        """Tap the pile's cards as they are stacked: the bottom card first, the top card last."""
        out: list[Verdict] = []
        order = list(reversed(self.pile))
        for card in order[: len(order) if count is None else count]:
            out += self.tap(card)
        return out

    def started(self) -> list[Verdict]:
        """Start and scan the whole pile."""
        return self.start() + self.scan()

    def draw(self) -> None:
        """The player to move draws the top card (not in the final phase; once a turn)."""
        seat = self.eng.current_player()
        key = self._turn()
        if not self.eng.final and self.truth.stack and key != self._drawn:
            self.truth.hands[seat].append(self.truth.stack.pop(0))
            self._drawn = key

    def play(self, card: str | None = None, *, draw: bool = True) -> list[Verdict]:
        """The player to move draws and plays `card` (default: the card held longest); a card
        the referee refuses goes back into the hand."""
        seat = self.eng.current_player()
        if draw:
            self.draw()
        hand = self.truth.hands[seat]
        card = card if card is not None else hand[0]
        held = card in hand
        if held:
            hand.remove(card)
        out = self.tap(card)
        if held and not any(r.card == card for r in self.eng.row):
            hand.append(card)
        return out

    def play_faces(self, *faces: bool) -> list[Verdict]:
        """Several plays in a row (no scan: each with the key for its face first)."""
        out: list[Verdict] = []
        for up in faces:
            if up:
                out += self.key("open")
            out += self.play()
        return out

    def claim(self, *, button: bool = False) -> list[Verdict]:
        return self.press() if button else self.key("claim")

    def tips(self, red: bool | dict[int, bool]) -> list[Verdict]:
        """Every missing tip, tapped as tip cards (`red` for all, or per seat)."""
        out: list[Verdict] = []
        for seat, tip in enumerate(self.eng.tips() or ()):
            if tip is None:
                r = red if isinstance(red, bool) else red[seat]
                out += self.tap(f"TIP-{'R' if r else 'G'}{seat + 1}")
        return out

    def take_all(self) -> list[Verdict]:
        """The takers take the claimed row's cards in row order, each in turn."""
        out: list[Verdict] = []
        while self.eng.phase == "take":
            claim = self.eng.claim_state
            assert claim is not None
            out += self.tap(claim.left[0])
        return out

    def public(self) -> list[Verdict]:
        return [v for _, r in self.replies for v in r.verdicts if v.seat is None]


class Chaos:
    """A random table: legal play most of the time, and now and then a mistake (a second card
    drawn, a row card or a won card tapped, a claim with no row, a tip of the accused, a card
    tapped twice, a key out of place) or an undo. Keeps its truth in step with the referee."""

    def __init__(self, table: FlipTable, seed: int) -> None:
        self.tb = table
        self.rng = random.Random(seed)

    def run(self, steps: int) -> Iterator[FlipTable]:
        for _ in range(steps):
            self.step()
            yield self.tb
            if self.tb.ref.phase == "over" and self.tb.ref.status().waiting_for == "The next game (n), or a new one.":
                return

    def step(self) -> None:
        tb, rng = self.tb, self.rng
        ref = tb.ref
        if ref.phase == "setup":
            if ref.scanning and rng.random() < 0.02:
                tb.key("skip-scan")
                return
            done = len(ref.scanned)
            order = list(reversed(tb.pile))
            tb.tap(order[done] if rng.random() > 0.05 or done == 0 else order[done - 1])
            return
        eng = tb.eng
        if ref.phase == "over":
            self._end(eng)
            return
        r = rng.random()
        if r < 0.04 and eng.can_undo():
            tb.undo()
            return
        if r < 0.09:
            self._mistake(eng)
            return
        if eng.phase == "tips":
            tips = eng.tips() or ()
            missing = [s for s, t in enumerate(tips) if t is None]
            seat = rng.choice(missing)
            red = rng.random() < 0.5
            if rng.random() < 0.5:
                tb.tap(f"TIP-{'R' if red else 'G'}{seat + 1}")
            else:
                tb.key("tip", f"{seat + 1} {'red' if red else 'green'}")
            return
        if eng.phase == "take":
            claim = eng.claim_state
            assert claim is not None
            tb.tap(rng.choice(claim.left))
            return
        if eng.can_pass() and rng.random() < 0.5:
            tb.key("pass")
            return
        if eng.row and rng.random() < 0.15:
            tb.claim(button=rng.random() < 0.5)
            return
        if eng.can_pass():
            tb.claim()
            return
        if eng.last_play is not None and rng.random() < 0.05:
            tb.key("wrong-way")
            return
        if not eng.scanned and rng.random() < 0.5:
            tb.key("open" if rng.random() < 0.6 else "covered")
        seat = eng.current_player()
        tb.draw()
        hand = tb.truth.hands[seat]
        tb.play(rng.choice(hand), draw=False)

    def _mistake(self, eng: FlipABirdState) -> None:
        tb, rng = self.tb, self.rng
        choices: list[str] = []
        if eng.phase == "turn" and eng.scanned and len(tb.truth.stack) >= 2:
            choices.append("second")
        if eng.row:
            choices.append("row")
        if any(eng.won(s) for s in range(eng.num_players())):
            choices.append("won")
        choices += ["claim", "accused-tip", "pass", "wrong-way", "tip-card"]
        what = rng.choice(choices)
        if what == "second":
            tb.tap(tb.truth.stack[1])  # drew two cards; puts the second back: the truth holds
        elif what == "row":
            tb.tap(rng.choice(eng.row).card)
        elif what == "won":
            seat = rng.choice([s for s in range(eng.num_players()) if eng.won(s)])
            tb.tap(rng.choice(eng.won(seat)).id)
        elif what == "claim":
            tb.claim(button=rng.random() < 0.5)
        elif what == "accused-tip":
            tb.tap(f"TIP-G{(eng.current_player() - 1) % eng.num_players() + 1}")
        elif what == "pass":
            tb.key("pass")
        elif what == "wrong-way":
            tb.key("wrong-way")
        else:
            tb.tap("TIP-R1")

    def _end(self, eng: FlipABirdState) -> None:
        """At the end: the won cards tapped (some by the wrong player), the button or k."""
        tb, rng = self.tb, self.rng
        won = [c.id for s in range(eng.num_players()) for c in eng.won(s)]
        if won and rng.random() < 0.7:
            tb.tap(rng.choice(won))
        elif rng.random() < 0.5:
            tb.press()
        else:
            tb.key("confirm-next")


def new_table(
    players: tuple[str, ...] = ("Ann", "Bob", "Cy"),
    seed: int = 1,
    variant: Variant | None = None,
    **kwargs: object,
) -> FlipTable:
    """A referee with every card enrolled, and its table; nothing started yet."""
    tag_book = kwargs.pop("tag_book", None) or enrolled_tags()
    ref = FlipReferee(CODES, tag_book, titles=titles(), **kwargs)  # type: ignore[arg-type]
    return FlipTable(ref, players, seed, variant or Variant())
