"""What the referee is fed: board observations with their time, and what people enter on the
host. Each input is a small frozen dataclass carrying its time `t` (seconds, any fixed epoch;
the referee measures durations only as differences of these times and never reads a clock).

Every input has a JSON form, a dict with a `"kind"`, the time `"t"` and its fields
(`to_dict` / `from_dict`); the game log stores exactly that (docs/log-format.md). Observations
are stored by what the board reported (hole and codes, card UID, button state, fault), never
as Python reprs; `from_dict` rebuilds their `HoleState`s from the code table.

Two inputs carry a field the referee fills in before it logs them, so that a replay needs
nothing but the log: `StartGame.holes` (the board's codes when the start was asked) and
`Observe.tag` (what the tag registry said about a card when it arrived).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from upref.board.codes import CodeTable
from upref.board.model import (
    ButtonObservation,
    CardObservation,
    FaultObservation,
    HoleObservation,
    HoleState,
    Observation,
)
from upref.games.updown.engine import Variant

__all__ = [
    "KINDS",
    "BoardOnline",
    "EndGame",
    "Hint",
    "Input",
    "NextGame",
    "Observe",
    "Picture",
    "StartGame",
    "TagInfo",
    "Tick",
    "Undo",
    "from_dict",
    "kind_of",
    "to_dict",
    "variant_from_dict",
    "variant_to_dict",
]


@dataclass(frozen=True)
class StartGame:
    """Start a game with `players` (clockwise from the youngest), `variant` and the seed of the
    stack's shuffle. The board is what the sensors show: `holes` (codes of holes 1..10) is
    filled in by the referee from its picture before the input is logged; a replay takes the
    picture from it."""

    players: tuple[str, ...]
    variant: Variant = Variant()
    seed: int = 0
    t: float = 0.0
    holes: tuple[int, ...] | None = None


@dataclass(frozen=True)
class TagInfo:
    """What the tag registry said about a card's UID: its game and item, or both None for a
    tag that is not enrolled."""

    game: str | None
    item: str | None

    @property
    def enrolled(self) -> bool:
        return self.game is not None


@dataclass(frozen=True)
class Observe:
    """A board observation (`upref.board.model`) made at time `t`. For a card that arrived, `tag`
    is filled in by the referee (from its registry) before the input is logged."""

    observation: Observation
    t: float
    tag: TagInfo | None = None


@dataclass(frozen=True)
class BoardOnline:
    """The link reports the board online (True) or silent / unplugged (False)."""

    online: bool
    t: float


@dataclass(frozen=True)
class Picture:
    """The board's full picture, codes of holes 1..N (after a resume or a reconnect, from the
    board model once its first snapshot is in): each hole that differs from the referee's
    picture is taken as an observation of that hole, in hole order."""

    holes: tuple[int, ...]
    t: float


@dataclass(frozen=True)
class Undo:
    """Take back the last turn (the turn in progress, or else the turn before)."""

    t: float


@dataclass(frozen=True)
class EndGame:
    """Stop the game now (most shovels wins, ties shared); or cancel a start still waiting."""

    t: float


@dataclass(frozen=True)
class NextGame:
    """After a game: the players re-mix the pairs; the next game starts from what the sensors
    show once every hole is filled again."""

    t: float


@dataclass(frozen=True)
class Tick:
    """Time passes (no event): lets a settled turn end on time."""

    t: float


@dataclass(frozen=True)
class Hint:
    """The player to move asks for a hint (only when the referee has hints on)."""

    t: float


Input = StartGame | Observe | BoardOnline | Picture | Undo | EndGame | NextGame | Tick | Hint

# kind -> what it is, for docs and the CLI
KINDS: dict[str, str] = {
    "start": "StartGame",
    "hole": "Observe(HoleObservation)",
    "card": "Observe(CardObservation)",
    "button": "Observe(ButtonObservation)",
    "fault": "Observe(FaultObservation)",
    "online": "BoardOnline",
    "picture": "Picture",
    "undo": "Undo",
    "end": "EndGame",
    "next": "NextGame",
    "tick": "Tick",
    "hint": "Hint",
}

_SIMPLE: dict[type, str] = {
    Undo: "undo",
    EndGame: "end",
    NextGame: "next",
    Tick: "tick",
    Hint: "hint",
}
_SIMPLE_BY_KIND: dict[str, type] = {v: k for k, v in _SIMPLE.items()}


def variant_to_dict(variant: Variant) -> dict[str, Any]:
    return {
        "short_game_target": variant.short_game_target,
        "super_buddler": variant.super_buddler,
        "mole_mix": variant.mole_mix,
    }


def variant_from_dict(data: dict[str, Any] | None) -> Variant:
    data = data or {}
    return Variant(
        short_game_target=data.get("short_game_target"),
        super_buddler=bool(data.get("super_buddler", False)),
        mole_mix=bool(data.get("mole_mix", False)),
    )


def kind_of(inp: Input) -> str:
    """The JSON kind of an input ('hole', 'card', 'tick', ...)."""
    if isinstance(inp, Observe):
        obs = inp.observation
        if isinstance(obs, HoleObservation):
            return "hole"
        if isinstance(obs, CardObservation):
            return "card"
        if isinstance(obs, ButtonObservation):
            return "button"
        return "fault"
    if isinstance(inp, StartGame):
        return "start"
    if isinstance(inp, BoardOnline):
        return "online"
    if isinstance(inp, Picture):
        return "picture"
    return _SIMPLE[type(inp)]


def to_dict(inp: Input) -> dict[str, Any]:
    """The JSON form: {"kind": ..., "t": ..., fields...}."""
    kind = kind_of(inp)
    d: dict[str, Any] = {"kind": kind, "t": inp.t}
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
            d.update(key=obs.key, raised=obs.raised, fault=obs.kind, where=obs.where, text=obs.text)
    elif isinstance(inp, StartGame):
        d.update(
            players=list(inp.players),
            variant=variant_to_dict(inp.variant),
            seed=inp.seed,
            holes=None if inp.holes is None else list(inp.holes),
        )
    elif isinstance(inp, BoardOnline):
        d.update(online=inp.online)
    elif isinstance(inp, Picture):
        d.update(holes=list(inp.holes))
    return d


def from_dict(d: dict[str, Any], codes: CodeTable) -> Input:
    """The input a JSON dict stands for (`to_dict`'s inverse); `codes` rebuilds hole states.

    :raises ValueError: for an unknown kind or missing fields.
    """
    try:
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
            holes = d.get("holes")
            return StartGame(
                tuple(str(p) for p in d["players"]),
                variant_from_dict(d.get("variant")),
                int(d.get("seed", 0)),
                t,
                None if holes is None else tuple(int(c) for c in holes),
            )
        if kind == "online":
            return BoardOnline(bool(d["online"]), t)
        if kind == "picture":
            return Picture(tuple(int(c) for c in d["holes"]), t)
        cls = _SIMPLE_BY_KIND[kind]
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a referee input: {d!r} ({exc!r})") from None
    return cls(t)


@lru_cache(maxsize=1024)
def _state(codes: CodeTable, code: int) -> HoleState:
    """The hole state a code stands for (cached: replays decode many)."""
    return HoleState(code, codes.lookup(code), codes.is_valid(code))
