"""Upturn's tiles: numbered tiles (some red Twin tiles, some with the penalty symbol) and action
tiles, and the catalogue's validator.

The rulebook fixes the counts: 106 tiles, 80 numbered and 26 action tiles (6 Up, 6 Down,
6 Up & Down, 3 Skip, 3 Double Skip, 2 Joker). Which numbers exist, and which carry the Twin or
the penalty mark, is not published: the packaged default (`data/tiles.json`) is an assumption,
so a real set that differs needs a data change, never a code change. `load_catalogue()` reads
and validates it: the counts above, numbers 1 to 99, every Twin tile a multiple of 11, no tile
both Twin and Penalty, ids unique.

Tile ids are what a tag is enrolled as: `N<number>` for the numbered tiles (N1 ... N99 of the
80 that exist), `UP1`..`UP6`, `DOWN1`..`DOWN6`, `UD1`..`UD6`, `SKIP1`..`SKIP3`,
`DSKIP1`..`DSKIP3`, `JOKER1`..`JOKER2` for the action tiles.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from upref.games.base import read_catalogue
from upref.text import Msg, join_words

__all__ = [
    "ACTIONS",
    "ACTION_COUNTS",
    "ACTION_NAMES",
    "NUMBERED",
    "TOTAL",
    "Catalogue",
    "Tile",
    "load_catalogue",
    "parse_catalogue",
]

ACTIONS: tuple[str, ...] = ("up", "down", "updown", "skip", "doubleskip", "joker")
"""The kinds of action tile, in the rulebook's order."""
ACTION_NAMES: Mapping[str, str] = {
    "up": Msg("Up"),
    "down": Msg("Down"),
    "updown": Msg("Up & Down"),
    "skip": Msg("Skip"),
    "doubleskip": Msg("Double Skip"),
    "joker": Msg("Joker"),
}
_A_TILE: Mapping[str, str] = {
    "up": Msg("an Up tile"),
    "down": Msg("a Down tile"),
    "updown": Msg("an Up & Down tile"),
    "skip": Msg("a Skip tile"),
    "doubleskip": Msg("a Double Skip tile"),
    "joker": Msg("a Joker"),
}
"""How a verdict names an action tile with its article: 'an Up tile', 'a Joker'."""
_THE_TILE: Mapping[str, str] = {
    "up": Msg("the Up tile"),
    "down": Msg("the Down tile"),
    "updown": Msg("the Up & Down tile"),
    "skip": Msg("the Skip tile"),
    "doubleskip": Msg("the Double Skip tile"),
    "joker": Msg("the Joker"),
}
ACTION_COUNTS: Mapping[str, int] = {
    "up": 6,
    "down": 6,
    "updown": 6,
    "skip": 3,
    "doubleskip": 3,
    "joker": 2,
}
"""How many of each action tile a set holds (the rulebook's contents list)."""
NUMBERED = 80
"""Numbered tiles in a set (the rulebook's contents list)."""
TOTAL = NUMBERED + sum(ACTION_COUNTS.values())
"""Tiles in a set: 106."""
LOWEST, HIGHEST = 1, 99


@dataclass(frozen=True)
class Tile:
    """One tile: a numbered tile (`number`, perhaps `twin` or `penalty`) or an action tile
    (`action`, one of `ACTIONS`)."""

    id: str
    number: int | None = None
    action: str | None = None
    twin: bool = False
    penalty: bool = False

    @property
    def numbered(self) -> bool:
        return self.number is not None

    @property
    def short(self) -> str:
        """How the scoreboard's line shows it: '41', '22', 'Up', 'Joker'."""
        if self.number is not None:
            return str(self.number)
        return ACTION_NAMES[str(self.action)]

    def words(self) -> str:
        """How a verdict names it: '41', 'Twin 22', 'penalty tile 37', 'an Up tile', 'a
        Joker'."""
        if self.number is not None:
            if self.twin:
                return Msg("Twin {number}", number=self.number)
            if self.penalty:
                return Msg("penalty tile {number}", number=self.number)
            return str(self.number)
        return _A_TILE[str(self.action)]

    def the(self) -> str:
        """The tile with a definite article where it needs one: '41', 'the Up tile'."""
        if self.number is not None:
            return self.words()
        return _THE_TILE[str(self.action)]

    def label(self) -> str:
        """What `upref enroll` shows, to match against the printed tile."""
        if self.number is not None:
            if self.twin:
                return Msg("{id}: red Twin tile {number}", id=self.id, number=self.number)
            if self.penalty:
                return Msg("{id}: tile {number} with the penalty symbol", id=self.id, number=self.number)
            return Msg("{id}: tile {number}", id=self.id, number=self.number)
        kind = str(self.action)
        nth = self.id[len(self.id.rstrip("0123456789")) :]
        return Msg(
            "{id}: {name} tile ({nth} of {of})",
            id=self.id,
            name=ACTION_NAMES[kind],
            nth=nth,
            of=ACTION_COUNTS[kind],
        )

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id}
        if self.number is not None:
            d["number"] = self.number
            if self.twin:
                d["twin"] = True
            if self.penalty:
                d["penalty"] = True
        else:
            d["action"] = self.action
        return d


