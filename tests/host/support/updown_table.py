"""A physical table for referee tests: hole codes, a clock and a real tag book (SQLite in a
temporary folder), all feeding an `UpDownReferee` with the observations a real board model would
make. No sleeps: time is a number the test moves on."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tag_books import filled_book
from upref.board.codes import CodeTable
from upref.board.model import ButtonObservation, CardObservation, HoleObservation, HoleState
from upref.games.base import CHANCE
from upref.games.updown.cards import colour_name, load_catalogue
from upref.games.updown.position import Board, PairEnd, mix_board
from upref.games.updown.referee import UpDownReferee
from upref.games.updown.variant import Variant
from upref.referee.base import Reply
from upref.referee.inputs import Input, Observe, StartGame, Tick
from upref.referee.status import Verdict
from upref.store.tags import TagBook

CODES = CodeTable.load()
CODE_OF: dict[tuple[str, str], int] = {
    (e.pair_id, e.hidden): c for c in CODES.codes() if (e := CODES.lookup(c)) is not None
}
PLAYERS = ("Ann", "Bob", "Cy")


def card_uid(card_id: str) -> str:
    """A 7-byte NTAG UID for a task card id ('T07' -> '04A1B2C3D40780')."""
    return f"04A1B2C3D4{int(card_id[1:]):02X}80"


def enrolled_tags(
    extra: dict[str, tuple[str, str]] | None = None, path: Path | None = None
) -> TagBook:
    """A real tag book (SQLite; in a temporary folder unless `path` is given) with every
    default task card enrolled under `card_uid`, plus `extra` (uid -> (game, item))."""
    def fill(book: TagBook) -> None:
        for c in load_catalogue().cards:
            book.enroll(card_uid(c.id), "updown", c.id)

    reg = filled_book("upref-test-tags-", fill, path)
    for uid, (game, item) in (extra or {}).items():
        reg.enroll(uid, game, item)
    return reg


def code(pair: str, hidden: str) -> int:
    return CODE_OF[(pair, hidden)]


def other_end(c: int) -> int:
    end = CODES.lookup(c)
    assert end is not None
    return CODE_OF[(end.pair_id, end.visible)]


def state(c: int) -> HoleState:
    return HoleState(c, CODES.lookup(c), CODES.is_valid(c))


class Table:
    """The physical board and the people at it."""

    def __init__(
        self,
        referee: UpDownReferee,
        board: Board | None = None,
        *,
        seed: int = 1,
        t0: float = 1000.0,
        step: float = 0.25,
    ) -> None:
        self.ref = referee
        self.t = t0
        self.step = step
        self.codes: dict[int, int] = dict.fromkeys(range(1, 11), 0)
        self.replies: list[tuple[Input, Reply]] = []
        self.inputs: list[Input] = []
        if board is None:
            board = mix_board(random.Random(seed))
        self.fill(board)

    # --- plumbing -------------------------------------------------------------------------

    def feed(self, inp: Input) -> list[Verdict]:
        reply = self.ref.handle(inp)
        self.inputs.append(inp)
        self.replies.append((inp, reply))
        return list(reply.verdicts)

    def _advance(self) -> float:
        self.t = round(self.t + self.step, 6)
        return self.t

    def set(self, hole: int, new: int) -> list[Verdict]:
        old = self.codes[hole]
        self.codes[hole] = new
        obs = HoleObservation(hole, old, new, state(old), state(new))
        return self.feed(Observe(obs, self._advance()))

    # --- physical actions -----------------------------------------------------------------

    def fill(self, board: Sequence[PairEnd]) -> list[Verdict]:
        out: list[Verdict] = []
        for h, e in enumerate(board, start=1):
            out += self.set(h, code(e.pair, e.hidden))
        return out

    def pull(self, hole: int) -> list[Verdict]:
        return self.set(hole, 0)

    def put(self, hole: int, c: int) -> list[Verdict]:
        return self.set(hole, c)

    def flip(self, hole: int) -> list[Verdict]:
        """Pull the pair and put it back into its hole the other way up."""
        c = self.codes[hole]
        return self.pull(hole) + self.put(hole, other_end(c))

    def reinsert(self, hole: int) -> list[Verdict]:
        """Pull the pair and put it back unturned."""
        c = self.codes[hole]
        return self.pull(hole) + self.put(hole, c)

    def tap(self, card_id: str | None = None, uid: str | None = None) -> list[Verdict]:
        uid = uid or card_uid(card_id or "")
        out = self.feed(Observe(CardObservation(True, uid), self._advance()))
        return out + self.feed(Observe(CardObservation(False, uid), self._advance()))

    def press(self) -> list[Verdict]:
        out = self.feed(Observe(ButtonObservation(True), self._advance()))
        return out + self.feed(Observe(ButtonObservation(False), self._advance()))

    def tick(self, dt: float = 1.5) -> list[Verdict]:
        self.t = round(self.t + dt, 6)
        return self.feed(Tick(self.t))

    def at(self) -> float:
        return self._advance()

    # --- playing --------------------------------------------------------------------------

    def draw(self) -> list[Verdict]:
        """The player due taps a card from the stack's top group."""
        eng = self.ref.engine
        assert eng is not None and eng.current_player() == CHANCE
        return self.tap(eng.legal_actions()[0].card)

    def draw_all(self) -> list[Verdict]:
        out: list[Verdict] = []
        eng = self.ref.engine if self.ref.has_engine else None
        while eng is not None and eng.current_player() == CHANCE:
            out += self.draw()
        return out

    def play_turn(
        self, holes: Iterable[int] | None = None, *, button: bool = False
    ) -> list[Verdict]:
        """Flip three pairs (the hint's, else the first unturned) and let the turn end."""
        eng = self.ref.engine
        assert eng is not None and eng.current_player() >= 0
        if holes is None:
            hint = eng.hint() or ()
            rest = [h for h in range(1, 11) if h not in hint and h not in eng.turned]
            holes = (list(hint) + rest)[: 3 - len(eng.turned)]
        out: list[Verdict] = []
        for h in holes:
            out += self.flip(h)
        out += self.press() if button else self.tick()
        return out


