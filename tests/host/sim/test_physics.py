"""The simulated board's physical model: sensor levels against the pin map's thresholds,
crosstalk, lost magnets, the starting mix and hand timing."""

from __future__ import annotations

import random
import re
import sys

import pytest
from upref import paths
from upref.board.codes import CodeTable
from upref.hardware import magnetics
from upref.sim import physics
from upref.sim.cpython import install
from upref.sim.physics import POSITIONS, Hole, World, WorldError

SEEDS = range(40)


def delta(w: World, k: int) -> int:
    return w.level(k) - w.offset[k]


def single_magnet_world(seed: int, h: int, pos: int) -> tuple[World, int]:
    """A world with only one magnet in hole h at pos (others of the end lost), and its k."""
    w = World(seed=seed, empty=True)
    for pid, pair in sorted(w.pairs.items()):
        for end in pair.ends:
            if end.magnets[pos] != "-":
                w.holes[h] = Hole(pid, end.hidden)
                for p in range(POSITIONS):
                    if p != pos:
                        w.strength[(pid, end.hidden, p)] = 0.0
                return w, h * POSITIONS + pos
    raise AssertionError("no end with a magnet there")


def test_each_chip_reads_its_sensors_zeros_on_its_own_adc_curve() -> None:
    w = World(seed=1, empty=True)
    # the sensors at rest, as this chip's uncalibrated ADC reads them: not at mid-scale
    assert all(physics.VQ_MV[0] * 1000 <= v <= physics.VQ_MV[1] * 1000 for v in w.vq_uv)
    assert w.offset == [w.adc.read_u16(v) for v in w.vq_uv]
    assert len(set(w.offset)) > 20  # 40 sensors, 12-bit steps of 16 counts
    assert w.levels() == w.offset  # nothing in the holes: every sensor at its zero
    assert World(seed=1, empty=True).offset == w.offset
    assert World(seed=2, empty=True).offset != w.offset
    # the reference differs chip to chip, over Espressif's 1000..1200 mV
    vrefs = [World(seed=s, empty=True).vref_mv for s in SEEDS]
    assert min(vrefs) <= 1020 and max(vrefs) >= 1180
    low = World(seed=1, empty=True, adc_vref_mv=1200)
    high = World(seed=1, empty=True, adc_vref_mv=1000)
    assert 26_000 < min(low.offset) and max(low.offset) < 28_700  # far below 32,768
    assert 31_500 < min(high.offset) and max(high.offset) < 34_400
    with pytest.raises(WorldError, match="1000..1200 mV, not 900"):
        World(seed=1, adc_vref_mv=900)


@pytest.mark.parametrize("seed", [0, 7, 23])
def test_a_magnet_over_its_sensor_moves_it_as_the_field_model_says_and_its_neighbours_little(
    seed: int,
) -> None:
    a = magnetics.analyse(physics.load_thresholds())
    for h in range(physics.HOLES):
        for pos in range(POSITIONS):
            w, k = single_magnet_world(seed, h, pos)
            d = abs(delta(w, k))
            assert a.direct_min - 20 <= d <= a.direct_max + 20, (h, pos, d)
            k0 = h * POSITIONS
            nb = [k0 + (pos + 1) % 4, k0 + (pos - 1) % 4]
            opp = k0 + (pos + 2) % 4
            assert all(abs(delta(w, n)) <= a.neighbour_max + 20 for n in nb)
            assert abs(delta(w, opp)) < min(abs(delta(w, n)) for n in nb)


def test_north_raises_and_south_lowers_the_level() -> None:
    w = World(seed=3, empty=True)
    w.insert(1, "P-RB", "R")  # R end "-NNN"
    assert all(delta(w, k) > 0 for k in (1, 2, 3))
    w.pull(1)
    w.insert(1, "P-BY", "B")  # B end "-SSS"
    assert all(delta(w, k) < 0 for k in (1, 2, 3))


