"""The simulated board's physical model: sensor levels against the pin map's thresholds,
crosstalk, lost magnets, the starting mix and hand timing."""

from __future__ import annotations

import pytest
from upref.board.codes import CodeTable
from upref.sim import physics
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


def test_sensor_zeros_scatter_around_mid_scale_by_seed() -> None:
    w = World(seed=1, empty=True)
    assert all(abs(z - 32768) <= physics.OFFSET_SPREAD for z in w.offset)
    assert len(set(w.offset)) > 30
    assert w.levels() == w.offset  # nothing in the holes: every sensor at its zero
    assert World(seed=1, empty=True).offset == w.offset
    assert World(seed=2, empty=True).offset != w.offset


@pytest.mark.parametrize("seed", [0, 7, 23])
def test_a_magnet_over_a_sensor_moves_it_9000_to_14000_and_its_neighbours_little(seed: int) -> None:
    for h in range(physics.HOLES):
        for pos in range(POSITIONS):
            w, k = single_magnet_world(seed, h, pos)
            d = abs(delta(w, k))
            assert 9000 <= d <= 14000, (h, pos, d)
            k0 = h * POSITIONS
            nb = [k0 + (pos + 1) % 4, k0 + (pos - 1) % 4]
            opp = k0 + (pos + 2) % 4
            assert all(abs(delta(w, n)) <= 2500 for n in nb)
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
    assert [c.level for c in changes] == w.levels()[12:16]
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
