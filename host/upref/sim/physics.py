"""The simulated board's physical world: holes with mole pairs and their magnets, the hall
sensors under them, the ESP32's ADC that reads them, the RFID field with its cards, the button.

Pure and deterministic: no clock, no I/O. Every random property (sensor quiescent voltages and
sensitivities, each hole's depth, each magnet's remanence, the chip's ADC reference, the
starting mix) comes from the seed. The board process (`hands.py`) turns changes into world
records for the process that runs the firmware, which keeps each sensor's output voltage,
ramps between targets, and reads it through the ADC stand-in (`upref/chip/esp32_adc.py`) with
the chip's noise.

Sensor model, from the hardware's own field model (`upref.hardware.magnetics`). Sensor
k = (hole - 1) * 4 + (position - 1) is a DRV5055A2: with no magnet near it outputs its
quiescent voltage VQ (1.59..1.71 V per sensor, seeded: the datasheet's range at 3.3 V). A magnet
of polarity s (+1 north facing the sensor, -1 south), strength m (1.0 as made, 0 lost) and
remanence Br (1.42..1.48 T per magnet, N52) at position p of the pair's down end adds

    s * m * sensitivity(sensor) * field(distance(p, sensor position), gap(hole), Br)

where the field is magnetics.field_mT (an exact disc-magnet model) at 0 mm for the sensor right
under the magnet, at the 8 mm pitch for the two next to it and at 11.3 mm for the one across;
the sensitivity is 30 mV/mT +- 5 % per sensor and the gap 6.7 +- 0.4 mm per hole (how deep its
pocket is). The ESP32 then reads that voltage on its own curve: its reference Vref is drawn
per seed in 1000..1200 mV, so the same board reads its zeros anywhere from about 26,300 to
34,300 counts, one chip to the next (`level`, `offset`). `hardware/pinmap.json`'s thresholds
are checked against exactly these ranges by `magnetics.analyse`, with 5 sigma of noise to spare.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from upref import paths
from upref.board.codes import PAIR_COUNT
from upref.chip import esp32_adc
from upref.hardware import magnetics
from upref.link.protocol import POSITIONS

HOLES = PAIR_COUNT  # one molehill per mole pair
COLOURS = "RBYWK"
COLOUR_NAMES = {"R": "red", "B": "blue", "Y": "yellow", "W": "white", "K": "black"}

SUPPLY_UV = 3_300_000  # the sensors' 3.3 V: their output never leaves 0..VCC
VQ_MV = magnetics.SENSOR.quiescent_mv  # a sensor's output at rest, min..max (per sensor)
SENS_MV_PER_MT = magnetics.SENSOR.mv_per_mT  # sensitivity, +- SENS_TOLERANCE per sensor
SENS_TOLERANCE = magnetics.SENSOR.tolerance
GAP_MM = (magnetics.LAYOUT.gap_mm - magnetics.LAYOUT.gap_tol_mm,
          magnetics.LAYOUT.gap_mm + magnetics.LAYOUT.gap_tol_mm)  # per hole
BR_T = (magnetics.MAGNET.br_min_T, magnetics.MAGNET.br_max_T)  # per magnet
VREF_MV = (esp32_adc.VREF_MIN_MV, esp32_adc.VREF_MAX_MV)  # the chip's ADC reference, per seed
NOISE_SIGMA = magnetics.NOISE_SIGMA  # counts, added by the firmware process's ADC

# The sensors' supply and the chip's warm-up, as the firmware's process models them
# (standins/sim_world.py, its P and T records; docs/simulator.md). A weak USB port (or a long
# thin cable) leaves the 3.3 V rail 50 mV low and lets the status LED at full white pull it down
# 50 mV more; after power-on the chip and the board warm by WARMUP_RISE_C, most of it within
# the first WARMUP_TAU_S.
WEAK_PORT_SUPPLY_UV = SUPPLY_UV - 50_000
WEAK_PORT_LED_DROP_UV = 50_000
WARMUP_RISE_C = 20.0
WARMUP_TAU_S = 480.0


def warmup_c(seconds: float) -> float:
    """Degrees the board has warmed `seconds` after power-on (a first-order rise)."""
    return WARMUP_RISE_C * (1.0 - math.exp(-max(0.0, seconds) / WARMUP_TAU_S))


# timing of hand movements, in milliseconds
INSERT_SPREAD_MS = 8  # magnets of one pair reach their sensors up to this far apart
INSERT_RAMP_MS = (6, 12)  # each magnet's field builds up over this long
FLIP_MS = 700  # a pair out of its hole while the hand turns it over
MOVE_MS = 900  # a pair carried from one hole to another
CLICK_MS = 150  # a button click
TOUCH_MS = 500  # a card held on the reader by a hand that taps it and takes it away
TOUCH_GAP_MS = 400  # the hand away from the reader before it answers (the card seen gone)
REMIX_OUT_MS = 1000  # every pair out of its hole, in the hands, before they go back mixed

# The first model drew (per sensor) an offset and a gain, (per hole) six couplings and (per
# magnet) a strength factor, in that order, before the starting mix: the draws keep that order
# and count, now mapped onto VQ, sensitivity, depth and remanence, so that a seed's starting
# mix stays what it was.
_OLD_OFFSET = 2500
_OLD_GAIN = (0.90, 1.10)
_OLD_NEIGHBOUR = (0.08, 0.12)
_OLD_OPPOSITE = (0.02, 0.04)
_OLD_VARY = (0.90, 1.10)


def _map(x: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    return b[0] + (x - a[0]) * (b[1] - b[0]) / (a[1] - a[0])


@lru_cache(maxsize=1024)
def _field_per_tesla(lateral_mm: float, gap_mm: float) -> float:
    """magnetics.field_mT for Br = 1 T (the field is proportional to Br)."""
    return magnetics.field_mT(lateral_mm, gap_mm, 1.0)


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
    t = {"on": 4500, "off": 3500, "rail_low": 1500, "rail_high": 64000, "max_delta": 24000,
         "debounce_ms": 30}
    t.update({k: v for k, v in pm.get("hall", {}).get("thresholds", {}).items() if isinstance(v, int)})
    return t


@dataclass
class Hole:
    pair: str | None = None  # pair id
    down: str | None = None  # colour letter of the end in the hole


@dataclass
class Change:
    """One sensor moving to a new output voltage: what the firmware process is told."""

    k: int
    uv: int  # its output voltage, microvolts
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
    adc_vref_mv: int | None = None  # the chip's ADC reference; None: drawn from the seed

    def __post_init__(self) -> None:
        rng = random.Random(f"upref-sim-{self.seed}")
        n = HOLES * POSITIONS
        # per sensor: quiescent output (uV) and sensitivity (mV/mT)
        self.vq_uv = [
            round(_map(rng.randint(-_OLD_OFFSET, _OLD_OFFSET), (-_OLD_OFFSET, _OLD_OFFSET), VQ_MV) * 1000)
            for _ in range(n)
        ]
        self.sens = [
            SENS_MV_PER_MT * _map(rng.uniform(*_OLD_GAIN), _OLD_GAIN, (1 - SENS_TOLERANCE, 1 + SENS_TOLERANCE))
            for _ in range(n)
        ]
        # per hole: the gap from a seated magnet's face to its sensors (the pocket's depth)
        self.gap_mm: list[float] = []
        for _ in range(HOLES):
            draws = [rng.uniform(*_OLD_NEIGHBOUR) for _ in range(4)]
            draws += [rng.uniform(*_OLD_OPPOSITE) for _ in range(2)]
            self.gap_mm.append(round(_map(draws[0], _OLD_NEIGHBOUR, GAP_MM), 2))
        # per magnet: remanence as made, and its strength as the control channel sets it
        self.br: dict[tuple[str, str, int], float] = {}
        self.strength: dict[tuple[str, str, int], float] = {}
        for pid in sorted(self.pairs):
            for end in self.pairs[pid].ends:
                for p in range(POSITIONS):
                    self.br[(pid, end.hidden, p)] = _map(rng.uniform(*_OLD_VARY), _OLD_VARY, BR_T)
                    self.strength[(pid, end.hidden, p)] = 1.0
        self.timing = random.Random(f"upref-sim-hands-{self.seed}")
        if not self.holes:
            self.holes = [Hole() for _ in range(HOLES)]
            if not self.empty:
                ids = sorted(self.pairs)
                rng.shuffle(ids)
                for h, pid in enumerate(ids[:HOLES]):
                    self.holes[h] = Hole(pid, rng.choice(self.pairs[pid].colours))
        # the chip: its ADC reference (a stream of its own, so the rest of the seed is unchanged)
        drawn = random.Random(f"upref-sim-adc-{self.seed}").randint(*VREF_MV)
        self.vref_mv = self.adc_vref_mv if self.adc_vref_mv is not None else drawn
        if not VREF_MV[0] <= self.vref_mv <= VREF_MV[1]:
            raise WorldError(
                f"an ESP32's ADC reference lies in {VREF_MV[0]}..{VREF_MV[1]} mV, not {self.vref_mv}"
            )
        self.adc = esp32_adc.Curve(self.vref_mv)
        self.offset = [self.adc.read_u16(v) for v in self.vq_uv]  # each sensor's true zero, counts
        # field (mT per tesla of remanence) of a magnet at position a onto the sensor at b
        lat = (0.0, magnetics.LAYOUT.pitch_mm, magnetics.LAYOUT.across_mm)
        self._field: list[tuple[float, float, float]] = [
            (_field_per_tesla(lat[0], g), _field_per_tesla(lat[1], g), _field_per_tesla(lat[2], g))
            for g in self.gap_mm
        ]

    # ---- levels ------------------------------------------------------------------------------

    def volts_uv(self, k: int) -> int:
        """Sensor k's output in microvolts, as the world stands (no noise)."""
        h, pos = divmod(k, POSITIONS)
        v = float(self.vq_uv[k])
        hole = self.holes[h]
        if hole.pair is not None and hole.down is not None:
            end = self.pairs[hole.pair].end(hole.down)
            fields = self._field[h]
            for p, sym in enumerate(end.magnets):
                if sym == "-":
                    continue
                s = 1.0 if sym == "N" else -1.0
                key = (hole.pair, hole.down, p)
                d = (p - pos) % POSITIONS
                f = fields[0] if d == 0 else fields[2] if d == 2 else fields[1]
                v += s * self.strength[key] * self.br[key] * f * self.sens[k] * 1000.0
        return max(0, min(SUPPLY_UV, round(v)))

    def level(self, k: int) -> int:
        """What the chip's ADC reads of sensor k (read_u16 counts, no noise), as the world stands."""
        return self.adc.read_u16(self.volts_uv(k))

    def levels(self) -> list[int]:
        return [self.level(k) for k in range(HOLES * POSITIONS)]

    def volts(self) -> list[int]:
        """Every sensor's output in microvolts: what the firmware process is told."""
        return [self.volts_uv(k) for k in range(HOLES * POSITIONS)]

    def hole_changes(self, h: int, inserting: bool) -> list[Change]:
        """Changes for the four sensors of hole h (0-based) after its pair went in or out:
        each magnet arrives (or leaves) at its own moment, as a hand never seats a stick flat."""
        out = []
        for pos in range(POSITIONS):
            k = h * POSITIONS + pos
            delay = self.timing.randint(0, INSERT_SPREAD_MS)
            ramp = self.timing.randint(*INSERT_RAMP_MS)
            out.append(Change(k, self.volts_uv(k), ramp, delay))
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
        return [Change(k, self.volts_uv(k)) for k in range(k0, k0 + POSITIONS)]

    def expected_code(self, h: int, on: int = 4500) -> int:
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