# --- the engine's picture, corrections and chaos --------------------------------------------


def expected(ref: UpDownReferee, hole: int) -> int:
    eng = ref.engine
    assert eng is not None
    e = eng.board[hole - 1]
    return code(e.pair, e.hidden)


def invalid_code(magnets: str = "NN--") -> int:
    from upref.board.codes import code_of

    return code_of(magnets)


def suspect_code(ref: UpDownReferee, hole: int) -> int | None:
    """A code one flipped pole away from either end of the pair that belongs in `hole`."""
    from upref.board.codes import one_flip_neighbours

    c = expected(ref, hole)
    for near in one_flip_neighbours(c) + one_flip_neighbours(other_end(c)):
        if near not in (c, other_end(c)):
            return near
    return None


def wrong_hole_pair(ref: UpDownReferee, rng: random.Random | None = None) -> tuple[int, int]:
    """Two holes (a, b) such that a's pair, put into b, is not a suspect reading there."""
    from upref.hardware.codetable import suspect

    pairs = [(a, b) for a in range(1, 11) for b in range(1, 11) if a != b]
    if rng is not None:
        rng.shuffle(pairs)
    for a, b in pairs:
        ca = expected(ref, a)
        own_b = (expected(ref, b), other_end(expected(ref, b)))
        if not suspect(ca, own_b) and not suspect(other_end(ca), own_b):
            return a, b
    raise AssertionError("no such holes")


