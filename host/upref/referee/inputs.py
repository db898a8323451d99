"""What a referee is fed: board observations with their time, and what people enter on the host.
Each input is a small frozen dataclass carrying its time `t` (seconds, any fixed epoch; a
referee measures durations only as differences of these times and never reads a clock).

Every input has a JSON form, a dict with a `"kind"`, the time `"t"` and its fields
(`to_dict` / `from_dict`); the game log stores exactly that (docs/log-format.md). Observations
are stored by what the board reported (hole and codes, card UID, button state, fault), never
as Python reprs; `from_dict` rebuilds their `HoleState`s from the code table.

The inputs here are every game's. A game adds its own by subclassing `GameInput` (a `kind`
of its own, its fields in and out of JSON) and listing the class in its referee's `INPUTS`;
a key that only names an action and perhaps one answer needs no class at all: `Key`.

Two inputs carry a field the referee fills in before it logs them, so that a replay needs
nothing but the log: `StartGame.setup` (what the game needs of the table at the start, e.g.
the board's codes) and `Observe.tag` (what the tag book said about a card when it arrived).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, ClassVar, Self

from upref.board.codes import CodeTable
from upref.board.model import (
    ButtonObservation,
    CardObservation,
    FaultObservation,
    HoleObservation,
    HoleState,
    Observation,
)
from upref.games.base import Variant

__all__ = [
    "BoardOnline",
    "BoardPicture",
    "EndGame",
    "GameInput",
    "Input",
    "InputCodec",
    "Key",
    "NextGame",
    "Observe",
    "StartGame",
    "TagInfo",
    "Tick",
    "Undo",
]


@dataclass(frozen=True)
class StartGame:
    """Start a game with `players` (in seat order, clockwise from the one who begins), the
    game's `variant` (its JSON data; a game's `Variant` object is turned into that) and the
    seed of its shuffles. `setup` is filled in by the referee before the input is logged with
    what the game needs to know of the table at that moment (Up And Down: the board's codes);
    a replay takes it from the log."""

    players: tuple[str, ...]
    variant: Mapping[str, Any] | Variant = field(default_factory=dict)
    seed: int = 0
    t: float = 0.0
    setup: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        v = self.variant
        data = v.to_dict() if hasattr(v, "to_dict") else dict(v)  # type: ignore[arg-type]
        object.__setattr__(self, "variant", data)
        object.__setattr__(self, "players", tuple(self.players))

    @property
    def variant_data(self) -> dict[str, Any]:
        return dict(self.variant)  # type: ignore[arg-type]


@dataclass(frozen=True)
class TagInfo:
    """What the tag book said about a card's UID: its game and item, or both None for a
    tag that is not enrolled."""

    game: str | None
    item: str | None

    @property
    def enrolled(self) -> bool:
        return self.game is not None


@dataclass(frozen=True)
class Observe:
    """A board observation (`upref.board.model`) made at time `t`. For a card that arrived,
    `tag` is filled in by the referee (from its tag book) before the input is logged.

    Where the board said when and which: `board_ms`, the board's own time of the event in ms
    since its boot (for an event replayed from the board's memory, whose `t` is then when it
    happened on the board, not when it reached the host), and `seq`/`boot`, the event's frame
    sequence number and the board's boot id (a resumed host asks the board for what came after
    them). All None when unknown (older logs, a board of protocol 1, a snapshot's difference)."""

    observation: Observation
    t: float
    tag: TagInfo | None = None
    board_ms: int | None = None
    seq: int | None = None
    boot: str | None = None


@dataclass(frozen=True)
class BoardOnline:
    """The link reports the board online (True) or silent / unplugged (False)."""

    online: bool
    t: float


@dataclass(frozen=True)
class BoardPicture:
    """The board's full picture, codes of holes 1..N (after a resume or a reconnect, from the
    board model once its first snapshot is in). Logged as kind `picture`."""

    holes: tuple[int, ...]
    t: float


class GameInput:
    """An input of one game's own (a dataclass with `t` and its fields). `kind` names it in
    the log; `fields()` gives its JSON fields besides kind and t, `from_fields` rebuilds it."""

    kind: ClassVar[str]
    t: float

    def fields(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_fields(cls, t: float, data: Mapping[str, Any]) -> Self:
        return cls(t)  # type: ignore[call-arg]


@dataclass(frozen=True)
class Undo(GameInput):
    """Take back the last turn (the turn in progress, or else the turn before)."""

    kind: ClassVar[str] = "undo"
    t: float


@dataclass(frozen=True)
class EndGame(GameInput):
    """Stop the game now (the game's own scores decide the winner); or cancel a start still
    waiting."""

    kind: ClassVar[str] = "end"
    t: float


@dataclass(frozen=True)
class NextGame(GameInput):
    """After a game: the next one, same players and variant."""

    kind: ClassVar[str] = "next"
    t: float


@dataclass(frozen=True)
class Tick(GameInput):
    """Time passes (no event): lets whatever waits on time happen (a settled turn ends)."""

    kind: ClassVar[str] = "tick"
    t: float


@dataclass(frozen=True)
class Key(GameInput):
    """A key a game gives a meaning to (`name`: "draw", "claim", "gift" ...), with the answer
    to its prompt when it has one (`arg`: "Bob 2, Cy 1")."""

    kind: ClassVar[str] = "key"
    name: str
    t: float
    arg: str | None = None

    def fields(self) -> dict[str, Any]:
        d: dict[str, Any] = {"key": self.name}
        if self.arg is not None:
            d["arg"] = self.arg
        return d

    @classmethod
    def from_fields(cls, t: float, data: Mapping[str, Any]) -> Key:
        arg = data.get("arg")
        return cls(str(data["key"]), t, None if arg is None else str(arg))


Input = StartGame | Observe | BoardOnline | BoardPicture | GameInput

_GENERIC: tuple[type[GameInput], ...] = (Undo, EndGame, NextGame, Tick, Key)
_OBSERVATION_KINDS: dict[type, str] = {
    HoleObservation: "hole",
    CardObservation: "card",
    ButtonObservation: "button",
    FaultObservation: "fault",
}
_FIXED_KINDS = ("start", "online", "picture", *_OBSERVATION_KINDS.values())


class InputCodec:
    """Inputs to and from their JSON form: the generic ones plus a game's own (`extra`).

    :raises ValueError: when two input classes claim one kind.
    """

    def __init__(self, extra: Iterable[type[GameInput]] = ()) -> None:
        self._classes: dict[str, type[GameInput]] = {}
        for cls in (*_GENERIC, *extra):
            if cls.kind in self._classes or cls.kind in _FIXED_KINDS:
                raise ValueError(f"two inputs are called {cls.kind!r}")
            self._classes[cls.kind] = cls

    @property
    def kinds(self) -> tuple[str, ...]:
        """Every kind this codec reads, for docs and messages."""
        return (*_FIXED_KINDS, *self._classes)

    def kind_of(self, inp: Input) -> str:
        """The JSON kind of an input ('hole', 'card', 'tick', ...)."""
        if isinstance(inp, Observe):
            return _OBSERVATION_KINDS[type(inp.observation)]
        if isinstance(inp, StartGame):
            return "start"
        if isinstance(inp, BoardOnline):
            return "online"
        if isinstance(inp, BoardPicture):
            return "picture"
        return inp.kind

    def to_dict(self, inp: Input) -> dict[str, Any]:
        """The JSON form: {"kind": ..., "t": ..., fields...}."""
        d: dict[str, Any] = {"kind": self.kind_of(inp), "t": inp.t}
        if isinstance(inp, Observe):
            obs = inp.observation
            if isinstance(obs, HoleObservation):
                d.update(hole=obs.hole, old=obs.old_code, new=obs.new_code)
            elif isinstance(obs, CardObservation):
                d.update(arrived=obs.arrived, uid=obs.uid)
                if inp.tag is not None:
                    d["tag"] = (
                        {"game": inp.tag.game, "item": inp.tag.item} if inp.tag.enrolled else None
                    )
            elif isinstance(obs, ButtonObservation):
                d.update(pressed=obs.pressed)
            else:
                d.update(
                    key=obs.key, raised=obs.raised, fault=obs.kind, where=obs.where, text=obs.text
                )
            # "board_seq", not "seq": a log entry's own number is its "seq" (docs/log-format.md)
            for key, name in (("board_ms", "board_ms"), ("seq", "board_seq"), ("boot", "boot")):
                if getattr(inp, key) is not None:
                    d[name] = getattr(inp, key)
        elif isinstance(inp, StartGame):
            d.update(players=list(inp.players), variant=inp.variant_data, seed=inp.seed)
            for k, v in (inp.setup or {}).items():
                d[k] = list(v) if isinstance(v, tuple) else v
        elif isinstance(inp, BoardOnline):
            d.update(online=inp.online)
        elif isinstance(inp, BoardPicture):
            d.update(holes=list(inp.holes))
        else:
            d.update(inp.fields())
        return d

    def from_dict(self, d: Mapping[str, Any], codes: CodeTable) -> Input:
        """The input a JSON dict stands for (`to_dict`'s inverse); `codes` rebuilds hole
        states.

        :raises ValueError: for an unknown kind or missing or malformed fields.
        """
        try:
            inp = self._from_dict(d, codes)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a referee input: {dict(d)!r} ({exc!r})") from None
        if isinstance(inp, Observe) and ("board_ms" in d or "board_seq" in d or "boot" in d):
            try:
                inp = replace(
                    inp,
                    board_ms=None if d.get("board_ms") is None else int(d["board_ms"]),
                    seq=None if d.get("board_seq") is None else int(d["board_seq"]),
                    boot=None if d.get("boot") is None else str(d["boot"]),
                )
            except (TypeError, ValueError) as exc:
                raise ValueError(f"not a referee input: {dict(d)!r} ({exc!r})") from None
        return inp

    def _from_dict(self, d: Mapping[str, Any], codes: CodeTable) -> Input:
        """The input of an entry's kind and fields; from_dict turns its errors into ValueError."""
        kind = d["kind"]
        t = float(d["t"])
        if kind == "hole":
            old, new = int(d["old"]), int(d["new"])
            obs: Observation = HoleObservation(
                int(d["hole"]), old, new, _state(codes, old), _state(codes, new)
            )
            return Observe(obs, t)
        if kind == "card":
            tag: TagInfo | None = None
            if "tag" in d:
                raw = d["tag"]
                tag = TagInfo(None, None) if raw is None else TagInfo(raw["game"], raw["item"])
            return Observe(CardObservation(bool(d["arrived"]), str(d["uid"])), t, tag)
        if kind == "button":
            return Observe(ButtonObservation(bool(d["pressed"])), t)
        if kind == "fault":
            return Observe(
                FaultObservation(
                    str(d["key"]),
                    bool(d["raised"]),
                    str(d["fault"]),
                    str(d["where"]),
                    str(d.get("text", "")),
                ),
                t,
            )
        if kind == "start":
            fixed = ("kind", "t", "players", "variant", "seed")
            return StartGame(
                tuple(str(p) for p in d["players"]),
                dict(d.get("variant") or {}),
                int(d.get("seed", 0)),
                t,
                {k: v for k, v in d.items() if k not in fixed},
            )
        if kind == "online":
            return BoardOnline(bool(d["online"]), t)
        if kind == "picture":
            return BoardPicture(tuple(int(c) for c in d["holes"]), t)
        cls = self._classes.get(str(kind))
        if cls is None:
            raise ValueError(
                f"unknown input kind {kind!r} (this game knows {', '.join(self.kinds)})"
            )
        return cls.from_fields(t, d)


@lru_cache(maxsize=1024)
def _state(codes: CodeTable, code: int) -> HoleState:
    """The hole state a code stands for (cached: replays decode many)."""
    return HoleState(code, codes.lookup(code), codes.is_valid(code))