def test_every_end_in_every_hole_reads_its_code_and_crosstalk_never_crosses_a_threshold() -> None:
    t = physics.load_thresholds()
    sigma5 = 5 * physics.NOISE_SIGMA
    worst_empty, worst_magnet = 0, 10**9
    for seed in SEEDS:
        w = World(seed=seed, empty=True)
        for h in range(physics.HOLES):
            for pid, pair in w.pairs.items():
                for end in pair.ends:
                    w.holes[h] = Hole(pid, end.hidden)
                    assert w.expected_code(h, t["on"]) == end.code
                    for pos in range(POSITIONS):
                        d = abs(delta(w, h * POSITIONS + pos))
                        if end.magnets[pos] == "-":
                            worst_empty = max(worst_empty, d)
                        else:
                            worst_magnet = min(worst_magnet, d)
                    w.holes[h] = Hole()
    # with 5 sigma of noise to spare: an empty position never reaches `on`, a magnet never
    # falls below `on` (it must enter from none) nor, once in, below `off`
    assert worst_empty + sigma5 < t["on"], worst_empty
    assert worst_magnet - sigma5 > t["on"] > t["off"], worst_magnet


def test_a_lost_magnet_reads_as_an_invalid_two_magnet_code() -> None:
    table = CodeTable.load()
    for seed in SEEDS:
        w = World(seed=seed)
        for h in range(physics.HOLES):
            hole = w.holes[h]
            assert hole.pair is not None and hole.down is not None
            end = w.pairs[hole.pair].end(hole.down)
            pos = end.magnets.index("N" if "N" in end.magnets else "S")
            w.set_magnet(h + 1, pos + 1, 0.0)
            code = w.expected_code(h)
            assert code != end.code and not table.is_valid(code)
            assert sum(1 for i in range(POSITIONS) if (code // 3**i) % 3) == 2
            w.set_magnet(h + 1, pos + 1, 1.0)
            assert w.expected_code(h) == end.code


def test_the_starting_mix_puts_every_pair_in_a_hole_by_seed() -> None:
    w = World(seed=11)
    assert sorted(h.pair for h in w.holes if h.pair) == sorted(w.pairs)
    assert [(h.pair, h.down) for h in World(seed=11).holes] == [(h.pair, h.down) for h in w.holes]
    assert [(h.pair, h.down) for h in World(seed=12).holes] != [(h.pair, h.down) for h in w.holes]
    assert all(h.pair is None for h in World(seed=11, empty=True).holes)
    for h in range(physics.HOLES):
        hole = w.holes[h]
        assert hole.pair is not None and hole.down is not None
        assert w.visible(h) == w.pairs[hole.pair].other(hole.down)


def test_a_pair_goes_in_magnet_by_magnet_within_the_debounce_window() -> None:
    w = World(seed=2, empty=True)
    changes = w.insert(4, "P-RB", "B")
    assert [c.k for c in changes] == [12, 13, 14, 15]
    assert len({c.delay_ms for c in changes} | {c.ramp_ms for c in changes}) > 1
    debounce = physics.load_thresholds()["debounce_ms"]
    assert all(c.delay_ms + c.ramp_ms < debounce for c in changes)
    assert [c.uv for c in changes] == w.volts()[12:16]
    assert physics.FLIP_MS > 200 and physics.MOVE_MS > 200


def test_impossible_actions_say_what_to_do() -> None:
    w = World(seed=0)
    pid = w.holes[3].pair
    with pytest.raises(WorldError, match="pull 4 first"):
        w.insert(4, "P-RB", "R")
    with pytest.raises(WorldError, match="holes are numbered 1..10"):
        w.pull(11)
    w.pull(4)
    with pytest.raises(WorldError, match="hole 4 is empty"):
        w.pull(4)
    other = w.holes[0].pair
    assert other is not None
    with pytest.raises(WorldError, match=rf"pair {other} is in hole 1: `move 1 4`"):
        w.insert(4, other, w.pairs[other].colours[0])
    assert pid is not None
    wrong = next(c for c in physics.COLOURS if c not in w.pairs[pid].colours)
    with pytest.raises(WorldError, match="the end that goes down must be"):
        w.insert(4, pid, wrong)
    with pytest.raises(WorldError, match="hole 4 is empty"):
        w.set_magnet(4, 1, 0.5)
    w.insert(4, "P-RB", "R")  # "-NNN"
    with pytest.raises(WorldError, match="no magnet at position 1: it has magnets at 2, 3, 4"):
        w.set_magnet(4, 1, 0.0)


def _firmware_scanner(t: dict[str, int]):  # noqa: ANN202 - the firmware's HoleScanner
    install()
    lib = str(paths.firmware_dir() / "lib")
    if lib not in sys.path:
        sys.path.insert(0, lib)
    import holes
    import holes_settings

    settings = holes_settings.HoleSettings(
        on=t["on"], off=t["off"], rail_low=t["rail_low"], rail_high=t["rail_high"],
        max_delta=t["max_delta"], debounce_ms=t["debounce_ms"], unstable_ms=1500,
        settle_ms=t["settle_ms"], magnets=t["magnets"],
    )
    return holes.HoleScanner(1, 4, settings)


def _extreme(seed: int, weak: bool) -> World:
    """A world at a corner of every tolerance: the weakest magnets on the chip that reads them
    smallest, or the strongest crosstalk on the chip that reads it largest."""
    w = World(seed=seed, empty=True, adc_vref_mv=1200 if weak else 1000)
    br = physics.BR_T[0] if weak else physics.BR_T[1]
    gap = physics.GAP_MM[1] if weak else physics.GAP_MM[0]
    sens = physics.SENS_MV_PER_MT * (1 - physics.SENS_TOLERANCE if weak else 1 + physics.SENS_TOLERANCE)
    for key in w.br:
        w.br[key] = br
    w.sens = [sens] * len(w.sens)
    w.gap_mm = [gap] * physics.HOLES
    lat = (0.0, magnetics.LAYOUT.pitch_mm, magnetics.LAYOUT.across_mm)
    w._field = [tuple(physics._field_per_tesla(x, gap) for x in lat)] * physics.HOLES  # type: ignore[misc]
    return w


def test_no_passing_or_wrong_code_reaches_the_host_with_noise_and_crosstalk() -> None:
    """The firmware's HoleScanner (a seated end after two scans, anything else after the 30 ms
    debounce) fed by the physical model at the scan rate: every end of every pair goes into a
    hole magnet by magnet with the hands' timing and comes out again, on seeded boards and on
    the corners of every tolerance, with the ADC's noise on every reading. The only codes ever
    reported are the end's own and the empty hole, in that order, each within two scans of the
    last magnet settling."""
    t = physics.load_thresholds()
    sigma = physics.NOISE_SIGMA
    worlds = [World(seed=s, empty=True) for s in range(4)] + [_extreme(9, True), _extreme(9, False)]
    worst_after_seated = 0
    reports = 0
    for wi, w in enumerate(worlds):
        rng = random.Random(f"debounce-{wi}")
        for h in (0, 3, 7):
            k0 = h * POSITIONS
            for pid, pair in sorted(w.pairs.items()):
                for end in pair.ends:
                    hs = _firmware_scanner(t)
                    hs.set_zero([w.offset[k0 + p] for p in range(POSITIONS)])
                    uv = [w.volts_uv(k0 + p) for p in range(POSITIONS)]
                    now = rng.randrange(10)  # the scans' phase against the hand
                    got: list[tuple[int, int]] = []
                    for action in ("insert", "pull"):
                        changes = (w.insert(h + 1, pid, end.hidden) if action == "insert"
                                   else w.pull(h + 1))
                        start = [uv[c.k - k0] for c in changes]
                        seated = max(c.delay_ms + c.ramp_ms for c in changes)
                        levels = [0] * POSITIONS
                        for tick in range(0, 100, 10):
                            ms = now % 10 + tick
                            for i, c in enumerate(changes):
                                dt = ms - c.delay_ms
                                frac = 0.0 if dt <= 0 else 1.0 if dt >= c.ramp_ms else dt / c.ramp_ms
                                v = round(start[i] + (c.uv - start[i]) * frac)
                                r16 = w.adc.raw16(v) + round(rng.gauss(0, sigma))
                                raw = max(0, min(65535, r16)) >> 4
                                levels[c.k - k0] = (raw << 4) | (raw >> 8)
                            hs.update(levels, now + tick)
                            if hs.n_changed:
                                got.append((hs.codes[0], tick - seated))
                        uv = [c.uv for c in changes]
                        now += 100
                    want = [end.code, 0]
                    assert [c for c, _ in got] == want, (wi, h, pid, end.hidden, got)
                    worst_after_seated = max(worst_after_seated, *(d for _, d in got))
                    reports += len(got)
    assert reports == len(worlds) * 3 * 20 * 2
    assert worst_after_seated <= t["settle_ms"] + 10, worst_after_seated


def _doc_magnet_row() -> str:
    text = (paths.repo_root() / "docs" / "simulator.md").read_text(encoding="utf-8")
    return next(ln for ln in text.splitlines() if ln.startswith("| `magnet <hole>"))


def test_the_docs_magnet_strengths_are_what_the_model_does() -> None:
    """docs/simulator.md says which strengths always read, which never, and that none flickers:
    every seed, every magnet of the ends in a few holes, both ends of the ADC reference range,
    the firmware's HoleScanner fed with the ADC's noise for two seconds at the scan rate."""
    row = _doc_magnet_row()
    m = re.search(r"From (0\.\d+) up a magnet always reads, up to (0\.\d+) never", row)
    assert m, row
    always, never = float(m.group(1)), float(m.group(2))
    assert "No strength makes a hole flicker" in row and "flicker near" not in row
    t = physics.load_thresholds()
    rng = random.Random(5)
    for seed in range(12):
        w = World(seed=seed, empty=True, adc_vref_mv=(1000, 1200)[seed % 2])
        for h in (1, 6):
            pid = sorted(w.pairs)[seed % len(w.pairs)]
            end = w.pairs[pid].ends[seed % 2]
            w.insert(h + 1, pid, end.hidden)
            for p in [i for i, c in enumerate(end.magnets) if c != "-"]:
                lost = end.magnets[:p] + "-" + end.magnets[p + 1:]
                lost_code = sum("-NS".index(c) * 3**i for i, c in enumerate(lost))
                for strength in (never, 0.1, always, 0.8, 1.0, 0.2 + rng.random() * 0.45):
                    w.set_magnet(h + 1, p + 1, strength)
                    codes = _scan_hole(w, h, t, rng, seconds=2.0)
                    # no flicker: at most one change (noise first lifting a magnet just under
                    # `on` over it), and never back to a code it left
                    assert len(codes) <= 2 and len(set(codes)) == len(codes), (seed, h, p, strength, codes)
                    if strength >= always:
                        assert codes[0] == end.code, (seed, h, p, strength)
                    elif strength <= never:
                        assert codes[0] == lost_code, (seed, h, p, strength)
                w.set_magnet(h + 1, p + 1, 1.0)
            w.pull(h + 1)


def _scan_hole(w: World, h: int, t: dict[str, int], rng: random.Random, seconds: float) -> list[int]:
    """The codes the firmware reports for hole h (0-based), with the pair put in fresh (every
    sensor from its zero), then read every 10 ms for `seconds` with the ADC's noise."""
    hs = _firmware_scanner(t)
    k0 = h * POSITIONS
    hs.set_zero([w.offset[k0 + p] for p in range(POSITIONS)])
    target = [w.volts_uv(k0 + p) for p in range(POSITIONS)]
    levels = [0] * POSITIONS
    got: list[int] = []
    for tick in range(0, int(seconds * 1000), 10):
        for p in range(POSITIONS):
            r16 = w.adc.raw16(target[p]) + round(rng.gauss(0, physics.NOISE_SIGMA))
            raw = max(0, min(65535, r16)) >> 4
            levels[p] = (raw << 4) | (raw >> 8)
        hs.update(levels, tick)
        if hs.n_changed:
            got.append(hs.codes[0])
        assert not hs.hole_fault[0], "the hole never settles"
    return got or [hs.codes[0]]