class Chaos:
    """Random table behaviour, legal and not, driven only through observations and inputs."""

    def __init__(self, table: Table, seed: int) -> None:
        self.tb = table
        self.rng = random.Random(seed)
        cat = load_catalogue()
        self.all_cards = [c.id for c in cat.cards]

    def fix(self) -> list[Verdict]:
        """Put every hole right: pull what is wrong, then put each own pair back as the engine
        has it."""
        ref, tb = self.tb.ref, self.tb
        wrong = [h for h in range(1, 11) if tb.codes[h] != expected(ref, h)]
        out: list[Verdict] = []
        for h in wrong:
            if tb.codes[h]:
                out += tb.pull(h)
        for h in wrong:
            out += tb.put(h, expected(ref, h))
        return out

    def step(self) -> list[Verdict]:
        tb, ref, rng = self.tb, self.tb.ref, self.rng
        eng = ref.engine
        assert eng is not None
        if ref.phase == "over":
            return self.next_game()
        if ref.phase == "setup":
            if any(tb.codes[h] == 0 for h in range(1, 11)):
                return self.next_game()
            return tb.tick(3.0)
        r = rng.random()
        if r < 0.004:  # the board goes away for a moment, while people play on
            from upref.referee.inputs import BoardOnline

            out = tb.feed(BoardOnline(False, tb.at()))
            h = rng.randint(1, 10)
            if eng.current_player() >= 0 and CODES.lookup(tb.codes[h]):
                out += tb.flip(h) if rng.random() < 0.5 else tb.tick(3.0)
            return out + tb.feed(BoardOnline(True, tb.at()))
        if r < 0.006:
            from upref.referee.inputs import BoardPicture

            return tb.feed(BoardPicture(tuple(tb.codes[h] for h in range(1, 11)), tb.at()))
        if r < 0.007:
            from upref.referee.inputs import EndGame

            return tb.feed(EndGame(tb.at()))
        if eng.current_player() == CHANCE:
            r = rng.random()
            if r < 0.08:
                return tb.tap(uid="04DEADBEEF0001")
            if r < 0.2:
                return tb.tap(rng.choice(self.all_cards))
            if r < 0.25:
                h = rng.randint(1, 10)
                return tb.flip(h) if CODES.lookup(tb.codes[h]) else self.fix()
            if r < 0.3 and any(tb.codes[h] != expected(ref, h) for h in range(1, 11)):
                return self.fix()
            return tb.draw()
        wrong = any(tb.codes[h] != expected(ref, h) for h in range(1, 11))
        if wrong and len(eng.turned) < 3 and rng.random() < 0.3:
            return self.fix()
        if wrong and len(eng.turned) == 3 and rng.random() < 0.7:
            return self.fix()
        r = rng.random()
        h = rng.randint(1, 10)
        if r < 0.45 and rng.random() < 0.7:
            h = (eng.hint() or (h,))[0]
        if r < 0.52 and CODES.lookup(tb.codes[h]) is None:
            return (tb.pull(h) if tb.codes[h] else []) + tb.put(h, expected(ref, h))
        if r < 0.45:
            return tb.flip(h)
        if r < 0.52:
            return tb.reinsert(h)
        if r < 0.58:
            a, b = wrong_hole_pair(ref, rng)
            ca = tb.codes[a] if CODES.lookup(tb.codes[a]) else expected(ref, a)
            return tb.pull(a) + tb.pull(b) + tb.put(b, ca if rng.random() < 0.5 else other_end(ca))
        if r < 0.62:
            return tb.pull(h) + tb.put(
                h, invalid_code(rng.choice(["NN--", "NNNN", "NS-S", "-N--"]))
            )
        if r < 0.66:
            s = suspect_code(ref, h)
            return tb.pull(h) + tb.put(h, s) if s is not None else []
        if r < 0.72:
            return tb.press()
        if r < 0.74:
            from upref.games.updown.referee import Hint

            return tb.feed(Hint(tb.at()))
        if r < 0.76:
            t = eng.task(eng.current_player())
            return tb.tap(t.id) if t is not None else []
        if r < 0.7625:
            from upref.referee.inputs import Undo

            return tb.feed(Undo(tb.at()))
        return tb.tick(rng.choice([0.3, 1.5, 3.0]))

    def next_game(self) -> list[Verdict]:
        from upref.referee.inputs import NextGame

        tb = self.tb
        out = tb.feed(NextGame(tb.at()))
        for h in range(1, 11):
            if tb.codes[h]:
                out += tb.pull(h)
        out += tb.fill(mix_board(self.rng))
        out += tb.tick()
        return out


# --- public information ----------------------------------------------------------------------

_COLOURS = ("red", "blue", "yellow", "white", "black")
_HOLE_UP = re.compile(r"\b[Hh]ole (\d+)(?: \(| turned: )(\w+) up")
_SO_UP = re.compile(r"so that (\w+) is up again")
_SOLVED = re.compile(r"solved T\d+ \([^)]*\)")
_NOW_UP = re.compile(r"\b[Hh]ole (\d+)(?: shows | \()(\w+)(?: up)? now")


