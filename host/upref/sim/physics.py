"""The simulated board's physical world: holes with mole pairs and their magnets, the hall
sensors under them, the RFID field with its cards, the button.

Pure and deterministic: no clock, no I/O. Every random property (sensor offsets and gains,
magnet strengths, crosstalk, the starting mix) comes from the seed. The board process
(`hands.py`) turns changes into world records for the process that runs the firmware, which
keeps the per-sensor target levels and ramps between them and adds the noise.

Sensor model. Sensor k = (hole - 1) * 4 + (position - 1) reads, with no magnet near,
its offset (32768 +- up to OFFSET_SPREAD). A magnet of polarity s (+1 north facing the sensor,
-1 south) and strength m (1.0 as made; 0 lost) at position p of the pair's down end adds

    s * m * vary(magnet) * gain(sensor) * FIELD * coupling(p, sensor position)

where coupling is 1 right over the sensor, NEIGHBOUR (per hole and side) for the positions
next to it around the circle (p +- 1 mod 4) and OPPOSITE for the one across. With the ranges
below a magnet right over a sensor moves it by 9300..13900 counts and one next to it by at most
~1700, so with the firmware's default thresholds (on 5000, off 3500; `hall.thresholds` in the
pin map) the worst crosstalk sum at an empty position (about 3900) never reaches `on`, and the
weakest magnet with both neighbours of the other polarity (about 6600) never falls to `off`.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from upref import paths
from upref.board.codes import PAIR_COUNT
from upref.link.protocol import POSITIONS

HOLES = PAIR_COUNT  # one molehill per mole pair
COLOURS = "RBYWK"
COLOUR_NAMES = {"R": "red", "B": "blue", "Y": "yellow", "W": "white", "K": "black"}

MID_SCALE = 32768
OFFSET_SPREAD = 2500  # sensor zero: MID_SCALE +- up to this
FIELD = 11500  # a nominal magnet right over a nominal sensor, in counts
GAIN_RANGE = (0.90, 1.10)  # per sensor
MAGNET_RANGE = (0.90, 1.10)  # per magnet, as manufactured
NEIGHBOUR_RANGE = (0.08, 0.12)  # coupling to the positions next to a magnet
OPPOSITE_RANGE = (0.02, 0.04)  # coupling to the position across
NOISE_SIGMA = 150  # counts, added by the firmware process

# timing of hand movements, in milliseconds
INSERT_SPREAD_MS = 8  # magnets of one pair reach their sensors up to this far apart
INSERT_RAMP_MS = (6, 12)  # each magnet's field builds up over this long
FLIP_MS = 700  # a pair out of its hole while the hand turns it over
MOVE_MS = 900  # a pair carried from one hole to another
CLICK_MS = 150  # a button click


class WorldError(ValueError):
    """A physical action that cannot happen; the message says why and what to do instead."""


@dataclass(frozen=True)
class PairEnd:
    hidden: str  # colour letter of this end (down in the hole, facing the sensors)
    magnets: str  # e.g. "-NNN", position P1 first
    code: int


@dataclass(frozen=True)
class Pair:
    id: str  # "P-RB"
    colours: str  # "RB"
    ends: tuple[PairEnd, PairEnd]

    def end(self, down: str) -> PairEnd:
        for e in self.ends:
            if e.hidden == down:
                return e
        raise WorldError(f"pair {self.id} has no {colour_name(down)} end: it is {self.describe()}")

    def other(self, colour: str) -> str:
        return self.colours[1] if colour == self.colours[0] else self.colours[0]

    def describe(self) -> str:
        return "-".join(colour_name(c) for c in self.colours)


def colour_name(letter: str) -> str:
    return COLOUR_NAMES.get(letter, letter)


def load_pairs(path: Path | str | None = None) -> dict[str, Pair]:
    """The mole pairs of hardware/codes.json, by id."""
    p = Path(path) if path is not None else paths.codes_path()
    data = json.loads(p.read_text(encoding="utf-8"))
    out: dict[str, Pair] = {}
    for item in data["pairs"]:
        ends = tuple(PairEnd(e["hidden"], e["magnets"], int(e["code"])) for e in item["ends"])
        pid = item["id"]
        out[pid] = Pair(pid, pid.split("-", 1)[1], (ends[0], ends[1]))
    return out


def load_thresholds(path: Path | str | None = None) -> dict[str, int]:
    """hall.thresholds of the pin map, with the firmware's defaults for what it leaves out."""
    p = Path(path) if path is not None else paths.pinmap_path()
    pm = json.loads(p.read_text(encoding="utf-8"))
    t = {"on": 5000, "off": 3500, "rail_low": 1500, "rail_high": 64000, "max_delta": 24000,
         "debounce_ms": 30}
    t.update({k: v for k, v in pm.get("hall", {}).get("thresholds", {}).items() if isinstance(v, int)})
    return t


