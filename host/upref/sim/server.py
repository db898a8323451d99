"""Where callers find the simulated board: `SimBoard` (board.py), its error `SimError`, and
`cli_main`, the `upref sim` command (cli.py). The board itself is made of parts with one job
each; board.py's docstring lists them and docs/simulator.md describes them.

    from upref.sim.server import SimBoard

    with SimBoard(seed=3) as board:
        ser = serial.serial_for_url(board.port, baudrate=115200, timeout=1)
        board.pull(4)
"""

from __future__ import annotations

from upref.sim.board import SimBoard
from upref.sim.cli import sim_main as cli_main
from upref.sim.errors import SimError

__all__ = ["SimBoard", "SimError", "cli_main"]