def check_public(ref: UpDownReferee, v: Verdict) -> None:
    """A verdict for the table names a colour only as what is up in a hole (or on a card just
    solved), or as what a hole physically shows now ('hole 3 shows red now', for everyone to
    see); never a pair id, never an unsolved task card."""
    eng = ref.engine if ref.has_engine else None
    assert v.seat is None
    for text in (v.text, v.correction or ""):
        assert "P-" not in text, text
        if eng is None:
            continue
        for m in _NOW_UP.finditer(text):
            end = CODES.lookup(ref.picture[int(m.group(1)) - 1])
            assert end is not None and m.group(2) == colour_name(end.visible), text
        text = _NOW_UP.sub(lambda m: f"hole {m.group(1)}", text)
        shown = _SOLVED.sub("", text)  # a card is shown to all when it is solved
        for s in range(eng.num_players()):
            card = eng.task(s)
            if card is not None:
                assert not re.search(rf"\b{card.id}\b", shown), (card.id, text)
        for m in _HOLE_UP.finditer(text):
            hole, colour = int(m.group(1)), m.group(2)
            assert colour == colour_name(eng.board[hole - 1].visible), (text, eng.visible())
        for sentence in text.split("."):
            for m in _SO_UP.finditer(sentence):
                holes = {int(h) for h in re.findall(r"hole (\d+)", sentence)}
                assert len(holes) == 1, sentence
                assert m.group(1) == colour_name(eng.board[holes.pop() - 1].visible), sentence
        rest = _SO_UP.sub("", _HOLE_UP.sub("", _SOLVED.sub("", text)))
        for word in _COLOURS:
            assert not re.search(rf"\b{word}\b", rest), (word, text)


def check_status(ref: UpDownReferee) -> None:
    """Everything the public scoreboard gets is free of secrets."""
    st = ref.status()
    for v in st.verdicts:
        assert v.seat is None
    eng = ref.engine if ref.has_engine else None
    text = json.dumps(
        {
            "waiting": st.waiting_for,
            "corrections": st.corrections,
            "verdicts": [v.text for v in st.verdicts],
            "view": asdict(view) if (view := ref.view(None)) is not None else None,
        }
    )
    assert "P-" not in text and "hidden" not in text
    if eng is not None:
        for s in range(eng.num_players()):
            card = eng.task(s)
            if card is not None:
                assert not re.search(rf"\b{card.id}\b", text), (card.id, text)