@dataclass
class Hole:
    pair: str | None = None  # pair id
    down: str | None = None  # colour letter of the end in the hole


@dataclass
class Change:
    """One sensor moving to a new level: what the firmware process is told."""

    k: int
    level: int
    ramp_ms: int = 0
    delay_ms: int = 0


@dataclass
class World:
    """The physical board. Methods change it and return the sensor changes they cause."""

    seed: int = 0
    empty: bool = False
    pairs: dict[str, Pair] = field(default_factory=load_pairs)
    holes: list[Hole] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)  # UIDs in upper-case hex, in the field
    button: bool = False
    sensor_modes: dict[int, str] = field(default_factory=dict)  # k -> "float" | "rail" | "ground"
    rfid_ok: bool = True

    def __post_init__(self) -> None:
        rng = random.Random(f"upref-sim-{self.seed}")
        n = HOLES * POSITIONS
        self.offset = [MID_SCALE + rng.randint(-OFFSET_SPREAD, OFFSET_SPREAD) for _ in range(n)]
        self.gain = [rng.uniform(*GAIN_RANGE) for _ in range(n)]
        # coupling[h][a][b]: magnet at position a onto the sensor at position b of hole h
        self.coupling: list[list[list[float]]] = []
        for _ in range(HOLES):
            c = [[0.0] * POSITIONS for _ in range(POSITIONS)]
            for a in range(POSITIONS):
                c[a][a] = 1.0
            for a in range(POSITIONS):
                b = (a + 1) % POSITIONS
                c[a][b] = c[b][a] = rng.uniform(*NEIGHBOUR_RANGE)
            for a in range(2):
                b = a + 2
                c[a][b] = c[b][a] = rng.uniform(*OPPOSITE_RANGE)
            self.coupling.append(c)
        # manufactured magnet strength variation, and what the control channel changes
        self.vary: dict[tuple[str, str, int], float] = {}
        self.strength: dict[tuple[str, str, int], float] = {}
        for pid in sorted(self.pairs):
            for end in self.pairs[pid].ends:
                for p in range(POSITIONS):
                    self.vary[(pid, end.hidden, p)] = rng.uniform(*MAGNET_RANGE)
                    self.strength[(pid, end.hidden, p)] = 1.0
        self.timing = random.Random(f"upref-sim-hands-{self.seed}")
        if not self.holes:
            self.holes = [Hole() for _ in range(HOLES)]
            if not self.empty:
                ids = sorted(self.pairs)
                rng.shuffle(ids)
                for h, pid in enumerate(ids[:HOLES]):
                    self.holes[h] = Hole(pid, rng.choice(self.pairs[pid].colours))

    # ---- levels ------------------------------------------------------------------------------

    def level(self, k: int) -> int:
        """Sensor k's level with no noise, as the world stands."""
        h, pos = divmod(k, POSITIONS)
        v = float(self.offset[k])
        hole = self.holes[h]
        if hole.pair is not None and hole.down is not None:
            end = self.pairs[hole.pair].end(hole.down)
            for p, sym in enumerate(end.magnets):
                if sym == "-":
                    continue
                s = 1.0 if sym == "N" else -1.0
                m = self.strength[(hole.pair, hole.down, p)] * self.vary[(hole.pair, hole.down, p)]
                v += s * m * self.gain[k] * FIELD * self.coupling[h][p][pos]
        return max(0, min(65535, round(v)))

    def levels(self) -> list[int]:
        return [self.level(k) for k in range(HOLES * POSITIONS)]

    def hole_changes(self, h: int, inserting: bool) -> list[Change]:
        """Changes for the four sensors of hole h (0-based) after its pair went in or out:
        each magnet arrives (or leaves) at its own moment, as a hand never seats a stick flat."""
        out = []
        for pos in range(POSITIONS):
            k = h * POSITIONS + pos
            delay = self.timing.randint(0, INSERT_SPREAD_MS)
            ramp = self.timing.randint(*INSERT_RAMP_MS)
            out.append(Change(k, self.level(k), ramp, delay))
        return out

    # ---- actions -------------------------------------------------------------------------------

    def check_hole(self, hole: int) -> int:
        if not isinstance(hole, int) or not 1 <= hole <= HOLES:
            raise WorldError(f"there is no hole {hole!r}: holes are numbered 1..{HOLES}")
        return hole - 1

    def where(self, pid: str) -> int | None:
        for h, hole in enumerate(self.holes):
            if hole.pair == pid:
                return h + 1
        return None

    def pull(self, hole: int) -> list[Change]:
        h = self.check_hole(hole)
        if self.holes[h].pair is None:
            raise WorldError(f"hole {hole} is empty: nothing to pull (see `state`)")
        self.holes[h] = Hole()
        return self.hole_changes(h, inserting=False)

    def insert(self, hole: int, pid: str, down: str) -> list[Change]:
        h = self.check_hole(hole)
        pair = self.pairs.get(pid)
        if pair is None:
            raise WorldError(f"no pair {pid!r}: pairs are {', '.join(sorted(self.pairs))}")
        if down not in pair.colours:
            raise WorldError(
                f"pair {pid} is {pair.describe()}: the end that goes down must be "
                f"{colour_name(pair.colours[0])} or {colour_name(pair.colours[1])}, not {colour_name(down)}"
            )
        cur = self.holes[h]
        if cur.pair is not None:
            raise WorldError(
                f"hole {hole} already holds {cur.pair} ({colour_name(self.visible(h) or '?')} up): "
                f"pull {hole} first"
            )
        at = self.where(pid)
        if at is not None:
            raise WorldError(f"pair {pid} is in hole {at}: `move {at} {hole}`, or `pull {at}` first")
        self.holes[h] = Hole(pid, down)
        return self.hole_changes(h, inserting=True)

    def visible(self, h: int) -> str | None:
        hole = self.holes[h]
        if hole.pair is None or hole.down is None:
            return None
        return self.pairs[hole.pair].other(hole.down)

    def set_magnet(self, hole: int, position: int, strength: float) -> list[Change]:
        h = self.check_hole(hole)
        if not isinstance(position, int) or not 1 <= position <= POSITIONS:
            raise WorldError(f"there is no position {position!r}: positions are 1..{POSITIONS}")
        if not 0.0 <= strength <= 2.0:
            raise WorldError(f"magnet strength {strength!r} out of 0..2 (1 = as made, 0 = lost)")
        cur = self.holes[h]
        if cur.pair is None or cur.down is None:
            raise WorldError(f"hole {hole} is empty: insert a pair, then change its magnets")
        end = self.pairs[cur.pair].end(cur.down)
        if end.magnets[position - 1] == "-":
            raise WorldError(
                f"the {colour_name(cur.down)} end of {cur.pair} ({end.magnets}) has no magnet at "
                f"position {position}: it has magnets at "
                + ", ".join(str(i + 1) for i, s in enumerate(end.magnets) if s != "-")
            )
        self.strength[(cur.pair, cur.down, position - 1)] = float(strength)
        k0 = h * POSITIONS
        return [Change(k, self.level(k)) for k in range(k0, k0 + POSITIONS)]

    def expected_code(self, h: int, on: int = 5000) -> int:
        """The code the firmware should read in hole h (0-based), calibrated, without noise."""
        code = 0
        for pos in range(POSITIONS):
            k = h * POSITIONS + pos
            d = self.level(k) - self.offset[k]
            t = 1 if d >= on else 2 if d <= -on else 0
            code += t * 3**pos
        return code

    def state_holes(self) -> list[dict[str, object]]:
        out: list[dict[str, object]] = []
        for h, hole in enumerate(self.holes):
            item: dict[str, object] = {"hole": h + 1, "pair": hole.pair}
            if hole.pair is not None and hole.down is not None:
                end = self.pairs[hole.pair].end(hole.down)
                item.update(
                    down=hole.down,
                    up=self.visible(h),
                    code=end.code,
                    magnets=end.magnets,
                    strength=[
                        round(self.strength[(hole.pair, hole.down, p)], 3) for p in range(POSITIONS)
                    ],
                )
            out.append(item)
        return out