@dataclass(frozen=True)
class Catalogue:
    """The tiles of one set, in the data file's order."""

    tiles: tuple[Tile, ...]
    source: str = ""
    _by_id: dict[str, Tile] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {t.id: t for t in self.tiles})

    def tile(self, tile_id: str) -> Tile:
        """:raises KeyError: for an id the set does not have."""
        return self._by_id[tile_id]

    def get(self, tile_id: str) -> Tile | None:
        return self._by_id.get(tile_id)

    def __contains__(self, tile_id: object) -> bool:
        return tile_id in self._by_id

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    def ids(self) -> tuple[str, ...]:
        return tuple(t.id for t in self.tiles)

    def numbered(self) -> tuple[Tile, ...]:
        return tuple(t for t in self.tiles if t.numbered)

    def to_dict(self) -> dict[str, Any]:
        """The catalogue as JSON data (a game log's header keeps it)."""
        return {"game": "upturn", "source": self.source, "tiles": [t.to_dict() for t in self.tiles]}


DEFAULT_SOURCE = "upref.games.upturn/data/tiles.json"


def load_catalogue(path: str | Path | None = None) -> Catalogue:
    """Load and validate a tile catalogue (default: the packaged 106 tiles).

    :raises ValueError: naming every fault found.
    """
    data, source = read_catalogue(
        "upref.games.upturn", "tiles.json", path, DEFAULT_SOURCE, "Upturn tile catalogue"
    )
    return parse_catalogue(data, source=source)


def parse_catalogue(data: Any, *, source: str = "") -> Catalogue:
    """Validate catalogue data already parsed from JSON (see `load_catalogue`).

    :raises ValueError: naming every fault found.
    """
    where = source or "(data)"
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise ValueError(
            Msg("Upturn tile catalogue {where}: expected an object with a 'tiles' list", where=where)
        )
    problems: list[str] = []
    tiles: list[Tile] = []
    ids: set[str] = set()
    for i, raw in enumerate(data["tiles"]):
        tile, fault = _parse_tile(raw, i)
        if tile is None:
            problems.append(fault or Msg("tile #{number} is malformed", number=i + 1))
            continue
        if tile.id in ids:
            problems.append(Msg("{tile} appears twice", tile=tile.id))
            continue
        ids.add(tile.id)
        tiles.append(tile)
    numbered = [t for t in tiles if t.numbered]
    if len(numbered) != NUMBERED:
        problems.append(
            Msg("{n} numbered tiles, but a set has {want}", n=len(numbered), want=NUMBERED)
        )
    for kind in ACTIONS:
        have = sum(1 for t in tiles if t.action == kind)
        if have != ACTION_COUNTS[kind]:
            problems.append(
                Msg(
                    "{n} {name} tiles, but a set has {want}",
                    n=have,
                    name=ACTION_NAMES[kind],
                    want=ACTION_COUNTS[kind],
                )
            )
    if len(data["tiles"]) != TOTAL:
        problems.append(
            Msg("{n} tiles in all, but a set has {want}", n=len(data["tiles"]), want=TOTAL)
        )
    if problems:
        raise ValueError(
            Msg(
                "Upturn tile catalogue {where} is invalid:\n  - {problems}",
                where=where,
                problems=join_words("\n  - ", problems),
            )
        )
    return Catalogue(tuple(tiles), source)


def _parse_tile(raw: Any, index: int) -> tuple[Tile | None, str | None]:
    if not isinstance(raw, dict):
        return None, Msg("tile #{number} is not an object", number=index + 1)
    tid = raw.get("id")
    if not isinstance(tid, str) or not tid or not tid.isalnum():
        return None, Msg(
            "tile #{number} has no id (letters and digits, like N42 or JOKER1)", number=index + 1
        )
    unknown = sorted(set(raw) - {"id", "number", "action", "twin", "penalty"})
    if unknown:
        return None, Msg("{tile} has unknown fields: {fields}", tile=tid, fields=", ".join(unknown))
    number, action = raw.get("number"), raw.get("action")
    twin, penalty = raw.get("twin", False), raw.get("penalty", False)
    if not isinstance(twin, bool) or not isinstance(penalty, bool):
        return None, Msg("{tile}: 'twin' and 'penalty' are true or false", tile=tid)
    if (number is None) == (action is None):
        return None, Msg("{tile} must have either a number or an action", tile=tid)
    if action is not None:
        if action not in ACTIONS:
            return None, Msg(
                "{tile} has an unknown action {action!r} (actions are {actions})",
                tile=tid,
                action=action,
                actions=", ".join(ACTIONS),
            )
        if twin or penalty:
            return None, Msg(
                "{tile} is an action tile: only numbered tiles are Twin or Penalty tiles", tile=tid
            )
        return Tile(tid, action=str(action)), None
    if isinstance(number, bool) or not isinstance(number, int) or not LOWEST <= number <= HIGHEST:
        return None, Msg(
            "{tile} has the number {number!r}; numbers are {lowest} to {highest}",
            tile=tid,
            number=number,
            lowest=LOWEST,
            highest=HIGHEST,
        )
    if twin and penalty:
        return None, Msg(
            "{tile} ({number}) is marked both Twin and Penalty; a tile is one or the other",
            tile=tid,
            number=number,
        )
    if twin and number % 11 != 0:
        return None, Msg(
            "{tile} ({number}) is marked Twin, but Twin tiles are multiples of 11",
            tile=tid,
            number=number,
        )
    return Tile(tid, number=number, twin=twin, penalty=penalty), None