class MemoryLog:
    """An in-memory game log (what `GameLog` records, without SQLite): each input's JSON form."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.finished: list[tuple[dict[str, object], float | None]] = []
        self.reopened = 0

    def append(self, entry: Mapping[str, Any]) -> int:
        self.entries.append(dict(entry))
        return len(self.entries)

    def finish(self, outcome: Mapping[str, object], t: float | None = None) -> None:
        self.finished.append((dict(outcome), t))

    def reopen(self) -> None:
        self.reopened += 1


def random_session(events: int, seed: int = 8) -> tuple[UpDownReferee, list[dict[str, Any]]]:
    """A long session of random play driven by board observations (with illegal moves, bad
    readings, undos and several games): the referee and every input it was fed, as the log
    records them."""
    ref = UpDownReferee(CODES, enrolled_tags(), hints=True)
    mem = MemoryLog()
    ref.attach(mem)
    tb = Table(ref, seed=seed)
    tb.feed(StartGame(PLAYERS, Variant(), seed, tb.at()))
    chaos = Chaos(tb, seed)
    while len(mem.entries) < events:
        chaos.step()
    return ref, mem.entries


# --- what a refused end of turn names, and following it (ruling M-15) -------------------------

_SEVERAL = re.compile(r"\((\d+)\) (.+?) \[([^\]]+)\]\.(?= \(\d+\) |$)")
_MOVE = re.compile(r"Move the pair from hole (\d+) back into hole (\d+)\.?")
_TURN_BACK = re.compile(r"Turn the pair in hole (\d+) back so that (\w+) is up again\.?")
_EMPTY = re.compile(r"Holes? ([\d, and]+) (?:is|are) empty")
_MORE = re.compile(r"(?:[Tt]urn|needs) (one|two|three) (?:more )?different pairs?")
_WORDS = {"one": 1, "two": 2, "three": 3}


def named(v: Verdict) -> list[tuple[str, str]]:
    """The reasons a refused end of turn names, in order, each (sentence, rule)."""
    several = re.match(r"The turn cannot end yet, for (\d+) reasons\. ", v.text)
    if several:
        parts = _SEVERAL.findall(v.text[several.end() :])
        assert [int(n) for n, _, _ in parts] == list(range(1, int(several.group(1)) + 1)), v.text
        return [(text + ".", rule) for _, text, rule in parts]
    first = re.fullmatch(r"First (.+) The turn can end after that\.", v.text)
    if first:
        assert v.correction is not None and lower(v.correction) == first.group(1), v.text
        return [(v.correction, v.rule or "")]
    return [(v.text, v.rule or "")]


def lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def missing_flips(sentence: str) -> int:
    """How many more flips a flips-still-missing reason asks for."""
    m = _MORE.search(sentence)
    assert m is not None, sentence
    return _WORDS[m.group(1)]


class HandTable(Table):
    """A table that also knows the pairs in hand, each as it was last seen (its code)."""

    def __init__(self, referee: UpDownReferee, board: Board | None = None, **kw: Any) -> None:
        self.hand: dict[str, int] = {}
        super().__init__(referee, board, **kw)

    def set(self, hole: int, new: int) -> list[Verdict]:
        old = self.codes[hole]
        if old and (end := CODES.lookup(old)) is not None:
            self.hand[end.pair_id] = old
        if new and (end := CODES.lookup(new)) is not None:
            self.hand.pop(end.pair_id, None)
        return super().set(hole, new)

    def where(self, pair: str) -> int | None:
        """The hole the pair is in, or None when it is in hand."""
        for h in range(1, 11):
            end = CODES.lookup(self.codes[h])
            if end is not None and end.pair_id == pair:
                return h
        return None

    def home(self, pair: str) -> int:
        eng = self.ref.engine
        assert eng is not None
        return next(h for h, e in enumerate(eng.board, start=1) if e.pair == pair)

    def bring(self, pair: str, hole: int, hidden: str | None = None) -> list[Verdict]:
        """Put `pair` into `hole` (pulling it from where it is, and first taking whatever pair
        is in `hole` into hand), with `hidden` down, or as it is now."""
        out: list[Verdict] = []
        at = self.where(pair)
        c = self.codes[at] if at is not None else self.hand[pair]
        if at is not None:
            out += self.pull(at)
        if self.codes[hole]:
            out += self.pull(hole)
        if hidden is not None:
            c = code(pair, hidden)
        return out + self.put(hole, c)


def follow(tb: HandTable, reasons: Sequence[tuple[str, str]]) -> tuple[list[Verdict], int]:
    """Carry out the named corrections in order, as the table would: the pair a correction
    names is the one whose own hole it names (moved home as it is, unless the very next
    correction names its colour; turned to the colour named); an empty hole named gets its own
    pair back as it is. Returns the verdicts and how many more flips the list asks for."""
    eng = tb.ref.engine
    assert eng is not None
    out: list[Verdict] = []
    flips = 0
    for i, (sentence, _rule) in enumerate(reasons):
        nxt = reasons[i + 1][0] if i + 1 < len(reasons) else ""
        if m := _MOVE.fullmatch(sentence):
            home = int(m.group(2))
            pair = eng.board[home - 1].pair
            turn = _TURN_BACK.fullmatch(nxt)
            hidden = eng.board[home - 1].hidden if turn and int(turn.group(1)) == home else None
            out += tb.bring(pair, home, hidden)
        elif m := _TURN_BACK.fullmatch(sentence):
            home = int(m.group(1))
            want = eng.board[home - 1]
            assert colour_name(want.visible) == m.group(2), sentence
            if tb.codes[home] != code(want.pair, want.hidden):
                out += tb.bring(want.pair, home, want.hidden)
        elif m := _EMPTY.match(sentence):
            for h in (int(x) for x in re.findall(r"\d+", m.group(1))):
                out += tb.bring(eng.board[h - 1].pair, h)
        else:
            flips = missing_flips(sentence)
    return out, flips
