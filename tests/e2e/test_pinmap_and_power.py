"""The pins really come from the pin map, and the sensors' switched supply really matters.

A pin map with pins moved (the button, a multiplexer select line, a bank's ADC input) runs the
unchanged firmware on the simulated board: both read the same map, so both move and everything
still works. Two controls show the test could fail: the same firmware reading a stale map while
the simulator wires the moved one (what a firmware with hard-coded pins would do) loses the
button and misreads the holes; and a firmware that never switches the sensors' supply on sees
no sensor at all."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from harness import Host, truth
from upref import paths
from upref.board.model import ButtonObservation, FaultObservation
from upref.hardware import pinmap as pinmap_rules

REAL: dict[str, Any] = json.loads(paths.pinmap_path().read_text(encoding="utf-8"))


def moved_map(tmp_path: Path) -> Path:
    """The real map with the button and select line S0 swapped (GPIO 4 <-> 13) and bank B's
    ADC input moved from GPIO 33 to 35: every change is one an ESP32 accepts."""
    pm = copy.deepcopy(REAL)
    sig = pm["signals"]
    assert (sig["button"]["gpio"], sig["mux_s0"]["gpio"], sig["mux_b_sig"]["gpio"]) == (4, 13, 33)
    sig["button"]["gpio"], sig["mux_s0"]["gpio"] = 13, 4
    sig["mux_b_sig"]["gpio"] = 35
    sig["mux_b_sig"]["function"] = "multiplexer B common (sensors 17-32) to ADC1_CH7"
    assert pinmap_rules.validate(pm) == []
    path = tmp_path / "pinmap-moved.json"
    path.write_text(json.dumps(pm, indent=1), encoding="utf-8")
    return path


def button_presses(host: Host) -> int:
    return sum(1 for o in host.observations if isinstance(o, ButtonObservation) and o.pressed)


def test_a_moved_pin_moves_in_the_firmware_and_the_simulator(
    make_board, make_host, tmp_path: Path
) -> None:
    board = make_board(seed=13, pinmap_path=moved_map(tmp_path))
    flashed = json.loads((board.flash_dir / "pinmap.json").read_text())
    assert flashed["signals"]["button"]["gpio"] == 13  # the board's flash carries the new map
    host = make_host(board.port)
    # every hole reads right: select lines (S0 now on GPIO 4), bank B on GPIO 35, the switches
    assert host.pump(lambda: host.codes() == truth(board), 5), (host.codes(), truth(board))
    assert not host.model.faults
    for hole in (2, 6):  # a hole on bank A (holes 1-4) and one on bank B (5-8)
        board.flip(hole)
        assert host.pump(lambda: host.codes() == truth(board), 5), hole
    # the button, now on GPIO 13, still reaches the host
    board.button("click")
    assert host.pump(lambda: button_presses(host) >= 1, 3)


def test_a_firmware_reading_another_map_than_the_board_is_wired_by_does_not_work(
    make_board, make_host, tmp_path: Path
) -> None:
    # the unchanged firmware, pointed at the original map while the simulated board is wired
    # by the moved one: exactly what a firmware with its pins written into the code would do
    flash = tmp_path / "flash-stale"
    flash.mkdir()
    (flash / "pinmap-stale.json").write_text(json.dumps(REAL), encoding="utf-8")
    main = tmp_path / "main_stale.py"
    main.write_text(
        "import app\nimport board\n\napp.App(board.Board('pinmap-stale.json')).run()\n",
        encoding="utf-8",
    )
    board = make_board(seed=13, pinmap_path=moved_map(tmp_path), flash_dir=flash, main=str(main))
    host = make_host(board.port)
    host.drain(1.0)
    # bank B's input is read on GPIO 33, where nothing is wired now: its sensors float
    faulty = {o.key for o in host.observations if isinstance(o, FaultObservation) and o.raised}
    assert {f"s{k}" for k in range(17, 33)} & faulty, faulty
    assert host.codes() != truth(board)
    board.button("click")
    host.drain(1.0)
    assert button_presses(host) == 0  # GPIO 4 is S0 now: the button press never arrives


def test_a_firmware_that_never_switches_the_sensors_on_sees_none_of_them(
    make_board, make_host, tmp_path: Path
) -> None:
    main = tmp_path / "main_unpowered.py"
    main.write_text(
        "import app\nimport board\nimport json\nfrom hallmux import HallMux\n\n"
        "b = board.Board()\n"
        "channels = [tuple(c) for c in json.load(open('pinmap.json'))['hall']['channels']]\n"
        "b.mux = HallMux(b.mux_adcs, b.mux_select, channels, b.settle_us)  # no power_pins\n"
        "app.App(b).run()\n",
        encoding="utf-8",
    )
    board = make_board(seed=13, main=str(main))
    host = make_host(board.port)
    host.drain(1.0)
    host.link.command("RAW", timeout=2.0)
    raw = host.link.raw
    assert sorted(raw) == list(range(1, 11))
    levels = [v for h in sorted(raw) for v in raw[h].levels]
    assert max(levels) < 1500, levels  # every sensor at ground: below the rail_low threshold
    assert {f"s{k}" for k in range(1, 30)} <= host.model.faults  # railed low (SNAP holds ~30)
    assert host.codes() == [0] * 10 != truth(board)


def test_calibration_reads_through_the_switched_supply(make_board, make_host) -> None:
    board = make_board(seed=14, empty=True, calibrated=False)
    host = make_host(board.port)
    reply = host.link.command("CAL", timeout=5.0, retries=0)
    assert type(reply).__name__ == "Ok", reply
    zeros = json.loads((board.flash_dir / "calib.json").read_text())
    # every zero is its sensor's true offset: read powered, after the power-on time
    off = [(k, z, o) for k, (z, o) in enumerate(zip(zeros, board.world.offset, strict=True))]
    assert all(abs(z - o) <= 100 for _, z, o in off), [x for x in off if abs(x[1] - x[2]) > 100]
